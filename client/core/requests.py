"""Which request a reply answers, for every client role: the terminal, bots, tournaments.

A role sends each request through `send` with a note of its own (what to do with the
answer: a kind and the move behind it, a Deferred to fire), and hands every message it
receives to `reply`. A reply (`ok`, `error`, or a message whose `re` names the request)
comes back as an `Answer` holding the request and the note; a push (`re` null) or a reply
to nothing we asked gives None. The matching is the session's own: with a session's
`answered` (`Connection.answered`) a reply counts only if that connection says it answers
a request sent on it, so no role keeps a second idea of which ids are open. A lost
connection takes its open requests with it: `lost()` hands them back, for the role to send
again or to fail. Pure: no Twisted, no socket (tests/client/test_requests.py feeds it
events and reads its state).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Generic, TypeVar

from leekha import protocol as P
from leekha.protocol.connection import Pending

__all__ = ["Answer", "Asked", "RequestTracker"]

N = TypeVar("N")


@dataclass(frozen=True)
class Asked(Generic[N]):
    """A request in flight and its note."""

    request: P.Message
    note: N

    @property
    def id(self) -> int:
        rid = getattr(self.request, "id", None)
        assert type(rid) is int
        return rid


@dataclass(frozen=True)
class Answer(Asked[N]):
    """A request, its note, and the reply that answered it."""

    reply: P.Message

    @property
    def refusal(self) -> P.Error | None:
        """The server's `error` when it refused the request (None: it was carried out)."""
        return self.reply if isinstance(self.reply, P.Error) else None


class RequestTracker(Generic[N]):
    """The requests one role has in flight, each with its note, matched to their replies.

    `send(message) -> bool` hands a request to the session (False: not sent, the link is
    down); `answered` is the session's `Connection.answered`. Without one (a model fed
    messages with no connection of its own: the terminal client's, under test) a reply
    is matched by its `re` alone, which is what a connection does for its own requests.
    """

    def __init__(
        self,
        send: Callable[[P.Message], bool],
        answered: Callable[[P.Message], Pending | None] | None = None,
    ) -> None:
        self._send = send
        self._answered = answered
        self._open: dict[int, Asked[N]] = {}

    def attach(
        self,
        send: Callable[[P.Message], bool],
        answered: Callable[[P.Message], Pending | None] | None,
    ) -> None:
        """Send through `send`, and match by `answered`, from now on (a role that gets its
        session after it was made); the requests in flight stay open."""
        self._send = send
        self._answered = answered

    def send(self, request: P.Message, note: N) -> bool:
        """Send `request` (it must carry an `id`) and keep `note` until its reply."""
        rid = getattr(request, "id", None)
        if type(rid) is not int:
            raise ValueError(f"{request.TYPE} is not a request: it has no id")
        self._open[rid] = Asked(request, note)
        if not self._send(request):
            del self._open[rid]
            return False
        return True

    def reply(self, msg: P.Message) -> Answer[N] | None:
        """The request `msg` answers, with its note (no longer in flight); None for a push
        or a reply to a request this tracker did not send (or already matched)."""
        re = getattr(msg, "re", None)
        if type(re) is not int or re not in self._open:
            return None
        if self._answered is not None and self._answered(msg) is None:
            return None  # not an answer on this connection (a late or foreign `re`)
        asked = self._open.pop(re)
        return Answer(asked.request, asked.note, msg)

    def lost(self) -> list[Asked[N]]:
        """The connection is gone: every request in flight, oldest first, none left open
        (a reply to one of them can never come on the next connection)."""
        out, self._open = list(self._open.values()), {}
        return out

    def drop(self, unwanted: Callable[[Asked[N]], bool]) -> list[Asked[N]]:
        """Stop waiting for the requests `unwanted` picks (their late replies then match
        nothing); the ones dropped, oldest first."""
        gone = [a for a in self._open.values() if unwanted(a)]
        for a in gone:
            del self._open[a.id]
        return gone

    def __iter__(self) -> Iterator[Asked[N]]:
        """The requests in flight, oldest first."""
        return iter(list(self._open.values()))

    def __len__(self) -> int:
        return len(self._open)
