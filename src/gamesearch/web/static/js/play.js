// Play: a board to click or drag on (flip, keyboard), one player selector per seat, an AI
// whose thinking streams in, a move tree (a move made at an earlier position starts a
// variation, shown in parentheses as on lichess), undo, verdicts in words, a position's
// text (FEN) and record files (PGN, SGF, PDN) to open, resigning and draw offers. In
// hidden-information games the server sends only the viewer's information set (cards it
// may not see come as "?"), and a move made while browsing replaces the later ones.
// Analysis as on lichess (analysis.js): an evaluation bar, arrows for the best move and
// the line's next move, the best lines of the position on screen (browsed or live), each
// move of a line a button that puts it in the move tree; the link keeps the tree.

import { renderLines, showEvalBar, startAnalysis } from "./analysis.js";
import { ApiError, getJSON, postJSON, streamEvents } from "./api.js";
import { renderBoard, showArrows } from "./boards.js";
import { h, setOptions } from "./dom.js";
import { gameOverText, offerDraw, personSeat, replayEnd, resign } from "./ending.js";
import { writeHash } from "./url.js";
import { verdictWords } from "./verdict.js";

const $ = (id) => document.getElementById(id);
const AI_PAUSE_MS = 250;  // between two AI moves, so a person can follow an AI-vs-AI game
const ANALYSIS_SECONDS = 3;  // the engine's time for the analysis of one position
const ANALYSIS_LONGER = 10;  // seconds of "Search longer" (the server's most)
const ANALYSIS_SETTLE_MS = 200;  // a position shown this long is analysed: stepping quickly
                                 // through the moves starts no search per step

const state = {
  games: [], game: "tictactoe", params: "",
  seats: [], hiddenGame: false,    // from /api/seats: each seat's agents and default
  players: [],                     // per seat: { kind, options }
  seatsOf: null,                   // the game spec the players were chosen for
  wanted: {},                      // p1, p2, ... from the address, applied once seats are known
  moves: [], deal: null,           // the moves as this viewer sees them; the server's deal token
  seed: null,                      // the link's seed: dice and deals drawn from it (replayable)
  resigned: null,                  // the seat that resigned after the moves (the game is over)
  position: null, cursor: null,    // the live position; the move shown while browsing (or null)
  browsed: null,                   // the position shown while browsing
  generation: 0, thinking: null, searchId: null, verdictCtl: null,
  values: {},  // move -> perfect-play value, from the verdict of the live position
  root: null,   // the move tree: { move, san, source, children, parent }; children[0] leads
  flip: false,  // the board seen from the other side
  fen: "",      // the game's start position text (the entry's position parameter), or ""
  ended: null,  // an end a person chose: { outcome, token }
  wantedPly: null, wantedEnd: null,  // from the address, applied once the game is loaded
  lastValue: {},  // per seat: the value of its AI's last search (its own viewpoint)
  analysis: null, analysisKey: null,  // the analysis of the position on screen, its key
  engine: "",  // the analysis's engine (an agent spec, `engine=` in the link); "": the default
  thinkEval: null,  // the thinking AI's latest score and line: { key, score, pv }
  analysisTimer: null,  // the analysis about to start, once the position has settled
};

// --- the move tree ----------------------------------------------------------------------------
function newNode(move, parent) { return { move, san: null, source: "", children: [], parent }; }

function resetTree() { state.root = newNode(null, null); }

// The nodes of a line of moves from the start, created where the tree lacks them (a new
// move at a node joins its children after the others: a variation).
function graft(moves, notation = null) {
  if (!state.root) resetTree();
  const nodes = [];
  let node = state.root;
  moves.forEach((move, i) => {
    let child = node.children.find((c) => c.move === move);
    if (!child) { child = newNode(move, node); node.children.push(child); }
    if (notation && notation[i]) child.san = notation[i];
    nodes.push(child);
    node = child;
  });
  return nodes;
}

// The whole tree as the link writes it, PGN's way: the first child's line, each other
// child in parentheses after the move it replaces ("e2e4 e7e5 ( c7c5 g1f3 ) g1f3").
function treeText() {
  const line = (node) => {
    const out = [];
    for (let n = node; n.children.length; n = n.children[0]) {
      const [main, ...others] = n.children;
      out.push(main.move);
      for (const other of others) out.push("(", other.move, ...line(other), ")");
    }
    return out;
  };
  return state.root ? line(state.root).join(" ") : "";
}

function hasVariations(node = state.root) {
  return Boolean(node) && (node.children.length > 1 || node.children.some(hasVariations));
}

// The tree of a link's `tree` text; false (and an empty tree) where it does not read.
function readTree(text) {
  resetTree();
  const open = [];
  let at = state.root;
  for (const token of text.split(" ").filter(Boolean)) {
    if (token === "(") {  // another move instead of the last one
      if (!at.parent) { resetTree(); return false; }
      open.push(at);
      at = at.parent;
    } else if (token === ")") {
      if (!open.length) { resetTree(); return false; }
      at = open.pop();
    } else {
      let child = at.children.find((c) => c.move === token);
      if (!child) { child = newNode(token, at); at.children.push(child); }
      at = child;
    }
  }
  if (open.length) { resetTree(); return false; }
  return true;
}

