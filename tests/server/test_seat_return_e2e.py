"""A real `leekha join` killed with SIGKILL mid-game and started again gets its seat back,
and the others are told: end to end on loopback, the server in its own process, the
player's client on a pty read through pyte, the other player a plain socket client.

The session token is kept on disk by the client (its state folder, here a temporary one),
which is what lets the restarted process resume the seat.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers.loopback import BlockingClient, serve_process
from helpers.pty import LEEKHA, WAIT, Terminal
from helpers.server import VERSIONS

from leekha.protocol import catalogue as M
from leekha.protocol.message import Message

pytestmark = pytest.mark.slow  # the fast lane leaves it out: it starts processes or ptys

SYSTEM = "*"


class Host:
    """alice: a socket client that hosts the table and collects the table's system lines."""

    def __init__(self, port: int) -> None:
        self.c = BlockingClient(port)
        self.lines: list[str] = []
        self.inbox: list[Message] = []

    def poll(self) -> None:
        ready, _w, _x = select.select([self.c.sock], [], [], 0)
        if not ready:
            return
        data = self.c.sock.recv(65536)
        for msg in self.c.decoder.feed(data):
            if isinstance(msg, M.ChatMessage) and msg.sender == SYSTEM:
                self.lines.append(msg.text)
            elif isinstance(msg, M.Ping):
                self.c.send(M.Pong(re=msg.id))
            self.inbox.append(msg)


def wait(host: Host, term: Terminal | None, pred: Any, what: str) -> None:
    """Pump the pty and the host socket until `pred()`, bounded."""
    deadline = time.monotonic() + WAIT
    while not pred():
        if time.monotonic() > deadline:
            screen = term.text() if term is not None else ""
            raise AssertionError(f"timed out waiting for {what}: {host.lines}\n{screen}")
        host.poll()
        if term is not None:
            term.pump(0.05)
        else:
            time.sleep(0.05)


def bob(port: int) -> Terminal:
    return Terminal([LEEKHA, "join", f"127.0.0.1:{port}", "--name", "bob", "--guest"])


def table_with_bob(tmp_path: Path, grace: str) -> tuple[Any, Host, Terminal, int]:
    proc, port = serve_process(tmp_path / "data", "--bot-think-ms", "1", "--seat-grace-s", grace)
    host = Host(port)
    host.c.send(M.Hello(id=host.c.rid(), versions=VERSIONS, name="alice"))
    host.c.until(lambda m: isinstance(m, M.Welcome))
    host.c.send(M.CreateTable(id=host.c.rid(), name="lan", turn_timer_s=0, pass_timer_s=0))
    tid = int(host.c.until_a(M.Snapshot).table["id"])
    for seat in (2, 3):
        host.c.send(M.AddBot(id=host.c.rid(), seat=seat, strategy="random"))
    term = bob(port)
    term.until(lambda: "lan" in term.text(), "the lobby lists alice's table")
    term.send("\r")
    seated = lambda: any(  # noqa: E731
        isinstance(m, M.SeatUpdate) and m.seat == 1 and m.player["name"] == "bob"
        for m in host.inbox
    )
    wait(host, term, seated, "bob sits down")
    host.c.send(M.Start(id=host.c.rid()))
    wait(host, term, lambda: "pass" in term.text().lower(), "the game on bob's screen")
    return proc, host, term, tid


@pytest.fixture
def private_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for var in ("XDG_STATE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME"):
        monkeypatch.setenv(var, str(tmp_path / var.lower()))
    return tmp_path


def kill_9(term: Terminal) -> None:
    os.kill(term.proc.pid, signal.SIGKILL)
    term.proc.wait(timeout=5)
    os.close(term.master)


class KilledBob:
    """alice's table in play with bob's client killed; `rejoin` starts bob's client again."""

    def __init__(self, host: Host, term: Terminal) -> None:
        self.host = host
        self.term = term

    def rejoin(self) -> Terminal:
        self.term = bob(int(self.host.c.sock.getpeername()[1]))
        return self.term


@contextlib.contextmanager
def bob_killed(tmp_path: Path, grace: str) -> Iterator[KilledBob]:
    """bob's client killed -9 mid-game, at a server holding seats for `grace` seconds;
    every process and connection is closed afterwards."""
    proc, host, term, _tid = table_with_bob(tmp_path, grace)
    scene = KilledBob(host, term)
    try:
        kill_9(term)
        yield scene
    finally:
        scene.term.close()
        host.c.close()
        proc.kill()
        proc.wait()


@pytest.mark.timeout(90)
def test_a_killed_client_started_again_gets_its_seat_back(private_dirs: Path) -> None:
    with bob_killed(private_dirs, "60") as scene:
        host = scene.host
        wait(host, None, lambda: any("bob dropped" in t for t in host.lines), "the drop line")
        term = scene.rejoin()
        wait(host, term, lambda: "bob is back" in host.lines, "the return line")
        wait(host, term, lambda: "bob is back" in term.text(), "bob's screen says so")
        record("return", term.text(), host.lines)


@pytest.mark.timeout(90)
def test_after_the_grace_period_the_seat_is_taken_back_from_the_bot(private_dirs: Path) -> None:
    with bob_killed(private_dirs, "1") as scene:
        host = scene.host
        away = "bob is still away: a bot plays the seat until they come back"
        wait(host, None, lambda: away in host.lines, "the bot stand-in line")
        term = scene.rejoin()
        back = "bob is back and takes the seat back from the bot"
        wait(host, term, lambda: back in host.lines, "the take-back line")
        wait(host, term, lambda: "takes the seat back" in term.text(), "bob's screen says so")
        record("take-back", term.text(), host.lines)


def record(name: str, screen: str, lines: list[str]) -> None:
    """Keep the screen for a person to read (LEEKHA_SCREENS names a folder)."""
    folder = os.environ.get("LEEKHA_SCREENS")
    if folder:
        text = screen + "\n\n-- alice heard:\n" + "\n".join(lines) + "\n"
        Path(folder, f"{name}.txt").write_text(text)
