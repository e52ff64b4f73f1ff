"""The WebSocket at `/ws`: a second transport for the very same session a TCP connection
gets, so a browser is one more client of one server.

One binary WebSocket message carries one protocol message: the msgpack map, without the
4-byte length that frames it on TCP (docs/protocol.md, "WebSocket"). Nothing here knows
what a message means. `WebSocketSession` holds the connection the server's factory builds
for any peer (`leekha.server.connection.ServerFactory.buildProtocol`: the per-address
caps, the penalty box, a `FramedConnection` holding its `Requests`, with their versions,
limits, rate limits, deadlines and keepalive) and re-frames at its edges:

- in: a binary message of n bytes is fed to the connection as the frame `n` + body, so
  the one decoder (leekha.protocol.codec) judges it: empty, over the frame limit, not
  msgpack, not a map are refused exactly as on TCP. A text message is refused `bad_frame`
  the same way. A message still arriving is held by Twisted's WebSocket layer, not by our
  decoder, so `Metered` (leekha.server.webmeter) counts its bytes below that layer: past
  the frame limit the peer is refused `frame_too_large` before Twisted holds more, and a
  message begun starts the connection's frame deadline (`FramedConnection.frame_begun`).
- out: what the connection writes is whole frames (leekha.server.transport writes nothing
  else); `_Frames.write` sends each body as one binary message.

Frames go out on the socket at once while Twisted holds nothing for it, as TCP's do
(leekha.server.socketsend; `_Frames` says how it knows); the peer's reading speed
reaches the connection as on TLS, by pausing and resuming it.
"""

from __future__ import annotations

from typing import Any

from twisted.internet.interfaces import IAddress, IPullProducer, ITransport
from twisted.internet.protocol import Protocol
from twisted.logger import Logger
from twisted.python.failure import Failure
from twisted.web.server import Request
from twisted.web.websocket import WebSocketTransport
from zope.interface import implementer

from leekha.protocol.codec import HEADER_SIZE
from leekha.protocol.errors import ProtocolError
from leekha.server.socketsend import send_now, socket_of
from leekha.server.transport import FramedConnection
from leekha.server.webmeter import Metered

log = Logger()

#: Bytes a peer may send beyond one frame's limit before its message ends: WebSocket frame
#: headers (at most 14 bytes each) of a message sent in fragments, and control frames.
HEADROOM = 4096


def ws_frames(data: bytes) -> bytes:
    """Length-prefixed frames (leekha.protocol.codec) as server WebSocket messages: each
    body one unmasked final binary frame (RFC 6455 section 5.2; no extension is ever
    negotiated, so a frame is its header and the body as they are)."""
    out = bytearray()
    pos, end = 0, len(data)
    while pos < end:
        size = int.from_bytes(data[pos : pos + HEADER_SIZE], "big")
        start = pos + HEADER_SIZE
        if size < 126:
            out += bytes((0x82, size))
        elif size < 1 << 16:
            out += b"\x82\x7e" + size.to_bytes(2, "big")
        else:
            out += b"\x82\x7f" + size.to_bytes(8, "big")
        pos = start + size
        out += data[start:pos]
    return bytes(out)


