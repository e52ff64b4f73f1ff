"""The page's HTTP connections, below Twisted's HTTP and WebSocket layers: what one may
cost the server before and after it becomes a WebSocket (leekha.server.websocket).

A connection of the page's listener is a game connection as far as the address's limits
go (`MeteredFactory`: the new-connection rate, the penalty box, the open-connection caps
of leekha.server.domain.limits, the very counter the game port uses), and a slow HTTP
client meets the game port's frame deadline; `Metered` counts its bytes, and once it is
a WebSocket, those of the message begun (the frame limit) and the WebSocket layer's own
writes (its pongs, which count against the output cap).
"""

from __future__ import annotations

from typing import Any
from typing import Protocol as Structural

from twisted.internet.interfaces import IAddress
from twisted.internet.protocol import Protocol, connectionDone
from twisted.logger import Logger
from twisted.protocols.policies import ProtocolWrapper, WrappingFactory
from twisted.python.failure import Failure

from leekha.server.connection import RATE_WORDS
from leekha.server.domain.timers import Pending
from leekha.server.transport import Host

log = Logger()

#: Bytes an HTTP connection may send before it is upgraded (or in all, if never): requests
#: for the page's files are a few hundred bytes each; a request body is of no use here.
HTTP_ALLOWANCE = 1 << 20


class Upgraded(Structural):
    """What `Metered` needs of the WebSocket it carries (leekha.server.websocket's
    `WebSocketSession`, which imports this module)."""

    refused: bool
    #: Bytes a message may have on the wire, its frame headers and control frames included.
    allowance: int

    def layer_wrote(self, size: int) -> None:
        """Twisted's WebSocket layer wrote bytes of its own (a pong, its close)."""

    def closing(self) -> None:
        """The WebSocket layer closes the connection."""

    def overflow(self, size: int) -> None:
        """More bytes than one message may have arrived without ending one."""

    def partial(self) -> None:
        """A message begun has not ended yet."""


class Metered(ProtocolWrapper):
    """Below the WebSocket layer of one HTTP connection: before an upgrade, at most
    HTTP_ALLOWANCE bytes are taken, the connection counts against the address's open
    connections as a game connection does (`MeteredFactory`), and a request begun must
    be whole and answered within frame_timeout_s (a slow HTTP client is a slowloris as
    a slow frame is); once upgraded (`session` set), the bytes received
    since the last whole message are counted, and a
    peer past its allowance is refused before Twisted buffers more of its message; and
    every write of the WebSocket layer itself (its pongs, its close) tells the session's
    `_Frames` that Twisted holds bytes now."""

    factory: MeteredFactory
    session: Upgraded | None = None
    pending = 0
    #: The address this connection counts against (None: not counted, or no longer).
    counted: str | None = None
    #: The deadline of the request begun (bytes arrived since the last answer).
    request_timer: Pending | None = None

    def release(self) -> None:
        """Stop counting against the address: the connection ends, or it becomes a
        WebSocket, whose game connection counts itself."""
        self._stop_request_timer()
        if self.counted is not None:
            ip, self.counted = self.counted, None
            self.factory.game.counter.release(ip)

    def _stop_request_timer(self) -> None:
        if self.request_timer is not None and self.request_timer.active():
            self.request_timer.cancel()
        self.request_timer = None

    def _request_timed_out(self) -> None:
        self.request_timer = None
        game = self.factory.game
        game.stats.dropped += 1
        log.info(
            "dropping {ip}: an HTTP request did not complete within {s:g} s",
            ip=self.counted,
            s=game.settings.frame_timeout_s,
        )
        tcp: Any = self.transport
        tcp.abortConnection()

    def connectionLost(self, reason: Failure = connectionDone) -> None:
        self.release()
        super().connectionLost(reason)  # type: ignore[no-untyped-call]

    def write(self, data: bytes) -> None:
        if self.session is None:  # an answer: the request it answers is done
            self._stop_request_timer()
        if self.session is not None:
            self.session.layer_wrote(len(data))
        super().write(data)  # type: ignore[no-untyped-call]

    def loseConnection(self) -> None:
        """The WebSocket layer closes (its answer to the peer's close, or ours): the
        WebSocket is closed from now on, and `_Frames` lets go of the TCP transport, whose
        registered pull producer would otherwise keep it open for good."""
        if self.session is not None:
            self.session.closing()
        super().loseConnection()  # type: ignore[no-untyped-call]

    def dataReceived(self, data: bytes) -> None:
        session = self.session
        if session is None:  # plain HTTP: page loads are small, bodies have no use here
            self.pending += len(data)
            if self.pending > HTTP_ALLOWANCE:
                tcp: Any = self.transport
                tcp.abortConnection()
                return
            if self.request_timer is None and self.counted is not None:
                deadlines = self.factory.game.frame_deadlines
                self.request_timer = deadlines.call(self._request_timed_out)
            super().dataReceived(data)  # type: ignore[no-untyped-call]
            return
        # Fed in pieces no larger than what the message begun may still have: one read
        # (up to 64 KiB) may end that message and go on with others, and the whole read
        # counted against the message begun refused a peer that stayed within the limit.
        while data:
            if session.refused:
                return
            room = session.allowance - self.pending
            if room <= 0:
                session.overflow(self.pending + len(data))
                return
            piece, data = (data[:room], data[room:]) if len(data) > room else (data, b"")
            self.pending += len(piece)
            super().dataReceived(piece)  # type: ignore[no-untyped-call]
        if self.pending and not session.refused:
            session.partial()


class HttpRefusal(Protocol):
    """A new HTTP connection over its address's rate or open-connection cap: the answer
    in words (`status`, `text`) before any request is read, then the close; what it
    sends is ignored (the game port's `Refusal`, in HTTP)."""

    def __init__(self, status: bytes, text: str) -> None:
        self.answer = (
            (
                b"HTTP/1.1 " + status + b"\r\ncontent-type: text/plain; charset=utf-8\r\n"
                b"content-length: %d\r\nconnection: close\r\n\r\n" % (len(text) + 1)
            )
            + text.encode()
            + b"\n"
        )

    def connectionMade(self) -> None:
        transport: Any = self.transport
        transport.write(self.answer)
        transport.loseConnection()


class MeteredFactory(WrappingFactory):
    """The web server's factory wrapped so each connection is `Metered`; a new one is
    first admitted as a game connection is (`game.counter`: the address's new-connection
    rate, its penalty box, the open-connection caps), else refused (`HttpRefusal`)."""

    protocol = Metered
    noisy = False

    def __init__(self, site: Any, game: Host) -> None:
        super().__init__(site)  # type: ignore[no-untyped-call]
        self.game = game

    def buildProtocol(self, addr: IAddress | None) -> Any:
        game = self.game
        ip = str(getattr(addr, "host", "?"))
        if not game.admit(ip):
            return HttpRefusal(b"429 Too Many Requests", RATE_WORDS)
        refusal = game.open_slot(ip)
        if refusal is not None:
            return HttpRefusal(b"503 Service Unavailable", refusal)
        meter: Any = super().buildProtocol(addr)
        meter.counted = ip
        return meter
