"""Legality, layered as in python-chess: pass rules, then play rules, each a pure function
of a hand and the public position.

`Game`, the search bots' rollout simulator and the heuristic policy all ask these same
functions, so there is one statement of the rules for every scalar path. (The NumPy batch
engine restates them as array operations and is checked against these step by step.)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations
from typing import Final

from leekha.common import cards as C
from leekha.common import errors as E
from leekha.common.actions import PASS_COUNT, check_pass_cards
from leekha.common.config import RulesConfig
from leekha.common.errors import RuleError

_BIT: Final = C.BIT
_SUIT_OF: Final = C.SUIT_OF
_SUIT_MASK: Final = C.SUIT_MASK
_BELOW: Final = C.BELOW
_QS_BIT: Final = C.BIT[C.QUEEN_SPADES]


# ---- the pass ------------------------------------------------------------------------
def exempt_mask(config: RulesConfig) -> int:
    """Cards the pass ban never applies to: each Leekha and everything above it in its suit."""
    out = 0
    for c in config.leekha_cards:
        out |= _BIT[c] | C.ABOVE[c]
    return out


def pass_error(config: RulesConfig, hand: int, cards: Sequence[int]) -> RuleError | None:
    """Why passing `cards` from `hand` is illegal, or None when it is legal."""
    try:
        mask = C.mask_of(check_pass_cards(cards))
    except RuleError as exc:
        return exc
    if mask & ~hand:
        missing = C.format_cards(C.cards_of(mask & ~hand))
        return RuleError(E.NOT_IN_HAND, f"not in your hand: {missing}")
    if config.pass_ban:
        rest = hand & ~mask
        for c in C.cards_of(mask & ~exempt_mask(config)):
            if not rest & _SUIT_MASK[_SUIT_OF[c]]:
                return RuleError(
                    E.PASS_LAST_OF_SUIT,
                    f"cannot pass {C.format_card(c)}: it would empty your "
                    f"{C.SUIT_NAMES[_SUIT_OF[c]]} (only a Leekha and higher may go)",
                )
    return None


def passable_mask(config: RulesConfig, hand: int) -> int:
    """Cards that can be part of some legal pass from `hand`."""
    if not config.pass_ban:
        return hand
    out = hand & exempt_mask(config)
    for s in range(4):
        suit = hand & _SUIT_MASK[s]
        if suit.bit_count() >= 2:
            out |= suit
    return out


def legal_passes(config: RulesConfig, hand: int) -> Iterator[tuple[int, int, int]]:
    """Every legal pass from `hand`, in card order."""
    for combo in combinations(C.cards_of(hand), PASS_COUNT):
        if pass_error(config, hand, combo) is None:
            yield combo


# ---- play ----------------------------------------------------------------------------
class PlayRules:
    """The play-rule options of a config, flattened to plain attributes for the hot path."""

    __slots__ = ("leekha_mask", "leekha_of_suit", "talbees", "undercut", "void_rule")

    def __init__(self, config: RulesConfig) -> None:
        self.leekha_mask = config.leekha_mask
        # The Leekha that talbees forces in each suit (-1: the suit has none).
        lk = [-1, C.TEN_DIAMONDS, -1, C.QUEEN_SPADES]
        if config.club_leekha:
            lk[C.CLUBS] = C.KING_CLUBS
        self.leekha_of_suit: tuple[int, ...] = tuple(lk)
        self.talbees = config.talbees
        self.undercut = config.undercut
        self.void_rule = config.void_rule

    def legal(self, hand: int, trick: Sequence[tuple[int, int]], high: int, lk_on: bool) -> int:
        """The playable cards of `hand` on `trick`.

        `high` is the highest card of the led suit on the trick and `lk_on` whether any
        Leekha card lies on it. Layers: follow suit, then talbees, then undercut; a void
        player falls to the void rule.
        """
        if not trick:
            return hand
        led = _SUIT_OF[trick[0][1]]
        follow = hand & _SUIT_MASK[led]
        if follow:
            if self.talbees:
                lk = self.leekha_of_suit[led]
                if lk >= 0 and hand & _BIT[lk] and high > lk:
                    return _BIT[lk]
            if self.undercut and lk_on:
                lower = follow & _BELOW[high]
                if lower:
                    return lower
            return follow
        if self.void_rule == "queen_only":
            return (hand & _QS_BIT) or hand
        if self.void_rule == "any_leekha":
            return (hand & self.leekha_mask) or hand
        return hand
