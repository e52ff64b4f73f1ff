"""The lobby: sessions, the table registry, the live table list and lobby chat.

It owns every Table and is each table's hub: tables hand it messages for a session token
and it routes them to whatever connection holds that session now.
"""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Callable
from typing import Any

from twisted.logger import Logger

from leekha.common.config import preset
from leekha.common.errors import ConfigError
from leekha.protocol import catalogue as M
from leekha.protocol.catalogue import STATS_MAX
from leekha.protocol.message import Message
from leekha.server.clock import Clock
from leekha.server.errors import Refused
from leekha.server.identities import Identities, KeyCheck
from leekha.server.limits import TokenBucket, clean_chat, clean_name, name_keys
from leekha.server.listing import Listing
from leekha.server.outbox import Outbox
from leekha.server.persistence import SessionRow, Store, TableRow
from leekha.server.quickplay import QuickPlay
from leekha.server.session import Peer, Session, new_token, token_id
from leekha.server.settings import ServerSettings
from leekha.server.standing import standings
from leekha.server.table import (
    SYSTEM_SENDER,
    WAITING,
    WIRE_NAME_MAX,
    Table,
    TableOptions,
    hash_password,
)
from leekha.server.timers import FixedDelay
from leekha.server.tournament.runner import TournamentRunner
from leekha.server.voice import Voice

log = Logger()

#: The protocol's cap on chat text (chat_message.text).
WIRE_CHAT_MAX = 1000


def timer_seconds(asked: int | None, default: float) -> float | None:
    """A create_table timer: null takes the server's default, 0 means untimed (None)."""
    seconds = default if asked is None else float(asked)
    return seconds if seconds > 0 else None


