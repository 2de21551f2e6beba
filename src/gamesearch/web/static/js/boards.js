// Board renderers, one small function per game, chosen by the game's kind. A renderer
// draws position.board into `into` and calls play(moveText) when the person clicks a legal
// move; `active` is false while the AI is to move; `values` (may be empty) maps a move to
// its perfect-play value from the verdict, shown on the board; `marks.lastMove` is the last
// move played (highlighted, as is a winning line). Games without a renderer get the generic
// one: the text picture and the legal moves as buttons. Add a game: write a function here
// and a board-data function in web/views.py under the same name.

import { backgammon } from "./backgammon.js";
import { cards } from "./cards.js";
import { maze } from "./maze.js";
import { el, svg } from "./svg.js";
import { squares } from "./squares.js";

const LINES3 = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8],
                [0, 4, 8], [2, 4, 6]];

// The cells of a winning line of `length` equal non-empty entries in a grid, or [].
export function winningLine(grid, length = 4) {
  const rows = grid.length, cols = rows ? grid[0].length : 0;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const v = grid[r][c];
      if (!v) continue;
      for (const [dr, dc] of [[0, 1], [1, 0], [1, 1], [1, -1]]) {
        const cells = [];
        for (let k = 0; k < length; k++) {
          const rr = r + k * dr, cc = c + k * dc;
          if (rr < 0 || rr >= rows || cc < 0 || cc >= cols || grid[rr][cc] !== v) break;
          cells.push(`${rr},${cc}`);
        }
        if (cells.length === length) return cells;
      }
    }
  }
  return [];
}

function tictactoe(into, position, play, active, values, marks) {
  const cells = position.board.cells;
  const line = LINES3.find((l) => cells[l[0]] && l.every((i) => cells[i] === cells[l[0]]));
  const size = 100, picture = svg(3 * size, 3 * size, into);
  position.board.cells.forEach((mark, i) => {
    const x = (i % 3) * size, y = Math.floor(i / 3) * size;
    const move = String(i + 1);
    const classes = ["cell"];
    if (marks.lastMove === move) classes.push("last");
    if (line && line.includes(i)) classes.push("win");
    const cell = el("rect", { x, y, width: size, height: size, class: classes.join(" "),
                              "data-move": move, "data-mark": mark }, picture);
    // the cell's number, as the command line and the move list write the move
    el("text", { x: x + 8, y: y + 18, class: "cell-number", text: move }, picture);
    if (mark === "X") {
      el("line", { x1: x + 22, y1: y + 22, x2: x + 78, y2: y + 78, class: "mark-x" }, picture);
      el("line", { x1: x + 78, y1: y + 22, x2: x + 22, y2: y + 78, class: "mark-x" }, picture);
    } else if (mark === "O") {
      el("circle", { cx: x + 50, cy: y + 50, r: 30, class: "mark-o" }, picture);
    } else {
      if (move in values) {
        el("text", { x: x + 50, y: y + 55, class: "move-value", "text-anchor": "middle",
                     text: values[move] }, picture);
      }
      if (active && position.legal.includes(move)) cell.addEventListener("click", () => play(move));
    }
  });
  markerLayer(into, picture, marks, (move, group) => {  // the analysed move: a ring
    const i = Number(move) - 1;
    if (!(i >= 0 && i < 9)) return;
    el("circle", { cx: (i % 3) * size + 50, cy: Math.floor(i / 3) * size + 50, r: 42,
                   class: "arrow-ring" }, group);
  });
}

// A marker per analysed move over a board of cells or columns (marks.arrows: [{move,
// kind}]): into.arrowLayer draws new ones without drawing the board again.
function markerLayer(into, picture, marks, place) {
  const paint = (arrows) => {
    picture.querySelector(".arrows")?.remove();
    const layer = el("g", { class: "arrows", "pointer-events": "none" }, picture);
    for (const { move, kind } of arrows || []) {
      const group = el("g", { class: `arrow arrow-${kind}`, "data-move": move,
                              "data-from": move, "data-to": move }, layer);
      place(move, group);
    }
  };
  into.arrowLayer = paint;
  paint(marks.arrows);
}

function connect4(into, position, play, active, values, marks) {
  const { grid, width, height } = position.board;
  const win = new Set(winningLine(grid));
  const lastColumn = marks.lastMove ? Number(marks.lastMove) - 1 : -1;
  const lastRow = lastColumn >= 0 ? grid.findIndex((row) => row[lastColumn]) : -1;
  const size = 56, top = 22, picture = svg(width * size, height * size + top, into);
  el("rect", { x: 0, y: top, width: width * size, height: height * size, fill: "#2a5db0" },
     picture);
  grid.forEach((row, r) => row.forEach((v, c) => {
    const fill = v === 1 ? "#e33" : v === 2 ? "#fd3" : "#fff";
    const classes = ["disc"];
    if (win.has(`${r},${c}`)) classes.push("win");
    if (r === lastRow && c === lastColumn) classes.push("last");
    el("circle", { cx: c * size + size / 2, cy: top + r * size + size / 2, r: size * 0.4, fill,
                   "data-cell": `${r},${c}`, class: classes.join(" ") }, picture);
  }));
  for (let c = 0; c < width; c++) {
    const move = String(c + 1);
    el("text", { x: c * size + size / 2, y: 16, "text-anchor": "middle", class: "move-value",
                 text: move in values ? values[move] : move }, picture);
    const column = el("rect", { x: c * size, y: 0, width: size, height: height * size + top,
                                fill: "transparent", class: "column", "data-move": move },
                      picture);
    if (active && position.legal.includes(move)) column.addEventListener("click", () => play(move));
  }
  // The analysed move: an arrow down into its column.
  markerLayer(into, picture, marks, (move, group) => {
    const c = Number(move) - 1;
    if (!(c >= 0 && c < width)) return;
    const x = c * size + size / 2, y = top + size * 0.55;
    el("line", { x1: x, y1: top - 18, x2: x, y2: y - 14, class: "arrow-shaft" }, group);
    el("polygon", { class: "arrow-head", points: `${x},${y} ${x - 12},${y - 16} ${x + 12},${y - 16}` },
       group);
  });
}

