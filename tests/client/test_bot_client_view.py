"""The bot's event-folded view must equal the engine's own seat view at every decision.

The engine's events go through the server's own mapper (`server.wire_events`), so a drift
between the mapper, the tracker's fold and the engine's view shows up as a field-level
mismatch.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from helpers import records as R
from helpers.engine import bot_moves

from leekha import protocol as P
from leekha.client.bot.view import ViewTracker
from leekha.common.bots.base import decide, make_strategy
from leekha.common.config import Rules, preset
from leekha.common.game import Game
from leekha.common.view import SeatViewDict, result, seat_view
from leekha.protocol.views import TableSummary
from leekha.server.domain import wire_events

CHECKED = [
    "seat", "phase", "round", "dealer", "pass_to", "turn", "hand", "passed", "received", "leader",
    "passes_done", "doubled", "trick", "tricks", "taken", "round_points", "totals",
    "history", "result",
]  # fmt: skip


def _summary(rules: Rules) -> TableSummary:
    return R.summary(rules=rules, status="playing")


def _events(game: Game, seat: int, action: dict[str, Any]) -> list[P.Message]:
    """Apply `action` and return the messages the server's mapper sends `seat` for it."""
    return wire_events.messages(game.apply(action), seat)


@pytest.mark.parametrize("preset_name", ["classic", "levant"])
@pytest.mark.parametrize("seed", [1, 2])
def test_tracked_view_matches_engine_at_every_step(preset_name: str, seed: int) -> None:
    config = preset(preset_name, {"target": 60})
    game = Game(config, seed)
    me = seed % 4
    tracker = ViewTracker()
    # what an older server sends: no legal cards yet, no 1.1 fields (decoded as defaults)
    snap_view: SeatViewDict = {**seat_view(game, me).to_dict(), "legal": [], "can_double": [],
                               "rules": {}}  # fmt: skip
    tracker.apply(
        P.Snapshot(table=_summary(config.to_dict()), view=snap_view, your_seat=me,
                   players=[R.player("x")] * 4)
    )  # fmt: skip
    strategies = [make_strategy("random", seed + s) for s in range(4)]
    rng = random.Random(seed)
    for steps, action in enumerate(bot_moves(game, strategies, rng)):
        for msg in _events(game, me, action):
            tracker.apply(msg)
        if action["kind"] == "pass" and action["seat"] == me:
            cards = action["cards"]
            assert isinstance(cards, list)
            tracker.own_pass(list(cards))  # the `ok` to our own pass
        expected = seat_view(game, me)
        got = tracker.view
        for key in CHECKED:
            assert getattr(got, key) == getattr(expected, key), (steps, key)
    assert game.outcome is not None and tracker.view.result == result(game)


def test_prompt_makes_a_seat_view_for_strategies() -> None:
    config = preset("levant")
    game = Game(config, 5)
    tracker = ViewTracker()
    view = seat_view(game, 0).to_dict()
    tracker.apply(
        P.Snapshot(table=_summary(config.to_dict()), view={**view, "legal": []}, your_seat=0,
                   players=[R.player("x")] * 4)
    )  # fmt: skip
    assert not tracker.my_move()
    tracker.apply(P.YourTurn(phase="pass", legal=view["legal"]))
    assert tracker.my_move()
    sv = tracker.seat_view()
    assert sv.rules == config.to_dict()
    assert sv.can_double == game.can_double(0)
    assert decide(make_strategy("random", 1), sv)[-1]["kind"] == "pass"


def test_a_1_1_server_lists_the_doubles_itself() -> None:
    config = preset("levant")
    game = Game(config, 2)
    view = seat_view(game, 0).to_dict()
    derived = game.can_double(0)
    assert len(derived) >= 1  # the seed deals a Leekha card, so the two sources can differ
    tracker = ViewTracker()
    tracker.apply(P.Welcome(re=1, version=[1, 1], server="s", token="t", name="b"))
    tracker.apply(
        P.Snapshot(table=_summary(config.to_dict()), view={**view, "legal": []}, your_seat=0,
                   players=[R.player("x")] * 4)
    )  # fmt: skip
    tracker.apply(P.YourTurn(phase="pass", legal=view["legal"], can_double=[]))
    assert tracker.seat_view().can_double == []  # the server's word, not our derivation
    tracker.apply(P.YourTurn(phase="pass", legal=view["legal"], can_double=derived[:1]))
    assert tracker.seat_view().can_double == derived[:1]
    tracker.apply(P.DoubleRevealed(seat=0, card=derived[0]))
    assert tracker.seat_view().can_double == []
    # a 1.0 server: the field is absent (decoded as []), so the rule is applied locally
    old = ViewTracker()
    old.apply(P.Welcome(re=1, version=[1, 0], server="s", token="t", name="b"))
    old.apply(
        P.Snapshot(table=_summary(config.to_dict()), view={**view, "can_double": []},
                   your_seat=0, players=[R.player("x")] * 4)
    )  # fmt: skip
    assert old.seat_view().can_double == derived


def test_null_view_before_first_deal() -> None:
    tracker = ViewTracker()
    tracker.apply(
        P.Snapshot(table=_summary(preset("classic").to_dict()), view=None, your_seat=2,
                   players=[R.player()] * 4)
    )  # fmt: skip
    assert tracker.seat == 2
    assert not tracker.my_move()
