// The page: five views chosen by the address (#/home, the default; #/play, #/tree,
// #/matrix, #/efg).

import { redrawBoard } from "./boards.js";
import { readHash } from "./url.js";
import { initPlay } from "./play.js";
import { initTree } from "./tree.js";
import { initMatrix } from "./matrix.js";
import { initEfg } from "./efg.js";
import { initHome } from "./home.js";

const views = { home: initHome, play: initPlay, tree: initTree, matrix: initMatrix, efg: initEfg };
const started = {};

function show() {
  const { view, params } = readHash();
  const empty = !location.hash.replace(/^#\/?/, "").split("?")[0];
  const name = empty ? "home" : views[view] ? view : "play";
  for (const section of document.querySelectorAll(".view")) {
    section.hidden = section.id !== `view-${name}`;
  }
  for (const link of document.querySelectorAll("nav a")) {
    link.classList.toggle("active", link.dataset.view === name);
  }
  if (!started[name]) started[name] = views[name](params);
  else started[name].then((view) => view && view.shown && view.shown(params));
}

window.addEventListener("hashchange", show);
document.getElementById("verdict-box").addEventListener("toggle", redrawBoard);
show();
