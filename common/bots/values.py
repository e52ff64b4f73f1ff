"""What a rollout's end position is worth to a seat once a round could end the game: its
chance to win the game.

Round points are the wrong objective near the end of a game: under golden goal the round
stops the moment someone reaches the target, in partnership play only the team sum
counts, and close to the target the seat should push points onto whoever threatens to
beat it. So, once one round could end the game (`in_reach`), a rollout is scored by an
estimate of the seat's (or its team's) chance to win from the totals it leads to, exact
when the game is over, with the seat's own round points as a small tie-break. Further from
the end the search scores round points alone: there the chance follows them, and the
estimate adds only noise.

Measured against `search1` (docs/bots.md): the estimate everywhere cost points without
winning more games; a game won or lost counted as 40 round points on top of the round's
points, and nothing short of the end, cost more (golden goal: 12% more points and fewer
games won), because it valued every round that does not end the game as neutral.

The estimate is deliberately simple and cheap (it runs once per rollout): the rounds left
are guessed from the leader's distance to the target, and the spread of a player's
points over those rounds sets how much a lead is worth.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

from leekha.common.config import RulesConfig
from leekha.common.outcome import decide

# A seat takes about 9 points a round; the one in the lead gains faster (it is behind
# because it takes more), and one seat's points over a round spread with sd about 9.
LEADER_PER_ROUND: Final = 12.0
SPREAD_PER_ROUND: Final = 9.0
# Weight of one own round point against the chance to win (a tie-break only).
TIE_BREAK: Final = 0.002


def game_winners(config: RulesConfig, totals: Sequence[int]) -> list[int] | None:
    """The winning seats if `totals` end the game, else None (`outcome.decide`, as the
    engine decides it)."""
    ending = decide(config, totals)
    if ending is None or ending.tie:
        return None
    return list(ending.winners)


def win_chance(config: RulesConfig, totals: Sequence[int], seat: int) -> float:
    """The chance that `seat` (or its team) wins from game totals `totals`."""
    winners = game_winners(config, totals)
    if winners is not None:
        return 1.0 if seat in winners else 0.0
    lead = max(totals)
    per_round = LEADER_PER_ROUND
    if config.partnership == "combined":
        lead = max(totals[0] + totals[2], totals[1] + totals[3])  # the target is the team's
        per_round *= 2
    left = max(0.5, (config.target - lead) / per_round)
    spread = SPREAD_PER_ROUND * math.sqrt(left)
    if config.partnership == "off":
        low = min(totals)
        weights = [math.exp((low - t) / spread) for t in totals]
        return weights[seat] / sum(weights)
    mine = seat & 1
    if config.partnership == "combined":
        gap = (totals[1 - mine] + totals[3 - mine]) - (totals[mine] + totals[mine + 2])
        spread *= math.sqrt(2.0)
    else:  # individual_bust: the team whose worst member crosses first loses
        gap = max(totals[1 - mine], totals[3 - mine]) - max(totals[mine], totals[mine + 2])
    return 1.0 / (1.0 + math.exp(-gap / spread))


def in_reach(config: RulesConfig, totals: Sequence[int], most: int) -> bool:
    """Whether a round worth at most `most` points could end the game from `totals`.

    Further from the end than that, a seat's chance to win moves with its own points and
    little else, and the points are what it can measure with least noise."""
    lead = max(totals)
    if config.partnership == "combined":
        lead = max(totals[0] + totals[2], totals[1] + totals[3])
    return lead + most >= config.target


def utility(config: RulesConfig, totals: Sequence[int], scores: Sequence[int], seat: int) -> float:
    """The value of a round ending with `scores` on top of `totals`, for `seat`."""
    after = [totals[s] + scores[s] for s in range(4)]
    own = scores[seat] + (scores[seat ^ 2] if config.partnership == "combined" else 0)
    return win_chance(config, after, seat) - TIE_BREAK * own
