"""One resumable session with one server, for every client (terminal, bot).

A player's seat belongs to a session, not to a TCP connection: Wi-Fi drops, a laptop
sleeps, a client crashes. This module keeps the session going across connections:

- the wire rules (hello, versions, pings, ids) are `leekha.protocol.Connection`'s;
- reconnecting is Twisted's `ClientService` with a back-off policy. The handshake is the
  protocol's, on top of a connection the service calls made: its `prepareConnection` step
  cannot refuse a connection and then close it (the service has no transition for a
  connection lost while it connects or waits to retry), and a refused hello must close
  it. The back-off counts failures until a welcome, so a server that hangs up during the
  handshake is not redialled at once;
- the session token is kept (in memory, and on disk with a `TokenStore`), so a new
  connection, or a new process, resumes the same seat;
- `Target.tls` wraps the endpoint in Twisted's TLS with `client.trust`'s certificate check.

The first connection is not retried: a bad address or a refused hello fails fast with one
sentence for the player (`ConnectFailed`); later drops are retried until `close()`. Bytes
are `client.wire`'s; where to dial, the back-off and failures in words `client.dialing`'s.
"""

from __future__ import annotations

import base64
import itertools
from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from twisted.application.internet import ClientService
from twisted.internet import defer, error, task
from twisted.internet.endpoints import HostnameEndpoint, wrapClientTLS
from twisted.internet.interfaces import (
    IOpenSSLClientConnectionCreator,
    IProtocolFactory,
    IReactorTime,
    IStreamClientEndpoint,
)
from twisted.internet.protocol import Factory
from twisted.logger import Logger
from twisted.python.failure import Failure

from leekha import protocol as P
from leekha.client.dialing import (
    ConnectFailed,
    Fatal,
    RetryPolicy,
    Target,
    dial_error,
    plain_reason,
    retry_policy,
)
from leekha.client.i18n import _
from leekha.client.identity import Identity
from leekha.client.tokens import TokenStore
from leekha.client.trust import KnownHosts, TrustingCreator, first_contact_notice
from leekha.client.wire import SessionProtocol
from leekha.protocol.auth import challenge_payload
from leekha.protocol.connection import Pending

if TYPE_CHECKING:
    from leekha.protocol.reactor import DelayedCall, ReactorTime

__all__ = [
    "ClientSession",
    "ConnectFailed",
    "RetryPolicy",
    "SessionProtocol",
    "Target",
    "dial_error",
    "plain_reason",
    "retry_policy",
]

log = Logger()

VERSIONS = [list(v) for v in P.SUPPORTED_VERSIONS]


