"""Start and stop a whole server inside an already running reactor.

`leekha serve`, the tests and `leekha play` (an embedded server sharing prompt_toolkit's
asyncio loop) all go through `start_server`, so there is exactly one way to run a server.
A server is a Twisted `MultiService`: one `StreamServerEndpointService` per listening
endpoint (made with `serverFromString`), `TimerService`s for the once-a-minute summary
line and the WAL checkpoints (leekha.server.checkpoint), and the LAN announcer.
`RunningServer.stop` stops the listeners, says goodbye to every connection, stops the
other services and closes the database last.
"""

from __future__ import annotations

import asyncio
import ipaddress
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from twisted.application.internet import StreamServerEndpointService, TimerService
from twisted.application.service import MultiService, Service
from twisted.internet.defer import Deferred, DeferredList, ensureDeferred
from twisted.internet.endpoints import serverFromString
from twisted.internet.interfaces import IReactorFromThreads
from twisted.internet.threads import deferToThreadPool
from twisted.logger import Logger

from leekha.protocol.version import PROTOCOL_VERSION
from leekha.server.checkpoint import Checkpointer
from leekha.server.connection import ServerFactory
from leekha.server.datalock import DataLock
from leekha.server.dbhealth import DatabaseProblem, open_store, problems_line, quick_check
from leekha.server.domain.autopilot import Actions, Done, Failed, Think
from leekha.server.domain.errors import StoreFailed
from leekha.server.domain.lobby import Lobby
from leekha.server.domain.persistence import Store
from leekha.server.listeners import (
    Listener,
    Recorded,
    endpoint_descriptions,
    for_log,
    is_tls,
    start_web,
    tls_description,
    web_is_tls,
)
from leekha.server.reactor import turn_end
from leekha.server.settings import ServerSettings
from leekha.server.stats import SUMMARY_EVERY_S
from leekha.server.tls import Credentials, credentials, with_credentials
from leekha.server.webvalues import PageAddress

if TYPE_CHECKING:
    from leekha.server.reactor import ServerReactor

log = Logger()


def deferred_think(run: Callable[[Callable[[], Actions]], Deferred[Actions]]) -> Think:
    """A runner that answers with a Deferred (the reactor's thread pool) as the domain's
    `Think`: the result goes to `done`, a failure's exception to `failed`."""

    def think(decide_now: Callable[[], Actions], done: Done, failed: Failed) -> None:
        run(decide_now).addCallbacks(done, lambda failure: failed(failure.value))

    return think


class _Announcing(Service):
    """The mDNS announcement as a child service: it starts in the background (probing
    takes seconds and must not delay the first game) and is withdrawn on stop."""

    def __init__(
        self,
        settings: ServerSettings,
        port: int,
        tls: bool,
        lobby: Lobby,
        page: PageAddress | None = None,
    ) -> None:
        self.settings = settings
        self.page = page
        self.port = port
        self.tls = tls
        self.lobby = lobby
        self.announcer: Any = None
        self.starting: Deferred[Any] | None = None

    def startService(self) -> None:
        super().startService()  # type: ignore[no-untyped-call]
        web = self.page.url if self.page is not None else None
        self.starting = ensureDeferred(
            _announce(self.settings, self.port, self.tls, self.lobby, web)
        )
        self.starting.addCallback(lambda a: setattr(self, "announcer", a))

    def stopService(self) -> Deferred[None]:
        super().stopService()  # type: ignore[no-untyped-call]
        return ensureDeferred(self._stop())

    async def _stop(self) -> None:
        if self.starting is not None:
            await self.starting
        if self.announcer is not None:
            try:
                await Deferred.fromFuture(asyncio.ensure_future(self.announcer.stop()))
            except Exception:
                log.failure("stopping the LAN announcement failed")
            self.announcer = None


