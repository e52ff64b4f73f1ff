"""The row a player has chosen in the lobby, and the person chosen on it: the screen's own
choice over the server's tables, which the core keeps (client/core/lobby.py) and only the
core folds.

The choice is read back within what the tables are now: a list that shrank under the cursor
leaves it on the last row, and a person who left the chosen table is no longer chosen.
"""

from __future__ import annotations

from leekha.client.core.lobby import Lobby
from leekha.protocol.views import TableSummary


class LobbyPick:
    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby  # the core's: read, never written
        self._cursor = 0
        #: Which of the chosen table's people (`people()`) is chosen by name, if any: the
        #: row's names are a second cursor (→ and ←), whose Enter shows that one's profile.
        self._person: int | None = None

    @property
    def tables(self) -> dict[int, TableSummary]:
        return self.lobby.tables

    def rows(self) -> list[TableSummary]:
        return self.lobby.rows()

    @property
    def cursor(self) -> int:
        self._cursor = max(0, min(self._cursor, len(self.lobby.tables) - 1))
        return self._cursor

    @cursor.setter
    def cursor(self, row: int) -> None:
        self._cursor = row

    @property
    def person(self) -> int | None:
        if self._person is not None and self._person >= len(self.people()):
            self._person = None
        return self._person

    @person.setter
    def person(self, at: int | None) -> None:
        self._person = at

    def selected(self) -> TableSummary | None:
        rows = self.rows()
        return rows[self.cursor] if rows else None

    def move(self, step: int) -> None:
        self.cursor += step
        self.person = None

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
        person = self.person
        if person is None or not people:
            return None
        return people[min(person, len(people) - 1)]
