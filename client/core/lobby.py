"""The lobby: the server's tables by id, kept current by `table_list` and `table_update`,
and the row a player has chosen.

The summaries are the server's (protocol/views.py `TableSummary`); nothing here works out
a table's state for itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

from leekha import protocol as P
from leekha.protocol.views import TableSummary


@dataclass
class Lobby:
    tables: dict[int, TableSummary] = field(default_factory=dict)
    cursor: int = 0

    def listed(self, msg: P.TableList) -> None:
        self.tables = {int(t["id"]): cast(TableSummary, t) for t in msg.tables}
        self._clamp()

    def updated(self, msg: P.TableUpdate) -> None:
        if msg.table is None:
            self.tables.pop(msg.table_id, None)
        else:
            self.tables[msg.table_id] = cast(TableSummary, msg.table)
        self._clamp()

    def rows(self) -> list[TableSummary]:
        """The tables in the order the lobby lists them (by id: oldest first)."""
        return [self.tables[k] for k in sorted(self.tables)]

    def selected(self) -> TableSummary | None:
        rows = self.rows()
        return rows[self.cursor] if rows else None

    def move(self, step: int) -> None:
        self.cursor += step
        self._clamp()

    def _clamp(self) -> None:
        self.cursor = max(0, min(self.cursor, len(self.tables) - 1))
