// Analysis as on lichess: an evaluation bar beside the board (the engine's win probability,
// Score.win_probability, from the side at the bottom's view, labelled with the score's own
// text: +1.25, #5, +12 discs, win in 7) and the engine's best lines, each move of a line a
// button that puts the line on the board. The server's /api/analyse streams them; every
// stream belongs to one position, and the page drops the answers of a position it left.

import { streamEvents } from "./api.js";
import { h } from "./dom.js";

// The bar: hidden without a score (games whose engine gives none). `score` is
// Score.as_dict (player 1's viewpoint); `bottom` the player whose side is drawn below.
export function showEvalBar(bar, score, bottom) {
  const p = score && typeof score.win_probability === "number" ? score.win_probability : null;
  bar.hidden = p === null;
  if (p === null) return;
  const low = bottom === 0 ? p : 1 - p;  // the bottom side's expected result, 0 to 1
  bar.querySelector(".eval-fill").style.height = `${(100 * low).toFixed(1)}%`;
  bar.querySelector(".eval-text").textContent = score.text;
  bar.setAttribute("aria-valuenow", String(Math.round(100 * low)));
  bar.setAttribute("aria-valuetext", `${score.text} (${Math.round(100 * p)}% for player 1)`);
  bar.dataset.share = String(low);
  bar.title = `evaluation ${score.text}: the bottom side's share ${Math.round(100 * low)}%`;
}

// The lines: score, depth, then each move a button; pick(moves) gets the line up to the
// move clicked.
export function renderLines(list, lines, pick) {
  list.replaceChildren(...lines.map((line, k) => h("li", { class: "analysis-line",
                                                            dataset: { line: k } },
    h("span", { class: "line-score" }, line.score ? line.score.text : "?"),
    line.depth ? h("span", { class: "line-depth", title: "depth searched" }, `d${line.depth}`)
      : null,
    ...line.pv.map((move, i) => h("button", {
      class: "pv-move", dataset: { index: i, move }, title: "play the line up to here",
      onclick: () => pick(line.pv.slice(0, i + 1)) }, (line.notation || [])[i] || move)))));
}

// One position's analysis: calls show(analysis) whenever it learns something. The object
// is the page's handle: abort() ends the stream (the server then stops the search).
export function startAnalysis(body, show) {
  const ctl = new AbortController();
  const analysis = { score: null, pv: [], lines: [], note: "", done: false,
                     abort: () => ctl.abort() };
  const first = (data) => ({ move: (data.pv || [])[0], pv: data.pv || [], score: data.score,
                             depth: (data.stats || {}).depth, notation: data.notation });
  streamEvents("/api/analyse", body, (name, data) => {
    if (ctl.signal.aborted) return;  // a position left: its late answers are dropped
    if (name === "start") analysis.agent = data.agent;
    else if (name === "progress") {
      analysis.score = data.score || null;
      analysis.pv = data.pv || [];
      analysis.lines = [first(data), ...analysis.lines.slice(1)];
    } else if (name === "lines" || name === "done") {
      analysis.lines = data.lines;
      if (data.lines[0]) {
        analysis.score = data.lines[0].score || null;
        analysis.pv = data.lines[0].pv;
      }
      if (name === "done") { analysis.done = true; analysis.note = data.note; }
    } else if (name === "error") {
      analysis.note = data.error;
      analysis.done = true;
    }
    show(analysis);
  }, ctl.signal).catch((err) => {
    if (ctl.signal.aborted || err.name === "AbortError") return;
    analysis.note = err.message;
    analysis.done = true;
    show(analysis);
  });
  return analysis;
}