@dataclass
class RunningServer:
    """A listening server. `port` is the real port of the first listener (useful with
    port 0); `listeners` has them all."""

    host: str
    port: int
    lobby: Lobby
    factory: ServerFactory
    store: Store
    services: MultiService
    listeners: list[Listener]
    tls: Credentials | None = None
    announcing: _Announcing | None = None
    #: The data folder's lock (leekha.server.datalock), held until `stop`.
    lock: DataLock | None = None
    #: The table page's listener (leekha.server.web), None with `web = "off"`.
    web: Listener | None = None
    stopped: bool = field(default=False)
    #: What the start-up quick check of the database found (leekha.server.dbhealth).
    health: list[str] = field(default_factory=list)

    @property
    def page(self) -> PageAddress | None:
        return self.factory.page

    @property
    def all_listeners(self) -> list[Listener]:
        return self.listeners + ([self.web] if self.web is not None else [])

    @property
    def announcer(self) -> Any:
        return self.announcing.announcer if self.announcing is not None else None

    async def stop(self) -> None:
        """Clean shutdown: stop accepting, tell every client, close the database."""
        if self.stopped:
            return
        self.stopped = True
        log.info("shutting down")
        await DeferredList([x.service.stopService() for x in self.all_listeners])
        closing = [c.closed for c in list(self.factory.connections)]
        self.lobby.shutdown("server_shutdown", "the server is shutting down")
        for conn in list(self.factory.connections):  # those still in their handshake too
            conn.kick("server_shutdown", "the server is shutting down")
        self.lobby.outbox.flush()  # commit, then send the goodbyes and close
        if closing:
            await DeferredList(closing)
        await self.services.stopService()
        self.lobby.outbox.flush()
        self.store.close()
        if self.lock is not None:
            self.lock.release()
        log.info("stopped")

    def last_words(self) -> None:
        """The fail-stop (leekha.server.domain.outbox): nothing queued was stored, so every
        connection gets only a last `server_shutdown` error, at once, and is closed."""
        why = "the server cannot write its database and stops; your seat is kept as of "
        why += "the last move you saw confirmed"
        for conn in list(self.factory.connections):
            conn.unqueue(0)
            conn.kick("server_shutdown", why)
        if not self.lobby.closing:
            self.lobby.shutdown("server_shutdown", why)
        for conn in list(self.factory.connections):
            conn.write_out()

    async def abandon(self) -> None:
        """Vanish as a crash would: no goodbye, no flush (tests use it to simulate kill -9)."""
        self.stopped = True
        self.lobby.outbox.stop()  # what was not committed yet is lost, as in a crash
        self.lobby.tournaments.shutdown()
        await DeferredList([x.service.stopService() for x in self.all_listeners])
        for table in self.lobby.tables.values():
            table.shutdown()
        for session in self.lobby.sessions.values():
            if session.expiry is not None and session.expiry.active():
                session.expiry.cancel()
        for conn in list(self.factory.connections):
            conn.abort()
        await self.services.stopService()
        if self.lock is not None:  # the kernel lets go of a killed process's lock
            self.lock.release()


def local_settings(data_dir: Path | None = None, **overrides: Any) -> ServerSettings:
    """Settings for an embedded server (`leekha play`): loopback only, any free port, no
    LAN announcement, untimed turns; `overrides` are ServerSettings field names."""
    values: dict[str, Any] = {
        "host": "127.0.0.1",
        "port": 0,
        "announce": False,
        "default_pass_timer_s": 0.0,
        "default_turn_timer_s": 0.0,
        "web": "off",
    }
    if data_dir is not None:
        values["data_dir"] = Path(data_dir)
    values.update(overrides)
    return replace(ServerSettings(), **values)


