// One renderer for games on a grid of named squares (Othello, chess, checkers, Go). The
// server sends position.board = { squares: rows of piece codes, files, ranks, moves: {move:
// [first, last]} as [row, col], also: {move: [row, col]} (another square that makes the
// move: castling by dropping the king on its rook), other_moves (e.g. "pass"), style }.
// A person makes a move as on lichess: click the first square then the last, or drag the
// piece (pointer events: a mouse, a pen or a finger); one click when both are the same
// (Othello, Go). Several moves sharing both squares: a promotion offers its pieces over
// the square, queen first; other cases (two checkers jump paths) a row of buttons. The
// keyboard plays too: the squares are focusable (one tab stop), the arrows move between
// them, Enter or Space picks and drops. marks.flip turns the board round. Checkers names
// squares by number: board.labels holds them, drawn in each square. marks.arrows
// ([{move, kind}], kind "best" or "next") are drawn over the board, from a move's first
// square to its last (a point marker for a one-square move: Othello, Go); into.arrowLayer
// draws new ones without drawing the board again (a drag goes on under them).

import { el, svg } from "./svg.js";

const CHESS_GLYPHS = { K: "\u2654", Q: "\u2655", R: "\u2656", B: "\u2657", N: "\u2658",
                       P: "\u2659", k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D",
                       n: "\u265E", p: "\u265F" };
const PROMOTION_ORDER = "qrbn";  // the chooser's order, queen first
const SIZE = 52, MARGIN = 20;

// Where the keyboard's focus was, so that it stays on the board across a redraw (a
// redraw removes the focused square: only focus moving elsewhere takes it off the board).
const keyboard = { key: null, focused: false };
document.addEventListener("focusin", (event) => {
  keyboard.focused = Boolean(event.target.closest?.(".square-board"));
});

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