// Nim: pointing at a stick marks every stick a click there takes (it and those above it);
// with the perfect-play answer open, the best move's sticks are outlined and named, as
// the verdict promises.
function nim(into, position, play, active, values) {
  const piles = position.board.piles;
  const most = Math.max(1, ...piles);
  const known = Object.values(values).map(Number).filter(Number.isFinite);
  const top = known.length ? Math.max(...known) : null;
  const best = new Set(Object.keys(values).filter((m) => Number(values[m]) === top));
  const picture = svg(Math.max(240, most * 22 + 90), piles.length * 44 + 34, into);
  piles.forEach((n, p) => {
    const y = p * 44 + 10;
    el("text", { x: 8, y: y + 22, text: `pile ${p + 1}` }, picture);
    const sticks = [];
    for (let k = 0; k < n; k++) {
      const take = n - k, move = `${p + 1}:${take}`;
      const stick = el("rect", { x: 70 + k * 22, y, width: 12, height: 34, rx: 3,
                                 class: "stick", "data-move": move }, picture);
      sticks.push(stick);
      const worth = move in values ? ` (value ${values[move]})` : "";
      el("title", { text: `take ${take} from pile ${p + 1}${worth}` }, stick);
      if (active) {
        stick.addEventListener("click", () => play(move));
        stick.addEventListener("mouseenter", () => sticks.forEach((s, j) =>
          s.classList.toggle("take", j >= k)));
        stick.addEventListener("mouseleave", () => sticks.forEach((s) =>
          s.classList.remove("take")));
      }
    }
    for (const move of best) {
      const [pile, take] = move.split(":").map(Number);
      if (pile !== p + 1) continue;
      sticks.slice(n - take).forEach((s) => s.classList.add("best"));
    }
  });
  if (best.size) {
    const words = [...best].map((m) => { const [p, t] = m.split(":"); return `take ${t} from pile ${p}`; });
    el("text", { x: 8, y: piles.length * 44 + 26, class: "best-note",
                 text: `best: ${words.join(" or ")}` }, picture);
  }
}

function generic(into, position, play, active, values) {
  into.replaceChildren();
  const pre = document.createElement("pre");
  pre.className = "board-text";
  pre.textContent = position.text;
  into.appendChild(pre);
  const box = document.createElement("div");
  box.className = "generic-moves";
  for (const move of position.legal) {
    const button = document.createElement("button");
    button.textContent = move in values ? `${move} (${values[move]})` : move;
    button.dataset.move = move;
    button.disabled = !active;
    button.addEventListener("click", () => play(move));
    box.appendChild(button);
  }
  into.appendChild(box);
}

export const RENDERERS = { tictactoe, connect4, nim, othello: squares, chess: squares,
                                checkers: squares, go: squares };

// Renderers chosen by the board data's own "style" (the game's entry says which), so that
// a new game with such a board needs nothing here.
export const STYLES = { backgammon, cards, maze };

let lastDrawn = null;  // the last call, drawn again when the perfect-play answer opens

// The perfect-play values stay off the board until the person opens the answer.
function answerOpen() {
  const box = document.getElementById("verdict-box");
  return !box || box.open;
}

export function redrawBoard() { if (lastDrawn) renderBoard(...lastDrawn); }

// New arrows for the board drawn last (the analysis's best move, its line's next move),
// without drawing the board again; boards without an arrow layer draw none.
export function showArrows(into, arrows) {
  const key = JSON.stringify(arrows || []);
  if (key === into.arrowKey) return;  // the same arrows stay (no flicker, no new nodes)
  into.arrowKey = key;
  if (lastDrawn && lastDrawn[0] === into) lastDrawn[5] = { ...lastDrawn[5], arrows };
  into.arrowLayer?.(arrows);
}

export function renderBoard(into, position, play, active, values = {}, marks = {}) {
  lastDrawn = [into, position, play, active, values, marks];
  into.arrowLayer = null;
  into.arrowKey = JSON.stringify((marks && marks.arrows) || []);
  if (!answerOpen()) values = {};
  const renderer = (position.board && (STYLES[position.board.style]
                                       || RENDERERS[position.kind])) || generic;
  renderer(into, position, play, active, values || {}, marks || {});
}
