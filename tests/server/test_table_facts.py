"""Protocol 1.4 at a table: the turn clock and the seat's controller reach everyone there,
spectators included; a seat that times out twice is announced and taken back; a 1.3
client hears none of the new messages. On the fake clock, without sockets."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import pytest
from helpers.server import FakeClient, Harness, created_table

from leekha.protocol import catalogue as M
from leekha.protocol.message import Message
from leekha.server.domain.tableclock import TurnClock
from leekha.server.domain.turns import Key

V14 = [[1, 4]]


def player(h: Harness, name: str, versions: list[list[int]] | None = None) -> FakeClient:
    c = h.connect()
    reply = c.request(M.Hello(id=c.rid(), versions=versions or V14, name=name))
    assert isinstance(reply, M.Welcome), reply
    c.token = reply.token
    return c


def table(h: Harness, **create: Any) -> tuple[FakeClient, FakeClient, FakeClient, int]:
    """ann hosts, bob sits at seat 1, bots at 2 and 3, cat watches; the game starts."""
    ann, bob, cat = player(h, "ann"), player(h, "bob"), player(h, "cat")
    tid = created_table(ann.request(M.CreateTable(id=ann.rid(), name="x", **create)))
    bob.request(M.JoinSeat(id=bob.rid(), table_id=tid, seat=1))
    for seat in (2, 3):
        ann.request(M.AddBot(id=ann.rid(), seat=seat, strategy="random"))
    cat.request(M.Spectate(id=cat.rid(), table_id=tid))
    assert isinstance(ann.request(M.Start(id=ann.rid())), M.Ok)
    h.advance(0.2)
    return ann, bob, cat, tid


def last_turn(c: FakeClient) -> M.Turn:
    turns = [m for m in c.drain() if isinstance(m, M.Turn)]
    assert turns, "no turn message"
    return turns[-1]


def test_everyone_hears_whose_turn_it_is_with_the_servers_time_left() -> None:
    h = Harness(default_pass_timer_s=40, default_turn_timer_s=20, bot_think_ms=0)
    ann, bob, cat, _tid = table(h)
    for c in (ann, bob, cat):
        turn = last_turn(c)
        assert turn.phase == "pass"
        waiting = dict((s, left) for s, left in turn.seats)
        assert set(waiting) == {0, 1}  # the bots passed at once; the people have the clock
        assert all(left is not None and 39 <= left <= 40 for left in waiting.values())
    h.advance(5)
    # A watcher who comes now hears the clock as it runs: 35 s left, not a fresh 40.
    dan = player(h, "dan")
    dan.request(M.Spectate(id=dan.rid(), table_id=_tid))
    h.advance(0.1)
    waiting = dict((s, left) for s, left in last_turn(dan).seats)
    assert waiting[0] is not None and 34 <= waiting[0] <= 35.1


def test_two_timeouts_put_a_bot_in_the_seat_for_all_and_one_request_takes_it_back() -> None:
    h = Harness(default_pass_timer_s=10, default_turn_timer_s=5, bot_think_ms=0)
    ann, bob, cat, _tid = table(h)
    for c in (ann, bob, cat):
        c.drain()
    # bob never moves: his pass times out, then his card plays, until a bot takes over
    seen: list[M.ChatMessage] = []
    for _ in range(200):
        h.advance(1)
        heard = cat.drain()
        seen += [m for m in heard if isinstance(m, M.ChatMessage) and m.code == "timeouts_bot"]
        ann_turns = [m for m in ann.drain() if isinstance(m, M.YourTurn)]
        for t in ann_turns:  # ann keeps playing, so the game goes on
            if t.phase == "pass":
                ann.request(M.PassCards(id=ann.rid(), cards=t.legal[:3]))
            else:
                ann.request(M.PlayCard(id=ann.rid(), card=t.legal[0]))
        if seen:
            break
    (notice,) = seen
    assert notice.args == {"name": "bob", "seat": 1, "count": 2} and notice.text
    # everyone at the table holds the seat's controller: a bot for bob, for his timeouts
    updates = [m for m in bob.drain() if isinstance(m, M.SeatUpdate) and m.seat == 1]
    assert updates and updates[-1].player["control"] == "autopilot"
    assert updates[-1].player["control_reason"] == "timeouts"
    assert isinstance(bob.request(M.TakeBack(id=bob.rid())), M.Ok)
    h.advance(0.1)
    for c in (ann, cat):
        heard = c.drain()
        back = [m for m in heard if isinstance(m, M.SeatUpdate) and m.seat == 1]
        assert back and back[-1].player["control"] == "human", heard
        notes = [m.code for m in heard if isinstance(m, M.ChatMessage)]
        assert "took_back" in notes


def test_a_13_client_at_the_table_never_gets_a_14_message() -> None:
    h = Harness(default_pass_timer_s=40, bot_think_ms=0)
    ann = player(h, "ann")
    old = player(h, "old", [[1, 3]])
    tid = created_table(ann.request(M.CreateTable(id=ann.rid(), name="x")))
    old.request(M.Spectate(id=old.rid(), table_id=tid))
    for seat in (1, 2, 3):
        ann.request(M.AddBot(id=ann.rid(), seat=seat, strategy="random"))
    ann.request(M.Start(id=ann.rid()))
    h.advance(0.5)
    heard = old.drain()
    assert heard and not any(isinstance(m, M.Turn) for m in heard)
    assert any(isinstance(m, M.Turn) for m in ann.drain())
    assert not old.closed


def test_a_turn_is_built_only_while_someone_here_reads_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A table of 1.0-1.3 clients costs no `turn` at each move (one would be built and
    dropped at every member); a 1.4 watcher who comes gets the clock on joining and
    every change after, and the older clients still get none."""
    built: list[M.Turn] = []
    original = TurnClock.message

    def message(clock: TurnClock, needs: dict[int, Key] | None = None) -> M.Turn:
        built.append(original(clock, needs))
        return built[-1]

    monkeypatch.setattr(TurnClock, "message", message)
    h = Harness(default_pass_timer_s=40, default_turn_timer_s=20, bot_think_ms=0)
    ann = player(h, "ann", [[1, 3]])
    old = player(h, "old", [[1, 0]])
    tid = created_table(ann.request(M.CreateTable(id=ann.rid(), name="x")))
    old.request(M.Spectate(id=old.rid(), table_id=tid))
    for seat in (1, 2, 3):
        ann.request(M.AddBot(id=ann.rid(), seat=seat, strategy="random"))
    assert isinstance(ann.request(M.Start(id=ann.rid())), M.Ok)
    h.advance(0.5)
    (prompt,) = [m for m in ann.drain() if isinstance(m, M.YourTurn)]
    assert prompt.phase == "pass"
    assert built == []
    new = player(h, "new")
    new.request(M.Spectate(id=new.rid(), table_id=tid))
    h.advance(0.1)
    (joined,) = [m for m in new.drain() if isinstance(m, M.Turn)]
    assert joined.phase == "pass" and [s for s, _ in joined.seats] == [0]
    assert len(built) == 1
    ann.request(M.PassCards(id=ann.rid(), cards=prompt.legal[:3]))
    h.advance(0.5)
    turns = [m for m in new.drain() if isinstance(m, M.Turn)]
    assert turns and turns[-1].phase == "play"
    assert len(built) == 1 + len(turns)
    for c in (ann, old):
        assert not any(isinstance(m, M.Turn) for m in c.drain())


