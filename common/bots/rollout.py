"""The rest of a round played on masks as one tight loop, for the `search` tier's rollouts.

A rollout is most of what search costs, so this is `simulate.Round` flattened into a
single function over local variables: no object per rollout, no method call per card,
only the policy call where a seat has a real choice; who takes a trick and what the round
scores come from `leekha.common.scoring`, as in `Game`. It also stops where a golden-goal
game stops (the first trick with points that decides the game), which `Round` does not
model. Once every card that scores has been played it stops: the tricks left cannot change
the scores. Tests play the same positions through `Game` and compare every score.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from leekha.common import cards as C
from leekha.common.bots.simulate import Policy, Rules
from leekha.common.bots.values import game_winners
from leekha.common.config import RulesConfig
from leekha.common.scoring import round_scores, take_trick

_BIT: Final = C.BIT
_SUIT_OF: Final = C.SUIT_OF

# Called with the round points so far after a trick with points: does the game end now?
Stop = Callable[[list[int]], bool]


def golden_stop(config: RulesConfig, totals: Sequence[int]) -> Stop | None:
    """The golden-goal check for a round on top of `totals` (None when it does not apply)."""
    if config.game_end != "golden_goal":
        return None
    base = list(totals)

    def stop(points: list[int]) -> bool:
        live = [base[0] + points[0], base[1] + points[1], base[2] + points[2], base[3] + points[3]]
        return game_winners(config, live) is not None

    return stop


def play_round(
    rules: Rules,
    policy: Policy,
    hands: list[int],
    turn: int,
    trick: list[tuple[int, int]],
    played: int,
    points: list[int],
    taken: list[int],
    stop: Stop | None = None,
    first: int = -1,
) -> list[int]:
    """Play to the end of the round (or golden goal) in place; the round's scores.

    `first`, when given, is the card the seat to move plays now (the move under test).
    `hands`, `trick`, `points` and `taken` are consumed; pass copies.
    """
    legal_of = rules.legal
    card_points = rules.points
    leekhas = rules.leekha_mask
    penalty = rules.penalty_mask
    high = -1
    lk_on = False
    led = -1
    for _, c in trick:
        if led < 0:
            led = _SUIT_OF[c]
            high = c
        elif _SUIT_OF[c] == led and c > high:
            high = c
        if leekhas & _BIT[c]:
            lk_on = True
    while True:
        hand = hands[turn]
        if not hand:
            break
        if first >= 0:
            c = first
            first = -1
        elif (legal := legal_of(hand, trick, high, lk_on)) & (legal - 1):
            c = policy(turn, hand, legal, trick, high, played)
        else:
            c = legal.bit_length() - 1
        bit = _BIT[c]
        hands[turn] = hand ^ bit
        played |= bit
        if led < 0:
            led = _SUIT_OF[c]
            high = c
        elif c > high and _SUIT_OF[c] == led:
            high = c
        if leekhas & bit:
            lk_on = True
        trick.append((turn, c))
        if len(trick) < 4:
            turn = (turn + 1) & 3
            continue
        turn, won, pts = take_trick(trick, high, card_points)
        taken[turn] |= won
        points[turn] += pts
        trick = []
        high = -1
        lk_on = False
        led = -1
        if stop is not None and pts and stop(points):
            return points
        if not penalty & ~played:
            break  # every card that scores is gone: the rest of the round changes nothing
    return round_scores(points, taken, moon=rules.moon, penalty_mask=penalty)
