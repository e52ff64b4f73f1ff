"""The tournament screen as a person sees it: a real server running a tournament created
with `leekha tournament create`, `leekha join` on a pty read through pyte at 80x24; T opens
the list, Enter the standings and live tables, Enter on a table watches it."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from ptyscreen import LEEKHA, Terminal
from test_server_e2e import serve_process


@pytest.mark.timeout(60)
def test_lobby_tournament_standings_then_watch_a_table(tmp_path: Path) -> None:
    # Slow bots, so that the tournament's four tables are still being played when looked at.
    proc, port = serve_process(tmp_path / "data", "--bot-think-ms", "150")
    term = None
    try:
        bots = [x for _ in range(4) for x in ("--entrant", "server:random")]
        made = subprocess.run(
            [LEEKHA, "tournament", "create", f"127.0.0.1:{port}", "--name", "Friday",
             "--deals", "1", "--rule", "target=31", *bots],
            capture_output=True, text=True, timeout=30,
        )  # fmt: skip
        assert made.returncode == 0, made.stderr
        assert made.stdout.startswith("#1 Friday: round robin, rules classic, 1 deal")
        term = Terminal([LEEKHA, "join", f"127.0.0.1:{port}", "--name", "eve", "--guest"])
        term.until(lambda: "T tournaments" in term.text(), "the lobby with its hints")
        term.send("T")
        term.until(lambda: "#1 Friday: round robin" in term.text(), "the tournament list")
        term.send("\r")
        term.until(lambda: "live tables (Enter to watch):" in term.text(), "the live tables")
        screen = term.text()
        assert "entrant" in screen and "95% CI" in screen and "random#0" in screen
        assert "Enter watch" in term.lines()[-2]
        assert all(len(line) <= 80 for line in term.lines())
        row = next(line for line in term.lines() if "deal 0 rot 0" in line)
        assert row.count("random#") == 4
        term.send("\r")
        term.until(lambda: "spectating" in term.text(), "watching the table")
    finally:
        if term is not None:
            term.close()
        proc.terminate()
        proc.wait(timeout=10)
