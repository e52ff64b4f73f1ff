"""`leekha join` killed with kill -9 and started again gets its seat back (issue 12).

A real `leekha serve` and a real `leekha join` on a pty, read through pyte: the first
client creates a table and is killed without a goodbye; the second, a new process that
knows only the session file in its state folder, is back in the same seat.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.pty import LEEKHA, Terminal, serve

pytestmark = pytest.mark.slow  # the fast lane leaves it out: it starts processes or ptys


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    yield from serve(tmp_path, monkeypatch)


def test_a_killed_client_started_again_is_back_in_its_seat(server: int, tmp_path: Path) -> None:
    argv = [LEEKHA, "join", f"127.0.0.1:{server}", "--name", "ann"]
    first = Terminal(argv)
    try:
        first.create_table("ann")
    finally:
        first.proc.kill()  # kill -9: no goodbye, nothing flushed by the client
        first.proc.wait(timeout=5)
    sessions = tmp_path / "state" / "leekha" / "sessions.json"
    assert stat.S_IMODE(os.stat(sessions).st_mode) == 0o600

    second = Terminal(argv)
    try:
        second.until(
            lambda: "ann's table" in second.text() and "ann (you)" in second.text(),
            "the same seat again, without creating anything",
        )
        second.until(lambda: "ann is back" in second.text(), "the table told of her return")
    finally:
        assert second.close() == 0
