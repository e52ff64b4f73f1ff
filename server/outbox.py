"""Everything a reactor turn sends, held until that turn's store writes are committed.

Connections queue their outgoing messages here instead of writing them at once. At the end
of the turn (`callLater(0)` on the injected clock) the outbox commits the store's open
transaction — every action of the turn in one commit — and only then writes each
connection's frames with one write. So nothing is acknowledged or broadcast before it is
durable, a card played costs each seat one write, and a message sent to four seats is
encoded once (the turn's `leekha.protocol.codec.Frames`, which each connection's
`Connection.send` encodes through).

If the commit fails the in-memory games are ahead of the database; the outbox then stops
for good (fail-stop): it rolls back, drops every queued frame, never commits or writes
again and calls `on_fatal`, so a restart resumes from what was committed and no client
was ever told about the lost actions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from twisted.logger import Logger

from leekha.protocol.codec import Frames
from leekha.server.clock import Clock, Timer
from leekha.server.persistence import Store

log = Logger()


class Sender(Protocol):
    """A connection as the outbox sees it."""

    def write_out(self) -> None: ...

    def drop_out(self) -> None: ...


class Outbox:
    def __init__(self, clock: Clock, store: Store) -> None:
        self.clock = clock
        self.store = store
        self._queued: dict[Sender, None] = {}  # insertion-ordered set
        self._call: Timer | None = None
        self.stopped = False
        #: Called once if a commit fails (the server then stops; see the module doc).
        self.on_fatal: Callable[[], None] | None = None
        store.on_begin = self.schedule
        #: The turn's encodings: a message sent to many connections is encoded once.
        self.frames = Frames()

    def schedule(self) -> None:
        if self._call is None and not self.stopped:
            self._call = self.clock.callLater(0, self.flush)

    def add(self, sender: Sender) -> None:
        """`sender` has frames to write after the next commit."""
        self._queued[sender] = None
        self.schedule()

    def flush(self) -> None:
        """Commit the turn's writes, then write every queued frame."""
        if self._call is not None and self._call.active():
            self._call.cancel()
        self._call = None
        queued, self._queued = self._queued, {}
        if self.stopped:
            self.frames = Frames()
            self._drop(queued)
            return
        try:
            self.store.commit()
        except Exception:
            log.failure("cannot commit to the database; the server stops")
            self.stop()
            self._drop(queued)
            if self.on_fatal is not None:
                self.on_fatal()
            return
        self.frames = Frames()
        for sender in queued:
            sender.write_out()

    def _drop(self, queued: dict[Sender, None]) -> None:
        for sender in queued:
            sender.drop_out()

    def stop(self) -> None:
        """Never commit or write again (fatal error, or a simulated crash)."""
        self.stopped = True
        try:
            self.store.rollback()
        except Exception:
            log.failure("rollback failed")
