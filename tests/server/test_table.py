"""Tables on a fake clock: whole games, rule errors, timers, AFK, disconnects and seats."""

from __future__ import annotations

from typing import Any

import pytest
from helpers.server import VERSIONS, FakeClient, Harness, answer_prompts, play_until, status

from leekha.common import cards as C
from leekha.common.actions import Action, Double, Pass, check_pass_cards
from leekha.common.cards import check_card
from leekha.common.game import Game
from leekha.protocol import catalogue as M
from leekha.server.domain.errors import Refused
from leekha.server.domain.session import token_id
from leekha.server.domain.table import Table


def alice_starts(h: Harness, **table: Any) -> tuple[FakeClient, int, Table, Game]:
    """alice hosts a table of three bots (`table`: table_with_bots' options) and starts it."""
    alice = h.player("alice")
    tid = h.table_with_bots(alice, **table)
    alice.request(M.Start(id=alice.rid()))
    game = h.lobby.tables[tid].game
    assert game is not None
    return alice, tid, h.lobby.tables[tid], game


def alice_and_bob_start(h: Harness) -> tuple[FakeClient, FakeClient, int, Table]:
    """alice hosts a one-point game, bob sits at seat 1, two bots fill it, alice starts it."""
    alice, bob, tid = h.host_and_guest(seat=1, bots=True, overrides={"target": 1})
    alice.request(M.Start(id=alice.rid()))
    return alice, bob, tid, h.lobby.tables[tid]


def test_a_whole_game_with_three_bots_is_stored_with_stats() -> None:
    h = Harness()
    alice = h.player("alice")
    tid = h.table_with_bots(alice, overrides={"target": 40})
    assert isinstance(alice.request(M.Start(id=alice.rid())), M.Ok)
    over: list[M.GameOver] = []

    def done() -> bool:
        over.extend(m for m in alice.inbox if isinstance(m, M.GameOver))
        return bool(over) or bool(alice.of(M.GameOver))

    play_until(h, [alice], tid, done)
    table = h.lobby.tables[tid]
    assert table.status == "finished" and table.game is not None
    (gid,) = h.store.game_ids()
    record = h.store.game_record(gid)
    outcome = table.game.outcome
    assert record is not None and outcome is not None
    assert record["players"][0] == "alice" and record["result"] == outcome.to_dict()
    assert record["actions"] == table.game.actions
    (stats,) = h.store.stats("alice")
    assert stats.games == 1 and stats.rounds == len(table.game.history)
    assert stats.wins == (1 if 0 in outcome.winners else 0)


def test_a_bad_action_gets_the_engine_code_and_changes_nothing() -> None:
    h = Harness()
    alice, _tid, _, game = alice_starts(h)
    not_mine = next(c for c in range(52) if not game.hands[0] & C.BIT[c])
    mine = C.cards_of(game.hands[0])
    before = list(game.actions)
    reply = alice.request(M.PlayCard(id=50, card=mine[0]))
    assert isinstance(reply, M.Error) and reply.code == "wrong_phase" and reply.re == 50
    reply = alice.request(M.PassCards(id=51, cards=sorted([mine[0], mine[1], not_mine])))
    assert isinstance(reply, M.Error) and reply.code == "not_in_hand"
    if not game.config.doubling:
        reply = alice.request(M.DeclareDouble(id=52, card=C.QUEEN_SPADES))
        assert isinstance(reply, M.Error) and reply.code == "cannot_double"
    assert game.actions == before


def test_playing_out_of_turn_is_refused() -> None:
    h = Harness(bot_think_ms=1000)
    alice, tid, _table, game = alice_starts(h)
    answer_prompts(h, alice, tid)
    h.advance(5, step=1.0)  # the bots pass
    assert game.phase == "play"
    if game.turn != 0:
        card = C.cards_of(game.hands[0])[0]
        reply = alice.request(M.PlayCard(id=99, card=card))
        assert isinstance(reply, M.Error) and reply.code == "not_your_turn"