def test_a_move_reaches_each_member_in_one_delivery_in_the_order_it_happened(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What a person's move makes each member hear (its events, the next person's
    `your_turn`, the `turn`) goes to each connection in one batch, in that order."""
    h = Harness(default_pass_timer_s=40, default_turn_timer_s=20, bot_think_ms=0)
    ann, bob, cat, tid = table(h)
    clients = {c.sid: c for c in (ann, bob, cat)}
    batches: list[tuple[str, list[str]]] = []
    single: list[str] = []
    lobby = h.lobby
    deliver_all, deliver = lobby.deliver_all, lobby.deliver

    def spy_all(token: str, msgs: Sequence[Message]) -> None:
        batches.append((token, [m.TYPE for m in msgs]))
        deliver_all(token, msgs)

    def spy(token: str, msg: Message) -> None:
        single.append(msg.TYPE)
        deliver(token, msg)

    monkeypatch.setattr(lobby, "deliver_all", spy_all)
    monkeypatch.setattr(lobby, "deliver", spy)
    table_ = lobby.tables[tid]
    pending: dict[str, M.YourTurn] = {}
    checked, prompted_seen = 0, 0
    for _ in range(400):  # the bots play at once; the people answer their prompts
        h.advance(0.1)
        for c in (ann, bob):
            for m in c.drain():
                if isinstance(m, M.YourTurn):
                    pending[c.sid] = m
        if not pending:
            continue
        sid, prompt = pending.popitem()
        mover = clients[sid]
        if prompt.phase == "pass":  # three cards the rules allow
            for cards in itertools.combinations(prompt.legal, 3):
                if isinstance(mover.request(M.PassCards(id=mover.rid(), cards=list(cards))), M.Ok):
                    break
            continue
        if prompt.phase != "play":
            continue
        for c in clients.values():
            c.drain()
        batches.clear()
        single.clear()
        assert isinstance(mover.request(M.PlayCard(id=mover.rid(), card=prompt.legal[0])), M.Ok)
        checked += 1
        assert single == []
        assert sorted(token for token, _ in batches) == sorted(clients)  # one each
        nxt = table_.needs()
        for token, types in batches:
            heard = clients[token].drain()
            # Nothing else reached them, and in the batch's order (the reply first).
            assert [m.TYPE for m in heard if not isinstance(m, M.Ok)] == types
            assert types[0] == "card_played" and types[-1] == "turn"
            seat = table_.seat_of(token)
            if seat is not None and seat in nxt:  # their decision now: prompted, then turn
                assert types[-2:] == ["your_turn", "turn"]
                prompted_seen += 1
                (pending[token],) = [m for m in heard if isinstance(m, M.YourTurn)]
            else:
                assert "your_turn" not in types
        if checked >= 12 and prompted_seen >= 2:
            break
    assert checked >= 12 and prompted_seen >= 2, (checked, prompted_seen)


def test_a_refused_card_names_the_rule_and_its_facts() -> None:
    h = Harness(bot_think_ms=0)
    ann = player(h, "ann")
    tid = h.table_with_bots(ann)
    ann.request(M.Start(id=ann.rid()))
    h.advance(0.2)
    prompt = [m for m in ann.drain() if isinstance(m, M.YourTurn)][-1]
    ann.request(M.PassCards(id=ann.rid(), cards=prompt.legal[:3]))
    for _ in range(100):
        h.advance(0.2)
        turns = [m for m in ann.drain() if isinstance(m, M.YourTurn) and m.phase == "play"]
        snap = None
        if turns:
            snap = ann.request(M.JoinSeat(id=ann.rid(), table_id=tid))  # refused: seated
            assert isinstance(snap, M.Error)
            view = h.lobby.tables[tid].view(0)
            assert view is not None
            illegal = [c for c in view["hand"] if c not in turns[-1].legal]
            if view["trick"] and illegal:
                reply = ann.request(M.PlayCard(id=ann.rid(), card=illegal[0]))
                assert isinstance(reply, M.Error) and reply.rule in (
                    "follow_suit",
                    "void_rule",
                    "talbees",
                    "undercut",
                )
                assert reply.args["card"] == illegal[0]
                legal = reply.args["legal"]
                assert isinstance(legal, list) and sorted(legal) == sorted(turns[-1].legal)
                return
            ann.request(M.PlayCard(id=ann.rid(), card=turns[-1].legal[0]))
    raise AssertionError("never had an illegal card to try")
