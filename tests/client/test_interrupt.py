"""Ctrl-C ends every full-screen command with 130, as README.md's exit codes say: on a
full screen the terminal is in raw mode and sends no SIGINT, so the key itself must end
the command as an interrupt, not as the quit key does (0)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.pty import LEEKHA, START, Terminals, serve

from leekha.client.exitcodes import INTERRUPTED
from leekha.common.bots.base import make_strategy, play_out
from leekha.common.config import preset
from leekha.common.game import Game
from leekha.common.record import GameRecord


@pytest.fixture
def port(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    yield from serve(tmp_path, monkeypatch)


def _record(path: Path) -> Path:
    game = Game(preset("classic", {"target": 1}), 3)
    play_out(game, [make_strategy("random", s) for s in range(4)])
    path.write_text(json.dumps(GameRecord.of(game, ["ann", "bob", "cy", "di"]).to_dict()))
    return path


@pytest.mark.slow
def test_ctrl_c_ends_join_play_and_replay_with_130(port: int, tmp_path: Path) -> None:
    terms = Terminals()
    try:
        join = terms.start("join", [LEEKHA, "join", f"127.0.0.1:{port}", "--name", "ann"])
        play = terms.start("play", [LEEKHA, "play", "--no-save", "--strategy", "random"])
        replay = terms.start("replay", [LEEKHA, "replay", str(_record(tmp_path / "g.json"))])
        terms.until(
            lambda: (
                "Press n to create one" in join.text()
                and "passing to" in play.text()
                and "round" in replay.text()
            ),
            "the lobby, the table and the replay",
            START,
        )
        for name in ("join", "play", "replay"):
            terms[name].send("\x03")
        terms.until(
            lambda: all(t.proc.poll() is not None for t in terms.open.values()),
            "every command to end",
        )
        codes = {name: t.proc.wait() for name, t in terms.open.items()}
        assert codes == {"join": INTERRUPTED, "play": INTERRUPTED, "replay": INTERRUPTED}
    finally:
        terms.close()


#: A command on the client's event loop that waits until it is stopped, and says when
#: it is running (Twisted's signal handlers are in place once the reactor runs).
_WAITER = """
import sys
from leekha.client.eventloop import run_on_reactor

async def main(reactor):
    import asyncio
    from twisted.internet import task
    # a shutdown that takes a while, as `leekha bot`'s hang-up does (up to two seconds)
    reactor.addSystemEventTrigger("before", "shutdown", task.deferLater, reactor, 1.0)
    reactor.callLater(0.3, lambda: print("running", flush=True))
    await asyncio.sleep(3600)
    return 0

sys.exit(run_on_reactor(main))
"""


@pytest.mark.slow
@pytest.mark.parametrize("signame", ["SIGTERM", "SIGINT"])
def test_a_second_signal_while_stopping_prints_no_traceback(signame: str) -> None:
    """`kill` twice, Ctrl-C twice, or GNU `timeout` (which signals the command and then
    its process group): each signal queued a reactor.stop(), and the second raised
    ReactorNotRunning with a traceback on stderr (seen on `leekha bot` under timeout)."""
    import signal
    import subprocess
    import sys
    import time

    proc = subprocess.Popen(
        [sys.executable, "-c", _WAITER], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == b"running"
        sig = getattr(signal, signame)
        proc.send_signal(sig)
        time.sleep(0.3)  # the second comes while the first's shutdown is under way
        proc.send_signal(sig)
        _out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert b"Traceback" not in err and b"ReactorNotRunning" not in err, err.decode()
    assert proc.returncode == (INTERRUPTED if signame == "SIGINT" else 0)
