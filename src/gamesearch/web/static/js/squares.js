// One renderer for games on a grid of named squares (Othello, chess, checkers). The server sends
// position.board = { squares: rows of piece codes, files, ranks, moves: {move: [first,
// last]} as [row, col], other_moves (e.g. "pass"), style }. A person clicks the first
// square of a move, then its last (one click when they are the same, as in Othello); when
// several moves share both squares (a chess promotion, two checkers jump paths) a row of
// buttons asks which. Checkers names squares by number: board.labels holds them.

import { el, svg } from "./svg.js";

const CHESS_GLYPHS = { K: "\u2654", Q: "\u2655", R: "\u2656", B: "\u2657", N: "\u2658",
                       P: "\u2659", k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D",
                       n: "\u265E", p: "\u265F" };
const SIZE = 52, MARGIN = 20;

// The [row, col] of every square named in a move's text (for the last-move highlight).
function namedSquares(text, files, ranks, labels) {
  const found = [];
  if (labels) {  // checkers: squares are numbers
    for (const [number] of (text || "").matchAll(/\d+/g)) {
      labels.forEach((row, r) => row.forEach((label, c) => {
        if (label === number) found.push(`${r},${c}`);
      }));
    }
    return found;
  }
  for (const [, letter, number] of (text || "").matchAll(/([A-Za-z])(\d+)/g)) {
    const col = files.indexOf(letter), row = ranks.indexOf(number);
    if (col >= 0 && row >= 0) found.push(`${row},${col}`);
  }
  return found;
}

function drawPiece(picture, style, code, x, y) {
  if (!code) return;
  const cx = x + SIZE / 2, cy = y + SIZE / 2;
  if (style === "othello" || style === "go") {
    el("circle", { cx, cy, r: SIZE * (style === "go" ? 0.46 : 0.4), class: `piece disc-${code === "X" ? "black" : "white"}`,
                   "data-piece": code }, picture);
  } else if (style === "checkers") {
    const colour = code.toLowerCase() === "b" ? "black" : "white";
    el("circle", { cx, cy, r: SIZE * 0.38, class: `piece disc-${colour}`, "data-piece": code },
       picture);
    if (code === code.toUpperCase()) {  // a king: a crown on the disc
      el("text", { x: cx, y: cy + SIZE * 0.14, "text-anchor": "middle", "font-size": SIZE * 0.4,
                   class: `king-mark king-on-${colour}`, text: "\u265B" }, picture);
    }
  } else {
    el("text", { x: cx, y: cy + SIZE * 0.3, "text-anchor": "middle", class: "chess-piece",
                 "font-size": SIZE * 0.8, "data-piece": code, text: CHESS_GLYPHS[code] || code },
       picture);
  }
}

function squareFill(style, row, col) {
  if (style === "othello") return "#2e8b57";
  if (style === "go") return "#dcb35c";
  if (style === "checkers") return (row + col) % 2 === 0 ? "#f3e3c3" : "#6b8e4e";
  return (row + col) % 2 === 0 ? "#f0d9b5" : "#b58863";
}

