"""The boxes a table and the replay share: the round summary, the score sheet and the
game-over box. They take plain data, not the model, so the replay viewer paints its frames
with the same code; `put_columns` lays out a row cell by cell (mirrored right to left).
"""

from __future__ import annotations

from collections.abc import Sequence

from prompt_toolkit.utils import get_cwidth

from leekha.client import rtl
from leekha.client.i18n import _, ngettext
from leekha.client.tui import model as M
from leekha.client.tui.canvas import Canvas, fit, fit_name, frags_width, wrap
from leekha.client.tui.cardfrags import cards_line
from leekha.common import cards as C
from leekha.common.view import Result


def paint_round_summary(
    cv: Canvas,
    s: M.RoundSummary,
    names: Sequence[str],
    ascii: bool,
    footer: str,
    title: str | None = None,
) -> None:
    """The round's taken cards and points; doubled cards marked x2, and why if it ended early."""
    width = min(cv.width, 72)
    # Under the seats: the doubled cards, then why the round went as it did, wrapped
    # whole (the note is a sentence: a slice of it would read as another one).
    notes: list[tuple[str, str]] = []
    if s.doubled:
        marks = _("x2: {cards} scored double").format(
            cards=" ".join(C.format_card(c, ascii=ascii) for c in C.display_order(s.doubled))
        )
        notes.append((marks, "class:box class:timer"))
    notes += [(row, "class:box class:timer") for row in wrap(s.note, width - 4) if s.note]
    x, y = cv.box(width, max(10, 8 + len(notes)),
                  title or _("round {n} over").format(n=s.round + 1))  # fmt: skip
    pts_x = x + width - 16
    cv.put(x, y, _("player"), "class:box class:box.title")
    cv.put(x + 16, y, _("taken"), "class:box class:box.title")
    # Each column head on its own: one string would be reordered as a sentence in Arabic.
    for end, head in ((pts_x + 5, _("pts")), (pts_x + 12, _("total"))):
        cv.put(end - frags_width([("", head)]), y, head, "class:box class:box.title")
    for seat in range(4):
        row = y + 1 + seat
        cv.put(x, row, fit(names[seat], 14), "class:box")
        taken = C.display_order(s.taken[seat])
        room = pts_x - (x + 16) - 1
        line = cards_line(taken, ascii, s.doubled)
        if frags_width(line) > room:
            line = cards_line(taken[: max(0, room // 4 - 1)], ascii, s.doubled)
            line.append(("class:box", f"+{len(taken) - max(0, room // 4 - 1)}"))
        cv.frags(x + 16, row, line)
        cv.put(pts_x, row, f"{s.round_points[seat]:>5}  {s.totals[seat]:>5}", "class:box")
    first = y + 5 if len(notes) > 1 or s.doubled else y + 6  # one note keeps its old row
    for i, (note, style) in enumerate(notes):
        cv.put(x, first + i, note, style)
    cv.put(x, max(y + 7, first + len(notes)), footer, "class:box class:muted")


def put_columns(
    cv: Canvas, x: int, y: int, width: int, cells: Sequence[tuple[int, str]], style: str
) -> None:
    """A table row `width` wide with each cell at its offset, laid out on its own (a row is
    not one sentence, so its cells never trade places); from the right edge in a
    right-to-left layout. Cells are cut at the next cell's offset and at `width`."""
    cv.put(x, y, " " * width, style)
    ends = [off for off, _t in cells[1:]] + [width]
    for (off, text), end in zip(cells, ends):
        text = fit(text, max(0, min(end, width) - off - (1 if end < width else 0)))
        if rtl.mirrored():
            cv.put(x + width - off - frags_width([(style, text)]), y, text, style)
        else:
            cv.put(x + off, y, text, style)


#: A row of the score sheet: its label and one cell per seat; a plain string is a note.
SheetRow = tuple[str, list[str]]


def column_names(names: Sequence[str], width: int) -> list[str]:
    """A distinct short name per seat for a column `width` wide. A name that does not fit
    keeps its first word and its number ("hard bot 2" -> "hard 2"), or is shortened with
    an ellipsis; names that still read the same get their seat number in front."""
    out = [fit_name(name, width) for name in names]
    for i, label in enumerate(out):
        if out.count(label) > 1:
            out[i] = f"{i + 1}:" + fit(names[i], width - 2)
    return out


def sheet_cell(width: int) -> int:
    """How wide a seat's column of the score sheet is in a window `width` wide: wide
    enough for "search bot 2" at 80 columns, never under 8."""
    return max(8, min(13, (width - 16) // 4))


def sheet_width(cell: int) -> int:
    """The score sheet box: borders and margins, the row label, four seats."""
    return 4 + 9 + 4 * cell + 1


def score_sheet_rows(
    names: Sequence[str], history: Sequence[Sequence[int]], room: int, cell: int = 8
) -> list[SheetRow | str]:
    """The score sheet: a row per round (the last `room`), then the totals."""
    rows: list[SheetRow | str] = [("", column_names(names, cell - 1))]
    skipped = max(0, len(history) - room)
    if skipped:
        rows.append(
            ngettext("({n} earlier round)", "({n} earlier rounds)", skipped).format(n=skipped)
        )
    for i, points in enumerate(history[skipped:], skipped + 1):
        rows.append((_("round {n}").format(n=i), [str(p) for p in points]))
    totals = [sum(r[s] for r in history) for s in range(4)]
    rows.append((_("total"), [str(t) for t in totals]))
    return rows


def put_sheet(
    cv: Canvas, x: int, y: int, rows: Sequence[SheetRow | str], style: str, cell: int = 8
) -> None:
    """Paint score-sheet rows from (x, y): a 9-cell label, then `cell`-wide columns. In a
    right-to-left layout the label is at the right and the seats run leftwards from it;
    each cell is laid out on its own, so a row's cells never trade places."""
    mirrored = rtl.mirrored()
    for i, row in enumerate(rows):
        if isinstance(row, str):
            cv.put(x, y + i, row, style)
            continue
        label, cells = row
        if not mirrored:
            shown = "".join(" " * (cell - get_cwidth(c)) + c for c in cells)
            cv.put(x, y + i, f"{label[:9]:<9}" + shown, style)
            continue
        xx = x
        for text in reversed(cells):
            xx = cv.put(xx, y + i, text + " " * (cell - get_cwidth(text)), style)
        cv.put(xx, y + i, f"{label[:9]:>9}", style)


def paint_game_over(
    cv: Canvas,
    names: Sequence[str],
    result: Result,
    history: Sequence[Sequence[int]],
    head: str,
    stats: Sequence[M.SeatStats] | None,
    footer: str,
) -> None:
    """Who won, the score sheet, and (live games) what each seat did."""
    stat_rows: list[SheetRow | str] = []
    if stats is not None:
        for label, values in (
            (_("tricks"), [s.tricks for s in stats]),
            (_("Leekhas"), [s.leekhas for s in stats]),
            (_("moons"), [s.moons for s in stats]),
        ):
            stat_rows.append((label, [str(n) for n in values]))
    fixed = 3 + len(stat_rows) + (2 if footer else 0) + 2  # head, winner, loser; stats;
    # footer; borders
    room = max(1, cv.height - 2 - fixed - 2)
    cell = sheet_cell(cv.width)
    sheet = score_sheet_rows(names, history or [result["totals"]], room, cell)
    rows = len(sheet) + fixed
    x, y = cv.box(sheet_width(cell), rows, _("game over"))
    inner = min(cv.width, sheet_width(cell)) - 4
    winners = ", ".join(names[s] for s in result["winners"])
    losers = ", ".join(names[s] for s in result["losers"]) or "-"
    cv.line(x, y, inner, head, "class:box class:box.title")
    cv.line(x, y + 1, inner, _("winner: {names}").format(names=winners), "class:box")
    cv.line(x, y + 2, inner, _("loser:  {names}").format(names=losers), "class:box")
    put_sheet(cv, x, y + 3, [*sheet, *stat_rows], "class:box", cell)
    if footer:
        cv.line(x, y + rows - 3, inner, footer, "class:box class:muted")
