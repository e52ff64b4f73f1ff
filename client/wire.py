"""One connection of a client session: its bytes through the sans-IO `Connection`.

`SessionProtocol` is the Twisted protocol `ClientService` dials; it owns nothing but the
connection's `leekha.protocol.Connection` and hands every event to its session
(`SessionHooks`, which client/session.py's `ClientSession` is): greeting, data heard,
each message, and why and when the connection ended.
"""

from __future__ import annotations

import itertools
from typing import Protocol as Interface
from typing import cast

from twisted.internet import defer, error
from twisted.internet.protocol import Protocol
from twisted.logger import Logger
from twisted.python.failure import Failure

from leekha import protocol as P
from leekha.client.dialing import ConnectFailed, Target
from leekha.client.i18n import _

__all__ = ["TLS_RECORD_STARTS", "SessionHooks", "SessionProtocol"]

log = Logger()

_DONE = Failure(error.ConnectionDone())  # type: ignore[no-untyped-call]

#: The first bytes of a TLS record (handshake or alert, TLS 1.0-1.3 framing).
TLS_RECORD_STARTS = (b"\x15\x03", b"\x16\x03")


class _Transport(Interface):
    """What a connection asks of Twisted's transport (ITCPTransport, zope-typed, which
    mypy cannot read as a structural type without the zope plugin)."""

    def write(self, data: bytes) -> None: ...
    def loseConnection(self) -> None: ...
    def abortConnection(self) -> None: ...


class SessionHooks(Interface):
    """What a connection needs of its session (client.session.ClientSession)."""

    name: str
    target: Target
    #: One id counter for all the session's connections.
    ids: itertools.count[int]

    def greet(self, proto: SessionProtocol) -> None: ...
    def heard(self) -> None: ...
    def received(self, proto: SessionProtocol, msg: P.Message) -> None: ...
    def why_lost(self, proto: SessionProtocol, reason: Failure) -> Exception: ...
    def lost(self, proto: SessionProtocol, reason: Failure) -> None: ...


class SessionProtocol(Protocol):
    """One connection of a session: bytes through its `Connection`, events to the session."""

    def __init__(self, session: SessionHooks) -> None:
        self.session = session
        self.conn = P.Connection("client", ids=session.ids)
        self.welcomed: defer.Deferred[P.Welcome] = defer.Deferred()
        self.welcome: P.Welcome | None = None
        self.heard = False
        self.failed = False

    def connectionMade(self) -> None:
        # Frames are small and each waits on a person or a bot: Nagle plus delayed ACKs
        # would hold a move back ~40 ms per round trip (protocol.md section 9).
        set_nodelay = getattr(self.transport, "setTcpNoDelay", None)
        if set_nodelay is not None:
            set_nodelay(True)
        # Over TLS this is held back until the handshake (and so the certificate) passed.
        self.session.greet(self)

    def dataReceived(self, data: bytes) -> None:
        first = not self.heard
        self.heard = True
        self.session.heard()
        try:
            messages = self.conn.receive_data(data)
        except P.ProtocolError as exc:
            if first and data.startswith(TLS_RECORD_STARTS) and not self.session.target.tls:
                self.fail(ConnectFailed(_("the server speaks TLS: join with --tls")))
            else:
                log.warn("{who}: bad data from the server: {err}", who=self.session.name, err=exc)
            self.abort()
            return
        self.write(self.conn.data_to_send())  # pongs
        for msg in messages:
            if self.failed:
                break
            self.session.received(self, msg)

    def connectionLost(self, reason: Failure = _DONE) -> None:
        self.conn.connection_lost()
        self.fail(self.session.why_lost(self, reason))
        self.session.lost(self, reason)

    def send(self, msg: P.Message, note: object = None) -> None:
        self.write(self.conn.send(msg, note=note))

    @property
    def _transport(self) -> _Transport | None:
        return cast(_Transport | None, self.transport)

    def write(self, data: bytes) -> None:
        transport = self._transport
        if data and transport is not None:
            transport.write(data)

    def fail(self, exc: Exception) -> None:
        """End the handshake of this connection with `exc` (no-op once welcomed)."""
        self.failed = True
        if not self.welcomed.called:
            self.welcomed.errback(exc)

    def hang_up(self) -> None:
        transport = self._transport
        if transport is not None:
            transport.loseConnection()

    def abort(self) -> None:
        transport = self._transport
        if transport is not None:
            transport.abortConnection()
