// Play: a board to click, one player selector per seat, an AI whose thinking streams in,
// a move list to step through, undo, verdicts in words. In hidden-information games the
// server sends only the viewer's information set (cards it may not see come as "?").

import { ApiError, getJSON, postJSON, streamEvents } from "./api.js";
import { renderBoard } from "./boards.js";
import { h, setOptions } from "./dom.js";
import { writeHash } from "./url.js";
import { verdictWords } from "./verdict.js";

const $ = (id) => document.getElementById(id);
const AI_PAUSE_MS = 250;  // between two AI moves, so a person can follow an AI-vs-AI game

const state = {
  games: [], game: "tictactoe", params: "",
  seats: [], hiddenGame: false,    // from /api/seats: each seat's agents and default
  players: [],                     // per seat: { kind, options }
  seatsOf: null,                   // the game spec the players were chosen for
  wanted: {},                      // p1, p2, ... from the address, applied once seats are known
  moves: [], deal: null,           // the moves as this viewer sees them; the server's deal token
  resigned: null,                  // the seat that resigned after the moves (the game is over)
  position: null, cursor: null,    // the live position; the move shown while browsing (or null)
  browsed: null,                   // the position shown while browsing
  generation: 0, thinking: null, searchId: null, verdictCtl: null,
  values: {},  // move -> perfect-play value, from the verdict of the live position
  sources: [],  // per move index: how the AI found it ("search", "fallback", ...) or empty
};

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

function gameSpec() {
  return state.params.trim() ? `${state.game}:${state.params.trim()}` : state.game;
}

// The seat whose cards are shown in a hidden-information game: the one person's. None
// (everything shown) when every seat is an AI, or several people share this screen.
function viewer() {
  if (!state.hiddenGame) return null;
  const seats = state.players.flatMap((p, i) => p.kind === "human" ? [i] : []);
  return seats.length === 1 ? seats[0] : null;
}

function request(moves) {
  return { game: gameSpec(), moves, viewer: viewer(), deal: state.deal };
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
  const params = { game: gameSpec(), moves: state.moves.join(" "), deal: state.deal };
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
  return pos && !pos.terminal && state.players[pos.to_move]?.kind === "human";
}

function browsing() { return state.cursor !== null && state.cursor < state.moves.length; }

function shownPosition() { return browsing() && state.browsed ? state.browsed : state.position; }

function lastMoveIndex() { return (browsing() ? state.cursor : state.moves.length) - 1; }

function render() {
  const pos = shownPosition();
  if (!pos) return;
  $("save-game").hidden = !state.games.find((g) => g.name === state.game)?.record;
  const live = !browsing();
  const active = live ? isHumanTurn() && !state.thinking
    : !pos.terminal && state.players[pos.to_move]?.kind === "human" && !state.thinking;
  const last = lastMoveIndex();
  renderBoard($("board"), pos, humanMove, active, live ? state.values : {},
              { lastMove: last >= 0 ? pos.moves[last] : null });
  renderMoveList();
  const status = $("status");
  if (!live) {
    status.textContent = `Viewing the position after move ${state.cursor} of ` +
      `${state.moves.length}` + (active ? " (a move here starts a new line)" : "");
  } else if (pos.terminal) {
    status.textContent = `Game over: ${pos.outcome}`;
  } else if (pos.to_move === null || pos.to_move < 0) {
    status.textContent = "chance to move";
  } else {
    const who = pos.players[pos.to_move];
    status.textContent = `${who} to move` + (isHumanTurn() ? " (your move)" : " (AI)");
  }
  $("busy").hidden = !state.thinking;
  $("board").setAttribute("aria-busy", state.thinking ? "true" : "false");
  $("stop").disabled = !state.thinking;
  $("resign").disabled = !live || resigningSeat() === null;
}