function pathOf(node) {
  const moves = [];
  for (let n = node; n && n.parent; n = n.parent) moves.unshift(n.move);
  return moves;
}

// The moves to `node` and on along its first children: the line shown when it is chosen.
function lineThrough(node) {
  const moves = pathOf(node);
  for (let n = node.children[0]; n; n = n.children[0]) moves.push(n.move);
  return moves;
}


// --- players ------------------------------------------------------------------------------
function parseAgent(text) {
  if (!text || text === "human") return { kind: "human", options: "" };
  const at = text.indexOf(":");
  return at < 0 ? { kind: text, options: "" }
    : { kind: text.slice(0, at), options: text.slice(at + 1) };
}

function agentSpec(cfg) {
  if (cfg.kind === "human") return "human";
  const options = cfg.options.trim();
  return options ? `${cfg.kind}:${options}` : cfg.kind;
}

// The game's position parameter (chess's fen), from /api/games; null where it has none.
function positionParam() {
  return state.games.find((g) => g.name === state.game)?.position?.param || null;
}

function gameSpec() {
  const parts = state.params.trim() ? [state.params.trim()] : [];
  if (state.fen && positionParam()) parts.push(`${positionParam()}=${state.fen}`);
  return parts.length ? `${state.game}:${parts.join(",")}` : state.game;
}

// Split a game spec's parameters: the position's text (a FEN holds no comma) apart.
function setSpec(spec) {
  const at = spec.indexOf(":");
  state.game = at < 0 ? spec : spec.slice(0, at);
  const param = positionParam();
  const rest = [];
  state.fen = "";
  for (const part of (at < 0 ? "" : spec.slice(at + 1)).split(",").filter(Boolean)) {
    if (param && part.trim().startsWith(`${param}=`)) state.fen = part.trim().slice(param.length + 1);
    else rest.push(part);
  }
  state.params = rest.join(",");
}

// The seat whose cards are shown in a hidden-information game: the one person's. None
// (everything shown) when every seat is an AI, or several people share this screen.
function viewer() {
  if (!state.hiddenGame) return null;
  const seats = state.players.flatMap((p, i) => p.kind === "human" ? [i] : []);
  return seats.length === 1 ? seats[0] : null;
}

function request(moves) {
  const body = { game: gameSpec(), moves, viewer: viewer(), deal: state.deal };
  if (state.seed !== null) body.seed = state.seed;
  return body;
}

// The seat a Resign press gives up for: the person to move, else the one person playing.
function resigningSeat() {
  const pos = state.position;
  if (!pos || pos.terminal) return null;
  if (isHumanTurn()) return pos.to_move;
  const people = state.players.flatMap((p, i) => p.kind === "human" ? [i] : []);
  return people.length === 1 ? people[0] : null;
}

function saveHash() {
  const spec = state.params.trim() ? `${state.game}:${state.params.trim()}` : state.game;
  const params = { game: spec, fen: positionParam() ? state.fen : "",
                   moves: state.moves.join(" "), deal: state.deal,
                   ply: browsing() ? state.cursor : "", flip: state.flip ? "1" : "",
                   end: state.ended ? state.ended.token : "",
                   tree: !state.hiddenGame && hasVariations() ? treeText() : "",
                   analysis: analysisOn() ? $("analysis-count").value : "",
                   engine: state.engine, seed: state.seed ?? "" };
  if (state.resigned !== null) params.resigned = state.resigned;
  state.players.forEach((cfg, seat) => { params[`p${seat + 1}`] = agentSpec(cfg); });
  writeHash("play", params);
}

function showError(err) {
  $("play-error").textContent = err ? String(err.message || err) : "";
}

async function loadSeats() {
  const data = await getJSON(`/api/seats?game=${encodeURIComponent(gameSpec())}`);
  state.seats = data.seats;
  state.hiddenGame = data.hidden;
  const old = state.seatsOf === gameSpec() ? state.players : [];  // same game: keep them
  const refused = [];
  state.players = data.seats.map((seat, i) => {
    const wanted = state.wanted[`p${i + 1}`];
    const asked = wanted && parseAgent(wanted);
    if (asked && asked.kind !== "human" && !seat.agents.includes(asked.kind)) {
      refused.push(`p${i + 1}=${wanted}: no agent "${asked.kind}" plays ${seat.name} here; ` +
                   `${seat.default} plays instead`);
      return parseAgent(seat.default);
    }
    if (wanted) return parseAgent(wanted);
    if (old[i]) return old[i];
    return i === 0 ? parseAgent("human") : parseAgent(seat.default);
  });
  state.seatsOf = gameSpec();
  state.wanted = {};
  state.refused = refused.length ? `${refused.join("; ")}.` : null;
  buildPlayers();
}

