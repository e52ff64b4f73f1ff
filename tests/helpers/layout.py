"""What the layout tests check a painted frame for, and the long names they paint.

A frame fails on any cut it can detect:
- two texts of one layer painted over each other (`Canvas.overlaps`; a box is a new layer,
  meant to cover what is under it);
- a text that ran past the window's edge (`Canvas.cut`);
- an ellipsis that does not end a name: a fixed label shortened (`[pw]` drawn `[p…` or
  `…`, a tag drawn `(D…`), since a layout shortens only what people typed;
- a name shortened without an ellipsis (`Bartholomew Feat` where a slice cut it): a
  reader must be able to tell a shortened name from a whole one.
The last two read the words, so they run on the logical order only (the Arabic frames
with bidi on are checked for overlaps and edges).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from leekha.client import i18n, rtl
from leekha.client.tui.canvas import Canvas
from leekha.client.tui.words import bot_name
from leekha.protocol.views import PlayerInfo

from . import records as R

LOCALE = Path(__file__).resolve().parents[2] / "client" / "locale"

LATIN = "Bartholomew Featherstone"  # 24 characters
ARABIC = "عبد الرحمن بن عبد العزيز"  # 24 characters
OTHER = "Maximiliana Worthington"
LONG_TABLE = LATIN + " II"
assert len(LATIN) == len(ARABIC) == 24

#: Who sits where: long names on every side, or three bots of one level (whose names
#: share their first word, so a column cut to it would read the same three times).
CASTS: dict[str, list[tuple[str, str | None]]] = {
    "long names": [(LATIN, None), (ARABIC, None), (OTHER, None), ("medium bot 3", "medium")],
    "bots": [("ann", None), ("hard bot 1", "hard"), ("hard bot 2", "hard"), ("hard bot 3", "hard")],
}
NAMES = {n for cast in CASTS.values() for n, _level in cast} | {"Friday", LONG_TABLE}

LANGUAGES = [("en", False), ("it", False), ("ar", False), ("ar", True)]
LANGUAGE_IDS = ["en", "it", "ar", "ar-bidi"]


def players(cast: str) -> list[PlayerInfo]:
    """The `players` of a snapshot: the cast's names, seat 0 the host."""
    return [
        R.player(name, bot=level is not None, connected=True, strategy=level, host=seat == 0)
        for seat, (name, level) in enumerate(CASTS[cast])
    ]


def shown_names() -> set[str]:
    """The names as the reader sees them: a bot the server named is named in their words."""
    return NAMES | {
        bot_name(n, seat, level) for cast in CASTS.values() for seat, (n, level) in enumerate(cast)
    }


@pytest.fixture(params=LANGUAGES, ids=LANGUAGE_IDS)
def language(request: pytest.FixtureRequest) -> Iterator[tuple[str, bool]]:
    """The interface language and whether bidi display is on, restored afterwards."""
    lang, bidi = request.param
    i18n.set_language(lang)
    rtl.set_enabled(bidi)
    yield lang, bidi
    i18n.set_language("en")
    rtl.set_enabled(False)


@cache
def catalogue_texts(lang: str) -> tuple[str, ...]:
    """Every message of the language with an ellipsis of its own (English: the ids)."""
    with (LOCALE / ("it" if lang == "en" else lang) / "LC_MESSAGES" / "leekha.po").open("rb") as f:
        cat = read_po(f)
    texts: list[object] = []
    for msg in cat:
        text = msg.id if lang == "en" else msg.string
        texts.extend(text if isinstance(text, (list, tuple)) else [text])
    return tuple(" " + t for t in texts if isinstance(t, str) and "…" in t)


def name_prefix(stem: str) -> bool:
    """Whether `stem` is the start of a name (or of a word in one): a name may be shortened."""
    return any(n.startswith(stem) or f" {stem}" in f" {n}" for n in shown_names())


def cut_labels(text: str, lang: str) -> list[str]:
    """The rows of a frame with an ellipsis that is neither one of a message's own
    ("passing…", "a … m") nor the end of a shortened name."""
    texts = catalogue_texts(lang)
    bad = []
    for row in text.split("\n"):
        for m in re.finditer(r"(\S*)…", row):
            p = m.end() - 1
            if any(row[max(0, p - 3) : p + 1] in t for t in texts):
                continue
            stem = m.group(1).lstrip("│([«")
            if stem and name_prefix(stem):
                continue
            bad.append(row.strip())
    return bad


#: A name is recognised from this many of its first characters.
STEM = 7


def silent_cuts(text: str) -> list[str]:
    """The rows where a long name stops inside a word with no ellipsis after it: a slice
    cut it. (A name that stops between words is a short form, "hard 2", or has a box over
    the rest of it.)"""
    bad = []
    every = shown_names()
    names = [n for n in every if len(n) > STEM]
    for row in text.split("\n"):
        for name in names:
            whole = [range(m.start(), m.end()) for m in re.finditer(re.escape(name), row)]
            for m in re.finditer(re.escape(name[:STEM]), row):
                if any(m.start() in span for span in whole):
                    continue
                n = STEM
                while n < len(name) and row[m.start() : m.start() + n + 1] == name[: n + 1]:
                    n += 1
                shown = row[m.start() : m.start() + n]
                if shown.rstrip() in every or any(row.startswith(o, m.start()) for o in every):
                    continue  # another name, whole ("Bartholomew Featherstone", "hard bot 2")
                if shown.endswith(" "):
                    continue  # whole words: a short form ("medium 3"), or a box over the rest
                if row[m.start() + n : m.start() + n + 1] != "…":
                    bad.append(f"{name!r} cut to {row[m.start() : m.start() + n]!r}: {row.strip()}")
    return bad


def problems(cv: Canvas, lang: str, logical: bool) -> list[str]:
    """Everything cut or painted over in the frame (see the module's top)."""
    out = [f"{a!r} painted over by {b!r}" for a, b in cv.overlaps]
    out += [f"past the edge: {t!r}" for t in cv.cut]
    if logical:
        text = cv.text()
        out += [f"cut label: {row!r}" for row in cut_labels(text, lang)]
        out += [f"cut name: {row}" for row in silent_cuts(text)]
    return out
