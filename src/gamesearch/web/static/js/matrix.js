// Matrix lab: type or load a normal-form game; dominated strategies struck out step by step,
// best responses marked, pure and mixed equilibria, the value of a zero-sum game, the logit
// quantal response branch; games of three or more players from a file (.nfg), solved by
// simplicial subdivision.

import { postJSON } from "./api.js";
import { h, setOptions } from "./dom.js";
import { el, svg } from "./svg.js";
import { pack, unpack, writeHash } from "./url.js";

const $ = (id) => document.getElementById(id);

const EXAMPLES = {
  "matching pennies": "1 -1\n-1 1",
  "prisoner's dilemma": "-1,-1 -3,0\n0,-3 -2,-2",
  "battle of the sexes": "3,2 0,0\n0,0 2,3",
  "rock paper scissors": "0 -1 1\n1 0 -1\n-1 1 0",
  "iterated dominance": "4,3 5,1 6,2\n2,1 8,4 3,6\n3,0 9,6 2,8",
};

// Games of three or more players come as files (Gambit .nfg): this one is Jordan's
// three-player matching pennies (1 matches 2, 2 matches 3, 3 mismatches 1).
const EXAMPLE_FILES = {
  "three-player matching pennies (.nfg)": 'NFG 1 R "Three-player matching pennies" ' +
    '{ "1" "2" "3" } { 2 2 2 }\n\n1 1 -1 -1 1 1 -1 -1 -1 1 -1 1 1 -1 1 -1 -1 -1 -1 1 1 1 1 -1\n',
};

const lab = { result: null, shown: 0, names: null };
const COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2",
  "#17becf"];

// The logit branch: each strategy's probability against lambda / (1 + lambda), so the whole
// branch from lambda = 0 (uniform) to a Nash equilibrium fits the width.
function drawQre(qre, players, strategies) {
  const holder = $("matrix-qre");
  holder.replaceChildren();
  if (!qre || !qre.points.length) {
    (qre?.notes || []).forEach((n) => holder.append(h("p", { class: "note" }, n)));
    return;
  }
  holder.append(h("h3", {}, "Logit quantal response branch"));
  const width = 360, height = 200, left = 34, bottom = 26, top = 8;
  const box = h("div", { class: "qre-plot" });
  holder.append(box);
  const picture = svg(width, height, box);
  const x = (lam) => left + (width - left - 8) * (lam / (1 + lam));
  const y = (p) => top + (height - top - bottom) * (1 - p);
  el("line", { x1: left, y1: y(0), x2: width - 8, y2: y(0), class: "axis" }, picture);
  el("line", { x1: left, y1: y(0), x2: left, y2: y(1), class: "axis" }, picture);
  [0, 0.5, 1].forEach((p) => el("text", { x: 4, y: y(p) + 4, class: "tick", text: p }, picture));
  [0, 1, 3, 10].forEach((lam) =>
    el("text", { x: x(lam) - 6, y: height - 8, class: "tick", text: lam }, picture));
  const keys = [];
  let colour = 0;
  players.forEach((player, i) => strategies[i].forEach((name, j) => {
    const stroke = COLOURS[colour++ % COLOURS.length];
    const line = qre.points.map((pt) => `${x(pt.lambda).toFixed(1)},${y(pt.profile[i][j]).toFixed(1)}`);
    el("polyline", { points: line.join(" "), fill: "none", stroke, "stroke-width": 2,
      "stroke-dasharray": i % 2 ? "5 3" : "" }, picture);
    keys.push(h("li", {}, h("span", { class: "swatch", style: `background:${stroke}` }), ` ${player}: ${name}`));
  }));
  const last = qre.points[qre.points.length - 1];
  holder.append(h("ul", { class: "qre-keys" }, ...keys),
    h("p", { class: "note" }, `lambda from 0 (everyone uniform) to ${last.lambda}: ` +
      players.map((p, i) => `${p} ${mix(last.profile[i])}`).join(" · ") +
      ". The branch ends at the Nash equilibrium it selects (McKelvey and Palfrey)."));
}