def test_turn_timer_plays_for_the_seat_then_a_bot_takes_over_until_they_act() -> None:
    h = Harness(default_pass_timer_s=10.0, default_turn_timer_s=5.0, afk_timeouts_before_bot=2)
    alice, tid, table, game = alice_starts(h)
    (prompt,) = alice.of(M.YourTurn)
    assert prompt.phase == "pass" and prompt.deadline == 10.0
    assert len(prompt.legal) >= 3
    h.advance(9.9, step=0.1)
    assert game.passed[0] is None
    h.advance(0.2)
    assert game.passed[0] is not None, "the server passed for the seat"
    assert table.seats[0] is not None and table.seats[0].timeouts == 1
    assert not table.seats[0].afk
    # Wait for alice's first play prompt, and let it time out too.
    h.advance(20, step=0.5)
    seat0 = table.seats[0]
    assert seat0 is not None and seat0.afk, "two timeouts in a row: a bot plays"
    updates = [u for u in alice.of(M.SeatUpdate) if u.seat == 0]
    assert updates[-1].player["strategy"] is not None
    moves = len(game.actions)
    h.advance(3, step=0.05)
    assert len(game.actions) > moves + 3, "the bot keeps playing, fast"
    alice.drain()
    assert isinstance(alice.request(M.Chat(id=alice.rid(), text="back")), M.Ok)
    assert not seat0.afk and seat0.timeouts == 0
    play_until(h, [alice], tid, lambda: game.turn == 0 and game.phase == "play", limit=30)
    turn_at = len(game.actions)
    h.advance(4.0, step=0.1)
    assert len(game.actions) == turn_at, "back in control: nobody plays for her early"


def test_disconnect_grace_then_bot_then_resume_with_snapshot() -> None:
    h = Harness(seat_grace_s=10.0)
    alice, _tid, table, game = alice_starts(h)
    token = alice.token
    alice.drop()
    seat0 = table.seats[0]
    assert seat0 is not None and not seat0.connected
    h.advance(9.0, step=0.5)
    assert game.passed[0] is None, "the seat is held during the grace period"
    h.advance(2.0, step=0.05)
    assert seat0.away and game.passed[0] is not None, "after grace a bot plays"
    h.advance(2.0, step=0.05)
    back = h.connect()
    back.send(M.Resume(id=5, versions=VERSIONS, token=token or ""))
    msgs = back.drain()
    assert isinstance(msgs[0], M.Welcome) and msgs[0].resumed and msgs[0].token == token
    snap = msgs[1]
    assert isinstance(snap, M.Snapshot) and snap.your_seat == 0 and snap.view is not None
    assert snap.view["hand"] == C.cards_of(game.hands[0])
    assert seat0.connected and not seat0.away


def test_resume_kicks_the_old_connection_and_bad_tokens_are_refused() -> None:
    h = Harness()
    alice = h.player("alice")
    h.table_with_bots(alice)
    thief = h.connect()
    reply = thief.request(M.Resume(id=1, versions=VERSIONS, token="guessed-token"))
    assert isinstance(reply, M.Error) and reply.code == "bad_token" and not thief.closed
    second = h.connect()
    second.send(M.Resume(id=2, versions=VERSIONS, token=alice.token or ""))
    assert isinstance(second.drain()[0], M.Welcome)
    errs = [m for m in alice.drain() if isinstance(m, M.Error)]
    assert errs and errs[-1].code == "session_replaced" and alice.closed
    alice.drop()  # the old connection's close must not disconnect the new one
    seat = h.lobby.tables[max(h.lobby.tables)].seats[0]
    assert seat is not None and seat.connected


def test_nobody_else_can_act_for_a_seat() -> None:
    h = Harness()
    _alice, tid, _, game = alice_starts(h)
    mallory = h.player("mallory")
    options = next(game.legal_passes(0))
    reply = mallory.request(M.PassCards(id=1, cards=list(options)))
    assert isinstance(reply, M.Error) and reply.code == "not_seated"
    mallory.request(M.Spectate(id=2, table_id=tid))
    reply = mallory.request(M.PassCards(id=3, cards=list(options)))
    assert isinstance(reply, M.Error) and reply.code == "not_seated"
    reply = mallory.request(M.JoinSeat(id=4, table_id=tid, seat=0))
    assert isinstance(reply, M.Error) and reply.code == "already_seated"
    assert game.passed[0] is None


