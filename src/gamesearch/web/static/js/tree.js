// Tree lab: load or draw a tree, run a search on it step by step, see alpha and beta change,
// the visiting order and the pruned branches; export the picture as SVG.

import { getJSON, postJSON } from "./api.js";
import { h, setOptions } from "./dom.js";
import { el, svg } from "./svg.js";
import { pack, unpack, writeHash } from "./url.js";

const $ = (id) => document.getElementById(id);
const DX = 84, DY = 96, R = 17, TOP = 44;

const lab = { presets: [], tree: null, nodes: [], run: null, step: 0, selected: null,
              preset: "classic" };

// --- the tree: games/tree.py's object form, every inner node with an explicit player ----
function normalize(spec, depth = 0, player = null) {
  const fallback = player ?? (depth % 2 === 0 ? "max" : "min");
  if (typeof spec === "number") return { value: spec };
  if (Array.isArray(spec)) {
    return { player: fallback, children: spec.map((c) => normalize(c, depth + 1)) };
  }
  const node = {};
  for (const key of ["name", "action", "probability"]) if (key in spec) node[key] = spec[key];
  if (!spec.children) { node.value = spec.value; return node; }
  node.player = spec.player ?? fallback;
  const next = node.player === "max" || node.player === 0 ? "min"
    : node.player === "chance" ? null : "max";
  node.children = spec.children.map((c) => normalize(c, depth + 1, next));
  return node;
}

function flatten(root) {
  const nodes = [];
  (function walk(ref, parent, depth) {
    const id = nodes.length;
    const item = { id, ref, parent, depth, children: [] };
    nodes.push(item);
    for (const child of ref.children || []) item.children.push(walk(child, id, depth + 1));
    return id;
  })(root, null, 0);
  let leaf = 0;
  (function place(id) {
    const n = nodes[id];
    if (!n.children.length) n.x = 40 + DX * leaf++;
    else {
      n.children.forEach(place);
      n.x = (nodes[n.children[0]].x + nodes[n.children.at(-1)].x) / 2;
    }
    n.y = TOP + n.depth * DY;
  })(0);
  return nodes;
}

// The name a node goes by in the drawing and in the status line: its own, else its number.
function nodeName(n) { return n.ref.name || String(n.id); }

function kind(ref) {
  if (!ref.children) return "leaf";
  if (ref.player === "chance") return "chance";
  return ref.player === "max" || ref.player === 0 ? "max" : "min";
}

function playerLabel(ref) {
  if (!ref.children) return "";
  if (typeof ref.player === "number" || /^\d+$/.test(ref.player)) {
    return Number(ref.player) === 0 ? "MAX" : `MIN${ref.player}`;
  }
  return { max: "MAX", min: "MIN", chance: "chance" }[ref.player] || String(ref.player);
}

// --- replaying the search's steps ------------------------------------------------------
// Bounds as numbers (the server writes infinities as "inf" / "-inf").
const num = (v) => v === "inf" ? Infinity : v === "-inf" ? -Infinity : Number(v);

// What the first k steps show: each node's visiting order, value, alpha and beta. A
// child's value updates its parent's bound as it returns (MAX raises alpha, MIN lowers
// beta), the moment alpha-beta compares it, not only when the parent is done.
function replay(k) {
  const info = lab.nodes.map(() => ({}));
  if (!lab.run) return info;
  let order = 0;
  const prune = (id) => {
    info[id].pruned = true;
    for (const c of lab.nodes[id].children) prune(c);
  };
  for (let i = 0; i < k; i++) {
    const s = lab.run.steps[i], n = info[s.node];
    if ((s.type === "enter" || s.type === "leaf") && n.order === undefined) n.order = ++order;
    if (s.type === "leaf" || s.type === "exit") n.value = s.value;
    if (s.type === "enter" || s.type === "prune" || s.type === "exit") {
      if ("alpha" in s) n.alpha = s.alpha;
      if ("beta" in s) n.beta = s.beta;
    }
    if (s.type === "prune") s.pruned.forEach(prune);
    const parent = lab.nodes[s.node].parent;
    if ((s.type === "leaf" || s.type === "exit") && parent !== null && "alpha" in s) {
      const p = info[parent], who = kind(lab.nodes[parent].ref);
      if (who === "max" && "alpha" in p && num(s.value) > num(p.alpha)) p.alpha = s.value;
      if (who === "min" && "beta" in p && num(s.value) < num(p.beta)) p.beta = s.value;
    }
  }
  if (k > 0) info[lab.run.steps[k - 1].node].current = true;
  return info;
}

