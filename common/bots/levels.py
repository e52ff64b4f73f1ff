"""Levels for people: `easy`, `medium` and `hard`, registered like tiers.

A level is what a person picks (`leekha play --level`, a bot seat in the lobby); a tier is
how a bot works. `hard` is `search-prior`, the card-play search with the value network
inside it (a prior on each move and the moves it rules out) and the network's pass, at
the search's default budget; `medium` is the `heuristic` (full card counting, no
lookahead). `easy` is a beginner, not a random player: it plays the
heuristic's rules of thumb but remembers only the trick on the table and the Leekhas
already gone, never deduces a void, passes its highest cards whatever they cover, never
doubles, and often gives in to a beginner's impulses (`impulse`): running a long suit
from the top, dropping a high card on a trick while it is still clean, saving its point
cards when void. The mistakes are the ones people make, so the level feels like a person.
"""

from __future__ import annotations

from typing import Final

from leekha.common import cards as C
from leekha.common.bots.base import NeverDoubles, register, view_config
from leekha.common.bots.heuristic import HeuristicStrategy, play_policy
from leekha.common.bots.learned import PriorSearch
from leekha.common.legality import legal_passes
from leekha.common.scoring import led_high
from leekha.common.view import SeatView

_BIT: Final = C.BIT
_SUIT_OF: Final = C.SUIT_OF
_SUIT_MASK: Final = C.SUIT_MASK
_BELOW: Final = C.BELOW

# How often the easy level acts on an impulse.
IMPULSE: Final = 0.4


class EasyStrategy(NeverDoubles):
    name = "easy"

    def choose_pass(self, view: SeatView) -> list[int]:
        """The legal pass with the highest ranks: what a beginner thinks is dangerous."""
        best = max(
            legal_passes(view_config(view), view.hand_mask),
            key=lambda p: sorted((c % 13 for c in p), reverse=True),
        )
        return list(best)

    def choose_play(self, view: SeatView) -> int:
        legal = view.legal_mask
        if legal & (legal - 1) == 0:
            return view.legal[0]
        assert view.seat is not None
        trick = [(s, c) for s, c in view.trick]
        high = led_high(trick) if trick else -1
        if self.rng.random() < IMPULSE:
            return impulse(view.hand_mask, legal, trick, high, points_of(view))
        # Memory: the trick on the table and the Leekhas seen, nothing else.
        config = view_config(view)
        seen = C.mask_of(c for t in view.tricks for _, c in t["cards"]) & config.leekha_mask
        seen |= C.mask_of(c for _, c in trick)
        policy = play_policy(view)
        return policy(view.seat, view.hand_mask, legal, trick, high, seen)


def top(mask: int) -> int:
    return mask.bit_length() - 1


def points_of(view: SeatView) -> tuple[int, ...]:
    return view_config(view).card_points()


def impulse(
    hand: int, legal: int, trick: list[tuple[int, int]], high: int, points: tuple[int, ...]
) -> int:
    """What a beginner does on impulse.

    Leading, it runs its longest suit from the top. Following a trick with no points on
    it yet, it gets rid of its highest card "while it is safe" (the later seats may still
    dump points on it). Void, it saves its point cards and sheds its highest other card.
    """
    if not trick:
        longest = max(range(4), key=lambda s: ((legal & _SUIT_MASK[s]).bit_count(), s))
        return top(legal & _SUIT_MASK[longest])
    led = _SUIT_OF[trick[0][1]]
    follow = legal & _SUIT_MASK[led]
    if follow:
        if not any(points[c] for _, c in trick):
            return top(follow)
        under = follow & _BELOW[high]
        return top(under) if under else (follow & -follow).bit_length() - 1
    plain = [c for c in C.cards_of(legal) if not points[c]]
    return max(plain or C.cards_of(legal), key=lambda c: (c % 13, c))


class MediumStrategy(HeuristicStrategy):
    name = "medium"


class HardStrategy(PriorSearch):
    name = "hard"


register("easy")(EasyStrategy)
register("medium")(MediumStrategy)
register("hard")(HardStrategy)
