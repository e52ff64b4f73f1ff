"""How a game ended, as one value every caller reads instead of re-deciding it.

The wire and the game records keep the old result map ({winners, losers, totals}); that
map is `Outcome.to_dict()`, so neither format changes while the engine says more.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

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
    reason: str = TARGET
    tie_extended: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The result map of views and records (unchanged since protocol 1.0)."""
        return {
            "winners": list(self.winners),
            "losers": list(self.losers),
            "totals": list(self.totals),
        }