const WHO = { max: "MAX", min: "MIN", chance: "chance", leaf: "leaf" };

// Step k (1-based) in words: what happened and, for a cut, why.
function explain(k) {
  const s = lab.run.steps[k - 1];
  if (!s) return "";
  const node = lab.nodes[s.node], name = nodeName(node);
  const who = playerLabel(node.ref) || "leaf";
  const parent = node.parent === null ? null : lab.nodes[node.parent];
  const before = replay(k - 1), after = replay(k);
  const bounds = (i) => "alpha" in i ? ` (alpha ${show(i.alpha)}, beta ${show(i.beta)})` : "";
  if (s.type === "enter") return `Enter ${who} node ${name}${bounds(after[s.node])}.`;
  if (s.type === "prune") {
    const cut = s.pruned.map((id) => nodeName(lab.nodes[id])).join(", ");
    const [a, b] = [show(s.alpha), show(s.beta)];
    const why = kind(node.ref) === "min"
      ? `beta ${b} ≤ alpha ${a}: MAX already has ${a} here, MIN will not allow more than ${b}`
      : `alpha ${a} ≥ beta ${b}: MIN already holds MAX to ${b} here, MAX can get at least ${a}`;
    return `Cut at ${who} node ${name}: ${why}, so ${s.pruned.length === 1 ? "child" : "children"} ` +
      `${cut} ${s.pruned.length === 1 ? "is" : "are"} never searched.`;
  }
  let text = s.type === "leaf" ? `Leaf ${name} is worth ${show(s.value)}.`
    : `${who} node ${name} is done: its value is ${show(s.value)}.`;
  if (parent) {
    const p = parent.id, pk = kind(parent.ref), pn = `${playerLabel(parent.ref)} node ${nodeName(parent)}`;
    if (pk === "max" && "alpha" in after[p]) {
      text += after[p].alpha !== before[p].alpha
        ? ` ${pn}: alpha = max(${show(before[p].alpha)}, ${show(s.value)}) = ${show(after[p].alpha)}.`
        : ` ${pn} keeps alpha ${show(after[p].alpha)} (${show(s.value)} is no better).`;
    } else if (pk === "min" && "beta" in after[p]) {
      text += after[p].beta !== before[p].beta
        ? ` ${pn}: beta = min(${show(before[p].beta)}, ${show(s.value)}) = ${show(after[p].beta)}.`
        : ` ${pn} keeps beta ${show(after[p].beta)} (${show(s.value)} is no lower).`;
    }
  }
  return text;
}

const show = (v) => v === "inf" ? "+∞" : v === "-inf" ? "−∞"
  : typeof v === "number" ? String(Math.round(v * 1000) / 1000) : v ?? "";