function buildPlayers() {
  const box = $("players");
  box.replaceChildren(...state.players.map((cfg, seat) => {
    const info = state.seats[seat] || { name: `player ${seat + 1}`, agents: [], default: "" };
    const kinds = ["human", ...info.agents];
    if (!kinds.includes(cfg.kind)) kinds.push(cfg.kind);  // from a link: shown, server judges
    const select = h("select", { class: "kind", "aria-label": `${info.name} plays` });
    setOptions(select, kinds.map((k) => [k, k === "human" ? "person" : k,
                                         (info.summaries || {})[k]]));
    select.value = cfg.kind;
    const options = h("input", { class: "options", size: 12, value: cfg.options,
                                 placeholder: "options", "aria-label": `${info.name} options`,
                                 title: "agent options, e.g. time=1 or depth=4" });
    options.hidden = cfg.kind === "human";
    const span = h("span", { class: "player-config", dataset: { side: seat } },
                   `${info.name}: `, select, " ", options);
    select.addEventListener("change", () => {
      cfg.kind = select.value;
      const fits = parseAgent(info.default);
      cfg.options = cfg.kind === fits.kind ? fits.options : "";
      seatsChanged();
    });
    options.addEventListener("change", () => { cfg.options = options.value; seatsChanged(); });
    return span;
  }));
}

function seatsChanged() {
  buildPlayers();
  if (state.hiddenGame) {  // a deal belongs to its viewer: other eyes, another deal
    newGame();
    return;
  }
  saveHash();
  maybeThink();
}

// --- the position ---------------------------------------------------------------------------
function isHumanTurn() {
  const pos = state.position;
  return pos && !pos.terminal && !state.ended && state.players[pos.to_move]?.kind === "human";
}

// Whether a person makes the move in `pos`: their seat's, or any while analysis is on (as
// on lichess's analysis board, the AI then waits).
function personMoves(pos) {
  return Boolean(pos) && !pos.terminal && !state.ended && pos.to_move !== null && pos.to_move >= 0
    && (state.players[pos.to_move]?.kind === "human" || (analysisOn() && !state.hiddenGame));
}

function browsing() { return state.cursor !== null && state.cursor < state.moves.length; }

function shownPosition() { return browsing() && state.browsed ? state.browsed : state.position; }

function lastMoveIndex() { return (browsing() ? state.cursor : state.moves.length) - 1; }

// The moves to the position on screen, and that position's key (analyses are its own).
function shownMoves() { return browsing() ? state.moves.slice(0, state.cursor) : state.moves; }

function positionKey() { return `${gameSpec()}|${state.deal || ""}|${shownMoves().join(" ")}`; }

// --- analysis -------------------------------------------------------------------------------
function analysisOn() { return $("analysis-on").checked; }

// The score and line known for the position on screen: the analysis's, else the thinking
// AI's (its bar stays after its move: the score of the line it played).
function evaluation() {
  const a = state.analysis;
  if (a && state.analysisKey?.startsWith(`${positionKey()}|`) && (a.score || a.pv.length)) {
    return { score: a.score, pv: a.pv, arrows: true };
  }
  const t = state.thinkEval;
  if (t && t.key === positionKey()) return { score: t.score, pv: t.pv, arrows: t.live };
  // a person's move since: the bar keeps the AI's last score (no flicker) until it thinks
  if (t && !browsing() && !analysisOn() && t.key.startsWith(`${gameSpec()}|`)) {
    return { score: t.score, pv: [], arrows: false };
  }
  return null;
}

function currentArrows() {
  const e = evaluation();
  if (!e || !e.arrows) return [];
  return e.pv.slice(0, 2).map((move, i) => ({ move, kind: i === 0 ? "best" : "next" }));
}

function showEvaluation() {
  const e = evaluation();
  // the second player is at the bottom only on a board that turns round (files and ranks)
  const turns = Boolean(shownPosition()?.board?.files);
  showEvalBar($("eval-bar"), e ? e.score : null, state.flip && turns ? 1 : 0);
  showArrows($("board"), currentArrows());
}

// Analyse the position on screen (a move, a step back: a new analysis, the old one's
// answers dropped); nothing while analysis is off, the game is over or cards are hidden.
function analyse() {
  const pos = shownPosition();
  const lines = Number($("analysis-count").value) || 1;
  const key = analysisOn() && pos ? `${positionKey()}|${lines}` : null;
  $("analysis-box").hidden = !analysisOn();
  if (key === state.analysisKey) return;
  state.analysis?.abort();
  state.analysis = null;
  clearTimeout(state.analysisTimer);
  state.analysisKey = key;
  $("analysis-list").replaceChildren();
  $("analysis-note").textContent = "";
  if (key === null) { showEvaluation(); return; }
  const why = pos.terminal || (!browsing() && state.ended) ? "the game is over"
    : pos.to_move === null || pos.to_move < 0 ? "chance is to move"
      : viewer() !== null ? "no analysis while cards are hidden" : null;
  if (why) { $("analysis-note").textContent = `Nothing to analyse: ${why}.`; showEvaluation(); return; }
  $("analysis-note").textContent = "analysing…";
  const body = { ...request(shownMoves()), lines, time: ANALYSIS_SECONDS };
  if (state.engine) body.agent = state.engine;
  showEvaluation();
  state.analysisTimer = setTimeout(() => {
    if (state.analysisKey !== key) return;  // the page moved on meanwhile
    startLines(body);
  }, ANALYSIS_SETTLE_MS);
}

