"""The tournament screen of the terminal client: the server's tournaments, then one of
them with its standings (and their 95% intervals) and its live tables; Enter on a table
watches it.

It is a lobby overlay with its own small state (`TournamentScreen`: which tournament is
shown, the cursor, whether an answer is awaited); the tournaments themselves are the
client core's (client/core/tournaments.py), which folds the `tournament_list` and
`tournament_state` replies and pushes, and the painter reads them there. It draws the
same standings columns as `leekha tournament status` and the export. A start time counts
down from the server's `starts_in_s`, on this machine's monotonic clock from when the
answer came, so a clock that disagrees with the server's does not matter.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from prompt_toolkit.utils import get_cwidth

from leekha.client.core import intents as I
from leekha.client.core.tournaments import Tournaments
from leekha.client.i18n import _
from leekha.client.tournament import text
from leekha.client.tui.canvas import Canvas, fit, fit_all, wrap_hanging
from leekha.protocol.tournament_text import standings_rows
from leekha.protocol.views import Tournament, TournamentSummary, TournamentTable

Request = Callable[[I.Intent], object]

#: The standings columns that fit an 80-column overlay.
COLUMNS = ("entrant", "rank", "games", "wins", "mean", "interval", "fallback")


@dataclass
class TournamentScreen:
    """The list (`following` None) or one followed tournament; `cursor` picks a tournament
    in the list, or a live table of the followed one.

    The tournaments are the core's (`tournaments`, folded by `ClientCore.receive`, read
    here and never written): this keeps only which one is shown, the cursor, and whether
    the server has answered what it was last asked (until then the box says so rather than
    show what an earlier answer said)."""

    request: Request
    tournaments: Tournaments
    following: int | None = None  # the id followed (asked for, then shown)
    #: Asked (the list, or the followed one's state) and not yet answered.
    asking: bool = True
    cursor: int = 0
    clock: Callable[[], float] = time.monotonic
    #: When the list or the state on screen came (`clock`), for the start's countdown.
    received: float = field(default=0.0)

    @property
    def listing(self) -> list[TournamentSummary] | None:
        """The server's list as the core last folded it; None while it is being asked."""
        return None if self.asking else self.tournaments.listing

    @property
    def state(self) -> Tournament | None:
        """The followed tournament as the core last folded it; None while asked."""
        return None if self.asking else self.tournaments.state(self.following)

    def left(self, t: Tournament | TournamentSummary) -> int | None:
        """Seconds until `t` starts now (None: no start time)."""
        told = t.get("starts_in_s")
        if told is None:
            return None
        return max(0, math.ceil(int(told) - (self.clock() - self.received)))

    @property
    def following_one(self) -> bool:
        return self.following is not None

    def open(self) -> None:
        """Back to the list, asked afresh."""
        self.following = None
        self.asking = True
        self.cursor = 0
        self.request(I.ListTournaments())

    def refresh(self) -> None:
        """g: ask again (a list is not pushed; a followed tournament is, but a push may
        have been missed while away from the lobby)."""
        if self.following is None:
            self.open()
        else:
            self.request(I.GetTournament(self.following))

    def rows(self) -> Sequence[TournamentTable | TournamentSummary]:
        """What the cursor moves over: the tournaments, or the followed one's tables."""
        if self.following_one:
            state = self.state
            return list(state["tables"]) if state is not None else []
        return self.listing or []

    def move(self, step: int) -> None:
        self.cursor = max(0, min(self.cursor + step, len(self.rows()) - 1))

    def enter(self) -> int | None:
        """Enter: open the chosen tournament, or return the chosen live table to watch."""
        rows = self.rows()
        if not rows:
            return None
        at = min(self.cursor, len(rows) - 1)
        if self.following_one:
            state = self.state
            assert state is not None  # rows are its live tables
            return int(state["tables"][at]["table_id"])
        listing = self.listing
        assert listing is not None
        self.following = int(listing[at]["id"])
        self.asking = True
        self.cursor = 0
        self.request(I.GetTournament(self.following))
        return None

    def back(self) -> bool:
        """Esc: from a tournament back to the list; True when the screen should close."""
        if not self.following_one:
            return True
        self.open()
        return False

    def listed(self) -> None:
        """The core folded the server's list: shown, unless one tournament is followed
        meanwhile."""
        if not self.following_one:
            self.asking = False
            self.received = self.clock()
        self.move(0)

    def changed(self, tournament_id: int) -> None:
        """The core folded a tournament's state (a reply or a push): shown when it is the
        one followed."""
        if self.following is not None and tournament_id == self.following:
            self.asking = False
            self.received = self.clock()
        self.move(0)

    def refused(self) -> None:
        """The tournament asked for is gone (or the server said no): back to the list."""
        if self.following_one:
            self.open()


#: At most this many of the server's latest notes under the tables.
NOTES_SHOWN = 3


