"""The lobby: the table registry, the live table list and lobby chat; it holds the desk of
its sessions (leekha.server.domain.sessions).

It owns every Table and is each table's hub: tables hand it messages for a session token
and it routes them to whatever connection holds that session now.
"""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Callable
from typing import Any

from twisted.logger import Logger

from leekha.common.config import RulesConfig, preset
from leekha.common.errors import ConfigError, Facts
from leekha.protocol import catalogue as M
from leekha.protocol.catalogue import STATS_MAX
from leekha.protocol.message import Message
from leekha.protocol.views import PlayerStats, TableSummary
from leekha.server.domain.clock import Clock
from leekha.server.domain.config import WIRE_CHAT_MAX, DomainSettings
from leekha.server.domain.errors import Refused
from leekha.server.domain.identities import Identities
from leekha.server.domain.lifecycle import WAITING
from leekha.server.domain.limits import clean_chat, clean_name
from leekha.server.domain.listing import Listing
from leekha.server.domain.outbox import Outbox
from leekha.server.domain.persistence import Store, TableRow
from leekha.server.domain.quickplay import QuickPlay
from leekha.server.domain.seats import WIRE_NAME_MAX, hash_password
from leekha.server.domain.session import Session
from leekha.server.domain.sessions import SessionDesk
from leekha.server.domain.standing import wire_standings
from leekha.server.domain.table import Table, TableOptions
from leekha.server.domain.timers import Deadlines
from leekha.server.domain.tournament.runner import TournamentRunner
from leekha.server.domain.voice import Voice

log = Logger()


def timer_seconds(asked: int | None, default: float) -> float | None:
    """A create_table timer: null takes the server's default, 0 means untimed (None)."""
    seconds = default if asked is None else float(asked)
    return seconds if seconds > 0 else None


