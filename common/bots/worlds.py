"""Sampled worlds weighted by how well they explain what the other seats did.

`Tracker.sample` already deals only worlds consistent with the view: voids, the void
rule, talbees, undercut, the own pass and the doubles. Consistent is not the same as
likely: a seat that ducked under the Q♠ with the K♠ still in hand, or passed away two low
hearts while keeping the A♠, played oddly in that world. Each world gets a weight: for
the last plays of the other seats where they had a real choice, the play the rollout
policy would have made in that world is compared with the play they made, and the giver
of our pass is checked for keeping cards more dangerous than the ones it passed us. A
mismatch multiplies the weight by a constant rather than zeroing it, since people (and
other bots) do not play like our policy; the constants are mild because sharp weights
leave a few worlds deciding alone (in a study against `search1` at a few worlds a
decision, a factor 0.5 a play lost to uniform weights).
"""

from __future__ import annotations

from typing import Final

from leekha.common import cards as C
from leekha.common.bots.base import view_config
from leekha.common.bots.heuristic import hand_danger
from leekha.common.bots.simulate import Policy, Rules
from leekha.common.bots.tracker import Tracker
from leekha.common.view import SeatView

_BIT: Final = C.BIT
_SUIT_OF: Final = C.SUIT_OF

# How many of the others' latest plays with a choice are checked, and what a play the
# policy would not have made (or a kept card more dangerous than a passed one) costs.
CHECKED_PLAYS: Final = 6
PLAY_MISS: Final = 0.8
PASS_MISS: Final = 0.8

# (seat, card, cards the seat played from then on, trick before, high, lk_on, played before)
Event = tuple[int, int, int, list[tuple[int, int]], int, bool, int]


def play_events(view: SeatView, rules: Rules) -> list[Event]:
    """The other seats' plays of this round with the position each was made in."""
    me = view.seat
    tricks = [[(s, c) for s, c in t["cards"]] for t in view.tricks]
    if view.trick:
        tricks.append([(s, c) for s, c in view.trick])
    events: list[Event] = []
    played = 0
    for cards in tricks:
        high = -1
        lk_on = False
        for i, (seat, c) in enumerate(cards):
            if seat != me:
                events.append((seat, c, 0, cards[:i], high, lk_on, played))
            if i == 0 or (_SUIT_OF[c] == _SUIT_OF[cards[0][1]] and c > high):
                high = c
            if rules.leekha_mask & _BIT[c]:
                lk_on = True
            played |= _BIT[c]
    # The cards each seat still held when it made each play: its later plays included.
    later = [0, 0, 0, 0]
    out: list[Event] = []
    for seat, c, _, trick, high, lk_on, before in reversed(events):
        later[seat] |= _BIT[c]
        out.append((seat, c, later[seat], trick, high, lk_on, before))
    out.reverse()
    return out


class WorldWeights:
    """The likelihood weight of a sampled world, from one view's public history."""

    __slots__ = ("config", "events", "given", "given_played", "giver", "policy", "rules")

    def __init__(self, view: SeatView, tracker: Tracker, rules: Rules, policy: Policy) -> None:
        self.rules = rules
        self.policy = policy
        self.config = view_config(view)
        events = play_events(view, rules)
        self.events = events[-CHECKED_PLAYS * 2 :]
        me = tracker.seat
        self.giver = -1
        self.given = 0
        self.given_played = 0
        if view.received and view.pass_to is not None:
            offset = (view.pass_to - me) % 4
            self.giver = (me - offset) % 4
            self.given = C.mask_of(view.received)
            self.given_played = sum(_BIT[c] for s, c, *_ in events if s == self.giver)

    def __call__(self, hands: list[int]) -> float:
        weight = 1.0
        checked = 0
        legal_of = self.rules.legal
        policy = self.policy
        for seat, c, later, trick, high, lk_on, before in reversed(self.events):
            hand = hands[seat] | later
            legal = legal_of(hand, trick, high, lk_on)
            if not legal & (legal - 1):
                continue
            if policy(seat, hand, legal, trick, high, before) != c:
                weight *= PLAY_MISS
            checked += 1
            if checked >= CHECKED_PLAYS:
                break
        if self.giver >= 0:
            weight *= self._pass_weight(hands[self.giver])
        return weight

    def _pass_weight(self, held: int) -> float:
        """Cards the giver kept that its pass would have sent before the ones we got."""
        hand = held | self.given_played | self.given
        danger = hand_danger(hand, self.config)
        least = min(danger[c] for c in C.cards_of(self.given))
        worse = sum(1 for c in C.cards_of(held | self.given_played) if danger[c] > least)
        return float(PASS_MISS**worse)
