"""Right-to-left text for terminals that draw every cell left to right.

Most terminals (xterm, tmux, the Linux console, kitty, …) put characters on screen in the
order they arrive, so Arabic, written in logical order, reads backwards and its letters stay
unjoined. With bidi display on, each piece of text is turned into its visual form before it
reaches a cell: letters joined (arabic-reshaper, presentation forms) and the line reordered
by the Unicode bidi algorithm (python-bidi). Terminals that do bidi themselves (VTE-based
ones such as GNOME Terminal, Konsole, mlterm, macOS Terminal) must get logical order, or the
text would be turned twice; `auto` tells them apart from the environment.

A paragraph's direction follows the interface language (right to left in Arabic), so a
sentence with an embedded card or name reads correctly in either language. Styles travel
with their characters, so a highlighted name stays highlighted after reordering.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from leekha.client import i18n

Frags = list[tuple[str, str]]

MODES = ("auto", "on", "off")

# Characters that make a text need the bidi algorithm at all (strong R/AL, Arabic digits).
_RTL = re.compile(
    "[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\U00010800-\U00010fff\U0001e800-\U0001efff]"
)

#: Suit symbols are neutral to Unicode, but on a card they belong to its rank (Q♠, 10♦), so
#: they count as left-to-right letters and a card label never splits into ♠Q.
_SUITS = frozenset("♣♦♥♠♧♢♡♤")

#: Unicode's first-strong isolate and its end: `isolate(name)` makes a name one unit in
#: its line's order, whatever the names beside it are written in.
FSI, PDI = "\u2068", "\u2069"
#: The isolates of a fixed direction: left to right, right to left.
LRI, RLI = "\u2066", "\u2067"
_OPENERS = {FSI: None, LRI: False, RLI: True}
ISOLATES = FSI + PDI + LRI + RLI

_enabled = False


def terminal_does_bidi(environ: Mapping[str, str] | None = None) -> bool | None:
    """True for terminals known to reorder RTL text themselves, False for terminals known
    not to, None when the environment does not say.

    A multiplexer (tmux, screen) decides first: it keeps its own grid of cells and redraws
    them in order, whatever the terminal around it does.
    """
    env = os.environ if environ is None else environ
    term = env.get("TERM", "")
    program = env.get("TERM_PROGRAM", "")
    if env.get("TMUX") or env.get("STY") or term.startswith(("tmux", "screen")):
        return False
    if term == "linux":
        return False
    if env.get("VTE_VERSION", "").isdigit():
        # VTE reorders RTL paragraphs since 0.58 (VTE_VERSION 5800).
        return int(env["VTE_VERSION"]) >= 5800
    if env.get("KONSOLE_VERSION") or env.get("MLTERM") or term.startswith("mlterm"):
        return True
    if program == "Apple_Terminal":
        return True
    if program in ("iTerm.app", "WezTerm", "vscode", "Hyper", "Tabby", "ghostty"):
        return False
    if env.get("KITTY_WINDOW_ID") or env.get("ALACRITTY_SOCKET") or env.get("WT_SESSION"):
        return False
    if env.get("XTERM_VERSION"):
        return False
    if term.startswith(("xterm-kitty", "alacritty", "foot", "st-", "rxvt", "wezterm")):
        return False
    return None


def resolve(mode: str, environ: Mapping[str, str] | None = None) -> bool:
    """Whether `--bidi MODE` means reordering here: `auto` reorders only for a terminal known
    not to do it itself."""
    if mode == "on":
        return True
    if mode == "off":
        return False
    return terminal_does_bidi(environ) is False


def set_enabled(on: bool) -> None:
    global _enabled
    _enabled = on


def enabled() -> bool:
    return _enabled


def mirrored() -> bool:
    """Whether screens are laid out right to left: lines of running text (the status line,
    the key hints) then start at the right edge, as an Arabic reader expects."""
    return _enabled and i18n.is_rtl()


def needs_bidi(text: str) -> bool:
    return _RTL.search(text) is not None


@lru_cache(maxsize=1)
def _reshaper() -> Any:
    import arabic_reshaper

    # No ligatures, so one logical character stays one cell and the layout's widths hold.
    return arabic_reshaper.ArabicReshaper(
        configuration={"support_ligatures": False, "delete_harakat": False}
    )


def isolate(text: str, rtl: bool | None = None) -> str:
    """`text` as one unit of its line (Unicode's FSI … PDI): reordered on its own, in the
    direction of its first strong letter, and placed in the line as one neutral piece.
    Without it, "ann، b1[روبوت]" in a right-to-left line reads as one Latin run "ann، b1"
    and the tag lands on the wrong name. The marks take no cell: `visual` consumes them
    and the canvas drops them when bidi display is off (a terminal that reorders by
    itself gets the names in logical order, each with its own tag right after it).
    `rtl` fixes the unit's direction instead (LRI or RLI): a key hint in the paragraph's."""
    opener = FSI if rtl is None else RLI if rtl else LRI
    return opener + text + PDI


def join_isolated(items: list[str], sep: str) -> str:
    """`sep.join(items)`, each item isolated (`isolate`): a list of names or seats."""
    return sep.join(isolate(item) for item in items)


def _visual_order(text: str, rtl_paragraph: bool) -> list[tuple[int, str]]:
    """(logical index, displayed character) in left-to-right screen order. An isolate
    (FSI … PDI; python-bidi's algorithm predates them) is a neutral placeholder in its
    line and is ordered on its own, in the direction of its first strong character; the
    marks themselves are not displayed."""
    if not any(opener in text for opener in _OPENERS):
        return _plain_order(text, rtl_paragraph)
    outer: list[str] = []
    logical: list[int] = []  # outer index -> logical index
    spans: dict[int, tuple[int, int, bool | None]] = {}  # placeholder -> its text, direction
    i = 0
    while i < len(text):
        if text[i] in _OPENERS:
            end = text.find(PDI, i + 1)
            end = len(text) if end < 0 else end
            spans[len(outer)] = (i + 1, end, _OPENERS[text[i]])
            outer.append("\ufffc")  # OBJECT REPLACEMENT: neutral, as an isolate is
            logical.append(i)
            i = end + 1
        else:
            outer.append(text[i])
            logical.append(i)
            i += 1
    out: list[tuple[int, str]] = []
    for o, ch in _plain_order("".join(outer), rtl_paragraph):
        if o in spans:
            start, end, direction = spans[o]
            inner = "".join(" " if c in ISOLATES else c for c in text[start:end])
            if direction is None:
                strong = next((c for c in inner if _strong(c) is not None), "")
                direction = _strong(strong) is True
            out += [
                (start + j, c)
                for j, c in _plain_order(inner, direction)
                if text[start + j] not in ISOLATES
            ]
        elif text[logical[o]] not in ISOLATES:
            out.append((logical[o], ch))
    return out


def _strong(ch: str) -> bool | None:
    """True for a right-to-left letter, False for a left-to-right one, None otherwise."""
    kind = unicodedata.bidirectional(ch) if ch else ""
    return True if kind in ("R", "AL") else False if kind == "L" else None


def _plain_order(text: str, rtl_paragraph: bool) -> list[tuple[int, str]]:
    """(logical index, displayed character) in left-to-right screen order, by python-bidi."""
    from bidi import algorithm as B

    storage: dict[str, Any] = B.get_empty_storage()
    level = 1 if rtl_paragraph else 0
    storage["base_level"] = level
    storage["base_dir"] = "LR"[level]
    B.get_embedding_levels(text, storage)
    chars = storage["chars"]
    for i, ch in enumerate(chars):
        ch["index"] = i
        if ch["ch"] in _SUITS:
            ch["type"] = ch["orig"] = "L"
        elif ch["ch"] in "+-" and i + 1 < len(chars) and chars[i + 1]["ch"].isdigit():
            # A sign belongs to its number: +0 stays +0 in a right-to-left line (Unicode
            # would make the lone separator neutral and draw it after the number, 0+).
            ch["type"] = ch["orig"] = "EN"
    B.explicit_embed_and_overrides(storage, False)
    B.resolve_weak_types(storage, False)
    B.resolve_neutral_types(storage, False)
    B.resolve_implicit_levels(storage, False)
    B.reorder_resolved_levels(storage, False)
    B.apply_mirroring(storage, False)
    return [(ch["index"], ch["ch"]) for ch in storage["chars"]]


def visual(frags: Frags, rtl_paragraph: bool | None = None) -> Frags:
    """The fragments of one paragraph as they must be sent to a left-to-right terminal.

    The result covers the same cells as the input (combining marks, which would otherwise
    take a cell of their own in reverse order, are dropped), so positions computed from the
    logical text stay right. Text with nothing right-to-left in it is returned unchanged.
    """
    text = "".join(t for _s, t in frags)
    if not needs_bidi(text):
        return frags
    if rtl_paragraph is None:
        rtl_paragraph = i18n.is_rtl()
    return list(_visual(tuple(frags), rtl_paragraph))


@lru_cache(maxsize=4096)
def _visual(frags: tuple[tuple[str, str], ...], rtl_paragraph: bool) -> tuple[tuple[str, str], ...]:
    """`visual`, cached: a screen repaints the same texts frame after frame."""
    chars: list[tuple[str, str]] = [
        (style, ch)
        for style, t in frags
        for ch in t
        if not (unicodedata.combining(ch) or ch in "\u200c\u200d")
    ]
    logical = "".join(ch for _s, ch in chars)
    shaped = _reshaper().reshape(logical)
    if len(shaped) != len(logical):
        shaped = logical
    out: Frags = []
    for index, ch in _visual_order(shaped, rtl_paragraph):
        style = chars[index][0]
        if out and out[-1][0] == style:
            out[-1] = (style, out[-1][1] + ch)
        else:
            out.append((style, ch))
    return tuple(out)


def visual_text(text: str, rtl_paragraph: bool | None = None) -> str:
    return "".join(t for _s, t in visual([("", text)], rtl_paragraph))


def display_lines(text: str, width: int | None = None) -> str:
    """Printed (not full-screen) output, line by line in visual form when bidi display is
    on; in a right-to-left language the lines are aligned to the right edge at `width`."""
    if not _enabled or not needs_bidi(text):
        return text
    rtl = i18n.is_rtl()
    lines = []
    for line in text.split("\n"):
        shown = visual_text(line, rtl)
        if rtl and width and line.strip():
            shown = shown.rjust(width - 1)
        lines.append(shown)
    return "\n".join(lines)
