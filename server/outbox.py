"""Everything a reactor turn sends, held until that turn's store writes are committed.

Connections queue their outgoing messages here instead of writing them at once. At the end
of the turn (`callLater(0)` on the injected clock) the outbox commits the store's open
transaction — every action of the turn in one commit — and only then writes each
connection's frames with one `transport.write`. So nothing is acknowledged or broadcast
before it is durable, a card played costs each seat one write, and a message sent to four
seats is encoded once.

If the commit fails the in-memory games are ahead of the database; the outbox then stops
for good (fail-stop): it rolls back, drops every queued frame, never commits or writes
again and calls `on_fatal`, so a restart resumes from what was committed and no client
was ever told about the lost actions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import msgpack
from twisted.logger import Logger

from leekha.protocol.codec import DEFAULT_MAX_FRAME, HEADER_SIZE
from leekha.protocol.errors import ProtocolError
from leekha.protocol.message import Message, wire_fields
from leekha.server.clock import Clock, Timer
from leekha.server.persistence import Store

log = Logger()

_KEYS: dict[type[Message], list[tuple[str, str]]] = {}


def frame(msg: Message) -> bytes:
    """One wire frame, byte for byte what `leekha.protocol.codec.encode` gives, with the
    field list of each message class looked up once instead of on every message."""
    cls = type(msg)
    keys = _KEYS.get(cls)
    if keys is None:
        keys = _KEYS[cls] = [(name, key) for name, key, _spec, _d in wire_fields(cls)]
    wire = {"type": cls.TYPE}
    for name, key in keys:
        wire[key] = getattr(msg, name)
    body: bytes = msgpack.packb(wire, use_bin_type=True)
    if len(body) > DEFAULT_MAX_FRAME:
        raise ProtocolError(
            "frame_too_large", f"{cls.TYPE} body is {len(body)} bytes, limit {DEFAULT_MAX_FRAME}"
        )
    return len(body).to_bytes(HEADER_SIZE, "big") + body


class Frames:
    """Encodes each message once per flush, however many connections it goes to."""

    def __init__(self) -> None:
        self._done: dict[int, bytes | None] = {}

    def get(self, msg: Message) -> bytes | None:
        """The frame, or None (logged) when the message cannot be encoded."""
        key = id(msg)  # the message stays alive in a queue until the flush ends
        if key not in self._done:
            try:
                self._done[key] = frame(msg)
            except ProtocolError as exc:
                log.error("cannot encode {type}: {err}", type=msg.TYPE, err=exc.message)
                self._done[key] = None
        return self._done[key]


class Sender(Protocol):
    """A connection as the outbox sees it."""

    def write_out(self, frames: Frames) -> None: ...

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
        frames = Frames()
        for sender in queued:
            sender.write_out(frames)

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