async def start_server(
    reactor: ServerReactor,
    settings: ServerSettings,
    *,
    store: Store | None = None,
    lock: DataLock | None = None,
    page: Path | None = None,
) -> RunningServer:
    """Open (or create) the database, restore its tables and listen.

    Works on any running reactor; LAN announcement needs the asyncio reactor and is
    skipped with a warning if it cannot start. `lock` is the data folder's lock when the
    caller already holds it (`leekha play` takes it before it reads the folder); the
    server then keeps it and lets go of it when it stops, as of a lock of its own.
    `page` is the table page's folder (leekha.server.web), given by the composition root.
    """
    descriptions = endpoint_descriptions(settings)
    creds: Credentials | None = None
    if any(is_tls(d) for d in descriptions) or (settings.web != "off" and web_is_tls(settings)):
        creds = credentials(settings.data_dir, settings.tls_cert, settings.tls_key)
    if store is None:  # one server per data folder (DataDirInUse if another has it)
        if lock is None:
            lock = DataLock(settings.data_dir).acquire()
        try:
            store = open_store(settings.data_dir)
        except BaseException:
            lock.release()
            raise
    else:
        lock = None  # the caller's store, in no folder of ours
    try:
        try:
            lobby = Lobby(reactor, settings, store)
            lobby.outbox.soon = turn_end(reactor)
            # Twisted types the reactor as a zope interface, which a Protocol cannot match.
            threads = cast(IReactorFromThreads, reactor)
            lobby.options.think = deferred_think(
                lambda f: deferToThreadPool(threads, reactor.getThreadPool(), f)
            )
            restored = lobby.restore()
        except StoreFailed as exc:
            raise DatabaseProblem(Path(store.path), f'SQLite says "{exc.cause}"') from None
        except sqlite3.Error as exc:  # the lobby's own rows: nothing can be served
            raise DatabaseProblem(Path(store.path), f'SQLite says "{exc}"') from None
    except BaseException:
        if lock is not None:  # a store of our own
            store.close()
            lock.release()
        raise
    if restored:
        log.info("restored {n} tables from {path}", n=restored, path=store.path)
    health: list[str] = []
    if lock is not None:  # our own data folder: check what the restore did not read
        health = quick_check(Path(store.path))
        for problem in health:
            log.error("database damaged: {problem}", problem=problem)
        if health:
            log.error("{line}", line=problems_line(Path(store.path), health))
    factory = ServerFactory(lobby, settings, reactor)
    services = MultiService()
    listeners: list[Listener] = []
    recorded: list[tuple[str, bool, Recorded, StreamServerEndpointService]] = []
    try:
        for description in descriptions:
            tls = is_tls(description)
            full = description
            if tls and creds is not None:
                full = with_credentials(tls_description(description), creds)
            endpoint = Recorded(serverFromString(reactor, full))
            service = StreamServerEndpointService(endpoint, factory)
            service.setServiceParent(services)
            recorded.append((description, tls, endpoint, service))
        timer = TimerService(SUMMARY_EVERY_S, factory.summary)
        timer.clock = reactor
        timer.setServiceParent(services)
        if store.path != ":memory:":
            Checkpointer(reactor, store).setServiceParent(services)  # type: ignore[no-untyped-call]
        services.startService()
        for description, tls, endpoint, service in recorded:
            port = await endpoint.ready
            address: Any = port.getHost()  # type: ignore[misc]
            number = int(address.port)
            interface = str(getattr(address, "host", ""))
            listeners.append(Listener(for_log(description), number, tls, service, interface))
        web = await start_web(reactor, settings, factory, services, listeners, creds, page)
    except Exception:
        await services.stopService()
        for table in lobby.tables.values():
            table.shutdown()
        store.close()
        if lock is not None:
            lock.release()
        raise
    for listener in listeners:
        # At debug: `leekha serve` prints its "listening on" lines itself (stdout, for
        # scripts), and the same line twice on a terminal reads as two servers.
        log.debug(
            "listening on {endpoint} (port {port}{tls})",
            endpoint=listener.description,
            port=listener.port,
            tls=", TLS" if listener.tls else "",
        )
    if creds is not None:
        log.info(
            "TLS certificate {path} ({kind}), SHA-256 fingerprint {fp}",
            path=creds.cert,
            kind="self-signed" if creds.self_signed else "the operator's",
            fp=creds.fingerprint,
        )
    first = listeners[0]
    server = RunningServer(
        settings.host,
        first.port,
        lobby,
        factory,
        store,
        services,
        listeners,
        creds,
        lock=lock,
        web=web,
    )
    server.health = health
    lobby.outbox.on_failing = server.last_words
    if settings.announce:
        # Announce the first TLS listener if there is one, else the first listener.
        shown = next((x for x in listeners if x.tls), first)
        server.announcing = _Announcing(settings, shown.port, shown.tls, lobby, factory.page)
        server.announcing.setServiceParent(services)  # type: ignore[no-untyped-call]
    return server


def _ip(host: str) -> str:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return "0.0.0.0"
    return host


async def _announce(
    settings: ServerSettings,
    port: int,
    tls: bool,
    lobby: Lobby,
    web: Callable[[str], str] | None = None,
) -> Any:
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
            tls=tls,
            web=web,
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
