"""The terminal client as a person sees it: `leekha play` in a pty, read through pyte at 80x24.

Each test starts the real program on a pseudo-terminal of a given size, feeds its output
to the pyte VT100 emulator and looks at the cells: characters and colours. Every wait is
bounded; the program is quit with its own keys and killed if it does not stop.
"""

from __future__ import annotations

import pytest
from helpers.pty import LEEKHA, Terminal

pytestmark = pytest.mark.slow  # the fast lane leaves it out: it starts processes or ptys

RED_SUITS, BLACK_SUITS = "♥♦", "♠♣"


def play(*extra: str, cols: int = 80, rows: int = 24) -> Terminal:
    argv = [LEEKHA, "play", "--name", "tester", "--strategy", "random", "--bot-delay", "0"]
    return Terminal([*argv, "--trick-hold", "0", "--no-save", *extra], cols, rows)


def reddish(fg: str) -> bool:
    if len(fg) != 6:
        return fg in ("red", "brightred")
    r, g, b = (int(fg[i : i + 2], 16) for i in (0, 2, 4))
    return r >= 0x80 and g < 0x40 and b < 0x40


def hand_suit_colours(t: Terminal) -> dict[str, set[str]]:
    """The foreground colours of the suit symbols in the hand rows (the last five lines
    above the hints), keyed by suit symbol."""
    out: dict[str, set[str]] = {s: set() for s in RED_SUITS + BLACK_SUITS}
    rows = t.screen.lines
    for y in range(rows - 6, rows - 2):
        for x in range(t.screen.columns):
            cell = t.screen.buffer[y][x]
            if cell.data in out and x < t.screen.columns - 26:  # not the chat column
                out[cell.data].add(cell.fg)
    return out


def assert_red_in_hand(t: Terminal, when: str) -> None:
    colours = hand_suit_colours(t)
    reds = colours["♥"] | colours["♦"]
    blacks = colours["♠"] | colours["♣"]
    assert reds and blacks, f"{when}: no hand on screen:\n{t.text()}"
    assert all(reddish(fg) for fg in reds), f"{when}: red suits drawn in {reds}"
    assert not any(reddish(fg) for fg in blacks), f"{when}: black suits drawn in {blacks}"


def hint_line(t: Terminal) -> str:
    return t.lines()[-2].rstrip()


def test_red_suits_stay_red_and_hints_are_whole_at_80x24() -> None:
    t = play("--rule", "pass_ban=false")
    try:
        t.until(lambda: "passing to" in t.text() and "Enter pass" in hint_line(t), "pass phase")
        assert_red_in_hand(t, "pass phase, your turn")
        assert hint_line(t).endswith("? help")
        t.send("abc")  # choose three cards (no pass ban at this table)
        t.until(lambda: sum(t.lines()[-5].count(s) for s in "♠♥♣♦") == 3, "three chosen")
        assert_red_in_hand(t, "pass phase, three chosen")
        t.send("\r")
        t.until(lambda: "Enter to confirm" in t.text(), "pass staged")
        t.send("\r")
        t.until(lambda: "lift" in hint_line(t), "your turn to play")
        assert_red_in_hand(t, "play phase, your turn")
        line = hint_line(t)
        assert line.endswith("? help") and len(line) <= 80
        header = t.lines()[0].rstrip()
        assert header.endswith("tester")  # the right end of the header is never cut
        t.send("?")
        t.until(lambda: "keys" in t.text() and "(D) dealer" in t.text(), "help")
        t.send("\x1b")
        t.until(lambda: "(D) dealer" not in t.text(), "help closed")
    finally:
        assert t.close() == 0, t.text()


def test_a_window_too_small_says_what_it_needs() -> None:
    t = play(cols=30, rows=8)
    try:
        t.until(lambda: "window too small" in t.text(), "the too-small note")
        assert "need 60×20" in t.text().replace("\n", " ")
    finally:
        assert t.close() == 0, t.text()


def test_ascii_output_is_pure_ascii() -> None:
    t = play("--ascii")
    try:
        t.until(lambda: "passing to" in t.text(), "pass phase")
        t.send("?")
        t.until(lambda: "keys" in t.text(), "help")
        t.send("\x1b")
        t.pump(0.2)
        text = t.text()
        assert "+-" in text or "|" in text  # boxes and the chat column drawn in ASCII
    finally:
        rc = t.close()
    bad = sorted({b for b in t.raw if b >= 0x80})
    assert rc == 0 and not bad, f"non-ASCII bytes {bad[:10]} in the output"
