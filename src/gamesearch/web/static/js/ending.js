// How a game ends on the play view, in words: the rules' own end (the server's outcome,
// with its reason and margin: "White wins by checkmate", "White wins (W+3.5: ...)"), or an
// end a person chose: resigning, a draw offered and accepted (POST /api/end). Kept in one
// place so that other ends (a Go resignation from the server) join here.

import { postJSON } from "./api.js";

// The status line of a finished game: a chosen end first, else the rules' outcome.
export function gameOverText(position, ended) {
  if (ended) return `Game over: ${ended.outcome}`;
  return `Game over: ${position.outcome}`;
}

// The seat a person at this screen speaks for: the one to move if a person, else the
// first person's seat; null when no person plays.
export function personSeat(position, players) {
  if (position && position.to_move !== null && players[position.to_move]?.kind === "human") {
    return position.to_move;
  }
  const seat = players.findIndex((p) => p.kind === "human");
  return seat >= 0 ? seat : null;
}

// Resign for `seat`: the answer's outcome ("Black wins: White resigned").
export async function resign(body, seat) {
  return postJSON("/api/end", { ...body, kind: "resign", seat });
}

// Offer a draw from `seat` to the other seat: a person there agrees at this screen; an AI
// accepts when its last search found the position near even (`value`, its own view).
export async function offerDraw(body, seat, otherIsPerson, value) {
  return postJSON("/api/end", { ...body, seat, kind: otherIsPerson ? "agreed" : "draw",
                                value: typeof value === "number" ? value : null });
}

// An end from a link ("resign-0", "draw"): asked again of the server, which checks it.
export async function replayEnd(body, token) {
  const match = /^resign-(\d)$/.exec(token || "");
  if (match) return resign(body, Number(match[1]));
  if (token === "draw") return postJSON("/api/end", { ...body, kind: "agreed", seat: 0 });
  return null;
}
