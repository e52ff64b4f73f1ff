"""Quick play on the fake clock: 1, 2, 5 and 9 people arriving over time are each seated,
no seat ever has two holders, bots fill a table after its wait, four people start a table
at once, and a person who arrives while every table plays takes a bot's seat when the
round ends."""

from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path

import pytest
from helpers.server import FakeClient, Harness, answer_prompts, created_table, status

from leekha import protocol as P
from leekha.protocol import catalogue as C
from leekha.server.domain.persistence import Store
from leekha.server.domain.table import Table


def person(h: Harness, name: str) -> FakeClient:
    c = h.connect()
    reply = c.request(C.Hello(id=c.rid(), versions=[[1, 4]], name=name))
    assert isinstance(reply, C.Welcome), reply
    c.token = reply.token
    return c


def quick(c: FakeClient, **fields: object) -> C.Snapshot:
    reply = c.request(P.QuickPlay(id=c.rid(), **fields))  # type: ignore[arg-type]
    assert isinstance(reply, C.Snapshot), reply
    return reply


def holders(h: Harness) -> Counter[str]:
    """How many seats each person holds, over every table."""
    return Counter(
        s.token for t in h.lobby.tables.values() for s in t.seats if s is not None and s.token
    )


def where(h: Harness, c: FakeClient) -> tuple[Table, int | None]:
    (table,) = [
        t for t in h.lobby.tables.values() if c.sid in t.spectators or t.seat_of(c.sid) is not None
    ]
    return table, table.seat_of(c.sid)


def bots(table: Table) -> list[str]:
    return [s.strategy for s in table.seats if s is not None and s.is_bot]


def play_a_round(h: Harness, people: list[FakeClient], table: Table) -> None:
    """The people at `table` answer their prompts until its round number moves on."""
    assert table.game is not None
    start = len(table.game.history)
    for _ in range(20_000):
        if table.game is None or len(table.game.history) > start:
            return
        for c in people:
            answer_prompts(h, c, table.id)
        h.advance(0.02, step=0.02)
    raise AssertionError("the round did not end")


def test_one_person_gets_a_table_of_bots_after_their_wait() -> None:
    h = Harness()
    ann = person(h, "ann")
    snap = quick(ann, bot="easy", wait_s=30)
    assert snap.your_seat == 0 and snap.table["status"] == "waiting"
    h.advance(29.9, step=0.5)
    (table,) = h.lobby.tables.values()
    assert table.status == "waiting" and bots(table) == []
    h.advance(0.2)
    assert status(table) == "playing" and bots(table) == ["easy"] * 3
    assert holders(h) == {ann.sid: 1}


def test_two_people_meet_at_one_table_and_the_default_wait_is_20_s() -> None:
    h = Harness()
    ann, bob = person(h, "ann"), person(h, "bob")
    quick(ann)
    h.advance(5, step=0.5)
    snap = quick(bob)
    assert snap.your_seat == 1
    h.advance(15.1, step=0.5)
    (table,) = h.lobby.tables.values()
    assert table.status == "playing" and bots(table) == ["medium"] * 2


def test_other_rules_do_not_mix_and_bad_requests_change_nothing() -> None:
    h = Harness()
    ann, bob = person(h, "ann"), person(h, "bob")
    quick(ann, preset="classic")
    quick(bob, preset="levant")
    assert len(h.lobby.tables) == 2
    carl = person(h, "carl")
    for fields, code in (({"preset": "nope"}, "bad_rules"), ({"bot": "x:y"}, "no_such_bot")):
        reply = carl.request(P.QuickPlay(id=carl.rid(), **fields))  # type: ignore[arg-type]
        assert isinstance(reply, C.Error) and reply.code == code
    again = ann.request(P.QuickPlay(id=ann.rid()))
    assert isinstance(again, C.Error) and again.code == "already_seated"
    assert len(h.lobby.tables) == 2 and holders(h) == {ann.sid: 1, bob.sid: 1}
    old = h.connect()
    old.request(C.Hello(id=old.rid(), versions=[[1, 3]], name="old"))
    reply = old.request(P.QuickPlay(id=old.rid()))
    assert isinstance(reply, C.Error) and reply.code == "unknown_type"


@pytest.mark.parametrize("crowd", [5, 9])
def test_a_crowd_arriving_over_time(crowd: int) -> None:
    """ann and bob open table A, which bots complete at 20 s; carl and dina arrive while A
    plays and take its bots' seats when the round ends; the fifth opens table B; with nine,
    three more fill B, which starts at once with four people, and the ninth opens C."""
    h = Harness()
    names = ("ann", "bob", "carl", "dina", "eve", "fay", "gus", "hal", "ida")
    people = [person(h, name) for name in names[:crowd]]
    ann, bob, carl, dina, eve = people[:5]
    quick(ann)
    h.advance(3, step=0.5)
    quick(bob)
    h.advance(17.1, step=0.5)
    a, _ = where(h, ann)
    assert a.status == "playing" and len(bots(a)) == 2
    for c in (carl, dina):  # A is playing with bots: they watch, each with a claim
        snap = quick(c)
        assert snap.your_seat is None and snap.table["id"] == a.id
        assert any("take a bot's seat" in m.text for m in c.of(C.ChatMessage))
    snap = quick(eve)  # every bot seat of A is claimed: a new table
    b, seat = where(h, eve)
    assert b.id != a.id and seat == 0 and b.status == "waiting"
    assert holders(h) == {p.sid: 1 for p in (ann, bob, eve)}

    play_a_round(h, [ann, bob], a)
    assert bots(a) == [] and {a.seat_of(c.sid) for c in (carl, dina)} == {2, 3}
    assert a.game is not None and a.game.phase == "pass"
    # They play on: their seats get the view and the prompt of the new round.
    for c in (carl, dina):
        view = [m for m in c.of(C.Snapshot) if m.your_seat is not None][-1].view
        assert view is not None and len(view["hand"]) == 13
        assert c.of(C.YourTurn)
    play_a_round(h, [ann, bob, carl, dina], a)

    if crowd == 9:
        fay, gus, hal, ida = people[5:]
        for c in (fay, gus, hal):
            h.advance(1, step=0.5)
            quick(c)
            assert where(h, c)[0] is b
        assert status(b) == "playing" and bots(b) == []  # four people: no waiting
        h.advance(30, step=0.5)
        assert bots(b) == []  # its fill timer was cancelled
        quick(ida)
        c_table, seat = where(h, ida)
        assert c_table not in (a, b) and seat == 0
        h.advance(20.1, step=0.5)
        assert c_table.status == "playing" and len(bots(c_table)) == 3
    else:
        h.advance(20.1, step=0.5)
        assert status(b) == "playing" and len(bots(b)) == 3
    assert holders(h) == {p.sid: 1 for p in people}  # everyone seated once, no seat twice


