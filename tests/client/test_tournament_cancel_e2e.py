"""`leekha tournament cancel` end to end on loopback: a tournament created for later is
cancelled by its creator's command and is listed as finished, its place free again."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from helpers.loopback import serve_process
from helpers.pty import LEEKHA


def leekha(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([LEEKHA, *args], capture_output=True, text=True, timeout=60)


@pytest.mark.slow
@pytest.mark.timeout(90)
def test_the_creator_cancels_a_tournament_from_the_command_line(tmp_path: Path) -> None:
    proc, port = serve_process(tmp_path / "data", "--max-tournaments-per-creator", "1")
    where = f"127.0.0.1:{port}"
    try:
        bots = ["--entrant", "server:random"] * 4
        made = leekha("tournament", "create", where, "--name", "Later", "--start", "+60", *bots)
        assert made.returncode == 0, made.stderr
        again = leekha("tournament", "create", where, "--name", "More", "--start", "+60", *bots)
        assert again.returncode == 1
        assert "tournaments not yet finished (1) is reached: 1" in again.stderr
        cancelled = leekha("tournament", "cancel", where, "1")
        assert cancelled.returncode == 0, cancelled.stderr
        assert "cancelled by" in cancelled.stdout
        listed = leekha("tournament", "list", where)
        assert listed.stdout.splitlines()[0].startswith("#1 Later: round robin, finished")
        made = leekha("tournament", "create", where, "--name", "More", "--start", "+60", *bots)
        assert made.returncode == 0, made.stderr
        gone = leekha("tournament", "cancel", where, "9")
        assert gone.returncode == 1 and "that tournament does not exist" in gone.stderr
    finally:
        proc.terminate()
        proc.wait(timeout=10)