function draw() {
  const nodes = lab.nodes;
  const width = Math.max(320, Math.max(...nodes.map((n) => n.x)) + 40);
  const height = TOP + Math.max(...nodes.map((n) => n.depth)) * DY + 60;
  const picture = svg(width, height, $("tree-canvas"));
  picture.id = "tree-svg";
  const info = replay(lab.step);
  const done = lab.run && lab.step === lab.run.steps.length;
  const pv = new Set(done ? lab.run.pv : []);
  for (const n of nodes) {
    if (n.parent === null) continue;
    const p = nodes[n.parent];
    const classes = ["tedge"];
    if (info[n.id].pruned) classes.push("pruned");
    if (pv.has(n.id) && pv.has(p.id)) classes.push("pv");
    el("line", { x1: p.x, y1: p.y + R, x2: n.x, y2: n.y - R, class: classes.join(" ") }, picture);
    if ("probability" in n.ref) {
      el("text", { x: (p.x + n.x) / 2 - 8, y: (p.y + n.y) / 2, class: "elabel",
                   text: show(n.ref.probability) }, picture);
    }
  }
  for (const n of nodes) {
    const i = info[n.id], k = kind(n.ref);
    const classes = ["tnode", k];
    for (const flag of ["pruned", "current"]) if (i[flag]) classes.push(flag);
    if (i.order !== undefined) classes.push("visited");
    if (lab.selected === n.id) classes.push("selected");
    const g = el("g", { class: classes.join(" "), "data-id": n.id }, picture);
    const { x, y } = n;
    if (k === "max") el("polygon", { class: "shape", points: `${x},${y - R} ${x - R},${y + R * 0.8} ${x + R},${y + R * 0.8}` }, g);
    else if (k === "min") el("polygon", { class: "shape", points: `${x},${y + R} ${x - R},${y - R * 0.8} ${x + R},${y - R * 0.8}` }, g);
    else if (k === "chance") el("circle", { class: "shape", cx: x, cy: y, r: R }, g);
    else el("rect", { class: "shape", x: x - R * 0.8, y: y - R * 0.8, width: R * 1.6, height: R * 1.6 }, g);
    const value = k === "leaf" ? n.ref.value : i.value;
    el("text", { x, y: y + (k === "max" ? 4 : k === "min" ? -3 : 0), class: "value",
                 text: show(value) }, g);
    el("title", { text: `${playerLabel(n.ref) || "leaf"} node ${nodeName(n)}` }, g);
    // Labels around the shape, each in its own place: the name up left, the visiting
    // order up right, alpha and beta on two lines below (DX leaves room between nodes).
    el("text", { x: x - R - 3, y: y - R + 2, class: "name", text: nodeName(n) }, g);
    if (i.order !== undefined) el("text", { x: x + R + 3, y: y - R + 2, class: "order", text: `#${i.order}` }, g);
    if (k !== "leaf" && ("alpha" in i || "beta" in i)) {
      el("text", { x, y: y + R + 11, class: "bounds", text: `α ${show(i.alpha)}` }, g);
      el("text", { x, y: y + R + 26, class: "bounds", text: `β ${show(i.beta)}` }, g);
    }
    g.addEventListener("click", () => select(n.id));
  }
  updateStatus(info, done);
  saveHash();
}

function updateStatus(info, done) {
  $("tree-back").disabled = !lab.run || lab.step === 0;
  $("tree-step").disabled = !!lab.run && lab.step === lab.run.steps.length;
  $("tree-why").textContent = lab.run ? explain(lab.step) : "";
  const cuts = lab.run ? lab.run.steps.slice(0, lab.step).flatMap((s, i) =>
    s.type === "prune" ? [h("li", {}, explain(i + 1))] : []) : [];
  $("tree-cuts").replaceChildren(...cuts);
  if (!lab.run) { $("tree-status").textContent = "Not run yet: Step or Run all."; return; }
  const total = lab.run.steps.length;
  const pruned = lab.nodes.filter((n) => !n.children.length && info[n.id].pruned).length;
  const s = lab.run.steps[lab.step - 1];
  const now = s ? `${s.type} node ${nodeName(lab.nodes[s.node])}` : "start";
  $("tree-status").textContent = done
    ? `Root value ${show(lab.run.value)} · ${lab.run.algorithm} · ${total} steps · pruned leaves: ${pruned}`
    : `Step ${lab.step} / ${total}: ${now} · pruned leaves so far: ${pruned}`;
  $("tree-status").dataset.rootValue = done ? show(lab.run.value) : "";
}

