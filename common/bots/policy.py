"""Rule-of-thumb card play on bitmasks, shared by the heuristic tier and search rollouts.

One implementation serves both so the rollouts model opponents the way the heuristic bot
actually plays, and so it stays cheap enough (pure int arithmetic, no allocation beyond a
few locals) to run inside tens of thousands of simulated tricks per decision.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from leekha.common import cards as C
from leekha.common.bots.simulate import Rules

_BIT: Final = C.BIT
_SUIT_OF: Final = C.SUIT_OF
_SUIT_MASK: Final = C.SUIT_MASK
_BELOW: Final = C.BELOW
_ABOVE: Final = C.ABOVE
_FULL: Final = C.FULL_DECK


def _high(mask: int) -> int:
    return mask.bit_length() - 1


def _low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


class PlayPolicy:
    """Duck when possible, dump Leekhas on opponents when void, lead where others can duck.

    `voids` (optional, per seat) are suits a seat is known to lack; the heuristic bot
    fills them from its tracker, rollouts leave them empty.
    """

    __slots__ = ("any_voids", "leekha_mask", "leekha_of_suit", "partners", "points", "voids")

    def __init__(self, rules: Rules, *, partners: bool, voids: Sequence[int] = (0, 0, 0, 0)):
        self.points = rules.points
        self.leekha_mask = rules.leekha_mask
        self.leekha_of_suit = rules.leekha_of_suit
        self.partners = partners
        self.voids = tuple(voids)
        self.any_voids = any(voids)

    def __call__(
        self,
        seat: int,
        hand: int,
        legal: int,
        trick: list[tuple[int, int]],
        high: int,
        played: int,
    ) -> int:
        if not trick:
            return self.lead(seat, hand, legal, played)
        led = _SUIT_OF[trick[0][1]]
        if legal & _SUIT_MASK[led]:
            return self.follow(legal, trick, high)
        return self.discard(seat, hand, legal, trick, high, played)

    # ---- following suit -------------------------------------------------------------
    def follow(self, legal: int, trick: list[tuple[int, int]], high: int) -> int:
        """Following suit reads only the trick: who we are and what is gone do not matter."""
        points = self.points
        lk = self.leekha_mask
        below = legal & _BELOW[high]
        last = len(trick) == 3
        if below:
            if last:
                pts = 0
                for _, c in trick:
                    pts += points[c]
                safe = legal & ~lk
                if pts == 0 and safe:
                    # Nothing to lose by winning a clean last trick: shed the highest
                    # card rather than a low one we will want for ducking later.
                    top = _high(safe)
                    if points[top] == 0:
                        return top
            return _high(below)
        # Every card we hold in the suit beats the trick so far.
        safe = legal & ~lk
        if last or safe == 0:
            return _high(safe) if safe else _low(legal)
        if legal & lk:
            # Keep the Leekha hidden behind a higher card: play our top non-Leekha.
            return _high(safe)
        # Second/third hand: stay low and hope a later player goes over.
        return _low(safe)

    def _winner(self, trick: list[tuple[int, int]], high: int) -> int:
        for s, c in trick:
            if c == high:
                return s
        return -1

    # ---- discarding when void -------------------------------------------------------
    def discard(
        self,
        seat: int,
        hand: int,
        legal: int,
        trick: list[tuple[int, int]],
        high: int,
        played: int,
    ) -> int:
        points = self.points
        friendly = (
            self.partners
            and self._winner(trick, high) == seat ^ 2
            and (len(trick) == 3 or not (_ABOVE[high] & ~played & ~hand))
        )
        best = -1
        best_score = -(1 << 30)
        sign = -40 if friendly else 40
        lk_of = self.leekha_of_suit
        unseen_low = ~played & ~hand
        m = legal
        while m:
            low = m & -m
            c = low.bit_length() - 1
            m ^= low
            # How much keeping c threatens us: high cards above a live Leekha are worst,
            # a card nothing of theirs can duck under less so, short suits are worth
            # emptying (to dump later).
            suit = _SUIT_OF[c]
            score = c - suit * 13
            lk = lk_of[suit]
            if lk >= 0 and c > lk and not (played | hand) & _BIT[lk]:
                score += 30
            suit_mask = _SUIT_MASK[suit]
            if not suit_mask & _BELOW[c] & unseen_low:
                score -= 5
            if (hand & suit_mask).bit_count() <= 2:
                score += 4
            score += points[c] * sign
            if score > best_score:
                best_score = score
                best = c
        return best

    # ---- leading --------------------------------------------------------------------
    def lead(self, seat: int, hand: int, legal: int, played: int) -> int:
        points = self.points
        lk_mask = self.leekha_mask
        lk_of = self.leekha_of_suit
        out = _FULL & ~played & ~hand
        best = -1
        best_risk = 1 << 30
        for s in range(4):
            mine = legal & _SUIT_MASK[s]
            if not mine:
                continue
            others = out & _SUIT_MASK[s]
            lk = lk_of[s]
            holds_lk = lk >= 0 and hand & _BIT[lk]
            # Candidate: our lowest card, or our lowest non-Leekha one.
            plain = mine & ~lk_mask
            pick = plain or mine
            c = (pick & -pick).bit_length() - 1
            n_others = others.bit_count()
            if n_others == 0:
                # Everyone else is void: they discard onto us.
                risk = 600 + points[c] * 20
            else:
                under = (others & _BELOW[c]).bit_count()
                risk = (under * 100) // n_others + points[c] * 20
                if lk >= 0 and not holds_lk and not (played & _BIT[lk]) and c < lk:
                    risk -= 25  # flush the Leekha out from under a low lead
                if holds_lk:
                    risk += 15
                if lk_mask & _BIT[c]:
                    risk += 300
                # Voids among the others mean discards onto this trick.
                if self.any_voids:
                    for o in range(4):
                        if o != seat and self.voids[o] & (1 << s):
                            risk += 30
            risk = risk * 16 + (c - s * 13)
            if risk < best_risk:
                best_risk = risk
                best = c
        return best
