"""Legality, layered as in python-chess: pass rules, then play rules, each a pure function
of a hand and the public position.

`Game`, the search bots' rollout simulator and the heuristic policy all ask these same
functions, so there is one statement of the rules for every scalar path. (The NumPy batch
engine restates them as array operations and is checked against these step by step.)
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from itertools import combinations
from typing import Final

from leekha.common import cards as C
from leekha.common import errors as E
from leekha.common.actions import PASS_COUNT, pass_mask
from leekha.common.config import RulesConfig
from leekha.common.errors import RuleError

_BIT: Final = C.BIT
_SUIT_OF: Final = C.SUIT_OF
_SUIT_MASK: Final = C.SUIT_MASK
_BELOW: Final = C.BELOW
_QS_BIT: Final = C.BIT[C.QUEEN_SPADES]
# _RANK_BELOW[r]: every card, of any suit, ranked below rank r (index -1: none).
_RANK_BELOW: Final = (
    *(C.mask_of(c for c in range(52) if c % 13 < r) for r in range(13)),
    0,
)


# ---- the pass ------------------------------------------------------------------------
def _exempt(leekha_cards: Sequence[int]) -> int:
    out = 0
    for c in leekha_cards:
        out |= _BIT[c] | C.ABOVE[c]
    return out


# The exempt mask depends on the club Leekha option alone, and `pass_error` asks for it on
# every pass checked (a bot or a benchmark tries many), so both values are computed once.
_EXEMPT: Final = tuple(_exempt(RulesConfig(club_leekha=k).leekha_cards) for k in (False, True))


def exempt_mask(config: RulesConfig) -> int:
    """Cards the pass ban never applies to: each Leekha and everything above it in its suit."""
    return _EXEMPT[config.club_leekha]


def pass_legal(config: RulesConfig, hand: int, mask: int) -> bool:
    """Whether passing the three different cards of `mask` from `hand` is legal.

    `pass_error(...) is None` without the refusal: the heuristic bot tries many passes
    and reads only yes or no, so the message and facts of a refusal for every illegal
    candidate were built for no one. tests/engine/test_pass_and_score.py holds the two
    equal.
    """
    if mask & ~hand:
        return False
    if config.pass_ban:
        # A card the ban covers may go only if a card of its suit stays behind.
        rest = hand & ~mask
        banned = mask & ~_EXEMPT[config.club_leekha]
        for suit in _SUIT_MASK:
            if banned & suit and not rest & suit:
                return False
    return True


def pass_error(config: RulesConfig, hand: int, cards: Sequence[int]) -> RuleError | None:
    """Why passing `cards` from `hand` is illegal, or None when it is legal."""
    try:
        mask = pass_mask(cards)
    except RuleError as exc:
        return exc
    if pass_legal(config, hand, mask):
        return None
    if mask & ~hand:
        missing = C.format_cards(C.cards_of(mask & ~hand))
        return RuleError(E.NOT_IN_HAND, f"not in your hand: {missing}")
    if config.pass_ban:
        rest = hand & ~mask
        for c in C.cards_of(mask & ~_EXEMPT[config.club_leekha]):
            if not rest & _SUIT_MASK[_SUIT_OF[c]]:
                return RuleError(
                    E.PASS_LAST_OF_SUIT,
                    f"cannot pass {C.format_card(c)}: it would empty your "
                    f"{C.SUIT_NAMES[_SUIT_OF[c]]} (only a Leekha and higher may go)",
                    rule=E.PASS_BAN,
                    args={"card": c, "suit": _SUIT_OF[c]},
                )
    return None


def passable_mask(config: RulesConfig, hand: int) -> int:
    """Cards that can be part of some legal pass from `hand`."""
    if not config.pass_ban:
        return hand
    out = hand & _EXEMPT[config.club_leekha]
    for s in range(4):
        suit = hand & _SUIT_MASK[s]
        if suit.bit_count() >= 2:
            out |= suit
    return out


def legal_passes(config: RulesConfig, hand: int) -> Iterator[tuple[int, int, int]]:
    """Every legal pass from `hand`, in card order."""
    for combo in combinations(C.cards_of(hand), PASS_COUNT):
        a, b, c = combo
        if pass_legal(config, hand, _BIT[a] | _BIT[b] | _BIT[c]):
            yield combo


# ---- play ----------------------------------------------------------------------------
@functools.lru_cache(maxsize=64)
def play_rules(config: RulesConfig) -> PlayRules:
    """The `PlayRules` of `config`, made once per config: a `Game` and a tracker are made
    per round or per decision in bot matches, and the rules never change under them
    (`PlayRules` is read-only once made)."""
    return PlayRules(config)


class PlayRules:
    """The play-rule options of a config, flattened to plain attributes for the hot path."""

    __slots__ = (
        "leekha_mask",
        "leekha_of_suit",
        "talbees",
        "undercut",
        "undercut_rank",
        "void_forced",
        "void_rule",
    )

    def __init__(self, config: RulesConfig) -> None:
        self.leekha_mask = config.leekha_mask
        # The Leekha that talbees forces in each suit (-1: the suit has none).
        lk = [-1, C.TEN_DIAMONDS, -1, C.QUEEN_SPADES]
        if config.club_leekha:
            lk[C.CLUBS] = C.KING_CLUBS
        self.leekha_of_suit: tuple[int, ...] = tuple(lk)
        self.talbees = config.talbees
        self.undercut = config.undercut
        self.undercut_rank = config.undercut and config.undercut_ceiling == "leekha_rank"
        self.void_rule = config.void_rule
        # The cards a void player must discard if holding any (0: a free discard).
        self.void_forced = 0
        if config.void_rule == "queen_only":
            self.void_forced = _QS_BIT
        elif config.void_rule == "any_leekha":
            self.void_forced = config.leekha_mask

    def legal(self, hand: int, trick: Sequence[tuple[int, int]], high: int, lk_on: bool) -> int:
        """The playable cards of `hand` on `trick`.

        `high` is the highest card of the led suit on the trick and `lk_on` whether any
        Leekha card lies on it. Layers: follow suit, then talbees, then undercut; a void
        player falls to the void rule (and, with undercut by Leekha rank, to undercut too).
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
                lower = follow & (self._under(trick) if self.undercut_rank else _BELOW[high])
                if lower:
                    return lower
            return follow
        forced = hand & self.void_forced
        if not forced:
            return hand
        if self.undercut_rank and lk_on:
            lower = forced & self._under(trick)
            if lower:
                return lower
        return forced

    def refusal(
        self, hand: int, trick: Sequence[tuple[int, int]], high: int, lk_on: bool, card: int
    ) -> RuleError | None:
        """Why `card` may not be played from `hand` onto `trick` (as for `legal`), naming
        the rule that forbids it (`RuleError.rule`) and the facts a client words it with;
        None when it may. The engine refuses with it and clients explain with it."""
        bit = _BIT[card]
        name = C.format_card(card)
        if not hand & bit:
            return RuleError(E.NOT_IN_HAND, f"{name} is not in your hand", args={"card": card})
        legal = self.legal(hand, trick, high, lk_on)
        if legal & bit:
            return None
        led = _SUIT_OF[trick[0][1]]
        moves = C.cards_of(legal)
        shown = C.format_cards(moves)
        facts: E.Facts = {"card": card, "suit": led, "legal": moves}
        if hand & _SUIT_MASK[led]:
            if _SUIT_OF[card] != led:
                return RuleError(
                    E.MUST_FOLLOW_SUIT,
                    f"you must follow {C.SUIT_NAMES[led]}; legal: {shown}",
                    rule=E.FOLLOW_SUIT,
                    args=facts,
                )
            lk = self.leekha_of_suit[led]
            if self.talbees and lk >= 0 and hand & _BIT[lk] and high > lk:
                return RuleError(
                    E.MUST_PLAY_FORCED,
                    f"talbees: {C.format_card(lk)} must go now a higher card of its suit is down",
                    rule=E.TALBEES,
                    args=facts,
                )
            return RuleError(
                E.MUST_PLAY_FORCED,
                f"undercut: play under the Leekha card; legal: {shown}",
                rule=E.UNDERCUT,
                args=facts,
            )
        return RuleError(
            E.MUST_PLAY_LEEKHA,
            f"void in {C.SUIT_NAMES[led]}: play {shown}",
            rule=E.VOID_RULE,
            args=facts,
        )

    def _under(self, trick: Sequence[tuple[int, int]]) -> int:
        """Cards of any suit ranked below the highest-ranked Leekha on the trick: the
        undercut ceiling when it compares ranks (a 10♦ on a heart trick bars the J♥ up)."""
        top = -1
        for _, c in trick:
            if self.leekha_mask & _BIT[c] and c % 13 > top:
                top = c % 13
        return _RANK_BELOW[top]

    def absent_after(
        self, trick: Sequence[tuple[int, int]], high: int, lk_on: bool, card: int
    ) -> int:
        """Cards a player cannot have held, given that they played `card` onto `trick`.

        `trick`, `high` and `lk_on` describe the trick before the card, as for `legal`.
        Every play the rules would have forbidden proves something is missing: a plain
        discard proves the void rule's cards absent, a card above the undercut ceiling
        proves nothing below it was held. Opponent models must draw deals from here so
        that they never assume more (or less) than `legal` enforces.
        """
        if not trick:
            return 0
        led = _SUIT_OF[trick[0][1]]
        bit = _BIT[card]
        if _SUIT_OF[card] != led:
            out = _SUIT_MASK[led]
            kind = self.void_forced
            if kind and not kind & bit:
                out |= kind
            elif kind and self.undercut_rank and lk_on:
                lower = kind & self._under(trick)
                if not lower & bit:
                    out |= lower
            return out
        out = 0
        if self.talbees:
            lk = self.leekha_of_suit[led]
            if lk >= 0 and high > lk:
                if card == lk:
                    return 0  # talbees forced it: the rest of the hand is unconstrained
                out |= _BIT[lk]
        if self.undercut and lk_on:
            ceiling = self._under(trick) if self.undercut_rank else _BELOW[high]
            lower = _SUIT_MASK[led] & ceiling
            if not lower & bit:
                out |= lower
        return out


def play_refusal(
    config: RulesConfig, hand: int, trick: Sequence[tuple[int, int]], card: int
) -> RuleError | None:
    """`PlayRules.refusal` for a position a client holds (its hand and the trick on the
    table): the engine's own reason, for a client that explains a card before sending."""
    rules = play_rules(config)
    if not trick:
        return rules.refusal(hand, trick, -1, False, card)
    led = _SUIT_OF[trick[0][1]]
    high = max(c for _s, c in trick if _SUIT_OF[c] == led)
    lk_on = any(rules.leekha_mask & _BIT[c] for _s, c in trick)
    return rules.refusal(hand, trick, high, lk_on, card)
