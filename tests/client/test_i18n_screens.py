"""The table screen in each language, as a person sees it: `leekha play` on an 80x24
pseudo-terminal, read through the pyte terminal emulator."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

import pytest
from helpers.pty import LEEKHA, Terminal

from leekha.client import i18n, rtl

pytestmark = pytest.mark.slow  # the fast lane leaves it out: it starts processes or ptys

NAME = "أحمد"  # an Arabic player name, laid out right in every language
COLS, ROWS = 80, 24
ARABIC = re.compile("[\u0600-\u06ff\ufb50-\ufdff\ufe70-\ufeff]+")
LABELS = re.compile("[^a-z]{3}".join("abcdefghijklm"))  # the key letters under the hand


def screen_of(argv: list[str], ready: Callable[[list[str]], bool]) -> list[str]:
    """Run `argv` on an 80x24 pty until its screen is `ready`; that screen's lines."""
    t = Terminal(argv, COLS, ROWS)
    try:
        t.until(lambda: ready(t.lines()), "the screen")
        return t.lines()
    finally:
        assert t.close() == 0, t.text()


def table_drawn(lines: list[str]) -> bool:
    """The own hand is dealt: its 13 key letters are on one line."""
    return any(LABELS.search(line) for line in lines)


def logical(visual: str) -> str:
    return unicodedata.normalize("NFKC", visual[::-1])


def play(lang: str, bidi: str) -> list[str]:
    argv = [LEEKHA, "--lang", lang, "--bidi", bidi, "play", "--strategy", "random", "--no-save"]
    return screen_of([*argv, "--name", NAME, "--bot-delay", "0"], drawn_with_header)


def drawn_with_header(lines: list[str]) -> bool:
    """The table is drawn and so is the header, which names the table and the player."""
    return table_drawn(lines) and len(ARABIC.findall(lines[0])) >= 2


@pytest.mark.parametrize(("lang", "bidi"), [("en", "on"), ("it", "off"), ("ar", "on")])
def test_table_screen(lang: str, bidi: str) -> None:
    lines = play(lang, bidi)
    assert len(lines) == ROWS and all(len(line) == COLS for line in lines)
    # The header names the table ("NAME vs bots") and the player.
    words = ARABIC.findall(lines[0])
    if bidi == "on":
        # Sent in display order: right to left, letters joined.
        assert NAME not in words
        assert [w for w in words if logical(w) == NAME] == [rtl_name(), rtl_name()]
    else:
        assert words.count(NAME) == 2
    # The key hints are whole, in the language: the last one is "? help", translated.
    try:
        i18n.set_language(lang)
        rtl.set_enabled(bidi == "on")
        last = rtl.visual_text("? " + i18n._("help"))
        hints = lines[-2].strip()
        assert hints.startswith(last) if rtl.mirrored() else hints.endswith(last), hints
    finally:
        i18n.set_language("en")
        rtl.set_enabled(False)


def rtl_name() -> str:
    """The name as a left-to-right terminal must receive it: NAME's letters in their joined
    forms (initial, medial, final), last letter first."""
    return "\ufeaa\ufee4\ufea3\ufe83"  # final dal, medial mim, initial hah, isolated alef-hamza


def test_the_arabic_form_writes_seconds_in_arabic() -> None:
    """The new-table form's timers: "30 ث" in Arabic, not a Latin "s" (issue 38)."""
    from helpers.model import welcomed

    from leekha.client.tui.layout import render_text

    i18n.set_language("ar")
    try:
        m = welcomed()
        m.in_lobby.open_form()
        assert m.boxes.form is not None
        m.boxes.form.pass_timer = 30
        text = render_text(m, 80, 24)
        assert "‹ 30 ث ›" in text and "30 s" not in text, text
    finally:
        i18n.set_language("en")


def test_no_clock_stands_still_on_screen_while_reconnecting() -> None:
    """A seat's clock is the server's: while the link is down it would stand frozen, so
    it leaves the screen until the link is back (issue 38)."""
    from helpers.model import at_table

    from leekha.client.tui.layout import render_text

    m = at_table()
    assert "⏱" in render_text(m, 80, 24)
    m.connection_lost("gone")
    assert "⏱" not in render_text(m, 80, 24)
