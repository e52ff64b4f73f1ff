"""The `search1` tier: the first search bot, kept by name as the baseline for `search`.

Determinized Monte Carlo (PIMC) over the hidden hands.

Each sample deals the unseen cards consistently with everything the seat has deduced
(voids, its own pass, reveals, proven-absent Leekhas, hand sizes), then plays every
candidate card and finishes the round with the heuristic policy at all four seats on the
lean mask simulator. The card with the fewest points taken on average wins. Passing and
doubling reuse the heuristic: a pass decision over 286 options would need its own search
budget and the gain is small next to card play.

Budget: `think_ms` of wall time per decision (None: no clock) and at most `max_samples`
deals; with `think_ms=None` a decision depends only on the seed and the view, which the
tests rely on.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Final, NamedTuple, TypedDict, Unpack

from leekha.common import cards as C
from leekha.common.bots.base import register, view_config
from leekha.common.bots.heuristic import HeuristicStrategy
from leekha.common.bots.policy import PlayPolicy
from leekha.common.bots.simulate import Round, Rules
from leekha.common.bots.tracker import Tracker
from leekha.common.config import RulesConfig
from leekha.common.view import SeatView

_ABOVE: Final = C.ABOVE
_BELOW: Final = C.BELOW

DEFAULT_THINK_MS: Final = 50.0
DEFAULT_MAX_SAMPLES: Final = 200
MIN_SAMPLES: Final = 8


def distinct_moves(legal: int, unseen: int, points: tuple[int, ...]) -> list[int]:
    """One card per run of equivalent cards: same suit, same points, no unseen card between.

    Playing either card of such a run leads to the same outcome, so searching both only
    halves the samples each real choice gets.
    """
    out: list[int] = []
    prev = -1
    for c in C.cards_of(legal):
        if (
            prev >= 0
            and C.SUIT_OF[prev] == C.SUIT_OF[c]
            and points[prev] == points[c]
            and not (_ABOVE[prev] & _BELOW[c] & unseen)
        ):
            prev = c
            continue
        out.append(c)
        prev = c
    return out


class Turn(NamedTuple):
    """A play decision worth a search: two or more distinct moves."""

    me: int
    leader: int
    config: RulesConfig
    tracker: Tracker
    rules: Rules
    moves: list[int]


def search_turn(view: SeatView, rules_of: Callable[[RulesConfig, int], Rules]) -> Turn | int:
    """The decision to search (`search` and `search1` alike), or the card itself when there
    is nothing to choose: one legal card, or legal cards that are all equivalent."""
    legal = view.legal_mask
    if legal & (legal - 1) == 0:
        return view.legal[0]
    assert view.seat is not None and view.leader is not None
    config = view_config(view)
    tracker = Tracker(view)
    rules = rules_of(config, C.mask_of(c for c, _ in view.doubled))
    moves = distinct_moves(legal, tracker.unseen, rules.points)
    if len(moves) == 1:
        return moves[0]
    return Turn(view.seat, view.leader, config, tracker, rules, moves)


class Budget(TypedDict, total=False):
    """A search tier's budget, as `make_strategy` (`search@10`) and the arena give it."""

    think_ms: float | None
    max_samples: int
    clock: Callable[[], float]


class Searcher:
    """What both search tiers keep: a random stream from the seed, and the budget of a
    decision: at most `max_samples` deals and, unless `think_ms` is None, `think_ms` of
    `clock` time."""

    def __init__(
        self,
        seed: int = 0,
        *,
        think_ms: float | None = DEFAULT_THINK_MS,
        max_samples: int = DEFAULT_MAX_SAMPLES,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.rng = random.Random(seed)
        self.clock = clock
        self.think_ms = think_ms
        self.max_samples = max(1, max_samples)
        self.last_samples = 0  # how many deals the last decision looked at (for bench)
        self.last_rollouts = 0
        # The last searched decision's candidates and the search's value of each (its
        # mean over the worlds, higher is better), for labelling (`bots.labels`); empty
        # after a decision with nothing to search. `last_near`: the values are the game's
        # utility (`values.utility`) rather than minus the round's points.
        self.last_moves: list[int] = []
        self.last_means: list[float] = []
        self.last_near = False

    def _turn(self, view: SeatView, rules_of: Callable[[RulesConfig, int], Rules]) -> Turn | int:
        """`search_turn`, the last decision's counts reset first (a forced card has none)."""
        self.last_samples = 0
        self.last_rollouts = 0
        self.last_moves = []
        self.last_means = []
        return search_turn(view, rules_of)


class Search1Strategy(Searcher):
    name = "search1"

    def __init__(self, seed: int = 0, **budget: Unpack[Budget]) -> None:
        super().__init__(seed, **budget)
        self.heuristic = HeuristicStrategy(seed)

    def choose_doubles(self, view: SeatView) -> list[int]:
        return self.heuristic.choose_doubles(view)

    def choose_pass(self, view: SeatView) -> list[int]:
        return self.heuristic.choose_pass(view)

    def choose_play(self, view: SeatView) -> int:
        start = self.clock()
        turn = self._turn(view, Rules)
        if isinstance(turn, int):
            return turn
        me, leader, config, tracker, rules, moves = turn
        partner = me ^ 2 if config.partnership != "off" else -1
        policy = PlayPolicy(rules, partners=partner >= 0)
        trick = [(s, c) for s, c in view.trick]
        taken = [C.mask_of(t) for t in view.taken]
        totals = [0] * len(moves)
        deadline = None if self.think_ms is None else start + self.think_ms / 1000.0
        n = 0
        while n < self.max_samples:
            if deadline is not None and n >= MIN_SAMPLES and self.clock() >= deadline:
                break
            hands = tracker.sample(self.rng)
            root = Round(
                rules,
                hands,
                leader=leader,
                trick=trick,
                played=tracker.played,
                points=view.round_points,
                taken=taken,
            )
            for i, c in enumerate(moves):
                branch = root.copy()
                branch.play(me, c)
                scores = branch.finish(policy)
                totals[i] += scores[me] + (scores[partner] if partner >= 0 else 0)
            n += 1
        self.last_samples = n
        self.last_rollouts = n * len(moves)
        self.last_moves = moves
        self.last_means = [-t / n for t in totals]
        self.last_near = False
        best = min(totals)
        return moves[totals.index(best)]


register("search1")(Search1Strategy)
