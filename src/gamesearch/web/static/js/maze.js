// Pacman's maze: walls, food, capsules, Pacman and the ghosts (pale blue while scared).
// Pacman and the ghosts glide from where they were to where they are (a CSS transition on
// their transform), so a move is seen, not just its result. A person moves Pacman with the
// buttons or by clicking a marked neighbouring cell. Board data: engines/pacman/view.py.

import { h } from "./dom.js";
import { el, svg } from "./svg.js";

const S = 26;
const GHOSTS = ["#e74c3c", "#ff8fd0", "#3ec1d3", "#f5a623"];
const ARROWS = { North: "↑", South: "↓", East: "→", West: "←", Stop: "■" };
const last = new WeakMap();  // board element -> where each agent was drawn last

const at = ([r, c]) => `translate(${c * S + S / 2}px, ${r * S + S / 2}px)`;

// The last move (marks.lastMove, a direction) of its mover (board.mover: Pacman 0, ghost k
// is k + 1): the cell it left and the cell it reached, outlined like other boards' last
// move (a frightened ghost moves half a cell). Same cells as engines/pacman/view.py draws.
function lastCells(b, move) {
  const who = b.mover;
  const to = who === 0 ? b.pacman : b.ghosts[who - 1];
  if (!to) return [];
  const d = b.directions[move];
  if (!d) return [to];
  const step = who > 0 && b.scared[who - 1] > 0 && b.half_when_scared ? 0.5 : 1;
  return [[to[0] - d[0] * step, to[1] - d[1] * step], to];
}

export function maze(into, position, play, active, values = {}, marks = {}) {
  const b = position.board;
  const before = last.get(into);
  into.replaceChildren();
  const picture = svg(b.width * S, b.height * S, into);
  picture.classList.add("maze");
  picture.setAttribute("role", "img");
  picture.setAttribute("aria-label", `Pacman maze: score ${b.score}, ` +
    `${b.food.length} food left, ${b.ghosts.length} ghost${b.ghosts.length === 1 ? "" : "s"}`);
  el("rect", { x: 0, y: 0, width: b.width * S, height: b.height * S, class: "maze-floor" }, picture);
  for (const [r, c] of b.walls) {
    el("rect", { x: c * S + 1, y: r * S + 1, width: S - 2, height: S - 2, rx: 5, class: "wall" }, picture);
  }
  for (const [r, c] of b.food) {
    el("circle", { cx: c * S + S / 2, cy: r * S + S / 2, r: 3, class: "food" }, picture);
  }
  for (const [r, c] of b.capsules) {
    el("circle", { cx: c * S + S / 2, cy: r * S + S / 2, r: 7, class: "capsule" }, picture);
  }
  if (marks.lastMove) {
    lastCells(b, marks.lastMove).forEach(([r, c], k) => {
      el("rect", { x: c * S + 1, y: r * S + 1, width: S - 2, height: S - 2, rx: 5,
                   class: "maze-last last", "data-last": k ? "to" : "from" }, picture);
    });
  }
  const mine = active && position.to_move === 0;
  const targets = new Map();
  if (mine) {
    for (const move of position.legal) {
      const d = b.directions[move];
      if (!d || move === "Stop") continue;
      const cell = [b.pacman[0] + d[0], b.pacman[1] + d[1]];
      targets.set(cell.join(","), move);
      const t = el("rect", { x: cell[1] * S + 2, y: cell[0] * S + 2, width: S - 4, height: S - 4,
                             rx: 4, class: "maze-target", "data-move": move }, picture);
      el("title", { text: `move ${move}` }, t);
      t.addEventListener("click", () => play(move));
    }
  }
  const agents = [];
  if (!b.caught) {
    const g = el("g", { class: "agent pacman", "data-agent": "pacman" }, picture);
    const rr = S * 0.42;
    el("path", { d: `M0,0 L${rr * 0.8},${-rr * 0.55} A${rr},${rr} 0 1,0 ${rr * 0.8},${rr * 0.55} Z`,
                 class: "pacman-body" }, g);
    agents.push([g, b.pacman, "pacman"]);
  }
  b.ghosts.forEach((cell, k) => {
    const scared = b.scared[k] > 0;
    const g = el("g", { class: "agent ghost" + (scared ? " scared" : ""), "data-agent": `ghost${k}` },
                 picture);
    const q = S * 0.4;
    el("path", { d: `M${-q},${q} L${-q},0 A${q},${q} 0 0,1 ${q},0 L${q},${q} Z`,
                 fill: scared ? "#a9c7ff" : GHOSTS[k % GHOSTS.length] }, g);
    for (const dx of [-0.15, 0.15]) el("circle", { cx: dx * S, cy: -S * 0.05, r: S * 0.08, fill: "#fff" }, g);
    agents.push([g, cell, `ghost${k}`]);
  });
  const now = {};
  for (const [g, cell, name] of agents) {
    now[name] = cell;
    const from = before && before[name];
    g.style.transform = at(from || cell);
    if (from && (from[0] !== cell[0] || from[1] !== cell[1])) {
      requestAnimationFrame(() => requestAnimationFrame(() => { g.style.transform = at(cell); }));
    }
  }
  last.set(into, now);

  const buttons = h("div", { class: "controls maze-buttons" }, ...position.legal.map((move) =>
    h("button", { type: "button", "data-move": move, disabled: !mine, "aria-label": `move ${move}`,
                  title: move, onclick: () => play(move) }, `${ARROWS[move] || ""} ${move}`)));
  into.append(h("p", { class: "note maze-score" },
    `score ${b.score} · food left ${b.food.length} · moves ${b.moves}`), buttons);
}
