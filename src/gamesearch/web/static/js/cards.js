// The poker table (Kuhn, Leduc): each player's cards (face down where this viewer may not
// see them: the server sends null, never the card), the public card, the chips each put
// in and the pot, the betting so far in words, and one button per legal move named by what
// it does now ("Check", "Bet", "Call", "Fold", "Raise"). Board data: the game's entry
// (engines/kuhn_poker.py, engines/leduc_poker.py).

import { h } from "./dom.js";
import { el, svg } from "./svg.js";

const CW = 58, CH = 82;
const SUITS = { h: ["♥", "red"], s: ["♠", "black"], d: ["♦", "red"], c: ["♣", "black"] };

function card(picture, x, y, name) {
  const g = el("g", { class: name ? "card face" : "card back",
                      "data-card": name ?? "hidden" }, picture);
  el("rect", { x, y, width: CW, height: CH, rx: 6 }, g);
  if (!name) {
    el("rect", { x: x + 5, y: y + 5, width: CW - 10, height: CH - 10, rx: 4, class: "card-pattern" }, g);
    el("title", { text: "a card you cannot see" }, g);
    return;
  }
  const [symbol, colour] = SUITS[name[1]] || ["", "black"];
  el("text", { x: x + 7, y: y + 20, class: `card-rank ${colour}`, text: name[0] }, g);
  el("text", { x: x + CW / 2, y: y + CH / 2 + 12, "text-anchor": "middle",
               class: `card-big ${colour}`, text: symbol || name[0] }, g);
  el("title", { text: { J: "jack", Q: "queen", K: "king" }[name[0]] +
                      (symbol ? ` of ${{ h: "hearts", s: "spades", d: "diamonds", c: "clubs" }[name[1]]}` : "") }, g);
}

function chips(picture, x, y, n, label) {
  for (let k = 0; k < n; k++) {
    el("ellipse", { cx: x, cy: y - k * 4, rx: 13, ry: 5, class: "chip" }, picture);
  }
  el("text", { x: x + 20, y: y + 4, class: "chip-label", text: label }, picture);
}

export function cards(into, position, play, active) {
  const b = position.board;
  const me = position.viewer ?? 0, them = 1 - me;
  into.replaceChildren();
  const width = 340, height = 2 * CH + 110;
  const picture = svg(width, height, into);
  picture.classList.add("poker");
  picture.setAttribute("role", "img");
  const shown = (hand) => hand.map((c) => c ?? "face down").join(", ") || "none yet";
  picture.setAttribute("aria-label", `${position.players[them]}: ${shown(b.hands[them])}; ` +
    `${position.players[me]}: ${shown(b.hands[me])}; pot ${b.pot}`);
  el("rect", { x: 0, y: 0, width, height, class: "felt" }, picture);
  const row = (hand, y, who, stake) => {
    el("text", { x: 12, y: y - 6, class: "seat-name", text: who }, picture);
    hand.forEach((c, k) => card(picture, 12 + k * (CW + 8), y, c));
    chips(picture, 12 + CW + 40, y + CH - 12, Math.min(stake, 12), `${stake} in`);
  };
  row(b.hands[them] || [], 22, position.players[them] + (position.viewer !== undefined ? "" : ""),
      b.stakes[them]);
  row(b.hands[me] || [], height - CH - 8, position.players[me] +
      (position.viewer === me ? " (you)" : ""), b.stakes[me]);
  if (b.public.length || b.log.some((a) => a.round)) {
    el("text", { x: 200, y: height / 2 - CH / 2 - 6, class: "seat-name", text: "public card" }, picture);
    if (b.public.length) b.public.forEach((c, k) => card(picture, 200 + k * (CW + 8), height / 2 - CH / 2, c));
    else el("rect", { x: 200, y: height / 2 - CH / 2, width: CW, height: CH, rx: 6, class: "card-slot" }, picture);
  }
  el("text", { x: 200, y: height / 2 + CH / 2 + 18, class: "pot", text: `pot ${b.pot}`,
               "data-pot": b.pot }, picture);

  const log = h("ol", { class: "bet-log", "aria-label": "the betting so far" },
    ...b.log.map((a) => h("li", {}, `${a.round ? `round ${a.round}: ` : ""}` +
                                     `${position.players[a.player]} ${a.word}s`)));
  const buttons = h("div", { class: "controls bet-buttons" }, ...position.legal.map((move) => {
    const word = (b.labels && b.labels[move]) || move;
    return h("button", { type: "button", "data-move": move, disabled: !active,
                         title: `${word} (${move} in the move list)`,
                         onclick: () => play(move) }, word[0].toUpperCase() + word.slice(1));
  }));
  into.append(buttons, log);
  if (position.terminal && position.outcome) {
    into.append(h("p", { class: "note" }, `Hand over: ${position.outcome}`));
  }
}
