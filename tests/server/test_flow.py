"""What a client written from docs/protocol.md can rely on: the start-of-game sequence,
timers, resume signals, server-made passes, stats, bot names and error codes."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import msgpack
import pytest
from helpers.server import VERSIONS, FakeClient, Harness, answer_prompts

from leekha.common import cards as C
from leekha.protocol import catalogue as M
from leekha.protocol.codec import encode
from leekha.protocol.errors import APPLICATION_ERRORS, ENGINE_ERRORS, PROTOCOL_ERRORS
from leekha.protocol.message import Message
from leekha.server.settings import SettingsError, load_settings

ROOT = Path(__file__).resolve().parents[2]


def started(h: Harness, name: str = "alice", **create: object) -> tuple[FakeClient, int]:
    alice = h.player(name)
    tid = h.table_with_bots(alice, **create)  # type: ignore[arg-type]
    alice.drain()
    assert isinstance(alice.request(M.Start(id=alice.rid())), M.Ok)
    return alice, tid


def resumed_after(
    h: Harness, client: FakeClient, seconds: float, step: float, rid: int
) -> list[Message]:
    """The client's link drops; `seconds` later a new connection resumes its session with
    request id `rid`: what that connection is sent."""
    token = client.token or ""
    client.drop()
    h.advance(seconds, step=step)
    back = h.connect()
    back.send(M.Resume(id=rid, versions=VERSIONS, token=token))
    return back.drain()


# ---- 1. the start of a game -------------------------------------------------------------


def test_round_0_begins_with_dealt_after_a_snapshot_then_the_pass_prompt() -> None:
    h = Harness()
    alice = h.player("alice")
    tid = h.table_with_bots(alice)
    watcher = h.player("wendy")
    assert isinstance(watcher.request(M.Spectate(id=watcher.rid(), table_id=tid)), M.Snapshot)
    alice.drain()
    watcher.drain()
    alice.send(M.Start(id=77))
    msgs = alice.drain()
    kinds = [type(m) for m in msgs]
    assert kinds[:4] == [M.Ok, M.Snapshot, M.Dealt, M.YourTurn], kinds
    _ok, snap, dealt, prompt = msgs[:4]
    game = h.lobby.tables[tid].game
    assert game is not None
    hand = C.cards_of(game.hands[0])
    assert isinstance(snap, M.Snapshot) and snap.re is None and snap.your_seat == 0
    assert snap.table["status"] == "playing"
    assert snap.view is not None and snap.view["round"] == 0 and snap.view["hand"] == hand
    assert isinstance(dealt, M.Dealt)
    assert (dealt.round, dealt.dealer, dealt.hand) == (0, game.dealer, hand)
    assert dealt.pass_to == game.pass_target(0)
    assert isinstance(prompt, M.YourTurn) and prompt.phase == "pass"
    # A spectator gets the same sequence with no hand, and no prompt.
    seen = watcher.drain()
    snap_w, dealt_w = seen[0], seen[1]
    assert isinstance(snap_w, M.Snapshot) and snap_w.your_seat is None
    assert isinstance(dealt_w, M.Dealt) and dealt_w.round == 0 and dealt_w.hand == []
    assert not [m for m in seen if isinstance(m, M.YourTurn)]


def test_every_later_round_begins_with_dealt_too() -> None:
    h = Harness()
    alice, tid = started(h)
    game = h.lobby.tables[tid].game
    assert game is not None
    rounds: list[int] = []
    for _ in range(4000):
        answer_prompts(h, alice, tid)
        rounds += [m.round for m in alice.inbox if isinstance(m, M.Dealt)]
        alice.inbox = [m for m in alice.inbox if not isinstance(m, M.Dealt)]
        if game.round_no >= 1 and game.phase == "pass":
            break
        h.advance(0.05, step=0.05)
    assert rounds[:2] == [0, 1]


# ---- 2. timers ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("asked", "expected_s", "expected_deadline"),
    [
        ({}, 45, 45.0),  # absent: the server's default
        ({"pass_timer_s": None}, 45, 45.0),  # null: the server's default
        ({"pass_timer_s": 0}, None, None),  # 0: untimed
        ({"pass_timer_s": 12}, 12, 12.0),
    ],
)
def test_create_table_timers_null_is_the_default_and_zero_is_untimed(
    asked: dict[str, object], expected_s: int | None, expected_deadline: float | None
) -> None:
    h = Harness(default_pass_timer_s=45.0, default_turn_timer_s=20.0)
    alice = h.player("alice")
    snap = alice.request(M.CreateTable(id=alice.rid(), name="t", **asked))  # type: ignore[arg-type]
    assert isinstance(snap, M.Snapshot)
    assert snap.table["timers"] == {"pass_s": expected_s, "turn_s": 20}
    for seat in (1, 2, 3):
        alice.request(M.AddBot(id=alice.rid(), seat=seat, strategy="random"))
    alice.request(M.Start(id=alice.rid()))
    (prompt,) = alice.of(M.YourTurn)
    assert prompt.deadline == expected_deadline
    table = h.lobby.tables[int(snap.table["id"])]
    h.advance(50, step=1.0)
    assert table.game is not None
    assert (table.game.passed[0] is None) == (expected_s is None)


def test_untimed_when_the_server_default_is_zero() -> None:
    h = Harness(default_pass_timer_s=0.0, default_turn_timer_s=0.0)
    alice = h.player("alice")
    snap = alice.request(M.CreateTable(id=alice.rid(), name="t"))
    assert isinstance(snap, M.Snapshot) and snap.table["timers"] == {"pass_s": None, "turn_s": None}


@pytest.mark.parametrize("bad", [-1, 3601])
def test_timer_out_of_range_is_a_protocol_error(bad: int) -> None:
    h = Harness()
    alice = h.player("alice")
    frame = encode(M.CreateTable(id=9, name="t"))
    # Re-encode by hand with an out-of-range timer (the class would refuse to build it).
    body = msgpack.unpackb(frame[4:])
    body["pass_timer_s"] = bad
    raw = msgpack.packb(body)
    alice.raw(len(raw).to_bytes(4, "big") + raw)
    (err,) = alice.of(M.Error)
    assert err.code == "bad_field" and "pass_timer_s" in err.message and err.re == 9
    assert alice.closed


# ---- 4. resume signals ------------------------------------------------------------------


def test_resume_says_where_the_session_sits_and_resends_the_prompt_with_time_left() -> None:
    h = Harness(default_pass_timer_s=60.0, seat_grace_s=120.0)
    alice, tid = started(h)
    alice.drain()
    h.advance(10.0, step=1.0)
    msgs = resumed_after(h, alice, 5.0, step=1.0, rid=3)
    welcome, snap = msgs[0], msgs[1]
    assert isinstance(welcome, M.Welcome) and welcome.resumed
    assert (welcome.table_id, welcome.seat) == (tid, 0)
    assert isinstance(snap, M.Snapshot) and snap.re is None and snap.your_seat == 0
    (prompt,) = [m for m in msgs if isinstance(m, M.YourTurn)]
    assert prompt.phase == "pass" and prompt.deadline == pytest.approx(45.0)
    assert msgs.index(prompt) > msgs.index(snap)


def test_resume_into_the_lobby_has_no_table_and_no_snapshot() -> None:
    h = Harness(seat_grace_s=5.0)
    alice = h.player("alice")
    h.table_with_bots(alice)  # waiting: an absent player's seat is freed after grace
    msgs = resumed_after(h, alice, 6.0, step=0.5, rid=4)
    assert len(msgs) == 1 and isinstance(msgs[0], M.Welcome) and msgs[0].resumed
    assert (msgs[0].table_id, msgs[0].seat) == (None, None)


def test_resume_while_spectating_gives_the_table_and_no_seat() -> None:
    h = Harness()
    alice = h.player("alice")
    tid = h.table_with_bots(alice)
    bob = h.player("bob")
    bob.request(M.Spectate(id=bob.rid(), table_id=tid))
    other = h.connect()  # bob's session moves to a new connection (the old one is kicked)
    other.send(M.Resume(id=1, versions=VERSIONS, token=bob.token or ""))
    msgs = other.drain()
    assert isinstance(msgs[0], M.Welcome) and (msgs[0].table_id, msgs[0].seat) == (tid, None)
    assert isinstance(msgs[1], M.Snapshot) and msgs[1].your_seat is None


def test_hello_welcome_has_no_table() -> None:
    h = Harness()
    welcome = h.connect().hello("zed")
    assert (welcome.table_id, welcome.seat, welcome.resumed) == (None, None, False)


def test_replies_come_in_request_order_even_pipelined() -> None:
    h = Harness()
    alice = h.player("alice")
    snap = alice.request(M.CreateTable(id=1, name="t"))
    assert isinstance(snap, M.Snapshot)
    batch = [
        M.AddBot(id=10, seat=1),
        M.Ping(id=11),
        M.AddBot(id=12, seat=1),  # refused: seat taken
        M.ListTables(id=13),
        M.AddBot(id=14, seat=2),
        M.GetStats(id=15),  # 1.1: refused to this 1.0 session, in its place
    ]
    alice.raw(b"".join(encode(m) for m in batch))
    replies = [m for m in alice.drain() if getattr(m, "re", None) is not None]
    assert [m.re for m in replies] == [10, 11, 12, 13, 14, 15]  # type: ignore[attr-defined]
    assert [type(m) for m in replies] == [M.Ok, M.Pong, M.Error, M.TableList, M.Ok, M.Error]
    assert replies[-1].code == "unknown_type"  # type: ignore[attr-defined]


# ---- 5. the seat view's can_double and rules -------------------------------------------------


def test_views_and_pass_prompts_carry_can_double_and_rules() -> None:
    h = Harness()
    # Find a seed where seat 0 is dealt a Leekha card, so can_double is not empty.
    for seed in range(1000, 1100):
        h.lobby.new_seed = itertools.repeat(seed).__next__
        alice, tid = started(h, f"p{seed}", overrides={"doubling": True})
        game = h.lobby.tables[tid].game
        assert game is not None
        if game.can_double(0):
            break
        alice.request(M.Leave(id=alice.rid()))
    assert game is not None
    expected = game.can_double(0)
    snap = next(m for m in alice.inbox if isinstance(m, M.Snapshot) and m.re is None)
    assert snap.view is not None
    assert snap.view["can_double"] == expected and expected
    assert snap.view["rules"] == game.config.to_dict() and snap.view["rules"]["doubling"]
    (prompt,) = alice.of(M.YourTurn)
    assert prompt.phase == "pass" and prompt.can_double == expected
    reply = alice.request(M.DeclareDouble(id=alice.rid(), card=expected[0]))
    assert isinstance(reply, M.Ok)


# ---- 9. the server passes for a seat ----------------------------------------------------------


def test_a_timed_out_pass_is_followed_by_a_snapshot_naming_the_cards() -> None:
    h = Harness(default_pass_timer_s=10.0, default_turn_timer_s=0.0, bot_think_ms=1)
    alice, tid = started(h)
    game = h.lobby.tables[tid].game
    assert game is not None
    alice.drain()
    h.advance(10.5, step=0.1)
    assert game.passed[0] is not None
    msgs = alice.drain()
    done = next(i for i, m in enumerate(msgs) if isinstance(m, M.PassDone) and m.seat == 0)
    snaps = [(i, m) for i, m in enumerate(msgs) if isinstance(m, M.Snapshot)]
    assert len(snaps) == 1, "exactly one snapshot, for the server-made pass"
    i, snap = snaps[0]
    assert i > done and snap.re is None and snap.view is not None
    assert snap.view["passed"] == C.cards_of(game.passed[0])
    assert snap.view["passes_done"][0]


def test_a_players_own_pass_and_plays_bring_no_extra_snapshot() -> None:
    h = Harness(bot_think_ms=1)
    alice, tid = started(h)
    game = h.lobby.tables[tid].game
    assert game is not None
    alice.drain()
    for _ in range(200):
        answer_prompts(h, alice, tid)
        h.advance(0.05, step=0.05)
        if len(game.tricks) >= 3:
            break
    assert not alice.of(M.Snapshot)


# ---- 7. stats ---------------------------------------------------------------------------------


def _stats_reader(h: Harness, name: str = "reader") -> FakeClient:
    """A 1.1 session: `get_stats` came with 1.1 (a 1.0 session is told it is unknown)."""
    client = h.connect()
    welcome = client.request(M.Hello(id=client.rid(), versions=[[1, 1]], name=name))
    assert isinstance(welcome, M.Welcome)
    return client


def test_get_stats_serves_finished_games_from_the_store() -> None:
    h = Harness()
    games = (
        [
            ("alice", False, True, 20, 4),
            ("bot", True, False, 30, 4),
            ("carol", False, False, 50, 4),
            ("dave", False, False, 60, 4),
        ],
        [
            ("alice", False, False, 30, 6),
            ("bot", True, True, 0, 6),
            ("carol", False, False, 20, 6),
            ("erin", False, True, 10, 6),
        ],
    )
    for players in games:
        h.store.finish_game(1, "t", {"version": 1}, players)
    alice = _stats_reader(h, "alice")
    everyone = alice.request(M.GetStats(id=alice.rid()))
    assert isinstance(everyone, M.Stats)
    by_name = {p["name"]: p for p in everyone.players}
    assert set(by_name) == {"alice", "carol", "dave", "erin"}, "bots are left out"
    assert [p["name"] for p in everyone.players[:2]] == ["alice", "carol"]  # most games first
    assert by_name["alice"] == {
        "name": "alice",
        "games": 2,
        "wins": 1,
        "avg_points_per_round": pytest.approx(5.0),
        "rating": None,  # a guest: no key claimed the name, so no rating
        "rating_sigma": None,
        "leekhas": 0,  # these stored games carry no facts
        "moons": 0,
    }
    one = alice.request(M.GetStats(id=alice.rid(), name="erin"))
    assert isinstance(one, M.Stats) and [p["name"] for p in one.players] == ["erin"]
    none = alice.request(M.GetStats(id=alice.rid(), name="nobody"))
    assert isinstance(none, M.Stats) and none.players == []


def test_stats_of_a_real_game() -> None:
    h = Harness()
    alice, tid = started(h, overrides={"target": 30})
    game = h.lobby.tables[tid].game
    assert game is not None
    for _ in range(20000):
        answer_prompts(h, alice, tid)
        if game.outcome is not None:
            break
        h.advance(0.05, step=0.05)
    assert game.outcome is not None
    reader = _stats_reader(h)
    reply = reader.request(M.GetStats(id=reader.rid(), name="alice"))
    assert isinstance(reply, M.Stats)
    (line,) = reply.players
    rounds = len(game.history)
    assert line["games"] == 1 and line["wins"] == int(0 in game.outcome.winners)
    points = sum(r[0] for r in game.history)
    assert line["avg_points_per_round"] == pytest.approx(points / rounds, abs=1e-3)


# ---- 8. bot strategies ------------------------------------------------------------------------


def test_add_bot_defaults_to_heuristic_and_basic_is_an_alias() -> None:
    h = Harness()
    alice = h.player("alice")
    alice.request(M.CreateTable(id=alice.rid(), name="t"))
    alice.drain()
    assert M.AddBot(id=1, seat=1).strategy == "heuristic"
    for seat, kw in ((1, {}), (2, {"strategy": "basic"}), (3, {"strategy": "search"})):
        assert isinstance(alice.request(M.AddBot(id=alice.rid(), seat=seat, **kw)), M.Ok)
    strategies = {u.seat: u.player["strategy"] for u in alice.of(M.SeatUpdate)}
    assert strategies == {1: "heuristic", 2: "heuristic", 3: "search"}
    alice.request(M.RemoveBot(id=alice.rid(), seat=1))
    reply = alice.request(M.AddBot(id=alice.rid(), seat=1, strategy="module:Evil"))
    assert isinstance(reply, M.Error) and reply.code == "no_such_bot"
    for name in ("random", "heuristic", "search"):
        assert f"`{name}`" in (ROOT / "docs/protocol.md").read_text("utf-8")


# ---- 6. every code the server sends is in the catalogue ----------------------------------------


def test_every_error_code_the_server_uses_is_catalogued() -> None:
    known = set(PROTOCOL_ERRORS) | set(ENGINE_ERRORS) | set(APPLICATION_ERRORS)
    used: set[str] = set()
    pattern = re.compile(r'(?:Refused|\.kick|\.shutdown|M\.Error)\(\s*(?:code=)?"([a-z_]+)"')
    for path in (ROOT / "server").rglob("*.py"):
        used |= set(pattern.findall(path.read_text("utf-8")))
    assert {"server_shutdown", "server_full", "hello_timeout", "session_replaced"} <= used
    assert "already_welcomed" in used
    assert used <= known, used - known


def test_already_welcomed_is_refused_and_the_session_stays() -> None:
    h = Harness()
    alice = h.player("alice")
    reply = alice.request(M.Hello(id=alice.rid(), versions=VERSIONS, name="again"))
    assert isinstance(reply, M.Error) and reply.code == "already_welcomed" and not alice.closed


# ---- 10. settings cannot exceed what the protocol carries -------------------------------------


@pytest.mark.parametrize(
    ("key", "ok", "too_big"), [("max_name_len", 64, 65), ("max_chat_len", 1000, 1001)]
)
def test_settings_cap_lengths_at_the_protocol_limits(key: str, ok: int, too_big: int) -> None:
    assert getattr(load_settings(None, {key: ok}), key) == ok
    with pytest.raises(SettingsError) as info:
        load_settings(None, {key: too_big})
    assert info.value.key == key
    assert key in str(info.value) and "protocol" in str(info.value)
