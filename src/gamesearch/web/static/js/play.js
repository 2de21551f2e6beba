// Play: a board to click, an AI whose thinking streams in, undo, swap, verdicts.

import { ApiError, getJSON, postJSON, streamEvents } from "./api.js";
import { renderBoard } from "./boards.js";
import { writeHash } from "./url.js";

const $ = (id) => document.getElementById(id);
const AI_PAUSE_MS = 250;  // between two AI moves, so a person can follow an AI-vs-AI game

const state = {
  games: [], agents: [], game: "tictactoe", params: "",
  players: [{ kind: "human", depth: "", time: "" }, { kind: "alphabeta", depth: "", time: "1" }],
  moves: [], position: null, generation: 0, thinking: null, searchId: null, verdictCtl: null,
  values: {},  // move -> perfect-play value, from the verdict of the shown position
};

function parseAgent(text) {
  if (!text || text === "human") return { kind: "human", depth: "", time: "" };
  const [kind, rest] = text.split(":");
  const cfg = { kind, depth: "", time: "" };
  for (const part of (rest || "").split(",")) {
    const [key, value] = part.split("=");
    if (key === "depth" || key === "time") cfg[key] = value || "";
  }
  return cfg;
}

function agentSpec(cfg) {
  if (cfg.kind === "human") return "human";
  const accepts = state.agents.find((a) => a.name === cfg.kind)?.params || ["depth", "time"];
  const params = [];
  if (cfg.depth && accepts.includes("depth")) params.push(`depth=${cfg.depth}`);
  if (cfg.time && accepts.includes("time")) params.push(`time=${cfg.time}`);
  return params.length ? `${cfg.kind}:${params.join(",")}` : cfg.kind;
}

function gameSpec() {
  return state.params.trim() ? `${state.game}:${state.params.trim()}` : state.game;
}

function saveHash() {
  writeHash("play", { game: gameSpec(), moves: state.moves.join(" "),
                      p1: agentSpec(state.players[0]), p2: agentSpec(state.players[1]) });
}

function showError(err) {
  $("play-error").textContent = err ? String(err.message || err) : "";
}

function buildPlayers() {
  const box = $("players");
  box.replaceChildren();
  const names = (state.position && state.position.players) || ["Player 1", "Player 2"];
  state.players.forEach((cfg, side) => {
    const span = document.createElement("span");
    span.className = "player-config";
    span.dataset.side = side;
    const kinds = ["human", ...state.agents.map((a) => a.name)];
    span.innerHTML = `${names[side] || "Player " + (side + 1)}: <select class="kind">${
      kinds.map((k) => `<option value="${k}">${k}</option>`).join("")}</select>
      depth <input class="depth" size="2" value="${cfg.depth}">
      time <input class="time" size="3" value="${cfg.time}">s`;
    span.querySelector(".kind").value = cfg.kind;
    span.addEventListener("change", () => {
      cfg.kind = span.querySelector(".kind").value;
      cfg.depth = span.querySelector(".depth").value.trim();
      cfg.time = span.querySelector(".time").value.trim();
      saveHash();
      maybeThink();
    });
    box.appendChild(span);
  });
}

function isHumanTurn() {
  const pos = state.position;
  return pos && !pos.terminal && state.players[pos.to_move]?.kind === "human";
}

function render() {
  const pos = state.position;
  renderBoard($("board"), pos, humanMove, isHumanTurn() && !state.thinking, state.values);
  const list = $("movelist");
  list.replaceChildren(...state.moves.map((m) => {
    const li = document.createElement("li");
    li.textContent = m;
    return li;
  }));
  if (pos.terminal) $("status").textContent = `Game over: ${pos.outcome}`;
  else {
    const who = pos.players[pos.to_move];
    $("status").textContent = `${who} to move` + (isHumanTurn() ? " (your move)" : " (AI)");
  }
  $("stop").disabled = !state.thinking;
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
    const pos = await postJSON("/api/position", { game: gameSpec(), moves: state.moves });
    if (generation !== state.generation) return;
    state.moves = pos.moves;  // chance outcomes drawn by the server are moves too
    const playersChanged = !state.position || state.position.players.join() !== pos.players.join();
    state.position = pos;
    if (playersChanged) buildPlayers();
    render();
    saveHash();
    requestVerdict();
    maybeThink();
  } catch (err) {
    if (generation === state.generation) showError(err);
  }
}

function humanMove(move) {
  if (!isHumanTurn() || state.thinking) return;
  state.moves = [...state.moves, move];
  load();
}

function describeValue(v) {
  if (v === null || v === undefined) return "?";
  return typeof v === "number" ? String(Math.round(v * 1000) / 1000) : String(v);
}

