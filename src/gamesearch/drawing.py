"""SVG and HTML pictures as text, for notebooks (Jupyter shows them by themselves).

The conventions are python-chess's (``chess.svg``): a picture is a ``str`` whose
``_repr_svg_`` returns itself (:class:`Svg`), squares carry the classes ``square light a1``,
the squares of the last move add ``lastmove``, and arrows are elements of class ``arrow``
(an arrow from a square to itself is a ring). Pieces are elements of class ``piece`` plus
their side, so a test or a style sheet can find them.

Knows no game: each game's engine turns its position into the primitives below (a grid of
squares or points, a tree), the way it builds the web page's board data with
:func:`gamesearch.boards.grid_view`; ``gamesearch.display`` finds the game's drawing
through its ENTRY. The web page draws the same data in JavaScript today; it could use
these pictures instead (one source for both faces).
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

Cell = tuple[int, int]
"""``(row, column)`` from the top left of the picture."""

LIGHT, DARK = "#f0d9b5", "#b58863"  # python-chess's default square colours
LASTMOVE = "#cdd16a"
ARROW = "#15781b"  # python-chess's green arrow


class Svg(str):
    """An SVG picture: Jupyter draws it (``_repr_svg_``), ``str`` gives its text."""

    def _repr_svg_(self) -> str:
        return str(self)


class Html(str):
    """An HTML fragment: Jupyter shows it (``_repr_html_``), ``str`` gives its text."""

    def _repr_html_(self) -> str:
        return str(self)


def number(x: Any) -> str:
    """A number as a picture writes it: integers without a point, others to 3 places."""
    if isinstance(x, float):
        if x != x:
            return "nan"
        if x in (float("inf"), float("-inf")):
            return "∞" if x > 0 else "-∞"
        return str(int(x)) if x.is_integer() else f"{x:.4g}"
    if isinstance(x, tuple):
        return "(" + ", ".join(number(v) for v in x) + ")"
    return str(x)


def action_text(game: Any, state: Any, action: Any) -> str:
    """An action as the game writes it (a text is taken as written already)."""
    if isinstance(action, str):
        return action
    return game.action_to_string(state, action)


class Canvas:
    """An SVG document built element by element (attribute values are escaped)."""

    def __init__(self, width: float, height: float, title: str = "") -> None:
        self.width, self.height = width, height
        self.parts: list[str] = []
        if title:
            self.parts.append(f"<desc>{html.escape(title)}</desc>")
        self.parts.append(
            '<defs><marker id="arrowhead" viewBox="0 0 10 10" refX="8" refY="5" '
            'markerWidth="4" markerHeight="4" orient="auto-start-reverse">'
            f'<path d="M0,0 L10,5 L0,10 z" fill="{ARROW}"/></marker></defs>')

    def add(self, tag: str, text: str | None = None, **attrs: Any) -> None:
        """One element; ``class_`` is written ``class``, other ``_`` in names as ``-``."""
        written = " ".join(f'{_name(k)}="{html.escape(str(v))}"' for k, v in attrs.items()
                           if v is not None)
        if text is None:
            self.parts.append(f"<{tag} {written}/>")
        else:
            self.parts.append(f"<{tag} {written}>{html.escape(text)}</{tag}>")

    def arrow(self, x1: float, y1: float, x2: float, y2: float, width: float) -> None:
        """An arrow from (x1, y1) to (x2, y2), or a ring where the two are one point."""
        if (x1, y1) == (x2, y2):  # dashed, so that it never reads as a piece (an O)
            self.add("circle", class_="arrow", cx=x1, cy=y1, r=width * 2.6, fill="none",
                     stroke=ARROW, stroke_width=width * 0.5, stroke_dasharray="5 3",
                     opacity=0.9)
        else:
            self.add("line", class_="arrow", x1=x1, y1=y1, x2=x2, y2=y2, stroke=ARROW,
                     stroke_width=width, stroke_linecap="round", opacity=0.8,
                     marker_end="url(#arrowhead)")

    def svg(self) -> Svg:
        """The finished picture."""
        w, h = _round(self.width), _round(self.height)
        return Svg(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" '
                   f'width="{w}" height="{h}" font-family="sans-serif">'
                   + "".join(self.parts) + "</svg>")


def _name(key: str) -> str:
    return "class" if key == "class_" else key.replace("_", "-")


def _round(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:.1f}"


@dataclass(frozen=True)
class Piece:
    """How a symbol on a grid is drawn: a disc (``fill``, ``stroke``), with ``text`` on it
    (a king's crown, a mark), in the class ``piece <side>``."""

    side: str
    fill: str
    stroke: str = "#222"
    text: str = ""
    text_fill: str = "#222"
    kind: str = "disc"
    """``disc``; ``mark`` (the text alone, large: tic-tac-toe's X and O); ``small`` (a
    small square of class ``side`` alone: a marker such as Go's territory, not a piece)."""


def grid_picture(cells: Sequence[Sequence[str]], pieces: dict[str, Piece], *,
                 files: str = "", ranks: Sequence[str] = (), lastmove: Iterable[Cell] = (),
                 arrows: Iterable[tuple[Cell, Cell]] = (), points: bool = False,
                 square: float = 44, light: str = LIGHT, dark: str = DARK,
                 labels: Sequence[Sequence[str]] | None = None, title: str = "",
                 caption: str = "") -> Svg:
    """A board of squares (or, with ``points``, of intersections as in Go) with the
    ``pieces`` named by each cell's symbol; ``lastmove`` cells are highlighted, ``arrows``
    join cells; ``files`` and ``ranks`` label the columns and rows; ``labels`` write a small
    text in a square's corner (checkers' square numbers, tic-tac-toe's cell numbers)."""
    rows, cols = len(cells), len(cells[0]) if cells else 0
    margin = square * 0.5 if (files or ranks) else 4
    foot = 22 if caption else 0
    canvas = Canvas(2 * margin + cols * square, 2 * margin + rows * square + foot, title)
    last = set(map(tuple, lastmove))

    def centre(cell: Cell) -> tuple[float, float]:
        r, c = cell
        return margin + (c + 0.5) * square, margin + (r + 0.5) * square

    if points:
        canvas.add("rect", class_="board", x=0, y=0, width=canvas.width,
                   height=canvas.height - foot, fill=light)
        for i in range(rows):
            y = margin + (i + 0.5) * square
            canvas.add("line", x1=margin + square / 2, y1=y, x2=margin + (cols - 0.5) * square,
                       y2=y, stroke="#333", stroke_width=1)
        for j in range(cols):
            x = margin + (j + 0.5) * square
            canvas.add("line", x1=x, y1=margin + square / 2, x2=x,
                       y2=margin + (rows - 0.5) * square, stroke="#333", stroke_width=1)
    for r in range(rows):
        for c in range(cols):
            name = _square_name(files, ranks, r, c)
            classes = ["square", "light" if (r + c) % 2 == 0 else "dark"]
            classes += [name] if name else []
            if (r, c) in last:
                classes.append("lastmove")
            if points:
                if (r, c) in last:
                    x, y = centre((r, c))
                    canvas.add("rect", class_=" ".join(classes), x=x - square / 2,
                               y=y - square / 2, width=square, height=square, fill=LASTMOVE,
                               opacity=0.6)
                continue
            fill = LASTMOVE if (r, c) in last else light if (r + c) % 2 == 0 else dark
            canvas.add("rect", class_=" ".join(classes), x=margin + c * square,
                       y=margin + r * square, width=square, height=square, fill=fill,
                       stroke="#444" if light == dark else None, stroke_width=0.5)
            if labels and labels[r][c]:
                canvas.add("text", labels[r][c], class_="label", x=margin + c * square + 3,
                           y=margin + r * square + 11, font_size=9,
                           fill="#eee" if _is_dark(fill) else "#666")
    for r in range(rows):
        for c in range(cols):
            piece = pieces.get(cells[r][c])
            if piece is not None:
                _piece(canvas, piece, *centre((r, c)), square)
    for i, letter in enumerate(files[:cols]):
        canvas.add("text", letter, class_="coord", x=margin + (i + 0.5) * square,
                   y=2 * margin + rows * square - margin * 0.3, font_size=11,
                   text_anchor="middle", fill="#555")
    for i, label in enumerate(list(ranks)[:rows]):
        canvas.add("text", str(label), class_="coord", x=margin * 0.5,
                   y=margin + (i + 0.5) * square + 4, font_size=11, text_anchor="middle",
                   fill="#555")
    for start, end in arrows:
        canvas.arrow(*centre(start), *centre(end), square * 0.15)
    if caption:
        canvas.add("text", caption, class_="caption", x=4, y=canvas.height - 6, font_size=12,
                   fill="#333")
    return canvas.svg()


def board_picture(view: dict, pieces: dict[str, Piece], lastmove: str | None = None,
                  arrows: Iterable[str] = (), **options: Any) -> Svg:
    """A grid position from its board data (``boards.grid_view``'s dict, the web page's),
    with the last move and the arrows given as move texts that name squares (``e2e4``,
    ``d3``); a move naming no square (a pass) is not drawn."""
    from gamesearch.boards import move_squares

    files, ranks = view["files"], view["ranks"]
    last = move_squares(lastmove, files, ranks) if lastmove else None
    lines = [sq for text in arrows if (sq := move_squares(text, files, ranks))]
    return grid_picture(view["squares"], pieces, files=files, ranks=ranks,
                        lastmove=[tuple(c) for c in last or ()],
                        arrows=[(tuple(a), tuple(b)) for a, b in lines], **options)


def _is_dark(colour: str) -> bool:
    """Whether a ``#rrggbb`` (or ``#rgb``) colour is dark (a light text reads on it)."""
    if len(colour) == 4:  # #rgb
        colour = "#" + "".join(ch * 2 for ch in colour[1:])
    red, green, blue = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.299 * red + 0.587 * green + 0.114 * blue < 140


def _square_name(files: str, ranks: Sequence[str], r: int, c: int) -> str:
    if c < len(files) and r < len(ranks):
        return f"{files[c].lower()}{ranks[r]}"
    return ""


def _piece(canvas: Canvas, piece: Piece, x: float, y: float, square: float) -> None:
    cls = f"piece {piece.side}"
    if piece.kind == "small":  # a marker on a point (an owner's territory), not a piece
        canvas.add("rect", class_=piece.side, x=x - square * 0.15, y=y - square * 0.15,
                   width=square * 0.3, height=square * 0.3, fill=piece.fill,
                   stroke=piece.stroke, stroke_width=0.5)
        return
    if piece.kind == "mark":
        canvas.add("text", piece.text, class_=cls, x=x, y=y + square * 0.2,
                   font_size=square * 0.6, text_anchor="middle", fill=piece.fill,
                   font_weight="bold")
        return
    canvas.add("circle", class_=cls, cx=x, cy=y, r=square * 0.4, fill=piece.fill,
               stroke=piece.stroke, stroke_width=1.2)
    if piece.text:
        canvas.add("text", piece.text, x=x, y=y + square * 0.12, font_size=square * 0.35,
                   text_anchor="middle", fill=piece.text_fill)


# --- cards ---------------------------------------------------------------------------------

SUITS = {"S": ("\u2660", "#111"), "H": ("\u2665", "#b3141b"), "D": ("\u2666", "#b3141b"),
         "C": ("\u2663", "#111")}
"""A suit's letter: its symbol and colour (the web page's card colours)."""
FELT, CARD_BACK = "#2d6a4f", "#1d3f8f"
LASTMOVE_CARD = "#f3f5c4"  # the last move's colour, pale enough to read a card on
CARD_W, CARD_H = 36, 52


def playing_card(canvas: Canvas, x: float, y: float, name: str | None, *,
                 angle: float = 0, pivot: tuple[float, float] | None = None,
                 marked: bool = False, last: bool = False, scale: float = 1) -> None:
    """A card with its top left corner at (x, y): its rank in the corner and its suit (or,
    for a suitless card such as Kuhn's ``K``, its rank) large in the middle, in a group of
    class ``card face`` (``card back`` for None: a card face down), ``marked`` for an
    arrow's card and ``lastmove`` (tinted) for the card just played. ``angle`` turns it
    (degrees, clockwise) about ``pivot`` (its centre by default): a fan of cards is cards
    turned about one point below them."""
    w, h = CARD_W * scale, CARD_H * scale
    cx, cy = pivot if pivot is not None else (x + w / 2, y + h / 2)
    turn = f' transform="rotate({_round(angle)} {_round(cx)} {_round(cy)})"' if angle else ""
    kind = "card face" if name else "card back"
    extra = (" marked" if marked else "") + (" lastmove" if last else "")
    canvas.parts.append(f'<g class="{kind}{extra}"'
                        f' data-card="{html.escape(name or "hidden")}"{turn}>')
    canvas.add("rect", x=x, y=y, width=w, height=h, rx=4 * scale,
               fill=LASTMOVE_CARD if last else "#fff" if name else CARD_BACK,
               stroke=ARROW if marked else "#333", stroke_width=3 if marked else 1)
    if name:
        rank, suit = name[0].upper(), name[1:2].upper()
        symbol, colour = SUITS.get(suit, (rank, "#111"))
        canvas.add("text", rank, x=x + 4 * scale, y=y + 14 * scale, font_size=13 * scale,
                   font_weight="bold", font_family="serif", fill=colour)
        canvas.add("text", symbol, x=x + w / 2, y=y + h * 0.72, font_size=24 * scale,
                   text_anchor="middle", font_family="serif", fill=colour)
    else:
        canvas.add("rect", x=x + 4 * scale, y=y + 4 * scale, width=w - 8 * scale,
                   height=h - 8 * scale, rx=3 * scale, fill="none", stroke="#9fb6ef",
                   stroke_dasharray="3 3")
    canvas.parts.append("</g>")


def card_fan(canvas: Canvas, names: Sequence[str | None], cx: float, bottom: float, *,
             spread: float = 18, marked: Iterable[str] = (), scale: float = 1) -> None:
    """Cards fanned about a point below their middle (as a hand is held), the first on the
    left: ``spread`` degrees between two cards, their feet near ``bottom``."""
    w, h = CARD_W * scale, CARD_H * scale
    pivot = (cx, bottom + h * 0.9)
    chosen = set(marked)
    for i, name in enumerate(names):
        angle = (i - (len(names) - 1) / 2) * spread
        playing_card(canvas, cx - w / 2, bottom - h, name, angle=angle, pivot=pivot,
                     marked=name in chosen, scale=scale)


def cards_picture(view: dict, *, deck: Sequence[str] = (), fans: Sequence[Sequence[str]] = (),
                  players: Sequence[str] = ("P1", "P2"), to_move: int | None = None,
                  moves: dict[str, str] | None = None, arrows: Iterable[str] = (),
                  title: str = "") -> Svg:
    """A card table from its board data (the web page's ``cards`` style: ``hands``,
    ``public``, ``stakes``, ``pot``, ``log``): on felt, each player's cards in a row (None
    face down) with the chips put in, the public cards, the pot and the betting so far.

    Before any card is dealt the table shows the deck instead, as ``fans`` (a fan of cards
    each: a suit each, say). ``deck`` (the cards still to deal) is drawn as a row while
    cards are dealt; ``moves`` (action -> its word now) are written for the player
    ``to_move``; an action in ``arrows`` is marked (a card to deal, or a move's word)."""
    marked = set(arrows)
    hands = view.get("hands", [])
    if not any(hands) and fans:  # each fan a little lower and to the right of the last
        width, height = 124 + 40 * (len(fans) - 1), 124 + 40 * (len(fans) - 1)
        canvas = Canvas(width, height, title)
        canvas.add("rect", class_="felt", x=0, y=0, width=width, height=height, rx=10,
                   fill=FELT)
        for i, fan in enumerate(fans):
            card_fan(canvas, fan, 62 + 40 * i, 98 + 40 * i, spread=22, marked=marked,
                     scale=1.1)
        return canvas.svg()
    width, height = 250, 176 + (44 if deck else 0)
    canvas = Canvas(width, height, title)
    canvas.add("rect", class_="felt", x=0, y=0, width=width, height=height, rx=10, fill=FELT)
    for p, hand in enumerate(hands):
        y = 10 + 66 * p
        canvas.add("text", players[p], class_="to-move" if p == to_move else "player",
                   x=10, y=y + 16, font_size=12, fill="#fff",
                   font_weight="bold" if p == to_move else None)
        for k, card in enumerate(hand):
            playing_card(canvas, 40 + k * (CARD_W + 6), y, card)
        stake = view.get("stakes", [0] * len(hands))[p]
        canvas.add("text", f"{stake} in", class_="stake", x=40 + max(len(hand), 1) *
                   (CARD_W + 6) + 4, y=y + 30, font_size=11, fill="#e9f5db")
    public = view.get("public", [])
    if public:
        canvas.add("text", "public", class_="label", x=178, y=24, font_size=11, fill="#e9f5db")
        for k, card in enumerate(public):
            playing_card(canvas, 178 + k * (CARD_W + 6), 30, card)
    words = " ".join(a["word"] for a in view.get("log", []))
    canvas.add("text", f"pot {view.get('pot', 0)}" + (f": {words}" if words else ""),
               class_="pot", x=10, y=156, font_size=11, fill="#fff")
    if moves and to_move is not None:
        canvas.add("text", f"{players[to_move]}:", class_="label", x=10, y=172, font_size=11,
                   fill="#e9f5db")
        x = 18 + 6.5 * len(players[to_move])
        for action, word in moves.items():
            chosen = action in marked
            canvas.add("text", word, class_="move marked" if chosen else "move", x=x, y=172,
                       font_size=11, fill="#ffd166" if chosen else "#fff",
                       font_weight="bold" if chosen else None,
                       text_decoration="underline" if chosen else None)
            x += 8 + 6.5 * len(word)
    for k, card in enumerate(deck):
        playing_card(canvas, 10 + k * 22, 178, card, marked=card in marked, scale=0.75)
    return canvas.svg()


# --- trees ---------------------------------------------------------------------------------

@dataclass
class TreeNode:
    """One node of a drawn tree: ``kind`` max, min, chance or leaf; ``children`` indices."""

    kind: str
    children: list[int]
    name: str = ""
    text: str = ""
    """What is written inside (its value)."""
    edge: str = ""
    """The label of the edge from its parent (the action)."""
    marks: tuple[str, ...] = ()
    """Classes added to the node and its edge: ``pruned``, ``pv``, ``current``, ``visited``."""
    note: str = ""
    """Small text under the node (alpha and beta)."""
    order: int | None = None
    """When the search visited it (1 first)."""


TREE_COLOURS = {"max": "#d6ecff", "min": "#ffe0d6", "chance": "#eee8ff", "leaf": "#ffffff"}


def tree_picture(nodes: Sequence[TreeNode], title: str = "", caption: str = "",
                 dx: float = 56, dy: float = 74, r: float = 15) -> Svg:
    """A tree as the web's tree lab draws it: MAX a triangle up, MIN a triangle down,
    chance a circle, a leaf a square; leaves left to right, a parent centred over its
    children; pruned nodes and edges grey and dashed, the principal variation bold."""
    xs: dict[int, float] = {}
    depth: dict[int, int] = {0: 0}
    leaf = 0

    def place(i: int) -> None:
        nonlocal leaf
        kids = nodes[i].children
        for k in kids:
            depth[k] = depth[i] + 1
            place(k)
        if kids:
            xs[i] = (xs[kids[0]] + xs[kids[-1]]) / 2
        else:
            xs[i] = dx / 2 + 10 + dx * leaf
            leaf += 1

    if nodes:
        place(0)
    levels = max(depth.values(), default=0) + 1
    top = 30
    foot = 26 if caption else 8
    canvas = Canvas(max(dx * leaf + 20, 120), top + (levels - 1) * dy + r + 34 + foot, title)

    def y(i: int) -> float:
        return top + depth[i] * dy

    for i, node in enumerate(nodes):
        for k in node.children:
            child = nodes[k]
            pruned, pv = "pruned" in child.marks, "pv" in child.marks and "pv" in node.marks
            classes = "edge" + (" pruned" if pruned else "") + (" pv" if pv else "")
            canvas.add("line", class_=classes, x1=xs[i], y1=y(i) + r, x2=xs[k], y2=y(k) - r,
                       stroke="#bbb" if pruned else "#c0392b" if pv else "#555",
                       stroke_width=3 if pv else 1.3,
                       stroke_dasharray="4 3" if pruned else None)
            if child.edge:
                canvas.add("text", child.edge, class_="edge-label",
                           x=(xs[i] + xs[k]) / 2 + (-6 if xs[k] < xs[i] else 6),
                           y=(y(i) + y(k)) / 2, font_size=10, fill="#777",
                           text_anchor="end" if xs[k] < xs[i] else "start")
    for i, node in enumerate(nodes):
        x, yy = xs[i], y(i)
        pruned = "pruned" in node.marks
        classes = " ".join(("node", node.kind, *node.marks))
        fill = "#f4f4f4" if pruned else TREE_COLOURS.get(node.kind, "#fff")
        stroke = "#bbb" if pruned else "#e67e22" if "current" in node.marks else "#333"
        style = {"class_": classes, "fill": fill, "stroke": stroke,
                 "stroke_width": 2.5 if "current" in node.marks else 1.3,
                 "stroke_dasharray": "4 3" if pruned else None}
        if node.kind == "max":
            canvas.add("polygon", points=f"{x},{yy - r} {x - r},{yy + r * .8} {x + r},"
                       f"{yy + r * .8}", **style)
        elif node.kind == "min":
            canvas.add("polygon", points=f"{x},{yy + r} {x - r},{yy - r * .8} {x + r},"
                       f"{yy - r * .8}", **style)
        elif node.kind == "chance":
            canvas.add("circle", cx=x, cy=yy, r=r, **style)
        else:
            canvas.add("rect", x=x - r * .8, y=yy - r * .8, width=r * 1.6, height=r * 1.6,
                       **style)
        if node.text:
            shift = 5 if node.kind == "max" else -2 if node.kind == "min" else 4
            canvas.add("text", node.text, class_="value", x=x, y=yy + shift, font_size=11,
                       text_anchor="middle", fill="#999" if pruned else "#111",
                       font_weight="bold")
        if node.name and node.children:  # a leaf's name would meet its neighbour's order
            canvas.add("text", node.name, class_="name", x=x - r - 2, y=yy - r + 2,
                       font_size=9, text_anchor="end", fill="#888")
        if node.order is not None:
            if node.children:
                canvas.add("text", f"#{node.order}", class_="order", x=x + r + 2,
                           y=yy - r + 2, font_size=9, fill="#2471a3")
            else:  # under the leaf, where it has room
                canvas.add("text", f"#{node.order}", class_="order", x=x, y=yy + r + 10,
                           font_size=9, text_anchor="middle", fill="#2471a3")
        if node.note:  # beside the node, clear of the edges below it
            canvas.add("text", node.note, class_="bounds", x=x + r + 2, y=yy + 10,
                       font_size=9, fill="#555")
    if caption:
        canvas.add("text", caption, class_="caption", x=6, y=canvas.height - 8, font_size=12,
                   fill="#333")
    return canvas.svg()


# --- tables --------------------------------------------------------------------------------

def html_table(rows: Sequence[Sequence[Any]], header: Sequence[Any] = (), caption: str = "",
               marked: Iterable[tuple[int, int]] = ()) -> Html:
    """A small HTML table (every cell escaped); ``marked`` cells (row, column of ``rows``)
    are bold on a yellow ground (an equilibrium's cell)."""
    mark = set(marked)
    out = ['<table class="gamesearch">']
    if caption:
        out.append(f"<caption>{html.escape(caption)}</caption>")
    if header:
        out.append("<tr>" + "".join(f"<th>{html.escape(str(h))}</th>" for h in header)
                   + "</tr>")
    for i, row in enumerate(rows):
        cells = []
        for j, value in enumerate(row):
            text = html.escape(str(value))
            if (i, j) in mark:
                cells.append(f'<td class="marked" style="background:#fff3b0">'
                             f"<b>{text}</b></td>")
            else:
                tag = "th" if j == 0 and header else "td"
                cells.append(f"<{tag}>{text}</{tag}>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</table>")
    return Html("".join(out))


__all__ = ["Canvas", "Cell", "Html", "Piece", "Svg", "TreeNode", "action_text", "board_picture",
           "card_fan", "cards_picture", "grid_picture", "html_table", "number", "playing_card",
           "tree_picture"]
