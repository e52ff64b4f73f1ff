"""The `search` tier: PIMC over weighted worlds, scored as the game stands.

Card play: sample deals of the unseen cards consistent with the view (`Tracker`), weight
each by how well it explains the other seats' plays and pass (`worlds`), and play every
candidate card out on the same worlds with the heuristic policy at all four seats on the
flat rollout loop (`rollout`). Once one round could end the game, a rollout is worth the
seat's chance to win the game from the totals it ends on (`values`), which covers golden
goal, the target, partnership and the moon, with the round's points as a tie-break;
further from the end it is worth the round's points (the seat's, or its team's): there
the chance to win follows them, and the estimate of it adds only noise. Every few
worlds, candidates whose paired deficit against the best is clearly beyond noise stop
being rolled out, so the budget goes to the moves still in contention.

Passes and doubles: the heuristic's best six passes, for each choice of doubles, are
played out from the deal over sampled hands of the others (who pass and double the
heuristic's way), and the heuristic's own choice is kept unless another is better by more
than one standard error of the paired difference.

Budget: `think_ms` of wall time per decision (None: no clock) and at most `max_samples`
worlds; with `think_ms=None` a decision depends only on the seed and the view.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Final, Unpack

from leekha.common import cards as C
from leekha.common.bots.base import register, view_config
from leekha.common.bots.endgame import Solver
from leekha.common.bots.heuristic import cached_rules, card_danger, ranked_passes, safe_doubles
from leekha.common.bots.policy import PlayPolicy
from leekha.common.bots.rollout import golden_stop, play_round
from leekha.common.bots.search1 import Budget, Searcher
from leekha.common.bots.simulate import Rules
from leekha.common.bots.tracker import Tracker
from leekha.common.bots.values import in_reach, utility
from leekha.common.bots.worlds import WorldWeights
from leekha.common.config import RulesConfig
from leekha.common.game import PASS
from leekha.common.view import SeatView

_BIT: Final = C.BIT

DEFAULT_MAX_SAMPLES: Final = 400
MIN_SAMPLES: Final = 8
# Worlds between two pruning rounds (the first after twice as many), and how many standard
# errors make a move hopeless.
PRUNE_EVERY: Final = 8
PRUNE_SE: Final = 3.0
# A settling search (`Candidates.settle`) stops once the moves left are within its
# tolerance of the leader at this many standard errors.
SETTLE_SE: Final = 2.0
# Passes searched per choice of doubles; another pass (or doubles) replaces the
# heuristic's only when it is better by this many standard errors over at least
# SWITCH_WORLDS worlds. Measured on 2,000 deals (the round played out on the true deal,
# docs/bots.md): 6 candidates and 1 SE beat 3 and 2 SE (the heuristic's choice kept too
# often) and 10 and 0.5 SE (too few worlds each, switches on noise).
PASS_CANDIDATES: Final = 6
SWITCH_SE: Final = 1.0
SWITCH_WORLDS: Final = 16
# The pass (with the doubles) is one decision: its share of the think budget.
PASS_BUDGET: Final = 1.0


class Candidates:
    """Per-candidate weighted value sums, with paired pruning against the leader.

    `prior` (optional) is a value for each candidate known before any world is seen (the
    network's, `search-prior`), worth `prior_worlds` worlds of the candidate's average
    weight in its mean: with few worlds it steadies the estimate, with many it fades. The
    paired pruning compares the worlds alone.

    `settle` (optional, in value units) lets a decision stop before its budget: pruning
    may then leave the leader alone, and the decision is `settled` once every move still
    in contention is either gone or shown, at `SETTLE_SE` standard errors, to be worth
    no more than `settle` less than the leader: more worlds could only swap two moves
    that are as good as each other.
    """

    def __init__(
        self,
        count: int,
        alive: list[int] | None = None,
        prior: list[float] | None = None,
        prior_worlds: float = 0.0,
        settle: float | None = None,
    ) -> None:
        self.alive = list(range(count)) if alive is None else alive
        self.total = [0.0] * count
        self.weight = [0.0] * count
        self.values: list[list[float]] = [[] for _ in range(count)]
        self.worlds = 0
        self.rollouts = 0
        self.prior = prior
        self.prior_worlds = prior_worlds
        self.settle = settle
        self.settled = False

    def add(self, index: int, value: float, weight: float) -> None:
        self.total[index] += value * weight
        self.weight[index] += weight
        self.values[index].append(value)

    def mean(self, index: int) -> float:
        w = self.weight[index]
        if w <= 0:
            return -math.inf
        if self.prior is None:
            return self.total[index] / w
        k = self.prior_worlds * w / len(self.values[index])
        return (self.total[index] + k * self.prior[index]) / (w + k)

    def searched_mean(self, index: int) -> float:
        """The worlds' own mean, without the prior (what labelling records)."""
        w = self.weight[index]
        return self.total[index] / w if w > 0 else -math.inf

    def best(self) -> int:
        return max(self.alive, key=self.mean)

    def paired(self, a: int, b: int) -> tuple[float, float]:
        """Mean and standard error of value[a] - value[b] over the worlds both saw."""
        xs = self.values[a]
        ys = self.values[b]
        n = min(len(xs), len(ys))
        if n < 2:
            return 0.0, math.inf
        diffs = [xs[i] - ys[i] for i in range(n)]
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        return mean, math.sqrt(var / n)

    def end_world(self) -> None:
        self.worlds += 1
        self.rollouts += len(self.alive)
        floor = 2 if self.settle is None else 1
        if self.worlds % PRUNE_EVERY or self.worlds < 2 * PRUNE_EVERY or len(self.alive) <= floor:
            return
        lead = self.best()
        keep = []
        close = True
        for i in self.alive:
            diff, se = self.paired(i, lead)
            if i == lead or diff + PRUNE_SE * se >= 0:
                keep.append(i)
                if i != lead and self.settle is not None and diff - SETTLE_SE * se < -self.settle:
                    close = False
        self.alive = keep
        self.settled = self.settle is not None and close


class SearchStrategy(Searcher):
    name = "search"
    # Switches for ablation studies (bench/bots.py): each part can be measured alone.
    weigh_worlds = True
    game_aware = True
    search_passes = True
    # Solve each world exactly once the seat holds this many cards or fewer (0: never).
    endgame_tricks = 0
    endgame_maxn = False
    # Stop a card decision once the moves left are this close (points; None: never).
    settle_points: float | None = None

    def __init__(self, seed: int = 0, **budget: Unpack[Budget]) -> None:
        budget.setdefault("max_samples", DEFAULT_MAX_SAMPLES)
        super().__init__(seed, **budget)
        self._pass_key: tuple[int, int, tuple[int, ...]] | None = None
        self._pass_choice: tuple[list[int], list[int]] = ([], [])
        # The pass search's options (doubles, pass); `last_moves` indexes them.
        self.last_options: list[tuple[list[int], list[int]]] = []

    # ---- budget ---------------------------------------------------------------------
    def _budget(self, scale: float = 1.0) -> Callable[[int], bool]:
        """A predicate: may another world be rolled out after `n`?"""
        if self.think_ms is None:
            return lambda n: n < self.max_samples
        clock = self.clock
        deadline = clock() + scale * self.think_ms / 1000.0
        cap = self.max_samples
        return lambda n: n < cap and (n < MIN_SAMPLES or clock() < deadline)

    # ---- passing and doubling -------------------------------------------------------
    def choose_doubles(self, view: SeatView) -> list[int]:
        return list(self._pass_decision(view)[0])

    def choose_pass(self, view: SeatView) -> list[int]:
        return list(self._pass_decision(view)[1])

    def _pass_decision(self, view: SeatView) -> tuple[list[int], list[int]]:
        key = (view.round, view.dealer, tuple(view.hand))
        if self._pass_key != key:
            self._pass_key = key
            self._pass_choice = self._search_pass(view)
        return self._pass_choice

    def _search_pass(self, view: SeatView) -> tuple[list[int], list[int]]:
        assert view.seat is not None
        self.last_moves, self.last_means, self.last_options = [], [], []
        me = view.seat
        config = view_config(view)
        hand = view.hand_mask
        mine = C.mask_of(c for c, s in view.doubled if s == me)
        double_sets: list[list[int]] = [[]]
        can = [c for c in view.can_double if not mine & _BIT[c]]
        for c in can:
            double_sets += [[*d, c] for d in double_sets]
        # The heuristic's own choice is option 0, the default.
        default = safe_doubles(config, hand, can)
        double_sets.sort(key=lambda d: d != default)
        options: list[tuple[list[int], list[int]]] = []
        for doubles in double_sets:
            keep = mine | C.mask_of(doubles)
            for combo in ranked_passes(config, hand, keep, PASS_CANDIDATES):
                options.append((doubles, list(combo)))
        if view.phase != PASS or len(options) == 1 or not self.search_passes:
            return options[0]
        cands = Candidates(len(options))
        doubled = C.mask_of(config.leekha_cards) if config.doubling else 0
        near = in_reach(config, view.totals, cached_rules(config, doubled).most)
        more = self._budget(PASS_BUDGET)
        n = 0
        while more(n):
            world = self._deal_world(view, hand)
            for i in cands.alive:
                doubles, passed = options[i]
                cands.add(i, self._pass_rollout(view, world, doubles, passed, near), 1.0)
            cands.end_world()
            n += 1
        self.last_samples = n
        self.last_rollouts = cands.rollouts
        self.last_moves = list(range(len(options)))  # indices into `last_options`
        self.last_means = [cands.mean(i) for i in range(len(options))]
        self.last_near = near
        self.last_options = options
        best = cands.best()
        diff, se = cands.paired(best, 0)
        if n >= SWITCH_WORLDS and diff > SWITCH_SE * se:
            return options[best]
        return options[0]

    def _deal_world(self, view: SeatView, hand: int) -> list[int]:
        """The others' 13 cards each, uniform but for the doubles they have revealed."""
        me = view.seat
        hands = [0, 0, 0, 0]
        hands[me] = hand  # type: ignore[index]
        for c, s in view.doubled:
            if s != me:
                hands[s] |= _BIT[c]
        rest = C.cards_of(C.FULL_DECK & ~(hands[0] | hands[1] | hands[2] | hands[3]))
        self.rng.shuffle(rest)
        i = 0
        for s in range(4):
            need = 13 - hands[s].bit_count()
            hands[s] |= C.mask_of(rest[i : i + need])
            i += need
        return hands

    def _pass_rollout(
        self, view: SeatView, world: list[int], doubles: list[int], passed: list[int], near: bool
    ) -> float:
        me = view.seat
        assert me is not None and view.pass_to is not None
        config = view_config(view)
        offset = (view.pass_to - me) % 4
        doubled = C.mask_of(c for c, _ in view.doubled) | C.mask_of(doubles)
        sent = [0, 0, 0, 0]
        for s in range(4):
            if s == me:
                sent[s] = C.mask_of(passed)
                continue
            hand = world[s]
            if config.doubling:
                own = [c for c in config.leekha_cards if hand & _BIT[c] and not doubled & _BIT[c]]
                doubled |= C.mask_of(safe_doubles(config, hand, own))
            sent[s] = quick_pass(config, hand, doubled)
        hands = [world[s] & ~sent[s] for s in range(4)]
        for s in range(4):
            hands[(s + offset) % 4] |= sent[s]
        rules = cached_rules(config, doubled)
        policy = PlayPolicy(rules, partners=config.partnership != "off")
        scores = play_round(
            rules,
            policy,
            hands,
            (view.dealer + 1) % 4,
            [],
            0,
            [0, 0, 0, 0],
            [0, 0, 0, 0],
            golden_stop(config, view.totals),
        )
        return self._value(config, view.totals, scores, me, near)

    def _solver(self, rules: Rules, me: int, config: RulesConfig, cards: int) -> Solver | None:
        """An exact solver for this decision's worlds when few enough tricks are left."""
        if cards > self.endgame_tricks:
            return None
        return Solver(rules, me, partners=config.partnership != "off", maxn=self.endgame_maxn)

    def _value(
        self, config: RulesConfig, totals: list[int], scores: list[int], seat: int, near: bool
    ) -> float:
        if self.game_aware and near:
            return utility(config, totals, scores, seat)
        partner = scores[seat ^ 2] if config.partnership != "off" else 0
        return -float(scores[seat] + partner)

    # ---- card play ------------------------------------------------------------------
    def choose_play(self, view: SeatView) -> int:
        turn = self._turn(view, cached_rules)
        if isinstance(turn, int):
            return turn
        me, _leader, config, tracker, rules, moves = turn
        policy = PlayPolicy(rules, partners=config.partnership != "off")
        weigh = WorldWeights(view, tracker, rules, policy)
        trick = [(s, c) for s, c in view.trick]
        taken = [C.mask_of(t) for t in view.taken]
        stop = golden_stop(config, view.totals)
        totals = view.totals
        points = view.round_points
        played = tracker.played
        near = in_reach(config, totals, rules.most)
        cands = self._candidates(view, tracker, moves, near)
        more = self._budget()
        solver = self._solver(rules, me, config, tracker.hand.bit_count())
        leaf = (lambda scores: utility(config, totals, scores, me)) if near else None
        n = 0
        while more(n) and not cands.settled:
            world = tracker.deal(self.rng)
            weight = weigh(world) if self.weigh_worlds else 1.0
            if solver is not None:
                alive = [moves[i] for i in cands.alive]
                values = solver.values(world, me, trick, points, taken, alive, leaf=leaf, stop=stop)
                for i, value in zip(list(cands.alive), values):
                    cands.add(i, value, weight)
                cands.end_world()
                n += 1
                continue
            for i in cands.alive:
                scores = play_round(
                    rules,
                    policy,
                    list(world),
                    me,
                    list(trick),
                    played,
                    list(points),
                    list(taken),
                    stop,
                    moves[i],
                )
                cands.add(i, self._value(config, totals, scores, me, near), weight)
            cands.end_world()
            n += 1
        self.last_samples = n
        self.last_rollouts = cands.rollouts
        self.last_moves = moves
        self.last_means = [cands.searched_mean(i) for i in range(len(moves))]
        self.last_near = near
        return moves[cands.best()]

    def _candidates(
        self, view: SeatView, tracker: Tracker, moves: list[int], near: bool
    ) -> Candidates:
        """The candidates a card decision starts from: every distinct move, no prior (a
        tier with a network overrides this), settling at `settle_points` if set (a
        tolerance in points, or none near the end of a game, where values are chances)."""
        return Candidates(len(moves), settle=self._settle(near))

    def _settle(self, near: bool) -> float | None:
        if self.settle_points is None:
            return None
        return 0.0 if near else self.settle_points


def quick_pass(config: RulesConfig, hand: int, keep: int) -> int:
    """The others' pass in a pass rollout: their three most dangerous cards (no legality
    check; it models a choice, it is never sent)."""
    ranked = sorted(C.cards_of(hand), key=lambda c: card_danger(c, hand, config, keep))
    return C.mask_of(ranked[-3:])


register("search")(SearchStrategy)
