"""How a tournament's standings and games read as text: one layout for the terminal
screen, `leekha tournament status` and the export's text table.

Pure functions of the wire's maps (`tournament_state`) and of the export document, which
is a superset of them, so a client formats standings without any server code and the
server's export prints the same columns.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from .views import ExportDoc, LabelledEntrant, Standing

__all__ = [
    "HEADINGS",
    "STANDING_COLUMNS",
    "counted",
    "games_table",
    "joined",
    "padded",
    "standings_rows",
    "standings_table",
    "table",
]


def counted(n: int) -> int:
    """A game, stage, deal or rotation number as people count it: the store, the wire and
    the JSON export number from 0; the table names (`NAME #1`), the notes and every text
    a person reads count from 1."""
    return n + 1


#: Column headings of the text tables; a client passes its translated ones.
HEADINGS: Final[Mapping[str, str]] = {
    "rank": "rank",
    "entrant": "entrant",
    "games": "games",
    "wins": "won",
    "rounds": "rounds",
    "points": "points",
    "mean": "pts/round",
    "interval": "95% CI",
    "fallback": "fallback",
    "game": "game",
    "deal": "deal",
    "rotation": "rot",
    "record": "record",
    "winners": "winners",
    "house": "house",
    "seat": "seat {n}",
    "title": "{name} ({format}, {deals} deals)",
}


def _number(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f}"


def _interval(low: float | None, high: float | None) -> str:
    return "-" if low is None or high is None else f"{low:.2f}..{high:.2f}"


def padded(rows: Sequence[Sequence[str]], left: int = 1) -> list[list[str]]:
    """Rows with every cell padded to its column's widest: the first `left` columns flush
    left, the rest right. (A screen that lays text out right to left places the cells
    one by one, so the columns keep their order.)"""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        [
            cell.ljust(w) if i < left else cell.rjust(w)
            for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        ]
        for row in rows
    ]


def joined(rows: Sequence[Sequence[str]]) -> list[str]:
    """Padded rows as text lines, two spaces between columns."""
    return ["  ".join(row).rstrip() for row in rows]


def _columns(rows: Sequence[Sequence[str]], left: int = 1) -> list[str]:
    return joined(padded(rows, left))


#: The standings' columns, in order; a narrow screen picks some of them.
STANDING_COLUMNS: Final = (
    "entrant", "rank", "games", "wins", "rounds", "points", "mean", "interval", "fallback",
)  # fmt: skip


def _rank(s: Standing, house: str) -> str:
    """The rank as shown: "house" for a house bot, and none ("-") before the entrant's
    first finished game, where every entrant would tie and the order means nothing."""
    rank = s["rank"]
    if rank is None:
        return house
    return str(rank) if s["games"] else "-"


def _standing_cells(s: Standing, label: str, house: str) -> dict[str, str]:
    return {
        "entrant": label,
        "rank": _rank(s, house),
        "games": str(s["games"]),
        "wins": str(s["wins"]),
        "rounds": str(s["rounds"]),
        "points": str(s["points"]),
        "mean": _number(s["mean"] if s["rounds"] else None),
        "interval": _interval(s["low"], s["high"]),
        "fallback": str(s["fallback_games"]),
    }


def standings_rows(
    entrants: Sequence[LabelledEntrant],
    lines: Sequence[Standing],
    headings: Mapping[str, str] = HEADINGS,
    columns: Sequence[str] = STANDING_COLUMNS,
) -> list[list[str]]:
    """The standings as padded cells, from wire or export maps: a heading row, then one
    row per entrant, in `columns` (the entrant's label first, flush left)."""
    labels = {e["index"]: e["label"] for e in entrants}
    rows = [[headings[c] for c in columns]]
    for s in lines:
        cells = _standing_cells(s, labels.get(s["entrant"], "?"), headings["house"])
        rows.append([cells[c] for c in columns])
    return padded(rows)


def standings_table(
    entrants: Sequence[LabelledEntrant],
    lines: Sequence[Standing],
    headings: Mapping[str, str] = HEADINGS,
) -> list[str]:
    """The standings as text lines (`standings_rows` joined)."""
    return joined(standings_rows(entrants, lines, headings))


def games_table(doc: ExportDoc, headings: Mapping[str, str] = HEADINGS) -> list[str]:
    """Every game of an export: number, deal, rotation (counted from 1, as the table
    names), record id, players with their points, winners."""
    h = headings
    seats = [h["seat"].format(n=n) for n in range(1, 5)]
    rows = [[h["game"], h["deal"], h["rotation"], h["record"], *seats, h["winners"]]]
    for g in doc["games"]:
        pairs = zip(g["players"], g["points"], strict=True)
        players = [f"{name} {points}" for name, points in pairs]
        winners = ", ".join(g["players"][w] for w in g["winners"])
        record = "-" if g["record_id"] is None else str(g["record_id"])
        numbers = (str(counted(n)) for n in (g["game"], g["deal"], g["rotation"]))
        rows.append([*numbers, record, *players, winners])
    return _columns(rows, left=0)


def table(doc: ExportDoc, headings: Mapping[str, str] = HEADINGS, title: str | None = None) -> str:
    """The export as a readable text: a title line, the standings, then every game."""
    t = doc["tournament"]
    title = title or headings["title"].format(name=t["name"], format=t["format"], deals=t["deals"])
    return "\n".join(
        [title, "", *standings_table(doc["entrants"], doc["standings"], headings), "",
         *games_table(doc, headings)]
    )  # fmt: skip
