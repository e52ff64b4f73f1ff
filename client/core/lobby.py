"""The lobby: the server's tables by id, kept current by `table_list` and `table_update`,
and the row a player has chosen.

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
    cursor: int = 0
    #: Which of the chosen table's people (`people()`) is chosen by name, if any: the
    #: row's names are a second cursor (→ and ←), whose Enter shows that one's profile.
    person: int | None = None

    def listed(self, msg: P.TableList) -> None:
        self.tables = {int(t["id"]): t for t in msg.tables}
        self._clamp()

    def updated(self, msg: P.TableUpdate) -> None:
        if msg.table is None:
            self.tables.pop(msg.table_id, None)
        else:
            self.tables[msg.table_id] = msg.table
        self._clamp()

    def rows(self) -> list[TableSummary]:
        """The tables in the order the lobby lists them (by id: oldest first)."""
        return [self.tables[k] for k in sorted(self.tables)]

    def selected(self) -> TableSummary | None:
        rows = self.rows()
        return rows[self.cursor] if rows else None

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

    def move(self, step: int) -> None:
        self.cursor += step
        self.person = None
        self._clamp()

    def people(self) -> list[str]:
        """The names of the people (not bots) seated at the chosen table, seat by seat."""
        table = self.selected()
        seats = table.get("seats") if table is not None else None
        return [
            str(s["name"])
            for s in (seats if isinstance(seats, list) else [])
            if s.get("name") and not s.get("is_bot")
        ]

    def move_person(self, step: int) -> None:
        """→/←: along the chosen table's people; left of the first is the table again."""
        people = self.people()
        if not people:
            self.person = None
            return
        at = (-1 if self.person is None else self.person) + step
        self.person = None if at < 0 else min(at, len(people) - 1)

    def chosen_person(self) -> str | None:
        people = self.people()
        if self.person is None or not people:
            return None
        return people[min(self.person, len(people) - 1)]

    def _clamp(self) -> None:
        self.cursor = max(0, min(self.cursor, len(self.tables) - 1))
        if self.person is not None and self.person >= len(self.people()):
            self.person = None