def test_a_persons_action_is_the_engines_typed_action_made_for_their_own_seat() -> None:
    h = Harness()
    alice, _tid, table, game = alice_starts(h)
    assert alice.token is not None
    token = h.lobby.sessions[token_id(alice.token)].token
    asked: list[int] = []

    def bad_double(seat: int) -> Action:
        asked.append(seat)
        return Double(seat, check_card(99))

    with pytest.raises(Refused) as refused:
        table.act(token, bad_double)
    assert refused.value.code == "bad_card" and asked == [0] and game.actions == []
    with pytest.raises(Refused) as refused:  # not seated: refused before it is made
        table.act("nobody", bad_double)
    assert refused.value.code == "not_seated" and asked == [0]
    cards = sorted(next(game.legal_passes(0)), reverse=True)
    table.act(token, lambda seat: Pass(seat, check_pass_cards(cards)))
    assert game.actions == [{"kind": "pass", "seat": 0, "cards": sorted(cards)}]


def test_spectators_see_no_hand() -> None:
    h = Harness()
    alice = h.player("alice")
    tid = h.table_with_bots(alice)
    watcher = h.player("watcher")
    alice.request(M.Start(id=alice.rid()))
    snap = watcher.request(M.Spectate(id=1, table_id=tid))
    assert isinstance(snap, M.Snapshot) and snap.your_seat is None
    assert snap.view is not None and snap.view["hand"] == [] and snap.view["legal"] == []


def test_leaving_mid_game_hands_the_seat_to_a_bot_and_rematch_needs_votes() -> None:
    h = Harness()
    alice, bob, tid = h.host_and_guest(bots=True, overrides={"target": 20})
    alice.request(M.Start(id=alice.rid()))
    table = h.lobby.tables[tid]
    assert isinstance(bob.request(M.Leave(id=3)), M.Ok)
    seat1 = table.seats[1]
    assert seat1 is not None and seat1.is_bot
    play_until(h, [alice], tid, lambda: table.status == "finished")
    reply = alice.request(M.Rematch(id=alice.rid()))
    assert isinstance(reply, M.Ok)
    assert table.status == "playing" and table.game_no == 2


def test_a_slow_bot_decision_is_discarded_when_the_player_takes_the_seat_back() -> None:
    from twisted.internet.defer import Deferred

    from leekha.server.app import deferred_think

    pending: list[tuple[Deferred[Any], Any]] = []

    def think_later(decide_now: Any) -> Deferred[Any]:
        d: Deferred[Any] = Deferred()
        pending.append((d, decide_now))
        return d

    h = Harness(seat_grace_s=1.0)
    h.lobby.options.think = deferred_think(think_later)
    alice, _tid, _table, game = alice_starts(h)
    # The bots' passes are "thinking" until we deliver them, one at a time.
    while pending:
        d, f = pending.pop(0)
        d.callback(f())
        h.advance(0.05)
    token = alice.token
    alice.drop()
    h.advance(1.5)  # grace over: a bot would pass for alice
    assert pending, "the stand-in bot is thinking for seat 0"
    d, f = pending.pop(0)
    back = h.connect()
    back.send(M.Resume(id=1, versions=VERSIONS, token=token or ""))
    d.callback(f())  # the late decision arrives after alice is back
    assert game.passed[0] is None, "a stale bot decision never overrides the player"
    prompts = back.of(M.YourTurn)
    assert prompts and prompts[-1].phase == "pass"


def test_a_failing_bot_falls_back_to_a_random_legal_move() -> None:
    from twisted.internet.defer import fail

    from leekha.server.app import deferred_think

    h = Harness()
    h.lobby.options.think = deferred_think(lambda decide_now: fail(RuntimeError("strategy bug")))
    _alice, _tid, _, game = alice_starts(h, strategy="heuristic")
    h.advance(1.0)
    assert all(game.passed[s] is not None for s in (1, 2, 3))


