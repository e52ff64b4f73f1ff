"""The WebSocket at `/ws`: a second transport for the very same session a TCP connection
gets, so a browser is one more client of one server.

One binary WebSocket message carries one protocol message: the msgpack map, without the
4-byte length that frames it on TCP (docs/protocol.md, "WebSocket"). Nothing here knows
what a message means. `WebSocketSession` holds the connection the server's factory builds
for any peer (`leekha.server.connection.ServerFactory.buildProtocol`: the per-address
caps, the penalty box, a `LeekhaConnection` with its versions, limits, rate limits,
deadlines and keepalive) and re-frames at its edges:

- in: a binary message of n bytes is fed to the connection as the frame `n` + body, so
  the one decoder (leekha.protocol.codec) judges it: empty, over the frame limit, not
  msgpack, not a map are refused exactly as on TCP. A text message is refused `bad_frame`
  the same way. A message still arriving is held by Twisted's WebSocket layer, not by our
  decoder, so `Metered` counts its bytes below that layer: past the frame limit the peer
  is refused `frame_too_large` before Twisted holds more, and a message begun starts the
  connection's frame deadline (`FramedConnection.frame_begun`).
- out: what the connection writes is whole frames (leekha.server.transport writes nothing
  else); `_Frames.write` sends each body as one binary message.

The peer's reading speed reaches the connection as on TLS: it is a streaming producer of
the upgraded request (`Request.registerProducer`), which the HTTP channel pauses and
resumes with its transport.
"""

from __future__ import annotations

from typing import Any

from twisted.internet.interfaces import IAddress, ITransport
from twisted.internet.protocol import Protocol
from twisted.logger import Logger
from twisted.protocols.policies import ProtocolWrapper, WrappingFactory
from twisted.python.failure import Failure
from twisted.web.server import Request
from twisted.web.websocket import WebSocketTransport

from leekha.protocol.codec import HEADER_SIZE
from leekha.protocol.errors import ProtocolError
from leekha.server.transport import FramedConnection

log = Logger()

#: Bytes a peer may send beyond one frame's limit before its message ends: WebSocket frame
#: headers (at most 14 bytes each) of a message sent in fragments, and control frames.
HEADROOM = 4096


class Metered(ProtocolWrapper):
    """Below the WebSocket layer of one HTTP connection: once the connection is upgraded
    (`session` set), the bytes received since the last whole message are counted, and a
    peer past its allowance is refused before Twisted buffers more of its message."""

    session: WebSocketSession | None = None
    pending = 0

    def dataReceived(self, data: bytes) -> None:
        session = self.session
        if session is None:
            super().dataReceived(data)  # type: ignore[no-untyped-call]
            return
        if session.refused:
            return
        self.pending += len(data)
        if self.pending > session.allowance:
            session.overflow(self.pending)
            return
        super().dataReceived(data)  # type: ignore[no-untyped-call]
        if self.pending:
            session.partial()


class MeteredFactory(WrappingFactory):
    """The web server's factory wrapped so each connection is `Metered`."""

    protocol = Metered
    noisy = False


class _Frames:
    """The transport the connection writes to: each frame it writes leaves as one binary
    WebSocket message; closing is the WebSocket's close, aborting the TCP connection's."""

    def __init__(self, ws: WebSocketTransport, tcp: ITransport, request: Request) -> None:
        self.ws = ws
        self.tcp: Any = tcp
        self.request = request

    def write(self, data: bytes) -> None:
        view = memoryview(data)
        pos, end = 0, len(data)
        while pos < end:
            size = int.from_bytes(view[pos : pos + HEADER_SIZE], "big")
            start = pos + HEADER_SIZE
            pos = start + size
            self.ws.sendBytesMessage(bytes(view[start:pos]))

    def writeSequence(self, data: list[bytes]) -> None:
        self.write(b"".join(data))

    def loseConnection(self) -> None:
        self.ws.loseConnection()

    def abortConnection(self) -> None:
        self.tcp.abortConnection()

    def registerProducer(self, producer: Any, streaming: bool) -> None:
        self.request.registerProducer(producer, True)

    def unregisterProducer(self) -> None:
        self.request.unregisterProducer()

    def getPeer(self) -> IAddress:
        return self.tcp.getPeer()  # type: ignore[no-any-return]

    def getHost(self) -> IAddress:
        return self.tcp.getHost()  # type: ignore[no-any-return]


class WebSocketSession:
    """One browser's WebSocket (a `twisted.web.websocket.WebSocketProtocol`), holding the
    protocol the server's factory built for it: a `LeekhaConnection`, or the `Refusal`
    of an address over its rate."""

    def __init__(self, peer: Protocol, request: Request, max_frame: int) -> None:
        self.peer = peer
        self.request = request
        self.max_frame = max_frame
        self.allowance = max_frame + HEADROOM
        self.refused = False
        self.meter: Metered | None = None
        self.ws: WebSocketTransport | None = None
        self.tcp: ITransport | None = request.channel.transport if request.channel else None
        if isinstance(self.tcp, Metered):
            self.meter = self.tcp

    # ---- twisted.web.websocket.WebSocketProtocol -----------------------------------------
    def negotiationStarted(self, transport: WebSocketTransport) -> None:
        self.ws = transport

    def negotiationFinished(self) -> None:
        """The 101 answer is written: the connection begins (nothing may be written before)."""
        assert self.ws is not None and self.tcp is not None
        if self.meter is not None:
            self.meter.session = self
        self.peer.makeConnection(_Frames(self.ws, self.tcp, self.request))

    def bytesMessageReceived(self, data: bytes | bytearray) -> None:
        if self.meter is not None:
            self.meter.pending = 0
        if self.refused:
            return
        size = len(data)
        if size >= 1 << (8 * HEADER_SIZE):  # cannot be framed; the limit is far below
            self.overflow(size)
            return
        self.peer.dataReceived(size.to_bytes(HEADER_SIZE, "big") + bytes(data))

    def textMessageReceived(self, message: str) -> None:
        if self.meter is not None:
            self.meter.pending = 0
        self._refuse(ProtocolError("bad_frame", "a text message; protocol messages are binary"))

    def pongReceived(self, payload: bytes) -> None:
        """The keepalive is the protocol's own ping; WebSocket pongs change nothing."""

    def connectionLost(self, reason: Failure) -> None:
        self.refused = True
        if self.peer.transport is not None:
            self.peer.connectionLost(reason)

    # ---- from Metered ------------------------------------------------------------------
    def overflow(self, size: int) -> None:
        """More bytes than one message may have arrived without ending one."""
        why = f"a message of more than {self.max_frame} bytes (the limit) is arriving"
        self._refuse(ProtocolError("frame_too_large", why))

    def partial(self) -> None:
        if isinstance(self.peer, FramedConnection):
            self.peer.frame_begun()

    def _refuse(self, exc: ProtocolError) -> None:
        if self.refused:
            return
        self.refused = True
        if isinstance(self.peer, FramedConnection):
            self.peer.refuse(exc)
        elif self.ws is not None:
            self.ws.loseConnection()
