"""`leekha play`'s table with no questions: create it, fill the empty seats with bots, start.

A small machine of its own (create, creating, bots, starting, done, or failed), fed the
replies the model matched and the seats the server filled; it asks for what comes next
through `request`. Its stages and transitions are all here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from leekha import protocol as P
from leekha.client.core import intents as I

#: Sends the request for an intent (the core's `request`, through the model).
Request = Callable[[I.Intent], object]


@dataclass
class AutoSetup:
    """`leekha play`: create a table, fill it with bots and start, with no questions."""

    name: str
    preset: str
    overrides: dict[str, Any]
    bot: str
    stage: str = "create"
    bots_pending: set[int] = field(default_factory=set)
    #: The game is kept, and the next `leekha play` offers to resume it (not --no-save).
    kept: bool = True

    def welcomed(self, request: Request) -> bool:
        """A fresh session: create the table once. True when it asked for it."""
        if self.stage != "create":
            return False
        self.stage = "creating"
        request(I.CreateTable(self.name, self.preset, dict(self.overrides)))
        return True

    def created(self, empty: list[int], request: Request) -> None:
        """The table is ours: a bot for each of the `empty` seats, then start."""
        self.bots_pending = set(empty)
        if empty:
            self.stage = "bots"
            for seat in empty:
                request(I.AddBot(seat, self.bot))
        else:
            self.stage = "starting"
            request(I.Start())

    def answered(self, req: P.Message, request: Request) -> None:
        """The server carried out `req`: the last bot in starts the game."""
        if isinstance(req, P.AddBot):
            self.bots_pending.discard(req.seat)
            if not self.bots_pending and self.stage == "bots":
                self.stage = "starting"
                request(I.Start())
        elif isinstance(req, P.Start):
            self.stage = "done"

    def seat_taken(self, seat: int) -> None:
        """Someone sits in `seat` (our bot, as the server says before its `ok`)."""
        if self.stage == "bots":
            self.bots_pending.discard(seat)

    def refused(self) -> None:
        if self.stage != "done":
            self.stage = "failed"
