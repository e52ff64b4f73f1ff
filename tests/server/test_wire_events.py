"""The event mapper tells each member only what that member may know."""

from __future__ import annotations

import random

from helpers.engine import bot_moves

from leekha.common import cards as C
from leekha.common.bots.base import make_strategy
from leekha.common.config import preset
from leekha.common.game import Game
from leekha.protocol import catalogue as M
from leekha.server.domain import wire_events


def test_hands_and_received_cards_reach_only_their_seat() -> None:
    game = Game(preset("classic", {"target": 40}), 7)
    rng = random.Random(7)
    bots = [make_strategy("random", s) for s in range(4)]
    deals = 0
    for action in bot_moves(game, bots, rng):
        events = game.apply(action)
        watcher = wire_events.messages(events, None)
        told = wire_events.for_members(events, [0, 1, 2, 3, None])
        assert all(told[s] == wire_events.messages(events, s) for s in told)
        for a, b in zip(told[0], told[None], strict=False):
            assert (a is b) == (a == b), "a public message is one object for everyone"
        assert not any(isinstance(m, M.PassedReceived) for m in watcher)
        for m in watcher:
            if isinstance(m, M.Dealt):
                assert m.hand == [] and m.pass_to is None
        for s in range(4):
            for m in wire_events.messages(events, s):
                if isinstance(m, M.Dealt):  # a fresh deal: the hand is the engine's
                    assert m.hand == C.cards_of(game.hands[s])
                    deals += 1
                if isinstance(m, M.PassedReceived):
                    assert m.cards == C.cards_of(game.received[s] or 0)
                    assert game.pass_target(m.from_seat) == s
    assert deals >= 4