class Lobby:
    def __init__(self, clock: Clock, settings: DomainSettings, store: Store) -> None:
        self.clock = clock
        self.settings = settings
        self.store = store
        #: Every message waits here for the commit of the turn's actions (group commit).
        self.outbox = Outbox(clock, store)
        self.closing = False
        # Never accept what the protocol could not carry, whatever the settings say.
        self.max_name = min(settings.max_name_len, WIRE_NAME_MAX)
        self.max_chat = min(settings.max_chat_len, WIRE_CHAT_MAX)
        self.identities = Identities(store, self.max_name)
        self.tables: dict[int, Table] = {}
        #: The sessions: hello, resume, who is where (held; it shares `tables`).
        self.desk = SessionDesk(
            self, clock, settings, store, self.identities, self.max_name, self.tables
        )
        self.sessions = self.desk.sessions
        #: A table's events to a member's connection in one call (the desk knows them).
        self.deliver_all = self.desk.deliver_all
        #: Whether a session's connection reads a message type (a table asks before it
        #: builds a `turn`, which 1.0 clients never get).
        self.hears = self.desk.hears
        #: Stored tables that could not be restored (id -> why): kept, not served.
        self.damaged: dict[int, str] = {}
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
            turn_timers=Deadlines(clock),
        )
        #: Where game seeds come from: the `game_seed` setting makes every game the same
        #: (tests and demonstrations through a real server); unit tests replace it.
        fixed = settings.game_seed
        self.new_seed: Callable[[], int] = (
            (lambda: secrets.randbits(31)) if fixed is None else (lambda: fixed)
        )
        #: Called with (tables, players) whenever the counts may have changed (LAN announce).
        self.on_counts: Callable[[int, int], None] | None = None
        #: The tournaments this server runs (leekha.server.domain.tournament.runner).
        self.tournaments = TournamentRunner(self)
        #: Who may say what: the chat limit, mutes and quick phrases (leekha.server.domain.voice).
        self.voice = Voice(self)
        #: `quick_play`: the server seats a person where a game is (leekha.server.domain.quickplay).
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
                self.desk.restore_seated(row, stored)
                self.tables[row.id] = table
                self.desk.hosted(table)
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
            self.desk.restore_all(stored)
        self.tournaments.restore()
        self.quick.restore()
        self.outbox.flush()
        self.counts_changed()
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
            self.desk.cancel_expiry(session)

    # ---- the desk's port (leekha.server.domain.sessions.DeskOwner) -----------------------------
    def peer_changed(self, session: Session) -> None:
        self.tournaments.peer_changed(session)

    def counts_changed(self) -> None:
        if self.on_counts is not None:
            self.on_counts(len(self.tables), self.desk.connected)

    # ---- statistics ----------------------------------------------------------------------
    def stats(self, name: str | None) -> list[PlayerStats]:
        """The leaderboard for `get_stats` (humans only): ratings (1.2) and totals."""
        return wire_standings(self.store, name, STATS_MAX, WIRE_NAME_MAX)

    # ---- tables ------------------------------------------------------------------------
    def table_of(self, session: Session) -> Table:
        table = self.desk.table_at(session)
        if table is None:
            raise Refused("not_seated", "you are not at a table")
        return table

    def _get(self, table_id: int) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise Refused("no_such_table", f"no table {table_id}")
        return table

    def _not_at_table(self, session: Session) -> None:
        if self.desk.table_at(session) is not None:
            raise Refused("already_seated", "you are already at a table; leave first")

    def list_tables(self, session: Session, msg: M.ListTables) -> M.TableList:
        """One page of the cached list (leekha.server.domain.listing): O(page), not O(tables)."""
        self.desk.watch(session, True)
        tables, following = self.listing.page(msg.cursor)
        return M.TableList.trusted(
            re=msg.id, tables=tables, total=len(self.listing), next=following
        )

    def create_table(self, session: Session, msg: M.CreateTable, address: str) -> M.Snapshot:
        self._not_at_table(session)
        limit = self.settings.max_tables_per_connection
        if len(self.desk.hosts(session)) >= limit:
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
        self.desk.persist(session)
        table = self.open_table(
            name,
            msg.preset,
            rules,
            (pass_s, turn_s),
            host=session,
            password=hash_password(msg.password) if msg.password is not None else None,
            counting_aid=msg.counting_aid,
        )
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
    def rules_of(preset_name: str, overrides: dict[str, Any]) -> RulesConfig:
        """The rules of a preset with a client's overrides, or `bad_rules` saying why not."""
        try:
            return preset(preset_name, overrides)
        except ConfigError as exc:
            raise Refused.of(exc) from None

    def open_table(
        self,
        name: str,
        preset_name: str,
        rules: RulesConfig,
        timers: tuple[float | None, float | None],
        *,
        host: Session | None = None,
        password: str | None = None,
        counting_aid: bool = True,
    ) -> Table:
        """A new, empty table in the registry (and the database): a host's, or with no
        host one whose games the server runs itself (a tournament's)."""
        row = TableRow(
            id=self._next_id,
            name=name,
            host_token=host.token if host is not None else None,
            host_name=host.name if host is not None else None,
            preset=preset_name,
            rules=rules.to_dict(),  # the store's form; the table keeps `rules` itself
            password=password,
            pass_s=timers[0],
            turn_s=timers[1],
            status=WAITING,
            counting_aid=counting_aid,
        )
        self._next_id += 1
        self.store.save_table(row)
        table = Table(self, self.clock, self.options, row, rules)
        self.tables[table.id] = table
        self.desk.hosted(table)
        return table

    def _seat(self, session: Session, table: Table, seat: int | None) -> None:
        table.sit(session.token, session.name, seat)
        self.seated(session, table)

    def seated(self, session: Session, table: Table) -> None:
        """The session now sits at `table` (it took a seat, or the server gave it one)."""
        self.desk.persist(session)
        self.desk.watch(session, False)
        session.table_id = table.id
        self.desk.cancel_expiry(session)

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
        self.desk.watch(session, False)
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
        table = self.desk.table_at(session)
        if table is not None:
            table.say(session.name, body)
            return
        self.lobby_line(session.name, body)

    def lobby_line(
        self,
        sender: str,
        text: str,
        code: str | None = None,
        args: Facts | None = None,
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
        if session is not None and session.peer is not None:
            session.peer.send(msg)

    def table_changed(self, table: Table) -> None:
        self.desk.hosted(table)
        update = self._list(table)
        if update is None:
            return
        self._push(update)
        self.counts_changed()
        if update.table is not None:  # always: `_list` puts the summary in it
            self._note_deserted(table.id, update.table)

    def _list(self, table: Table) -> M.TableUpdate | None:
        """Put the table's summary in the listing, checked once here (the `table_update`
        that announces it checks it), so list pages send it as it is
        (`TableList.trusted`); None when the summary did not change."""
        summary = table.summary()
        if self.listing.get(table.id) == summary:
            return None
        update = M.TableUpdate(table_id=table.id, table=summary)
        self.listing.put(table.id, update.table or summary)
        return update

    def _note_deserted(self, table_id: int, summary: TableSummary) -> None:
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
        self.desk.unhost(table)
        for token in table.tokens():
            session = self.sessions.get(token)
            if session is not None and session.table_id == table.id:
                session.table_id = None
        self._push(M.TableUpdate(table_id=table.id, table=None))
        log.info("table {table} closed", table=table.id)
        self.counts_changed()

    def release(self, token: str, table: Table) -> None:
        session = self.sessions.get(token)
        if session is not None and session.table_id == table.id:
            session.table_id = None

    def _push(self, msg: Message) -> None:
        for session in list(self.desk.watchers):
            session.send(msg)
