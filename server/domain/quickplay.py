"""Quick play: one request, and the server finds the person a game.

The server decides everything in one place, on its one thread, so two people who ask at
the same moment are seated one after the other and never fight over a seat. In order:

1. a waiting table that quick play opened, with exactly the rules asked for and a free
   seat: the fullest first, so tables fill instead of spreading people. A host's own open
   table is never used: the host holds its seats for whom they choose and starts it;
2. a quick-play table already playing with a bot in a seat nobody has claimed yet: the
   person watches until the round ends and then takes that bot's seat (`between_rounds`);
3. a new table, hosted by the person. After their `wait_s` (on the server's clock) the
   empty seats get bots of their level and the game starts; four people start it sooner.

A claim on a bot seat lapses when the person leaves or drops from the table. A claim
whose game ends before a round ends with a bot seat free (the round was the last) is not
left watching a finished table: the person is placed again as if they had asked now, and
told where (`quick_moved`).

Which tables quick play opened, and the level of their bots, is kept in the server's
database (`quick_tables`), so after a restart a restored quick-play table still lets
latecomers take its bots' seats between rounds; one restored while waiting for people
waits its whole wait again (the people at it are reconnecting too). Claims are not kept:
a claimant's connection did not survive the restart either.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from twisted.logger import Logger

from leekha.common.config import RulesConfig
from leekha.common.errors import Facts
from leekha.protocol import catalogue as M
from leekha.protocol import people
from leekha.protocol.message import Message
from leekha.protocol.notices import NOTICES, english
from leekha.server.domain.clock import Clock, Timer
from leekha.server.domain.errors import Refused
from leekha.server.domain.lifecycle import PLAYING, WAITING
from leekha.server.domain.persistence import Store
from leekha.server.domain.seats import bot_strategy_name
from leekha.server.domain.session import Session
from leekha.server.domain.table import Table
from leekha.server.domain.tablechat import SYSTEM_SENDER

log = Logger()

#: Seconds a quick-play table waits for people when the request does not say.
DEFAULT_WAIT_S = 20

SCHEMA = """
CREATE TABLE IF NOT EXISTS quick_tables (
    table_id INTEGER PRIMARY KEY,
    bot TEXT NOT NULL,
    wait_s REAL NOT NULL
);
"""


@dataclass
class QuickTable:
    """A table quick play opened: whose bots fill it, when, and who waits for a bot seat."""

    bot: str
    wait_s: float = DEFAULT_WAIT_S
    fill: Timer | None = None
    #: Spectators waiting for a bot seat, first come first seated.
    claims: list[Claim] = field(default_factory=list)


@dataclass
class Claim:
    """A person waiting for a bot's seat: what they asked for, and from where, to place
    them again if the game ends first."""

    token: str
    msg: people.QuickPlay
    address: str


class Matchmaking(Protocol):
    """What quick play needs of the lobby (a narrow port, not the concrete `Lobby`): its
    tables and sessions, and the requests it makes for a person."""

    clock: Clock
    store: Store

    @property
    def sessions(self) -> Mapping[str, Session]: ...

    @property
    def tables(self) -> Mapping[int, Table]: ...

    def rules_of(self, preset_name: str, overrides: dict[str, Any]) -> RulesConfig: ...

    def create_table(self, session: Session, msg: M.CreateTable, address: str) -> M.Snapshot: ...

    def join_seat(self, session: Session, msg: M.JoinSeat) -> M.Snapshot: ...

    def spectate(self, session: Session, msg: M.Spectate) -> M.Snapshot: ...

    def leave(self, session: Session) -> None: ...

    def deliver(self, token: str, msg: Message) -> None: ...


class QuickPlay:
    """The lobby's matchmaker for `quick_play`."""

    def __init__(self, lobby: Matchmaking) -> None:
        self.lobby = lobby
        self.tables: dict[int, QuickTable] = {}
        self._names = itertools.count(1)
        lobby.store.add_schema(SCHEMA)

    def restore(self) -> None:
        """After the lobby restored its tables: the quick-play ones are quick play's
        again (their bots' seats open to latecomers, a waiting one's fill timer)."""
        rows = self.lobby.store.read("SELECT table_id, bot, wait_s FROM quick_tables")
        for table_id, bot, wait_s in rows:
            table = self.lobby.tables.get(int(table_id))
            if table is None or table.closed:
                self._forget(int(table_id))
                continue
            self._adopt(table, QuickTable(str(bot), float(wait_s)))
            log.info("quick play: table {table} restored", table=table.id)
        self._names = itertools.count(len(rows) + 1)

    def _adopt(self, table: Table, quick: QuickTable) -> None:
        self.tables[table.id] = quick
        table.between_rounds = self._between_rounds
        if table.status == WAITING:
            quick.fill = self.lobby.clock.callLater(quick.wait_s, self._fill, table.id)

    def _forget(self, table_id: int) -> None:
        with self.lobby.store.write() as db:
            db.execute("DELETE FROM quick_tables WHERE table_id = ?", (table_id,))

    def request(self, session: Session, msg: people.QuickPlay, address: str) -> M.Snapshot:
        lobby = self.lobby
        if lobby.tables.get(session.table_id or -1) is not None:
            raise Refused("already_seated", "you are already at a table; leave first")
        rules = lobby.rules_of(msg.preset, msg.overrides)
        bot = bot_strategy_name(msg.bot)
        self._forget_closed()
        table = self._waiting_table(rules)
        if table is not None:
            reply = lobby.join_seat(session, M.JoinSeat(id=msg.id, table_id=table.id))
            self._start_if_full(table)
            return reply
        table = self._table_with_a_bot(rules)
        if table is not None:
            reply = lobby.spectate(session, M.Spectate(id=msg.id, table_id=table.id))
            self.tables[table.id].claims.append(Claim(session.token, msg, address))
            told = M.ChatMessage(
                sender=SYSTEM_SENDER,
                table_id=table.id,
                text=NOTICES["quick_wait"],
                code="quick_wait",
            )
            lobby.deliver(session.token, told)
            return reply
        create = M.CreateTable(
            id=msg.id,
            name=f"quick play {next(self._names)}",
            preset=msg.preset,
            overrides=msg.overrides,
        )
        reply = lobby.create_table(session, create, address)
        table = lobby.tables[int(reply.table["id"])]
        wait = DEFAULT_WAIT_S if msg.wait_s is None else msg.wait_s
        with lobby.store.write() as db:
            db.execute(
                "INSERT OR REPLACE INTO quick_tables (table_id, bot, wait_s) VALUES (?, ?, ?)",
                (table.id, bot, float(wait)),
            )
        self._adopt(table, QuickTable(bot, float(wait)))
        log.info("quick play: {player} opened table {table}", player=session.name, table=table.id)
        return reply

    def _forget_closed(self) -> None:
        for tid in [t for t in self.tables if t not in self.lobby.tables]:
            quick = self.tables.pop(tid)
            if quick.fill is not None and quick.fill.active():
                quick.fill.cancel()
            self._forget(tid)

    def _open(self, table: Table, rules: RulesConfig) -> bool:
        return (
            not table.closed
            and table.password is None
            and table.tournament is None
            and table.config == rules
        )

    def _waiting_table(self, rules: RulesConfig) -> Table | None:
        tables = (self.lobby.tables.get(tid) for tid in self.tables)
        fits = [
            t
            for t in tables
            if t is not None and t.status == WAITING and self._open(t, rules) and t.room.empty()
        ]
        # The fullest first, then the oldest.
        fits.sort(key=lambda t: (len(t.room.empty()), t.id))
        return fits[0] if fits else None

    def _table_with_a_bot(self, rules: RulesConfig) -> Table | None:
        for tid, quick in sorted(self.tables.items()):
            table = self.lobby.tables.get(tid)
            if table is None or table.status != PLAYING or not self._open(table, rules):
                continue
            self._drop_lapsed(table, quick)
            bots = sum(1 for s in table.seats if s is not None and s.is_bot)
            if bots > len(quick.claims):
                return table
        return None

    def _drop_lapsed(self, table: Table, quick: QuickTable) -> None:
        """Claims of people who are no longer watching this table (left, or dropped)."""
        sessions = self.lobby.sessions
        quick.claims = [
            c
            for c in quick.claims
            if c.token in table.spectators
            and (s := sessions.get(c.token)) is not None
            and s.peer is not None
            and s.table_id == table.id
        ]

    def _start_if_full(self, table: Table) -> None:
        quick = self.tables.get(table.id)
        if quick is None or table.room.empty() or table.status != WAITING:
            return
        if table.host_token is None:
            return
        if quick is not None and quick.fill is not None and quick.fill.active():
            quick.fill.cancel()
        table.start(table.host_token)

    def _fill(self, table_id: int) -> None:
        """The wait is over: bots in the empty seats, and play."""
        table = self.lobby.tables.get(table_id)
        quick = self.tables.get(table_id)
        if table is None or quick is None or table.status != WAITING or table.host_token is None:
            return
        quick.fill = None
        try:
            for seat in table.room.empty():
                table.add_bot(table.host_token, seat, quick.bot)
            table.start(table.host_token)
        except Refused as exc:
            log.warn("quick play table {table}: cannot fill: {why}", table=table_id, why=exc)

    def _between_rounds(self, table: Table) -> None:
        """Waiting people take the bots' seats before the next round is played."""
        quick = self.tables.get(table.id)
        if quick is None:
            return
        self._drop_lapsed(table, quick)
        if table.status != PLAYING:  # that round was the game's last
            if quick.claims:
                self.lobby.clock.callLater(0, self._place_again, table.id)
            return
        while quick.claims:
            bots = [i for i, s in enumerate(table.seats) if s is not None and s.is_bot]
            session = self.lobby.sessions.get(quick.claims[0].token)
            if not bots or session is None:
                break
            quick.claims.pop(0)
            seat = bots[0]
            table.take_bot_seat(seat, session.token, session.name)
            table.notice("quick_seat", name=session.name, seat=seat)

    def _place_again(self, table_id: int) -> None:
        """The game ended with people still waiting for its bots' seats: each is placed
        again as if they had asked now (another table, or a new one), and told where."""
        quick = self.tables.get(table_id)
        table = self.lobby.tables.get(table_id)
        if quick is None or table is None:
            return
        self._drop_lapsed(table, quick)
        claims, quick.claims = quick.claims, []
        for claim in claims:
            session = self.lobby.sessions.get(claim.token)
            if session is None or session.table_id != table_id:
                continue
            self.lobby.leave(session)
            try:
                self.request(session, claim.msg, claim.address)
            except Refused as exc:  # no table for them now (say, their address's limit)
                log.info("quick play: {who} not placed again: {why}", who=session.name, why=exc)
                self.lobby.spectate(session, M.Spectate(id=0, table_id=table_id))
                continue
            new = self.lobby.tables.get(session.table_id or -1)
            if new is None:
                continue
            session.send(new.snapshot(session.token))
            moved: Facts = {"table": new.name}
            session.send(
                M.ChatMessage(
                    sender=SYSTEM_SENDER,
                    table_id=new.id,
                    text=english(NOTICES["quick_moved"], moved),
                    code="quick_moved",
                    args=moved,
                )
            )
