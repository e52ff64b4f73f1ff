"""The standings of a tournament, from its entrants and the games that finished.

One function, `standings`, computes them; the runner's live state, `leekha tournament
status`, the export and the terminal client's screen all call it, so they cannot disagree.

Points are Leekha points taken (fewer is better), so entrants rank by points per round,
lowest first; games won break ties. The 95% interval of points per round treats all the
games an entrant played on one deal (its four rotations, at every table that deal was
dealt to) as one cluster: they share the cards, so counting them as independent would
make the interval too narrow. House bots (Swiss fillers) get figures but no rank.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from leekha.common.intervals import Interval
from leekha.protocol.views import GameEntry
from leekha.protocol.views import Standing as WireStanding
from leekha.server.domain.tournament.plan import SEATS, Entrant, PlannedGame


@dataclass(frozen=True)
class GameResult:
    """A finished game of a tournament, as the runner records it.

    `rounds` is the game's history (per round, the points of each seat; `Game.history`),
    `winners` its winning seats (`Outcome.winners`), `fallback_moves` how many moves the
    server's fallback played for each seat (the entrant disconnected or timed out), and
    `record_id` the id of the game's record in the server's database.
    """

    game: PlannedGame
    rounds: tuple[tuple[int, ...], ...]
    winners: tuple[int, ...]
    fallback_moves: tuple[int, ...] = (0, 0, 0, 0)
    record_id: int | None = None

    def to_dict(self) -> GameEntry:
        """A JSON- and msgpack-safe map (the export's game entry, minus names)."""
        g = self.game
        return {
            "game": g.number,
            "stage": g.stage,
            "deal": g.deal,
            "rotation": g.rotation,
            "seed": g.seed,
            "seats": list(g.seats),
            "record_id": self.record_id,
            "rounds": [list(r) for r in self.rounds],
            "points": [sum(r[s] for r in self.rounds) for s in range(SEATS)],
            "winners": list(self.winners),
            "fallback_moves": list(self.fallback_moves),
        }

    @classmethod
    def from_dict(cls, data: GameEntry) -> GameResult:
        """The inverse of `to_dict` (for a store that keeps results as JSON)."""
        a, b, c, d = (int(e) for e in data["seats"])
        game = PlannedGame(
            int(data["game"]), int(data["stage"]), int(data["deal"]), int(data["rotation"]),
            (a, b, c, d), int(data["seed"]),
        )  # fmt: skip
        record = data.get("record_id")
        return cls(
            game,
            tuple(tuple(int(p) for p in r) for r in data["rounds"]),
            tuple(int(w) for w in data["winners"]),
            tuple(int(m) for m in data.get("fallback_moves", (0, 0, 0, 0))),
            None if record is None else int(record),
        )


@dataclass(frozen=True)
class Standing:
    """One entrant's line. `mean` is points per round (None before its first round);
    `low`/`high` bound its 95% interval (None with fewer than two deals finished);
    `rank` is None for a house bot. Ties share a rank (1, 2, 2, 4)."""

    entrant: int
    rank: int | None
    games: int
    wins: int
    rounds: int
    points: int
    mean: float | None
    low: float | None
    high: float | None
    deals: int
    fallback_games: int
    fallback_moves: int

    def to_dict(self) -> WireStanding:
        """The wire's standing map (protocol 1.3 `tournament_state`) and the export's
        (`WireStanding`; `deals` is the export's only). The wire's `mean` is always a
        number: 0.0 with `rounds` 0 before the first round."""
        return {
            "entrant": self.entrant,
            "rank": self.rank,
            "games": self.games,
            "wins": self.wins,
            "rounds": self.rounds,
            "points": self.points,
            "mean": 0.0 if self.mean is None else self.mean,
            "low": self.low,
            "high": self.high,
            "fallback_games": self.fallback_games,
            "fallback_moves": self.fallback_moves,
        }


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


def standings(entrants: Sequence[Entrant], results: Iterable[GameResult]) -> list[Standing]:
    """Every entrant's standing, best first; house bots after the ranked entrants.

    A result naming an entrant index outside `entrants` is a programming error
    (IndexError): results come from the tournament's own plan.
    """
    tallies: list[Counter[str]] = [Counter() for _ in entrants]
    by_deal: list[dict[int, list[int]]] = [{} for _ in entrants]  # deal -> [points, rounds]
    for result in results:
        for seat, index in enumerate(result.game.seats):
            points = sum(r[seat] for r in result.rounds)
            moves = result.fallback_moves[seat]
            won = int(seat in result.winners)  # ints, so that a count is never a bool
            tallies[index].update(
                games=1, wins=won, rounds=len(result.rounds), points=points,
                fallback_games=int(moves > 0), fallback_moves=moves,
            )  # fmt: skip
            cluster = by_deal[index].setdefault(result.game.deal, [0, 0])
            cluster[0] += points
            cluster[1] += len(result.rounds)
    lines = []
    for e, t, deals in zip(entrants, tallies, by_deal, strict=True):
        iv = Interval.clustered([(float(p), float(r)) for p, r in deals.values()])
        mean, half = _finite(iv.mean), _finite(iv.half)
        low, high = (None, None) if mean is None or half is None else (mean - half, mean + half)
        lines.append(
            Standing(
                e.index,
                None,
                t["games"],
                t["wins"],
                t["rounds"],
                t["points"],
                mean,
                low,
                high,
                len(deals),
                t["fallback_games"],
                t["fallback_moves"],
            )
        )
    return _ranked(entrants, lines)


def _key(s: Standing) -> tuple[bool, float, int, int]:
    return (s.mean is None, s.mean or 0.0, -s.wins, s.entrant)


def _ranked(entrants: Sequence[Entrant], lines: list[Standing]) -> list[Standing]:
    ranked = sorted((s for s in lines if not entrants[s.entrant].house), key=_key)
    out = []
    previous: tuple[bool, float, int] | None = None
    rank = 0
    for place, s in enumerate(ranked, start=1):
        now = _key(s)[:3]
        if now != previous:
            rank, previous = place, now
        out.append(replace(s, rank=rank))
    return out + sorted((s for s in lines if entrants[s.entrant].house), key=_key)


def order(entrants: Sequence[Entrant], results: Iterable[GameResult]) -> list[int]:
    """The whole field, house bots included, best first: the order a Swiss stage is
    grouped by (`plan.swiss_stage`)."""
    return [s.entrant for s in sorted(standings(entrants, results), key=_key)]