def test_the_host_role_passes_on_when_the_host_leaves() -> None:
    h = Harness()
    host, bob, tid = h.host_and_guest("host", "bob")
    host.request(M.Leave(id=3))
    table = h.lobby.tables[tid]
    assert table.host_token == bob.sid and table.summary()["host"] == "bob"
    assert isinstance(bob.request(M.AddBot(id=4, seat=0, strategy="random")), M.Ok)


def test_a_seat_freed_after_the_game_leaves_it_finished_and_the_rematch_starts() -> None:
    """The LAN-party jam: bob drops mid-game, a bot finishes for him, his seat is freed;
    he sits again, both vote, and the next game starts. He is not told he won or lost."""
    h = Harness(seat_grace_s=1.0)
    alice, bob, tid, table = alice_and_bob_start(h)
    bob.drop()
    h.advance(2.0)
    seat1 = table.seats[1]
    assert seat1 is not None and seat1.away and seat1.token == bob.sid
    play_until(h, [alice], tid, lambda: table.status == "finished")
    h.advance(0.1)
    assert table.seats[1] is None and table.status == "finished"
    reply = alice.request(M.Rematch(id=alice.rid()))
    assert isinstance(reply, M.Error) and reply.code == "not_ready"
    assert "seat 1 is empty" in reply.message
    bob2 = h.player("bob")
    snap = bob2.request(M.JoinSeat(id=3, table_id=tid, seat=1))
    assert isinstance(snap, M.Snapshot) and snap.your_seat == 1
    assert snap.table["status"] == "finished"
    assert snap.view is not None and snap.view["seat"] is None, "not his game: no You win!"
    assert isinstance(alice.request(M.Rematch(id=alice.rid())), M.Ok)
    assert table.status == "finished"
    assert isinstance(bob2.request(M.Rematch(id=bob2.rid())), M.Ok)
    assert status(table) == "playing" and table.game_no == 2


def test_a_rematch_vote_stands_until_a_freed_seat_is_filled() -> None:
    h = Harness()
    alice, bob, tid, table = alice_and_bob_start(h)
    play_until(h, [alice, bob], tid, lambda: table.status == "finished")
    assert isinstance(alice.request(M.Rematch(id=alice.rid())), M.Ok)
    assert isinstance(bob.request(M.Leave(id=bob.rid())), M.Ok)
    assert table.status == "finished"
    assert isinstance(alice.request(M.AddBot(id=alice.rid(), seat=1, strategy="random")), M.Ok)
    assert status(table) == "playing" and table.game_no == 2


def test_a_stand_in_keeps_its_seat_in_the_game_and_gives_it_up_after() -> None:
    """A table whose last person left mid-game must still take a newcomer once it is over
    (before, four bots and a spectator made a table nobody could ever sit at again)."""
    h = Harness()
    alice, bob, tid, table = alice_and_bob_start(h)
    carol = h.player("carol")
    assert isinstance(bob.request(M.Leave(id=bob.rid())), M.Ok)
    stand_in = table.seats[1]
    assert stand_in is not None and stand_in.stand_in
    refused = carol.request(M.JoinSeat(id=carol.rid(), table_id=tid))
    assert isinstance(refused, M.Error) and refused.code == "table_full"
    play_until(h, [alice], tid, lambda: table.status == "finished")
    refused = carol.request(M.JoinSeat(id=carol.rid(), table_id=tid, seat=2))
    assert isinstance(refused, M.Error) and refused.code == "seat_taken"  # an added bot stays
    assert isinstance(carol.request(M.JoinSeat(id=carol.rid(), table_id=tid)), M.Snapshot)
    seat = table.seats[1]
    assert seat is not None and seat.name == "carol" and not seat.is_bot
    assert isinstance(carol.request(M.Rematch(id=carol.rid())), M.Ok)
    assert isinstance(alice.request(M.Rematch(id=alice.rid())), M.Ok)
    assert table.status == "playing" and table.game_no == 2
