"""The lobby: the server's tables, a row each with its seats underneath."""

from __future__ import annotations

from collections.abc import Mapping

from leekha.client.i18n import _
from leekha.client.tui import model as M
from leekha.client.tui.canvas import Canvas
from leekha.client.tui.sheets import put_columns


def _seat_summary(t: Mapping[str, object]) -> str:
    seats = t.get("seats")
    names = []
    for s in seats if isinstance(seats, list) else []:
        if not s.get("name"):
            names.append("—")
        elif s.get("is_bot"):
            names.append(_("{name}[bot]").format(name=s["name"]))
        else:
            names.append(str(s["name"]))
    return ", ".join(names)


def paint_lobby(m: M.ClientModel, cv: Canvas, x0: int, y0: int, w: int, h: int) -> None:
    tables = m.lobby.rows()
    cv.put(x0, y0, _("Tables"), "class:lobby.head")
    if not tables:
        cv.put(x0, y0 + 2, _("No tables yet. Press n to create one."), "class:muted")
        return
    row = y0 + 1
    for i, t in enumerate(tables):
        if row >= y0 + h - 1:
            break
        seats = t.get("seats") or []
        filled = sum(1 for s in seats if s.get("name"))
        lock = _(" [pw]") if t.get("has_password") else ""
        rules = t.get("rules") or {}
        target = rules.get("target", "?") if isinstance(rules, dict) else "?"
        status = {"waiting": _("waiting"), "playing": _("playing"), "finished": _("finished")}
        cells = [
            (0, t["name"][:18]),
            (19, t["preset"]),
            (31, _("to {n}").format(n=target)),
            (39, f"{filled}/4"),
            (45, status.get(t["status"], t["status"]) + lock),
        ]
        style = "class:cursorrow" if i == m.lobby.cursor else ""
        put_columns(cv, x0, row, min(w, 60), cells, style)
        cv.put(x0 + 2, row + 1, _seat_summary(t)[: w - 2], "class:muted")
        row += 2
