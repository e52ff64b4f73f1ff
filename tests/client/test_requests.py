"""The request tracker every client role shares (client/core/requests.py), without a socket:
requests go out through a real client `Connection`, the server's replies come back as
bytes from a real server `Connection`, and the tracker says which request each answers."""

from __future__ import annotations

import pytest

from leekha import protocol as P
from leekha.client.core.requests import RequestTracker
from leekha.protocol.connection import Connection


class Wire:
    """A welcomed client and server `Connection`, and the client's sent bytes."""

    def __init__(self) -> None:
        self.client, self.server = Connection("client"), Connection("server")
        self.up = True
        hello = P.Hello(id=self.client.new_id(), versions=[[1, 4]], name="ann")
        self.server.receive_data(self.client.send(hello))
        welcome = P.Welcome(re=hello.id, version=[1, 4], server="s", token="t", name="ann")
        self.client.receive_data(self.server.send(welcome))

    def send(self, msg: P.Message) -> bool:
        if not self.up:
            return False
        self.server.receive_data(self.client.send(msg))
        return True

    def reply(self, *msgs: P.Message) -> list[P.Message]:
        """What the client decodes of the server's `msgs` (one batch, as a read)."""
        return self.client.receive_data(b"".join(self.server.send(m) for m in msgs))


def tracker(wire: Wire) -> RequestTracker[str]:
    return RequestTracker(wire.send, wire.client.answered)


def test_each_reply_comes_back_with_its_request_and_note() -> None:
    wire = Wire()
    t = tracker(wire)
    start, chat = P.Start(id=wire.client.new_id()), P.Chat(id=wire.client.new_id(), text="hi")
    assert t.send(start, "start") and t.send(chat, "chat") and len(t) == 2
    got = wire.reply(
        P.Error(re=chat.id, code="muted", message="you are muted"),
        P.Ok(re=start.id),
    )
    first, second = (t.reply(m) for m in got)
    assert first is not None and first.note == "chat" and first.request is chat
    assert first.refusal is not None and first.refusal.code == "muted"
    assert second is not None and second.note == "start" and second.refusal is None
    assert len(t) == 0 and list(t) == []
    assert t.reply(got[1]) is None  # matched once only


def test_a_push_and_a_reply_to_someone_else_match_nothing() -> None:
    wire = Wire()
    t = tracker(wire)
    ask = P.ListTables(id=wire.client.new_id())
    t.send(ask, "list")
    (push,) = wire.reply(P.PassDone(seat=1))
    assert t.reply(push) is None
    # a reply to a request sent without the tracker (the session's own ping)
    ping = P.Ping(id=wire.client.new_id())
    wire.send(ping)
    (pong,) = wire.reply(P.Pong(re=ping.id))
    assert t.reply(pong) is None and [a.note for a in t] == ["list"]


def test_the_connection_decides_what_a_reply_answers() -> None:
    """A reply whose `re` the connection did not see answered in this batch (a late or
    forged one) does not match, even if the id is open in the tracker."""
    wire = Wire()
    t = tracker(wire)
    ask = P.Start(id=wire.client.new_id())
    t.send(ask, "start")
    assert t.reply(P.Ok(re=ask.id)) is None  # never came through the connection
    (ok,) = wire.reply(P.Ok(re=ask.id))
    answer = t.reply(ok)
    assert answer is not None and answer.note == "start"


def test_without_a_connection_a_reply_is_matched_by_its_re() -> None:
    sent: list[P.Message] = []

    def send(msg: P.Message) -> bool:
        sent.append(msg)
        return True

    t: RequestTracker[int] = RequestTracker(send)
    t.send(P.Start(id=7), 1)
    t.send(P.Rematch(id=8), 2)
    assert [m.TYPE for m in sent] == ["start", "rematch"]
    answer = t.reply(P.Ok(re=8))
    assert answer is not None and answer.note == 2 and [a.id for a in t] == [7]


def test_a_request_the_link_could_not_send_is_not_in_flight() -> None:
    wire = Wire()
    t = tracker(wire)
    wire.up = False
    assert not t.send(P.Start(id=wire.client.new_id()), "start") and len(t) == 0


def test_a_lost_connection_hands_back_what_was_in_flight() -> None:
    wire = Wire()
    t = tracker(wire)
    a, b = P.Start(id=wire.client.new_id()), P.Rematch(id=wire.client.new_id())
    t.send(a, "start")
    t.send(b, "rematch")
    assert [(x.request, x.note) for x in t.lost()] == [(a, "start"), (b, "rematch")]
    assert len(t) == 0 and t.lost() == []


def test_dropped_requests_ignore_their_late_replies() -> None:
    wire = Wire()
    t = tracker(wire)
    a, b = P.ListTables(id=wire.client.new_id()), P.Start(id=wire.client.new_id())
    t.send(a, "list")
    t.send(b, "start")
    gone = t.drop(lambda x: isinstance(x.request, P.ListTables))
    assert [x.note for x in gone] == ["list"] and [x.note for x in t] == ["start"]
    late = wire.reply(P.TableList(re=a.id, tables=[]))
    assert t.reply(late[0]) is None


def test_only_a_request_can_be_tracked() -> None:
    t: RequestTracker[None] = RequestTracker(lambda m: True)
    with pytest.raises(ValueError, match="no id"):
        t.send(P.PassDone(seat=0), None)