function startLines(body) {
  state.analysis?.abort();
  state.analysis = startAnalysis(body, (a) => { if (a === state.analysis) renderAnalysis(); });
  state.analysis.body = body;
}

function renderAnalysis() {
  const a = state.analysis;
  if (!a) return;
  renderLines($("analysis-list"), a.lines, playLine);
  const engine = `engine: ${a.agent || "the game's default"}`;
  $("analysis-note").textContent = a.note ? `${a.note} (${engine})`
    : a.done ? engine : `${engine}, analysing…`;
  if (a.done && a.lines.length && a.body.time < ANALYSIS_LONGER) {  // the same, longer
    $("analysis-note").append(" ", h("button", {
      id: "analysis-longer", title: `analyse this position for ${ANALYSIS_LONGER} s`,
      onclick: () => startLines({ ...a.body, time: ANALYSIS_LONGER }) }, "Search longer"));
  }
  showEvaluation();
}

// A line's moves from the position on screen go into the move tree (a variation where the
// tree has other moves there) and the board shows the last of them.
function playLine(line) {
  if (state.thinking) return;
  const nodes = graft([...shownMoves(), ...line]);
  goTo(nodes[nodes.length - 1]);
}

function render() {
  const pos = shownPosition();
  if (!pos) return;
  $("save-game").hidden = !state.games.find((g) => g.name === state.game)?.record;
  const live = !browsing();
  const active = personMoves(pos) && !state.thinking;
  const last = lastMoveIndex();
  renderBoard($("board"), pos, humanMove, active, live ? state.values : {},
              { lastMove: last >= 0 ? pos.moves[last] : null, flip: state.flip,
                arrows: currentArrows() });
  renderMoveList();
  renderPositionText(pos);
  const two = pos.players.length === 2 && !state.hiddenGame;
  const open = state.position && !state.position.terminal && !state.ended
    && personSeat(state.position, state.players) !== null;
  $("offer-draw").hidden = !(two && open);
  $("flip").setAttribute("aria-pressed", state.flip ? "true" : "false");
  const status = $("status");
  if (!live) {
    status.textContent = `Viewing the position after move ${state.cursor} of ` +
      `${state.moves.length}` + (active ? " (a move here starts a variation)" : "");
  } else if (state.ended || pos.terminal) {
    status.textContent = gameOverText(pos, state.ended);
  } else if (pos.to_move === null || pos.to_move < 0) {
    status.textContent = "chance to move";
  } else {
    const who = pos.players[pos.to_move];
    status.textContent = `${who} to move` + (isHumanTurn() ? " (your move)"
      : personMoves(pos) ? " (analysis: the AI waits)" : " (AI)");
  }
  $("busy").hidden = !state.thinking;
  $("board").setAttribute("aria-busy", state.thinking ? "true" : "false");
  $("stop").disabled = !state.thinking;
  $("resign").disabled = !live || resigningSeat() === null;
  analyse();
  showEvaluation();
}

// The position's text (FEN), copyable, where the game has one.
function renderPositionText(pos) {
  const code = pos.position_text;
  $("position-box").hidden = !code;
  if (!code) return;
  $("position-title").textContent = code.title;
  $("position-text").value = code.text;
}

// The move tree as lichess writes it: the main line (first children) in order, numbered
// in pairs where two players alternate ("1. e4 e5 2. Nf3"), each node's other children
// after it in parentheses ("(1... c5 2. Nf3)"), a click on any move goes there.
function renderMoveList() {
  const line = state.root ? graft(state.moves) : [];
  const shown = lastMoveIndex();
  const current = shown >= 0 ? line[shown] : null;
  const paired = Boolean(state.position?.paired);
  const offset = state.position?.first_ply || 0;  // Black to move in a set-up position
  const label = (node, index, first) => {
    if (!paired) return null;
    const ply = index + offset;
    const number = Math.floor(ply / 2) + 1;
    if (ply % 2 === 0) return h("span", { class: "move-number" }, `${number}.`);
    return first ? h("span", { class: "move-number" }, `${number}...`) : null;
  };
  const button = (node, ply, index) => h("button", {
    class: node === current ? "move current" : "move",
    dataset: { index: index ?? "", ply, move: node.move, source: node.source || "" },
    title: node.move === "?" ? "hidden from you"
      : `after move ${ply + 1}` + (node.source ? ` (AI: ${node.source})` : ""),
    onclick: () => goTo(node) }, node.san || node.move);
  // A variation: `node`, then on along first children, with their own variations.
  const variation = (node, ply) => {
    const parts = [];
    let first = true;
    for (let n = node, p = ply; n; n = n.children[0], p++) {
      parts.push(label(n, p, first), button(n, p, null));
      first = false;
      if (n.children.length > 1) {
        for (const alt of n.children.slice(1)) parts.push(variation(alt, p + 1));
        first = true;
      }
    }
    return h("span", { class: "variation" }, "(", ...parts, ")");
  };
  const items = [];
  let first = true;
  for (let n = state.root?.children[0], ply = 0; n; n = n.children[0], ply++) {
    const alternatives = n.parent.children.slice(1);
    items.push(h("li", {}, label(n, ply, first), button(n, ply, ply),
                 ...alternatives.map((alt) => variation(alt, ply))));
    first = alternatives.length > 0;
  }
  $("movelist").replaceChildren(...items);
  $("movelist").classList.toggle("paired", paired);
  $("first").disabled = $("back").disabled = shown < 0;
  $("forward").disabled = $("last").disabled = !browsing();
}