function addThinkingRow(data) {
  const row = document.createElement("tr");
  const cells = [data.stats.depth, describeValue(data.value), data.pv.join(" "),
                 data.stats.visited, data.nps];
  row.innerHTML = cells.map((c) => `<td>${c ?? ""}</td>`).join("");
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
    await streamEvents("/api/think", { game: gameSpec(), moves: state.moves,
                                       agent: agentSpec(cfg) }, (name, data) => {
      if (generation !== state.generation) return;
      if (name === "start") state.searchId = data.search;
      else if (name === "progress") addThinkingRow(data);
      else if (name === "move") played = data;
      else if (name === "error") showError(new ApiError(data.error));
    }, ctl.signal);
  } catch (err) {
    if (err.name !== "AbortError") showError(err);
  }
  if (generation !== state.generation || state.thinking !== ctl) return;
  state.thinking = null;
  state.searchId = null;
  if (!played) { render(); return; }
  const how = { search: "searched", cache: "exact answer found before",
                stopped: "stopped early: best completed depth",
                deadline: "at the deadline: best completed depth",
                fallback: `first move in the game's order: ${played.note}` };
  $("think-note").textContent = `played ${played.move} (value ${describeValue(played.value)}, ` +
    `${how[played.source] || played.source}, ${played.latency} s)`;
  state.moves = played.position.moves;
  state.position = played.position;
  state.generation++;
  render();
  saveHash();
  requestVerdict();
  if (!played.position.terminal) setTimeout(maybeThink, AI_PAUSE_MS);
}

async function requestVerdict() {
  if (state.verdictCtl) state.verdictCtl.abort();
  $("verdict").textContent = "";
  state.values = {};
  if (!$("verdict-on").checked || !state.position || state.position.terminal) return;
  const ctl = new AbortController();
  state.verdictCtl = ctl;
  try {
    const v = await postJSON("/api/verdict", { game: gameSpec(), moves: state.moves }, ctl.signal);
    if (ctl.signal.aborted) return;
    $("verdict").textContent = verdictText(v);
    // Per-move values: exact alpha-beta's, or a solver report's "action_values".
    state.values = v.action_values || (v.report && v.report.action_values) || {};
    if (Object.keys(state.values).length) render();
  } catch (err) {
    if (err.name !== "AbortError") $("verdict").textContent = `verdict: ${err.message}`;
  }
}

function verdictText(v) {
  if (v.kind === "alphabeta") {
    const word = v.value > 0 ? "wins" : v.value < 0 ? "loses" : "draws";
    return `Perfect play: ${v.to_move} ${word} (value ${v.value}); best moves: ` +
      `${v.best.join(", ")}. Grey numbers: each move's value for ${v.to_move}.`;
  }
  if (v.kind === "solver") {
    return "Solver: " + Object.entries(v.report).filter(([k]) => k !== "action_values")
      .map(([k, x]) => `${k}: ${Array.isArray(x) ? x.join(" ")
        : typeof x === "object" ? JSON.stringify(x) : x}`).join("; ");
  }
  return v.message || "";
}

async function undo() {
  cancelThinking();
  state.generation++;
  // Take back moves until a person is to move again (or the start).
  while (state.moves.length) {
    state.moves = state.moves.slice(0, -1);
    const pos = await postJSON("/api/position", { game: gameSpec(), moves: state.moves });
    if (state.players[pos.to_move]?.kind === "human") break;
  }
  load();
}

export async function initPlay(params) {
  const [games, agents] = await Promise.all([getJSON("/api/games"), getJSON("/api/agents")]);
  state.games = games.games;
  state.agents = agents.agents;
  const select = $("game-select");
  select.innerHTML = state.games.map((g) =>
    `<option value="${g.name}" title="${g.summary}">${g.name}</option>`).join("");
  applyParams(params);
  select.addEventListener("change", () => {
    state.game = select.value; state.params = ""; $("game-params").value = "";
    state.moves = []; state.position = null; load();
  });
  $("game-params").addEventListener("change", () => {
    state.params = $("game-params").value; state.moves = []; load();
  });
  $("new-game").addEventListener("click", () => { state.moves = []; load(); });
  $("undo").addEventListener("click", () => undo().catch(showError));
  $("swap").addEventListener("click", () => {
    state.players.reverse(); buildPlayers(); load();
  });
  $("stop").addEventListener("click", () => {
    if (state.searchId) postJSON("/api/stop", { search: state.searchId }).catch(showError);
  });
  $("verdict-on").addEventListener("change", requestVerdict);
  buildPlayers();
  await load();
  return { shown(p) { if (p.has("game")) { applyParams(p); buildPlayers(); load(); } else saveHash(); } };
}

function applyParams(params) {
  const spec = params.get("game");
  if (spec) {
    const [name, rest] = spec.split(":");
    state.game = name;
    state.params = rest || "";
  }
  $("game-select").value = state.game;
  $("game-params").value = state.params;
  if (spec || params.has("moves")) {
    state.moves = (params.get("moves") || "").split(" ").filter(Boolean);
  }
  if (params.has("p1")) state.players[0] = parseAgent(params.get("p1"));
  if (params.has("p2")) state.players[1] = parseAgent(params.get("p2"));
}
