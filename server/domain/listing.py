"""The lobby's table list, kept ready to serve: one summary per table, built when the
table changes (never per request), in table id order, served a page at a time.

A `list_tables` then costs a binary search and a slice of LIST_PAGE summaries however
many tables the server has, so no client can make the server walk (or encode) them all.
A page is addressed by a cursor, the id of the last table the client has seen: pages
stay consistent while tables come and go, which an offset would not.
"""

from __future__ import annotations

from bisect import bisect_right, insort

from leekha.protocol.catalogue import LIST_PAGE
from leekha.protocol.views import TableSummary


class Listing:
    def __init__(self) -> None:
        self._summaries: dict[int, TableSummary] = {}
        self._ids: list[int] = []  # sorted

    def __len__(self) -> int:
        return len(self._ids)

    def get(self, table_id: int) -> TableSummary | None:
        return self._summaries.get(table_id)

    def put(self, table_id: int, summary: TableSummary) -> bool:
        """Store a table's summary; False when it is the one already stored."""
        old = self._summaries.get(table_id)
        if old == summary:
            return False
        if old is None:
            insort(self._ids, table_id)
        self._summaries[table_id] = summary
        return True

    def remove(self, table_id: int) -> None:
        if self._summaries.pop(table_id, None) is not None:
            i = bisect_right(self._ids, table_id) - 1
            del self._ids[i]

    def page(
        self, cursor: int | None, size: int = LIST_PAGE
    ) -> tuple[list[TableSummary], int | None]:
        """The summaries of up to `size` tables with ids above `cursor` (all when None),
        and the cursor of the next page (None when this one reaches the end)."""
        start = 0 if cursor is None else bisect_right(self._ids, cursor)
        ids = self._ids[start : start + size]
        following = ids[-1] if ids and start + size < len(self._ids) else None
        return [self._summaries[i] for i in ids], following
