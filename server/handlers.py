"""What a client's messages mean: one `handle_<type>` per request.

Everything a client can get wrong ends here as an `error` reply: a refused request keeps
the connection, a protocol violation closes it, and an unexpected exception is logged and
answered with `internal` without touching any other connection or table. The bytes,
deadlines and backpressure are `leekha.server.transport`'s: each connection there holds
one `Requests` and hands it each message; the requests answer through that connection
(`self.conn`), the peer the lobby and its tables send to. Held, not inherited, as
magic-wormhole's server protocol holds its app and calls into it.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from typing import Any, Protocol

from twisted.logger import Logger

from leekha.common import __version__
from leekha.common.actions import Action, Double, Pass, Play, check_pass_cards
from leekha.common.cards import check_card
from leekha.protocol import catalogue as M
from leekha.protocol import people as P
from leekha.protocol import tournaments as T
from leekha.protocol.errors import ProtocolError
from leekha.protocol.message import Message
from leekha.protocol.version import IDENTITY, negotiate, speaks
from leekha.server.domain.errors import Refused, StoreFailed
from leekha.server.domain.identities import KeyCheck
from leekha.server.domain.limits import TokenBucket
from leekha.server.domain.lobby import Lobby
from leekha.server.domain.profiles import profile
from leekha.server.domain.session import Session
from leekha.server.transport import FramedConnection, Host

log = Logger()


def is_loopback(ip: str) -> bool:
    """Whether a peer address is this machine's own (the server's operator)."""
    try:
        return ipaddress.ip_address(ip.removeprefix("::ffff:")).is_loopback
    except ValueError:
        return False


SERVER_NAME = f"leekha-server {__version__}"
#: Requests dropped for rate limiting in a row before the connection is closed.
MAX_STRIKES_FACTOR = 2


def refusal(exc: Refused, re: int | None) -> M.Error:
    """The `error` reply of a refusal, with its rule and facts (1.4; ignored before)."""
    try:
        return M.Error(
            code=exc.code, message=exc.message[:1000], re=re, rule=exc.rule, args=exc.facts
        )
    except ProtocolError:  # a fact the wire cannot carry: the code and the text still go
        log.warn("refusal {code}: facts not sendable {args!r}", code=exc.code, args=exc.facts)
        return M.Error(code=exc.code, message=exc.message[:1000], re=re)


class Server(Host, Protocol):
    """What the requests use of the server factory (leekha.server.connection): what its
    connection uses, and the lobby they call into."""

    lobby: Lobby


class Requests:
    """One client session's requests, held by its connection (`conn`)."""

    def __init__(self, server: Server, conn: FramedConnection, *, direct: bool = True) -> None:
        self.server = server
        self.conn = conn
        self.lobby = server.lobby
        self.settings = server.settings
        self.ip = ip = conn.ip
        #: The server's operator: a client on this machine's own address that reached the
        #: game's port itself. Never one through the table page's WebSocket, where every
        #: guest behind a reverse proxy on this machine would seem local.
        self.operator = direct and is_loopback(ip)
        self.session: Session | None = None
        self.bucket = TokenBucket(
            server.clock, self.settings.rate_limit_msgs_per_s, self.settings.rate_burst
        )
        self.strikes = 0
        #: The challenge of a `hello` that carried a key, until its `prove` arrives.
        self.key_check: KeyCheck | None = None

    def gone(self) -> None:
        if self.session is not None:
            session, self.session = self.session, None
            self.lobby.desk.gone(session, self.conn)

    def receive(self, msg: Message) -> None:
        rid = getattr(msg, "id", None)
        re = rid if isinstance(rid, int) and msg.TYPE != "ping" else None
        if not self.bucket.take():
            self.strikes += 1
            if self.strikes > self.settings.rate_burst * MAX_STRIKES_FACTOR:
                self.server.penalize(self.ip)
                self.conn.kick("rate_limited", "too many messages; closing")
            elif isinstance(msg, M.Hello | M.Resume | M.Prove):
                self.conn.send(self._refuse_handshake(msg, "rate_limited", "too many messages"))
            elif self.strikes == 1 or self.strikes % 10 == 0:
                self.conn.send(M.Error(code="rate_limited", message="too many messages", re=re))
            return
        self.strikes = 0
        name = f"handle_{msg.TYPE}"
        handler: Callable[[Message], Message | None] | None = getattr(self, name, None)
        if handler is None:
            self.conn.send(
                M.Error(code="unknown_type", message=f"{msg.TYPE} is not a request", re=re)
            )
            return
        version = self.conn.rules.version
        if version is not None and version < msg.SINCE:
            # One gate for every request, from the catalogue (`Message.SINCE`): a type newer
            # than the session's version is unknown to it, as it would be to that server.
            since = ".".join(map(str, msg.SINCE))
            why = f"{msg.TYPE} needs protocol {since}"
            self.conn.send(M.Error(code="unknown_type", message=why, re=re))
            return
        mark = self.conn.queued  # the reply goes before whatever handling it queues
        reply: Message | None = None
        try:
            if self.session is not None and msg.TYPE not in ("ping", "pong"):
                self._active(self.session)
            reply = handler(msg)
        except Refused as exc:
            if isinstance(msg, M.Hello | M.Resume | M.Prove):
                reply = self._refuse_handshake(msg, exc.code, exc.message)
            else:
                reply = refusal(exc, re)
        except ProtocolError as exc:
            self.conn.unqueue(mark)
            self.conn.on_violation(exc)
            return
        except StoreFailed:
            return  # logged once; every connection gets the fail-stop's goodbye instead
        except Exception:
            log.failure("handling {type} from {ip} failed", type=msg.TYPE, ip=self.ip)
            why = "the server failed; no effect"
            if isinstance(msg, M.Hello | M.Resume | M.Prove):
                reply = self._refuse_handshake(msg, "internal", why)
            else:
                reply = M.Error(code="internal", message=why, re=re)
        if reply is not None:
            self.conn.queue(reply, mark)

    def _refuse_handshake(self, msg: M.Hello | M.Resume | M.Prove, code: str, why: str) -> M.Error:
        """Answer the handshake's request with an error that leaves the connection waiting
        for a new `hello` (the session rules go back to awaiting it, and a challenge sent
        is forgotten), as docs/protocol.md promises for every refusal in the handshake.
        A welcomed connection's second hello is answered the same way and stays welcomed."""
        if isinstance(msg, M.Prove):  # the answer goes to the hello the challenge was for
            re = self.key_check.hello.id if self.key_check is not None else msg.re
        else:
            re = msg.id
        reply = M.Error(code=code, message=why[:1000], re=re)
        if self.session is None:
            self.key_check = None  # queueing the reply takes the session rules back
        return reply

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

    def handle_hello(self, msg: M.Hello) -> None:
        version = self._welcome(msg.id, msg.versions, msg.name)
        if msg.key is not None and speaks(version, IDENTITY):
            self.key_check = self.lobby.identities.challenge(msg, version)
            self.conn.send(self.key_check.message)
            return
        self.lobby.identities.check_guest(msg.name)
        session, token = self.lobby.desk.hello(self.conn, msg.name)
        self._hello(msg.id, version, session, token, resumed=False)

    def handle_prove(self, msg: M.Prove) -> None:
        check = self.key_check
        if check is None or check.hello.id != msg.re:
            raise Refused("bad_signature", "no challenge is waiting for this answer")
        self.lobby.identities.prove(check, msg.signature)
        session, token, resumed = self.lobby.desk.claimed_hello(self.conn, check)
        self.key_check = None
        self._hello(check.hello.id, check.version, session, token, resumed=resumed)

    def _hello(
        self, rid: int, version: tuple[int, int], session: Session, token: str, *, resumed: bool
    ) -> None:
        self.server.stats.hellos += 1
        log.debug("{name} joined from {ip}", name=session.name, ip=self.ip)
        table_id, seat = self.lobby.desk.where(session) if resumed else (None, None)
        welcome = M.Welcome(
            re=rid,
            version=list(version),
            server=SERVER_NAME,
            token=token,
            name=session.name,
            resumed=resumed,
            table_id=table_id,
            seat=seat,
            verified=session.verified,
            web=self._page(),
        )
        self._bind(session, welcome)
        if resumed:
            self.lobby.desk.resumed(session)

    def handle_resume(self, msg: M.Resume) -> Message | None:
        version = self._welcome(msg.id, msg.versions, None)
        session = self.lobby.desk.resume(self.conn, msg.token)
        self.server.stats.resumes += 1
        log.debug("{name} resumed from {ip}", name=session.name, ip=self.ip)
        table_id, seat = self.lobby.desk.where(session)
        welcome = M.Welcome(
            re=msg.id,
            version=list(version),
            server=SERVER_NAME,
            token=msg.token,
            name=session.name,
            resumed=True,
            verified=session.verified,
            table_id=table_id,
            seat=seat,
            web=self._page(),
        )
        self._bind(session, welcome)  # the welcome goes out before the snapshot
        self.lobby.desk.resumed(session)
        return None

    def _page(self) -> str | None:
        """The table page's address as this peer reaches this machine (leekha.server.web)."""
        page = self.server.page
        if page is None:
            return None
        transport: Any = self.conn.transport
        host = getattr(transport.getHost(), "host", "") if transport is not None else ""
        return page.url(str(host) or "127.0.0.1")

    def _bind(self, session: Session, welcome: M.Welcome) -> None:
        self.session = session
        self.conn.send(welcome)  # the session rules: ready, at this version
        self.conn.welcomed()

    def handle_ping(self, msg: M.Ping) -> Message:
        return M.Pong(re=msg.id)

    def handle_pong(self, msg: M.Pong) -> None:
        return None

    # ---- lobby -------------------------------------------------------------------------
    def handle_list_tables(self, msg: M.ListTables) -> Message:
        return self.lobby.list_tables(self._need_session(), msg)

    def handle_create_table(self, msg: M.CreateTable) -> Message:
        return self.lobby.create_table(self._need_session(), msg, self.ip)

    def handle_join_seat(self, msg: M.JoinSeat) -> Message:
        return self.lobby.join_seat(self._need_session(), msg)

    def handle_spectate(self, msg: M.Spectate) -> Message:
        return self.lobby.spectate(self._need_session(), msg)

    def handle_leave(self, msg: M.Leave) -> Message:
        self.lobby.leave(self._need_session())
        return M.Ok.trusted(re=msg.id)

    def handle_chat(self, msg: M.Chat) -> Message:
        self.lobby.chat(self._need_session(), msg.text)
        return M.Ok.trusted(re=msg.id)

    def handle_take_back(self, msg: M.TakeBack) -> Message:
        """The seat comes back with the request itself (`_active`): nothing more to do."""
        self._need_session()
        return M.Ok.trusted(re=msg.id)

    def handle_phrase(self, msg: P.Phrase) -> Message:
        self.lobby.voice.phrase(self._need_session(), msg.code)
        return M.Ok.trusted(re=msg.id)

    def handle_quick_play(self, msg: P.QuickPlay) -> Message:
        return self.lobby.quick.request(self._need_session(), msg, self.ip)

    def handle_get_profile(self, msg: P.GetProfile) -> Message:
        self._need_session()
        return profile(self.lobby, msg.id, msg.name)

    def handle_get_stats(self, msg: M.GetStats) -> Message:
        self._need_session()
        return M.Stats(re=msg.id, players=self.lobby.stats(msg.name))

    # ---- tournaments (1.3) -------------------------------------------------------------
    def _tournaments(self, msg: Message) -> Session:
        return self._need_session()  # 1.3 and later: the version gate of `receive`

    def handle_create_tournament(self, msg: T.CreateTournament) -> Message:
        return self.lobby.tournaments.create(self._tournaments(msg), msg, self.ip)

    def handle_cancel_tournament(self, msg: T.CancelTournament) -> Message:
        """The creator, or the operator (`self.operator`)."""
        return self.lobby.tournaments.cancel_request(
            self._need_session(), msg, self.ip, self.operator
        )

    def handle_list_tournaments(self, msg: T.ListTournaments) -> Message:
        self._tournaments(msg)
        return self.lobby.tournaments.list(msg)

    def handle_get_tournament(self, msg: T.GetTournament) -> Message:
        return self.lobby.tournaments.follow(self._tournaments(msg), msg)

    def handle_enter_tournament(self, msg: T.EnterTournament) -> Message:
        return self.lobby.tournaments.enter(self._tournaments(msg), msg)

    # ---- table (host) ------------------------------------------------------------------
    def handle_add_bot(self, msg: M.AddBot) -> Message:
        session = self._need_session()
        self.lobby.table_of(session).add_bot(session.token, msg.seat, msg.strategy)
        return M.Ok.trusted(re=msg.id)

    def handle_remove_bot(self, msg: M.RemoveBot) -> Message:
        session = self._need_session()
        self.lobby.table_of(session).remove_bot(session.token, msg.seat)
        return M.Ok.trusted(re=msg.id)

    def handle_start(self, msg: M.Start) -> Message:
        session = self._need_session()
        self.lobby.table_of(session).start(session.token)
        return M.Ok.trusted(re=msg.id)

    def handle_rematch(self, msg: M.Rematch) -> Message:
        session = self._need_session()
        self.lobby.table_of(session).rematch(session.token)
        return M.Ok.trusted(re=msg.id)

    # ---- game actions ------------------------------------------------------------------
    def _act(self, action: Callable[[int], Action]) -> None:
        """The engine's typed action, made for the seat the table finds the session in."""
        session = self._need_session()
        self.lobby.table_of(session).act(session.token, action)

    def handle_pass_cards(self, msg: M.PassCards) -> Message:
        self._act(lambda seat: Pass(seat, check_pass_cards(msg.cards)))
        return M.Ok.trusted(re=msg.id)

    def handle_declare_double(self, msg: M.DeclareDouble) -> Message:
        self._act(lambda seat: Double(seat, check_card(msg.card)))
        return M.Ok.trusted(re=msg.id)

    def handle_play_card(self, msg: M.PlayCard) -> Message:
        self._act(lambda seat: Play(seat, check_card(msg.card)))
        return M.Ok.trusted(re=msg.id)
