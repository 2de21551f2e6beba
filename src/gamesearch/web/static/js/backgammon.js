// The backgammon board: 24 points, the bar, the borne-off trays, the dice. A person moves
// one checker step at a time: click a checker (or drag it) and then one of the marked
// points. The steps that can still end in a legal play come from the server
// (board.routes, engines/backgammon/view.py): a graph whose node 0 is the position before
// the play, each node listing its [from, to, next node] steps in the mover's numbering
// (25 the bar, 0 borne off); the node where the play is complete names its text.

import { h } from "./dom.js";
import { el, svg } from "./svg.js";

const PW = 36, R = 15, LEFT = 10, TOP = 26, BARW = 34, TRAYW = 46, HALF = 5 * 2 * R + 18;
const WIDTH = LEFT * 2 + 12 * PW + BARW + TRAYW, BOTTOM = TOP + 2 * HALF;
const COLOURS = ["#f4f1e8", "#3b2f2f"];
const pending = new WeakMap();  // board element -> the steps chosen so far, by position key

// Where absolute point index i (0 = X's point 1) is drawn: its x and whether on top.
function place(i) {
  const column = i >= 12 ? i - 12 : 11 - i;
  return [LEFT + column * PW + (column >= 6 ? BARW : 0) + PW / 2, i >= 12];
}

const indexOf = (mover, p) => mover === 0 ? p - 1 : 24 - p;
const numberOf = (mover, i) => mover === 0 ? i + 1 : 24 - i;
const keyOf = (b, position) => JSON.stringify([b.points, b.bar, b.dice, b.player,
                                               position.moves.length]);

// One step on a copy of the board (mover's numbering); a lone opposing checker is hit.
function apply(board, mover, [src, dst]) {
  const sign = mover === 0 ? 1 : -1;
  if (src === 25) board.bar[mover] -= 1;
  else board.points[indexOf(mover, src)] -= sign;
  if (dst === 0) { board.off[mover] += 1; return; }
  const i = indexOf(mover, dst);
  if (board.points[i] === -sign) { board.points[i] = 0; board.bar[1 - mover] += 1; }
  board.points[i] += sign;
}

