"""Loopback helpers for end-to-end server tests: a client that plays over real TCP on
127.0.0.1, bounded waits, and a `leekha serve` subprocess.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any, TypeVar

from twisted.internet.defer import Deferred

from helpers.server import VERSIONS, LoopbackClient
from leekha.common import cards as C
from leekha.common.config import RulesConfig
from leekha.common.game import legal_passes
from leekha.protocol import catalogue as M
from leekha.protocol.codec import Decoder, encode
from leekha.protocol.message import Message

TIMEOUT = 30.0


class Player(LoopbackClient):
    """A scripted human: answers every prompt from its own view only."""

    def __init__(self, autoplay: bool = True) -> None:
        super().__init__()
        self.autoplay = autoplay
        self.rules = RulesConfig()
        self.hand: list[int] = []
        self.snapshots: list[M.Snapshot] = []

    def on_message(self, msg: Message) -> None:
        if isinstance(msg, M.Snapshot):
            self.snapshots.append(msg)
            self.rules = RulesConfig.from_dict(msg.table["rules"])
            if msg.view is not None:
                self.hand = list(msg.view["hand"])
        elif isinstance(msg, M.Dealt):
            self.hand = list(msg.hand)
        elif isinstance(msg, M.YourTurn) and self.autoplay:
            self.answer(msg)

    def answer(self, prompt: M.YourTurn) -> None:
        if prompt.phase == "pass":
            choice = next(legal_passes(self.rules, C.mask_of(self.hand)))
            self.send(M.PassCards(id=self.rid(), cards=list(choice)))
        else:
            self.send(M.PlayCard(id=self.rid(), card=prompt.legal[0]))


def within(d: Deferred[Any], reactor: Any, seconds: float = TIMEOUT) -> Deferred[Any]:
    return d.addTimeout(seconds, reactor)


async def hello(reactor: Any, client: Player, name: str) -> M.Welcome:
    reply = await within(
        client.request(M.Hello(id=client.rid(), versions=VERSIONS, name=name)), reactor
    )
    assert isinstance(reply, M.Welcome), reply
    return reply


async def bot_table(reactor: Any, host: Player, target: int = 20) -> int:
    snap = await within(
        host.request(M.CreateTable(id=host.rid(), name="e2e", overrides={"target": target})),
        reactor,
    )
    assert isinstance(snap, M.Snapshot)
    for seat in (1, 2, 3):
        reply = await within(host.request(M.AddBot(id=host.rid(), seat=seat)), reactor)
        assert isinstance(reply, M.Ok), reply
    return int(snap.table["id"])


MessageT = TypeVar("MessageT", bound=Message)


def is_type(cls: type[Message]) -> Any:
    return lambda m: isinstance(m, cls)


class BlockingClient:
    """A plain-socket client for driving a server in another process."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=15)
        self.decoder = Decoder(peer="server")
        self.queue: list[Message] = []
        self.next_id = 0

    def send(self, msg: Message) -> None:
        self.sock.sendall(encode(msg))

    def rid(self) -> int:
        self.next_id += 1
        return self.next_id

    def until(self, pred: Any) -> Message:
        while True:
            while self.queue:
                msg = self.queue.pop(0)
                if pred(msg):
                    return msg
            data = self.sock.recv(65536)
            if not data:
                raise AssertionError("connection closed")
            self.queue.extend(self.decoder.feed(data))

    def until_a(self, cls: type[MessageT]) -> MessageT:
        """The next message of type `cls` (earlier ones of other types are skipped)."""
        msg = self.until(is_type(cls))
        assert isinstance(msg, cls)
        return msg

    def close(self) -> None:
        self.sock.close()


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def serve_process(
    tmp_path: Path, *extra: str, ignore_sigint: bool = False
) -> tuple[subprocess.Popen[str], int]:
    """`leekha serve` on 127.0.0.1, any port, in another process; returns it and its port
    once it printed the port (the rest of its stdout is left to read). `ignore_sigint`
    starts it with SIGINT ignored, as a shell starts a background job."""
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "leekha.client.cli",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--data",
            str(tmp_path),
            "--no-announce",
            *extra,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
        preexec_fn=_ignore_sigint if ignore_sigint else None,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.startswith("listening on 127.0.0.1:"), line
    return proc, int(line.rsplit(":", 1)[1])


def serve_for_people(
    tmp_path: Path, monkeypatch: Any, *extra: str
) -> tuple[subprocess.Popen[str], int]:
    """`serve_process` for tests of people's terminals: the server's data in
    `tmp_path/srv`, an empty config (not the user's), and the clients' state and config
    folders under `tmp_path` (their session tokens and keys), set in the environment
    through `monkeypatch` (a pytest.MonkeyPatch) for every client the test starts."""
    for var, sub in (("XDG_STATE_HOME", "state"), ("XDG_CONFIG_HOME", "config")):
        monkeypatch.setenv(var, str(tmp_path / sub))
    (tmp_path / "empty.toml").write_text("")
    return serve_process(tmp_path / "srv", "--config", str(tmp_path / "empty.toml"), *extra)
