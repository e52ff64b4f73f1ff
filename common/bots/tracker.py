"""What one seat can deduce about the hidden hands from its own view of the round.

Everything here is rebuilt from a SeatView (the tricks of this round, the trick in
progress, the own pass and the reveals), so it can never know more than the seat does.
The deductions respect the table's rules: under "any_leekha" a void player holding a
Leekha must play it, so a plain discard proves the player holds none; talbees and undercut
likewise turn some plays into proofs of absence. `PlayRules.absent_after` states them, next
to the legality they are read from.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from typing import Any, Final

from leekha.common import cards as C
from leekha.common.bots.base import view_config
from leekha.common.config import RulesConfig
from leekha.common.legality import PlayRules, play_rules
from leekha.common.view import SeatView, TrickRecord

_BIT: Final = C.BIT
_SUIT_OF: Final = C.SUIT_OF
_SUIT_MASK: Final = C.SUIT_MASK


def _empty_suits(mask: int) -> int:
    """Bit s set when `mask` has no card of suit s."""
    clubs, diamonds, hearts, spades = _SUIT_MASK
    return (
        (not mask & clubs)
        | (not mask & diamonds) << 1
        | (not mask & hearts) << 2
        | (not mask & spades) << 3
    )


def _read_trick(
    cards: Sequence[Any], me: int, rules: PlayRules, played: int, absent: list[int]
) -> int:
    """Add what a trick's plays prove absent to `absent`; return `played` with its cards."""
    high = -1
    lk_on = False
    led = -1
    leekhas = rules.leekha_mask
    for i, (seat, c) in enumerate(cards):
        played |= _BIT[c]
        if i == 0:
            led = _SUIT_OF[c]
        elif seat != me:
            absent[seat] |= rules.absent_after(cards[:i], high, lk_on, c)
        if led == _SUIT_OF[c] and c > high:
            high = c
        if leekhas & _BIT[c]:
            lk_on = True
    return played


