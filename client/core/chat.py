"""Chat lines by where they were said: a table's id, or None for the lobby.

A table's lines belong to that table: joining another starts its own history (the server
replays it after the snapshot), and leaving a table drops its lines.
"""

from __future__ import annotations

from collections import deque

#: Lines kept per place.
CHAT_KEEP = 200

Line = tuple[str, str]  # (who said it, what was said)


class Chats:
    def __init__(self) -> None:
        self._by_place: dict[int | None, deque[Line]] = {}

    def at(self, place: int | None) -> deque[Line]:
        """The lines said at `place` (created empty on first use)."""
        lines = self._by_place.get(place)
        if lines is None:
            lines = self._by_place[place] = deque(maxlen=CHAT_KEEP)
        return lines

    def forget(self, place: int | None) -> None:
        """Drop `place`'s lines: its own history comes again from the server."""
        self._by_place.pop(place, None)

    def only_lobby(self) -> None:
        """After a welcome: whatever table we are at replays its chat after its snapshot."""
        lobby = self.at(None)
        self._by_place = {None: lobby}
