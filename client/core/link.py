"""The connection as a client sees it: offline, online, reconnecting or failed.

Fed by the session's events (client/session.py) and the server's `welcome`; read by a
header that says where we are and by whatever asks which features the server speaks.
"""

from __future__ import annotations

from dataclasses import dataclass

from leekha import protocol as P
from leekha.protocol.version import Feature, speaks

OFFLINE = "offline"
ONLINE = "online"
RECONNECTING = "reconnecting"
FAILED = "failed"


@dataclass
class Link:
    """Where the session stands, and what the server said about itself."""

    state: str = OFFLINE
    detail: str = ""  # why it is down, or when the next attempt is
    server: str = ""  # the server's software, from welcome
    welcomed: bool = False
    version: tuple[int, ...] | None = None  # negotiated, from welcome

    def lost(self, detail: str = "") -> None:
        self.state = RECONNECTING
        self.detail = detail

    def failed(self, detail: str) -> None:
        self.state = FAILED
        self.detail = detail

    def welcome(self, msg: P.Welcome) -> bool:
        """Online; True when this session had been welcomed before (a reconnection)."""
        was = self.welcomed
        self.welcomed = True
        self.state = ONLINE
        self.detail = ""
        self.server = msg.server
        self.version = tuple(msg.version)
        return was

    def speaks(self, feature: Feature) -> bool:
        return speaks(self.version, feature)
