"""The host picks each bot's level in the waiting room, and the seat shows it.

A real `leekha serve` and a real `leekha join` on a pty at 80x24, read through pyte.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.pty import LEEKHA, Terminal, serve

pytestmark = pytest.mark.slow  # the fast lane leaves it out: it starts processes or ptys


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    yield from serve(tmp_path, monkeypatch)


def bots(t: Terminal) -> list[str]:
    """The levels the bot seats show, as the table shows them (a bot the server named says
    its level in its name: "easy bot 1"); the chat column is left out."""
    table = "\n".join(line.split("│")[0] for line in t.text().split("\n")[1:])
    return re.findall(r"(\w+) bot \d", table)


def test_the_host_chooses_each_bots_level(server: int) -> None:
    t = Terminal([LEEKHA, "join", f"127.0.0.1:{server}", "--name", "ann"], 80, 24)
    try:
        t.create_table("ann")

        t.send("b")
        t.until(lambda: "level:" in t.text(), "the level picker")
        assert "Enter add the bot" in t.text()
        t.send("e")  # straight to easy
        t.until(lambda: bots(t) == ["easy"], "an easy bot")
        assert "level:" not in t.text()

        t.send("b")
        t.until(lambda: "level:" in t.text(), "the picker again")
        t.send("\x1b[D")  # left, from the strongest level (what `leekha join` adds)
        t.send("\r")
        t.until(lambda: len(bots(t)) == 2, "a second bot")

        t.send("b")
        t.until(lambda: "level:" in t.text(), "the picker a third time")
        t.send("\x1b")  # Esc: nothing added
        t.until(lambda: "level:" not in t.text(), "the picker closed")
        t.send("b")
        t.until(lambda: "level:" in t.text(), "the picker once more")
        t.send("h")
        t.until(lambda: len(bots(t)) == 3, "a third bot")

        assert sorted(bots(t)) == ["easy", "hard", "medium"], t.text()
        assert all(len(line) <= 80 for line in t.lines())
    finally:
        assert t.close() == 0