export function squares(into, position, play, active, values, marks) {
  const board = position.board;
  const { files, ranks, style } = board;
  const rows = board.squares.length, cols = files.length;
  const width = MARGIN + cols * SIZE, height = rows * SIZE + MARGIN;
  into.replaceChildren();
  const holder = document.createElement("div");
  into.appendChild(holder);
  const picture = svg(width, height, holder);
  const labels = board.labels || null;
  const last = new Set(namedSquares(marks.lastMove, files, ranks, labels));
  const check = board.check ? namedSquares(board.check, files, ranks)[0] : null;
  let selected = null;   // "row,col" of the first square clicked, while a move is half made
  const chooser = document.createElement("div");
  chooser.className = "generic-moves";

  const movesFrom = (key) => Object.entries(board.moves)
    .filter(([, [first]]) => `${first[0]},${first[1]}` === key);

  function finish(candidates) {
    if (candidates.length === 1) { play(candidates[0]); return; }
    chooser.replaceChildren();
    for (const move of candidates) {
      const button = document.createElement("button");
      button.textContent = move;
      button.dataset.move = move;
      button.addEventListener("click", () => play(move));
      chooser.appendChild(button);
    }
  }

  function click(key) {
    if (!active) return;
    if (selected !== null) {
      const done = movesFrom(selected).filter(([, [, lastSq]]) => `${lastSq[0]},${lastSq[1]}` === key)
        .map(([move]) => move);
      if (done.length) { finish(done); return; }
    }
    const starting = movesFrom(key);
    const single = starting.filter(([, [a, b]]) => a[0] === b[0] && a[1] === b[1])
      .map(([move]) => move);
    if (single.length) { finish(single); return; }
    selected = starting.length ? key : null;
    draw();
  }

  function draw() {
    picture.replaceChildren();
    const targets = new Set(selected === null ? [] : movesFrom(selected)
      .map(([, [, b]]) => `${b[0]},${b[1]}`));
    const starts = new Set(Object.values(board.moves).map(([a]) => `${a[0]},${a[1]}`));
    board.squares.forEach((row, r) => row.forEach((code, c) => {
      const key = `${r},${c}`, x = MARGIN + c * SIZE, y = r * SIZE;
      const classes = style === "go" ? ["square", "go-point"] : ["square"];
      if (last.has(key)) classes.push("last");
      if (key === selected) classes.push("selected");
      if (key === check) classes.push("check");
      el("rect", { x, y, width: SIZE, height: SIZE, fill: squareFill(style, r, c),
                 class: classes.join(" "),
                 "data-square": labels ? labels[r][c] : files[c] + ranks[r] },
               picture);
      if (style === "go") {  // the lines of a Go board meet at the point's centre
        const cx = x + SIZE / 2, cy = y + SIZE / 2, lastCol = row.length - 1;
        el("line", { x1: c === 0 ? cx : x, x2: c === lastCol ? cx : x + SIZE, y1: cy, y2: cy,
                     class: "go-line" }, picture);
        el("line", { y1: r === 0 ? cy : y, y2: r === board.squares.length - 1 ? cy : y + SIZE,
                     x1: cx, x2: cx, class: "go-line" }, picture);
      }
      if (labels && labels[r][c]) {
        el("text", { x: x + 3, y: y + 11, class: "square-number", text: labels[r][c] },
           picture);
      }
      drawPiece(picture, style, code, x, y);
      const owner = board.territory ? board.territory[r][c] : "";
      if (owner) {  // Go, the game over: a small stone-coloured square marks each point
        const side = SIZE * 0.3;
        el("rect", { x: x + (SIZE - side) / 2, y: y + (SIZE - side) / 2, width: side,
                     height: side, class: `territory territory-${owner === "X" ? "black" : "white"}` },
           picture);
      }
      const movable = active && (targets.has(key) || starts.has(key));
      if (active && (targets.has(key) || (style === "othello" && starts.has(key)))) {
        el("circle", { cx: x + SIZE / 2, cy: y + SIZE / 2, r: SIZE * 0.12, class: "legal-dot" },
           picture);
      }
      const value = style === "othello" || style === "go" ? values[files[c] + ranks[r]]
        : undefined;
      if (value !== undefined) {
        el("text", { x: x + SIZE / 2, y: y + SIZE - 6, "text-anchor": "middle",
                     class: "move-value", text: value }, picture);
      }
      const hit = el("rect", { x, y, width: SIZE, height: SIZE, fill: "transparent",
                               class: movable ? "square-hit movable" : "square-hit" }, picture);
      hit.addEventListener("click", () => click(key));
    }));
    if (labels) return;  // checkers: each square carries its number instead
    files.split("").forEach((f, c) => el("text", {
      x: MARGIN + c * SIZE + SIZE / 2, y: rows * SIZE + 15, "text-anchor": "middle",
      class: "coord", text: f }, picture));
    ranks.forEach((n, r) => el("text", { x: MARGIN / 2, y: r * SIZE + SIZE / 2 + 5,
                                         "text-anchor": "middle", class: "coord", text: n },
                               picture));
  }

  draw();
  const extra = document.createElement("div");
  extra.className = "generic-moves";
  for (const move of board.other_moves || []) {
    const button = document.createElement("button");
    button.textContent = move;
    button.dataset.move = move;
    button.disabled = !active;
    button.addEventListener("click", () => play(move));
    extra.appendChild(button);
  }
  if (board.count) {
    const tally = document.createElement("p");
    tally.className = "disc-count";
    tally.textContent = style === "checkers" ? `black ${board.count.b}  white ${board.count.w}`
      : style === "go" ? `area: black ${board.count.X}  white ${board.count.O}`
        : `black ${board.count.X}  white ${board.count.O}`;
    into.appendChild(tally);
  }
  into.appendChild(extra);
  into.appendChild(chooser);
}
