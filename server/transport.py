"""The byte side of one client connection: framing, the output queue, backpressure, closing,
the keepalive and the deadlines. What the messages mean is `leekha.server.handlers`: the
connection holds one request layer (`RequestLayer`) and hands it each message; it knows
neither the lobby nor the request layer's class, only the outbox its frames wait in.

Promises:
- Every frame a connection writes leaves after the outbox's commit (leekha.server.domain.outbox),
  in the order queued, with one write per flush.
- The server holds at most `max_output_kib` of unsent frames for a peer on top of the one
  write Twisted is sending. The connection is the streaming producer of its transport:
  while Twisted has bytes waiting (it pauses us), frames wait here; past the cap, or when
  the peer has not read for dead_peer_timeout_s, the peer is dropped and that is logged.
- A frame whose first byte arrived must complete within `frame_timeout_s` (slowloris).
- Liveness is judged by the peer's messages, not its bytes: a peer that sends no complete
  message for a ping interval is pinged, and one silent for dead_peer_timeout_s is dropped.
- `closed` fires once the connection is gone, whoever closed it.
- Every frame goes out through the session's `leekha.protocol.connection.Connection.send`
  (the one codec, the direction and state checks), keepalive pings through its `ping()`;
  a closing error the server sends closes the connection after it, as the table says.
- A silent peer is pinged `ping_interval_s` after its last message (and each interval
  after) and dropped `dead_peer_timeout_s` after it, within a quarter second
  (`leekha.server.domain.timers.Watch`).

Over 400 lines because it is one Twisted `Protocol` that is also its transport's
`IPushProducer`: the input, the output queue and the deadlines all turn on the same few
facts (closing, gone, paused since when, what is held), and each half split off would
have to reach into the other's. What the messages mean is already elsewhere
(`leekha.server.handlers`, held, not inherited), so is the socket write
(`leekha.server.socketsend`).
"""

from __future__ import annotations

import socket
import typing
from collections.abc import Callable, Sequence

from twisted.internet.defer import Deferred
from twisted.internet.interfaces import IPushProducer
from twisted.internet.protocol import Protocol, connectionDone
from twisted.logger import Logger
from twisted.python.failure import Failure
from zope.interface import implementer

from leekha.protocol import catalogue as M
from leekha.protocol.connection import Connection, LocalProtocolError
from leekha.protocol.errors import ProtocolError
from leekha.protocol.message import Message
from leekha.protocol.reactor import is_tls_error
from leekha.server.domain.clock import Clock, Timer
from leekha.server.domain.limits import AddressCounter
from leekha.server.domain.outbox import Outbox
from leekha.server.domain.timers import FixedDelay, Watch
from leekha.server.settings import ServerSettings
from leekha.server.socketsend import send_now, socket_of, wire
from leekha.server.stats import ConnectionStats

if typing.TYPE_CHECKING:
    from leekha.server.webvalues import PageAddress

log = Logger()

#: Seconds a closing connection has to take its last frames before it is aborted.
CLOSE_GRACE_S = 5.0
#: Decoder errors meaning the bytes are not a msgpack map frame at all. Before a connection
#: has sent one message they are not a client of this protocol (a scanner, a fuzzer, another
#: protocol): such a connection is aborted unanswered, the cheapest way to be rid of it.
NOT_A_FRAME = frozenset({"bad_frame", "frame_too_large", "bad_msgpack"})


def _tls_failure(reason: Failure) -> str | None:
    """What went wrong in a TLS handshake or record, or None for any other reason."""
    if not is_tls_error(reason.value):
        return None
    args = getattr(reason.value, "args", ())
    details = [str(part[2]) for part in (args[0] if args and args[0] else []) if len(part) > 2]
    return ", ".join(details) or reason.getErrorMessage() or "TLS error"


