"""A character grid with styles, for screens that place things by position.

Card tables are spatial (four seats around a middle), which containers express badly; the
screens paint onto a grid sized to the window on every frame, so resizes come for free and
tests can read the frame as plain text.

One cell is one terminal column. A wide character takes its cell and an empty one after
it; a zero-width mark (an Arabic vowel sign, a combining accent) joins the character
before it. Writing over half of a wide character blanks the other half, so a box drawn
over text never leaves a fragment that shifts the rest of the line.
"""

from __future__ import annotations

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.utils import get_cwidth

from leekha.client import rtl

Frags = list[tuple[str, str]]

#: `--ascii`: one ASCII character for each non-ASCII one the screens draw themselves.
ASCII_FOR = str.maketrans(
    {
        "┌": "+",
        "┐": "+",
        "└": "+",
        "┘": "+",
        "─": "-",
        "│": "|",
        "←": "<",
        "→": ">",
        "↑": "^",
        "↓": "v",
        "‹": "<",
        "›": ">",
        "◀": "<",
        "…": ".",
        "·": "-",
        "—": "-",
        "×": "x",
        "⏱": "t",
        "♣": "C",
        "♦": "D",
        "♥": "H",
        "♠": "S",
    }
)


class Canvas:
    def __init__(self, width: int, height: int) -> None:
        self.width = max(1, width)
        self.height = max(1, height)
        self.cells: list[list[tuple[str, str]]] = [
            [("", " ")] * self.width for _y in range(self.height)
        ]

    def _clear(self, row: list[tuple[str, str]], x: int) -> None:
        """Make cell x free to write: blank the other half of a wide character it splits."""
        style, ch = row[x]
        if ch == "" and x > 0:
            row[x - 1] = (row[x - 1][0], " ")
        elif ch and get_cwidth(ch[0]) == 2 and x + 1 < self.width:
            row[x + 1] = (style, " ")

    def put(self, x: int, y: int, text: str, style: str = "") -> int:
        """Write `text` at (x, y), clipped to the grid; returns the x after it."""
        return self.frags(x, y, [(style, text)])

    def frags(self, x: int, y: int, frags: Frags) -> int:
        """Write one paragraph of styled fragments from (x, y); returns the x after it.

        Every text reaches the grid here, so this is where right-to-left text is put in
        display order when bidi display is on (`leekha.client.rtl`).
        """
        if rtl.enabled():
            frags = rtl.visual(frags)
        for style, text in frags:
            x = self._cells(x, y, text, style)
        return x

    def _cells(self, x: int, y: int, text: str, style: str) -> int:
        if not 0 <= y < self.height:
            return x + get_cwidth(text)
        row = self.cells[y]
        for ch in text:
            w = get_cwidth(ch)
            if w == 0:
                if 0 < x <= self.width and row[x - 1][1]:
                    row[x - 1] = (row[x - 1][0], row[x - 1][1] + ch)
                continue
            if w == 2 and x + 1 >= self.width:
                ch, w = " ", 1  # half a wide character does not fit: leave a blank
            if 0 <= x < self.width:
                self._clear(row, x)
                row[x] = (style, ch)
                if w == 2:
                    self._clear(row, x + 1)
                    row[x + 1] = (style, "")
            x += w
        return x

    def line(self, x: int, y: int, width: int, text: str, style: str = "") -> int:
        """A line of running text in the `width` cells from `x`: from the left edge, or from
        the right one when the screen is laid out right to left (`rtl.mirrored`)."""
        if rtl.mirrored():
            x += max(0, width - get_cwidth(text))
        return self.put(x, y, text, style)

    def center(self, cx: int, y: int, text: str, style: str = "") -> int:
        return self.put(cx - get_cwidth(text) // 2, y, text, style)

    def fill(self, x: int, y: int, w: int, h: int, style: str = "") -> None:
        for yy in range(y, y + h):
            self.put(x, yy, " " * w, style)

    def box(self, w: int, h: int, title: str = "", style: str = "class:box") -> tuple[int, int]:
        """A centred framed box; returns the top-left of its inside."""
        w = min(w, self.width)
        h = min(h, self.height)
        x = (self.width - w) // 2
        y = (self.height - h) // 2
        self.fill(x, y, w, h, style)
        for yy in range(y, y + h):
            self._clear_cut_words(self.cells[yy], x - 1, -1)
            self._clear_cut_words(self.cells[yy], x + w, 1)
        self.put(x, y, "┌" + "─" * (w - 2) + "┐", style + " class:box.border")
        for yy in range(y + 1, y + h - 1):
            self.put(x, yy, "│", style + " class:box.border")
            self.put(x + w - 1, yy, "│", style + " class:box.border")
        self.put(x, y + h - 1, "└" + "─" * (w - 2) + "┘", style + " class:box.border")
        if title:
            self.put(x + 2, y, f" {fit(title, w - 6)} ", style + " class:box.title")
        return x + 2, y + 1

    def _clear_cut_words(self, row: list[tuple[str, str]], x: int, step: int) -> None:
        """Blank what is left of a word a box cut in two: a lone "a" beside a border
        reads as part of the box."""
        while 0 <= x < self.width and row[x][1] not in (" ", "│", "|"):
            row[x] = ("", " ")
            x += step

    def asciified(self) -> Canvas:
        """The same frame in pure ASCII (`--ascii`): box lines, arrows and suits in
        letters, anything else outside ASCII (names, chat) as '?'."""
        for row in self.cells:
            for x, (style, ch) in enumerate(row):
                if ch.isascii():
                    continue
                plain = ch[0].translate(ASCII_FOR) if ch else " "
                row[x] = (style, plain if plain.isascii() else "?")
        return self

    def lines(self) -> list[StyleAndTextTuples]:
        out: list[StyleAndTextTuples] = []
        for row in self.cells:
            line: StyleAndTextTuples = []
            for style, ch in row:
                if line and line[-1][0] == style:
                    line[-1] = (style, line[-1][1] + ch)
                else:
                    line.append((style, ch))
            out.append(line)
        return out

    def text(self) -> str:
        return "\n".join("".join(ch for _s, ch in row).rstrip() for row in self.cells)


def frags_width(frags: Frags) -> int:
    return sum(get_cwidth(t) for _s, t in frags)


def clip(frags: Frags, width: int) -> Frags:
    """`frags` in at most `width` columns, ending in "…" when they had to be cut."""
    if frags_width(frags) <= width:
        return frags
    out: Frags = []
    room = width - 1  # one column for the "…"
    for style, text in frags:
        kept = ""
        for ch in text:
            if get_cwidth(kept + ch) > room:
                break
            kept += ch
        room -= get_cwidth(kept)
        out.append((style, kept))
        if len(kept) < len(text):
            out.append((style, "…"))
            break
    return out


def fit(text: str, width: int) -> str:
    """`text` in at most `width` columns, ending in "…" when it had to be shortened."""
    if get_cwidth(text) <= width:
        return text
    if width <= 0:
        return ""
    out = ""
    for ch in text:
        if get_cwidth(out + ch) > width - 1:
            break
        out += ch
    return out + "…"


def wrap(text: str, width: int) -> list[str]:
    """Greedy word wrap that also breaks words longer than the width."""
    width = max(1, width)
    out: list[str] = []
    line = ""
    for word in text.split():
        while len(word) > width:
            if line:
                out.append(line)
                line = ""
            out.append(word[:width])
            word = word[width:]
        if not line:
            line = word
        elif len(line) + 1 + len(word) <= width:
            line += " " + word
        else:
            out.append(line)
            line = word
    if line:
        out.append(line)
    return out or [""]
