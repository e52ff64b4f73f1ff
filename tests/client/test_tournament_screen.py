"""The tournament screen as a person sees it: a real server running a tournament created
with `leekha tournament create`, `leekha join` on a pty read through pyte at 80x24; T opens
the list, Enter the standings and live tables, Enter on a table watches it."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from helpers.loopback import serve_process
from helpers.pty import LEEKHA, START, Terminal

pytestmark = pytest.mark.slow  # the fast lane leaves it out: it starts processes or ptys


@pytest.mark.timeout(240)
def test_lobby_tournament_standings_then_watch_a_table(tmp_path: Path) -> None:
    # Slow bots and a long game (to 101), so that the tournament's four tables are still
    # being played when looked at, however long a loaded machine takes to start the client.
    proc, port = serve_process(tmp_path / "data", "--bot-think-ms", "150")
    term = None
    try:
        bots = [x for _ in range(4) for x in ("--entrant", "server:random")]
        made = subprocess.run(
            [LEEKHA, "tournament", "create", f"127.0.0.1:{port}", "--name", "Friday",
             "--deals", "1", *bots],
            capture_output=True, text=True, timeout=30,
        )  # fmt: skip
        assert made.returncode == 0, made.stderr
        assert made.stdout.startswith("#1 Friday: round robin, rules classic, 1 deal")
        term = Terminal([LEEKHA, "join", f"127.0.0.1:{port}", "--name", "eve", "--guest"])
        term.until(lambda: "T tournaments" in term.text(), "the lobby with its hints", START)
        term.send("T")
        term.until(lambda: "#1 Friday: round robin" in term.text(), "the tournament list")
        term.send("\r")
        term.until(
            lambda: (
                "live tables (Enter to watch):" in term.text() and "Enter watch" in term.lines()[-2]
            ),
            "the live tables",
        )
        screen = term.text()
        assert "entrant" in screen and "95% CI" in screen and "random#1" in screen
        assert all(len(line) <= 80 for line in term.lines())
        # The first game counted from 1, as its table's name "Friday #1".
        row = next(line for line in term.lines() if "game 1 deal 1 rot 1" in line)
        assert row.count("random#") == 4
        term.send("\r")
        term.until(lambda: "spectating" in term.text(), "watching the table")
    finally:
        if term is not None:
            term.close()
        proc.terminate()
        proc.wait(timeout=10)


@pytest.mark.timeout(240)
def test_a_waiting_tournament_says_whom_it_waits_for_and_ranks_nobody(tmp_path: Path) -> None:
    """QA: the screen showed "rank 1" for everyone before any game, and neither whom a
    waiting tournament waits for nor the server's notes that `status` prints."""
    proc, port = serve_process(tmp_path / "data")
    term = None
    try:
        bots = [x for _ in range(3) for x in ("--entrant", "server:random")]
        made = subprocess.run(
            [LEEKHA, "tournament", "create", f"127.0.0.1:{port}", "--name", "Cup",
             "--deals", "1", *bots, "--entrant", "ghost"],
            capture_output=True, text=True, timeout=30,
        )  # fmt: skip
        assert made.returncode == 0, made.stderr
        term = Terminal([LEEKHA, "join", f"127.0.0.1:{port}", "--name", "eve", "--guest"])
        term.until(lambda: "T tournaments" in term.text(), "the lobby with its hints", START)
        term.send("T")
        term.until(lambda: "#1 Cup: round robin" in term.text(), "the tournament list")
        term.send("\r")
        # The whole box, down to its last note and the hints under it: a wait for one
        # line of it may see a frame half drawn.
        term.until(
            lambda: (
                "waiting for: ghost" in term.text()
                and "waiting for the client entrants to enter" in term.text()
                and "Esc back" in term.lines()[-2]
            ),
            "whom it waits for, and the server's notes",
        )
        lines = term.lines()
        assert all(len(line) <= 80 for line in lines)
        entrants = {"random#1", "random#2", "random#3", "ghost"}
        rows = [cells for line in lines if (cells := line.strip("│ ").split())[:1] and
                cells[0] in entrants]  # fmt: skip
        assert len(rows) == 4
        assert all(row[1:3] == ["-", "0"] for row in rows), rows  # no rank, no game
        notes = lines.index(next(line for line in lines if "what happened, latest last:" in line))
        assert "waiting for the client entrants to enter" in lines[notes + 1]
        term.send("\x1b")  # Esc: back to the list, and Esc again to the lobby, to quit
        term.until(lambda: "Enter open" in term.lines()[-2], "the list again")
        term.send("\x1b")
        term.until(lambda: "T tournaments" in term.lines()[-2], "the lobby again")
    finally:
        if term is not None:
            term.close()
        proc.terminate()
        proc.wait(timeout=10)
