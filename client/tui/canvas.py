"""A character grid with styles, for screens that place things by position.

Card tables are spatial (four seats around a middle), which containers express badly; the
screens paint onto a grid sized to the window on every frame, so resizes come for free and
tests can read the frame as plain text.

One cell is one terminal column. A wide character takes its cell and an empty one after
it; a zero-width mark (an Arabic vowel sign, a combining accent) joins the character
before it. Writing over half of a wide character blanks the other half, so a box drawn
over text never leaves a fragment that shifts the rest of the line.

A frame also keeps what it lost, so a test can fail on it: `overlaps` lists each text that
was painted over another one of the same layer (a box opens a new layer, meant to cover
what is under it), `cut` each text that ran past the grid's edge.
"""

from __future__ import annotations

import re

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
        "▶": ">",
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


#: Strips beside a box narrower than this (and than an eighth of the window) are blanked
#: (see `Canvas._clear_slivers`).
SLIVER = 10


class Canvas:
    def __init__(self, width: int, height: int) -> None:
        self.width = max(1, width)
        self.height = max(1, height)
        self.cells: list[list[tuple[str, str]]] = [
            [("", " ")] * self.width for _y in range(self.height)
        ]
        # Which write put each cell's character (an index into _texts), for `overlaps`.
        self._owner: list[list[int]] = [[0] * self.width for _y in range(self.height)]
        #: Texts that read only whole (a wrapped chat line): a box that covers part of one
        #: blanks the rest of it (`frags(whole=True)`).
        self._whole: set[int] = set()
        self._texts: list[str] = [""]
        self._layer = 0  # the first write of the top layer
        #: (first text, the text painted over it) of one layer, once per pair.
        self.overlaps: list[tuple[str, str]] = []
        #: Texts that did not fit between the grid's edges.
        self.cut: list[str] = []

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

    def frags(self, x: int, y: int, frags: Frags, whole: bool = False) -> int:
        """Write one paragraph of styled fragments from (x, y); returns the x after it.
        `whole`: the text means nothing in part, so a box over some of it takes all of it.

        Every text reaches the grid here, so this is where right-to-left text is put in
        display order when bidi display is on (`leekha.client.rtl`).
        """
        self._texts.append("".join(t for _s, t in frags))
        if whole:
            self._whole.add(len(self._texts) - 1)
        if rtl.enabled():
            frags = rtl.visual(frags)
        for style, text in frags:
            x = self._cells(x, y, text, style)
        return x

    def _cells(self, x: int, y: int, text: str, style: str) -> int:
        if not 0 <= y < self.height:
            if text.strip():
                self._lost()
            return x + get_cwidth(text)
        row, owner = self.cells[y], self._owner[y]
        me = len(self._texts) - 1
        for ch in text:
            if ch in rtl.ISOLATES:  # consumed by `rtl.visual`; never sent to a terminal
                continue
            w = get_cwidth(ch)
            if w == 0:
                if 0 < x <= self.width and row[x - 1][1]:
                    row[x - 1] = (row[x - 1][0], row[x - 1][1] + ch)
                continue
            if w == 2 and x + 1 >= self.width:
                ch, w = " ", 1  # half a wide character does not fit: leave a blank
            if 0 <= x < self.width:
                if row[x][1].strip() and self._layer <= owner[x] != me:
                    self._overlap(owner[x], me)
                self._clear(row, x)
                row[x] = (style, ch)
                owner[x] = me
                if w == 2:
                    self._clear(row, x + 1)
                    row[x + 1] = (style, "")
            elif ch != " ":
                self._lost()
            x += w
        return x

    def _overlap(self, under: int, over: int) -> None:
        pair = (self._texts[under], self._texts[over])
        if pair not in self.overlaps:
            self.overlaps.append(pair)

    def _lost(self) -> None:
        text = self._texts[-1]
        if not self.cut or self.cut[-1] != text:
            self.cut.append(text)

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
        self._layer = len(self._texts)
        x = (self.width - w) // 2
        y = (self.height - h) // 2
        covered = [self._owners_in(yy, x, x + w) & self._whole for yy in range(y, y + h)]
        self.fill(x, y, w, h, style)
        for yy, cut in zip(range(y, y + h), covered):
            self._clear_rest_of(yy, cut, x, x + w)
            self._clear_slivers(self.cells[yy], x, x + w)
            self._clear_cut_words(self.cells[yy], x - 1, -1)
            self._clear_cut_words(self.cells[yy], x + w, 1)
        border = style + " class:box.border"
        head = f" {fit(title, w - 6)} " if title else ""
        after = self.put(self.put(x, y, "┌─", border), y, head, style + " class:box.title")
        self.put(after, y, "─" * (x + w - 1 - after) + "┐", border)
        for yy in range(y + 1, y + h - 1):
            self.put(x, yy, "│", border)
            self.put(x + w - 1, yy, "│", border)
        self.put(x, y + h - 1, "└" + "─" * (w - 2) + "┘", border)
        return x + 2, y + 1

    def _owners_in(self, y: int, left: int, right: int) -> set[int]:
        """The texts with a letter in row `y` between `left` and `right`."""
        row, owner = self.cells[y], self._owner[y]
        return {owner[x] for x in range(max(0, left), min(self.width, right)) if row[x][1].strip()}

    def _clear_rest_of(self, y: int, texts: set[int], left: int, right: int) -> None:
        """Blank, beside a box, what is left of the texts it covers part of on row `y` (a
        chat line's last words, a seat line's tail): fragments read as noise."""
        row, owner = self.cells[y], self._owner[y]
        for x in [*range(0, max(0, left)), *range(min(self.width, right), self.width)]:
            if owner[x] in texts and row[x][1].strip():
                self._clear(row, x)
                row[x] = ("", " ")

    def _clear_slivers(self, row: list[tuple[str, str]], left: int, right: int) -> None:
        """Blank a strip beside a box too narrow to read (a chat column's last words, a
        seat's first letters): single words there read as noise, not as the screen."""
        narrow = min(SLIVER, self.width // 8)
        if 0 < left < narrow:
            row[:left] = [("", " ")] * left
        if 0 < self.width - right < narrow:
            row[right:] = [("", " ")] * (self.width - right)

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
        if len(kept) < len(text):
            out.append((style, kept.rstrip() + "…"))  # never "…" after a space
            break
        out.append((style, kept))
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
    return out.rstrip() + "…"


def fit_name(name: str, width: int) -> str:
    """A seat's name in at most `width` columns, shortened so that names still tell the
    seats apart: a name that ends in a number keeps its first word and the number ("hard
    bot 2" -> "hard 2", "search bot 13" -> "sea… 13"), since the number is what differs
    between bots; any other name is shortened with an ellipsis."""
    if get_cwidth(name) <= width:
        return name
    found = _NUMBERED.search(name)
    if found is None or width < len(found.group(2)) + 2:
        return fit(name, width)
    number = found.group(2)
    words = found.group(1).split()
    first = words[0].rstrip("#-") if words else ""
    return fit(first, width - len(number) - 1) + " " + number


#: A name that ends in a number: its words, then the number ("bot #3", "ann-2", "hard bot 2").
_NUMBERED = re.compile(r"^(.*?)[\s#-]*(\d+)$")


def wrap(text: str, width: int) -> list[str]:
    """Greedy word wrap that also breaks words longer than the width."""
    width = max(1, width)
    out: list[str] = []
    line = ""
    # Only plain spaces break a line: a no-break space (a time "3:25\u202fAM") holds.
    for word in text.replace("\n", " ").replace("\t", " ").split(" "):
        if not word:
            continue
        while len(word) > width:
            if line:
                out.append(line)
                line = ""
            # A fingerprint (AB:CD:…) breaks after a colon, never inside a byte.
            cut = word.rfind(":", 0, width) + 1 or width
            out.append(word[:cut])
            word = word[cut:]
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


def wrap_hanging(text: str, width: int, hang: int = 4) -> list[str]:
    """`wrap`, keeping the text's own indent, the lines after the first indented `hang`
    more: one entry of a list that takes several rows still reads as one."""
    lead = len(text) - len(text.lstrip(" "))
    first, *rest = wrap(text, width - lead)
    if not rest:
        return [" " * lead + first]
    more = wrap(" ".join(rest), width - lead - hang)
    return [" " * lead + first, *(" " * (lead + hang) + line for line in more)]


def share(lengths: list[int], room: int) -> list[int]:
    """Widths for texts of these lengths in `room` columns: the short ones whole, what is
    left split evenly among the long ones."""
    out = list(lengths)
    while sum(out) > room and max(out, default=0) > 3:
        longest = max(out)
        out = [min(n, longest - 1) for n in out]
    return out


def fit_all(texts: list[str], room: int) -> list[str]:
    """Texts that share `room` columns (the names at a table), the longest shortened
    first, each with its ellipsis."""
    return [fit(t, w) for t, w in zip(texts, share([get_cwidth(t) for t in texts], room))]
