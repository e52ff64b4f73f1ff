"""The `heuristic` tier: card-counting rules of thumb, no lookahead.

It passes away the cards that catch Leekhas, reveals a Leekha only when its suit is long
and low enough that it can always be ducked, and plays by ducking and dumping, reading
who is void from the tracker. It is also the opponent model inside the search tier.
"""

from __future__ import annotations

import functools
import random
from itertools import combinations, islice
from typing import Final

from leekha.common import cards as C
from leekha.common.bots.base import register, view_config
from leekha.common.bots.policy import PlayPolicy
from leekha.common.bots.simulate import Rules
from leekha.common.bots.tracker import Tracker
from leekha.common.config import RulesConfig
from leekha.common.legality import pass_legal, passable_mask
from leekha.common.scoring import led_high
from leekha.common.view import SeatView

_BIT: Final = C.BIT
_SUIT_MASK: Final = C.SUIT_MASK
_BELOW: Final = C.BELOW

# A Leekha is kept (and may be revealed) only with this many lower cards of its suit.
COVER: Final = 4
SAFE_DOUBLE_COVER: Final = 6
# Passes are ranked among combinations of this many most dangerous cards (and short suits).
PASS_POOL: Final = 9
# What emptying a suit adds to a pass's score.
EMPTY_BONUS: Final = 25


def leekha_of_suit(config: RulesConfig) -> tuple[int, ...]:
    """The Leekha card of each suit (-1: none)."""
    return _LEEKHA_OF_SUIT[config.club_leekha]


_LEEKHA_OF_SUIT: Final = (
    (-1, C.TEN_DIAMONDS, -1, C.QUEEN_SPADES),
    (C.KING_CLUBS, C.TEN_DIAMONDS, -1, C.QUEEN_SPADES),
)


def card_danger(c: int, hand: int, config: RulesConfig, keep: int = 0) -> int:
    """How much keeping `c` is likely to cost; the pass sends the three worst away."""
    return _danger(c, hand, keep, leekha_of_suit(config), config.card_points())


def hand_danger(hand: int, config: RulesConfig, keep: int = 0) -> dict[int, int]:
    """`card_danger` of every card of `hand`, with the config's tables looked up once:
    every pass decision asks for all thirteen."""
    lk_of = leekha_of_suit(config)
    points = config.card_points()
    return {c: _danger(c, hand, keep, lk_of, points) for c in C.cards_of(hand)}


def _danger(c: int, hand: int, keep: int, lk_of: tuple[int, ...], points: tuple[int, ...]) -> int:
    if keep & _BIT[c]:
        return -1000
    suit, rank = divmod(c, 13)
    lk = lk_of[suit]
    in_suit = hand & _SUIT_MASK[suit]
    if lk >= 0:
        cover = (in_suit & _BELOW[lk]).bit_count()
        if c == lk:
            return 100 + points[c] if cover < COVER else -20
        if c > lk:
            if hand & _BIT[lk]:
                # Our own Leekha's guards: with cover we keep them, without we pass the
                # Leekha itself and these follow it.
                return 30 + rank if cover < COVER else 10 + rank
            return 55 + rank
    if suit == C.HEARTS:
        return 8 + 3 * rank
    return rank + (6 if in_suit.bit_count() <= 2 else 0)


