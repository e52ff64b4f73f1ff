"""Quick phrases on the server: codes to the table or the lobby, refused codes, the shared
rate limit with chat and the mute a flood earns, all on the fake clock; and the client
core folding them into the chat pane and the seat's bubble in the reader's language."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import records as R
from helpers.server import FakeClient, Harness, created_table

from leekha import protocol as P
from leekha.client import i18n
from leekha.client.tui import model as M
from leekha.client.tui.layout import render_text
from leekha.protocol import catalogue as C
from leekha.server.domain.persistence import Store

V13 = [[1, 3]]


def player(h: Harness, name: str, versions: list[list[int]] | None = None) -> FakeClient:
    """A client that speaks 1.4 (or `versions`)."""
    c = h.connect()
    reply = c.request(C.Hello(id=c.rid(), versions=versions or [[1, 4]], name=name))
    assert isinstance(reply, C.Welcome), reply
    return c


def table(h: Harness) -> tuple[FakeClient, FakeClient, int]:
    """alice hosts table "x" at seat 0, bob sits at seat 1."""
    alice, bob = player(h, "alice"), player(h, "bob")
    tid = created_table(alice.request(C.CreateTable(id=alice.rid(), name="x")))
    bob.request(C.JoinSeat(id=bob.rid(), table_id=tid))
    return alice, bob, tid


def test_a_phrase_reaches_the_table_with_the_seat_and_not_the_lobby() -> None:
    h = Harness()
    alice, bob, tid = table(h)
    idle = player(h, "idle")
    for c in (alice, bob, idle):
        c.drain()
    assert isinstance(bob.request(P.Phrase(id=bob.rid(), code="good_luck")), C.Ok)
    for c in (alice, bob):
        (said,) = c.of(P.PhraseSaid)
        assert (said.sender, said.code, said.seat, said.table_id) == ("bob", "good_luck", 1, tid)
    assert idle.of(P.PhraseSaid) == []
    # from the lobby: to the lobby only
    assert isinstance(idle.request(P.Phrase(id=idle.rid(), code="hello")), C.Ok)
    (said,) = [m for m in idle.of(P.PhraseSaid) if m.code == "hello"]
    assert (said.seat, said.table_id) == (None, None)
    assert [m.code for m in alice.of(P.PhraseSaid)] == ["good_luck"]


def test_an_unknown_code_and_an_old_client_are_refused_and_hear_nothing() -> None:
    h = Harness()
    alice, bob, tid = table(h)
    old = player(h, "old", V13)
    old.request(C.JoinSeat(id=old.rid(), table_id=tid))
    reply = alice.request(P.Phrase(id=alice.rid(), code="rude_word"))
    assert isinstance(reply, C.Error) and reply.code == "bad_phrase"
    assert bob.of(P.PhraseSaid) == []
    assert isinstance(alice.request(P.Phrase(id=alice.rid(), code="thanks")), C.Ok)
    assert [m.code for m in bob.of(P.PhraseSaid)] == ["thanks"]
    assert old.of(P.PhraseSaid) == []  # a 1.3 client could not decode it: never sent
    assert not old.closed
    reply = old.request(P.Phrase(id=old.rid(), code="thanks"))
    assert isinstance(reply, C.Error) and reply.code == "unknown_type"
    assert old.closed  # a message type newer than the version it spoke: a violation


def test_phrases_and_chat_share_the_limit_and_a_flood_mutes_the_seat() -> None:
    h = Harness(chat_rate_per_min=60, mute_after_floods=3, mute_s=10)
    alice, bob, _tid = table(h)
    h.advance(0.01)  # bob's seat replays the (empty) chat on the next turn
    bob.drain()
    codes = []
    for i in range(60):  # the burst: thirty phrases and thirty chat lines
        msg = P.Phrase(id=alice.rid(), code="hello") if i % 2 else C.Chat(id=alice.rid(), text="x")
        codes.append(alice.request(msg).TYPE)
    assert codes == ["ok"] * 60
    replies = [alice.request(P.Phrase(id=alice.rid(), code="oops")) for _ in range(3)]
    assert [getattr(r, "code", None) for r in replies] == ["rate_limited", "rate_limited", "muted"]
    h.advance(0.1)  # chat lines are stored first: they go out with the commit
    heard = bob.drain()
    assert [m.code for m in heard if isinstance(m, P.PhraseSaid)] == ["hello"] * 30
    said = {m.text for m in heard if isinstance(m, C.ChatMessage) and m.sender == "alice"}
    assert said == {"x"}
    notices = {m.text for m in heard if isinstance(m, C.ChatMessage) and m.sender == "*"}
    assert notices == {"alice is muted for 10 s: too many messages"}
    # The bucket refills, but the mute holds: nothing reaches bob, chat included.
    h.clock.advance(5)
    for msg in (P.Phrase(id=alice.rid(), code="sorry"), C.Chat(id=alice.rid(), text="hi")):
        reply = alice.request(msg)
        assert isinstance(reply, C.Error) and reply.code == "muted", reply
    h.advance(0.1)
    assert [m for m in bob.drain() if isinstance(m, P.PhraseSaid | C.ChatMessage)] == []
    h.clock.advance(5.1)
    assert isinstance(alice.request(P.Phrase(id=alice.rid(), code="sorry")), C.Ok)
    assert [m.code for m in bob.of(P.PhraseSaid)] == ["sorry"]


@pytest.mark.parametrize(
    ("lang", "words"), [("en", "well played!"), ("it", "ben giocato!"), ("ar", "أحسنت!")]
)
def test_the_client_shows_a_phrase_in_its_language_in_the_chat_and_by_the_seat(
    lang: str, words: str
) -> None:
    now = [100.0]
    m = M.ClientModel("ann", clock=lambda: now[0])
    try:
        i18n.set_language(lang)
        m.apply(C.Welcome(re=1, version=[1, 4], server="s", token="t" * 8, name="ann"))
        table = R.summary(id=7, name="x", seats=[R.seat(n) for n in ("ann", "bob", None, None)])
        players = [R.player(n, host=n == "ann") for n in ("ann", "bob", None, None)]
        m.apply(C.Snapshot(re=None, table=table, view=None, your_seat=0, players=players))
        m.apply(P.PhraseSaid(sender="bob", code="well_played", seat=1, table_id=7))
        m.apply(P.PhraseSaid(sender="zed", code="hello", table_id=None))  # the lobby's: not here
        assert list(m.chat) == [("bob", words)]
        screen = render_text(m)
        assert f"«{words}»" in screen and "hello" not in screen and "zed" not in screen
        now[0] += 6.0  # the bubble goes; the chat line stays
        screen = render_text(m)
        assert f"«{words}»" not in screen and words in screen
        m.social.open_phrases()
        assert m.overlay == M.PHRASES
        m.social.say_phrase(2)
        (sent,) = [r for r in m.take_outbox() if isinstance(r, P.Phrase)]
        assert m.overlay is None and sent.code == "well_played"
    finally:
        i18n.set_language("en")


def _history(h: Harness, c: FakeClient) -> list[tuple[str, str]]:
    """The people's lines and phrases a client has heard (a phrase as `[code]`)."""
    h.advance(0.01)
    return [
        (m.sender, m.text if isinstance(m, C.ChatMessage) else f"[{m.code}]")
        for m in c.drain()
        if isinstance(m, C.ChatMessage | P.PhraseSaid) and m.sender != "*"
    ]


