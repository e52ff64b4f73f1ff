"""`leekha play` started again offers to resume the unfinished game, on a pty at 80x24.

Quitting in the middle of a game says the game is kept; the next `leekha play` with the
same data folder asks "Resume the game in round N? (Y/n)". Yes puts the player back in
the same seat with the same hand; no starts a new game (and keeps asking about that one).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.pty import LEEKHA, Terminal

pytestmark = pytest.mark.slow  # the fast lane leaves it out: it starts processes or ptys


def _keys_row(lines: list[str]) -> int | None:
    """The row of the a b c ... key letters under the hand. A letter may carry a mark
    beside it (`a!`), so each word is read by its first character."""
    for i, line in enumerate(lines):
        words = line.split("│")[0].split()
        if [w[:1] for w in words[:3]] == ["a", "b", "c"]:
            return i
    return None


def _hand(t: Terminal) -> str:
    """The player's cards: the line above the a b c ... key letters."""
    lines = t.lines()
    keys = _keys_row(lines)
    assert keys is not None, t.text()
    return lines[keys - 1].split("│")[0].strip()


def _at_table(t: Terminal) -> str:
    t.until(lambda: "passing…" in t.text() and _keys_row(t.lines()) is not None, "the table")
    return _hand(t)


def _quit(t: Terminal) -> None:
    t.send("q")
    t.until(lambda: "quit" in t.text(), "the quit question")
    assert "leekha play again resumes this game" in t.text()
    t.send("q")
    assert t.proc.wait(timeout=20) == 0


def test_play_again_asks_to_resume_and_yes_is_the_same_seat(tmp_path: Path) -> None:
    argv = [LEEKHA, "play", "--data", str(tmp_path / "play"), "--name", "ann"]
    first = Terminal(argv)
    _at_table(first)
    _quit(first)

    second = Terminal(argv)  # no: a new game
    second.until(lambda: "Resume the game in round 1? (Y/n)" in second.text(), "the question")
    second.send("n\r")
    hand = _at_table(second)
    assert "ann is back" not in second.text()
    _quit(second)

    third = Terminal(argv)  # yes (Enter): the game the second one left
    third.until(lambda: "Resume the game in round 1? (Y/n)" in third.text(), "the question")
    third.send("\r")
    third.until(lambda: "ann is back" in third.text(), "the seat taken back")
    assert _at_table(third) == hand
    assert third.close() == 0
