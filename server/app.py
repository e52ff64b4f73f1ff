"""Start and stop a whole server inside an already running reactor.

`leekha serve`, the tests and `leekha play` (an embedded server sharing prompt_toolkit's
asyncio loop) all go through `start_server`, so there is exactly one way to run a server.
"""

from __future__ import annotations

import asyncio
import ipaddress
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from twisted.internet.defer import Deferred, DeferredList, ensureDeferred
from twisted.internet.endpoints import TCP4ServerEndpoint, TCP6ServerEndpoint
from twisted.internet.threads import deferToThreadPool
from twisted.logger import Logger

from leekha.protocol.version import PROTOCOL_VERSION
from leekha.server.connection import ServerFactory
from leekha.server.lobby import Lobby
from leekha.server.persistence import Store
from leekha.server.settings import ServerSettings

log = Logger()


@dataclass
class RunningServer:
    """A listening server. `port` is the real port (useful with port 0)."""

    host: str
    port: int
    lobby: Lobby
    factory: ServerFactory
    store: Store
    listening: Any
    announcer: Any = None
    announcing: Deferred[Any] | None = None
    stopped: bool = field(default=False)

    async def stop(self) -> None:
        """Clean shutdown: stop accepting, tell every client, close the database."""
        if self.stopped:
            return
        self.stopped = True
        log.info("shutting down")
        await self.listening.stopListening()
        closing = [self._closed(c) for c in list(self.factory.connections)]
        self.lobby.shutdown("server_shutdown", "the server is shutting down")
        self.lobby.outbox.flush()  # commit, then send the goodbyes and close
        if closing:
            await DeferredList(closing)
        if self.announcing is not None:
            await self.announcing
        if self.announcer is not None:
            try:
                await Deferred.fromFuture(asyncio.ensure_future(self.announcer.stop()))
            except Exception:
                log.failure("stopping the LAN announcement failed")
        self.lobby.outbox.flush()
        self.store.close()
        log.info("stopped")

    def _closed(self, conn: Any) -> Deferred[None]:
        d: Deferred[None] = Deferred()
        original = conn.connectionLost

        def lost(reason: Any = None) -> None:
            original(reason)
            if not d.called:
                d.callback(None)

        conn.connectionLost = lost
        return d

    async def abandon(self) -> None:
        """Vanish as a crash would: no goodbye, no flush (tests use it to simulate kill -9)."""
        self.stopped = True
        self.lobby.outbox.stop()  # what was not committed yet is lost, as in a crash
        await self.listening.stopListening()
        for table in self.lobby.tables.values():
            table.shutdown()
        for session in self.lobby.sessions.values():
            if session.expiry is not None and session.expiry.active():
                session.expiry.cancel()
        for conn in list(self.factory.connections):
            conn.abort()


def local_settings(data_dir: Path | None = None, **overrides: Any) -> ServerSettings:
    """Settings for an embedded server (`leekha play`): loopback only, any free port, no
    LAN announcement, untimed turns; `overrides` are ServerSettings field names."""
    values: dict[str, Any] = {
        "host": "127.0.0.1",
        "port": 0,
        "announce": False,
        "default_pass_timer_s": 0.0,
        "default_turn_timer_s": 0.0,
    }
    if data_dir is not None:
        values["data_dir"] = Path(data_dir)
    values.update(overrides)
    return replace(ServerSettings(), **values)


def _endpoint(reactor: Any, host: str, port: int) -> Any:
    if ":" in host:
        return TCP6ServerEndpoint(reactor, port, interface=host)  # type: ignore[no-untyped-call]
    return TCP4ServerEndpoint(reactor, port, interface=host)  # type: ignore[no-untyped-call]


async def start_server(
    reactor: Any,
    settings: ServerSettings,
    *,
    store: Store | None = None,
) -> RunningServer:
    """Open (or create) the database, restore its tables and listen.

    Works on any running reactor; LAN announcement needs the asyncio reactor and is
    skipped with a warning if it cannot start.
    """
    store = store if store is not None else Store.in_dir(settings.data_dir)
    lobby = Lobby(reactor, settings, store)
    lobby.options.think = lambda f: deferToThreadPool(reactor, reactor.getThreadPool(), f)
    restored = lobby.restore()
    if restored:
        log.info("restored {n} tables from {path}", n=restored, path=store.path)
    factory = ServerFactory(lobby, settings, reactor)
    try:
        listening = await _endpoint(reactor, settings.host, settings.port).listen(factory)
    except Exception:
        for table in lobby.tables.values():
            table.shutdown()
        store.close()
        raise
    address = listening.getHost()
    port = int(address.port)  # type: ignore[attr-defined]
    log.info("listening on {host}:{port}", host=settings.host, port=port)
    server = RunningServer(settings.host, port, lobby, factory, store, listening)
    if settings.announce:
        # In the background: mDNS probing takes seconds and must not delay the first game.
        server.announcing = ensureDeferred(_announce(settings, port, lobby))
        server.announcing.addCallback(lambda a: setattr(server, "announcer", a))
    return server


def _ip(host: str) -> str:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return "0.0.0.0"
    return host


async def _announce(settings: ServerSettings, port: int, lobby: Lobby) -> Any:
    try:
        from leekha.server.discovery import Announcer

        # A server bound to one address announces only there (loopback included, so a
        # `--host 127.0.0.1` server is visible to browsers on this machine alone).
        wildcard = _ip(settings.host) in ("0.0.0.0", "::")
        only = None if wildcard else [_ip(settings.host)]
        announcer = Announcer(
            settings.name,
            port,
            "{}.{}".format(*PROTOCOL_VERSION),
            interfaces=only,
            addresses=only,
        )
        await Deferred.fromFuture(asyncio.ensure_future(announcer.start()))
    except Exception as exc:
        log.warn("not announcing on the LAN: {error}", error=exc)
        return None

    def counts(tables: int, players: int) -> None:
        task = asyncio.ensure_future(announcer.update(tables, players))
        task.add_done_callback(lambda t: t.exception() if not t.cancelled() else None)

    lobby.on_counts = counts
    return announcer
