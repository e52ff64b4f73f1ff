"""A session: a player's identity across connections, keyed by a secret token.

The token is the only thing that lets a connection act for a seat, so it is random,
never shown to other players, and a session has at most one live connection. The server
keeps only its SHA-256 digest (`token_id`), in memory and in the database: a copy of the
data folder or a backup gives nobody a seat. A session's id is the digest of the token
it was made with; its `secret` is the digest of the token that works now (a key that takes
its seat back from another machine gets a fresh token, and the old one stops working).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from leekha.protocol.message import Message
from leekha.server.domain.clock import Timer
from leekha.server.domain.limits import TokenBucket


class Peer(Protocol):
    """The connection side of a session."""

    def send(self, msg: Message) -> None: ...

    def send_all(self, msgs: Sequence[Message]) -> None:
        """`send` of each message, in order: one call for what a member hears of one
        change (a table's events), rather than one per message."""

    def hears(self, msg: type[Message]) -> bool:
        """Whether its negotiated version has `msg`'s type (`Message.SINCE`): a table
        builds a line only its newer clients read (`turn`) only when one is there."""

    def kick(self, code: str, message: str) -> None: ...


def new_token() -> str:
    """A fresh secret token, for the client's eyes only (the welcome)."""
    return secrets.token_urlsafe(24)


def token_id(token: str) -> str:
    """What the server keeps of a token: its SHA-256 digest (hex). A token is 192 random
    bits, so a fast hash is as good as a slow one: there is nothing to guess."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(eq=False)
class Session:
    #: The session's id: `token_id` of the token it was made with. Tables, seats and
    #: tournaments name the session by it; it never leaves the server.
    token: str
    name: str
    chat: TokenBucket
    #: `token_id` of the token that resumes this session now.
    secret: str = ""
    #: The public key this session proved at its `hello` (protocol 1.2); None = a guest.
    #: Fixed for the session's life: what the name's claim becomes later changes nothing.
    key: str | None = None
    peer: Peer | None = None
    table_id: int | None = None
    watching_lobby: bool = False
    stored: bool = False
    expiry: Timer | None = field(default=None, repr=False)
    #: Chat and quick phrases: refused in a row, and muted until then (leekha.server.domain.voice).
    floods: int = 0
    muted_until: float = 0.0

    def __post_init__(self) -> None:
        if not self.secret:
            self.secret = self.token

    @property
    def verified(self) -> bool:
        """The session proved the key that owns its name; False = a guest."""
        return self.key is not None

    def send(self, msg: Message) -> None:
        if self.peer is not None:
            self.peer.send(msg)