export function backgammon(into, position, play, active, values, marks) {
  const b = position.board, mover = b.player;
  const key = keyOf(b, position);
  let chosen = pending.get(into);
  if (!chosen || chosen.key !== key) { chosen = { key, steps: [], node: 0, from: null }; }
  pending.set(into, chosen);
  const board = { points: [...b.points], bar: [...b.bar], off: [...b.off] };
  for (const s of chosen.steps) apply(board, mover, s);
  const routes = b.routes || [];
  const node = routes[chosen.node] || { next: [], move: null };
  const canMove = active && !position.terminal && b.dice;
  const sources = new Set(canMove ? node.next.map((s) => s[0]) : []);
  const targets = new Map(canMove && chosen.from !== null
    ? node.next.filter((s) => s[0] === chosen.from).map((s) => [s[1], s]) : []);

  const step = (s) => {
    chosen.steps.push([s[0], s[1]]);
    chosen.node = s[2];
    chosen.from = null;
    const done = routes[chosen.node];
    if (done && done.move && !done.next.length) {
      pending.delete(into);
      play(done.move);
      return;
    }
    backgammon(into, position, play, active, values, marks);
  };
  const pick = (src) => {
    if (!sources.has(src)) return;
    chosen.from = src;
    backgammon(into, position, play, active, values, marks);
  };

  into.replaceChildren();
  const picture = svg(WIDTH, BOTTOM + 34, into);
  picture.classList.add("backgammon");
  picture.setAttribute("role", "img");
  picture.setAttribute("aria-label", `backgammon board, ${position.players[mover]} ` +
    (b.dice ? `to play ${b.dice.join("-")}` : "to roll"));
  el("rect", { x: LEFT, y: TOP, width: 12 * PW + BARW, height: 2 * HALF, class: "bg-felt" },
     picture);
  for (let i = 0; i < 24; i++) {
    const [x, top] = place(i);
    const base = top ? TOP : BOTTOM, tip = top ? TOP + HALF - 12 : BOTTOM - HALF + 12;
    const number = numberOf(mover, i);
    const classes = ["bg-point", i % 2 ? "dark" : "light"];
    if (targets.has(number)) classes.push("target");
    el("polygon", { points: `${x - PW / 2},${base} ${x + PW / 2},${base} ${x},${tip}`,
                    class: classes.join(" ") }, picture);
    el("text", { x, y: top ? TOP - 8 : BOTTOM + 15, class: "bg-number", "text-anchor": "middle",
                 text: number }, picture);
  }
  const barX = LEFT + 6 * PW + BARW / 2, trayX = LEFT + 12 * PW + BARW;
  el("rect", { x: LEFT + 6 * PW, y: TOP, width: BARW, height: 2 * HALF, class: "bg-bar" }, picture);
  el("rect", { x: trayX, y: TOP, width: TRAYW, height: 2 * HALF,
               class: "bg-tray" + (targets.has(0) ? " target" : "") }, picture);

  const stack = (count, side, x, top, src) => {
    const room = HALF - 8, gap = count > 1 ? Math.min(2 * R, (room - 2 * R) / (count - 1)) : 0;
    for (let k = 0; k < count; k++) {
      const y = top ? TOP + R + 3 + k * gap : BOTTOM - R - 3 - k * gap;
      const movable = side === mover && src !== null && sources.has(src);
      const classes = ["bg-checker", side === 0 ? "x" : "o"];
      if (movable) classes.push("movable");
      if (movable && chosen.from === src && k === count - 1) classes.push("selected");
      const c = el("circle", { cx: x, cy: y, r: R - 1, fill: COLOURS[side], class: classes.join(" "),
                               "data-side": side, "data-src": src ?? "" }, picture);
      if (movable) c.setAttribute("data-movable", "");
    }
    if (count > 5) {
      el("text", { x, y: top ? TOP + R + 8 : BOTTOM - R - 2, class: "bg-count",
                   "text-anchor": "middle", fill: side === 0 ? "#222" : "#fff", text: count }, picture);
    }
  };
  board.points.forEach((v, i) => {
    if (!v) return;
    const [x, top] = place(i);
    const side = v > 0 ? 0 : 1;
    stack(Math.abs(v), side, x, top, side === mover ? numberOf(mover, i) : null);
  });
  stack(board.bar[1], 1, barX, true, mover === 1 ? 25 : null);
  stack(board.bar[0], 0, barX, false, mover === 0 ? 25 : null);
  for (const side of [0, 1]) {
    for (let k = 0; k < board.off[side]; k++) {
      const y = side === 0 ? BOTTOM - 8 - k * 8 : TOP + 2 + k * 8;
      el("rect", { x: trayX + 6, y, width: TRAYW - 12, height: 6, rx: 2, fill: COLOURS[side],
                   class: "bg-off", stroke: "#111" }, picture);
    }
    el("text", { x: trayX + TRAYW / 2, y: side === 0 ? BOTTOM + 15 : TOP - 8, class: "bg-number",
                 "text-anchor": "middle", text: `off ${board.off[side]}` }, picture);
  }
  if (b.dice) {
    const used = chosen.steps.length;
    const dice = b.dice[0] === b.dice[1] ? [b.dice[0], b.dice[0], b.dice[0], b.dice[0]] : b.dice;
    dice.forEach((d, k) => {
      const x = LEFT + 9 * PW + BARW - dice.length * 14 + k * 28, y = TOP + HALF - 12;
      const g = el("g", { class: "bg-die" + (k < used ? " used" : ""), "data-die": d }, picture);
      el("rect", { x, y, width: 24, height: 24, rx: 5 }, g);
      el("text", { x: x + 12, y: y + 17, "text-anchor": "middle", text: d }, g);
    });
  }
  const names = position.players.map((p) => p.replace(/^player \d \((.)\)$/, "$1"));
  el("text", { x: LEFT, y: BOTTOM + 31, class: "bg-caption",
               text: `pips ${names[0]} ${b.pips[0]} · ${names[1]} ${b.pips[1]}` }, picture);

  // Click a checker, then a marked point; or drag the checker there.
  const hit = (event) => {
    const pt = picture.createSVGPoint();
    pt.x = event.clientX; pt.y = event.clientY;
    const p = pt.matrixTransform(picture.getScreenCTM().inverse());
    if (p.x >= trayX) return 0;
    if (p.x >= LEFT + 6 * PW && p.x < LEFT + 6 * PW + BARW) return 25;
    const column = Math.floor((p.x - LEFT - (p.x > LEFT + 6 * PW ? BARW : 0)) / PW);
    if (column < 0 || column > 11) return null;
    const i = p.y < TOP + HALF ? column + 12 : 11 - column;
    return numberOf(mover, i);
  };
  // A drag outlives the drawing it started on (picking the checker redraws the board):
  // it is kept with the chosen steps, and the drop is heard on the board's container.
  picture.addEventListener("pointerdown", (event) => {
    if (!canMove) return;
    const spot = hit(event);
    if (spot !== null && targets.has(spot)) { step(targets.get(spot)); return; }
    if (spot !== null && sources.has(spot)) {
      chosen.drag = { src: spot, x: event.clientX, y: event.clientY };
      if (chosen.from !== spot) pick(spot);
    }
  });
  into.onpointerup = (event) => {
    const drag = chosen.drag;
    chosen.drag = null;
    if (!drag || Math.hypot(event.clientX - drag.x, event.clientY - drag.y) <= 8) return;
    const spot = hit(event);
    const s = node.next.find((t) => t[0] === drag.src && t[1] === spot);
    if (s) step(s);
  };

  const controls = h("div", { class: "controls bg-controls" });
  if (canMove && node.move && !node.next.length) {
    controls.append(h("button", { type: "button", "data-move": node.move,
                                  onclick: () => play(node.move) },
                      node.move === "pass" ? "No legal move: pass" : `Play ${node.move}`));
  }
  if (chosen.steps.length) {
    controls.append(h("span", { class: "note" }, "so far: " + chosen.steps.map(([s, d]) =>
      `${s === 25 ? "bar" : s}/${d === 0 ? "off" : d}`).join(" ")),
    h("button", { type: "button", class: "bg-restart", onclick: () => {
      pending.delete(into);
      backgammon(into, position, play, active, values, marks);
    } }, "Start the move again"));
  }
  if (canMove && node.next.length) {
    controls.append(h("span", { class: "note" }, chosen.from === null
      ? "Click a checker that can move (or drag it)." : "Click a marked point."));
  }
  if (marks.lastMove && !chosen.steps.length) {
    controls.append(h("span", { class: "note" }, `last: ${marks.lastMove}`));
  }
  into.append(controls);
}
