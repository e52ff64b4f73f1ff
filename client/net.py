"""The client's network side: one logical session that survives dropped TCP connections.

`Session` owns the handshake (hello, or resume with the token from the last welcome), the
keepalive answers, and reconnection with exponential backoff and jitter. The model above it
only sees protocol messages and three connection events, so a dropped Wi-Fi link at a LAN
party shows "reconnecting…" and then the same seat again, with no work in the UI.

Framing (leekha.protocol's sans-IO Decoder/encode, TCP_NODELAY) is client/wire.py's,
shared with the bot client; Twisted does the sockets. The first connection is not
retried: a bad address should fail fast with a clear message.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from twisted.internet import defer
from twisted.internet.endpoints import HostnameEndpoint
from twisted.logger import Logger
from twisted.python.failure import Failure

from leekha import protocol as P
from leekha.client.tui.model import CLIENT_NAME
from leekha.client.wire import ConnectFailed as ConnectFailed
from leekha.client.wire import FrameWire, WireFactory, plain_reason

log = Logger()

VERSIONS = [list(v) for v in P.SUPPORTED_VERSIONS]
HANDSHAKE_ID_BASE = 2**30


@dataclass
class Backoff:
    """Reconnect delays: doubling from `first` up to `cap`, each with ±`jitter` spread."""

    first: float = 0.25
    cap: float = 8.0
    jitter: float = 0.2
    rng: random.Random | None = None

    def delay(self, attempt: int) -> float:
        base = min(self.cap, self.first * (2 ** max(0, attempt - 1)))
        rng = self.rng or random
        return float(base * (1 + self.jitter * (2 * rng.random() - 1)))


class Session:
    """A resumable session with one server."""

    def __init__(
        self,
        reactor: Any,
        host: str,
        port: int,
        name: str,
        *,
        on_message: Callable[[P.Message], None],
        on_lost: Callable[[str], None] = lambda _why: None,
        on_retry: Callable[[int, float], None] = lambda _n, _d: None,
        backoff: Backoff | None = None,
        connect_timeout: float = 5.0,
        dead_after: float = 75.0,
    ) -> None:
        self.reactor = reactor
        self.host = host
        self.port = port
        self.name = name
        self.on_message = on_message
        self.on_lost = on_lost
        self.on_retry = on_retry
        self.backoff = backoff or Backoff()
        self.connect_timeout = connect_timeout
        self.dead_after = dead_after
        self.token: str | None = None
        self.wire: FrameWire | None = None
        self.online = False
        self.closing = False
        self.attempt = 0
        self.resumes = 0
        self._hs_id = HANDSHAKE_ID_BASE
        self._hs_count = 0
        self._retry: Any = None  # IDelayedCall
        self._watchdog: Any = None  # IDelayedCall
        self._welcome: defer.Deferred[P.Welcome] | None = None
        self._closed: defer.Deferred[None] = defer.Deferred()

    # ---- public ------------------------------------------------------------------------
    def connect(self) -> defer.Deferred[P.Welcome]:
        """Connect and handshake; fails with ConnectFailed(plain words) on a bad address."""
        self._welcome = defer.Deferred()
        d = self._dial()
        d.addErrback(self._first_failed)
        return self._welcome

    def send(self, msg: P.Message) -> bool:
        """Send when online; False when the link is down (the request is dropped)."""
        if self.wire is None or not self.online:
            log.debug("not sent while offline: {type}", type=msg.TYPE)
            return False
        self.wire.send(msg)
        return True

    def close(self) -> defer.Deferred[None]:
        """Hang up for good; fires once the connection is closed."""
        self.closing = True
        self._cancel_timers()
        transport: Any = self.wire.transport if self.wire is not None else None
        if transport is not None:
            transport.loseConnection()
            return self._closed
        return defer.succeed(None)

    def drop(self) -> None:
        """Cut the link as a network failure would (tests, and the dead-peer watchdog)."""
        if self.wire is not None:
            self.wire.abort()

    # ---- internals ---------------------------------------------------------------------
    def _dial(self) -> defer.Deferred[Any]:
        endpoint = HostnameEndpoint(
            self.reactor, self.host.encode("idna"), self.port, timeout=self.connect_timeout
        )
        factory: Any = WireFactory(lambda: FrameWire(self._made, self._received, self._lost))
        return endpoint.connect(factory)

    def _first_failed(self, failure: Failure) -> None:
        where = f"{self.host}:{self.port}"
        self._fail_welcome(ConnectFailed(f"cannot connect to {where}: {plain_reason(failure)}"))

    def _fail_welcome(self, exc: Exception) -> None:
        d, self._welcome = self._welcome, None
        if d is not None:
            d.errback(exc)

    def _made(self, wire: FrameWire) -> None:
        self.wire = wire
        # Handshake ids live far above the model's request ids so replies never mix.
        self._hs_count += 1
        self._hs_id = HANDSHAKE_ID_BASE + self._hs_count
        self._feed_watchdog()
        if self.token is not None:
            wire.send(P.Resume(id=self._hs_id, versions=VERSIONS, token=self.token))
        else:
            self._hello(wire)

    def _hello(self, wire: FrameWire) -> None:
        wire.send(P.Hello(id=self._hs_id, versions=VERSIONS, name=self.name, client=CLIENT_NAME))

    def _received(self, wire: FrameWire, msg: P.Message) -> None:
        if wire is not self.wire:
            return
        self._feed_watchdog()
        if isinstance(msg, P.Ping):
            wire.send(P.Pong(re=msg.id))
            return
        if isinstance(msg, P.Pong):
            return
        if not self.online:
            if isinstance(msg, P.Welcome):
                self.online = True
                self.token = msg.token
                self.name = msg.name
                if msg.resumed:
                    self.resumes += 1
                self.attempt = 0
                d, self._welcome = self._welcome, None
                self.on_message(msg)
                if d is not None:
                    d.callback(msg)
                return
            if isinstance(msg, P.Error) and msg.re == self._hs_id:
                if msg.code == "bad_token" and self.token is not None:
                    log.info("session expired; starting a new one")
                    self.token = None
                    self._hello(wire)
                    return
                self._fail_welcome(ConnectFailed(f"the server refused us: {msg.message}"))
                self.closing = True
                wire.hang_up()
                return
        self.on_message(msg)

    def _lost(self, wire: FrameWire, reason: Failure) -> None:
        if wire is not self.wire:
            return
        self.wire = None
        was_online = self.online
        self.online = False
        self._cancel_watchdog()
        if self.closing:
            self._closed.callback(None)
            self._closed = defer.Deferred()
            if self._welcome is not None:
                self._fail_welcome(ConnectFailed("the connection closed during the handshake"))
            return
        if not was_online and self.token is None:
            # Never got in: treat like a failed first connection.
            self._fail_welcome(ConnectFailed(f"the handshake failed: {plain_reason(reason)}"))
            return
        self.on_lost(plain_reason(reason))
        self._schedule()

    def _schedule(self) -> None:
        self.attempt += 1
        delay = self.backoff.delay(self.attempt)
        self.on_retry(self.attempt, delay)
        self._retry = self.reactor.callLater(delay, self._again)

    def _again(self) -> None:
        self._retry = None
        if self.closing:
            return
        d = self._dial()
        d.addErrback(lambda _f: self._schedule() if not self.closing else None)

    def _feed_watchdog(self) -> None:
        if self._watchdog is not None and self._watchdog.active():
            self._watchdog.reset(self.dead_after)
        else:
            self._watchdog = self.reactor.callLater(self.dead_after, self._dead)

    def _dead(self) -> None:
        self._watchdog = None
        log.info("no word from the server for {s}s; reconnecting", s=self.dead_after)
        self.drop()

    def _cancel_watchdog(self) -> None:
        if self._watchdog is not None and self._watchdog.active():
            self._watchdog.cancel()
        self._watchdog = None

    def _cancel_timers(self) -> None:
        self._cancel_watchdog()
        if self._retry is not None and self._retry.active():
            self._retry.cancel()
        self._retry = None
