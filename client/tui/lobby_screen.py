"""The lobby: the server's tables, a row each with its seats underneath."""

from __future__ import annotations

from collections.abc import Mapping

from prompt_toolkit.utils import get_cwidth

from leekha.client import rtl
from leekha.client.i18n import _
from leekha.client.rulestext import preset_word
from leekha.client.tui import model as M
from leekha.client.tui.canvas import Canvas, fit, share
from leekha.client.tui.sheets import put_columns
from leekha.client.tui.words import bot_name

#: The lobby line's clocks column (`timers_text`), the first to go in a narrow window.
TIMERS_COLUMN = 3


def timers_text(timers: object) -> str:
    """A table's clocks in its lobby line, "⏱ 30/60 s" (pass/turn; – when untimed), so a
    player sees how fast a table plays before sitting; "" for a table with none."""
    pass_s = timers.get("pass_s") if isinstance(timers, Mapping) else None
    turn_s = timers.get("turn_s") if isinstance(timers, Mapping) else None
    if not pass_s and not turn_s:
        return ""
    # TRANSLATORS: a table's pass and turn timers in the lobby, in seconds ("⏱ 30/60 s").
    return _("⏱ {p}/{t} s").format(p=pass_s or "–", t=turn_s or "–")


def _seat_summary(t: Mapping[str, object], width: int) -> str:
    """Who sits at a table, in `width` columns: the longest names are shortened first,
    and a bot's mark stays whole."""
    return _(", ").join(shown for shown, _person in _seat_cells(t, width))


def _seat_cells(t: Mapping[str, object], width: int) -> list[tuple[str, bool]]:
    """Each seat as the summary shows it, and whether a person sits there."""
    seats = t.get("seats")
    names: list[str] = []
    marks: list[str] = []
    people: list[bool] = []
    for i, s in enumerate(seats if isinstance(seats, list) else []):
        people.append(bool(s.get("name")) and not s.get("is_bot"))
        if not s.get("name"):
            names.append("—")
            marks.append("")
        else:
            names.append(bot_name(str(s["name"]), i) if s.get("is_bot") else str(s["name"]))
            marks.append(_("{name}[bot]").format(name="") if s.get("is_bot") else "")
    sep = _(", ")
    room = width - len(sep) * max(0, len(names) - 1) - sum(len(k) for k in marks)
    cut = share([len(n) for n in names], room)
    # Each seat isolated in bidi: a Latin name and its neighbour's are never one run that
    # carries the tags to the wrong names in a right-to-left line.
    shown = [rtl.isolate(fit(n, c) + k) for n, c, k in zip(names, cut, marks)]
    return list(zip(shown, people))


def _mark_person(cv: Canvas, x: int, y: int, t: Mapping[str, object], w: int, n: int) -> None:
    """The `n`th person's name under the chosen table in the cursor's colours (Enter
    shows that one's profile)."""
    sep = get_cwidth(_(", "))
    for shown, person in _seat_cells(t, w):
        if person:
            if n == 0:
                cv.put(x, y, shown, "class:cursorrow")
                return
            n -= 1
        x += get_cwidth(shown) + sep


def paint_lobby(m: M.ClientModel, cv: Canvas, x0: int, y0: int, w: int, h: int) -> None:
    tables = m.lobby.rows()
    cv.put(x0, y0, _("Tables"), "class:lobby.head")
    if not tables:
        cv.put(x0, y0 + 2, _("No tables yet. Press n to create one."), "class:muted")
        return
    status = {"waiting": _("waiting"), "playing": _("playing"), "finished": _("finished")}
    rows = []
    for t in tables:
        seats = t.get("seats") or []
        rules = t.get("rules") or {}
        target = rules.get("target", "?") if isinstance(rules, dict) else "?"
        lock = _(" [pw]") if t.get("has_password") else ""
        rows.append(
            [
                str(t["name"]),
                preset_word(str(t["preset"])),
                _("to {n}").format(n=target),
                timers_text(t.get("timers")),
                "{n}/4".format(n=sum(1 for s in seats if s.get("name"))),
                status.get(t["status"], t["status"]) + lock,
            ]
        )
    # Every column as wide as its longest cell; the table's name takes what is left. The
    # clocks go first when the line is too short for them and a readable name.
    widths = [max(get_cwidth(r[i]) for r in rows) for i in range(len(rows[0]))]
    if TIMERS_COLUMN and 8 + sum(widths[1:]) + (len(widths) - 1) * 2 > w:
        rows = [r[:TIMERS_COLUMN] + r[TIMERS_COLUMN + 1 :] for r in rows]
        del widths[TIMERS_COLUMN]
    n = len(widths)
    widths[0] = max(8, w - sum(widths[1:]) - (n - 1) * 2)
    offsets = [sum(widths[:i]) + 2 * i for i in range(n)]
    row = y0 + 1
    for i, (t, cells) in enumerate(zip(tables, rows)):
        if row >= y0 + h - 1:
            break
        style = "class:cursorrow" if i == m.lobby.cursor else ""
        put_columns(cv, x0, row, w, list(zip(offsets, cells)), style)
        cv.line(x0 + 2, row + 1, w - 2, _seat_summary(t, w - 2), "class:muted")
        if i == m.lobby.cursor and m.lobby.person is not None:
            _mark_person(cv, x0 + 2, row + 1, t, w - 2, m.lobby.person)
        row += 2
