// Extensive-form lab: a Gambit .efg file (opened, or typed and edited in the box) drawn as
// a tree, information sets joined by dashed lines, chance probabilities on their branches,
// payoffs under the leaves; solved on the server, each branch then labelled with the
// probability the solution plays it (and drawn thicker the likelier it is).

import { getJSON, postJSON } from "./api.js";
import { h, setOptions } from "./dom.js";
import { el, svg } from "./svg.js";
import { pack, unpack, writeHash } from "./url.js";

const $ = (id) => document.getElementById(id);

let EXAMPLES = {};  // title -> .efg text, from the server (src/gamesearch/data/efg)

const COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e"];

// A number as people write it: exact fractions as they come ("1/3"), values within a
// millionth of 0, 1 or a fraction with a small denominator written so ("0", "1", "2/3"),
// others to four significant digits (0.9923): never 3.7144e-43.
export function nice(p) {
  if (typeof p === "string" && p.includes("/")) return p;
  const x = Number(p);
  if (!Number.isFinite(x)) return String(p);
  if (Math.abs(x) < 1e-6) return "0";
  for (let d = 1; d <= 12; d++) {
    const n = Math.round(x * d);
    if (Math.abs(x - n / d) < 1e-6) return d === 1 ? String(n) : `${n}/${d}`;
  }
  return String(Number(x.toPrecision(4)));
}
const lab = { view: null };

// Leaves in order across, each inner node over the middle of its children.
function layout(nodes) {
  const at = new Map();
  let next = 0;
  const place = (id, depth) => {
    const node = nodes[id];
    const kids = (node.children || []).map((c) => place(c.to, depth + 1));
    const x = kids.length ? (kids[0] + kids[kids.length - 1]) / 2 : next++;
    at.set(id, { x, depth });
    return x;
  };
  place(0, 0);
  return { at, leaves: next };
}

function draw() {
  const v = lab.view;
  const { at, leaves } = layout(v.nodes);
  const depth = Math.max(...[...at.values()].map((p) => p.depth));
  const dx = 74, dy = 86, pad = 40;
  const width = Math.max(320, leaves * dx + 2 * pad), height = depth * dy + 2 * pad + 34;
  const X = (id) => pad + at.get(id).x * dx + dx / 2, Y = (id) => pad + at.get(id).depth * dy;
  const picture = svg(width, height, $("efg-canvas"));
  const behaviour = v.solution ? v.solution.behaviour : {};
  for (const node of v.nodes) {
    (node.children || []).forEach((c) => {
      const played = node.kind === "p" ? behaviour[node.infoset]?.[c.action] : undefined;
      const p = played === undefined ? null : Number(played);
      el("line", { x1: X(node.id), y1: Y(node.id), x2: X(c.to), y2: Y(c.to), class: "efg-edge",
        "stroke-width": p === null ? 1.5 : 1 + 4 * p, opacity: p === null ? 1 : 0.35 + 0.65 * p },
      picture);
      const mx = (X(node.id) + X(c.to)) / 2, my = (Y(node.id) + Y(c.to)) / 2;
      const words = node.kind === "c" ? `${c.action} (${nice(c.prob)})`
        : played === undefined ? c.action : `${c.action} ${nice(played)}`;
      const left = X(c.to) < X(node.id);  // labels outside their branch, away from the other
      el("text", { x: mx + (left ? -5 : 5), y: my - 2, class: "efg-action",
        "text-anchor": left ? "end" : "start", text: words }, picture);
    });
  }
  Object.values(v.infosets).forEach((ids, k) => {  // one information set: nodes joined
    const sorted = [...ids].sort((a, b) => X(a) - X(b));  // by arcs, each set its own height
    const lift = 16 + 9 * (k % 4);
    const d = sorted.slice(1).map((id, i) => {
      const a = sorted[i];
      return `M ${X(a)} ${Y(a)} Q ${(X(a) + X(id)) / 2} ${Math.min(Y(a), Y(id)) - 2 * lift} ${X(id)} ${Y(id)}`;
    }).join(" ");
    el("path", { d, class: "efg-infoset", fill: "none" }, picture);
  });
  for (const node of v.nodes) {
    if (node.kind === "t") {
      el("rect", { x: X(node.id) - 4, y: Y(node.id) - 4, width: 8, height: 8, class: "efg-leaf" }, picture);
      el("text", { x: X(node.id), y: Y(node.id) + 18, class: "efg-payoff", "text-anchor": "middle",
        text: `(${node.payoffs.join(", ")})` }, picture);
    } else {
      const fill = node.kind === "c" ? "#999" : COLOURS[node.player % COLOURS.length];
      el("circle", { cx: X(node.id), cy: Y(node.id), r: 9, fill, class: "efg-node" }, picture);
      el("title", { text: node.kind === "c" ? "chance" : `${node.mover}: ${node.label}` },
        picture.lastChild);
      el("text", { x: X(node.id) - 12, y: Y(node.id) - 12, class: "efg-mover", "text-anchor": "end",
        text: node.kind === "c" ? "chance" : node.mover }, picture);
    }
  }
}