// Go to a move anywhere in the tree: its line becomes the line on show.
async function goTo(node) {
  const moves = lineThrough(node), ply = pathOf(node).length;
  if (moves.join(" ") === state.moves.join(" ")) { await browse(ply); return; }
  state.moves = moves;
  state.ended = null;
  clearPanels();
  await load(ply < moves.length ? ply : null);
}

function clearPanels() {
  $("thinking").querySelector("tbody").replaceChildren();
  $("think-note").textContent = "";
  $("verdict").textContent = "";
  state.values = {};
  showError(null);
}

function cancelThinking() {
  if (state.thinking) state.thinking.abort();
  state.thinking = null;
  state.searchId = null;
}

// Load the line's live position (at its end); `ply`: then show the position after that
// many moves (the AI does not play on a line a person is looking back through).
async function load(ply = null) {
  const generation = ++state.generation;
  cancelThinking();
  showError(null);
  try {
    const body = request(state.moves);
    if (state.resigned !== null) body.resigned = state.resigned;
    const pos = await postJSON("/api/position", body);
    if (generation !== state.generation) return;
    if (state.refused) { showError(state.refused); state.refused = null; }
    accept(pos);
    if (state.wantedEnd) {
      const token = state.wantedEnd;
      state.wantedEnd = null;
      const end = await replayEnd(request(state.moves), token).catch(() => null);
      if (end && end.accepted) state.ended = { outcome: end.outcome, token };
    }
    if (ply !== null && ply < state.moves.length) {
      await browse(ply);
      saveHash();
      return;
    }
    render();
    saveHash();
    requestVerdict();
    maybeThink();
  } catch (err) {  // a refused position: no board of an earlier one stays under the error
    if (generation !== state.generation) return;
    showError(err);
    clearBoard();
  }
}

function clearBoard() {
  state.position = null;
  state.cursor = null;
  state.browsed = null;
  $("board").replaceChildren();
  $("status").textContent = "";
  $("movelist").replaceChildren();
}

function accept(pos) {
  state.moves = pos.moves;  // chance outcomes drawn by the server are moves too
  if (state.hiddenGame || !state.root) resetTree();  // no variations where moves are hidden
  graft(pos.moves, pos.notation);
  state.deal = pos.deal || null;
  state.position = pos;
  state.cursor = null;
  state.browsed = null;
}

function newGame() {
  state.resigned = null;
  state.thinkEval = null;
  state.moves = [];
  state.deal = null;
  state.ended = null;
  state.lastValue = {};
  resetTree();
  clearPanels();
  load();
}

function humanMove(move) {
  if (state.thinking || state.ended) return;
  if (browsing()) {  // play from the position shown: a variation (hidden games: a new line)
    if (!personMoves(state.browsed)) return;
    const prefix = state.moves.slice(0, state.cursor);
    if (!state.hiddenGame) {
      const parent = state.cursor ? graft(prefix)[state.cursor - 1] : state.root;
      const known = parent.children.find((c) => c.move === move);
      if (known) { goTo(known); return; }  // the move played before: go on along it
    }
    state.moves = prefix;
  } else if (!personMoves(state.position)) return;
  state.resigned = null;
  state.moves = [...state.moves, move];
  clearPanels();
  load();
}

// Show the position after the first k moves (k = all: back to the game).
async function browse(k) {
  k = Math.max(0, Math.min(k, state.moves.length));
  if (k === (browsing() ? state.cursor : state.moves.length)) return;  // there already
  if (k === state.moves.length) {
    state.cursor = null; state.browsed = null; render(); saveHash(); return;
  }
  const generation = state.generation;
  try {
    const pos = await postJSON("/api/position", { ...request(state.moves.slice(0, k)),
                                                  browse: true });
    if (generation !== state.generation) return;
    state.cursor = k;
    state.browsed = pos;
    render();
    saveHash();
  } catch (err) { showError(err); }
}

