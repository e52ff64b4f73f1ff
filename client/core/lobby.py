"""The lobby: the server's tables by id, kept current by `table_list` and `table_update`.
(The row a player has chosen is the screen's own: client/tui/lobby_pick.py.)

The summaries are the server's (protocol/views.py `TableSummary`); nothing here works out
a table's state for itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from leekha import protocol as P
from leekha.protocol.views import TableSummary


@dataclass(frozen=True)
class Choice:
    """Where a table of a name stands in the lobby, for a player looking for a seat there:
    `join` the open table `table_id` (the lowest-numbered, so that players looking
    together meet at one), `locked` (only tables with a password, and none given), `busy`
    (tables of that name, none with a free seat) or `absent` (none of that name)."""

    kind: Literal["join", "locked", "busy", "absent"]
    table_id: int | None = None


@dataclass
class Lobby:
    tables: dict[int, TableSummary] = field(default_factory=dict)

    def listed(self, msg: P.TableList) -> None:
        self.tables = {int(t["id"]): t for t in msg.tables}

    def updated(self, msg: P.TableUpdate) -> None:
        if msg.table is None:
            self.tables.pop(msg.table_id, None)
        else:
            self.tables[msg.table_id] = msg.table

    def rows(self) -> list[TableSummary]:
        """The tables in the order the lobby lists them (by id: oldest first)."""
        return [self.tables[k] for k in sorted(self.tables)]

    def choose(self, name: str | None, password: str | None) -> Choice:
        """Which table named `name` to sit at, by the server's summaries alone."""
        named = [t for t in self.rows() if t["name"] == name]
        for t in named:
            free = any(s["name"] is None for s in t["seats"])
            may = not t["has_password"] or password is not None
            if t["status"] == "waiting" and free and may:
                return Choice("join", int(t["id"]))
        if password is None and any(t["has_password"] for t in named):
            return Choice("locked")
        return Choice("busy") if named else Choice("absent")