// A game of three or more players (from a file): pure equilibria, one by simplicial
// subdivision with its maximum regret, and the logit branch.
function drawNPlayer(r) {
  lab.result = null;
  $("matrix-steps").replaceChildren();
  $("matrix-value").textContent = "";
  const names = r.players.map((p, i) => `${p} (${r.strategies[i].join(", ")})`);
  $("matrix-table").replaceChildren(h("p", {}, `${r.players.length} players, ` +
    `${r.shape.join(" x ")} strategies: ${names.join("; ")}`));
  const pure = r.pure.map((e) => h("li", {}, `pure: (${e.profile.join(", ")}) payoffs ${mix(e.payoffs)}`));
  const items = [...pure];
  if (r.simpdiv) {
    items.push(h("li", {}, "simplicial subdivision: " +
      r.players.map((p, i) => `${p} ${mix(r.simpdiv.profile[i])}`).join(" · ") +
      ` · payoffs ${mix(r.simpdiv.payoffs)} · maximum regret ${r.simpdiv.regret.toExponential(1)}`));
  }
  const notes = r.notes.map((n) => h("li", { class: "note" }, n));
  if (!pure.length) notes.unshift(h("li", { class: "note" }, "No pure-strategy equilibrium."));
  $("matrix-equilibria").replaceChildren(h("h3", {}, "Equilibria"), h("ul", {}, ...items, ...notes));
  drawQre(r.qre, r.players, r.strategies);
}

function parseText(text) {
  const rows = text.trim().split("\n").map((line) => line.trim()).filter(Boolean)
    .map((line) => line.split(/\s+/).map((cell) => cell.includes(",") ? cell.split(",") : cell));
  if (!rows.length) throw new Error("Type a matrix: one row per line.");
  return rows;
}

function toText(payoffs) {
  return payoffs.map((row) => row.map((c) => Array.isArray(c) ? c.join(",") : c).join(" ")).join("\n");
}

const mix = (p) => `(${p.join(", ")})`;

function drawTable() {
  const r = lab.result;
  const struckRows = new Set(), struckCols = new Set();
  r.eliminations.slice(0, lab.shown).forEach((e) =>
    (e.player === 0 ? struckRows : struckCols).add(e.strategy));
  const pure = new Set(r.pure_equilibria.map(([i, j]) => `${i},${j}`));
  const [rows, cols] = r.strategies;
  const header = h("tr", {}, h("th"), ...cols.map((c, j) =>
    h("th", { class: struckCols.has(j) ? "struck" : "" }, c)));
  const body = rows.map((name, i) => h("tr", {},
    h("th", { class: struckRows.has(i) ? "struck" : "" }, name),
    ...cols.map((_, j) => {
      const classes = [];
      if (struckRows.has(i) || struckCols.has(j)) classes.push("struck");
      if (r.best_responses[0][i][j]) classes.push("br-row");
      if (r.best_responses[1][i][j]) classes.push("br-col");
      if (pure.has(`${i},${j}`)) classes.push("pure-eq");
      const [a, b] = r.payoffs[i][j];
      const cell = r.zero_sum ? [h("span", { class: "p1 p2" }, a)]
        : [h("span", { class: "p1" }, a), ", ", h("span", { class: "p2" }, b)];
      return h("td", { class: classes.join(" "), dataset: { cell: `${i},${j}` } }, ...cell);
    })));
  $("matrix-table").replaceChildren(h("table", {}, header, ...body),
    h("p", { class: "note" }, "Underlined: a best response (row player's first number, " +
      "column player's second); yellow: a pure equilibrium."));
  const steps = r.eliminations.map((e, k) => h("li", { class: k < lab.shown ? "" : "note" }, e.text));
  $("matrix-steps").replaceChildren(...(steps.length ? steps
    : [h("li", { class: "note" }, "No strategy is strictly dominated.")]));
}