function drawPiece(picture, style, code, x, y, extraClass = "") {
  if (!code) return null;
  const cx = x + SIZE / 2, cy = y + SIZE / 2;
  if (style === "othello" || style === "go") {
    return el("circle", { cx, cy, r: SIZE * (style === "go" ? 0.46 : 0.4),
                          class: `piece disc-${code === "X" ? "black" : "white"} ${extraClass}`,
                          "data-piece": code }, picture);
  }
  if (style === "checkers") {
    const colour = code.toLowerCase() === "b" ? "black" : "white";
    const group = el("g", { class: `piece ${extraClass}`, "data-piece": code }, picture);
    el("circle", { cx, cy, r: SIZE * 0.38, class: `disc-${colour}` }, group);
    if (code === code.toUpperCase()) {  // a king: a crown on the disc
      el("text", { x: cx, y: cy + SIZE * 0.14, "text-anchor": "middle", "font-size": SIZE * 0.4,
                   class: `king-mark king-on-${colour}`, text: "\u265B" }, group);
    }
    return group;
  }
  return el("text", { x: cx, y: cy + SIZE * 0.3, "text-anchor": "middle",
                      class: `chess-piece ${extraClass}`, "font-size": SIZE * 0.8,
                      "data-piece": code, text: CHESS_GLYPHS[code] || code }, picture);
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
  const flip = Boolean(marks.flip);
  const width = MARGIN + cols * SIZE, height = rows * SIZE + MARGIN;
  into.replaceChildren();
  const holder = document.createElement("div");
  into.appendChild(holder);
  const picture = svg(width, height, holder);
  picture.classList.add("square-board");
  picture.setAttribute("role", "grid");
  picture.setAttribute("aria-label", `board${flip ? " (flipped)" : ""}`);
  const labels = board.labels || null;
  const also = board.also || {};
  const last = new Set(namedSquares(marks.lastMove, files, ranks, labels));
  const check = board.check ? namedSquares(board.check, files, ranks)[0] : null;
  let selected = null;   // "row,col" of the first square, while a move is half made
  let drag = null;       // a piece being dragged: { key, x, y, moved, ghost }
  let promoting = null;  // the moves a promotion chooser offers, and its square
  const chooser = document.createElement("div");
  chooser.className = "generic-moves";

  // Board [row, col] <-> the place it is drawn (flipped: the far side at the bottom).
  const shownRow = (r) => flip ? rows - 1 - r : r;
  const shownCol = (c) => flip ? cols - 1 - c : c;
  const nameOf = (r, c) => labels ? labels[r][c] : files[c] + ranks[r];

  const movesFrom = (key) => Object.entries(board.moves)
    .filter(([, [first]]) => `${first[0]},${first[1]}` === key);
  const endsAt = (move, [, lastSq], key) => `${lastSq[0]},${lastSq[1]}` === key
    || (also[move] && `${also[move][0]},${also[move][1]}` === key);
  const targetsOf = (key) => new Set(movesFrom(key).flatMap(([move, sq]) =>
    [`${sq[1][0]},${sq[1][1]}`, ...(also[move] ? [`${also[move][0]},${also[move][1]}`] : [])]));
  const singleAt = (key) => movesFrom(key).filter(([, [a, b]]) => a[0] === b[0] && a[1] === b[1])
    .map(([move]) => move);
  const starts = new Set(Object.values(board.moves).map(([a]) => `${a[0]},${a[1]}`));

  function finish(candidates, key) {
    if (candidates.length === 1) { play(candidates[0]); return; }
    const promotions = candidates.filter((m) => /^[a-z]\d+[a-z]\d+[qrbn]$/i.test(m));
    if (promotions.length === candidates.length) {  // the chooser over the square
      promoting = { key, moves: promotions.sort((a, b) =>
        PROMOTION_ORDER.indexOf(a.slice(-1).toLowerCase())
        - PROMOTION_ORDER.indexOf(b.slice(-1).toLowerCase())) };
      draw();
      return;
    }
    chooser.replaceChildren();
    for (const move of candidates) {
      const button = document.createElement("button");
      button.textContent = move;
      button.dataset.move = move;
      button.addEventListener("click", () => play(move));
      chooser.appendChild(button);
    }
  }

  // A press (or Enter) on a square: drop the picked piece there, or pick one up.
  function choose(key) {
    if (!active) return;
    promoting = null;
    if (selected !== null) {
      const done = movesFrom(selected).filter(([move, sq]) => endsAt(move, sq, key))
        .map(([move]) => move);
      if (done.length) { finish(done, key); return; }
      if (key === selected) { selected = null; draw(); return; }
    }
    const single = singleAt(key);
    if (single.length) { finish(single, key); return; }
    selected = starts.has(key) ? key : null;
    draw();
  }

  function keyAt(event) {
    const point = picture.createSVGPoint();
    point.x = event.clientX;
    point.y = event.clientY;
    const matrix = picture.getScreenCTM();
    if (!matrix) return null;
    const p = point.matrixTransform(matrix.inverse());
    const dc = Math.floor((p.x - MARGIN) / SIZE), dr = Math.floor(p.y / SIZE);
    if (dc < 0 || dc >= cols || dr < 0 || dr >= rows) return null;
    return `${shownRow(dr)},${shownCol(dc)}`;
  }

  // A mouse press must not give the board the keyboard's focus: the arrows keep stepping
  // through the moves unless a person tabbed onto the board.
  picture.addEventListener("mousedown", (event) => event.preventDefault());
  picture.addEventListener("pointerdown", (event) => {
    if (!active || event.button > 0) return;
    if (promoting) return;  // the chooser's own handlers answer
    const key = keyAt(event);
    if (key === null) return;
    keyboard.key = key;
    if (selected !== null && targetsOf(selected).has(key)) { choose(key); return; }
    if (!starts.has(key) || singleAt(key).length) { choose(key); return; }
    event.preventDefault();
    const again = selected === key;
    selected = key;
    draw();
    const [r, c] = key.split(",").map(Number);
    drag = { key, again, x: event.clientX, y: event.clientY, moved: false, ghost: null,
             code: board.squares[r][c] };
    picture.setPointerCapture?.(event.pointerId);
  });
  picture.addEventListener("pointermove", (event) => {
    if (!drag) return;
    if (!drag.moved && Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 4) return;
    drag.moved = true;
    const matrix = picture.getScreenCTM();
    if (!matrix) return;
    const point = picture.createSVGPoint();
    point.x = event.clientX;
    point.y = event.clientY;
    const p = point.matrixTransform(matrix.inverse());
    if (!drag.ghost) {
      picture.querySelectorAll(`[data-at="${drag.key}"]`).forEach((n) => n.classList.add("lifted"));
      drag.ghost = drawPiece(picture, style, drag.code, 0, 0, "ghost");
    }
    drag.ghost?.setAttribute("transform", `translate(${p.x - SIZE / 2} ${p.y - SIZE / 2})`);
  });
  const drop = (event) => {
    if (!drag) return;
    const { key: from, moved, again } = drag;
    drag = null;
    const key = event.type === "pointercancel" ? null : keyAt(event);
    if (moved && key !== null && key !== from && targetsOf(from).has(key)) {
      choose(key);
    } else if (!moved && again) {  // a second click on the picked piece puts it down
      selected = null;
      draw();
    } else {
      draw();
    }
  };
  picture.addEventListener("pointerup", drop);
  picture.addEventListener("pointercancel", drop);

  picture.addEventListener("keydown", (event) => {
    const at = event.target.dataset?.key;
    if (!at) return;
    const [r, c] = at.split(",").map(Number);
    const step = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (event.key in step) {
      event.preventDefault();
      event.stopPropagation();  // the arrows move on the board, not through the moves
      const [dr, dc] = step[event.key].map((d) => flip ? -d : d);
      const nr = Math.max(0, Math.min(rows - 1, r + dr)), nc = Math.max(0, Math.min(cols - 1, c + dc));
      keyboard.key = `${nr},${nc}`;
      picture.querySelector(`.square-hit[data-key="${keyboard.key}"]`)?.focus();
      picture.querySelectorAll(".square-hit").forEach((n) =>
        n.setAttribute("tabindex", n.dataset.key === keyboard.key ? "0" : "-1"));
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      event.stopPropagation();
      keyboard.key = at;
      keyboard.focused = true;
      choose(at);
    } else if (event.key === "Escape") {
      selected = null; promoting = null; draw();
    }
  });

  function drawPromotion() {
    const [r, c] = promoting.key.split(",").map(Number);
    const dr = shownRow(r), dc = shownCol(c);
    const down = dr < rows / 2;  // from the target square toward the middle of the board
    const colour = promoting.moves[0] && position.to_move === 1 ? "black" : "white";
    el("rect", { x: 0, y: 0, width, height, class: "promotion-shade" }, picture)
      .addEventListener("pointerdown", (e) => { e.stopPropagation(); promoting = null; draw(); });
    promoting.moves.forEach((move, i) => {
      const y = (down ? dr + i : dr - i) * SIZE, x = MARGIN + dc * SIZE;
      const piece = move.slice(-1);
      const code = colour === "white" ? piece.toUpperCase() : piece.toLowerCase();
      const group = el("g", { class: "promotion-choice", "data-promotion": move, tabindex: "0",
                              role: "button", "aria-label": `promote to ${piece}` }, picture);
      el("circle", { cx: x + SIZE / 2, cy: y + SIZE / 2, r: SIZE / 2 - 1,
                     class: "promotion-disc" }, group);
      drawPiece(group, "chess", code, x, y);
      const pick = (e) => { e.stopPropagation(); e.preventDefault(); play(move); };
      group.addEventListener("pointerdown", pick);
      group.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") pick(e); });
      if (i === 0) setTimeout(() => group.focus?.(), 0);
    });
  }

  function draw() {
    picture.replaceChildren();
    const targets = selected === null ? new Set() : targetsOf(selected);
    if (keyboard.key === null || !board.squares[Number(keyboard.key.split(",")[0])]) {
      keyboard.key = `${flip ? 0 : rows - 1},${flip ? cols - 1 : 0}`;
    }
    board.squares.forEach((row, r) => row.forEach((code, c) => {
      const key = `${r},${c}`, x = MARGIN + shownCol(c) * SIZE, y = shownRow(r) * SIZE;
      const classes = style === "go" ? ["square", "go-point"] : ["square"];
      if (last.has(key)) classes.push("last");
      if (key === selected) classes.push("selected");
      if (key === check) classes.push("check");
      el("rect", { x, y, width: SIZE, height: SIZE, fill: squareFill(style, r, c),
                   class: classes.join(" "), "data-square": nameOf(r, c) }, picture);
      if (style === "go") {  // the lines of a Go board meet at the point's centre
        const cx = x + SIZE / 2, cy = y + SIZE / 2;
        const left = shownCol(c) === 0, right = shownCol(c) === cols - 1;
        const top = shownRow(r) === 0, bottom = shownRow(r) === rows - 1;
        el("line", { x1: left ? cx : x, x2: right ? cx : x + SIZE, y1: cy, y2: cy,
                     class: "go-line" }, picture);
        el("line", { y1: top ? cy : y, y2: bottom ? cy : y + SIZE, x1: cx, x2: cx,
                     class: "go-line" }, picture);
      }
      if (labels && labels[r][c]) {
        el("text", { x: x + 3, y: y + 11, class: "square-number", text: labels[r][c] },
           picture);
      }
      const piece = drawPiece(picture, style, code, x, y);
      piece?.setAttribute("data-at", key);
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
                               class: movable ? "square-hit movable" : "square-hit",
                               "data-key": key, role: "gridcell",
                               tabindex: key === keyboard.key ? "0" : "-1",
                               "aria-label": nameOf(r, c) + (code ? ` ${code}` : "") },
                     picture);
      hit.addEventListener("focus", () => { keyboard.key = key; });
    }));
    // Coordinates in the game's own notation (checkers: each square carries its number).
    if (!labels) {
      files.split("").forEach((f, c) => el("text", {
        x: MARGIN + shownCol(c) * SIZE + SIZE / 2, y: rows * SIZE + 15, "text-anchor": "middle",
        class: "coord coord-file", text: f }, picture));
      ranks.forEach((n, r) => el("text", { x: MARGIN / 2, y: shownRow(r) * SIZE + SIZE / 2 + 5,
                                           "text-anchor": "middle", class: "coord coord-rank",
                                           text: n }, picture));
    }
    paintArrows();
    if (promoting) drawPromotion();
    if (keyboard.focused && !promoting) {
      // at once: a key pressed next must reach the board, not the page behind it
      picture.querySelector(`.square-hit[data-key="${keyboard.key}"]`)?.focus();
    }
  }

  let arrows = marks.arrows || [];
  const centre = (key) => {
    const [r, c] = key.split(",").map(Number);
    return [MARGIN + shownCol(c) * SIZE + SIZE / 2, shownRow(r) * SIZE + SIZE / 2];
  };
  // The squares a move goes from and to: a legal move's own, else those its text names
  // (the principal variation's next move is not legal on this board yet).
  const endsOf = (move) => {
    if (board.moves[move]) {
      const [a, b] = board.moves[move];
      return [`${a[0]},${a[1]}`, `${b[0]},${b[1]}`];
    }
    const named = namedSquares(move, files, ranks, labels);
    return named.length ? [named[0], named[named.length - 1]] : null;
  };
  const named = (key) => { const [r, c] = key.split(",").map(Number); return nameOf(r, c); };
  function paintArrows() {
    picture.querySelector(".arrows")?.remove();
    const layer = el("g", { class: "arrows", "pointer-events": "none" }, picture);
    for (const { move, kind } of arrows) {
      const ends = endsOf(move);
      if (!ends) continue;  // a pass: nothing on the board to point at
      const group = el("g", { class: `arrow arrow-${kind}`, "data-move": move,
                              "data-from": named(ends[0]), "data-to": named(ends[1]) }, layer);
      const [x1, y1] = centre(ends[0]), [x2, y2] = centre(ends[1]);
      if (ends[0] === ends[1]) {
        el("circle", { cx: x1, cy: y1, r: SIZE * 0.42, class: "arrow-ring" }, group);
        continue;
      }
      const length = Math.hypot(x2 - x1, y2 - y1), ux = (x2 - x1) / length, uy = (y2 - y1) / length;
      const head = SIZE * 0.38, half = SIZE * 0.2;
      const bx = x2 - ux * head, by = y2 - uy * head;
      el("line", { x1, y1, x2: bx, y2: by, class: "arrow-shaft" }, group);
      el("polygon", { class: "arrow-head", points: `${x2},${y2} ${bx - uy * half},${by + ux * half} `
                      + `${bx + uy * half},${by - ux * half}` }, group);
    }
  }
  into.arrowLayer = (next) => { arrows = next || []; paintArrows(); };

  draw();
  const extra = document.createElement("div");
  extra.className = "generic-moves";
  for (const move of board.other_moves || []) {
    const button = document.createElement("button");
    button.textContent = move === "pass" ? "Pass" : move;
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