// --- the AI ---------------------------------------------------------------------------------
const show = (v) => v === null || v === undefined ? "?"
  : typeof v === "number" ? String(Math.round(v * 1000) / 1000) : String(v);

// The value as the search states it: a chess engine's centipawns ("cp 35", "mate 3"),
// an MCTS's win rate for the side to move, else the value on the game's scale.
function shownValue(data) {
  const extra = (data.stats || {}).extra || {};
  const rate = typeof extra.win_rate === "number"
    ? ` (win rate ${Math.round(extra.win_rate * 1000) / 10}%)` : "";
  return (extra.score ?? show(data.value)) + rate;
}

// The thinking table: one row per depth (a depth reported again replaces its row), the
// deepest first, at most THINKING_ROWS of them. The value is the Score's text from the first
// player's view, the evaluation bar's own label (docs/WEB.md), with what it counts in its
// title; the line is in the game's notation (SAN for chess).
const THINKING_ROWS = 12;

function scoreTitle(score) {
  if (!score) return "";
  const what = score.exact ? "proven" : "an estimate of the search, not a proof";
  return `${score.text}: ${score.kind}, from the first player's view, ${what}` +
    (typeof score.win_probability === "number"
      ? ` (win probability ${Math.round(100 * score.win_probability)}%)` : "");
}

function addThinkingRow(data) {
  const stats = data.stats || {};
  const body = $("thinking").querySelector("tbody");
  const depth = stats.depth ?? "";
  const score = data.score && data.score.text ? data.score : null;
  const line = (data.notation && data.notation.length ? data.notation : data.pv || []).join(" ");
  const cells = [depth, score ? score.text : shownValue(data), line, stats.visited, data.nps];
  const row = h("tr", { dataset: { depth: String(depth) } },
                ...cells.map((c) => h("td", {}, c ?? "")));
  if (score) {
    row.children[1].title = scoreTitle(score);
    row.children[1].dataset.kind = score.kind;
  }
  const same = [...body.rows].find((r) => r.dataset.depth === String(depth));
  if (same) same.replaceWith(row);
  else body.prepend(row);
  while (body.rows.length > THINKING_ROWS) body.lastElementChild.remove();
}

async function maybeThink() {
  const pos = state.position;
  if (!pos || pos.terminal || state.thinking || state.ended) return;
  const cfg = state.players[pos.to_move];
  if (!cfg || cfg.kind === "human") return;
  if (analysisOn()) {  // as on lichess's analysis board: both sides are the person's
    $("think-note").textContent = `${pos.players[pos.to_move]} (${agentSpec(cfg)}) waits ` +
      "while analysis is on";
    return;
  }
  const generation = state.generation;
  const ctl = new AbortController();
  state.thinking = ctl;
  $("thinking").querySelector("tbody").replaceChildren();
  $("think-note").textContent = `${pos.players[pos.to_move]} (${agentSpec(cfg)}) is thinking…`;
  render();
  let played = null;
  try {
    await streamEvents("/api/think", { ...request(state.moves), agent: agentSpec(cfg) },
                       (name, data) => {
      if (generation !== state.generation) return;
      if (name === "start") state.searchId = data.search;
      else if (name === "progress") {
        addThinkingRow(data);
        state.thinkEval = { key: positionKey(), score: data.score || null, pv: data.pv || [],
                            live: true };
        showEvaluation();
      }
      else if (name === "move") played = data;
      else if (name === "error") showError(new ApiError(data.error));
    }, ctl.signal);
  } catch (err) {
    if (err.name !== "AbortError") showError(err);
  }
  if (!played && generation === state.generation) $("think-note").textContent = "";
  if (generation !== state.generation || state.thinking !== ctl) return;
  state.thinking = null;
  state.searchId = null;
  if (!played) { render(); return; }
  const how = { search: "searched", cache: "exact answer found before",
                stopped: "stopped early: best completed depth",
                deadline: "at the end of its time: its best answer so far",
                shared: "cut short for a waiting move: best completed depth",
                fallback: `unsearched, the first move in the game's order: ${played.note}` };
  // the Score's text from the first player's view, as the table and the bar show it
  const value = played.score && played.score.text ? `score ${played.score.text}, `
    : "value" in played ? `value ${shownValue(played)}, ` : "";
  $("think-note").textContent = `played ${played.move} (${value}` +
    `${how[played.source] || played.source}, ${played.latency} s)`;
  $("think-note").dataset.source = played.source;
  state.generation++;
  const index = state.moves.length, mover = pos.to_move;
  if (typeof played.value === "number") state.lastValue[mover] = played.value;
  accept(played.position);
  // the bar keeps the played line's score; its arrows were the search's, now played
  state.thinkEval = played.score ? { key: positionKey(), score: played.score,
                                     pv: (played.pv || []).slice(1), live: false } : null;
  const node = graft(state.moves)[index];
  if (node) node.source = played.source;
  state.values = {};
  $("verdict").textContent = "";
  render();
  saveHash();
  requestVerdict();
  if (!played.position.terminal) setTimeout(maybeThink, AI_PAUSE_MS);
}