function saveHash() {
  writeHash("tree", { t: pack(lab.tree), algo: $("tree-algo").value });
}

// --- running ---------------------------------------------------------------------------
async function fetchRun() {
  $("tree-error").textContent = "";
  const depth = $("tree-depth").value.trim();
  try {
    lab.run = await postJSON("/api/tree", { tree: lab.tree, algorithm: $("tree-algo").value,
                                            depth: depth === "" ? null : Number(depth) });
    return true;
  } catch (err) {
    $("tree-error").textContent = err.message;
    lab.run = null;
    return false;
  }
}

async function runAll() { if (await fetchRun()) { lab.step = lab.run.steps.length; draw(); } }
async function step() {
  if (!lab.run && !(await fetchRun())) return;
  lab.step = Math.min(lab.step + 1, lab.run.steps.length);
  draw();
}

// --- editing ---------------------------------------------------------------------------
function changed() {
  lab.run = null; lab.step = 0; lab.nodes = flatten(lab.tree); draw();
  centreRoot();
}

// A tree wider than the screen scrolls in its box: start with the root in view.
function centreRoot() {
  const box = $("tree-canvas");
  if (box.scrollWidth > box.clientWidth) box.scrollLeft = lab.nodes[0].x - box.clientWidth / 2;
}

function select(id) {
  lab.selected = id;
  const ref = lab.nodes[id].ref;
  $("tree-selected").textContent = `node ${nodeName(lab.nodes[id])}`;
  $("node-player").value = ref.children ? String(ref.player) : "max";
  $("node-value").value = ref.children ? "" : ref.value;
  $("node-prob").value = ref.probability ?? "";
  draw();
}

function evenProbabilities(ref) {
  const n = ref.children.length;
  ref.children.forEach((c, i) => {
    c.probability = i < n - 1 ? Math.round(1e6 / n) / 1e6 : 0;
  });
  const rest = ref.children.slice(0, -1).reduce((s, c) => s + c.probability, 0);
  ref.children.at(-1).probability = Math.round((1 - rest) * 1e6) / 1e6;
}

function editSelected(action) {
  if (lab.selected === null) { $("tree-error").textContent = "Select a node first (click it)."; return; }
  const node = lab.nodes[lab.selected], ref = node.ref;
  const parent = node.parent === null ? null : lab.nodes[node.parent].ref;
  if (action === "add") {
    if (!ref.children) {
      const p = parent ? kind(parent) : "min";
      ref.player = p === "max" ? "min" : "max";
      ref.children = [];
      delete ref.value;
    }
    ref.children.push({ value: 0 });
    if (ref.player === "chance") evenProbabilities(ref);
  } else if (action === "delete") {
    if (!parent) { $("tree-error").textContent = "The root cannot be deleted."; return; }
    parent.children.splice(parent.children.indexOf(ref), 1);
    if (!parent.children.length) { delete parent.children; delete parent.player; parent.value = 0; }
    else if (parent.player === "chance") evenProbabilities(parent);
    lab.selected = null;
  } else if (action === "player") {
    if (!ref.children) return;
    const v = $("node-player").value;
    ref.player = /^\d+$/.test(v) ? Number(v) : v;
    if (v === "chance") evenProbabilities(ref);
    else ref.children.forEach((c) => delete c.probability);
  } else if (action === "value") {
    const v = Number($("node-value").value);
    if (ref.children || !Number.isFinite(v)) { $("tree-error").textContent = "A leaf value must be a number (select a leaf)."; return; }
    ref.value = v;
  } else if (action === "prob") {
    const v = Number($("node-prob").value);
    if (!parent || parent.player !== "chance" || !Number.isFinite(v)) {
      $("tree-error").textContent = "Probabilities belong to children of chance nodes."; return;
    }
    ref.probability = v;
  }
  $("tree-error").textContent = "";
  changed();
}