def test_a_phrase_stays_in_the_tables_chat_for_whoever_comes_later_and_after_a_restart(
    tmp_path: Path,
) -> None:
    """Kept as typed lines are: a later comer and a restarted server give the phrase back
    in its place among the lines (and never to a 1.3 session, which cannot decode it)."""
    h = Harness(store=Store.in_dir(tmp_path), seat_grace_s=60.0)
    alice, bob, tid = table(h)
    assert isinstance(alice.request(C.Chat(id=alice.rid(), text="hi all")), C.Ok)
    assert isinstance(bob.request(P.Phrase(id=bob.rid(), code="good_luck")), C.Ok)
    assert isinstance(alice.request(C.Chat(id=alice.rid(), text="thanks")), C.Ok)
    expected = [("alice", "hi all"), ("bob", "[good_luck]"), ("alice", "thanks")]
    later = player(h, "carol")
    later.request(C.Spectate(id=later.rid(), table_id=tid))
    assert _history(h, later) == expected
    old = player(h, "old", V13)
    old.request(C.Spectate(id=old.rid(), table_id=tid))
    assert _history(h, old) == [("alice", "hi all"), ("alice", "thanks")]
    h.stop()

    again = Harness(store=Store.in_dir(tmp_path), seat_grace_s=60.0)
    dave = player(again, "dave")
    dave.request(C.Spectate(id=dave.rid(), table_id=tid))
    assert _history(again, dave) == expected


def test_the_client_shows_replayed_phrases_among_the_lines_after_a_rejoin() -> None:
    m = M.ClientModel("ann", clock=lambda: 100.0)
    m.apply(C.Welcome(re=1, version=[1, 4], server="s", token="t" * 8, name="ann", resumed=True))
    table = R.summary(id=7, name="x", seats=[R.seat(n) for n in ("ann", "bob", None, None)])
    players = [R.player(n, host=n == "ann") for n in ("ann", "bob", None, None)]
    m.apply(C.Snapshot(re=None, table=table, view=None, your_seat=0, players=players))
    m.apply(C.ChatMessage(sender="ann", text="hi all", table_id=7))  # the kept lines, again
    m.apply(P.PhraseSaid(sender="bob", code="good_luck", seat=1, table_id=7))
    m.apply(C.ChatMessage(sender="ann", text="thanks", table_id=7))
    assert list(m.chat) == [("ann", "hi all"), ("bob", "good luck!"), ("ann", "thanks")]
