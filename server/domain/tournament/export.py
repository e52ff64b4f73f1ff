"""A tournament's full results: a JSON document and a readable text table.

The document holds every game with its record id (so `leekha records export --game ID`
and `leekha replay` can show it), its seats, its per-round points and its winners, beside
the standings computed by `standings.standings`. Its `entrants` and `standings` entries
are a superset of the wire's (`tournament_state`), so `standings_table` prints either.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from leekha.protocol.tournament_text import (
    HEADINGS,
    STANDING_COLUMNS,
    counted,
    games_table,
    joined,
    padded,
    standings_rows,
    standings_table,
    table,
)
from leekha.protocol.views import (
    ExportDoc,
    ExportEntrant,
    ExportGame,
    ExportStanding,
    TournamentMeta,
)
from leekha.server.domain.tournament.plan import Entrant
from leekha.server.domain.tournament.standings import GameResult, standings

__all__ = [
    "EXPORT_VERSION",
    "HEADINGS",
    "STANDING_COLUMNS",
    "counted",
    "document",
    "entrant_dict",
    "games_table",
    "joined",
    "padded",
    "standings_rows",
    "standings_table",
    "table",
]

EXPORT_VERSION: Final = 1


def entrant_dict(e: Entrant) -> ExportEntrant:
    """An entrant as the wire and the export show it."""
    return {
        "index": e.index, "name": e.name, "strategy": e.strategy, "kind": e.kind,
        "label": e.label,
    }  # fmt: skip


def document(
    tournament: TournamentMeta, entrants: Sequence[Entrant], results: Sequence[GameResult]
) -> ExportDoc:
    """The export: `tournament` (id, name, format, status, preset, rules, deals, stages,
    games_total... as the store has them), the entrants, the standings and every game."""
    labels = [e.label for e in entrants]
    games: list[ExportGame] = [
        {
            **r.to_dict(),
            "players": [labels[e] for e in r.game.seats],
            "winner_entrants": [r.game.seats[w] for w in r.winners],
        }
        for r in sorted(results, key=lambda r: r.game.number)
    ]
    lines: list[ExportStanding] = [
        {**s.to_dict(), "label": labels[s.entrant], "deals": s.deals}
        for s in standings(entrants, results)
    ]
    return {
        "version": EXPORT_VERSION,
        "tournament": tournament,
        "entrants": [entrant_dict(e) for e in entrants],
        "standings": lines,
        "games": games,
    }
