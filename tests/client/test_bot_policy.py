"""The bot's policy over the client core, with no socket and no clock: messages in, the
list of intents and timers out (magic-wormhole's way with its machines).

A `Seat` plays the bot's glue: each message goes through `ClientCore.receive` and the
changes to the policy; an intent it returns is sent through the core (so its answer is
matched back), and a timer is fired by hand.
"""

from __future__ import annotations

import itertools
from typing import Any

from helpers import records as R
from helpers.botclient import Broken, game_snapshot, players, summary

from leekha import protocol as P
from leekha.client.bot.moves import UNANSWERED_S
from leekha.client.bot.options import (
    BotOptions,
    Cancel,
    Effect,
    EntryRefused,
    Fail,
    Later,
    Seated,
    Stop,
)
from leekha.client.bot.policy import BotPolicy
from leekha.client.core import intents as I
from leekha.client.core.core import ClientCore
from leekha.common.view import seat_view


class Seat:
    def __init__(self, **over: Any) -> None:
        self.sent: list[P.Message] = []
        ids = itertools.count(1)
        self.core = ClientCore(self._send, lambda: next(ids))
        options = BotOptions(**{"host": "h", "port": 1, "name": "b", "table": "t", **over})
        self.policy = BotPolicy(options, self.core)

    def _send(self, msg: P.Message) -> bool:
        self.sent.append(msg)
        return True

    def _sent(self, effects: list[Effect]) -> list[Effect]:
        for effect in effects:
            if not isinstance(effect, Later | Cancel | Seated | Stop | Fail):
                self.core.request(effect)
        return effects

    def feed(self, msg: P.Message) -> list[Effect]:
        return self._sent(self.policy.changed(self.core.receive(msg)))

    def fire(self, timer: str) -> list[Effect]:
        return self._sent(self.policy.fired(timer))

    def last_id(self) -> int:
        rid = getattr(self.sent[-1], "id", None)
        assert isinstance(rid, int)
        return rid

    def welcome(self, version: tuple[int, int] = (1, 4), **over: Any) -> list[Effect]:
        return self.feed(P.Welcome(re=99, version=list(version), server="s", token="t",
                                   name="b", **over))  # fmt: skip


def test_looks_twice_then_creates_a_table_that_is_absent() -> None:
    s = Seat(preset="levant", overrides={"target": 30})
    assert s.welcome() == [I.ListTables()]
    (wait,) = s.feed(P.TableList(re=s.last_id(), tables=[summary(3, "other")]))
    assert isinstance(wait, Later) and wait.timer == "relook" and 0 <= wait.delay <= 0.5
    assert s.fire("relook") == [I.ListTables(confirm=True)]
    create = s.feed(P.TableList(re=s.last_id(), tables=[]))
    assert create == [I.CreateTable("t", "levant", {"target": 30}, None)]
    out = s.feed(P.Snapshot(re=s.last_id(), table=summary(4, "t"), view=None, your_seat=0,
                            players=players(1, host=0)))  # fmt: skip
    assert out == [Seated(), Later("lonely", 5.0)]


def test_joins_the_lowest_open_table_and_a_locked_one_is_a_clear_refusal() -> None:
    s = Seat()
    s.welcome()
    tables = [summary(9, "t"), summary(5, "t", taken=4), summary(6, "t")]
    assert s.feed(P.TableList(re=s.last_id(), tables=tables)) == [I.JoinTable(6, None)]
    locked = Seat()
    locked.welcome()
    table = summary(2, "t") | {"has_password": True}
    (fail,) = locked.feed(P.TableList(re=locked.last_id(), tables=[table]))
    assert isinstance(fail, Fail) and isinstance(fail.error, EntryRefused)
    assert "--password" in str(fail.error)


def test_the_host_starts_a_full_table_and_a_lonely_creator_leaves() -> None:
    s = Seat()
    s.welcome()
    s.feed(P.TableList(re=s.last_id(), tables=[]))
    s.fire("relook")
    s.feed(P.TableList(re=s.last_id(), tables=[]))
    s.feed(P.Snapshot(re=s.last_id(), table=summary(2, "t"), view=None, your_seat=0,
                      players=players(1, host=0)))  # fmt: skip
    assert s.fire("lonely") == [I.Leave(), I.ListTables()]
    full = Seat(create="t")
    assert full.welcome() == [I.CreateTable("t", "classic", {}, None)]
    full.feed(P.Snapshot(re=full.last_id(), table=summary(1, "t"), view=None, your_seat=0,
                         players=players(1, host=0)))  # fmt: skip
    for seat in (1, 2):
        assert full.feed(P.SeatUpdate(table_id=1, seat=seat, player=R.player(f"p{seat}"))) == []
    last = P.SeatUpdate(table_id=1, seat=3, player=R.player("z", bot=True))
    assert full.feed(last) == [I.Start()]
    refused = P.Error(re=full.last_id(), code="not_ready", message="wait")
    assert full.feed(refused) == [Later("start", 0.5)]
    assert full.fire("start") == [I.Start()]


