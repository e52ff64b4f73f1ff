"""A loopback server and a client session for the session tests."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from twisted.internet import defer
from twisted.internet.endpoints import serverFromString

from leekha import protocol as P
from leekha.client.session import ClientSession, Target, retry_policy
from leekha.client.tokens import TokenStore
from leekha.client.trust import KnownHosts

WAIT = 10.0


def get_reactor() -> Any:
    from twisted.internet import reactor

    return reactor


class Server:
    def __init__(self, running: Any) -> None:
        self.running = running
        self.port = running.port
        self.tls_ports: list[Any] = []

    async def listen_tls(self, pem: Path) -> int:
        ep = serverFromString(
            get_reactor(), f"ssl:0:interface=127.0.0.1:privateKey={pem}:certKey={pem}"
        )
        port = await ep.listen(self.running.factory)
        self.tls_ports.append(port)
        return int(port.getHost().port)


@asynccontextmanager
async def server(tmp: Path) -> AsyncIterator[Server]:
    from leekha.server.app import local_settings, start_server

    settings = local_settings(tmp / "data")
    running = await defer.Deferred.fromCoroutine(start_server(get_reactor(), settings))
    s = Server(running)
    try:
        yield s
    finally:
        for port in s.tls_ports:
            await port.stopListening()
        await defer.Deferred.fromCoroutine(running.stop())


class Client:
    """A session with its messages, losses and notices recorded."""

    def __init__(self, target: Target, tmp: Path, name: str = "ann", **kw: Any) -> None:
        self.messages: list[P.Message] = []
        self.lost: list[str] = []
        self.notices: list[str] = []
        self.failed: list[str] = []
        self._waiters: list[tuple[Callable[[], bool], defer.Deferred[None]]] = []
        kw.setdefault("tokens", TokenStore(tmp / "state" / "sessions.json"))
        kw.setdefault("known_hosts", KnownHosts(tmp / "config" / "known_hosts"))
        self.session = ClientSession(
            get_reactor(),
            target,
            name,
            client="test",
            on_message=self._record(self.messages),
            on_lost=self._record(self.lost),
            on_notice=self._record(self.notices),
            on_failed=self._record(self.failed),
            retry=retry_policy(first=0.02),
            **kw,
        )

    def _record(self, into: list[Any]) -> Callable[[Any], None]:
        def record(item: Any) -> None:
            into.append(item)
            for pred, d in list(self._waiters):
                if not d.called and pred():
                    d.callback(None)

        return record

    async def until(self, pred: Callable[[], bool]) -> None:
        if pred():
            return
        d: defer.Deferred[None] = defer.Deferred()
        self._waiters.append((pred, d))
        d.addTimeout(WAIT, get_reactor())
        await d

    async def connect(self) -> P.Welcome:
        d = self.session.connect()
        d.addTimeout(WAIT, get_reactor())
        return await d

    async def close(self) -> None:
        await self.session.close()
