"""What a rollout's end position is worth to a seat: its round points, and the game when
the round decides it.

Round points alone are the wrong objective once a round can end the game: under golden
goal the round stops the moment someone reaches the target, with partners the team's sum
is what counts, and in the last round a seat should take a few points if that makes it
the winner. So a rollout that ends the game is worth the outcome, a win or a loss counted
as `GAME_POINTS` round points, on top of the seat's (or its team's) points. A rollout that
does not end the game is worth its points alone: an earlier version scored every rollout
by an estimated chance to win from the totals, and measured against `search1` that cost
points a round without winning more games (docs/bots.md); the estimate away from the end
was noise that the search then optimised.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from leekha.common.config import RulesConfig

# A game won or lost, in round points: more than a round can score without doubles, so
# that winning the game comes first, and comparable with it, so that among ways to win
# the seat still takes the fewest points.
GAME_POINTS: Final = 40.0


def game_winners(config: RulesConfig, totals: Sequence[int]) -> list[int] | None:
    """The winning seats if `totals` end the game, else None (as `Game` decides it)."""
    target = config.target
    if config.partnership == "off":
        if max(totals) < target:
            return None
        low = min(totals)
        winners = [s for s in range(4) if totals[s] == low]
        return winners if len(winners) == 1 else None
    if config.partnership == "combined":
        teams = (totals[0] + totals[2], totals[1] + totals[3])
        if max(teams) < target or teams[0] == teams[1]:
            return None
        loser = 0 if teams[0] > teams[1] else 1
    else:
        crossed = [s for s in range(4) if totals[s] >= target]
        if not crossed:
            return None
        top = max(totals[s] for s in crossed)
        losing = {s & 1 for s in crossed if totals[s] == top}
        if len(losing) > 1:
            return None
        loser = losing.pop()
    return [s for s in range(4) if s & 1 != loser]


def utility(config: RulesConfig, totals: Sequence[int], scores: Sequence[int], seat: int) -> float:
    """The value of a round ending with `scores` on top of `totals`, for `seat`."""
    own = scores[seat] + (scores[seat ^ 2] if config.partnership != "off" else 0)
    winners = game_winners(config, [totals[s] + scores[s] for s in range(4)])
    if winners is None:
        return -float(own)
    return (GAME_POINTS if seat in winners else -GAME_POINTS) - own
