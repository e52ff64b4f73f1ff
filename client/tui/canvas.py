"""A character grid with styles, for screens that place things by position.

Card tables are spatial (four seats around a middle), which containers express badly; the
screens paint onto a grid sized to the window on every frame, so resizes come for free and
tests can read the frame as plain text.
"""

from __future__ import annotations

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.utils import get_cwidth

from leekha.client import rtl

Frags = list[tuple[str, str]]


class Canvas:
    def __init__(self, width: int, height: int) -> None:
        self.width = max(1, width)
        self.height = max(1, height)
        self.cells: list[list[tuple[str, str]]] = [
            [("", " ")] * self.width for _ in range(self.height)
        ]

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
            return x + len(text)
        row = self.cells[y]
        for ch in text:
            w = get_cwidth(ch)
            if 0 <= x < self.width:
                row[x] = (style, ch)
                if w == 2 and x + 1 < self.width:
                    row[x + 1] = (style, "")
            x += max(1, w)
        return x

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
        self.put(x, y, "┌" + "─" * (w - 2) + "┐", style + " class:box.border")
        for yy in range(y + 1, y + h - 1):
            self.put(x, yy, "│", style + " class:box.border")
            self.put(x + w - 1, yy, "│", style + " class:box.border")
        self.put(x, y + h - 1, "└" + "─" * (w - 2) + "┘", style + " class:box.border")
        if title:
            self.put(x + 2, y, f" {title} ", style + " class:box.title")
        return x + 2, y + 1

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