def test_a_restored_quick_table_still_gives_its_bot_seats_to_latecomers(tmp_path: Path) -> None:
    """ann's quick-play table, filled with bots, survives a restart; carl, who arrives
    after it, watches and takes a bot's seat when the round ends, as before the restart."""
    path = tmp_path / "leekha.sqlite3"
    h = Harness(store=Store(path), seat_grace_s=1.0)
    ann = person(h, "ann")
    quick(ann, bot="easy", wait_s=5, overrides={"target": 200})
    h.advance(5.1, step=0.5)
    a, _ = where(h, ann)
    assert a.status == "playing" and bots(a) == ["easy"] * 3
    h.stop()

    h2 = Harness(store=Store(path), seat_grace_s=1.0)  # ann does not come back: a bot plays
    a2 = h2.lobby.tables[a.id]
    assert a2.status == "playing" and a2.id in h2.lobby.quick.tables
    carl = person(h2, "carl")
    snap = quick(carl, overrides={"target": 200})
    assert snap.table["id"] == a.id and snap.your_seat is None
    assert any(m.code == "quick_wait" for m in carl.of(C.ChatMessage))
    play_a_round(h2, [carl], a2)
    seat = a2.seat_of(carl.sid)
    assert seat is not None and seat != 0
    told = [m for m in carl.of(C.ChatMessage) if m.code == "quick_seat"]
    assert told and told[-1].args["name"] == "carl"


def test_a_restored_waiting_quick_table_fills_after_its_wait(tmp_path: Path) -> None:
    path = tmp_path / "leekha.sqlite3"
    h = Harness(store=Store(path))
    ann = person(h, "ann")
    quick(ann, bot="hard", wait_s=30)
    h.advance(10, step=0.5)
    h.stop()
    h2 = Harness(store=Store(path))
    back = h2.connect()  # ann's client resumes her session, and her seat
    assert ann.token is not None
    welcome = back.request(C.Resume(id=back.rid(), versions=[[1, 4]], token=ann.token))
    assert isinstance(welcome, C.Welcome), welcome
    (table,) = h2.lobby.tables.values()
    assert table.status == "waiting" and table.seat_of(back.sid) == 0
    h2.advance(29.5, step=0.5)
    assert table.status == "waiting"  # the whole wait again: ann is reconnecting too
    h2.advance(1, step=0.5)
    assert status(table) == "playing" and bots(table) == ["hard"] * 3


def test_quick_play_never_seats_a_stranger_at_a_hosts_table_nor_starts_it() -> None:
    """A host waits at an open table with two bots, keeping a seat for a friend: a
    stranger's quick play opens a table of its own, and the host's stays as the host left
    it until the host says `start`."""
    h = Harness()
    host = person(h, "host")
    tid = created_table(host.request(C.CreateTable(id=host.rid(), name="friends")))
    for seat in (2, 3):
        assert isinstance(host.request(C.AddBot(id=host.rid(), seat=seat, strategy="random")), C.Ok)
    stranger = person(h, "stranger")
    snap = quick(stranger)
    assert snap.table["id"] != tid and snap.your_seat == 0
    h.advance(25, step=0.5)
    mine = h.lobby.tables[tid]
    assert mine.status == "waiting" and mine.seat_of(stranger.sid) is None
    assert [s is None for s in mine.seats] == [False, True, False, False]


def test_a_latecomer_whose_round_was_the_last_is_seated_elsewhere_and_told() -> None:
    """carl waits for a bot's seat at ann's quick table; its round is the game's last
    (target 1, and the seed's first round has no tie for the lowest score): he is not
    left watching a finished table but placed again (a new quick table, his) and told so
    with `quick_moved`."""
    h = Harness()
    h.lobby.new_seed = itertools.count(1).__next__
    ann, carl = person(h, "ann"), person(h, "carl")
    quick(ann, wait_s=1, overrides={"target": 1})
    h.advance(1.1, step=0.5)
    a, _ = where(h, ann)
    assert a.status == "playing"
    snap = quick(carl, overrides={"target": 1})
    assert snap.table["id"] == a.id and snap.your_seat is None
    play_a_round(h, [ann], a)
    h.advance(0.1, step=0.05)
    assert status(a) == "finished"
    table, seat = where(h, carl)
    assert table is not a and seat == 0
    seated = [m for m in carl.of(C.Snapshot) if m.re is None and m.table["id"] == table.id]
    assert seated and seated[-1].your_seat == 0
    told = [m for m in carl.of(C.ChatMessage) if m.code == "quick_moved"]
    assert len(told) == 1 and told[0].args == {"table": table.name}
    assert told[0].table_id == table.id
    assert holders(h) == {ann.sid: 1, carl.sid: 1}
