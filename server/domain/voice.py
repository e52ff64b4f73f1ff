"""What a session may say, and whether the others hear it: chat and quick phrases.

Chat lines and quick phrases draw on one rate limit per session (`chat_rate_per_min`),
so switching between them buys a flooder nothing. A session refused `mute_after_floods`
times in a row is muted for `mute_s` seconds: while muted, nothing it says reaches anyone
(it is told `muted`), and the table (or the lobby) hears once that it was muted, so the
others know why it went quiet. The mute is on the session, so a reconnect does not lift it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from leekha.common.errors import Facts
from leekha.protocol import people
from leekha.protocol.notices import NOTICES, english
from leekha.server.domain.clock import Clock
from leekha.server.domain.config import DomainSettings
from leekha.server.domain.errors import Refused
from leekha.server.domain.session import Session
from leekha.server.domain.table import Table
from leekha.server.domain.tablechat import SYSTEM_SENDER


class Speakers(Protocol):
    """What the voice needs of the lobby (a narrow port, not the concrete `Lobby`)."""

    clock: Clock
    settings: DomainSettings

    @property
    def sessions(self) -> Mapping[str, Session]: ...

    @property
    def tables(self) -> Mapping[int, Table]: ...

    def lobby_line(
        self, sender: str, text: str, code: str | None = None, args: Facts | None = None
    ) -> None: ...


class Voice:
    """The lobby's gate for everything people say."""

    def __init__(self, lobby: Speakers) -> None:
        self.lobby = lobby

    def allow(self, session: Session) -> None:
        """Spend one message of the session's allowance; raises Refused (`muted`,
        `rate_limited`) when it may not speak now."""
        now = self.lobby.clock.seconds()
        if session.muted_until > now:
            left = int(session.muted_until - now + 0.999)
            raise Refused("muted", f"you are muted for {left} s more: too many messages")
        if session.chat.take():
            session.floods = 0
            return
        session.floods += 1
        settings = self.lobby.settings
        if session.floods >= settings.mute_after_floods:
            session.floods = 0
            session.muted_until = now + settings.mute_s
            self._say_muted(session, int(settings.mute_s))
            raise Refused("muted", f"you are muted for {int(settings.mute_s)} s: too many messages")
        raise Refused("rate_limited", "too many chat messages; wait a little")

    def _say_muted(self, session: Session, seconds: int) -> None:
        table = self.lobby.tables.get(session.table_id) if session.table_id is not None else None
        if table is not None:
            table.notice("muted", name=session.name, seconds=seconds)
        else:
            args: Facts = {"name": session.name, "seconds": seconds}
            self.lobby.lobby_line(SYSTEM_SENDER, english(NOTICES["muted"], args), "muted", args)

    def phrase(self, session: Session, code: str) -> None:
        """A quick phrase to the session's table, or to the lobby."""
        if code not in people.PHRASES:
            raise Refused("bad_phrase", f"no quick phrase {code!r}; the server knows: "
                          + ", ".join(people.PHRASES))  # fmt: skip
        self.allow(session)
        lobby = self.lobby
        table = lobby.tables.get(session.table_id) if session.table_id is not None else None
        if table is not None:  # heard, and kept with the table's chat lines
            table.chat.phrase(session.name, code, table.seat_of(session.token))
            return
        said = people.PhraseSaid(sender=session.name, code=code)
        for other in lobby.sessions.values():  # older than 1.4: not sent it (Message.SINCE)
            if other.table_id is None:
                other.send(said)
