"""Who sits where in which game of a tournament: round robin of foursomes, or Swiss stages.

Every deal (one game seed: the whole game's deal sequence) is played by a foursome in all
four seat rotations, each rotation a game at its own table (duplicate), so the luck of the
cards cancels within the foursome. All foursomes of a round robin, and all foursomes of
one Swiss stage, play the same deals, so the whole field meets the same cards.

Everything here is pure and deterministic: the same entrants, counts and tournament seed
give the same games on any machine, so a restarted server plans again what it had planned.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from leekha.common.seeds import derive_seed
from leekha.protocol.tournament_text import counted as counted  # re-exported

ROUND_ROBIN: Final = "round_robin"
SWISS: Final = "swiss"
FORMATS: Final = (ROUND_ROBIN, SWISS)

SEATS: Final = 4
#: The state of a tournament must fit one 64 KiB frame.
MAX_ENTRANTS: Final = 64
#: A schedule longer than this is refused: at a few minutes a game it would not end.
MAX_GAMES: Final = 2000
MAX_DEALS: Final = 500
MAX_STAGES: Final = 50

Seats = tuple[int, int, int, int]


class PlanError(ValueError):
    """A tournament that cannot be planned; the message says why, in words."""


@dataclass(frozen=True)
class Entrant:
    """One player of a tournament: a server bot by `strategy`, or a connected client by
    session `name` (exactly one of the two). A `house` entrant is a server bot of the
    fallback strategy that fills a Swiss field to a multiple of four; it plays, but it is
    not ranked."""

    index: int
    name: str | None = None
    strategy: str | None = None
    house: bool = False

    @property
    def kind(self) -> str:
        """ "house", "server" or "client", as the wire names them."""
        if self.house:
            return "house"
        return "server" if self.strategy is not None else "client"

    @property
    def label(self) -> str:
        """How standings and tables show it: the name, or the strategy with its number,
        counted from 1 as people count (the wire's `index` counts from 0)."""
        if self.name is not None:
            return self.name
        return f"{self.strategy}#{self.index + 1}"


@dataclass(frozen=True)
class PlannedGame:
    """One game of a tournament: rotation `rotation` of deal `deal` for one foursome.

    `number` is the game's place in the schedule (0-based, unique in the tournament);
    `stage` is 0 in a round robin; `deal` counts the deals of the tournament (deal d of
    Swiss stage s is `s * deals + d`), so the games of one deal share `seed`; `seats`
    holds the entrant index of each seat.
    """

    number: int
    stage: int
    deal: int
    rotation: int
    seats: Seats
    seed: int


def entrants_of(specs: Iterable[tuple[str | None, str | None]]) -> list[Entrant]:
    """Entrants from (name, strategy) pairs, numbered in order; refuses a pair that has
    both or neither, and a client name given twice."""
    out: list[Entrant] = []
    names: set[str] = set()
    for i, (name, strategy) in enumerate(specs):
        if (name is None) == (strategy is None):
            raise PlanError(f"entrant {i + 1}: give a name or a strategy, not both or neither")
        if name is not None:
            if name in names:
                raise PlanError(f"entrant {name!r} is given twice")
            names.add(name)
        out.append(Entrant(i, name=name, strategy=strategy))
    return out


def with_house(entrants: Sequence[Entrant], strategy: str) -> list[Entrant]:
    """The field of a Swiss tournament: the entrants, then house bots of `strategy` until
    the count is a multiple of four."""
    count = -len(entrants) % SEATS
    start = len(entrants)
    return [*entrants, *(Entrant(start + i, strategy=strategy, house=True) for i in range(count))]


def check(fmt: str, entrants: int, deals: int, stages: int | None) -> None:
    """Raise PlanError, saying what is wrong, unless the tournament can be planned.

    `entrants` counts the field as given (before house bots); `stages` is for Swiss only.
    """
    if fmt not in FORMATS:
        raise PlanError(f"unknown format {fmt!r}: use round_robin or swiss")
    if not SEATS <= entrants <= MAX_ENTRANTS:
        raise PlanError(
            f"a tournament needs from {SEATS} to {MAX_ENTRANTS} entrants, not {entrants}"
        )
    if not 1 <= deals <= MAX_DEALS:
        raise PlanError(f"deals must be from 1 to {MAX_DEALS}, not {deals}")
    if fmt == ROUND_ROBIN and stages is not None:
        raise PlanError("stages are for swiss; a round robin plays every foursome")
    if fmt == SWISS and (stages is None or not 1 <= stages <= MAX_STAGES):
        raise PlanError(f"swiss needs stages from 1 to {MAX_STAGES}, not {stages}")
    total = total_games(fmt, entrants, deals, stages)
    if total > MAX_GAMES:
        detail = (
            f"{math.comb(entrants, SEATS)} foursomes of {entrants} entrants"
            if fmt == ROUND_ROBIN
            else f"{stages} stages of {math.ceil(entrants / SEATS)} tables"
        )
        raise PlanError(
            f"{total} games ({detail}, {deals} deals, 4 rotations each) is more than "
            f"{MAX_GAMES}: use fewer deals or entrants"
            + (", or swiss" if fmt == ROUND_ROBIN else ", or fewer stages")
        )


def total_games(fmt: str, entrants: int, deals: int, stages: int | None) -> int:
    """How many games the whole tournament plays (`entrants` before house bots)."""
    if fmt == ROUND_ROBIN:
        return math.comb(entrants, SEATS) * deals * SEATS
    return (stages or 0) * stage_games(entrants, deals)


def stage_games(entrants: int, deals: int) -> int:
    """How many games one Swiss stage plays: every table plays every deal 4 times."""
    return math.ceil(entrants / SEATS) * deals * SEATS


def deal_seed(seed: int, deal: int) -> int:
    """The game seed of the tournament's deal `deal` (as `leekha match` seeds game g)."""
    return derive_seed(seed, deal)


def rotated(foursome: Sequence[int], r: int) -> Seats:
    """The seats of rotation r: every entrant moved r seats on (as `leekha match`)."""
    a, b, c, d = (foursome[(s + r) % SEATS] for s in range(SEATS))
    return (a, b, c, d)


def _games(
    tables: Sequence[Sequence[int]], deals: int, seed: int, stage: int, first: int
) -> list[PlannedGame]:
    """Every table plays every deal in 4 rotations; deals outermost so that the tables of
    a deal are ready together and the first deals finish first."""
    out = []
    number = first
    for d in range(deals):
        deal = stage * deals + d
        game_seed = deal_seed(seed, deal)
        for r in range(SEATS):
            for table in tables:
                out.append(PlannedGame(number, stage, deal, r, rotated(table, r), game_seed))
                number += 1
    return out


def round_robin(entrants: int, deals: int, seed: int) -> list[PlannedGame]:
    """Every foursome of the entrants plays every deal in every rotation."""
    check(ROUND_ROBIN, entrants, deals, None)
    return _games(list(itertools.combinations(range(entrants), SEATS)), deals, seed, 0, 0)


def swiss_stage(
    order: Sequence[int],
    stage: int,
    deals: int,
    seed: int,
    met: Counter[frozenset[int]] | None = None,
) -> list[PlannedGame]:
    """The games of Swiss stage `stage` for a field (with house bots: a multiple of four)
    listed best first in `order`.

    Tables are filled from the top of the order: each takes the best entrant left, then
    the next best ones it has met least often (`met` counts pairs that shared a table in
    earlier stages, see `meetings`), so neighbours in the standings meet and repeats are
    avoided where the field allows. For stage 0 pass the field in any fixed order (e.g.
    `first_order`).
    """
    if len(order) % SEATS or len(set(order)) != len(order) or not order:
        raise PlanError("a swiss stage needs distinct entrants, a multiple of four")
    met = met or Counter()
    left = list(order)
    tables = []
    while left:
        table = [left.pop(0)]
        while len(table) < SEATS:
            best = min(
                range(len(left)),
                key=lambda i: (sum(met[frozenset((left[i], t))] for t in table), i),
            )
            table.append(left.pop(best))
        tables.append(table)
    return _games(tables, deals, seed, stage, stage * stage_games(len(order), deals))


def first_order(entrants: int, seed: int) -> list[int]:
    """Stage 0 of a Swiss tournament: the field in an order drawn from the seed, so that
    neither entry order nor house bots decide who meets whom first."""
    return sorted(range(entrants), key=lambda e: derive_seed(seed, -1, e))


def meetings(games: Iterable[PlannedGame]) -> Counter[frozenset[int]]:
    """How many deals each pair of entrants has shared a table for (rotation 0 counted)."""
    out: Counter[frozenset[int]] = Counter()
    for g in games:
        if g.rotation == 0:
            out.update(frozenset(p) for p in itertools.combinations(g.seats, 2))
    return out