def ranked_passes(
    config: RulesConfig, hand: int, keep: int = 0, count: int = 1
) -> list[tuple[int, int, int]]:
    """The `count` legal passes that remove the most danger, best first, with a bonus for
    emptying a suit (ties keep card order).

    Every combination is scored (cheap), and legality is asked of the best ones only, in
    score order, until `count` have passed: the best few are almost always legal.
    """
    danger = hand_danger(hand, config, keep)
    # A card outside the most dangerous few can only be worth passing to empty a short
    # suit, so combinations are drawn from those cards and the short suits.
    passable = passable_mask(config, hand)
    pool = passable
    if count <= PASS_POOL - 3:
        top = sorted(C.cards_of(passable), key=danger.__getitem__, reverse=True)[:PASS_POOL]
        pool = C.mask_of(top)
        for suit in _SUIT_MASK:
            if 0 < (hand & suit).bit_count() <= 3:
                pool |= passable & suit
    cards = C.cards_of(pool)
    # Emptying a suit earns a bonus (a void lets us dump Leekhas and high cards later);
    # only a short suit held wholly in the pool can be emptied.
    short = [held for suit in _SUIT_MASK if _emptiable(held := hand & suit, pool)]
    if count == 1 and len(cards) >= 3:
        best = _first_best(cards, danger, short)
        if pass_legal(config, hand, C.mask_of(best)):
            return [best]
    worth = [danger[c] for c in cards]
    triples = _triples(len(cards))
    totals = [worth[a] + worth[b] + worth[c] for a, b, c in triples]
    for held in short:
        inside = tuple(i for i, c in enumerate(cards) if held & _BIT[c])
        for i in _containing(len(cards), inside):
            totals[i] += EMPTY_BONUS
    # Best first; ties keep combination order (the sort is stable, reversed too).
    order = sorted(range(len(totals)), key=totals.__getitem__, reverse=True)
    combos = ((cards[a], cards[b], cards[c]) for a, b, c in (triples[i] for i in order))
    legal = (combo for combo in combos if pass_legal(config, hand, C.mask_of(combo)))
    found = list(islice(legal, count))
    if len(found) < count and pool != passable:
        return ranked_passes(config, hand, keep, PASS_POOL)[:count]
    assert found, "every 13-card hand has a legal pass"
    return found


def _emptiable(held: int, pool: int) -> bool:
    return 0 < held.bit_count() <= 3 and held & pool == held


def _first_best(cards: list[int], danger: dict[int, int], short: list[int]) -> tuple[int, int, int]:
    """The first, in combination order, of the triples of `cards` that score most: what
    scoring every triple and taking the first best finds, without scoring them all.

    A best triple holds some set of whole short suits (each earning the bonus) and fills
    the rest of its three with the most dangerous other cards, the lowest first on ties,
    so the candidates are one triple for each set of short suits that fits in three.
    """
    ranked = sorted(cards, key=danger.__getitem__, reverse=True)  # ties stay in card order
    best: tuple[int, tuple[int, ...]] | None = None
    for emptied, suits in _fitting_unions(short):
        # The emptied suits' cards (all in the pool, so in `cards`), then the most
        # dangerous others until there are three.
        picked = C.cards_of(emptied)
        need = 3 - len(picked)
        if need:
            for c in ranked:
                if not emptied & _BIT[c]:
                    picked.append(c)
                    need -= 1
                    if not need:
                        break
        total = sum(map(danger.__getitem__, picked)) + EMPTY_BONUS * suits
        key = (-total, tuple(sorted(picked)))
        if best is None or key < best:
            best = key
    assert best is not None
    a, b, c = best[1]
    return a, b, c


def _fitting_unions(short: list[int]) -> list[tuple[int, int]]:
    """(mask, how many suits) of every union of the `short` suits that fits in a pass."""
    unions = [(0, 0)]
    for held in short:
        unions += [(m | held, n + 1) for m, n in unions if (m | held).bit_count() <= 3]
    return unions


@functools.cache
def _triples(n: int) -> list[tuple[int, int, int]]:
    return list(combinations(range(n), 3))  # type: ignore[arg-type]


@functools.cache
def _containing(n: int, inside: tuple[int, ...]) -> list[int]:
    """Indexes in `_triples(n)` of the triples that hold every index of `inside`."""
    return [i for i, t in enumerate(_triples(n)) if all(j in t for j in inside)]


def choose_pass_cards(config: RulesConfig, hand: int, keep: int = 0) -> list[int]:
    """The legal pass with the most danger removed."""
    return list(ranked_passes(config, hand, keep)[0])


def safe_doubles(config: RulesConfig, hand: int, candidates: list[int]) -> list[int]:
    """Leekhas so well covered by low cards of their suit that revealing them is cheap."""
    out = []
    lk = leekha_of_suit(config)
    for c in candidates:
        suit = C.SUIT_OF[c]
        if lk[suit] != c:
            continue
        cover = (hand & _SUIT_MASK[suit] & _BELOW[c]).bit_count()
        if cover >= SAFE_DOUBLE_COVER:
            out.append(c)
    return out