// --- saving the game ------------------------------------------------------------------------
// The games with a record format (/api/games says which) offer "Save game": the server
// writes the record of the moves so far, the page hands it to the browser as a download.
async function saveGame() {
  const body = { ...request(state.moves), players: state.players.map(agentSpec) };
  const token = state.ended?.token || "";
  const resigned = state.resigned ?? (token.startsWith("resign-") ? Number(token.slice(7)) : null);
  if (resigned !== null) body.resigned = resigned;  // the record's result: a resignation
  const record = await postJSON("/api/record", body);
  const url = URL.createObjectURL(new Blob([record.text], { type: "text/plain" }));
  const link = h("a", { href: url, download: record.filename });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);  // after the download has begun
}

// --- the verdict ----------------------------------------------------------------------------
async function requestVerdict() {
  if (state.verdictCtl) state.verdictCtl.abort();
  state.verdictCtl = null;
  $("verdict").textContent = "";
  state.values = {};
  const pos = state.position;
  if (!$("verdict-on").checked || !pos || pos.terminal) return;
  const ctl = new AbortController();
  state.verdictCtl = ctl;
  const generation = state.generation;
  try {
    const v = await postJSON("/api/verdict", request(state.moves), ctl.signal);
    if (ctl.signal.aborted || generation !== state.generation) return;
    $("verdict").textContent = verdictWords(v, pos);
    // Per-move values: exact alpha-beta's, or a solver report's "action_values".
    state.values = v.action_values || (v.report && v.report.action_values) || {};
    if (Object.keys(state.values).length) render();
  } catch (err) {
    if (err.name !== "AbortError" && generation === state.generation) {
      $("verdict").textContent = `verdict: ${err.message}`;
    }
  }
}

async function undo() {
  cancelThinking();
  if (state.resigned !== null) {  // taking back a resignation only
    state.resigned = null;
    clearPanels();
    await load();
    return;
  }
  const generation = ++state.generation;
  // Take back moves until a person is to move again (or the start).
  let moves = state.moves.slice(0, browsing() ? state.cursor : state.moves.length);
  while (moves.length) {
    moves = moves.slice(0, -1);
    const pos = await postJSON("/api/position", { ...request(moves), browse: true });
    if (generation !== state.generation) return;
    if (state.players[pos.to_move]?.kind === "human") break;
  }
  // the moves taken back leave the tree
  const line = graft(state.moves);
  const gone = line[moves.length];
  if (gone) gone.parent.children = gone.parent.children.filter((c) => c !== gone);
  state.moves = moves;
  state.ended = null;
  clearPanels();
  await load();
}

// --- setting up -----------------------------------------------------------------------------
export async function initPlay(params) {
  const games = await getJSON("/api/games");
  state.games = games.games;
  const select = $("game-select");
  setOptions(select, state.games.map((g) => [g.name, g.title || g.name, g.summary]));
  applyParams(params);
  select.addEventListener("change", async () => {
    state.game = select.value; state.params = ""; $("game-params").value = "";
    state.players = [];
    await changeGame();
  });
  $("game-params").addEventListener("change", async () => {
    state.params = $("game-params").value;
    await changeGame();
  });
  $("new-game").addEventListener("click", newGame);
  $("undo").addEventListener("click", () => undo().catch(showError));
  $("swap").addEventListener("click", () => {  // every seat moves one place on
    state.players.push(state.players.shift());
    state.players.forEach((cfg, seat) => {  // an agent that cannot play its new seat (a
      const info = state.seats[seat];       // ghost in Pacman's) gives way to the seat's own
      if (cfg.kind !== "human" && info && !info.agents.includes(cfg.kind)) {
        Object.assign(cfg, parseAgent(info.default));
      }
    });
    buildPlayers();
    if (state.hiddenGame) state.deal = null;
    state.moves = state.hiddenGame ? [] : state.moves;
    clearPanels();
    load();
  });
  $("stop").addEventListener("click", () => {
    if (state.searchId) postJSON("/api/stop", { search: state.searchId }).catch(showError);
  });
  $("resign").addEventListener("click", () => {
    const seat = resigningSeat();
    if (seat === null) return;
    cancelThinking();
    state.resigned = seat;
    clearPanels();
    load();
  });
  $("first").addEventListener("click", () => browse(0));
  $("back").addEventListener("click", () => browse(lastMoveIndex()));
  $("forward").addEventListener("click", () => browse(lastMoveIndex() + 2));
  $("last").addEventListener("click", () => browse(state.moves.length));
  $("flip").addEventListener("click", flipBoard);
  document.addEventListener("keydown", (e) => {
    if ($("view-play").hidden || /INPUT|SELECT|TEXTAREA/.test(e.target.tagName)) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const keys = { ArrowLeft: () => browse(lastMoveIndex()),
                   ArrowRight: () => browse(lastMoveIndex() + 2),
                   Home: () => browse(0), ArrowUp: () => browse(0),
                   End: () => browse(state.moves.length),
                   ArrowDown: () => browse(state.moves.length), f: flipBoard };
    if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
  });
  $("position-copy").addEventListener("click", () => {
    $("position-text").select();
    navigator.clipboard?.writeText($("position-text").value).catch(() => {});
  });
  $("import-open").addEventListener("click", () =>
    openRecord($("import-text").value, "").catch(showError));
  $("import-file").addEventListener("change", async () => {
    const file = $("import-file").files[0];
    if (!file) return;
    if (file.size > 60_000) { showError(`${file.name}: over 60,000 bytes`); return; }
    await openRecord(await file.text(), file.name).catch(showError);
    $("import-file").value = "";
  });
  $("offer-draw").addEventListener("click", () => endByPerson("draw").catch(showError));
  $("verdict-on").addEventListener("change", requestVerdict);
  $("analysis-on").addEventListener("change", () => {
    render();
    saveHash();
    if (!analysisOn()) { $("think-note").textContent = ""; maybeThink(); }
  });
  $("analysis-count").addEventListener("change", () => { analyse(); saveHash(); });
  $("save-game").addEventListener("click", () => saveGame().catch(showError));
  await changeGame(false);
  return {
    async shown(p) {
      if (p.has("game")) { applyParams(p); await changeGame(false); } else saveHash();
    },
  };
}