def _playing(**over: Any) -> tuple[Seat, list[Effect], Any]:
    s = Seat(**over)
    s.welcome()
    snap, game = game_snapshot()
    seated, *out = s.feed(snap)
    assert seated == Seated()  # the first snapshot: a fleet may start its next bot
    return s, out, game


def test_a_decision_is_answered_once_and_an_unanswered_move_is_sent_again() -> None:
    s, out, game = _playing()
    key = (0, "pass", 0, 0)
    move, timer = out
    assert isinstance(move, I.Pass) and move.decision == key and move.tries == 0
    assert set(move.cards) <= set(seat_view(game, 0).legal)
    assert timer == Later("move", UNANSWERED_S)
    assert s.feed(P.YourTurn(phase="pass", legal=seat_view(game, 0).legal)) == []
    assert s.fire("move") == [I.Pass(move.cards, key, 1), Later("move", UNANSWERED_S)]
    assert s.feed(P.Ok(re=s.last_id())) == [Cancel("move")]


def test_a_move_refused_as_too_quick_goes_again_after_a_pause() -> None:
    s, out, _game = _playing()
    move = out[0]
    assert isinstance(move, I.Pass)
    refused = P.Error(re=s.last_id(), code="rate_limited", message="slow")
    assert s.feed(refused) == [Cancel("move"), Later("move", 0.25)]
    assert s.fire("move") == [I.Pass(move.cards, move.decision, 1), Later("move", UNANSWERED_S)]


def test_a_wrong_move_becomes_a_random_legal_one_and_a_stale_refusal_waits() -> None:
    s, out, game = _playing()
    move = out[0]
    assert isinstance(move, I.Pass)
    refused = P.Error(re=s.last_id(), code="pass_last_of_suit", message="no")
    cancel, again, timer = s.feed(refused)
    assert cancel == Cancel("move") and timer == Later("move", UNANSWERED_S)
    assert isinstance(again, I.Pass) and again.tries == 1
    assert set(again.cards) <= set(seat_view(game, 0).legal)
    stale = P.Error(re=s.last_id(), code="not_your_turn", message="no")
    assert s.feed(stale) == [Cancel("move")]  # and no blind retry


def test_a_failing_strategy_never_stalls_the_seat() -> None:
    s = Seat()
    s.policy.moves.strategy = Broken()
    s.welcome()
    snap, game = game_snapshot()
    move = s.feed(snap)[1]
    assert isinstance(move, I.Pass) and set(move.cards) <= set(seat_view(game, 0).legal)


def test_think_time_is_a_timer_and_a_decision_gone_meanwhile_is_not_made() -> None:
    s = Seat(think_s=0.5)
    s.welcome()
    snap, _game = game_snapshot()
    assert s.feed(snap) == [Seated(), Later("think", 0.5)]
    assert isinstance(s.fire("think")[0], I.Pass)
    late = Seat(think_s=0.5)
    late.welcome()
    late.feed(snap)
    late.feed(P.PassDone(seat=0))  # the server passed for us (a turn timer)
    assert late.fire("think") == []


def test_game_over_leaves_after_the_last_game_or_votes_for_another() -> None:
    over = P.GameOver(winners=[1], losers=[2], totals=[10, 5, 102, 40])
    s, _out, _game = _playing(games=1)
    assert s.feed(over) == [I.Leave(), Stop()]
    more, _out, _game = _playing(games=2)
    assert more.feed(over) == [I.Rematch()]
    refused = P.Error(re=more.last_id(), code="not_ready", message="wait")
    assert more.feed(refused) == [Later("rematch", 1.0)]


def test_a_1_0_resume_probes_where_it_is() -> None:
    s = Seat()
    s.welcome(version=(1, 0))
    s.core.lost("gone")
    assert s.welcome(version=(1, 0), resumed=True) == [I.Ping()]
    assert s.feed(P.Pong(re=s.last_id())) == [I.ListTables()]
