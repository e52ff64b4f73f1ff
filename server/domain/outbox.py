"""Everything a reactor turn sends, held until that turn's store writes are committed.

Connections queue their outgoing messages here instead of writing them at once. At the end
of the turn (`callLater(0)` on the injected clock, or the cheaper `soon` its holder gives
it: the reactor's own "after this turn") the outbox commits the store's open
transaction — every action of the turn in one commit — and only then writes each
connection's frames with one write. So nothing is acknowledged or broadcast before it is
durable, a card played costs each seat one write, and a message sent to four seats is
encoded once (the turn's `leekha.protocol.codec.Frames`, which each connection's
`Connection.send` encodes through).

If a write or the commit fails the in-memory games are ahead of the database; the outbox
then stops for good (fail-stop): one log line, it rolls back, drops every queued frame,
never commits or writes again, lets the server say goodbye (`on_failing`: a last
`server_shutdown` error to every connection, nothing that was not stored) and calls
`on_fatal`, so a restart resumes from what was committed and no client was ever told
about the lost actions. The store refuses every write after the first failure, so no
bot or client retries into a hot loop.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from twisted.logger import Logger

from leekha.protocol.codec import Frames
from leekha.server.domain.clock import Clock, Timer
from leekha.server.domain.errors import StoreFailed
from leekha.server.domain.persistence import Store

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
        #: How the holder runs a call once the reactor's current turn is done, cheaper than
        #: a timer (leekha.server.reactor.turn_end); None: `clock.callLater(0, ...)`.
        self.soon: Callable[[Callable[[], None]], object] | None = None
        #: A `soon` call is on its way (it cannot be cancelled: a flush before it makes
        #: it a no-op).
        self._soon_due = False
        self.stopped = False
        #: Called once when a write or a commit fails, first: the server's last words to
        #: every connection (leekha.server.app), instead of dropping what was queued.
        self.on_failing: Callable[[], None] | None = None
        #: Called once after that (the server then stops; see the module doc).
        self.on_fatal: Callable[[], None] | None = None
        store.on_begin = self.schedule
        #: The turn's encodings: a message sent to many connections is encoded once.
        self.frames = Frames()
        store.on_failure = self._failed

    def schedule(self) -> None:
        if self._call is None and not self._soon_due and not self.stopped:
            if self.soon is not None:
                self._soon_due = True
                self.soon(self._turn_ended)
            else:
                self._call = self.clock.callLater(0, self.flush)

    def _turn_ended(self) -> None:
        if self._soon_due:
            self.flush()

    def add(self, sender: Sender) -> None:
        """`sender` has frames to write after the next commit."""
        self._queued[sender] = None
        self.schedule()

    def flush(self) -> None:
        """Commit the turn's writes, then write every queued frame."""
        if self._call is not None and self._call.active():
            self._call.cancel()
        self._call = None
        self._soon_due = False
        queued, self._queued = self._queued, {}
        if self.stopped:
            self.frames = Frames()
            self._drop(queued)
            return
        try:
            self.store.commit()
        except Exception as exc:
            # Nothing queued was stored: it is dropped, and the server says goodbye.
            failed = exc if isinstance(exc, StoreFailed) else StoreFailed(self.store.path, exc)
            self._failed(failed)  # once: the store may have called it already
            if self.on_failing is None:
                self._drop(queued)
            return
        self.frames = Frames()
        for sender in queued:
            # One connection's fault (a transport that raises) costs the others nothing.
            try:
                sender.write_out()
            except Exception:
                log.failure("writing a connection's frames failed; the others go on")

    def _failed(self, failure: StoreFailed) -> None:
        """A write or commit failed (the store calls this once): one log line, then the
        fail-stop. Every write after it is refused by the store, so nothing retries."""
        if self.stopped:
            return
        log.critical(
            "{failure}; the server stops (nothing after the last commit was sent to"
            " anyone). Check the disk and the file, run `leekha records check`, and"
            " start again",
            failure=str(failure),
        )
        self.stop()
        queued, self._queued = self._queued, {}
        if self.on_failing is not None:
            self.on_failing()
        else:
            self._drop(queued)
        if self.on_fatal is not None:
            self.on_fatal()

    def _drop(self, queued: dict[Sender, None]) -> None:
        for sender in queued:
            sender.drop_out()

    def stop(self) -> None:
        """Never commit or write again (fatal error, or a simulated crash)."""
        self.stopped = True
        try:
            self.store.rollback()
        except Exception as exc:  # the database is gone; what was pending is lost anyway
            log.warn("rollback after the failure failed too: {error}", error=str(exc))
