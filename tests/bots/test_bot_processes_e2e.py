"""End to end over loopback: a `leekha serve` process and `leekha bot` processes.

Everything is a real subprocess on 127.0.0.1 with a short game (target 30), bounded by
explicit deadlines; output lines are read by threads so waits never sleep blindly, and
every process is killed in `finally`.
"""

from __future__ import annotations

import re
import signal
import socket
from pathlib import Path

import pytest
from helpers.processes import Proc, bot, serve, totals

# The fast lane leaves it out: it starts processes or ptys.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(120)]


def test_four_bot_processes_meet_by_table_name_and_finish(tmp_path: Path) -> None:
    with serve(tmp_path) as (_server, port):
        bots = [
            bot(tmp_path, port, "--table", "meet", "--name", f"p{i}", "--rule", "target=30",
                "--strategy", strategy)
            for i, strategy in enumerate(["random", "heuristic", "random", "heuristic"])
        ]  # fmt: skip
        try:
            codes = [b.finish() for b in bots]
            assert codes == [0, 0, 0, 0], "\n\n".join(b.text() for b in bots)
            # one table, one game: every bot saw the same final score
            assert len({totals(b) for b in bots}) == 1
            assert all("Traceback" not in b.text() for b in bots)
        finally:
            for b in bots:
                b.kill()


def test_count_four_in_one_process_plays_two_games(tmp_path: Path) -> None:
    with serve(tmp_path) as (_server, port):
        fleet = bot(tmp_path, port, "--create", "duo", "--count", "4", "--games", "2",
                    "--rule", "target=20")  # fmt: skip
        try:
            assert fleet.finish() == 0, fleet.text()
            assert len(re.findall(r"game 2 over", fleet.text())) == 4
        finally:
            fleet.kill()


def test_refused_connection_is_one_line_and_exit_2(tmp_path: Path) -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = bot(tmp_path, port, "--table", "x")
    try:
        assert proc.finish() == 2
        text = proc.text()
        assert "Traceback" not in text
        assert re.search(
            rf"leekha bot: cannot connect to 127.0.0.1:{port}: connection refused", text
        )
    finally:
        proc.kill()


@pytest.mark.parametrize(
    ("sig", "code"), [(signal.SIGTERM, 0), (signal.SIGINT, 130)], ids=["SIGTERM", "Ctrl-C"]
)
def test_a_signal_stops_a_waiting_bot_cleanly(
    tmp_path: Path, sig: signal.Signals, code: int
) -> None:
    """Nothing but the bot's own log lines: no traceback, and no asyncio "Task was
    destroyed but it is pending!" with the task's innards (the reactor stopped under
    the command's coroutine). Ctrl-C ends it with 130, as README's exit codes say."""
    with serve(tmp_path) as (_server, port):
        proc = bot(tmp_path, port, "--table", "alone")
        try:
            proc.wait_line(r"seat 1 at table")
            proc.popen.send_signal(sig)
            assert proc.finish() == code
            text = proc.text()
            assert "Traceback" not in text and "Task was destroyed" not in text, text
            assert all("[leekha." in line for line in text.splitlines() if line.strip()), text
        finally:
            proc.kill()


def test_bots_resume_their_seats_after_a_server_crash(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    data = tmp_path / "data"
    bots: list[Proc] = []
    try:
        with serve(tmp_path, port, data) as (server, _port):
            bots = [
                bot(tmp_path, port, "--table", "crash", "--name", f"c{i}", "--rule", "target=40",
                    "--delay-ms", "25")
                for i in range(4)
            ]  # fmt: skip
            for b in bots:
                b.wait_line(r"seat \d at table")
            server.popen.send_signal(signal.SIGKILL)  # no goodbye: a crash
            server.finish(timeout=10)
        for b in bots:
            b.wait_line(r"reconnecting in")
        with serve(tmp_path, port, data):
            codes = [b.finish() for b in bots]
            assert codes == [0, 0, 0, 0], "\n\n".join(b.text() for b in bots)
            assert all("session resumed" in b.text() for b in bots)
            assert len({totals(b) for b in bots}) == 1
    finally:
        for b in bots:
            b.kill()
