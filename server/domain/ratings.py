"""Ratings from finished games, with openskill's Plackett-Luce model.

The mathematics is the library's; this module only says how a Leekha game becomes a
ranking. Solo games rank the four seats by their final totals (lowest first, equal totals
share a place). Partnership games rank two teams: the winners of the engine's outcome
ahead of the losers. Guests take part with a fresh rating that is not kept, so playing a
guest moves a claimed player's rating as playing an unknown newcomer would.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from openskill.models import PlackettLuce


@cache
def _model() -> PlackettLuce:
    """The model, made when the first game is rated: importing openskill costs a start-up
    (`leekha play`'s included) more than rating a game does."""
    from openskill.models import PlackettLuce

    return PlackettLuce()


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative score a leaderboard sorts by (mu - 3 sigma)."""
        return self.mu - 3 * self.sigma

    @classmethod
    def fresh(cls) -> Rating:
        r = _model().rating()
        return cls(r.mu, r.sigma)


@dataclass(frozen=True)
class Entrant:
    """One seat of a finished game: who (a rating key, or None for a guest)."""

    key: str | None
    total: int


def _ranks_solo(totals: Sequence[int]) -> list[int]:
    return [1 + sum(1 for other in totals if other < t) for t in totals]


def rate_game(
    entrants: Sequence[Entrant],
    current: Mapping[str, Rating],
    *,
    teams: bool,
    winners: Sequence[int] = (),
) -> dict[str, Rating]:
    """New ratings for every keyed entrant of one game.

    `teams` rates partners (seats 0+2 against 1+3) as two teams, ranked by `winners`
    (seats of the winning team); otherwise each seat is its own team, ranked by total.
    """
    ratings = [current.get(e.key) if e.key else None for e in entrants]
    model_ratings = [
        _model().rating(mu=r.mu, sigma=r.sigma) if r else _model().rating() for r in ratings
    ]
    if teams:
        groups = [[0, 2], [1, 3]]
        won = set(winners)
        ranks = [1 if set(g) <= won else 2 for g in groups]
    else:
        groups = [[i] for i in range(len(entrants))]
        ranks = _ranks_solo([e.total for e in entrants])
    teams_in = [[model_ratings[i] for i in g] for g in groups]
    rated = _model().rate(teams_in, ranks=[float(r) for r in ranks])
    out: dict[str, Rating] = {}
    for group, new in zip(groups, rated, strict=True):
        for seat, r in zip(group, new, strict=True):
            key = entrants[seat].key
            if key:
                out[key] = Rating(r.mu, r.sigma)
    return out