@implementer(IPullProducer)
class _Frames:
    """The transport the connection writes to: each frame it writes leaves as one binary
    WebSocket message; closing is the WebSocket's close, aborting the TCP connection's.

    It sends on the socket at once while Twisted holds no bytes for it, as
    leekha.server.socketsend does for TCP (that module says why): it is the TCP
    transport's pull producer in the HTTP channel's place, so Twisted calls
    `resumeProducing` whenever it has sent all it held; every other write (the 101
    answer before it, the WebSocket layer's pongs and close through `Metered`) marks
    it holding. To the connection it is a streaming transport that pauses it while
    Twisted holds bytes, so the connection's output cap and read deadline work as on TLS."""

    def __init__(self, ws: WebSocketTransport, tcp: Any, request: Request) -> None:
        self.ws = ws
        self.tcp = tcp
        #: Without a socket of its own (TLS) the connection is the upgraded request's
        #: streaming producer, which the HTTP channel pauses and resumes with its transport.
        self.request = request
        #: The TCP transport under `Metered` (or `tcp` itself without one).
        self.raw: Any = getattr(tcp, "transport", None) or tcp
        self.sock = socket_of(self.raw)
        #: Twisted holds bytes not yet sent (the 101 answer, at first).
        self.holding = True
        self.producer: Any = None
        self._registering = False
        #: The WebSocket is closed or closing (by either end): nothing more is sent on it.
        self.shut = False
        if self.sock is not None:
            self.raw.unregisterProducer()  # the dormant HTTP channel
            self._registering = True  # Twisted resumes a pull producer as it registers
            try:
                self.raw.registerProducer(self, False)
            finally:
                self._registering = False

    def write(self, data: bytes) -> None:
        if self.shut:  # nothing may follow a close frame
            return
        out = ws_frames(data)
        if self.sock is None:
            self.raw.write(out)
            return
        if not self.holding:
            out = send_now(self.sock, out)
            if not out:
                return
        if not self.holding:
            self.holding = True
            if self.producer is not None:
                self.producer.pauseProducing()
        self.raw.write(out)

    def writeSequence(self, data: list[bytes]) -> None:
        self.write(b"".join(data))

    def hold(self) -> None:
        """The WebSocket layer wrote (a pong, its close): Twisted holds bytes now, so the
        connection is paused until it has sent them, as after a write of ours; without
        the pause its frames would go to Twisted past the output cap, and a peer that
        never reads would never be judged by the read deadline."""
        if self.sock is None or self.holding:
            return
        self.holding = True
        if self.producer is not None:
            self.producer.pauseProducing()

    def loseConnection(self) -> None:
        """The WebSocket's close; nothing if it is closed already (the peer's close may have
        crossed ours, and the connection learns of it only when the TCP connection ends)."""
        if self.shut:
            return
        self.closed()
        self.ws.loseConnection()

    def closed(self) -> None:
        """The WebSocket is closing: stop being the TCP transport's producer (Twisted
        resumes a registered producer instead of closing the connection)."""
        if self.shut:
            return
        self.shut = True
        if self.sock is not None:
            self.raw.unregisterProducer()

    def abortConnection(self) -> None:
        self.tcp.abortConnection()

    # ---- the connection's producer (it registers as on a streaming transport) -----------
    def registerProducer(self, producer: Any, streaming: bool) -> None:
        if self.sock is None:
            self.request.registerProducer(producer, True)
            return
        self.producer = producer
        if self.holding:
            producer.pauseProducing()

    def unregisterProducer(self) -> None:
        if self.sock is None:
            self.request.unregisterProducer()
        self.producer = None

    # ---- IPullProducer of the TCP transport ---------------------------------------------
    def resumeProducing(self) -> None:
        """Twisted sent everything it held."""
        if self._registering:
            return
        self.holding = False
        if self.producer is not None:
            self.producer.resumeProducing()

    def stopProducing(self) -> None:
        if self.producer is not None:
            self.producer.stopProducing()

    def getPeer(self) -> IAddress:
        return self.tcp.getPeer()  # type: ignore[no-any-return]

    def getHost(self) -> IAddress:
        return self.tcp.getHost()  # type: ignore[no-any-return]


class WebSocketSession:
    """One browser's WebSocket (a `twisted.web.websocket.WebSocketProtocol`), holding the
    protocol the server's factory built for it: a `FramedConnection`, or the `Refusal`
    of an address over its rate."""

    def __init__(self, peer: Protocol, request: Request, max_frame: int) -> None:
        self.peer = peer
        self.request = request
        self.max_frame = max_frame
        self.allowance = max_frame + HEADROOM
        self.refused = False
        #: Bytes the WebSocket layer wrote (pongs) since the peer last took all it was sent.
        self.unread = 0
        self.meter: Metered | None = None
        self.ws: WebSocketTransport | None = None
        self.frames: _Frames | None = None
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
            self.meter.release()  # the game connection counts itself from now on
            self.meter.session = self
            self.meter.pending = 0
        self.frames = _Frames(self.ws, self.tcp, self.request)
        self.peer.makeConnection(self.frames)

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
        """The end, once, for the connection begun on this WebSocket (whatever its own
        transport attribute says); a peer never begun has nothing to end."""
        self.refused = True
        frames, self.frames = self.frames, None
        if frames is not None:
            frames.shut = True
            self.peer.connectionLost(reason)

    # ---- from Metered ------------------------------------------------------------------
    def closing(self) -> None:
        if self.frames is not None:
            self.frames.closed()

    def layer_wrote(self, size: int) -> None:
        """Twisted's WebSocket layer wrote `size` bytes of its own: a pong to each of the
        peer's pings, its close. A peer that pings and never reads would have the server
        hold pongs without end (they are not the connection's frames, so its output cap
        does not see them): those written while the peer has not taken what it was sent
        count against the same cap, max_output_kib, and past it the peer is dropped."""
        frames, peer = self.frames, self.peer
        if frames is None or not isinstance(peer, FramedConnection):
            return
        if not peer.paused:
            self.unread = 0
        frames.hold()
        self.unread += size
        if self.unread > peer.settings.max_output_kib * 1024 and not self.refused:
            self.refused = True
            peer.drop(f"it is not reading ({self.unread // 1024} KiB of pongs waiting)")

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