function flipBoard() {
  state.flip = !state.flip;
  render();
  saveHash();
}

// Open a record (PGN, SGF, PDN) or a position (FEN): the server reads it with the game's
// rules and answers the game spec and moves; a refusal leaves the game on the board.
async function openRecord(text, name) {
  const opened = await postJSON("/api/import", { text, name, game: gameSpec() });
  const sameGame = opened.game.split(":")[0] === state.game;
  setSpec(opened.game);
  $("game-select").value = state.game;
  $("game-params").value = state.params;
  if (!sameGame) state.players = [];
  state.moves = opened.moves;
  state.deal = null;
  state.ended = null;
  resetTree();
  await changeGame(false);
}

// Resign, or offer a draw, for the person's seat.
async function endByPerson(kind) {
  const pos = state.position;
  const seat = personSeat(pos, state.players);
  if (seat === null || !pos || pos.terminal) return;
  const other = 1 - seat;
  const body = request(state.moves);
  const answer = kind === "resign" ? await resign(body, seat)
    : await offerDraw(body, seat, state.players[other]?.kind === "human", state.lastValue[other]);
  if (!answer.accepted) { $("think-note").textContent = answer.message; return; }
  cancelThinking();
  state.generation++;
  state.ended = { outcome: answer.outcome, token: kind === "resign" ? `resign-${seat}` : "draw" };
  state.cursor = null;
  state.browsed = null;
  $("think-note").textContent = answer.outcome;
  render();
  saveHash();
}

async function changeGame(fresh = true) {
  state.thinkEval = null;
  if (fresh) {
    state.moves = []; state.deal = null; state.fen = ""; state.ended = null;
    state.lastValue = {}; state.resigned = null;
    resetTree();
  }
  clearPanels();
  cancelThinking();
  try {
    await loadSeats();
  } catch (err) {  // a refused game: its error alone, not the board of the game before
    if (state.fen) {  // a bad position (FEN) from a link or a box: the start instead
      const message = err.message;
      state.fen = "";
      state.moves = [];
      resetTree();
      await changeGame(false);
      showError(message);
      return;
    }
    showError(err);
    clearBoard();
    return;
  }
  const ply = state.wantedPly;
  state.wantedPly = null;
  await load(ply);
}

function applyParams(params) {
  const spec = params.get("game");
  if (spec) setSpec(spec);
  if (params.has("fen")) state.fen = params.get("fen").trim();
  $("game-select").value = state.game;
  $("game-params").value = state.params;
  if (spec || params.has("moves")) {
    state.moves = (params.get("moves") || "").split(" ").filter(Boolean);
    state.deal = params.get("deal") || null;
    resetTree();
    if (params.get("tree")) readTree(params.get("tree"));  // the variations too
    state.ended = null;
    const resigned = params.get("resigned");
    state.resigned = resigned !== null && /^\d+$/.test(resigned) ? Number(resigned) : null;
  }
  state.flip = params.get("flip") === "1";
  const seed = params.get("seed");
  state.seed = seed !== null && /^\d{1,15}$/.test(seed) ? Number(seed) : null;
  const ply = Number.parseInt(params.get("ply") || "", 10);
  state.wantedPly = Number.isFinite(ply) && ply >= 0 ? ply : null;
  state.wantedEnd = params.get("end") || null;
  // analysis=N: analysis on with N lines; engine: its agent spec
  const lines = params.get("analysis");
  $("analysis-on").checked = /^[123]$/.test(lines || "");
  if ($("analysis-on").checked) $("analysis-count").value = lines;
  state.engine = params.get("engine") || "";
  state.wanted = {};
  for (const [key, value] of params) if (/^p\d+$/.test(key)) state.wanted[key] = value;
}