// --- export and conversion ---------------------------------------------------------------
function exportSvg() {
  const copy = $("tree-svg").cloneNode(true);
  const rules = [];
  for (const sheet of document.styleSheets) {
    for (const rule of sheet.cssRules) {
      if (/\.(tnode|tedge|elabel)/.test(rule.selectorText || "")) rules.push(rule.cssText);
    }
  }
  const style = document.createElementNS("http://www.w3.org/2000/svg", "style");
  style.textContent = rules.join("\n");
  copy.insertBefore(style, copy.firstChild);
  const text = new XMLSerializer().serializeToString(copy);
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type: "image/svg+xml" }));
  link.download = "tree.svg";
  link.click();
}

async function toMatrix() {
  try {
    const m = await postJSON("/api/tree/matrix", { tree: lab.tree });
    location.hash = `#/matrix?m=${pack(m)}`;
  } catch (err) {
    $("tree-error").textContent = err.message;
  }
}

function loadPreset(name) {
  const preset = lab.presets.find((p) => p.name === name) || lab.presets[0];
  lab.preset = preset.name;
  lab.tree = normalize(preset.tree);
  $("tree-title").textContent = preset.title;
  $("tree-select").value = preset.name;
  lab.selected = null;
  if (name === "chance" && ["minimax", "alphabeta"].includes($("tree-algo").value)) {
    $("tree-algo").value = "expectiminimax";
  }
  changed();
}

function applyParams(params) {
  const notes = [];
  if (params.has("algo")) {
    const algo = params.get("algo");
    if ([...$("tree-algo").options].some((o) => o.value === algo)) $("tree-algo").value = algo;
    else notes.push(`No algorithm "${algo}" here; ${$("tree-algo").value} is used.`);
  }
  const name = params.get("name");
  if (name && !params.has("t") && !lab.presets.some((p) => p.name === name)) {
    notes.push(`No tree named "${name}"; ${lab.presets[0].name} is shown.`);
  }
  $("tree-error").textContent = notes.join(" ");
  if (params.has("t")) {
    try {
      lab.tree = normalize(unpack(params.get("t")));
      $("tree-title").textContent = "Tree from the link";
      changed();
      return;
    } catch {
      notes.push("The tree in the link could not be read.");
      $("tree-error").textContent = notes.join(" ");
    }
  }
  loadPreset(params.get("name") || lab.preset);
}

export async function initTree(params) {
  const data = await getJSON("/api/trees");
  lab.presets = data.trees;
  setOptions($("tree-select"), lab.presets.map((p) => [p.name]));
  setOptions($("tree-algo"), Object.entries(data.algorithms).map(([a, ok]) =>
    [a, `${a}${ok ? "" : " (missing)"}`]));
  $("tree-algo").value = "alphabeta";
  $("tree-select").addEventListener("change", () => loadPreset($("tree-select").value));
  $("tree-algo").addEventListener("change", () => { lab.run = null; lab.step = 0; draw(); });
  $("tree-depth").addEventListener("change", () => { lab.run = null; lab.step = 0; draw(); });
  $("tree-run").addEventListener("click", runAll);
  $("tree-step").addEventListener("click", step);
  $("tree-back").addEventListener("click", () => { lab.step = Math.max(0, lab.step - 1); draw(); });
  $("tree-reset").addEventListener("click", () => { lab.step = 0; draw(); });
  $("tree-export").addEventListener("click", exportSvg);
  $("tree-to-matrix").addEventListener("click", toMatrix);
  $("node-add").addEventListener("click", () => editSelected("add"));
  $("node-delete").addEventListener("click", () => editSelected("delete"));
  $("node-player").addEventListener("change", () => editSelected("player"));
  $("node-value").addEventListener("change", () => editSelected("value"));
  $("node-prob").addEventListener("change", () => editSelected("prob"));
  applyParams(params);
  return { shown(p) { if (p.has("t") || p.has("name")) applyParams(p); else saveHash(); } };
}
