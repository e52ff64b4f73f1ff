"""The status line: one sentence about the last thing that happened, and where it was said.

A line belongs to the state it describes: it goes once the screen, the table or the table's
status changes (a refused join after joining, "seats empty" once the game runs, "press L
again" back in the lobby). A transient line is about the position on the table (a card's
playability, a pass choice) and goes as soon as the position moves.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable


class StatusLine:
    def __init__(self, scope: Callable[[], Hashable]) -> None:
        self._scope = scope  # where we are now, as the model sees it
        self.text = ""
        self.error = False
        self.transient = False
        self._said_at: Hashable = None

    def say(self, text: str, *, error: bool = False, transient: bool = False) -> None:
        self.text = text
        self.error = error
        self.transient = transient
        self._said_at = self._scope()

    def clear(self) -> None:
        self.say("")

    def position_moved(self) -> None:
        if self.transient:
            self.clear()

    def forget_stale(self) -> None:
        """The state the line described has changed: the line goes with it."""
        if self.text and self._said_at != self._scope():
            self.text, self.error, self.transient = "", False, False
            self._said_at = None