@functools.lru_cache(maxsize=64)
def _finished_trick(rules: PlayRules, plays: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    """(the trick's cards, then what its plays prove absent from each seat's hand) of a
    finished trick, read once for every seat: in a bot match all four seats' trackers read
    each trick, the same way (what a trick proves about a seat's own hand is read too,
    and never used: a tracker sets its own seat's absent cards from its hand)."""
    absent = [0, 0, 0, 0]
    played = _read_trick(plays, -1, rules, 0, absent)
    return played, *absent


class SampleError(RuntimeError):
    """No deal fits the deductions (only possible if the view itself is inconsistent)."""


class Tracker:
    """Cards seen, cards known to be in a hand, and cards proven absent from each hand."""

    __slots__ = (
        "_done",
        "_done_absent",
        "_done_played",
        "_plan",
        "_rules",
        "absent",
        "config",
        "hand",
        "hand_sizes",
        "known",
        "played",
        "seat",
        "unseen",
    )

    def __init__(self, view: SeatView, since: Tracker | None = None) -> None:
        """`since`: this seat's tracker from an earlier view of the same round, if any.
        What the finished tricks prove is then read only from the tricks finished since
        (a bot match asks after every move); any other tracker is ignored."""
        if view.seat is None:
            raise ValueError("a tracker needs a seat's view, not a spectator's")
        me = view.seat
        self.seat = me
        self.config: RulesConfig = view_config(view)
        self.hand = C.mask_of(view.hand)
        tricks = view.tricks
        # What the finished tricks prove depends on the seat, the rules and those tricks
        # alone, so a tracker that read a prefix of them can be carried on from.
        if (
            since is not None
            and since.seat == me
            and since.config is self.config
            and len(since._done) <= len(tricks)
            and tricks[: len(since._done)] == since._done
        ):
            played, absent = since._done_played, list(since._done_absent)
            start = len(since._done)
            rules = since._rules
        else:
            played, absent, start = 0, [0, 0, 0, 0], 0
            rules = play_rules(self.config)
        self._rules: PlayRules = rules
        for t in tricks[start:]:
            got, a0, a1, a2, a3 = _finished_trick(rules, tuple(map(tuple, t["cards"])))
            played |= got
            absent[0] |= a0
            absent[1] |= a1
            absent[2] |= a2
            absent[3] |= a3
        self._done: list[TrickRecord] = list(tricks)
        self._done_played: int = played
        self._done_absent: list[int] = list(absent)
        if view.trick:
            played = _read_trick(view.trick, me, rules, played, absent)
        absent[me] = C.FULL_DECK & ~self.hand
        self.played = played
        # Cards held by the other seats, wherever they are.
        self.unseen = C.FULL_DECK & ~played & ~self.hand
        # Everyone holds as many cards as we do, give or take this trick's plays.
        in_trick = [0, 0, 0, 0]
        for seat, _ in view.trick:
            in_trick[seat] = 1
        base = self.hand.bit_count() + in_trick[me]
        self.hand_sizes = [base - in_trick[s] for s in range(4)]

        # Cards whose holder we know: our own pass (until played) and revealed doubles.
        known = [0, 0, 0, 0]
        known[me] = self.hand
        offset = ((view.pass_to if view.pass_to is not None else me + 1) - me) % 4
        if view.passed is not None and view.received is not None:
            to = (me + offset) % 4
            known[to] |= C.mask_of(view.passed) & ~played
        giver = (me - offset) % 4
        for c, doubler in view.doubled:
            bit = _BIT[c]
            if (played | self.hand) & bit or doubler == me:
                continue
            if view.received is None:
                known[doubler] |= bit  # before the exchange it is still in their hand
                continue
            if doubler == giver:
                known[doubler] |= bit  # they would have passed it to us
                continue
            target = (doubler + offset) % 4
            for s in range(4):
                if s not in (doubler, target):
                    absent[s] |= bit
        k0, k1, k2, k3 = known
        absent[0] = (absent[0] & ~k0) | k1 | k2 | k3
        absent[1] = (absent[1] & ~k1) | k0 | k2 | k3
        absent[2] = (absent[2] & ~k2) | k0 | k1 | k3
        absent[3] = (absent[3] & ~k3) | k0 | k1 | k2
        self.known = known
        self.absent = absent
        self._plan: tuple[list[tuple[int, list[int]]], list[int]] | None = None

    # ---- queries --------------------------------------------------------------------
    def void_suits(self, seat: int) -> int:
        """Bit s set when `seat` certainly holds no card of suit s."""
        if seat == self.seat:
            return _empty_suits(self.hand)
        return _empty_suits(self.unseen & ~self.absent[seat])

    def voids(self) -> list[int]:
        """`void_suits` of every seat."""
        return [self.void_suits(s) for s in range(4)]

    def lacks(self, seat: int, c: int) -> bool:
        """Whether `seat` is proven not to hold card `c` now."""
        return bool(self.absent[seat] & _BIT[c]) or bool(self.played & _BIT[c])

    # ---- sampling -------------------------------------------------------------------
    def sample(self, rng: random.Random) -> list[int]:
        """Four hands consistent with everything this seat knows (own hand exact).

        Cards go most-constrained first to a random seat with room; when the greedy pass
        gets stuck an augmenting path moves cards between seats, so a consistent deal is
        always found when one exists.
        """
        me = self.seat
        hands = list(self.known)
        room = [self.hand_sizes[s] - hands[s].bit_count() for s in range(4)]
        room[me] = 0
        free = self.unseen & ~(hands[0] | hands[1] | hands[2] | hands[3])
        todo = []
        for c in C.cards_of(free):
            seats = [s for s in range(4) if s != me and not self.absent[s] & _BIT[c]]
            todo.append((len(seats), rng.random(), c, seats))
        todo.sort(key=lambda item: (item[0], item[1]))
        for _, _, c, seats in todo:
            open_seats = [s for s in seats if room[s] > 0]
            if open_seats:
                s = rng.choices(open_seats, [room[s] for s in open_seats])[0]
            else:
                s = self._make_room(hands, room, seats)
            hands[s] |= _BIT[c]
            room[s] -= 1
        if any(r != 0 for r in room):
            raise SampleError("hand sizes do not add up to the unseen cards")
        return hands

    def deal(self, rng: random.Random) -> list[int]:
        """Like `sample`, faster for many worlds from one view: the seats each card may go
        to are worked out once, cards that may go anywhere are shuffled and cut by the
        room left rather than placed one by one."""
        if self._plan is None:
            self._plan = self._deal_plan()
        constrained, anywhere = self._plan
        hands = list(self.known)
        room = [self.hand_sizes[s] - hands[s].bit_count() for s in range(4)]
        room[self.seat] = 0
        order = list(constrained)
        rng.shuffle(order)
        order.sort(key=lambda item: len(item[1]))
        for c, seats in order:
            total = 0
            for s in seats:
                total += room[s]
            if total:
                pick = rng.random() * total
                for s in seats:
                    pick -= room[s]
                    if room[s] and pick < 0:
                        break
            else:
                s = self._make_room(hands, room, seats)
            hands[s] |= _BIT[c]
            room[s] -= 1
        rest = list(anywhere)
        rng.shuffle(rest)
        i = 0
        for s in range(4):
            if room[s] < 0 or i + room[s] > len(rest):
                raise SampleError("hand sizes do not add up to the unseen cards")
            for c in rest[i : i + room[s]]:
                hands[s] |= _BIT[c]
            i += room[s]
        if i != len(rest):
            raise SampleError("hand sizes do not add up to the unseen cards")
        return hands

    def _deal_plan(self) -> tuple[list[tuple[int, list[int]]], list[int]]:
        me = self.seat
        others = [s for s in range(4) if s != me]
        hands = self.known
        free = self.unseen & ~(hands[0] | hands[1] | hands[2] | hands[3])
        constrained: list[tuple[int, list[int]]] = []
        anywhere: list[int] = []
        for c in C.cards_of(free):
            seats = [s for s in others if not self.absent[s] & _BIT[c]]
            if len(seats) == len(others):
                anywhere.append(c)
            else:
                constrained.append((c, seats))
        return constrained, anywhere

    def _make_room(self, hands: list[int], room: list[int], seats: list[int]) -> int:
        """Free a slot in one of `seats` by shifting cards along an augmenting path."""
        prev: dict[int, tuple[int, int]] = {}
        starts = set(seats)
        frontier = list(seats)
        seen = set(seats)
        while frontier:
            nxt: list[int] = []
            for s in frontier:
                movable = hands[s] & ~self.known[s]
                for t in range(4):
                    if t == self.seat or t in seen:
                        continue
                    can = movable & ~self.absent[t]
                    if not can:
                        continue
                    prev[t] = (s, can & -can)
                    if room[t] > 0:
                        # Walk back: each card moves one step towards the seat with room.
                        while t not in starts:
                            src, bit = prev[t]
                            hands[src] ^= bit
                            hands[t] |= bit
                            room[t] -= 1
                            room[src] += 1
                            t = src
                        return t
                    seen.add(t)
                    nxt.append(t)
            frontier = nxt
        raise SampleError("no deal fits what this seat knows")