function showSolution() {
  const s = lab.view.solution;
  const labels = {};
  lab.view.nodes.forEach((n) => {
    if (n.kind === "p") labels[n.infoset] = n.label.startsWith(n.mover) ? n.label : `${n.mover}: ${n.label}`;
  });
  const rows = Object.entries(s.behaviour).map(([key, probs]) => h("li", {},
    `${labels[key] ?? key}: ` + Object.entries(probs).map(([a, p]) => `${a} ${nice(p)}`).join(", ")));
  const regret = s.regret.length ? ` · regrets ${s.regret.map(nice).join(", ")}` : "";
  const threats = (s.threats || []).map((t) => h("li", { class: "threat" },
    `${t.player} at ${t.label} plays ${t.plays.join(" or ")} (worth ${nice(t.gets)} to ` +
    `${t.player} there) though ${t.better} would give ${nice(t.could)}: ` +
    (Number(t.reach) === 0 ? "a threat that is not credible. It is never carried out " +
      "(play never reaches this node), so it costs nothing in this equilibrium, but " +
      `once there ${t.player} would not do it.`
      : `not a best reply where play goes (probability ${nice(t.reach)}).`)));
  const perfect = threats.length
    ? [h("h4", { class: "threat-title" }, "Not subgame perfect"),
       h("p", {}, "This is a Nash equilibrium that rests on a non-credible threat: " +
         "in the subgame below a node the mover would do better otherwise. Backward " +
         "induction (Solve by) finds the subgame-perfect equilibrium."), h("ul", {}, ...threats)]
    : [];
  $("efg-solution").replaceChildren(h("h3", {}, s.method), h("ul", {}, ...rows),
    h("p", {}, `payoffs (${s.payoffs.map(nice).join(", ")})${regret}`), ...perfect,
    ...s.notes.map((n) => h("p", { class: "note" }, n)));
}

async function solve() {
  $("efg-error").textContent = "";
  const text = $("efg-text").value;
  const method = $("efg-method").value;
  const lam = $("efg-lambda").value.trim();
  writeHash("efg", { e: pack({ text, method, lam }) });
  $("efg-status").textContent = "solving...";
  try {
    lab.view = await postJSON("/api/efg", { text, method, lambda: lam === "" ? null : Number(lam) });
  } catch (err) {  // no answer of an earlier tree may stay under this error
    lab.view = null;
    $("efg-status").textContent = "";
    $("efg-canvas").replaceChildren();
    $("efg-solution").replaceChildren();
    $("efg-error").textContent = err.message;
    return;
  }
  $("efg-status").textContent = `${lab.view.title || "tree"}: ${lab.view.players.join(", ")}; ` +
    `${lab.view.nodes.length} nodes`;
  nameExample(text);
  draw();
  showSolution();
}

// The example box names the tree drawn: its example, or "your own tree".
function nameExample(text) {
  const select = $("efg-select");
  const name = Object.keys(EXAMPLES).find((k) => EXAMPLES[k].trim() === text.trim());
  let own = select.querySelector("option[value='']");
  if (!name && !own) {
    own = h("option", { value: "" }, "(your own tree)");
    select.prepend(own);
  }
  if (name && own) own.remove();
  select.value = name ?? "";
}

function applyParams(params) {
  if (!params.has("e")) return false;
  try {
    const data = unpack(params.get("e"));
    if (!data || typeof data.text !== "string" || !data.text.trim()) throw new Error("no tree");
    const methods = [...$("efg-method").options].map((o) => o.value);
    $("efg-text").value = data.text;
    $("efg-method").value = methods.includes(data.method) ? data.method : "auto";
    $("efg-lambda").value = typeof data.lam === "string" || typeof data.lam === "number"
      ? String(data.lam) : "";
    return true;
  } catch {
    $("efg-error").textContent = "The tree in the link could not be read.";
    return false;
  }
}

export async function initEfg(params) {
  const select = $("efg-select");
  try {
    const { examples } = await getJSON("/api/efg/examples");
    EXAMPLES = Object.fromEntries(examples.map((e) => [e.name, e.text]));
  } catch (err) {
    $("efg-error").textContent = err.message;
  }
  setOptions(select, Object.keys(EXAMPLES).map((k) => [k]));
  setOptions($("efg-method"), [["auto", "best for the tree"], ["lcp", "sequence-form LCP (2 players)"],
    ["qre", "agent logit QRE"], ["spe", "backward induction"]]);
  select.addEventListener("change", () => {
    if (!(select.value in EXAMPLES)) return;
    $("efg-text").value = EXAMPLES[select.value];
    solve();
  });
  $("efg-solve").addEventListener("click", solve);
  $("efg-file").addEventListener("change", async (e) => {
    if (!e.target.files[0]) return;
    $("efg-text").value = await e.target.files[0].text();
    solve();
  });
  if (!applyParams(params)) $("efg-text").value = EXAMPLES["Selten's horse"] ?? "";
  const broken = $("efg-error").textContent;  // a link that could not be read: say so after solving
  await solve();
  if (broken) $("efg-error").textContent = `${broken} An example is shown instead.`;
  return { shown(p) { if (applyParams(p)) solve(); } };
}
