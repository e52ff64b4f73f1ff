"""A short session for `leekha tournament`: ask the server, wait for the answer, and follow
a tournament's pushes, over the client core (`ClientCore`) every client role shares.

The session (handshake, TLS, pings) is `client.session`'s. A command is over in seconds
or follows one tournament; a dropped link ends it with one sentence rather than being
retried, since nothing is held for it on the server.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from twisted.internet import defer

from leekha import protocol as P
from leekha.client.core.core import Answered, ClientCore, LinkLost, TournamentChanged
from leekha.client.core.intents import Intent
from leekha.client.i18n import _
from leekha.client.refusals import explain
from leekha.client.session import ClientSession, ConnectFailed, Target
from leekha.protocol.views import Tournament

if TYPE_CHECKING:
    from leekha.protocol.reactor import ReactorTime

CLIENT = "leekha-tournament"

T = TypeVar("T")


async def waited(d: defer.Deferred[T]) -> T:
    """A Deferred's result, awaited from the asyncio task `run_on_reactor` runs."""
    return await d.asFuture(asyncio.get_running_loop())


#: Refusals whose server text says what exactly is wrong (which entrant, how many games).
DETAILED = frozenset({"bad_tournament", "bad_rules"})


class Refused(Exception):
    """The server refused a request; the text is the player's words for it, with the
    server's own where they say what to change."""

    def __init__(self, error: P.Error) -> None:
        words = explain(error.code, error.message, error.rule, error.args)
        if error.code in DETAILED and error.message and error.message not in words:
            words = _("{words}: {detail}").format(words=words, detail=error.message)
        super().__init__(words)
        self.code = error.code


class Link:
    """`open()`, then `ask(intent)` as often as needed, then `close()`. Pushed
    `tournament_state`s go to `on_state`; a lost link fails every request in flight and
    is told to `on_lost`. Messages are folded, and replies matched, by the `ClientCore`."""

    def __init__(
        self,
        reactor: ReactorTime,
        target: Target,
        name: str,
        on_state: Callable[[Tournament], None] = lambda _t: None,
        on_lost: Callable[[ConnectFailed], None] = lambda _e: None,
    ) -> None:
        self.on_state = on_state
        self.on_lost = on_lost
        self._tries = 0
        self._name = name
        self.session = ClientSession(
            reactor,
            target,
            name,
            client=CLIENT,
            on_message=self._message,
            on_lost=self._lost,
            on_failed=self._lost,
            on_refused=self._other_name,
        )
        self.core = ClientCore(self.session.send, self.session.new_id,
                               answered=self.session.answered)  # fmt: skip
        #: The Deferred each request in flight is awaited by, by request id.
        self._waiting: dict[int, defer.Deferred[P.Message]] = {}

    async def open(self) -> P.Welcome:
        return await waited(self.session.connect())

    async def ask(self, intent: Intent) -> P.Message:
        """Ask for `intent`: its reply, or Refused, or ConnectFailed when the link drops."""
        request = self.core.request(intent)
        rid = getattr(request, "id", None)
        if type(rid) is not int:
            raise ConnectFailed(_("the connection to the server is down"))
        answer: defer.Deferred[P.Message] = defer.Deferred()
        self._waiting[rid] = answer
        return await waited(answer)

    async def close(self) -> None:
        await waited(self.session.close())

    def _message(self, msg: P.Message) -> None:
        for change in self.core.receive(msg):
            match change:
                case Answered(answer):
                    waiting = self._waiting.pop(answer.id, None)
                    if waiting is None:
                        continue
                    refusal = answer.refusal
                    if refusal is not None:
                        waiting.errback(Refused(refusal))
                    else:
                        waiting.callback(answer.reply)
                case TournamentChanged(tournament, pushed=True):
                    self.on_state(tournament)

    def _lost(self, why: str) -> None:
        failure = ConnectFailed(_("the connection to the server was lost: {why}").format(why=why))
        for change in self.core.lost(why):
            for asked in change.requests if isinstance(change, LinkLost) else ():
                waiting = self._waiting.pop(asked.id, None)
                if waiting is not None:
                    waiting.errback(failure)
        self.on_lost(failure)

    def _other_name(self, msg: P.Error) -> str | None:
        """Our name is taken (say, by the player's own client): take a numbered one."""
        if msg.code == "bad_name" and self._tries < 5:
            self._tries += 1
            return f"{self._name}-{random.randrange(1000, 10000)}"
        return None
