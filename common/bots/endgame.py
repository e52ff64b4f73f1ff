"""Exact endgames: the rest of a round with every hand known, solved by alpha-beta.

Inside the search, each sampled world is a deal with all four hands known; near the end
of a round it is cheaper and better to solve it than to roll it out with the heuristic.

Who plays for what:
- With partners (any partnership rule) the world is two-sided and zero-sum: a round's
  points are a fixed total (the moon aside), so what the team avoids the other team takes.
- Individually it is paranoid: the seat minimises its own points and the other three
  maximise them. A Leekha round's points are a fixed total too, so the seat's points
  against the others' mean is `(4 * own - total) / 3`: minimising its own points is
  already the zero-sum game against the three, and paranoid keeps alpha-beta's deep
  cut-offs, which max-n (each seat for itself) loses (only shallow pruning), at four
  times the nodes. Paranoid overrates a table that gangs up on us; on a few tricks, with
  every seat itself avoiding points, the difference is small, and it errs towards safety.

Two modes. `points` (no moon to score, no golden-goal stop, the value the round's points):
the value of a node is the points the side takes from there on, so a transposition table
keyed by the four hands and the trick holds exact values and bounds. Otherwise
(`leaf` given, a moon penalty, or a stop) every leaf is scored by `leaf(scores)` as the
search scores a rollout (higher better for the side), without the table.

Equivalent cards (touching in the remaining cards of their suit, same points, not a
Leekha) are searched once, except under undercut by Leekha rank, whose ceiling compares
ranks across suits. Tests check both modes against plain minimax through
`simulate.Round` on 2- and 3-trick positions of every preset.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from leekha.common import cards as C
from leekha.common.bots.rollout import Stop
from leekha.common.bots.simulate import Rules
from leekha.common.scoring import round_scores, take_trick

_BIT: Final = C.BIT
_SUIT_OF: Final = C.SUIT_OF
_SUIT_MASK: Final = C.SUIT_MASK
_BELOW: Final = C.BELOW
_ABOVE: Final = C.ABOVE

Leaf = Callable[[list[int]], float]
_Key = tuple[int, int, int, int, int, tuple[tuple[int, int], ...]]
_EXACT: Final = 0
_LOWER: Final = 1
_UPPER: Final = 2


class Solver:
    """Exact values of one world's moves for `seat` (and its partner when `partners`)."""

    __slots__ = ("collapse", "hands", "maxn", "maxn_table", "nodes", "rules", "side", "table")

    def __init__(self, rules: Rules, seat: int, *, partners: bool, maxn: bool = False) -> None:
        """`maxn`: individually, every other seat minimises its own points (max-n, no
        pruning) rather than ours (paranoid); in `points` mode only."""
        self.rules = rules
        self.maxn = maxn and not partners
        self.maxn_table: dict[_Key, tuple[int, int, int, int]] = {}
        self.side = (1 << seat) | (1 << (seat ^ 2) if partners else 0)
        self.collapse = not rules.undercut_rank
        self.hands: list[int] = [0, 0, 0, 0]
        self.table: dict[
            tuple[int, int, int, int, int, tuple[tuple[int, int], ...]], tuple[int, int]
        ]
        self.table = {}
        self.nodes = 0

    # ---- the search's entry point ---------------------------------------------------
    def values(
        self,
        hands: Sequence[int],
        turn: int,
        trick: Sequence[tuple[int, int]],
        points: Sequence[int],
        taken: Sequence[int],
        moves: Sequence[int],
        *,
        leaf: Leaf | None = None,
        stop: Stop | None = None,
    ) -> list[float]:
        """The exact value of each move of `turn` (a seat of the side): minus the side's
        round points in `points` mode, `leaf(scores)` otherwise; higher is better."""
        self.hands = list(hands)
        high, lk_on = self._trick_state(trick)
        out: list[float] = []
        plain = leaf is None and stop is None and not self._moon_open(taken)
        for c in moves:
            if plain and self.maxn:
                gains = self._play_maxn(turn, tuple(trick), high, lk_on, c)
                out.append(-float(points[turn] + gains[turn]))
            elif plain:
                base = sum(points[s] for s in range(4) if self.side >> s & 1)
                gained = self._play_points(turn, tuple(trick), high, lk_on, c, -(1 << 30), 1 << 30)
                out.append(-float(base + gained))
            else:
                score = leaf or self._minus_side
                out.append(
                    self._play_leaf(
                        turn, list(trick), high, lk_on, list(points), list(taken), c, score, stop
                    )
                )
        return out

    def _minus_side(self, scores: list[int]) -> float:
        return -float(sum(scores[s] for s in range(4) if self.side >> s & 1))

    def _moon_open(self, taken: Sequence[int]) -> bool:
        """Whether a moon could still be scored (then the points mode is not exact)."""
        if not self.rules.moon:
            return False
        penalty = self.rules.penalty_mask
        holders = [s for s in range(4) if taken[s] & penalty]
        return len(holders) <= 1

    def _trick_state(self, trick: Sequence[tuple[int, int]]) -> tuple[int, bool]:
        high = -1
        lk_on = False
        for _, c in trick:
            if high < 0 or (_SUIT_OF[c] == _SUIT_OF[trick[0][1]] and c > high):
                high = c
            if self.rules.leekha_mask & _BIT[c]:
                lk_on = True
        return high, lk_on

    def moves(
        self, seat: int, trick: Sequence[tuple[int, int]], high: int, lk_on: bool
    ) -> list[int]:
        """One card per class of equivalent legal cards of `seat`."""
        hand = self.hands[seat]
        legal = self.rules.legal(hand, trick, high, lk_on)
        if not self.collapse or not legal & (legal - 1):
            return C.cards_of(legal)
        h = self.hands
        live = h[0] | h[1] | h[2] | h[3]
        for _, c in trick:
            live |= _BIT[c]
        points = self.rules.points
        leekhas = self.rules.leekha_mask
        out: list[int] = []
        prev = -1
        for c in C.cards_of(legal):
            if (
                prev >= 0
                and _SUIT_OF[prev] == _SUIT_OF[c]
                and points[prev] == points[c]
                and not leekhas & (_BIT[c] | _BIT[prev])
                and not _ABOVE[prev] & _BELOW[c] & live
            ):
                prev = c
                continue
            out.append(c)
            prev = c
        return out

    def _onto(
        self, trick: Sequence[tuple[int, int]], high: int, lk_on: bool, c: int
    ) -> tuple[int, bool]:
        """The trick's high card and Leekha flag once `c` is played onto it."""
        if not trick or (_SUIT_OF[c] == _SUIT_OF[trick[0][1]] and c > high):
            high = c
        return high, lk_on or bool(self.rules.leekha_mask & _BIT[c])

    # ---- points mode ----------------------------------------------------------------
    def _play_points(
        self,
        seat: int,
        trick: tuple[tuple[int, int], ...],
        high: int,
        lk_on: bool,
        c: int,
        alpha: int,
        beta: int,
    ) -> int:
        """Side points from here when `seat` plays `c`; the side minimises."""
        rules = self.rules
        hands = self.hands
        bit = _BIT[c]
        hands[seat] ^= bit
        high, lk = self._onto(trick, high, lk_on, c)
        trick = (*trick, (seat, c))
        if len(trick) < 4:
            value = self._points(trick, (seat + 1) & 3, high, lk, alpha, beta)
        else:
            winner, _, pts = take_trick(trick, high, rules.points)
            gained = pts if self.side >> winner & 1 else 0
            value = gained + self._points((), winner, -1, False, alpha - gained, beta - gained)
        hands[seat] ^= bit
        return value

    def _points(
        self,
        trick: tuple[tuple[int, int], ...],
        turn: int,
        high: int,
        lk_on: bool,
        alpha: int,
        beta: int,
    ) -> int:
        hands = self.hands
        if not hands[turn]:
            return 0
        if not trick:
            penalty = self.rules.penalty_mask
            if not (hands[0] | hands[1] | hands[2] | hands[3]) & penalty:
                return 0
        self.nodes += 1
        key = (hands[0], hands[1], hands[2], hands[3], turn, trick)
        lo, hi = self.table.get(key, (-(1 << 30), 1 << 30))
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        a, b = max(alpha, lo), min(beta, hi)
        if lo == hi:
            return lo
        minimise = self.side >> turn & 1
        best = (1 << 30) if minimise else -(1 << 30)
        for c in self.moves(turn, trick, high, lk_on):
            v = self._play_points(turn, trick, high, lk_on, c, a, b)
            if minimise:
                if v < best:
                    best = v
                if best < b:
                    b = best
            else:
                if v > best:
                    best = v
                if best > a:
                    a = best
            if a >= b:
                break
        if best <= alpha:
            self.table[key] = (lo, best)
        elif best >= beta:
            self.table[key] = (best, hi)
        else:
            self.table[key] = (best, best)
        return best

    # ---- max-n, points mode -------------------------------------------------------
    def _play_maxn(
        self, seat: int, trick: tuple[tuple[int, int], ...], high: int, lk_on: bool, c: int
    ) -> tuple[int, int, int, int]:
        """Each seat's points from here when `seat` plays `c`."""
        hands = self.hands
        bit = _BIT[c]
        hands[seat] ^= bit
        high, lk = self._onto(trick, high, lk_on, c)
        trick = (*trick, (seat, c))
        if len(trick) < 4:
            value = self._maxn(trick, (seat + 1) & 3, high, lk)
        else:
            winner, _, pts = take_trick(trick, high, self.rules.points)
            rest = self._maxn((), winner, -1, False)
            gains = list(rest)
            gains[winner] += pts
            value = (gains[0], gains[1], gains[2], gains[3])
        hands[seat] ^= bit
        return value

    def _maxn(
        self, trick: tuple[tuple[int, int], ...], turn: int, high: int, lk_on: bool
    ) -> tuple[int, int, int, int]:
        """The seat to move takes the fewest points it can; on a tie, the line that gives
        the searching seat the most (a mild paranoia where the others do not care)."""
        hands = self.hands
        if not hands[turn]:
            return (0, 0, 0, 0)
        if not trick and not (hands[0] | hands[1] | hands[2] | hands[3]) & self.rules.penalty_mask:
            return (0, 0, 0, 0)
        key = (hands[0], hands[1], hands[2], hands[3], turn, trick)
        known = self.maxn_table.get(key)
        if known is not None:
            return known
        self.nodes += 1
        me = self.side.bit_length() - 1
        best: tuple[int, int, int, int] | None = None
        for c in self.moves(turn, trick, high, lk_on):
            v = self._play_maxn(turn, trick, high, lk_on, c)
            if best is None or (v[turn], -v[me]) < (best[turn], -best[me]):
                best = v
        assert best is not None
        self.maxn_table[key] = best
        return best

    # ---- leaf mode ------------------------------------------------------------------
    def _play_leaf(
        self,
        seat: int,
        trick: list[tuple[int, int]],
        high: int,
        lk_on: bool,
        points: list[int],
        taken: list[int],
        c: int,
        leaf: Leaf,
        stop: Stop | None,
        alpha: float = -float("inf"),
        beta: float = float("inf"),
    ) -> float:
        rules = self.rules
        hands = self.hands
        bit = _BIT[c]
        hands[seat] ^= bit
        high, lk = self._onto(trick, high, lk_on, c)
        trick = [*trick, (seat, c)]
        if len(trick) < 4:
            value = self._leaf(
                trick, (seat + 1) & 3, high, lk, points, taken, leaf, stop, alpha, beta
            )
        else:
            winner, won, pts = take_trick(trick, high, rules.points)
            points = list(points)
            taken = list(taken)
            points[winner] += pts
            taken[winner] |= won
            if stop is not None and pts and stop(points):
                value = leaf(points)
            else:
                value = self._leaf([], winner, -1, False, points, taken, leaf, stop, alpha, beta)
        hands[seat] ^= bit
        return value

    def _leaf(
        self,
        trick: list[tuple[int, int]],
        turn: int,
        high: int,
        lk_on: bool,
        points: list[int],
        taken: list[int],
        leaf: Leaf,
        stop: Stop | None,
        alpha: float,
        beta: float,
    ) -> float:
        hands = self.hands
        rules = self.rules
        if not hands[turn] or (
            not trick and not (hands[0] | hands[1] | hands[2] | hands[3]) & rules.penalty_mask
        ):
            scores = round_scores(points, taken, moon=rules.moon, penalty_mask=rules.penalty_mask)
            return leaf(scores)
        self.nodes += 1
        maximise = self.side >> turn & 1
        best = -float("inf") if maximise else float("inf")
        for c in self.moves(turn, trick, high, lk_on):
            v = self._play_leaf(turn, trick, high, lk_on, points, taken, c, leaf, stop, alpha, beta)
            if maximise:
                best = max(best, v)
                alpha = max(alpha, best)
            else:
                best = min(best, v)
                beta = min(beta, best)
            if alpha >= beta:
                break
        return best
