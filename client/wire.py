"""The framed TCP link both clients share: bytes in, protocol messages out, and back.

The terminal client (net.Session) and the bot client (botnet.BotClient) differ in what
they do with messages, but not in how a connection carries them. Keeping that one piece
here means the framing rules of docs/protocol.md section 1 and its checklist (TCP_NODELAY,
hang up on a protocol error) are applied once, the same way for every client.

A `FrameWire` does not know its owner: it reports "connected", each decoded message and
"lost" through callbacks that receive the wire itself, so an owner can ignore a stale
connection's late events by comparing it with the wire it currently holds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from twisted.internet import defer, error
from twisted.internet.interfaces import IAddress, IConnector
from twisted.internet.protocol import ClientFactory, Protocol
from twisted.logger import Logger
from twisted.python.failure import Failure

from leekha import protocol as P

log = Logger()

_DONE = Failure(error.ConnectionDone())  # type: ignore[no-untyped-call]


class FrameWire(Protocol):
    """One TCP connection to a Leekha server, speaking whole protocol messages."""

    def __init__(
        self,
        on_made: Callable[[FrameWire], None],
        on_message: Callable[[FrameWire, P.Message], None],
        on_lost: Callable[[FrameWire, Failure], None],
        *,
        label: str = "",
    ) -> None:
        self.on_made = on_made
        self.on_message = on_message
        self.on_lost = on_lost
        self.label = label  # who is talking, for the log line about bad data
        self.decoder = P.Decoder(peer="server")

    def connectionMade(self) -> None:
        # Frames are small and each waits on a person or a bot: Nagle plus delayed ACKs
        # would hold a move back ~40 ms per round trip (protocol.md section 9).
        transport: Any = self.transport
        set_nodelay = getattr(transport, "setTcpNoDelay", None)
        if set_nodelay is not None:
            set_nodelay(True)
        self.on_made(self)

    def dataReceived(self, data: bytes) -> None:
        try:
            messages = self.decoder.feed(data)
        except P.ProtocolError as exc:
            # The decoder refuses all later input once it has failed, so the link is
            # useless: hang up and let the owner's reconnect logic start clean.
            who = f"{self.label}: " if self.label else ""
            log.warn("{who}bad data from the server: {err}", who=who, err=exc)
            self.hang_up()
            return
        for msg in messages:
            self.on_message(self, msg)

    def connectionLost(self, reason: Failure = _DONE) -> None:
        self.on_lost(self, reason)

    def send(self, msg: P.Message) -> None:
        # Twisted's interfaces are zope-typed; mypy without the zope plugin needs Any.
        transport: Any = self.transport
        if transport is not None:
            transport.write(P.encode(msg))

    def hang_up(self) -> None:
        """Close after pending writes are flushed (a clean close, not an abort)."""
        transport: Any = self.transport
        if transport is not None:
            transport.loseConnection()

    def abort(self) -> None:
        """Cut the link at once, as a network failure would."""
        transport: Any = self.transport
        if transport is not None:
            transport.abortConnection()


class WireFactory(ClientFactory):
    """Builds one FrameWire per dial; also reports a dial that never connected.

    Works both with `reactor.connectTCP` (which calls clientConnectionFailed) and with
    endpoints (which fail their Deferred instead and never call it).
    """

    noisy = False  # one factory per dial: "Starting factory" lines would be pure noise

    def __init__(
        self,
        build: Callable[[], FrameWire],
        on_failed: Callable[[Failure], None] | None = None,
    ) -> None:
        self.build = build
        self.on_failed = on_failed

    def buildProtocol(self, addr: IAddress | None) -> FrameWire:
        return self.build()

    def clientConnectionFailed(self, connector: IConnector, reason: Failure) -> None:
        if self.on_failed is not None:
            self.on_failed(reason)


def plain_reason(reason: BaseException | Failure | None) -> str:
    """A connection failure in words a player or an operator understands."""
    exc = reason.value if isinstance(reason, Failure) else reason
    if isinstance(exc, error.ConnectionRefusedError):
        return "connection refused (is a Leekha server running there?)"
    if isinstance(exc, error.DNSLookupError):
        return "unknown host name"
    if isinstance(exc, error.TimeoutError | defer.TimeoutError):
        return "no answer (timed out)"
    if isinstance(exc, error.ConnectionDone):
        return "the server closed the connection"
    if isinstance(exc, error.ConnectionLost):
        return "the connection was lost"
    if isinstance(exc, error.NoRouteError):
        return "no route to that host"
    text = str(exc).strip() if exc is not None else ""
    return text or "the connection failed"


class ConnectFailed(Exception):
    """The first connection failed; the message is meant for a person (player or operator)."""
