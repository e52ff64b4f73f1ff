"""One end of a Leekha session, sans-IO in the style of h11: bytes in, messages out.

Every peer (server, terminal client, bot client, bench harness) feeds received bytes to
`Connection.receive_data` and sends through `Connection.send`, so the session rules of
docs/protocol.md sections 2 and 3 are enforced once: hello first, which side may send
what, the negotiated version, request ids and their replies, and answering pings. It
does no I/O and keeps no time; the owner writes the bytes and runs the timers.
`version.speaks(conn, feature)` answers what the negotiated version has.

Everything that moves the session between states is in `TRANSITIONS` below: a message
is first named by the event it is for the session (`event_of`), then looked up there. A
pair missing from the table is a violation: raised as `ProtocolError` when the peer did
it, as `LocalProtocolError` (a bug in the caller) when we tried to.

As in h11's `_state.py`, the table and the naming of events know nothing of which end
runs them: an event depends on the message, who sent it and the state, never on whether
this end is the client or the server, so both ends of one session walk the same states
(tests/test_protocol_connection.py feeds both ends the same transcript). What does
depend on the end is answering (pongs, `already_welcomed`) and which messages this end
may send at all (`Message.SENDER`), not the transitions.
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Iterator
from dataclasses import dataclass, fields
from typing import Literal

from . import catalogue as M
from .codec import DEFAULT_MAX_FRAME, Decoder, Frames, encode
from .errors import PROTOCOL_ERRORS, ProtocolError
from .message import Message

__all__ = [
    "CLOSING_ERRORS",
    "TRANSITIONS",
    "Connection",
    "Event",
    "LocalProtocolError",
    "Pending",
    "Role",
    "State",
    "event_of",
]

Role = Literal["client", "server"]


class State(enum.Enum):
    AWAITING_HELLO = "awaiting_hello"  # no session yet: only hello/resume may start one
    HANDSHAKING = "handshaking"  # hello/resume sent, its answer not yet
    READY = "ready"  # welcomed: anything goes, in the right direction
    CLOSED = "closed"  # a closing error was sent or received, or the link is gone


class Event(enum.Enum):
    """What a message means to the session (see `event_of`)."""

    HELLO = "hello"  # hello or resume
    WELCOME = "welcome"
    REFUSED = "refused"  # an error answering the hello/resume; the client may try again
    FATAL = "fatal"  # an error after which the server closes (CLOSING_ERRORS)
    KEEPALIVE = "keepalive"  # ping, pong, and errors that change nothing
    CHALLENGE = "challenge"  # challenge and prove: the key check inside the handshake
    TRAFFIC = "traffic"  # every other request, reply or event
    PIPELINED = "pipelined"  # a client request sent behind its hello, before the answer
    LOST = "lost"  # the transport is gone


A, H, R, X = State.AWAITING_HELLO, State.HANDSHAKING, State.READY, State.CLOSED
E = Event
#: The session's whole state machine: (state, event) -> next state. FATAL and LOST close
#: from anywhere. A server handles requests in order, so a request pipelined behind the
#: hello is answered after the welcome (or refused `not_hello_first` with the hello); a
#: second hello on a welcomed connection is answered `already_welcomed` and changes nothing.
TRANSITIONS: dict[tuple[State, Event], State] = {
    (A, E.HELLO): H,
    (R, E.HELLO): R,
    (A, E.KEEPALIVE): A,
    (H, E.KEEPALIVE): H,
    (H, E.WELCOME): R,
    (H, E.CHALLENGE): H,
    (H, E.REFUSED): A,
    (H, E.PIPELINED): H,
    (R, E.KEEPALIVE): R,
    (R, E.TRAFFIC): R,
    **{(s, E.FATAL): X for s in (A, H, R)},
    **{(s, E.LOST): X for s in State},
}

#: What `Connection.send`'s fast path for welcomed traffic relies on.
_TRAFFIC_STAYS_READY = TRANSITIONS.get((R, E.TRAFFIC)) is R

#: Error codes after which the server closes the connection.
CLOSING_ERRORS = frozenset(PROTOCOL_ERRORS) | {
    "server_full",
    "hello_timeout",
    "session_replaced",
    "server_shutdown",
}


#: Messages whose event does not depend on the state or the sender.
_FIXED: dict[type[Message], Event] = {
    M.Hello: E.HELLO,
    M.Resume: E.HELLO,
    M.Welcome: E.WELCOME,
    M.Ping: E.KEEPALIVE,
    M.Pong: E.KEEPALIVE,
    M.Challenge: E.CHALLENGE,
    M.Prove: E.CHALLENGE,
}


#: Message class -> 2 when its event is traffic whatever the state (not in _FIXED, not an
#: error) and it has an `id`, 1 when traffic without one, 0 otherwise (see `_plain`).
_PLAIN: dict[type[Message], int] = {}


def _plain(cls: type[Message]) -> int:
    if cls in _FIXED or issubclass(cls, M.Error):
        kind = 0
    else:
        kind = 2 if "id" in {f.name for f in fields(cls)} else 1
    _PLAIN[cls] = kind
    return kind


def event_of(msg: Message, sender: Role, state: State, handshake_id: int | None) -> Event:
    """What `msg`, sent by `sender`, is for a session in `state` whose pending hello or
    resume has id `handshake_id`. The same on both ends: nothing here is about which end
    asks."""
    fixed = _FIXED.get(type(msg))
    if fixed is not None:
        return fixed
    if isinstance(msg, M.Error):
        if msg.code in CLOSING_ERRORS:
            return E.FATAL
        if state is H and msg.re == handshake_id:
            return E.REFUSED
        return E.KEEPALIVE
    if state is H and sender == "client":
        return E.PIPELINED
    return E.TRAFFIC


class LocalProtocolError(Exception):
    """We tried to send something the session does not allow now: a bug in the caller."""


@dataclass(frozen=True)
class Pending:
    """A request waiting for its reply, with whatever the sender noted about it."""

    request: Message
    note: object = None


class Connection:
    """The session state of one connection, seen from `role`'s end."""

    def __init__(
        self,
        role: Role,
        *,
        max_frame: int = DEFAULT_MAX_FRAME,
        answer_pings: bool = True,
        ids: Iterator[int] | None = None,
        answer_hellos: bool = True,
    ) -> None:
        self.role: Role = role
        self.peer: Role = "server" if role == "client" else "client"
        self.state = State.AWAITING_HELLO
        #: The negotiated (major, minor), once a welcome went by.
        self.version: tuple[int, int] | None = None
        #: The session token and name of the last welcome.
        self.token: str | None = None
        self.name: str | None = None
        self.resumed = False
        self.max_frame = max_frame
        #: With answer_pings a received ping's pong is queued in `data_to_send()`; a server
        #: that rate-limits pings first turns it off and answers itself.
        self.answer_pings = answer_pings
        #: With answer_hellos a server answers a second hello/resume `already_welcomed` in
        #: `data_to_send()`; without, the message is returned (the state does not change)
        #: so a server that queues its replies answers it in request order.
        self.answer_hellos = answer_hellos
        self._decoder = Decoder(max_frame, peer=self.peer)
        #: Request ids; a client that reconnects may share one counter across its
        #: connections so that a late reply never matches a newer request.
        self._ids = ids if ids is not None else itertools.count(1)
        self._handshake_id: int | None = None
        self._pending: dict[int, Pending] = {}
        self._answered: dict[int, Pending] = {}
        self._outgoing = bytearray()
        self._owe_error = False
        self._mine = (role, "both")

    # ---- the state machine -------------------------------------------------------------
    def _advance(self, msg: Message, sender: Role) -> State | None:
        """The state after `msg`, or None when the table has no such step."""
        return TRANSITIONS.get((self.state, event_of(msg, sender, self.state, self._handshake_id)))

    # ---- receiving ---------------------------------------------------------------------
    def receive_data(self, data: bytes | bytearray | memoryview) -> list[Message]:
        """The messages `data` completes, in order, after checking each against the state.

        Raises ProtocolError for bad bytes or a message the session does not allow now;
        after that the connection is CLOSED (the server answers with the error's code).
        """
        if self.state is State.CLOSED:
            return []
        try:
            messages = self._decoder.feed(data)
        except ProtocolError:
            self._closed_by_peer()
            raise
        self._answered = {}
        out: list[Message] = []
        for msg in messages:
            if self._receive(msg):
                out.append(msg)
            if self.closed:
                break
        return out

    def _receive(self, msg: Message) -> bool:
        if self.state is State.READY and isinstance(msg, M.Hello | M.Resume):
            # (ready, hello) -> ready: only a server receives hellos; it answers itself
            # unless its request layer does.
            if not self.answer_hellos:
                return True
            self._queue(
                M.Error(
                    code="already_welcomed",
                    message="this connection already has a session",
                    re=msg.id,
                )
            )
            return False
        after = self._advance(msg, self.peer)
        if after is None:
            violation = self._violation(msg)  # in words of the state it came in
            self._closed_by_peer()
            raise violation
        if after is State.HANDSHAKING and isinstance(msg, M.Hello | M.Resume):
            self._handshake_id = msg.id
        elif isinstance(msg, M.Welcome):
            self._welcomed(msg)
        elif isinstance(msg, M.Ping) and self.answer_pings:
            self._queue(M.Pong(re=msg.id))
        re = getattr(msg, "re", None)
        if type(re) is int and re in self._pending:
            self._answered[re] = self._pending.pop(re)
        self.state = after
        return True

    def _closed_by_peer(self) -> None:
        """The peer broke the protocol: closed, but owed the one `error` that says why
        (docs/protocol.md section 4), which `send` still lets through."""
        self.state = State.CLOSED
        self._owe_error = True

    def _violation(self, msg: Message) -> ProtocolError:
        """The error for a message the peer may not send now, in the words of the state it
        came in: a client out of the handshake's order gets `not_hello_first` (a step of
        the handshake after the welcome, `unknown_type`), a server `unknown_type`."""
        rid = getattr(msg, "id", None)
        rid = rid if type(rid) is int else None
        if self.peer == "client" and self.state is State.AWAITING_HELLO:
            return ProtocolError(
                "not_hello_first", f"first message must be hello or resume, not {msg.TYPE}", rid
            )
        if self.peer == "client" and self.state is State.READY:
            return ProtocolError(
                "unknown_type",
                f"{msg.TYPE} belongs to the handshake; this connection is already welcomed",
                rid,
            )
        if self.peer == "client" and isinstance(msg, M.Hello | M.Resume):
            return ProtocolError(
                "not_hello_first", f"{msg.TYPE} sent before the last one was answered", rid
            )
        if self.peer == "client":
            return ProtocolError("not_hello_first", f"{msg.TYPE} before the welcome", rid)
        return ProtocolError(
            "unknown_type", f"{msg.TYPE} is not allowed in state {self.state.value}", rid
        )

    def _welcomed(self, msg: M.Welcome) -> None:
        self.version = (msg.version[0], msg.version[1])
        self.token = msg.token
        self.name = msg.name
        self.resumed = msg.resumed
        self._handshake_id = None

    # ---- sending -----------------------------------------------------------------------
    def send(self, msg: Message, *, note: object = None, frames: Frames | None = None) -> bytes:
        """The bytes of `msg`; a request (one with an `id`) is remembered until answered,
        with `note` for the caller (see `answered`). Nothing goes out once CLOSED. With
        `frames`, a message already encoded in that batch is not encoded again.

        Raises LocalProtocolError for a message this end may not send now, and
        ProtocolError (`frame_too_large`) for one the peer would refuse; neither changes
        the state."""
        cls = type(msg)
        if self.state is State.READY and _TRAFFIC_STAYS_READY:
            has_id = _PLAIN.get(cls)
            if has_id is None:
                has_id = _plain(cls)
            if has_id and cls.SENDER in self._mine:
                # Traffic on a welcomed session (nearly every frame a server sends): the
                # table's (ready, traffic) -> ready without looking the event up again.
                fast = (
                    encode(msg, self.max_frame)
                    if frames is None
                    else frames.encode(msg, self.max_frame)
                )
                if has_id == 2:
                    rid = getattr(msg, "id", None)
                    if type(rid) is int:
                        self._pending[rid] = Pending(msg, note)
                return fast
        if self.state is State.CLOSED:
            if not (self._owe_error and isinstance(msg, M.Error)):
                return b""
            self._owe_error = False
            return encode(msg, self.max_frame)
        if cls.SENDER not in self._mine:
            raise LocalProtocolError(f"a {self.role} may not send {msg.TYPE}")
        after = self._advance(msg, self.role)
        if after is None:
            raise LocalProtocolError(f"{msg.TYPE} may not be sent in state {self.state.value}")
        data = encode(msg, self.max_frame) if frames is None else frames.encode(msg, self.max_frame)
        if after is State.HANDSHAKING and isinstance(msg, M.Hello | M.Resume):
            self._handshake_id = msg.id
        elif isinstance(msg, M.Welcome):
            self._welcomed(msg)
        rid = getattr(msg, "id", None)
        if type(rid) is int:
            self._pending[rid] = Pending(msg, note)
        self.state = after
        return data

    def new_id(self) -> int:
        """A fresh request id (from 1 on each connection unless `ids` was given)."""
        return next(self._ids)

    def ping(self) -> bytes:
        """The bytes of a ping with a fresh id (its pong comes back as a reply)."""
        return self.send(M.Ping(id=self.new_id()))

    def data_to_send(self) -> bytes:
        """Answers the connection made by itself (pongs, `already_welcomed`); drains."""
        out, self._outgoing = bytes(self._outgoing), bytearray()
        return out

    def _queue(self, msg: Message) -> None:
        self._outgoing += encode(msg, self.max_frame)

    # ---- asking ------------------------------------------------------------------------
    def answered(self, reply: Message) -> Pending | None:
        """The request `reply` answers, if it came in the last `receive_data` batch."""
        re = getattr(reply, "re", None)
        return self._answered.get(re) if type(re) is int else None

    @property
    def pending(self) -> int:
        """How many requests still wait for their reply."""
        return len(self._pending)

    @property
    def buffered(self) -> int:
        """Bytes received that do not make a whole frame yet."""
        return self._decoder.buffered

    @property
    def closed(self) -> bool:
        return self.state is State.CLOSED

    def connection_lost(self) -> None:
        """The transport is gone: nothing more is sent or received."""
        self.state = TRANSITIONS[(self.state, Event.LOST)]
        self._owe_error = False