def cached_rules(config: RulesConfig, doubled: int) -> Rules:
    """The rollout rules of a config and set of doubles, built once: every decision and
    every pass rollout asks for them (a match, with the same ones every time)."""
    global _last_rules
    last_config, last_doubled, rules = _last_rules
    if config is not last_config or doubled != last_doubled:
        rules = _rules_of(config, doubled)
        _last_rules = (config, doubled, rules)
    return rules


@functools.lru_cache(maxsize=128)
def _rules_of(config: RulesConfig, doubled: int) -> Rules:
    return Rules(config, doubled)


_last_rules: tuple[RulesConfig | None, int, Rules] = (None, 0, Rules(RulesConfig(), 0))


def play_policy(view: SeatView, tracker: Tracker | None = None) -> PlayPolicy:
    """The play policy for this view, knowing the voids `tracker` proves (none without)."""
    config = tracker.config if tracker else view_config(view)
    doubled = C.mask_of(c for c, _ in view.doubled) if view.doubled else 0
    voids = tracker.voids() if tracker else _NO_VOIDS
    return PlayPolicy(
        cached_rules(config, doubled), partners=config.partnership != "off", voids=voids
    )


_NO_VOIDS: Final = (0, 0, 0, 0)


class HeuristicStrategy:
    name = "heuristic"

    def __init__(self, seed: int = 0, *, doubling: bool = True, carry_on: bool = True) -> None:
        """`carry_on=False` rebuilds the tracker from the whole round at every decision:
        the reference that benchmarks and tests compare the carried-on tracker with."""
        self.rng = random.Random(seed)
        self.doubling = doubling
        self.carry_on = carry_on
        # Each seat's last tracker, carried on to its next decision of the round.
        self._trackers: dict[int, Tracker] = {}
        self._plain: tuple[RulesConfig, int, PlayPolicy] | None = None

    def choose_doubles(self, view: SeatView) -> list[int]:
        if not self.doubling or not view.can_double:
            return []
        return safe_doubles(view_config(view), view.hand_mask, list(view.can_double))

    def choose_pass(self, view: SeatView) -> list[int]:
        hand = view.hand_mask
        keep = C.mask_of(self.choose_doubles(view))
        keep |= C.mask_of(c for c, s in view.doubled if s == view.seat)
        return choose_pass_cards(view_config(view), hand, keep)

    def choose_play(self, view: SeatView) -> int:
        legal = view.legal_mask
        if legal & (legal - 1) == 0:
            return view.legal[0]
        seat = view.seat
        assert seat is not None
        trick = [(s, c) for s, c in view.trick]
        if not trick:
            tracker = self._tracker(view, seat)
            policy = play_policy(view, tracker)
            return policy.lead(seat, tracker.hand, legal, tracker.played)
        high = led_high(trick)
        if legal & _SUIT_MASK[C.SUIT_OF[trick[0][1]]]:
            # Following suit reads only the trick, so no tracker is built.
            return self._plain_policy(view).follow(legal, trick, high)
        # A discard reads what has been played, not who is void.
        tracker = self._tracker(view, seat)
        policy = self._plain_policy(view)
        return policy.discard(seat, tracker.hand, legal, trick, high, tracker.played)

    def _plain_policy(self, view: SeatView) -> PlayPolicy:
        """`play_policy(view)`, kept while the rules and the doubles stay the same."""
        config = view_config(view)
        doubled = C.mask_of(c for c, _ in view.doubled) if view.doubled else 0
        kept = self._plain
        if kept is None or kept[0] is not config or kept[1] != doubled:
            kept = self._plain = (config, doubled, play_policy(view))
        return kept[2]

    def _tracker(self, view: SeatView, seat: int) -> Tracker:
        if not self.carry_on:
            return Tracker(view)
        tracker = Tracker(view, since=self._trackers.get(seat))
        self._trackers[seat] = tracker
        return tracker


register("heuristic")(HeuristicStrategy)


class NeverDoubleHeuristic(HeuristicStrategy):
    """The heuristic with doubling switched off, to measure what revealing is worth."""

    name = "heuristic-never-doubles"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed, doubling=False)
