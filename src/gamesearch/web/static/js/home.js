// The home page: what the site does and how to start; every game by its name and a small
// picture of its board (the game's own drawing, /api/picture); choosing one lists the
// agents that can play against you, the strong default first, each with its one line.

import { getJSON } from "./api.js";
import { h } from "./dom.js";
import { el } from "./svg.js";

const $ = (id) => document.getElementById(id);
const NS = "http://www.w3.org/2000/svg";

// A game without a drawing of its own: its initials on a tile.
function tile(title) {
  const picture = document.createElementNS(NS, "svg");
  picture.setAttribute("viewBox", "0 0 80 80");
  picture.setAttribute("aria-hidden", "true");
  el("rect", { x: 2, y: 2, width: 76, height: 76, rx: 10, class: "tile" }, picture);
  const letters = title.split(/[\s-]+/).filter(Boolean).slice(0, 2).map((w) => w[0]).join("");
  el("text", { x: 40, y: 50, "text-anchor": "middle", class: "tile-text", text: letters }, picture);
  return picture;
}

function thumbnail(game) {
  if (!game.picture) return tile(game.title);
  const img = h("img", { src: `/api/picture?game=${encodeURIComponent(game.name)}`, alt: "",
                         loading: "lazy", width: 80, height: 80 });
  img.addEventListener("error", () => img.replaceWith(tile(game.title)));
  return img;
}

async function choose(game) {
  for (const b of $("home-games").querySelectorAll("button")) {
    b.setAttribute("aria-pressed", String(b.dataset.game === game.name));
  }
  const box = $("home-choice");
  box.replaceChildren(h("h3", {}, game.title), h("p", {}, game.summary),
                      h("p", { class: "note" }, "loading the opponents…"));
  box.hidden = false;
  let seats;
  try {
    seats = await getJSON(`/api/seats?game=${encodeURIComponent(game.name)}`);
  } catch (err) {
    box.replaceChildren(h("h3", {}, game.title), h("p", { class: "error" }, err.message));
    return;
  }
  const seat = seats.seats[1] || seats.seats[0];
  const fixed = seats.seats.slice(2).map((s, i) => [`p${i + 3}`, s.default]);
  const first = seat.default.split(":")[0];
  const list = h("ul", { class: "agent-list" }, ...seat.agents.map((kind) => {
    const spec = kind === first ? seat.default : kind;
    const params = new URLSearchParams([["game", game.name], ["p1", "human"], ["p2", spec],
                                        ...fixed]);
    return h("li", {},
      h("a", { href: `#/play?${params}`, class: "agent-link", "data-agent": kind },
        kind === first ? `${kind} (strongest here, the default)` : kind),
      h("span", { class: "note" }, ` ${seat.summaries?.[kind] || ""}`));
  }));
  box.replaceChildren(h("h3", {}, game.title), h("p", {}, game.summary),
    h("p", {}, `You play ${seats.seats[0].name}. Choose your opponent for ${seat.name}:`), list,
    h("p", { class: "note" }, "The perfect-play answer (who wins with best play) stays " +
      "hidden during the game until you open it under the board."));
}

export async function initHome() {
  const { games } = await getJSON("/api/games");
  const grid = $("home-games");
  grid.replaceChildren(...games.map((game) => h("li", {},
    h("button", { type: "button", class: "game-card", "data-game": game.name,
                  "aria-pressed": "false", title: game.summary,
                  onclick: () => choose(game) },
      thumbnail(game), h("span", { class: "game-title" }, game.title)))));
  return { shown() {} };
}