def paint(s: TournamentScreen, cv: Canvas) -> None:
    width, height = min(cv.width, 78), cv.height - 4  # the header and the hints stay
    if not s.following_one:
        _paint_list(s, cv, width)
        return
    t = s.state
    title = _("tournament") if t is None else f"#{t['id']} {t['name']}"
    x, y = cv.box(width, height, title)
    inner, bottom = width - 4, y + height - 3
    if t is None:
        cv.put(x, y, _("asking the server…"), "class:box class:muted")
        return
    head = wrap_hanging(f"{text.about(t)} · {text.progress(t)}", inner, 2)
    for line in head[:2]:  # what kind of tournament, and how far: whole, on two rows
        cv.put(x, y, fit(line, inner), "class:box class:muted")
        y += 1
    y -= 1
    start = text.start_text(t, s.left(t))
    if start is not None:  # the start time has a line of its own: it must not be cut
        y += 1
        cv.put(x, y, fit(start, inner), "class:box")
    notes = text.note_lines(t)[-NOTES_SHOWN:]
    upper = bottom - (len(notes) + 2 if notes else 0)  # the notes keep the box's foot
    row = _paint_standings(cv, x, y + 1, inner, t, _standings_room(t, upper - y))
    _paint_tables(s, cv, x, row + 1, inner, upper)
    if notes:
        cv.put(x, upper + 2, _("what happened, latest last:"), "class:box class:muted")
        for i, note in enumerate(notes, start=upper + 3):
            cv.put(x, i, "  " + fit(note, inner - 2), "class:box")


def _standings_room(t: Tournament, rows: int) -> int:
    """How many standings rows (the heading included) fit in `rows`, leaving a blank
    row, then the live tables' heading and up to three of them (or one line saying why
    there are none), and a row for "(+n more)"."""
    below = 2 + min(len(t["tables"]), 3) if t["tables"] else 1
    return max(2, min(len(t["standings"]) + 1, rows - 2 - below))


def _paint_standings(cv: Canvas, x: int, row: int, inner: int, t: Tournament, room: int) -> int:
    """The standings from `row` on, cut to `room` rows; returns the row after them."""
    lines = standings_rows(text.shown(t), t["standings"], text.headings(), COLUMNS)
    for i, cells in enumerate(lines[:room]):
        _put_cells(cv, x, row, inner, cells, "class:box.title" if i == 0 else "class:box")
        row += 1
    if len(lines) > room:
        cv.put(x, row, _("  (+{n} more)").format(n=len(lines) - room), "class:box class:muted")
        row += 1
    return row


def _paint_tables(
    s: TournamentScreen, cv: Canvas, x: int, row: int, inner: int, bottom: int
) -> None:
    """The live tables (Enter watches the one under the cursor), or why there are none:
    whom a waiting tournament still waits for, no game now, or finished."""
    t = s.state
    assert t is not None
    if not t["tables"]:
        cv.put(x, row, fit(_idle(t), inner), "class:box class:muted")
        return
    cv.put(x, row, _("live tables (Enter to watch):"), "class:box class:muted")
    names = text.labels(t)
    first = max(0, s.cursor - (bottom - row - 1) + 1)
    for i, table in enumerate(t["tables"][first:], start=first):
        row += 1
        if row > bottom:
            break
        style = "class:box class:cursorrow" if i == s.cursor else "class:box"
        cv.put(x, row, fit(_table_row(names, table, inner), inner), style)


def _idle(t: Tournament) -> str:
    """Why a tournament has no live table."""
    if t["status"] == "finished":
        return _("finished")
    missing = text.missing(t)
    if t["status"] == "waiting" and missing:
        return _("waiting for: {names}").format(names=missing)
    return _("no game is being played now")


def _put_cells(cv: Canvas, x: int, y: int, width: int, cells: list[str], style: str) -> None:
    """One standings row, cell by cell: a right-to-left language turns each heading
    around in its place, and the columns stay in the order of the numbers under them."""
    end = x + width
    for cell in cells:
        if x + len(cell) > end:
            break
        cv.put(x, y, cell, style)
        x += len(cell) + 2


def _table_row(names: dict[int, str], table: TournamentTable, width: int = 74) -> str:
    """A live table in one short row: its id, game, deal and rotation (counted from 1, as
    the table's name), who sits where, the longest names shortened to fit `width`."""
    where = _("game {game} deal {deal} rot {rotation}").format(**text.numbers(table))
    head = f"{table['table_id']:>4}  {where}  "
    seated = [names.get(int(e), "?") for e in table["seats"]]
    room = width - get_cwidth(head) - 2 * (len(seated) - 1)
    return head + ", ".join(fit_all(seated, room))


def _paint_list(s: TournamentScreen, cv: Canvas, width: int) -> None:
    """One line per tournament, and a second one under it for a start time."""
    rows = s.listing
    shown: list[tuple[int, str]] = []  # (tournament's index, a row of it)
    for i, t in enumerate(rows or []):
        for line in text.summary_lines(t, s.left(t)):
            shown += [(i, row) for row in wrap_hanging(line, width - 4)]
    shown = shown[: max(1, cv.height - 8)]
    x, y = cv.box(width, max(len(shown), 1) + 4, _("tournaments"))
    if rows is None:
        cv.put(x, y, _("asking the server…"), "class:box class:muted")
    elif not rows:
        cv.put(x, y, _("no tournaments on this server"), "class:box class:muted")
    for row, (i, line) in enumerate(shown):
        style = "class:box class:cursorrow" if i == s.cursor else "class:box"
        cv.put(x, y + row, fit(line, width - 4), style)
    cv.put(x, y + max(len(shown), 1) + 1, _("Enter to open, Esc to close"),
           "class:box class:muted")  # fmt: skip