class ClientSession:
    """A resumable session with one server. `connect()` once, then `send` until `close()`.

    Callbacks: `on_message` gets every server message after the handshake (the welcome
    included); `on_lost(why)` a dropped connection that will be retried; `on_retry(attempt,
    delay)` each scheduled retry; `on_failed(why)` the end of a session that cannot go on;
    `on_notice(text)` something to show the player (first TLS contact); `on_refused(error)`
    a refused hello: return another name to try, or None to give up.
    """

    def __init__(
        self,
        reactor: ReactorTime,
        target: Target,
        name: str,
        *,
        client: str,
        on_message: Callable[[P.Message], None],
        on_lost: Callable[[str], None] = lambda _why: None,
        on_retry: Callable[[int, float], None] = lambda _n, _d: None,
        on_failed: Callable[[str], None] = lambda _why: None,
        on_notice: Callable[[str], None] = lambda _text: None,
        on_refused: Callable[[P.Error], str | None] = lambda _e: None,
        tokens: TokenStore | None = None,
        identity: Identity | None = None,
        known_hosts: KnownHosts | None = None,
        retry: RetryPolicy | None = None,
        connect_timeout: float = 5.0,
        dead_after: float = 75.0,
    ) -> None:
        self.reactor = reactor
        # The reactor as Twisted's APIs type it (zope interfaces: no Protocol matches).
        self._clock = cast(IReactorTime, reactor)
        self.target = target
        self.name = name
        self.wanted_name = name
        self.client = client
        self.on_message = on_message
        self.on_lost = on_lost
        self.on_retry = on_retry
        self.on_failed = on_failed
        self.on_notice = on_notice
        self.on_refused = on_refused
        self.tokens = tokens
        #: With an identity the hello carries its key and the name is proved (1.2).
        self.identity = identity
        self.retry = retry or retry_policy()
        self.connect_timeout = connect_timeout
        self.dead_after = dead_after
        #: One id counter for all the session's connections, so a reply can never be
        #: mistaken for the answer to a request of an earlier connection.
        self.ids = itertools.count(1)
        self.token: str | None = tokens.get(target.server, name) if tokens is not None else None
        self.proto: SessionProtocol | None = None
        self.resumes = 0
        self.ever_online = False
        self.closing = False
        self._creator: TrustingCreator | None = None
        if target.tls:
            self._creator = TrustingCreator(
                target.host, target.server, known_hosts or KnownHosts(), pin=target.pin
            )
        self._service: ClientService | None = None
        self._first: defer.Deferred[P.Welcome] | None = None
        self._failures = 0  # connections lost or refused since the last welcome
        self._watchdog: DelayedCall | None = None

    # ---- public ------------------------------------------------------------------------
    @property
    def online(self) -> bool:
        return self.proto is not None

    @property
    def version(self) -> tuple[int, int] | None:
        return self.proto.conn.version if self.proto is not None else None

    @property
    def fingerprint(self) -> str | None:
        """The TLS certificate fingerprint of the current connection (None: not TLS, or
        offline): what an invitation line carries."""
        if self._creator is None or self.proto is None:
            return None
        verdict = self._creator.verdict(self.proto.transport)
        return verdict.fingerprint if verdict is not None and verdict.fingerprint else None

    def connect(self) -> defer.Deferred[P.Welcome]:
        """Connect and handshake; fails with ConnectFailed (plain words) if the first try does."""
        factory = Factory.forProtocol(lambda: SessionProtocol(self))
        factory.noisy = False  # no "Starting factory" line per connection
        self._service = ClientService(
            self._endpoint(),
            cast(IProtocolFactory, factory),  # zope-declared: see _endpoint
            retryPolicy=self._policy,
            clock=self._clock,
        )
        self._first = defer.Deferred()
        self._service.startService()
        # Only a failure to connect matters here (refused, unknown host, timeout): success
        # is the welcome, which `_welcomed` passes on.
        self._service.whenConnected(failAfterFailures=1).addErrback(self._first_failed)
        return self._first

    def new_id(self) -> int:
        return next(self.ids)

    def send(self, msg: P.Message, note: object = None) -> bool:
        """Send when online; False when the link is down (the request is dropped)."""
        if self.proto is None:
            log.debug("not sent while offline: {type}", type=msg.TYPE)
            return False
        self.proto.send(msg, note)
        return True

    def answered(self, reply: P.Message) -> Pending | None:
        """The request (and its note) that `reply` answers, while its batch is handled."""
        return self.proto.conn.answered(reply) if self.proto is not None else None

    def close(self) -> defer.Deferred[None]:
        """Hang up for good; fires once the connection is closed. The token is kept."""
        return self._stop()

    def drop(self) -> None:
        """Cut the link as a network failure would (tests, and the dead-peer watchdog)."""
        if self.proto is not None:
            self.proto.abort()

    # ---- connecting --------------------------------------------------------------------
    def _endpoint(self) -> IStreamClientEndpoint:
        t = self.target
        # Twisted's classes declare their interfaces with zope's @implementer, which mypy
        # cannot see without the zope plugin: name the interface each one provides.
        host = t.host.encode("idna")
        dial = HostnameEndpoint(self.reactor, host, t.port, timeout=self.connect_timeout)
        tcp = cast(IStreamClientEndpoint, dial)
        if self._creator is None:
            return tcp
        return wrapClientTLS(cast(IOpenSSLClientConnectionCreator, self._creator), tcp)

    def _policy(self, _attempt: int) -> float:
        """ClientService's delay before the next dial, counted from the last welcome."""
        self._failures += 1
        delay = float(self.retry(self._failures))
        if self.ever_online and not self.closing:  # a first connection is never retried
            self.on_retry(self._failures, delay)
        return delay

    def greet(self, proto: SessionProtocol) -> None:
        if self.closing:
            proto.hang_up()
            return
        proto.welcomed.addCallbacks(
            lambda w: self._welcomed(proto, w), lambda f: self._not_welcomed(proto, f)
        )
        self._hello(proto)

    def _hello(self, proto: SessionProtocol) -> None:
        rid = next(self.ids)
        if self.token is not None:
            proto.send(P.Resume(id=rid, versions=VERSIONS, token=self.token))
        else:
            key = self.identity.public_key if self.identity is not None else None
            hello = P.Hello(id=rid, versions=VERSIONS, name=self.name, client=self.client, key=key)
            proto.send(hello)

    def _handshake(self, proto: SessionProtocol, msg: P.Message) -> None:
        if isinstance(msg, P.Welcome):
            proto.welcome = msg
            proto.welcomed.callback(msg)
        elif isinstance(msg, P.Challenge) and self.identity is not None:
            proto.send(P.Prove(re=msg.re, signature=self._sign(msg)))
        elif isinstance(msg, P.Error) and proto.conn.state is P.State.AWAITING_HELLO:
            self._refused(proto, msg)
        elif isinstance(msg, P.Error):
            proto.fail(Fatal(_("the server refused us: {why}").format(why=msg.message)))

    def _sign(self, challenge: P.Challenge) -> str:
        """Our answer to a key challenge: the signed bytes are protocol.auth's."""
        assert self.identity is not None
        nonce = base64.b64decode(challenge.nonce)
        payload = challenge_payload(challenge.server, self.name, self.identity.public_key, nonce)
        return base64.b64encode(self.identity.sign(payload)).decode("ascii")

    def _refused(self, proto: SessionProtocol, msg: P.Error) -> None:
        if msg.code == "bad_token" and self.token is not None:
            log.info("{who}: the old session has expired; starting a new one", who=self.name)
            self._forget_token()
            self._hello(proto)
            return
        other = self.on_refused(msg)
        if other is not None:
            self.name = other
            self._hello(proto)
            return
        proto.fail(
            Fatal(_("the server refused {name}: {why}").format(name=self.name, why=msg.message))
        )

    def _welcomed(self, proto: SessionProtocol, welcome: P.Welcome) -> P.Welcome:
        self.proto = proto
        self.ever_online = True
        self._failures = 0
        self.token = welcome.token
        self.name = welcome.name
        if welcome.resumed:
            self.resumes += 1
        if self.tokens is not None:
            self.tokens.put(self.target.server, self.wanted_name, welcome.token)
        self._notice_trust(proto)
        self._feed_watchdog()
        self.on_message(welcome)
        first, self._first = self._first, None
        if first is not None:
            first.callback(welcome)
        return welcome

    def _not_welcomed(self, proto: SessionProtocol, failure: Failure) -> None:
        """A connection ended before its welcome. The first one is not retried, nor one
        that retrying cannot fix; otherwise the lost connection makes the service redial."""
        proto.abort()
        fatal = isinstance(failure.value, Fatal)
        if self.closing or (self.ever_online and not fatal):
            return
        first, self._first = self._first, None
        self._stop()
        if first is not None:
            first.errback(failure)
        else:
            self.on_failed(str(failure.value))

    def _notice_trust(self, proto: SessionProtocol) -> None:
        verdict = self._creator.verdict(proto.transport) if self._creator is not None else None
        if verdict is not None and verdict.how == "first":
            self.on_notice(first_contact_notice(self.target.server, verdict.fingerprint))

    def why_lost(self, proto: SessionProtocol, reason: Failure) -> Exception:
        """Why a connection ended before its welcome, in words for the player."""
        verdict = self._creator.verdict(proto.transport) if self._creator is not None else None
        if verdict is not None and verdict.error is not None:
            return Fatal(str(verdict.error))
        if self.closing:
            return ConnectFailed(_("the connection closed during the handshake"))
        if not proto.heard and self.target.tls and (verdict is None or verdict.how is None):
            return ConnectFailed(
                _("the TLS handshake failed (is the server serving TLS? try without --tls)")
            )
        if not proto.heard and isinstance(
            reason.value, error.ConnectionDone | error.ConnectionLost
        ):
            return ConnectFailed(
                _("the server hung up without answering (if it serves TLS, join with --tls)")
            )
        return ConnectFailed(_("the handshake failed: {why}").format(why=plain_reason(reason)))

    def _first_failed(self, failure: Failure) -> None:
        first, self._first = self._first, None
        if first is None or first.called:
            return  # stopped on purpose, or welcomed already
        self._stop()
        if not isinstance(failure.value, ConnectFailed):
            why = plain_reason(failure)
            failure = Failure(  # type: ignore[no-untyped-call]
                ConnectFailed(
                    _("cannot connect to {where}: {why}").format(where=self.target, why=why)
                )
            )
        first.errback(failure)

    # ---- connected ---------------------------------------------------------------------
    def received(self, proto: SessionProtocol, msg: P.Message) -> None:
        if proto is not self.proto:
            self._handshake(proto, msg)
            return
        if not isinstance(msg, P.Ping):  # answered by the Connection already
            self.on_message(msg)

    def heard(self) -> None:
        if self.proto is not None:
            self._feed_watchdog()

    def lost(self, proto: SessionProtocol, reason: Failure) -> None:
        if proto is not self.proto:
            return
        self.proto = None
        self._cancel_watchdog()
        if not self.closing:
            self.on_lost(plain_reason(reason))

    def _stop(self) -> defer.Deferred[None]:
        """Stop the ClientService on the next turn: this may run inside one of its own
        transitions (a first dial that failed), which must finish first."""
        self.closing = True
        self._cancel_watchdog()
        if self._service is None:
            return defer.succeed(None)
        service, self._service = self._service, None
        turn: defer.Deferred[None] = task.deferLater(self._clock, 0, lambda: None)
        return turn.addCallback(lambda _: service.stopService())

    def _forget_token(self) -> None:
        self.token = None
        if self.tokens is not None:
            self.tokens.forget(self.target.server, self.wanted_name)

    # ---- the dead-peer watchdog --------------------------------------------------------
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