class Host(typing.Protocol):
    """What a connection uses of the server factory (leekha.server.connection builds
    it), so that neither module imports the other: the shared timers and counts, and the
    outbox every connection's frames wait in (the lobby's: one commit per turn)."""

    outbox: Outbox
    settings: ServerSettings
    clock: Clock
    counter: AddressCounter
    stats: ConnectionStats
    connections: set[FramedConnection]
    hello_deadlines: FixedDelay
    close_deadlines: FixedDelay
    frame_deadlines: FixedDelay
    keepalive: Watch[FramedConnection]
    #: Where the table page is (leekha.server.web); None: the server serves none.
    page: PageAddress | None

    def penalize(self, ip: str) -> None: ...

    def admit(self, ip: str) -> bool:
        """A new connection from `ip` may begin (its rate, the penalty box)."""

    def open_slot(self, ip: str) -> str | None:
        """Count an open connection from `ip`; the refusal's words when over a cap."""


class RequestLayer(typing.Protocol):
    """What the connection needs of the request layer it holds (leekha.server.handlers)."""

    def receive(self, msg: Message) -> None:
        """One decoded message from the peer, in order."""

    def gone(self) -> None:
        """The connection closed; the request layer lets go of its session here."""


@implementer(IPushProducer)
class FramedConnection(Protocol):
    """One client's byte stream. It holds its request layer, made by `requests` for it,
    and hands it each decoded message (`receive`) and the end (`gone`)."""

    def __init__(
        self, factory: Host, ip: str, requests: Callable[[FramedConnection], RequestLayer]
    ) -> None:
        self.server = factory
        #: The group commit this connection's frames wait for (leekha.server.domain.outbox).
        self.outbox = factory.outbox
        self.settings: ServerSettings = factory.settings
        self.clock: Clock = factory.clock
        self.ip = ip
        #: The session rules (hello first, directions, version): leekha.protocol.connection.
        #: Pings are answered by the request layer, rate-limited, in request order; so is a
        #: second hello.
        self.rules = Connection("server", answer_pings=False, answer_hellos=False)
        self.counted = False
        self.closing = False
        #: When the peer last sent a complete message (what the keepalive judges).
        self.last_heard = self.clock.seconds()
        #: When the last keepalive ping went out (a silent peer gets one per interval).
        self._pinged_at = float("-inf")
        #: Frames waiting for the outbox's next commit (see leekha.server.domain.outbox).
        self._out: list[bytes] = []
        #: Frames that waited while Twisted still had bytes for the peer, and their size.
        self._held: list[bytes] = []
        self._held_bytes = 0
        #: Since when Twisted has held bytes the peer has not taken yet (None: it has none).
        self._paused_since: float | None = None
        self._producing = False
        self._gone = False  # lost or aborted: write nothing more
        self._hello_timer: Timer | None = None
        self._frame_timer: Timer | None = None
        self._abort_timer: Timer | None = None
        #: A plain TCP transport's socket: written at once when nothing waits
        #: (leekha.server.socketsend says why).
        self._socket: socket.socket | None = None
        #: The peer has sent at least one well-formed message.
        self.spoke = False
        #: Fires with None once the connection is gone.
        self.closed: Deferred[None] = Deferred()
        #: What the messages mean (leekha.server.handlers), made last: it may read the above.
        self.requests = requests(self)

    def on_violation(self, exc: ProtocolError) -> None:
        """A protocol error in the byte stream: log, penalize and kick."""
        self.server.stats.violation(self.ip, exc.code, exc.message)
        if exc.code != "version_mismatch":  # an old client, not an attack
            self.server.penalize(self.ip)
        self.kick(exc.code, exc.message, exc.re)

    # ---- lifecycle ---------------------------------------------------------------------
    def connectionMade(self) -> None:
        server = self.server
        refusal = server.open_slot(self.ip)
        if refusal is not None:
            self.kick("server_full", refusal)
            return
        self.counted = True
        server.connections.add(self)
        server.stats.opened += 1
        transport = wire(self.transport)
        # Events are small frames; Nagle + delayed ACK would hold a prompt back ~40 ms.
        set_no_delay = getattr(transport, "setTcpNoDelay", None)
        if set_no_delay is not None:
            set_no_delay(True)
        # On plain TCP the connection is a pull producer: Twisted calls resumeProducing
        # whenever its buffer has just emptied, so "Twisted holds unsent bytes" is known
        # exactly (it is true from a write that the socket did not take whole until that
        # call), which tells `_write` when a direct send would jump the queue. Other
        # transports (TLS) pause and resume a streaming producer at their buffer limit.
        self._socket = socket_of(self.transport)
        transport.registerProducer(self, self._socket is None)
        self._producing = True
        self._hello_timer = server.hello_deadlines.call(self._no_hello)
        server.keepalive.add(self, self.last_heard + self.settings.ping_interval_s)

    def connectionLost(self, reason: Failure = connectionDone) -> None:
        tls = None if self._socket is not None else _tls_failure(reason)
        if tls is not None and not self.spoke:
            log.info("TLS handshake with {ip} failed: {why}", ip=self.ip, why=tls)
        self.closing = True
        self._gone = True
        self._out = []
        self.rules.connection_lost()
        self._release_held()
        self._stop_timers()
        if self._abort_timer is not None and self._abort_timer.active():
            self._abort_timer.cancel()
        self._abort_timer = None
        if self.counted:
            self.counted = False
            self.server.counter.release(self.ip)
        self.server.connections.discard(self)
        try:
            self.requests.gone()
        except Exception:
            log.failure("cleanup after {ip} failed", ip=self.ip)
        if not self.closed.called:
            self.closed.callback(None)

    def _stop_timers(self) -> None:
        if self._hello_timer is not None and self._hello_timer.active():
            self._hello_timer.cancel()
        self._hello_timer = None
        self._stop_frame_timer()
        self.server.keepalive.discard(self)

    def _stop_frame_timer(self) -> None:
        if self._frame_timer is not None and self._frame_timer.active():
            self._frame_timer.cancel()
        self._frame_timer = None

    def welcomed(self) -> None:
        """The handshake is done: no hello deadline any more."""
        if self._hello_timer is not None and self._hello_timer.active():
            self._hello_timer.cancel()
        self._hello_timer = None

    # ---- IPushProducer: the peer's reading speed ----------------------------------------
    def pauseProducing(self) -> None:
        """Twisted holds bytes the peer has not taken: further frames wait here."""
        self._backlog()

    def _backlog(self) -> None:
        if self._paused_since is None:
            self._paused_since = self.clock.seconds()

    @property
    def paused(self) -> bool:
        """Twisted holds bytes the peer has not taken yet."""
        return self._paused_since is not None

    def resumeProducing(self) -> None:
        """Twisted sent everything (or, streaming, nearly): write what waited."""
        self._paused_since = None
        if self._held and not self._gone:
            held, self._held = self._held, []
            self._held_bytes = 0
            self._write(b"".join(held))

    def stopProducing(self) -> None:
        self._release_held()

    def _release_held(self) -> None:
        self._held = []
        self._held_bytes = 0

    def drop(self, why: str) -> None:
        """Drop a peer that broke a limit of the byte side (a deadline, the output cap),
        logged and counted (leekha.server.websocket drops one for its pongs too)."""
        log.info("dropping {ip}: {why}", ip=self.ip, why=why)
        self.server.stats.dropped += 1
        self.abort()

    def abort(self) -> None:
        """Drop the connection now, without writing anything more."""
        self.closing = True
        self._gone = True
        self._out = []
        self._release_held()
        self._stop_timers()
        if self.transport is not None:
            self.transport.abortConnection()  # type: ignore[attr-defined]

    def _no_hello(self) -> None:
        self._hello_timer = None
        self.kick("hello_timeout", f"no hello within {self.settings.hello_timeout_s:g} s")

    def _frame_timed_out(self) -> None:
        self._frame_timer = None
        self.drop(f"a frame did not complete within {self.settings.frame_timeout_s:g} s")

    def keepalive(self, now: float) -> float | None:
        """Looked at by the factory's keepalive watch when due; returns when to look next.
        A peer that has not read for dead_peer_timeout_s, or sent no message for as long,
        is dropped; one that sent none for ping_interval_s (since it last spoke or was
        last pinged) gets a ping."""
        if self._gone:
            return None
        limit = self.settings.dead_peer_timeout_s
        interval = self.settings.ping_interval_s
        paused = self._paused_since
        if paused is not None and now - paused >= limit:
            self.drop(f"it has not read for {now - paused:.0f} s")
            return None
        silent = now - self.last_heard
        if silent >= limit:
            self.drop(f"no message for {silent:.0f} s")
            return None
        last = max(self.last_heard, self._pinged_at)
        if now - last >= interval:
            self._enqueue(self.rules.ping(), None)
            # Counted from when it was due, so a late look does not make the next late.
            self._pinged_at = last = max(last + interval, now - interval)
        due = min(last + interval, self.last_heard + limit)
        return due if paused is None else min(due, paused + limit)

    # ---- output ------------------------------------------------------------------------
    def send(self, msg: Message) -> None:
        """Queue a message; the outbox writes it once the turn's actions are committed.
        Not one whose type is newer than the version this client negotiated (an older
        client could not decode it: `Message.SINCE`). `send_all` of one message."""
        self.send_all((msg,))

    def hears(self, msg: type[Message]) -> bool:
        """Whether `send` would pass a message of this type on (`Message.SINCE`; before
        the hello, every type: as `send`)."""
        version = self.rules.version
        return version is None or version >= msg.SINCE

    def send_all(self, msgs: Sequence[Message]) -> None:
        """Queue each message in order, in one call: what a member hears of one change (a
        table's events), or one message (`send`). Each is checked by the session's rules
        and skipped when this client's version predates its type; the outbox hears of
        this connection once. This is the server's hottest path."""
        if self.closing or self.transport is None:
            return
        rules = self.rules
        version = rules.version
        frames = self.outbox.frames
        out = self._out
        waiting = len(out)
        for msg in msgs:
            if version is not None and version < msg.SINCE:
                continue
            try:
                data = rules.send(msg, frames=frames)
            except (ProtocolError, LocalProtocolError) as exc:
                self._not_sent(msg, exc)
                continue
            if data:
                out.append(data)
            if type(msg) is M.Error and rules.closed:
                self._closing_error()
                break
        if not waiting and out:
            self.outbox.add(self)

    def queue(self, msg: Message, at: int | None) -> None:
        """Queue at position `at` (None: at the end) unless the connection is closing.
        The session rules see it now, in the order the server decides things; a message
        they refuse is a bug here, logged and not sent."""
        if self.closing or self.transport is None:
            return
        try:
            data = self.rules.send(msg, frames=self.outbox.frames)
        except (ProtocolError, LocalProtocolError) as exc:
            self._not_sent(msg, exc)
            return
        self._enqueue(data, at)
        if type(msg) is M.Error and self.rules.closed:
            self._closing_error()

    def _not_sent(self, msg: Message, exc: Exception) -> None:
        if isinstance(exc, ProtocolError):  # too large for the peer
            log.error("cannot encode {type}: {err}", type=msg.TYPE, err=exc.message)
        else:
            log.error("not sent to {ip}: {err}", ip=self.ip, err=str(exc))

    def _closing_error(self) -> None:
        """A closing error went into the queue: the connection ends after it."""
        self.closing = True
        self._stop_timers()

    def _enqueue(self, data: bytes, at: int | None) -> None:
        if not data:
            return
        if at is None:
            self._out.append(data)
        else:
            self._out.insert(min(at, len(self._out)), data)
        if len(self._out) == 1:
            self.outbox.add(self)

    @property
    def queued(self) -> int:
        """Frames queued for the next flush (the request layer orders replies by it)."""
        return len(self._out)

    def unqueue(self, mark: int) -> None:
        """Forget what was queued after position `mark` (a request that turned out bad)."""
        del self._out[mark:]

    def write_out(self) -> None:
        """Called by the outbox after its commit: one write of every queued frame, then
        the close that a kick asked for."""
        out, self._out = self._out, []
        if self._gone or self.transport is None:
            return
        if out:
            self._write(b"".join(out) if len(out) > 1 else out[0])
        if self.closing and not self._gone:
            self._close()

    def _write(self, data: bytes) -> None:
        """Write `data` after whatever waits. While Twisted holds unsent bytes (we are
        paused) the frames wait here, up to the cap. Otherwise on a TCP transport they are
        sent at once (leekha.server.socketsend); what the socket does not take goes the
        normal way, and Twisted holds bytes again until it calls resumeProducing."""
        if self._paused_since is not None:
            self._held.append(data)
            self._held_bytes += len(data)
            cap = self.settings.max_output_kib * 1024
            if self._held_bytes > cap:
                self.drop(f"it is not reading ({self._held_bytes // 1024} KiB waiting)")
            return
        transport = wire(self.transport)
        if self._socket is not None:
            data = send_now(self._socket, data)
            if not data:
                return
            self._backlog()
        transport.write(data)  # a streaming transport pauses us itself

    def drop_out(self) -> None:
        """The outbox failed: nothing queued may reach the client."""
        self.abort()

    def kick(self, code: str, message: str, re: int | None = None) -> None:
        """Send a last error and close (protocol violation, replaced session, shutdown).
        The error goes out after what is already queued, at the outbox's next flush."""
        if self.closing:
            return
        self.send(M.Error(code=code, message=message[:1000], re=re))
        self.closing = True
        self._stop_timers()
        if not self._out:
            self._close()

    def _close(self) -> None:
        """Close after the last write. A registered producer would keep the transport open
        (Twisted resumes the producer instead of closing), so unregister first; a peer that
        never takes its last frames is aborted after CLOSE_GRACE_S."""
        if self._gone or self._abort_timer is not None or self.transport is None:
            return
        transport = wire(self.transport)
        if self._producing:
            self._producing = False
            transport.unregisterProducer()
        if self._held:  # what waited for the peer goes to Twisted now, to close after it
            transport.write(b"".join(self._held))
            self._release_held()
        transport.loseConnection()
        self._abort_timer = self.server.close_deadlines.call(self._close_timed_out)

    def _close_timed_out(self) -> None:
        self._abort_timer = None
        if not self._gone:
            log.info("aborting {ip}: it did not take its last frames", ip=self.ip)
            self.abort()

    # ---- input -------------------------------------------------------------------------
    def dataReceived(self, data: bytes) -> None:
        if self.closing:
            return
        try:
            messages = self.rules.receive_data(data)
        except ProtocolError as exc:
            self.refuse(exc)
            return
        self._frame_deadline(bool(messages))
        if messages:
            self.spoke = True
            self.last_heard = self.clock.seconds()
        for msg in messages:
            if self.closing:
                return
            self.requests.receive(msg)

    def refuse(self, exc: ProtocolError) -> None:
        """The peer's bytes broke the protocol (said by the decoder here, or by a
        transport's own framing, leekha.server.websocket): the one way a bad input ends."""
        if self.closing:
            return
        self._stop_frame_timer()
        if not self.spoke and exc.code in NOT_A_FRAME:
            self._not_a_client(exc)
        else:
            self.on_violation(exc)

    def frame_begun(self) -> None:
        """A transport that frames messages itself (leekha.server.websocket) holds part
        of one: the frame deadline runs as for a partial frame here."""
        if not self.closing and self._frame_timer is None:
            self._frame_timer = self.server.frame_deadlines.call(self._frame_timed_out)

    def _frame_deadline(self, completed: bool) -> None:
        """A frame begun must end within frame_timeout_s of its first byte: the deadline
        starts with a partial frame and restarts each time a frame completes."""
        if self.rules.buffered == 0:
            self._stop_frame_timer()
            return
        if completed:
            self._stop_frame_timer()
        if self._frame_timer is None:
            self._frame_timer = self.server.frame_deadlines.call(self._frame_timed_out)

    def _not_a_client(self, exc: ProtocolError) -> None:
        """Bytes that are not even a frame before any message: abort without an error
        frame (counted and penalized like any violation, but nothing is encoded, queued or
        written, and there is no close handshake to wait for)."""
        self.server.stats.violation(self.ip, exc.code, exc.message)
        self.server.penalize(self.ip)
        self.abort()