function drawEquilibria() {
  const r = lab.result;
  const [rows, cols] = r.strategies;
  const pure = r.pure_equilibria.map(([i, j]) =>
    h("li", {}, `pure: (${rows[i]}, ${cols[j]}) payoffs (${r.payoffs[i][j].join(", ")})`));
  const mixed = (r.mixed.equilibria || []).map((eq, k) =>
    h("li", {}, `Row ${mix(eq[0])} · Column ${mix(eq[1])} · payoffs ${mix(r.mixed.payoffs[k])}`));
  const notes = (r.mixed.notes || []).map((n) => h("li", { class: "note" }, n));
  $("matrix-equilibria").replaceChildren(h("h3", {}, "Equilibria"), h("ul", {}, ...pure),
    h("h4", {}, "All equilibria (support enumeration)"), h("ul", {}, ...mixed, ...notes));
  $("matrix-value").textContent = r.zero_sum
    ? `Zero-sum value ${r.value} for the row player; optimal Row ${mix(r.optimal[0])}, ` +
      `Column ${mix(r.optimal[1])}`
    : "";
}

// An input error leaves no answer of an earlier matrix on the screen.
function failed(err) {
  lab.result = null;
  for (const id of ["matrix-table", "matrix-steps", "matrix-equilibria", "matrix-qre"]) {
    $(id).replaceChildren();
  }
  $("matrix-value").textContent = "";
  $("matrix-error").textContent = err.message;
}

async function solve() {
  $("matrix-error").textContent = "";
  let payoffs;
  try { payoffs = parseText($("matrix-text").value); } catch (err) {
    failed(err); return;
  }
  const body = { payoffs, ...(lab.names || {}) };
  writeHash("matrix", { m: pack({ text: $("matrix-text").value, ...(lab.names || {}) }) });
  try {
    lab.result = await postJSON("/api/matrix", body);
  } catch (err) {
    failed(err);
    return;
  }
  lab.shown = 0;
  drawTable();
  drawEquilibria();
  drawQre(lab.result.qre, lab.result.players, lab.result.strategies);
}

function applyParams(params) {
  if (!params.has("m")) return false;
  try {
    const data = unpack(params.get("m"));
    $("matrix-text").value = data.text ?? toText(data.payoffs);
    lab.names = data.row_names ? { row_names: data.row_names, column_names: data.column_names } : null;
    return true;
  } catch {
    $("matrix-error").textContent = "The matrix in the link could not be read.";
    return false;
  }
}

async function openFile(file) {
  return openText(await file.text(), file.name);
}

async function openText(text, name) {
  $("matrix-error").textContent = "";
  try {
    const table = await postJSON("/api/matrix/file", { text, name });
    if (table.nplayer) { drawNPlayer(table.nplayer); return; }
    $("matrix-text").value = toText(table.payoffs);
    lab.names = { row_names: table.row_names, column_names: table.column_names };
    await solve();
  } catch (err) {
    $("matrix-error").textContent = err.message;
  }
}

export async function initMatrix(params) {
  const select = $("matrix-select");
  setOptions(select, [...Object.keys(EXAMPLES), ...Object.keys(EXAMPLE_FILES)].map((k) => [k]));
  select.addEventListener("change", () => {
    if (select.value in EXAMPLE_FILES) {
      openText(EXAMPLE_FILES[select.value], "example.nfg");
      return;
    }
    $("matrix-text").value = EXAMPLES[select.value];
    lab.names = null;
    solve();
  });
  $("matrix-text").addEventListener("input", () => { lab.names = null; });
  $("matrix-solve").addEventListener("click", solve);
  $("matrix-file").addEventListener("change", (e) => e.target.files[0] && openFile(e.target.files[0]));
  $("matrix-step").addEventListener("click", () => {
    if (!lab.result) return;
    lab.shown = Math.min(lab.shown + 1, lab.result.eliminations.length);
    drawTable();
  });
  $("matrix-reset").addEventListener("click", () => { lab.shown = 0; if (lab.result) drawTable(); });
  if (!applyParams(params)) $("matrix-text").value = EXAMPLES["matching pennies"];
  const broken = $("matrix-error").textContent;  // a link that could not be read: say so after solving
  await solve();
  if (broken) $("matrix-error").textContent = `${broken} An example is shown instead.`;
  return { shown(p) { if (applyParams(p)) solve(); } };
}