class Lobby:
    def __init__(self, clock: Clock, settings: ServerSettings, store: Store) -> None:
        self.clock = clock
        self.settings = settings
        self.store = store
        #: Every message waits here for the commit of the turn's actions (group commit).
        self.outbox = Outbox(clock, store)
        #: Sessions by id (leekha.server.session: the digest of their first token).
        self.sessions: dict[str, Session] = {}
        #: Sessions by the digest of the token that resumes them now.
        self._secrets: dict[str, Session] = {}
        #: The name keys (case-folded form and look-alike skeleton, limits.name_keys) of the
        #: sessions that have a connection now (a resumed session may share its name with a
        #: newer one, hence a count), kept so that `hello` never walks every session.
        self._online: Counter[str] = Counter()
        #: Name key (limits.name_keys) -> its sessions: a disconnected session's name stays
        #: reserved while it holds a seat (see `hello`).
        self._by_name: dict[str, set[Session]] = {}
        #: Sessions with a connection now.
        self._connected = 0
        #: Connected sessions not at a table that asked for the table list: they get updates.
        self._watchers: set[Session] = set()
        self.closing = False
        # Never accept what the protocol could not carry, whatever the settings say.
        self.max_name = min(settings.max_name_len, WIRE_NAME_MAX)
        self.max_chat = min(settings.max_chat_len, WIRE_CHAT_MAX)
        self.identities = Identities(store, self.max_name)
        self.tables: dict[int, Table] = {}
        #: Stored tables that could not be restored (id -> why): kept, not served.
        self.damaged: dict[int, str] = {}
        #: Host token -> ids of the tables it may host (checked against table.host_token on
        #: use), so a closing connection does not walk every table.
        self._hosting: dict[str, set[int]] = {}
        #: Lobby sessions left without a connection are forgotten after the seat grace.
        self._expiries = FixedDelay(clock, max(settings.seat_grace_s, 1.0))
        self.listing = Listing()
        #: Tables by the address that created them, so one address cannot bury the lobby.
        self._created_from: dict[int, str] = {}
        self._per_address: Counter[str] = Counter()
        #: Waiting tables with nobody connected at them, oldest first: at most
        #: max_deserted_tables of them wait out their grace period.
        self._deserted: dict[int, None] = {}
        self._next_id = store.next_table_id()
        self.options = TableOptions(
            bot_think_s=settings.bot_think_ms / 1000,
            seat_grace_s=settings.seat_grace_s,
            afk_limit=settings.afk_timeouts_before_bot,
        )
        #: Where game seeds come from; tests replace it to make games reproducible.
        self.new_seed: Callable[[], int] = lambda: secrets.randbits(31)
        #: Called with (tables, players) whenever the counts may have changed (LAN announce).
        self.on_counts: Callable[[int, int], None] | None = None
        #: The tournaments this server runs (leekha.server.tournament.runner).
        self.tournaments = TournamentRunner(self)
        #: Who may say what: the chat limit, mutes and quick phrases (server.voice).
        self.voice = Voice(self)
        #: `quick_play`: the server seats a person where a game is (server.quickplay).
        self.quick = QuickPlay(self)

    # ---- startup and shutdown ----------------------------------------------------------
    def restore(self) -> int:
        """Bring back every stored table with its seats and tokens; returns how many."""
        stored = self.store.load_sessions()
        rows, self.damaged = self.store.load_live()
        keep: list[str] = []
        for row in rows:
            table = Table(self, self.clock, self.options, row)
            try:
                for seat in row.seats:
                    if seat is not None and seat.token and seat.token not in self.sessions:
                        session = self._stored_session(seat.token, seat.name, stored)
                        session.table_id = row.id
                if row.host_token and row.host_token not in self.sessions:
                    self._stored_session(row.host_token, "host", stored)
                self.tables[row.id] = table
                self._hosted(table)
                table.restore(row)
            except Exception as exc:
                self.damaged[row.id] = str(exc) or type(exc).__name__
                self.tables.pop(row.id, None)
                table.shutdown()
                continue
            keep.extend(table.tokens())
            self._list(table)
            self._next_id = max(self._next_id, row.id + 1)
        for table_id, why in sorted(self.damaged.items()):
            log.error(
                "table {table} cannot be restored ({why}); it stays in {path}, unserved,"
                " and so do its players' sessions. Run `leekha records check`",
                table=table_id,
                why=why,
                path=self.store.path,
            )
        if not self.damaged:
            self.store.forget_sessions(keep)
        else:  # whose sessions are whose is not known: keep them all, and their tokens work
            for token, kept in stored.items():
                if token not in self.sessions:
                    self._stored_session(token, kept.name, stored)
        self.tournaments.restore()
        self.outbox.flush()
        self._counts()
        return len(self.tables)

    def shutdown(self, code: str = "server_shutdown", message: str = "") -> None:
        """Tell every client, stop every clock; stored state is already complete."""
        self.closing = True
        self.tournaments.shutdown()
        for table in self.tables.values():
            table.shutdown()
        for session in list(self.sessions.values()):
            if session.peer is not None:
                session.peer.kick(code, message or "the server is shutting down")
            self._cancel_expiry(session)

    # ---- sessions ----------------------------------------------------------------------
    def _session(self, token: str, name: str, key: str | None = None, secret: str = "") -> Session:
        rate = self.settings.chat_rate_per_min
        bucket = TokenBucket(self.clock, rate / 60.0, rate)
        session = Session(token, name, bucket, secret=secret, key=key)
        self.sessions[token] = session
        self._secrets[session.secret] = session
        for name_key in name_keys(name):
            self._by_name.setdefault(name_key, set()).add(session)
        return session

    def _stored_session(self, token: str, name: str, stored: dict[str, SessionRow]) -> Session:
        """A session of the database back in memory, bound to the key it proved when it
        began (never to what its name has become since)."""
        row = stored.get(token)
        if row is None:  # a seat without its session row: a guest, resumable by token
            session = self._session(token, name)
        else:
            session = self._session(token, row.name, row.key, row.secret)
        session.stored = True
        return session

    def _start(self, peer: Peer, name: str, key: str | None = None) -> tuple[Session, str]:
        """A new session for `peer`, and the token only its client will ever see."""
        token = new_token()
        session = self._session(token_id(token), name, key)
        self._set_peer(session, peer)
        self._counts()
        return session, token

    def _named(self, name: str) -> set[Session]:
        """The sessions whose name is `name` or looks like it (limits.name_keys)."""
        return {s for key in name_keys(name) for s in self._by_name.get(key, ())}

    def _holds_seat(self, name: str) -> bool:
        """Someone by this name is away from a seat that is still theirs."""
        for session in self._named(name):
            table = self.tables.get(session.table_id) if session.table_id is not None else None
            if table is not None and table.seat_of(session.token) is not None:
                return True
        return False

    def _set_peer(self, session: Session, peer: Peer | None) -> None:
        """Attach or detach a session's connection, keeping the online index in step."""
        if (session.peer is None) != (peer is None):
            for key in name_keys(session.name):
                if peer is None:
                    self._online[key] -= 1
                    if self._online[key] <= 0:
                        del self._online[key]
                else:
                    self._online[key] += 1
            self._connected += -1 if peer is None else 1
        session.peer = peer
        self._watch(session, session.watching_lobby)
        self.tournaments.peer_changed(session)

    def _watch(self, session: Session, watching: bool) -> None:
        session.watching_lobby = watching
        if watching and session.peer is not None:
            self._watchers.add(session)
        else:
            self._watchers.discard(session)

    def _free(self, name: str) -> None:
        """Refuse a name someone here is using or holds a seat under (changes nothing)."""
        if name == SYSTEM_SENDER or any(key in self._online for key in name_keys(name)):
            raise Refused("bad_name", f"the name {name!r} (or one that looks like it) is in use")
        if self._holds_seat(name):
            raise Refused(
                "bad_name",
                f"{name!r} holds a seat here: that player comes back with their session "
                "(resume), or pick another name",
            )

    def hello(self, peer: Peer, wanted: str) -> tuple[Session, str]:
        """A guest's new session and its token."""
        name = clean_name(wanted, self.max_name)
        self._free(name)
        return self._start(peer, name)

    def claimed_hello(self, peer: Peer, check: KeyCheck) -> tuple[Session, str, bool]:
        """A hello whose key proved itself (`Identities.prove`): it takes back the seat of
        a session that proved the same key, from any machine, with a fresh token (True),
        or claims the name if it is still free and starts a new session (False). Every
        refusal comes before the claim, so a refused hello claims nothing."""
        name = clean_name(check.hello.name, self.max_name)
        for session in self._named(name):
            table = self._table_of(session)
            if session.key != check.key or table is None:
                continue
            if table.seat_of(session.token) is not None:
                token = self._rekey(session)
                return self.resume(peer, token), token, True
        self._free(name)
        self.identities.claim(check)
        session, token = self._start(peer, name, check.key)
        return session, token, False

    def _rekey(self, session: Session) -> str:
        """A fresh token for `session`; the one it had stops working."""
        token = new_token()
        self._secrets.pop(session.secret, None)
        session.secret = token_id(token)
        self._secrets[session.secret] = session
        if session.stored:
            self.store.set_secret(session.token, session.secret)
        return token

    def resume(self, peer: Peer, token: str) -> Session:
        """The session this token resumes (the token as the client holds it)."""
        session = self._secrets.get(token_id(token))
        if session is None:
            raise Refused("bad_token", "unknown or expired session token; send hello")
        self._cancel_expiry(session)
        old = session.peer
        self._set_peer(session, peer)
        if old is not None and old is not peer:
            old.kick("session_replaced", "this session was resumed on another connection")
        return session

    def where(self, session: Session) -> tuple[int | None, int | None]:
        """(table id, seat) of a session: (None, None) in the lobby, seat None spectating."""
        table = self._table_of(session)
        if table is None:
            return None, None
        return table.id, table.seat_of(session.token)

    def stats(self, name: str | None) -> list[dict[str, Any]]:
        """The leaderboard for `get_stats` (humans only): ratings (1.2) and totals."""
        out = []
        for line in standings(self.store, name)[:STATS_MAX]:
            if not line["name"]:
                continue
            rating = line["rating"]
            out.append(
                {
                    "name": line["name"][:WIRE_NAME_MAX],
                    "games": line["games"],
                    "wins": line["wins"],
                    "avg_points_per_round": line["avg_points_per_round"],
                    "rating": None if rating is None else round(rating["mu"], 3),
                    "rating_sigma": None if rating is None else round(rating["sigma"], 3),
                    "leekhas": line["leekhas"],
                    "moons": line["moons"],
                }
            )
        return out

    def resumed(self, session: Session) -> None:
        """After `welcome`: give a seated player their snapshot and seat back."""
        table = self._table_of(session)
        if table is None:
            return
        session.send(table.snapshot(session.token))
        table.replay_chat(session.token)
        table.reconnected(session.token)

    def gone(self, session: Session, peer: Peer) -> None:
        """The session's connection closed (unless a resume already replaced it)."""
        if session.peer is not peer or self.closing:
            return
        self._set_peer(session, None)
        self._watch(session, False)
        table = self._table_of(session)
        if table is not None:
            table.disconnected(session.token)
            if table.seat_of(session.token) is None:
                session.table_id = None
        if session.table_id is None and not self._hosts(session):
            # Nothing to come back to: forget the session after the grace period.
            session.expiry = self._expiries.call(self._expire, session)
        self._counts()

    def _expire(self, session: Session) -> None:
        session.expiry = None
        if session.peer is None and session.table_id is None and not self._hosts(session):
            self.sessions.pop(session.token, None)
            self._secrets.pop(session.secret, None)
            for key in name_keys(session.name):
                same = self._by_name.get(key)
                if same is not None:
                    same.discard(session)
                    if not same:
                        del self._by_name[key]

    def _cancel_expiry(self, session: Session) -> None:
        if session.expiry is not None and session.expiry.active():
            session.expiry.cancel()
        session.expiry = None

    def _hosts(self, session: Session) -> list[Table]:
        ids = self._hosting.get(session.token)
        if not ids:
            return []
        out = []
        for table_id in list(ids):
            table = self.tables.get(table_id)
            if table is not None and table.host_token == session.token:
                out.append(table)
            else:
                ids.discard(table_id)  # closed, or the host controls passed on
        if not ids:
            del self._hosting[session.token]
        return out

    def _hosted(self, table: Table) -> None:
        """Index the table under its host (again after the host controls pass on)."""
        if table.host_token:
            self._hosting.setdefault(table.host_token, set()).add(table.id)

    def _persist(self, session: Session) -> None:
        if not session.stored:
            self.store.save_session(session.token, session.name, session.key, session.secret)
            session.stored = True

    # ---- tables ------------------------------------------------------------------------
    def _table_of(self, session: Session) -> Table | None:
        if session.table_id is None:
            return None
        table = self.tables.get(session.table_id)
        if table is None:
            session.table_id = None
        return table

    def table_of(self, session: Session) -> Table:
        table = self._table_of(session)
        if table is None:
            raise Refused("not_seated", "you are not at a table")
        return table

    def _get(self, table_id: int) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise Refused("no_such_table", f"no table {table_id}")
        return table

    def _not_at_table(self, session: Session) -> None:
        if self._table_of(session) is not None:
            raise Refused("already_seated", "you are already at a table; leave first")

    def list_tables(self, session: Session, msg: M.ListTables) -> M.TableList:
        """One page of the cached list (leekha.server.listing): O(page), not O(tables)."""
        self._watch(session, True)
        tables, following = self.listing.page(msg.cursor)
        return M.TableList.prechecked(
            re=msg.id, tables=tables, total=len(self.listing), next=following
        )

    def create_table(self, session: Session, msg: M.CreateTable, address: str) -> M.Snapshot:
        self._not_at_table(session)
        limit = self.settings.max_tables_per_connection
        if len(self._hosts(session)) >= limit:
            raise Refused("too_many_tables", f"you may host at most {limit} tables")
        per_address = self.settings.max_tables_per_address
        if self._per_address[address] >= per_address:
            raise Refused(
                "too_many_tables",
                f"{per_address} tables created from your address are still open",
            )
        name = clean_name(msg.name, self.max_name)
        rules = self.rules_of(msg.preset, msg.overrides)
        pass_s = timer_seconds(msg.pass_timer_s, self.settings.default_pass_timer_s)
        turn_s = timer_seconds(msg.turn_timer_s, self.settings.default_turn_timer_s)
        self._persist(session)
        table = self.open_table(
            name,
            msg.preset,
            rules,
            (pass_s, turn_s),
            host=session,
            password=hash_password(msg.password) if msg.password is not None else None,
        )
        table.counting_aid = msg.counting_aid
        self._created_from[table.id] = address
        self._per_address[address] += 1
        log.info(
            "{player} created table {table} {name!r}",
            player=session.name,
            table=table.id,
            name=name,
        )
        self._seat(session, table, 0)
        return table.snapshot(session.token, msg.id)

    @staticmethod
    def rules_of(preset_name: str, overrides: dict[str, Any]) -> dict[str, Any]:
        """The rules of a preset with a client's overrides, or `bad_rules` saying why not."""
        try:
            return preset(preset_name, overrides).to_dict()
        except ConfigError as exc:
            raise Refused.of(exc) from None

    def open_table(
        self,
        name: str,
        preset_name: str,
        rules: dict[str, Any],
        timers: tuple[float | None, float | None],
        *,
        host: Session | None = None,
        password: str | None = None,
    ) -> Table:
        """A new, empty table in the registry (and the database): a host's, or with no
        host one whose games the server runs itself (a tournament's)."""
        row = TableRow(
            id=self._next_id,
            name=name,
            host_token=host.token if host is not None else None,
            host_name=host.name if host is not None else None,
            preset=preset_name,
            rules=rules,
            password=password,
            pass_s=timers[0],
            turn_s=timers[1],
            status=WAITING,
        )
        self._next_id += 1
        self.store.save_table(row)
        table = Table(self, self.clock, self.options, row)
        self.tables[table.id] = table
        self._hosted(table)
        return table

    def _seat(self, session: Session, table: Table, seat: int | None) -> None:
        table.sit(session.token, session.name, seat)
        self.seated(session, table)

    def seated(self, session: Session, table: Table) -> None:
        """The session now sits at `table` (it took a seat, or the server gave it one)."""
        self._persist(session)
        self._watch(session, False)
        session.table_id = table.id
        self._cancel_expiry(session)

    def join_seat(self, session: Session, msg: M.JoinSeat) -> M.Snapshot:
        self._not_at_table(session)
        table = self._get(msg.table_id)
        table.check_password(msg.password)
        self._seat(session, table, msg.seat)
        self.clock.callLater(0, table.replay_chat, session.token)  # after the reply
        return table.snapshot(session.token, msg.id)

    def spectate(self, session: Session, msg: M.Spectate) -> M.Snapshot:
        self._not_at_table(session)
        table = self._get(msg.table_id)
        table.check_password(msg.password)
        self._watch(session, False)
        session.table_id = table.id
        table.spectate(session.token)
        self.clock.callLater(0, table.replay_chat, session.token)  # after the reply
        return table.snapshot(session.token, msg.id)

    def leave(self, session: Session) -> None:
        table = self.table_of(session)
        session.table_id = None
        table.leave(session.token)
        self.tournaments.poke()

    def chat(self, session: Session, text: str) -> None:
        body = clean_chat(text, self.max_chat)
        self.voice.allow(session)
        table = self._table_of(session)
        if table is not None:
            table.say(session.name, body)
            return
        self.lobby_line(session.name, body)

    def lobby_line(
        self,
        sender: str,
        text: str,
        code: str | None = None,
        args: dict[str, object] | None = None,
    ) -> None:
        """A chat line to everyone in the lobby (a server notice with its code, 1.4)."""
        lobby_msg = M.ChatMessage(
            sender=sender, text=text, table_id=None, code=code, args=dict(args or {})
        )
        for other in self.sessions.values():
            if other.peer is not None and other.table_id is None:
                other.send(lobby_msg)

    # ---- the TableHub interface --------------------------------------------------------
    def deliver(self, token: str, msg: Message) -> None:
        session = self.sessions.get(token)
        if session is not None:
            session.send(msg)

    def table_changed(self, table: Table) -> None:
        self._hosted(table)
        update = self._list(table)
        if update is None:
            return
        self._push(update)
        self._counts()
        self._note_deserted(table.id, update.table or {})

    def _list(self, table: Table) -> M.TableUpdate | None:
        """Put the table's summary in the listing, checked once here (the `table_update`
        that announces it checks it), so list pages send it as it is
        (`TableList.prechecked`); None when the summary did not change."""
        summary = table.summary()
        if self.listing.get(table.id) == summary:
            return None
        update = M.TableUpdate(table_id=table.id, table=summary)
        self.listing.put(table.id, update.table or summary)
        return update

    def _note_deserted(self, table_id: int, summary: dict[str, Any]) -> None:
        """Keep the deserted-table index (waiting, no human connected) and close the
        oldest past max_deserted_tables: an empty table waiting out its grace period
        costs the lobby a line, and churned from many addresses they would bury it."""
        humans = [s for s in summary["seats"] if s["name"] is not None and not s["is_bot"]]
        deserted = summary["status"] == WAITING and not any(s["connected"] for s in humans)
        if not deserted:
            self._deserted.pop(table_id, None)
            return
        self._deserted.setdefault(table_id, None)
        while len(self._deserted) > self.settings.max_deserted_tables:
            oldest = next(iter(self._deserted))
            del self._deserted[oldest]
            table = self.tables.get(oldest)
            if table is not None:
                log.info("table {table} closed: too many deserted tables", table=oldest)
                table.close()

    def table_closed(self, table: Table) -> None:
        self.tables.pop(table.id, None)
        self.tournaments.table_closed(table)
        self.listing.remove(table.id)
        self._deserted.pop(table.id, None)
        address = self._created_from.pop(table.id, None)
        if address is not None:
            self._per_address[address] -= 1
            if self._per_address[address] <= 0:
                del self._per_address[address]
        hosted = self._hosting.get(table.host_token or "")
        if hosted is not None:
            hosted.discard(table.id)
            if not hosted:
                del self._hosting[table.host_token or ""]
        for token in table.tokens():
            session = self.sessions.get(token)
            if session is not None and session.table_id == table.id:
                session.table_id = None
        self._push(M.TableUpdate(table_id=table.id, table=None))
        log.info("table {table} closed", table=table.id)
        self._counts()

    def release(self, token: str, table: Table) -> None:
        session = self.sessions.get(token)
        if session is not None and session.table_id == table.id:
            session.table_id = None

    def _push(self, msg: Message) -> None:
        for session in list(self._watchers):
            session.send(msg)

    def _counts(self) -> None:
        if self.on_counts is not None:
            self.on_counts(len(self.tables), self._connected)
