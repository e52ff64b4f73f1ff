"""Over many random games, nothing written to a seat or a spectator holds a hidden card."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from helpers.server import FakeClient, Harness, answer_prompts, created_table, requests_of
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leekha.common import cards as C
from leekha.common.config import PRESETS
from leekha.protocol import catalogue as M
from leekha.protocol.message import Message
from leekha.server.connection import FramedConnection
from leekha.server.domain.table import Table


def hidden_from(table: Table, seat: int | None) -> set[int]:
    """Cards in other seats' hands that `seat` has no right to know right now."""
    game = table.game
    if game is None:
        return set()
    hidden = 0
    for other in range(4):
        if other != seat:
            hidden |= game.hands[other]
    hidden &= ~game.doubled_mask  # revealed doubles are public
    if seat is not None:
        mine = game.passed[seat]
        if mine is not None:
            hidden &= ~mine  # you know where your own pass went
    return set(C.cards_of(hidden))


def exposed(msg: Message) -> set[int]:
    """Every card a message shows as held, legal or received (played cards are public)."""
    if isinstance(msg, M.Dealt):
        return set(msg.hand)
    if isinstance(msg, M.PassedReceived):
        return set(msg.cards)
    if isinstance(msg, M.YourTurn):
        return set(msg.legal)
    if isinstance(msg, M.Snapshot) and msg.view is not None:
        v = msg.view
        return set(v["hand"]) | set(v["legal"]) | set(v["passed"] or []) | set(v["received"] or [])
    return set()


class Spy:
    """Checks each message at the moment the server queues it for a connection (through
    `queue`, its fast twin `send`, or `send_all`, a table's events in one batch)."""

    def __init__(self, h: Harness, tid: int) -> None:
        self.h = h
        self.tid = tid
        self.checked = 0
        self.original = FramedConnection.queue

    def __call__(self, conn: FramedConnection, msg: Message, at: int | None) -> None:
        table = self.h.lobby.tables.get(self.tid)
        session = requests_of(conn).session
        if table is not None and session is not None:
            seat = table.seat_of(session.token)
            at_table = seat is not None or session.token in table.spectators
            if at_table:
                leak = exposed(msg) & hidden_from(table, seat)
                assert not leak, f"{msg.TYPE} to seat {seat} shows {leak}"
                if seat is None and isinstance(msg, M.Snapshot) and msg.view is not None:
                    assert msg.view["hand"] == []
                self.checked += 1
        self.original(conn, msg, at)

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        def queue(conn: FramedConnection, msg: Message, at: int | None) -> None:
            self(conn, msg, at)

        def send(conn: FramedConnection, msg: Message) -> None:
            self(conn, msg, None)  # send is queue at the end, spelled out for speed

        def send_all(conn: FramedConnection, msgs: Sequence[Message]) -> None:
            # A batch (a table's events) is checked message by message as it is queued.
            for msg in msgs:
                self(conn, msg, None)

        monkeypatch.setattr(FramedConnection, "queue", queue)
        monkeypatch.setattr(FramedConnection, "send", send)
        monkeypatch.setattr(FramedConnection, "send_all", send_all)


def double_sometimes(h: Harness, c: FakeClient, tid: int, rng: random.Random) -> None:
    table = h.lobby.tables.get(tid)
    if table is None or table.game is None or c.token is None:
        return
    seat = table.seat_of(c.sid)
    if seat is not None and table.game.can_double(seat) and rng.random() < 0.5:
        card = table.game.can_double(seat)[0]
        assert isinstance(c.request(M.DeclareDouble(id=c.rid(), card=card)), M.Ok)


def play_random_game(seed: int, preset: str, monkeypatch: pytest.MonkeyPatch) -> int:
    rng = random.Random(seed)
    h = Harness(bot_think_ms=5, seat_grace_s=0.5)
    h.lobby.new_seed = lambda: seed
    players = [h.player(f"p{i}") for i in range(3)]
    tid = created_table(
        players[0].request(M.CreateTable(id=1, name="t", preset=preset, overrides={"target": 50}))
    )
    for p in players[1:]:
        p.request(M.JoinSeat(id=p.rid(), table_id=tid))
    players[0].request(M.AddBot(id=50, seat=3, strategy="random"))
    watcher = h.player("watcher")
    spy = Spy(h, tid)
    spy.install(monkeypatch)
    watcher.request(M.Spectate(id=2, table_id=tid))
    players[0].request(M.Start(id=players[0].rid()))
    table = h.lobby.tables[tid]
    dropped = False
    for _ in range(20_000):
        if table.game is not None and table.game.outcome is not None:
            break
        for p in players:
            double_sometimes(h, p, tid, rng)
            answer_prompts(h, p, tid, rng)
        if not dropped and table.game is not None and len(table.game.actions) > 20:
            players.pop(1).drop()  # a bot plays for them after the grace period
            dropped = True
        h.advance(0.01)
        watcher.drain()
    assert table.game is not None and table.game.outcome is not None
    assert h.store.game_ids(), "the finished game was stored"
    return spy.checked


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(seed=st.integers(0, 2**31 - 1), preset=st.sampled_from(sorted(PRESETS)))
def test_no_message_shows_another_seats_hidden_cards(
    seed: int, preset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with monkeypatch.context() as m:
        checked = play_random_game(seed, preset, m)
    assert checked > 100


def test_the_spy_catches_a_leak(monkeypatch: pytest.MonkeyPatch) -> None:
    """The checker itself must be able to fail: send seat 0 another seat's hand."""
    h = Harness()
    alice = h.player("alice")
    tid = h.table_with_bots(alice)
    alice.request(M.Start(id=alice.rid()))
    table = h.lobby.tables[tid]
    assert table.game is not None
    Spy(h, tid).install(monkeypatch)
    leaked = M.Dealt(round=0, dealer=0, hand=C.cards_of(table.game.hands[2]))
    with pytest.raises(AssertionError, match="dealt to seat 0"):
        alice.proto.send(leaked)
