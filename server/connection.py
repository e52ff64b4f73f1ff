"""One client connection: framing, handshake, limits, and a `handle_<type>` per request.

Everything a client can get wrong ends here as an `error` reply: a refused request keeps
the connection, a protocol violation closes it, and an unexpected exception is logged and
answered with `internal` without touching any other connection or table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from twisted.internet.interfaces import IAddress, IPushProducer
from twisted.internet.protocol import Factory, Protocol, connectionDone
from twisted.internet.tcp import Connection as TCPConnection
from twisted.logger import Logger
from twisted.python.failure import Failure
from zope.interface import implementer

from leekha.common import __version__
from leekha.protocol import catalogue as M
from leekha.protocol.codec import Decoder, encode
from leekha.protocol.errors import ProtocolError
from leekha.protocol.message import Message
from leekha.protocol.version import negotiate, require_handshake
from leekha.server.clock import Clock, Timer
from leekha.server.errors import Refused
from leekha.server.limits import AddressCounter, TokenBucket
from leekha.server.lobby import Lobby
from leekha.server.outbox import Frames
from leekha.server.session import Session
from leekha.server.settings import ServerSettings
from leekha.server.timers import FixedDelay, Sweep

log = Logger()

SERVER_NAME = f"leekha-server {__version__}"
#: Requests dropped for rate limiting in a row before the connection is closed.
MAX_STRIKES_FACTOR = 2
#: Seconds a closing connection has to take its last frames before it is aborted.
CLOSE_GRACE_S = 5.0
#: At most one summary line of connection events per this many seconds.
VIOLATION_SUMMARY_S = 60.0
#: Decoder errors meaning the bytes are not a msgpack map frame at all. Before a connection
#: has sent one message they are not a client of this protocol (a scanner, a fuzzer, another
#: protocol): such a connection is aborted unanswered, the cheapest way to be rid of it.
NOT_A_FRAME = frozenset({"bad_frame", "frame_too_large", "bad_msgpack"})


class ServerFactory(Factory):
    """Builds one LeekhaConnection per accepted TCP connection and counts them."""

    noisy = False

    def __init__(self, lobby: Lobby, settings: ServerSettings, clock: Clock) -> None:
        self.lobby = lobby
        self.settings = settings
        self.clock = clock
        self.counter = AddressCounter(
            settings.max_connections,
            settings.max_connections_per_ip,
            clock=clock,
            new_per_s=settings.new_connections_per_ip_per_s,
        )
        self.connections: set[LeekhaConnection] = set()
        # Timers shared by every connection (leekha.server.timers): a connection costs no
        # clock timer of its own unless its peer stops reading.
        self.hello_deadlines = FixedDelay(clock, settings.hello_timeout_s)
        self.close_deadlines = FixedDelay(clock, CLOSE_GRACE_S)
        self.keepalive: Sweep[LeekhaConnection] = Sweep(
            clock, settings.ping_interval_s, LeekhaConnection.keepalive
        )
        self.violations = 0
        #: New connections closed unanswered (penalty box, new-connection rate).
        self.refused = 0
        #: Connection events since the last summary line (logged one by one at debug only).
        self.opened = 0
        self.hellos = 0
        self.resumes = 0
        self._violations_logged = clock.seconds()
        self._latest = ""
        #: Twisted builds a debug event before the level filter drops it: skip it unless
        #: the server logs at debug.
        self.debug = settings.log_level == "debug"

    def violation(self, ip: str, code: str, message: str) -> None:
        """Log a protocol violation or a refused connection at debug level, and a count at
        most once a minute, so a fuzzer or a reconnect flood cannot fill the log."""
        if self.debug:
            log.debug("refused {ip}: {code} {msg}", ip=ip, code=code, msg=message)
        self.violations += 1
        self._summary(ip, code)

    def _summary(self, ip: str, code: str) -> None:
        """Note the latest violation and write the counts if a summary is due."""
        self._latest = f" (latest from {ip}: {code})"
        self.summary_due()

    def summary_due(self) -> None:
        """At most once a minute, one info line counting what was logged at debug only."""
        now = self.clock.seconds()
        if now - self._violations_logged < VIOLATION_SUMMARY_S:
            return
        if self.violations or self.refused:
            log.info(
                "{n} protocol violations or refused connections and {r} connections closed"
                " unanswered in the last {s:.0f} s{latest}",
                n=self.violations,
                r=self.refused,
                s=now - self._violations_logged,
                latest=self._latest,
            )
        if self.opened or self.hellos or self.resumes:
            log.info(
                "{opened} connections opened, {hellos} hellos, {resumes} resumes in the last"
                " {s:.0f} s; {open} open",
                opened=self.opened,
                hellos=self.hellos,
                resumes=self.resumes,
                s=now - self._violations_logged,
                open=len(self.connections),
            )
        self.violations = self.refused = self.opened = self.hellos = self.resumes = 0
        self._latest = ""
        self._violations_logged = now

    def penalize(self, ip: str) -> None:
        """`ip` was kicked for flooding or a protocol violation: no new connections from it
        for kick_penalty_s (its open connections stay)."""
        self.counter.penalize(ip, self.settings.kick_penalty_s)

    def buildProtocol(self, addr: IAddress | None) -> LeekhaConnection | None:
        """A connection, or None (Twisted then closes the socket at once, the cheapest
        refusal: no object, no timers, no reply) for an address over its new-connection
        rate or in the penalty box; those are counted, not logged one by one."""
        ip = str(getattr(addr, "host", "?"))
        if not self.counter.admit(ip):
            self.refused += 1
            self._summary(ip, "closed unanswered")
            return None
        return LeekhaConnection(self, ip)


@implementer(IPushProducer)
class LeekhaConnection(Protocol):
    """One client. It is also the producer of its transport's writes, so Twisted tells it
    when the peer stops reading (write buffer full) and a stalled reader can be dropped
    before it costs the server unbounded memory."""

    def __init__(self, factory: ServerFactory, ip: str) -> None:
        self.server = factory
        self.lobby = factory.lobby
        self.settings = factory.settings
        self.clock = factory.clock
        self.ip = ip
        self.decoder = Decoder(peer="client")
        self.session: Session | None = None
        self.counted = False
        self.closing = False
        self.bucket = TokenBucket(
            self.clock, self.settings.rate_limit_msgs_per_s, self.settings.rate_burst
        )
        self.strikes = 0
        self.last_rx = self.clock.seconds()
        self._ping_id = 0
        #: Messages waiting for the outbox's next commit (see leekha.server.outbox).
        self._out: list[Message] = []
        self._producing = False
        self._gone = False  # lost or aborted: write nothing more
        self._hello_timer: Timer | None = None
        self._stall: Timer | None = None
        self._abort_timer: Timer | None = None
        #: A real TCP transport with nothing buffered is written with one send() at once.
        self._direct = False
        #: The peer has sent at least one well-formed message.
        self._spoke = False

    # ---- lifecycle ---------------------------------------------------------------------
    def connectionMade(self) -> None:
        refusal = self.server.counter.acquire(self.ip)
        if refusal is not None:
            self.server.violation(self.ip, "refused", refusal)
            self.kick("server_full", refusal)
            return
        self.counted = True
        server = self.server
        server.connections.add(self)
        server.opened += 1
        server.summary_due()
        # Events are small frames; Nagle + delayed ACK would hold a prompt back ~40 ms.
        set_no_delay = getattr(self.transport, "setTcpNoDelay", None)
        if set_no_delay is not None:
            set_no_delay(True)
        self._direct = isinstance(self.transport, TCPConnection)
        self._transport.registerProducer(self, True)
        self._producing = True
        self._hello_timer = server.hello_deadlines.call(self._no_hello)
        server.keepalive.add(self)

    def connectionLost(self, reason: Failure = connectionDone) -> None:
        self.closing = True
        self._gone = True
        self._out = []
        self._stop_timers()
        if self._abort_timer is not None and self._abort_timer.active():
            self._abort_timer.cancel()
        self._abort_timer = None
        if self.counted:
            self.counted = False
            self.server.counter.release(self.ip)
        self.server.connections.discard(self)
        if self.session is not None:
            session, self.session = self.session, None
            try:
                self.lobby.gone(session, self)
            except Exception:
                log.failure("cleanup after {ip} failed", ip=self.ip)

    def _stop_timers(self) -> None:
        if self._hello_timer is not None and self._hello_timer.active():
            self._hello_timer.cancel()
        self._hello_timer = None
        self.server.keepalive.discard(self)
        if self._stall is not None and self._stall.active():
            self._stall.cancel()
        self._stall = None

    # ---- IPushProducer: the peer's reading speed ----------------------------------------
    def pauseProducing(self) -> None:
        """The peer is not reading: give it dead_peer_timeout_s to catch up."""
        if self._stall is None and not self.closing:
            self._stall = self.clock.callLater(self.settings.dead_peer_timeout_s, self._stalled)

    def resumeProducing(self) -> None:
        if self._stall is not None and self._stall.active():
            self._stall.cancel()
        self._stall = None

    def stopProducing(self) -> None:
        self.resumeProducing()

    def _stalled(self) -> None:
        self._stall = None
        log.info("dropping {ip}: it stopped reading", ip=self.ip)
        self.abort()

    def abort(self) -> None:
        """Drop the connection now, without writing anything more."""
        self.closing = True
        self._gone = True
        self._out = []
        self._stop_timers()
        if self.transport is not None:
            self._transport.abortConnection()

    def _no_hello(self) -> None:
        self._hello_timer = None
        if self.session is None:
            self.kick("hello_timeout", f"no hello within {self.settings.hello_timeout_s:g} s")

    def keepalive(self, now: float) -> None:
        """The factory's keepalive sweep visits each connection once per ping interval:
        a peer silent for longer than dead_peer_timeout_s is dropped, one silent for a
        whole interval gets a ping (a peer that talks needs none)."""
        silent = now - self.last_rx
        if silent > self.settings.dead_peer_timeout_s:
            log.info("dropping silent peer {ip} after {s:.0f} s", ip=self.ip, s=silent)
            self.abort()
            return
        if silent >= self.settings.ping_interval_s:
            self._ping_id = (self._ping_id + 1) % 2**31
            self.send(M.Ping(id=self._ping_id))

    @property
    def _transport(self) -> Any:
        return self.transport

    # ---- output ------------------------------------------------------------------------
    def send(self, msg: Message) -> None:
        """Queue a message; the outbox writes it once the turn's actions are committed."""
        self._queue(msg, None)

    def _queue(self, msg: Message, at: int | None) -> None:
        """Queue at position `at` (None: at the end) unless the connection is closing."""
        if self.closing or self.transport is None:
            return
        if at is None:
            self._out.append(msg)
        else:
            self._out.insert(min(at, len(self._out)), msg)
        if len(self._out) == 1:
            self.lobby.outbox.add(self)

    def write_out(self, frames: Frames) -> None:
        """Called by the outbox after its commit: one write of every queued frame, then
        the close that a kick asked for."""
        out, self._out = self._out, []
        if self._gone or self.transport is None:
            return
        chunks = [b for b in map(frames.get, out) if b is not None]
        if chunks:
            self._write(b"".join(chunks) if len(chunks) > 1 else chunks[0])
        if self.closing:
            self._close()

    def _write(self, data: bytes) -> None:
        """transport.write(data), but when nothing is buffered on a TCP transport, send at
        once: Twisted would buffer the data, ask the selector to watch the socket for
        writability, send on the next loop turn and stop watching again, two epoll_ctl
        calls and a loop turn per write. Whatever the socket does not take (or an error,
        which Twisted then reports as usual) goes the normal way, after what was sent."""
        transport = self._transport
        if (
            self._direct
            and not transport._tempDataLen
            and not transport.dataBuffer
            and transport.connected
            and not transport.disconnecting
        ):
            sent = transport.writeSomeData(data)
            if isinstance(sent, int) and sent > 0:
                data = data[sent:]
        if data:
            transport.write(data)

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
        if self._producing:
            self._producing = False
            self._transport.unregisterProducer()
        self._transport.loseConnection()
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
        self.last_rx = self.clock.seconds()
        try:
            messages = self.decoder.feed(data)
        except ProtocolError as exc:
            if not self._spoke and exc.code in NOT_A_FRAME:
                self._not_a_client(exc)
            else:
                self._violation(exc)
            return
        if messages:
            self._spoke = True
        for msg in messages:
            if self.closing:
                return
            self._receive(msg)

    def _not_a_client(self, exc: ProtocolError) -> None:
        """Bytes that are not even a frame before any message: abort without an error
        frame (counted and penalized like any violation, but nothing is encoded, queued or
        written, and there is no close handshake to wait for)."""
        self.server.violation(self.ip, exc.code, exc.message)
        self.server.penalize(self.ip)
        self.abort()

    def _violation(self, exc: ProtocolError) -> None:
        self.server.violation(self.ip, exc.code, exc.message)
        if exc.code != "version_mismatch":  # an old client, not an attack
            self.server.penalize(self.ip)
        self.kick(exc.code, exc.message, exc.re)

    def _receive(self, msg: Message) -> None:
        rid = getattr(msg, "id", None)
        re = rid if isinstance(rid, int) and msg.TYPE != "ping" else None
        if not self.bucket.take():
            self.strikes += 1
            if self.strikes > self.settings.rate_burst * MAX_STRIKES_FACTOR:
                self.server.penalize(self.ip)
                self.kick("rate_limited", "too many messages; closing")
            elif self.strikes == 1 or self.strikes % 10 == 0:
                self.send(M.Error(code="rate_limited", message="too many messages", re=re))
            return
        self.strikes = 0
        if self.session is None and msg.TYPE not in ("ping", "pong"):
            try:
                require_handshake(msg)
            except ProtocolError as exc:
                self._violation(exc)
                return
        handler: Callable[[Any], Message | None] | None = getattr(self, f"handle_{msg.TYPE}", None)
        if handler is None:
            self.send(M.Error(code="unknown_type", message=f"{msg.TYPE} is not a request", re=re))
            return
        mark = len(self._out)  # the reply goes before whatever handling it queues
        reply: Message | None = None
        try:
            if self.session is not None and msg.TYPE not in ("ping", "pong"):
                self._active(self.session)
            reply = handler(msg)
        except Refused as exc:
            reply = M.Error(code=exc.code, message=exc.message[:1000], re=re)
        except ProtocolError as exc:
            del self._out[mark:]
            self._violation(exc)
            return
        except Exception:
            log.failure("handling {type} from {ip} failed", type=msg.TYPE, ip=self.ip)
            reply = M.Error(code="internal", message="the server failed; no effect", re=re)
        if reply is not None:
            self._queue(reply, mark)

    def _active(self, session: Session) -> None:
        table = self.lobby.tables.get(session.table_id) if session.table_id is not None else None
        if table is not None:
            table.human_active(session.token)

    def _need_session(self) -> Session:
        if self.session is None:
            raise Refused("not_hello_first", "say hello first")
        return self.session

    # ---- handshake ---------------------------------------------------------------------
    def _welcome(self, rid: int, versions: list[list[int]], name: str | None) -> tuple[int, int]:
        if self.session is not None:
            raise Refused("already_welcomed", "this connection already has a session")
        version = negotiate(versions)
        if version is None:
            raise ProtocolError("version_mismatch", "no common protocol version", rid)
        return version

    def handle_hello(self, msg: M.Hello) -> Message:
        version = self._welcome(msg.id, msg.versions, msg.name)
        session = self.lobby.hello(self, msg.name)
        self._bind(session)
        self.server.hellos += 1
        log.debug("{name} joined from {ip}", name=session.name, ip=self.ip)
        return M.Welcome(
            re=msg.id,
            version=list(version),
            server=SERVER_NAME,
            token=session.token,
            name=session.name,
        )

    def handle_resume(self, msg: M.Resume) -> Message | None:
        version = self._welcome(msg.id, msg.versions, None)
        session = self.lobby.resume(self, msg.token)
        self._bind(session)
        self.server.resumes += 1
        log.debug("{name} resumed from {ip}", name=session.name, ip=self.ip)
        table_id, seat = self.lobby.where(session)
        welcome = M.Welcome(
            re=msg.id,
            version=list(version),
            server=SERVER_NAME,
            token=session.token,
            name=session.name,
            resumed=True,
            table_id=table_id,
            seat=seat,
        )
        self.send(welcome)  # the welcome goes out before the snapshot
        self.lobby.resumed(session)
        return None

    def _bind(self, session: Session) -> None:
        self.session = session
        if self._hello_timer is not None and self._hello_timer.active():
            self._hello_timer.cancel()
        self._hello_timer = None

    def handle_ping(self, msg: M.Ping) -> Message:
        return M.Pong(re=msg.id)

    def handle_pong(self, msg: M.Pong) -> None:
        return None

    # ---- lobby -------------------------------------------------------------------------
    def handle_list_tables(self, msg: M.ListTables) -> Message:
        reply = self.lobby.list_tables(self._need_session(), msg.id)
        tables = reply.tables
        while tables:
            try:
                encode(M.TableList(re=msg.id, tables=tables))
                break
            except ProtocolError:
                tables = tables[: len(tables) // 2]  # too many to fit one frame
        return M.TableList(re=msg.id, tables=tables)

    def handle_create_table(self, msg: M.CreateTable) -> Message:
        return self.lobby.create_table(self._need_session(), msg)

    def handle_join_seat(self, msg: M.JoinSeat) -> Message:
        return self.lobby.join_seat(self._need_session(), msg)

    def handle_spectate(self, msg: M.Spectate) -> Message:
        return self.lobby.spectate(self._need_session(), msg)

    def handle_leave(self, msg: M.Leave) -> Message:
        self.lobby.leave(self._need_session())
        return M.Ok(re=msg.id)

    def handle_chat(self, msg: M.Chat) -> Message:
        self.lobby.chat(self._need_session(), msg.text)
        return M.Ok(re=msg.id)

    def handle_get_stats(self, msg: M.GetStats) -> Message:
        self._need_session()
        return M.Stats(re=msg.id, players=self.lobby.stats(msg.name))

    # ---- table (host) ------------------------------------------------------------------
    def handle_add_bot(self, msg: M.AddBot) -> Message:
        session = self._need_session()
        self.lobby.table_of(session).add_bot(session.token, msg.seat, msg.strategy)
        return M.Ok(re=msg.id)

    def handle_remove_bot(self, msg: M.RemoveBot) -> Message:
        session = self._need_session()
        self.lobby.table_of(session).remove_bot(session.token, msg.seat)
        return M.Ok(re=msg.id)

    def handle_start(self, msg: M.Start) -> Message:
        session = self._need_session()
        self.lobby.table_of(session).start(session.token)
        return M.Ok(re=msg.id)

    def handle_rematch(self, msg: M.Rematch) -> Message:
        session = self._need_session()
        self.lobby.table_of(session).rematch(session.token)
        return M.Ok(re=msg.id)

    # ---- game actions ------------------------------------------------------------------
    def _act(self, action: dict[str, Any]) -> None:
        session = self._need_session()
        self.lobby.table_of(session).act(session.token, action)

    def handle_pass_cards(self, msg: M.PassCards) -> Message:
        self._act({"kind": "pass", "cards": list(msg.cards)})
        return M.Ok(re=msg.id)

    def handle_declare_double(self, msg: M.DeclareDouble) -> Message:
        self._act({"kind": "double", "card": msg.card})
        return M.Ok(re=msg.id)

    def handle_play_card(self, msg: M.PlayCard) -> Message:
        self._act({"kind": "play", "card": msg.card})
        return M.Ok(re=msg.id)
