// Matrix lab: type or load a normal-form game; dominated strategies struck out step by step,
// best responses marked, pure and mixed equilibria, the value of a zero-sum game.

import { postJSON } from "./api.js";
import { h, setOptions } from "./dom.js";
import { pack, unpack, writeHash } from "./url.js";

const $ = (id) => document.getElementById(id);

const EXAMPLES = {
  "matching pennies": "1 -1\n-1 1",
  "prisoner's dilemma": "-1,-1 -3,0\n0,-3 -2,-2",
  "battle of the sexes": "3,2 0,0\n0,0 2,3",
  "rock paper scissors": "0 -1 1\n1 0 -1\n-1 1 0",
  "iterated dominance": "4,3 5,1 6,2\n2,1 8,4 3,6\n3,0 9,6 2,8",
};

const lab = { result: null, shown: 0, names: null };

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

async function solve() {
  $("matrix-error").textContent = "";
  let payoffs;
  try { payoffs = parseText($("matrix-text").value); } catch (err) {
    $("matrix-error").textContent = err.message; return;
  }
  const body = { payoffs, ...(lab.names || {}) };
  writeHash("matrix", { m: pack({ text: $("matrix-text").value, ...(lab.names || {}) }) });
  try {
    lab.result = await postJSON("/api/matrix", body);
  } catch (err) {
    $("matrix-error").textContent = err.message;
    return;
  }
  lab.shown = 0;
  drawTable();
  drawEquilibria();
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
  $("matrix-error").textContent = "";
  try {
    const table = await postJSON("/api/matrix/file", { text: await file.text(), name: file.name });
    $("matrix-text").value = toText(table.payoffs);
    lab.names = { row_names: table.row_names, column_names: table.column_names };
    await solve();
  } catch (err) {
    $("matrix-error").textContent = err.message;
  }
}

export async function initMatrix(params) {
  const select = $("matrix-select");
  setOptions(select, Object.keys(EXAMPLES).map((k) => [k]));
  select.addEventListener("change", () => {
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
  await solve();
  return { shown(p) { if (applyParams(p)) solve(); } };
}
