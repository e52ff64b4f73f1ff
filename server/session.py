"""A session: a player's identity across connections, keyed by a secret token.

The token is the only thing that lets a connection act for a seat, so it is random,
never shown to other players, and a session has at most one live connection.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Protocol

from leekha.protocol.message import Message
from leekha.server.clock import Timer
from leekha.server.limits import TokenBucket


class Peer(Protocol):
    """The connection side of a session."""

    def send(self, msg: Message) -> None: ...

    def kick(self, code: str, message: str) -> None: ...


def new_token() -> str:
    return secrets.token_urlsafe(24)


@dataclass(eq=False)
class Session:
    token: str
    name: str
    chat: TokenBucket
    peer: Peer | None = None
    table_id: int | None = None
    watching_lobby: bool = False
    stored: bool = False
    #: The name is claimed by a key this session proved (protocol 1.2); False = guest.
    verified: bool = False
    expiry: Timer | None = field(default=None, repr=False)

    def send(self, msg: Message) -> None:
        if self.peer is not None:
            self.peer.send(msg)