function renderMoveList() {
  const current = lastMoveIndex();
  const list = $("movelist");
  list.replaceChildren(...state.moves.map((m, i) => h("li", {},
    h("button", { class: i === current ? "move current" : "move",
                  dataset: { index: i, source: state.sources[i] || "" },
                  title: m === "?" ? "hidden from you"
                    : `after move ${i + 1}` + (state.sources[i] ? ` (AI: ${state.sources[i]})` : ""),
                  onclick: () => browse(i + 1) }, m))));
  $("first").disabled = $("back").disabled = current < 0;
  $("forward").disabled = $("last").disabled = !browsing();
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

async function load() {
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
    render();
    saveHash();
    requestVerdict();
    maybeThink();
  } catch (err) {  // a refused position: no board of an earlier one stays under the error
    if (generation === state.generation) { showError(err); clearBoard(); }
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
  state.sources.length = Math.min(state.sources.length, pos.moves.length);
  state.deal = pos.deal || null;
  state.position = pos;
  state.cursor = null;
  state.browsed = null;
}

function newGame() {
  state.resigned = null;
  state.moves = [];
  state.sources = [];
  state.deal = null;
  clearPanels();
  load();
}

function humanMove(move) {
  if (state.thinking) return;
  if (browsing()) {  // play from the position shown: the later moves are dropped
    if (state.browsed.terminal || state.players[state.browsed.to_move]?.kind !== "human") return;
    state.moves = state.moves.slice(0, state.cursor);
  } else if (!isHumanTurn()) return;
  state.resigned = null;
  state.sources.length = Math.min(state.sources.length, state.moves.length);
  state.moves = [...state.moves, move];
  clearPanels();
  load();
}

// Show the position after the first k moves (k = all: back to the game).
async function browse(k) {
  k = Math.max(0, Math.min(k, state.moves.length));
  if (k === state.moves.length) {
    state.cursor = null; state.browsed = null; render(); return;
  }
  const generation = state.generation;
  try {
    const pos = await postJSON("/api/position", { ...request(state.moves.slice(0, k)),
                                                  browse: true });
    if (generation !== state.generation) return;
    state.cursor = k;
    state.browsed = pos;
    render();
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

function addThinkingRow(data) {
  const stats = data.stats || {};
  const row = h("tr", {}, ...[stats.depth, shownValue(data), (data.pv || []).join(" "),
                              stats.visited, data.nps].map((c) => h("td", {}, c ?? "")));
  $("thinking").querySelector("tbody").prepend(row);
}

async function maybeThink() {
  const pos = state.position;
  if (!pos || pos.terminal || state.thinking) return;
  const cfg = state.players[pos.to_move];
  if (!cfg || cfg.kind === "human") return;
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
      else if (name === "progress") addThinkingRow(data);
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
  const value = "value" in played ? `value ${shownValue(played)}, ` : "";
  $("think-note").textContent = `played ${played.move} (${value}` +
    `${how[played.source] || played.source}, ${played.latency} s)`;
  $("think-note").dataset.source = played.source;
  state.generation++;
  state.sources.length = state.moves.length;
  state.sources[state.moves.length] = played.source;
  accept(played.position);
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
  state.moves = moves;
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
  document.addEventListener("keydown", (e) => {
    if ($("view-play").hidden || /INPUT|SELECT|TEXTAREA/.test(e.target.tagName)) return;
    if (e.key === "ArrowLeft") browse(lastMoveIndex());
    else if (e.key === "ArrowRight") browse(lastMoveIndex() + 2);
  });
  $("verdict-on").addEventListener("change", requestVerdict);
  $("save-game").addEventListener("click", () => saveGame().catch(showError));
  await changeGame(false);
  return {
    async shown(p) {
      if (p.has("game")) { applyParams(p); await changeGame(false); } else saveHash();
    },
  };
}

async function changeGame(fresh = true) {
  if (fresh) { state.moves = []; state.deal = null; state.sources = []; state.resigned = null; }
  clearPanels();
  cancelThinking();
  try {
    await loadSeats();
  } catch (err) {  // a refused game: its error alone, not the board of the game before
    showError(err);
    clearBoard();
    return;
  }
  await load();
}

function applyParams(params) {
  const spec = params.get("game");
  if (spec) {
    const at = spec.indexOf(":");
    state.game = at < 0 ? spec : spec.slice(0, at);
    state.params = at < 0 ? "" : spec.slice(at + 1);
  }
  $("game-select").value = state.game;
  $("game-params").value = state.params;
  if (spec || params.has("moves")) {
    state.moves = (params.get("moves") || "").split(" ").filter(Boolean);
    state.deal = params.get("deal") || null;
    const resigned = params.get("resigned");
    state.resigned = resigned !== null && /^\d+$/.test(resigned) ? Number(resigned) : null;
  }
  state.wanted = {};
  for (const [key, value] of params) if (/^p\d+$/.test(key)) state.wanted[key] = value;
}
