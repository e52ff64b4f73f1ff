"""How a game ended, as one value every caller reads instead of re-deciding it.

The wire and the game records keep the old result map ({winners, losers, totals}); that
map is `Outcome.to_dict()`, so neither format changes while the engine says more.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Literal, NamedTuple

if TYPE_CHECKING:
    from leekha.common.config import RulesConfig

#: Why a game ended: with a round (the target), or in the middle of one (golden goal).
Reason = Literal["target", "golden_goal"]
TARGET: Final = "target"
GOLDEN_GOAL: Final = "golden_goal"


@dataclass(frozen=True, slots=True)
class Outcome:
    """Who won and lost, the final totals, and why play stopped where it did.

    `reason` is GOLDEN_GOAL when the game stopped in the middle of a round (the golden-goal
    rule), TARGET when it ended with a round. `tie_extended` is true when some earlier
    point had reached the target but a tie made play go on.
    """

    winners: tuple[int, ...]
    losers: tuple[int, ...]
    totals: tuple[int, ...]
    reason: Reason = TARGET
    tie_extended: bool = False

    def to_dict(self) -> dict[str, list[int]]:
        """The result map of views and records (unchanged since protocol 1.0)."""
        return {
            "winners": list(self.winners),
            "losers": list(self.losers),
            "totals": list(self.totals),
        }


class Ending(NamedTuple):
    """What `decide` found: who wins and loses once the target is reached, or `tie` when
    a tie for the win (or between the teams) is all that keeps the game going."""

    winners: tuple[int, ...]
    losers: tuple[int, ...]
    tie: bool


#: `decide`'s answer for a target reached with the win tied: play goes on.
TIED: Final = Ending((), (), True)


def decide(config: RulesConfig, totals: Sequence[int]) -> Ending | None:
    """The one statement of when totals end a game: None while nobody has reached the
    target; `TIED` when it is reached but the win is tied; else the winners and losers.

    The engine asks it after every round (and, under golden goal, every trick that
    scored); the search bots ask it of every rollout's end, so both agree on the end.
    """
    target = config.target
    mode = config.partnership
    if mode == "off":
        high = max(totals)
        if high < target:
            return None
        low = min(totals)
        winners = tuple(s for s in range(4) if totals[s] == low)
        if len(winners) > 1:
            return TIED
        return Ending(winners, tuple(s for s in range(4) if totals[s] == high), False)
    if mode == "combined":
        teams = (totals[0] + totals[2], totals[1] + totals[3])
        if max(teams) < target:
            return None
        if teams[0] == teams[1]:
            return TIED
        loser = 0 if teams[0] > teams[1] else 1
    else:  # individual_bust
        crossed = [s for s in range(4) if totals[s] >= target]
        if not crossed:
            return None
        top = max(totals[s] for s in crossed)
        losing = {s & 1 for s in crossed if totals[s] == top}
        if len(losing) > 1:
            return TIED
        loser = min(losing)
    return Ending(
        tuple(s for s in range(4) if s & 1 != loser),
        tuple(s for s in range(4) if s & 1 == loser),
        False,
    )
