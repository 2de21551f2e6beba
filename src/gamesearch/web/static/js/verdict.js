// A verdict in words ("X wins in 13 moves") from what /api/verdict answers, whatever its
// kind: exact alpha-beta, a game's solver (Connect Four, Pig, poker), or no verdict.

const percent = (p) => `${Math.round(p * 1000) / 10}%`;
const num = (v) => String(Math.round(v * 10000) / 10000);
const other = (pos, name) => pos.players.find((p) => p !== name) || "the other player";

function outcomeWords(value, mover, pos) {
  if (value > 0) return `${mover} wins`;
  if (value < 0) return `${other(pos, mover)} wins`;
  return "a draw";
}

// Connect Four scores (Pons's convention): a positive score s for the player to move means
// a win with their (cells/2 + 1 - s)-th stone; negative, the opponent's; zero, a draw.
export function connect4Words(report, pos) {
  const { width, height } = pos.board || { width: 7, height: 6 };
  const score = report.score ?? report.result;
  const stones = report.stones;
  const mover = report.to_move;
  if (score === 0) return "Perfect play: a draw";
  const cells = width * height;
  const winnerStone = Math.floor((cells + 1) / 2) + 1 - Math.abs(score);
  const winner = score > 0 ? mover : other(pos, mover);
  const played = score > 0 ? Math.floor(stones / 2) : stones - Math.floor(stones / 2);
  const moves = winnerStone - played;
  if (!("score" in report)) return `Perfect play: ${winner} wins`;
  return `Perfect play: ${winner} wins in ${moves} move${moves === 1 ? "" : "s"}`;
}

export function verdictWords(v, pos) {
  if (v.kind === "alphabeta") {
    return `Perfect play: ${outcomeWords(v.value, v.to_move, pos)}` +
      (v.value !== 0 ? ` (value ${num(v.value)} for ${v.to_move})` : "") +
      `; best: ${v.best.join(", ")}. Grey numbers: each move's value for ${v.to_move}.`;
  }
  if (v.kind === "solver") {
    const r = v.report;
    if (pos.kind === "connect4") {
      const best = r.best_move ? `; best column ${r.best_move}` : "";
      return `${connect4Words(r, pos)}${best}. Numbers above the columns: each column's ` +
        `score for ${r.to_move} (positive wins, larger sooner; negative loses).`;
    }
    if ("win_probability" in r) {
      return `Perfect play: ${r.to_move} wins with probability ${percent(r.win_probability)}` +
        (r.best_action ? `; best: ${r.best_action}` : "") + ".";
    }
    if ("exploitability" in r) {
      return `Game value for ${pos.players[0]} under equilibrium play: ${num(r.value)}` +
        ` (${r.algorithm}, ${r.iterations} iterations, exploitability ${r.exploitability}).`;
    }
    if (r.summary) return `Perfect play: ${r.summary}.`;
    const parts = [];
    if ("outcome" in r) parts.push(`${r.to_move || "the player to move"}: ${r.outcome}`);
    if ("value" in r) parts.push(`value ${num(r.value)}`);
    if (r.best_move ?? r.best_action) parts.push(`best: ${r.best_move ?? r.best_action}`);
    return parts.length ? `Perfect play: ${parts.join("; ")}.` : "Solved.";
  }
  if (v.kind === "over") return "";
  return v.message || "";
}
