"""A turn restored after a restart gives its person a fair clock: nobody is connected at a
restore, so no turn timer runs until they are back (the seat grace covers them), and then
it starts with its full time. A drop in the middle of a turn earns nothing: that timer
keeps running."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.server import VERSIONS, Harness, answer_prompts

from leekha.protocol import catalogue as M
from leekha.server.domain.persistence import Store

TURN_S = 10


def alice_to_play(tmp_path: Path) -> tuple[int, str, int]:
    """alice (seat 0) with three bots, a 10 s turn timer, stopped when she is to play a
    card: returns the table, her token and the moves made so far."""
    h = Harness(store=Store.in_dir(tmp_path), bot_think_ms=10)
    alice = h.player("alice")
    tid = h.table_with_bots(alice, strategy="random", turn_timer_s=TURN_S)
    alice.request(M.Start(id=alice.rid()))
    game = h.lobby.tables[tid].game
    assert game is not None
    for _ in range(5000):
        if game.phase == "play" and game.turn == 0 and len(game.tricks) >= 1:
            break
        answer_prompts(h, alice, tid)
        h.advance(0.01)
    assert game.phase == "play" and game.turn == 0
    h.lobby.tables[tid].shutdown()  # a crash: nothing more happens on the old server
    assert alice.token is not None
    return tid, alice.token, len(game.actions)


def test_a_restored_turn_waits_for_its_player_and_then_gives_the_full_time(
    tmp_path: Path,
) -> None:
    tid, token, moves = alice_to_play(tmp_path)
    h = Harness(store=Store.in_dir(tmp_path), bot_think_ms=10, seat_grace_s=60.0)
    table = h.lobby.tables[tid]
    assert table.game is not None and len(table.game.actions) == moves
    h.advance(TURN_S + 5, step=0.1)  # her client takes 15 s to come back
    assert len(table.game.actions) == moves, "timed out before she could act"
    alice = h.connect()
    alice.send(M.Resume(id=1, versions=[[1, 4]], token=token))
    prompts = [m for m in alice.drain() if isinstance(m, M.YourTurn)]
    assert prompts and prompts[-1].deadline == pytest.approx(TURN_S)  # all of it, from now
    h.advance(TURN_S - 1, step=0.1)
    assert len(table.game.actions) == moves
    h.advance(1.5, step=0.1)
    assert table.game.actions[moves]["seat"] == 0  # then her timer plays for her, as ever


def test_one_who_never_comes_back_is_covered_after_the_grace(tmp_path: Path) -> None:
    tid, _token, moves = alice_to_play(tmp_path)
    h = Harness(store=Store.in_dir(tmp_path), bot_think_ms=10, seat_grace_s=20.0)
    table = h.lobby.tables[tid]
    assert table.game is not None
    h.advance(19, step=0.1)
    assert len(table.game.actions) == moves
    h.advance(2, step=0.1)
    assert len(table.game.actions) > moves  # the grace is over: a bot plays her seat


def test_a_drop_mid_turn_earns_no_extra_time() -> None:
    h = Harness(bot_think_ms=10, seat_grace_s=60.0)
    alice = h.player("alice")
    tid = h.table_with_bots(alice, strategy="random", turn_timer_s=TURN_S)
    alice.request(M.Start(id=alice.rid()))
    game = h.lobby.tables[tid].game
    assert game is not None
    for _ in range(5000):
        if game.phase == "play" and game.turn == 0:
            break
        answer_prompts(h, alice, tid)
        h.advance(0.01)
    moves = len(game.actions)
    h.advance(6, step=0.1)
    token = alice.token
    alice.drop()
    back = h.connect()
    back.send(M.Resume(id=1, versions=VERSIONS, token=token or ""))
    back.drain()
    h.advance(3.5, step=0.1)  # 9.5 s since her turn began
    assert len(game.actions) == moves
    h.advance(1, step=0.1)  # 10.5 s: the timer that ran on through her drop has played
    assert len(game.actions) > moves and game.actions[moves]["seat"] == 0
