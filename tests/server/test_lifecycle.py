"""The table lifecycle under random joins, leaves, drops, resumes, starts and rematches.

Whatever happened before, a table that still exists must be usable: every member can
leave, a seated person holds the host controls, and the host can fill the empty seats with
bots and start (or everyone seated can vote a rematch). Driven through the real lobby and
connections on a fake clock.
"""

from __future__ import annotations

from helpers.server import VERSIONS, FakeClient, Harness, status
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from leekha.protocol import catalogue as M
from leekha.protocol.message import Message
from leekha.server.domain.session import token_id
from leekha.server.domain.table import Table

PEOPLE = ("ann", "bob", "cat", "dan", "eve")
GRACE = 3.0
people = st.sampled_from(PEOPLE)
seats = st.one_of(st.none(), st.integers(0, 3))


class TableLife(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.h = Harness(seat_grace_s=GRACE, default_pass_timer_s=1.0, default_turn_timer_s=1.0)
        self.conn: dict[str, FakeClient] = {}
        self.tokens: dict[str, str] = {}
        for name in PEOPLE:
            client = self.h.player(name)
            self.conn[name] = client
            self.tokens[name] = client.token or ""
        self.online = set(PEOPLE)
        self.tid: int | None = None

    # ---- helpers -----------------------------------------------------------------------
    def sid(self, name: str) -> str:
        """The id the server knows `name`'s session by (its token's digest)."""
        return token_id(self.tokens[name])

    def table(self) -> Table | None:
        return self.h.lobby.tables.get(self.tid) if self.tid is not None else None

    def ask(self, name: str, msg: Message) -> Message:
        return self.conn[name].request(msg)

    def rid(self, name: str) -> int:
        return self.conn[name].rid()

    def at_table(self, name: str) -> bool:
        table = self.table()
        return table is not None and (
            table.seat_of(self.sid(name)) is not None or self.sid(name) in table.spectators
        )

    def come_back(self, name: str) -> None:
        client = self.h.connect()
        reply = client.request(M.Resume(id=1, versions=VERSIONS, token=self.tokens[name]))
        if isinstance(reply, M.Error):  # the session expired: a fresh one, same name
            assert reply.code == "bad_token"
            client.hello(name)
        self.conn[name] = client
        self.tokens[name] = client.token or ""
        self.online.add(name)

    # ---- rules -------------------------------------------------------------------------
    @precondition(lambda self: self.table() is None)
    @rule(name=people)
    def create(self, name: str) -> None:
        if name not in self.online:
            self.come_back(name)
        reply = self.ask(name, M.CreateTable(id=self.rid(name), name="t", overrides={"target": 1}))
        if isinstance(reply, M.Snapshot):
            self.tid = int(reply.table["id"])
        else:
            assert isinstance(reply, M.Error) and reply.code == "already_seated"

    @precondition(lambda self: self.table() is not None)
    @rule(name=people, seat=seats)
    def join(self, name: str, seat: int | None) -> None:
        if name not in self.online or self.tid is None:
            return
        reply = self.ask(name, M.JoinSeat(id=self.rid(name), table_id=self.tid, seat=seat))
        if isinstance(reply, M.Error):
            assert reply.code in ("table_full", "seat_taken", "already_seated"), reply

    @precondition(lambda self: self.table() is not None)
    @rule(name=people)
    def spectate(self, name: str) -> None:
        if name not in self.online or self.tid is None:
            return
        reply = self.ask(name, M.Spectate(id=self.rid(name), table_id=self.tid))
        if isinstance(reply, M.Error):
            assert reply.code == "already_seated", reply

    @rule(name=people)
    def leave(self, name: str) -> None:
        if name not in self.online:
            return
        member = self.at_table(name)
        reply = self.ask(name, M.Leave(id=self.rid(name)))
        assert isinstance(reply, M.Ok) == member, (member, reply)
        assert not self.at_table(name)

    @rule(name=people)
    def drop(self, name: str) -> None:
        if name in self.online:
            self.conn[name].drop()
            self.online.discard(name)

    @rule(name=people)
    def resume(self, name: str) -> None:
        if name not in self.online:
            self.come_back(name)

    def host(self) -> str | None:
        table = self.table()
        host = next((n for n in PEOPLE if table and self.sid(n) == table.host_token), None)
        return host if host in self.online else None

    @precondition(lambda self: self.table() is not None)
    @rule(seat=st.integers(0, 3), by_host=st.booleans(), name=people)
    def add_bot(self, seat: int, by_host: bool, name: str) -> None:
        who = self.host() if by_host else name
        if who in self.online:
            self.ask(who, M.AddBot(id=self.rid(who), seat=seat, strategy="random"))

    @precondition(lambda self: self.table() is not None)
    @rule(by_host=st.booleans(), name=people)
    def start(self, by_host: bool, name: str) -> None:
        who = self.host() if by_host else name
        if who in self.online:
            self.ask(who, M.Start(id=self.rid(who)))

    @precondition(lambda self: self.table() is not None)
    @rule(name=people)
    def rematch(self, name: str) -> None:
        if name in self.online:
            self.ask(name, M.Rematch(id=self.rid(name)))

    @rule(seconds=st.sampled_from([0.5, GRACE + 1, 40.0]))
    def wait(self, seconds: float) -> None:
        while seconds > 0:
            step = min(seconds, 5.0)
            self.h.advance(step, step=0.25)
            seconds -= step
            for name in self.online:  # people at their keyboards answer the server's pings
                client = self.conn[name]
                for msg in client.drain():
                    if isinstance(msg, M.Ping):
                        client.send(M.Pong(re=msg.id))

    @precondition(lambda self: self.table() is not None)
    @rule()
    def play_out(self) -> None:
        """Let the timers and bots finish the running game (target 1: one round)."""
        table = self.table()
        for _ in range(60):
            if table is None or table.closed or table.status != "playing":
                return
            self.wait(5.0)

    @precondition(lambda self: self.table() is not None)
    @rule()
    def the_host_can_always_get_a_game_going(self) -> None:
        """Not a random move but the check: from here, the table's own people start a game."""
        table = self.table()
        assert table is not None
        event(f"rescue from {table.status}")
        if table.status == "playing":
            return
        if table.status == "finished" and table.humans() and not table.room.empty():
            for i in table.humans():  # everyone seated votes (an AFK seat needs no vote)
                seat = table.seats[i]
                if status(table) == "playing":
                    break
                assert seat is not None
                name = next(n for n in PEOPLE if self.sid(n) == seat.token)
                if name not in self.online:
                    self.come_back(name)
                reply = self.ask(name, M.Rematch(id=self.rid(name)))
                assert isinstance(reply, M.Ok), reply
            assert status(table) == "playing"
            return
        if not table.humans():  # only spectators: whoever sits down takes the controls
            outside = [n for n in PEOPLE if not self.at_table(n)]
            name = outside[0] if outside else PEOPLE[0]
            if name not in self.online:
                self.come_back(name)
            if not outside:
                self.ask(name, M.Leave(id=self.rid(name)))  # the others still watch
            reply = self.ask(name, M.JoinSeat(id=self.rid(name), table_id=table.id))
            assert isinstance(reply, M.Snapshot), reply
        host = next((n for n in PEOPLE if self.sid(n) == table.host_token), None)
        assert host is not None, "someone must hold the host controls"
        if host not in self.online:
            self.come_back(host)
        for free in table.room.empty():
            reply = self.ask(host, M.AddBot(id=self.rid(host), seat=free, strategy="random"))
            assert isinstance(reply, M.Ok), reply
        reply = self.ask(host, M.Start(id=self.rid(host)))
        assert isinstance(reply, M.Ok), reply
        assert status(table) == "playing"

    # ---- invariants --------------------------------------------------------------------
    @invariant()
    def a_seated_person_hosts(self) -> None:
        table = self.table()
        if table is None or table.closed:
            return
        assert table.humans() or table.spectators, "a deserted table is closed"
        if table.humans():
            assert table.seat_of(table.host_token or "") is not None, "the host is seated"

    @invariant()
    def sessions_and_seats_agree(self) -> None:
        table = self.table()
        for name in PEOPLE:
            session = self.h.lobby.sessions.get(self.sid(name))
            seated = table is not None and table.seat_of(self.sid(name)) is not None
            if seated:
                assert table is not None and session is not None
                assert session.table_id == table.id

    def teardown(self) -> None:
        for table in list(self.h.lobby.tables.values()):
            table.shutdown()


TableLife.TestCase.settings = settings(
    max_examples=40,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
test_table_lifecycle = TableLife.TestCase
