"""The client folds the server's facts (protocol 1.4) without a terminal or a socket:
events in, state and screen out. Turn marker and countdown for spectators, the countdown
from the server's figure, a bot in a person's seat, status lines and chat that belong to
where they were said, and a spectator that watches the same table after a restart."""

from __future__ import annotations

from helpers.model import HAND, PLAYERS, seat_info, table

from leekha import protocol as P
from leekha.client.core import intents as I
from leekha.client.tui import model as M
from leekha.client.tui.layout import render_text
from leekha.protocol.views import PlayerInfo, TableSummary


def rid(req: P.Message | None) -> int:
    """The id of a request the model sent."""
    value = getattr(req, "id", None)
    assert isinstance(value, int)
    return value


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def welcomed(clock: Clock, name: str = "ann") -> M.ClientModel:
    m = M.ClientModel(name, clock=clock)
    m.apply(P.Welcome(re=1, version=[1, 4], server="srv", token="t" * 16, name=name))
    m.take_outbox()
    return m


def people() -> list[PlayerInfo]:
    out = [p.copy() for p in PLAYERS]
    out[1] = {**seat_info("bob"), "control": "human"}
    return out


def watching(clock: Clock) -> M.ClientModel:
    """cat spectates table 7 in its pass phase."""
    m = welcomed(clock, "cat")
    req = m.shared.request(I.Spectate(7))
    m.apply(P.Snapshot(re=rid(req), table=table("playing"), view=None, your_seat=None,
                       players=people()))  # fmt: skip
    m.apply(P.Dealt(round=0, dealer=3, hand=[], pass_to=None))
    m.take_outbox()
    return m


def test_a_spectator_sees_play_start_the_turn_marker_and_a_countdown() -> None:
    clock = Clock()
    m = watching(clock)
    for seat in range(4):
        m.apply(P.PassDone(seat=seat))
    # no passed_received comes to a spectator: the server's `turn` starts play on screen
    m.apply(P.Turn(phase="play", seats=[[0, 20.0]]))
    assert m.game.view is not None and m.game.view.phase == "play" and m.game.view.turn == 0
    screen = render_text(m)
    assert "◀ turn" in screen and "⏱ 20s" in screen and "passed" not in screen
    clock.now += 7
    assert "⏱ 13s" in render_text(m)
    m.apply(P.CardPlayed(seat=0, card=HAND[0]))
    m.apply(P.Turn(phase="play", seats=[[1, 20.0]]))
    assert m.game.view is not None and m.game.view.turn == 1 and m.game.seat_seconds_left(1) == 20


def test_a_resumed_client_counts_down_from_the_servers_figure() -> None:
    clock = Clock()
    m = welcomed(clock)
    m.apply(P.Snapshot(re=None, table=table("playing"), view=None, your_seat=0,
                       players=PLAYERS))  # fmt: skip
    m.apply(P.Dealt(round=0, dealer=3, hand=HAND, pass_to=1))
    m.apply(P.YourTurn(phase="pass", legal=HAND, deadline=60.0))
    # The server's clock says 12.5 s are left (a resume: the clock kept running there).
    m.apply(P.Turn(phase="pass", seats=[[0, 12.5]]))
    assert m.alarm.seconds_left() == 13
    clock.now += 12.4
    assert m.alarm.seconds_left() == 1
    clock.now += 0.2
    assert m.alarm.seconds_left() == 0


def test_a_bot_in_bobs_seat_is_said_on_every_screen_and_one_key_takes_it_back() -> None:
    clock = Clock()
    ann = welcomed(clock)
    ann.apply(P.Snapshot(re=None, table=table("playing"), view=None, your_seat=0,
                         players=people()))  # fmt: skip
    ann.apply(P.Dealt(round=0, dealer=3, hand=HAND, pass_to=1))
    bob = welcomed(clock, "bob")
    bob.apply(P.Snapshot(re=None, table=table("playing"), view=None, your_seat=1,
                         players=people()))  # fmt: skip
    bob.apply(P.Dealt(round=0, dealer=3, hand=HAND, pass_to=2))
    cat = watching(clock)
    autopilot: PlayerInfo = {**people()[1], "strategy": "heuristic", "control": "autopilot",
                 "control_reason": "timeouts"}  # fmt: skip
    notice = P.ChatMessage(sender="*", text="x", table_id=7, code="timeouts_bot",
                           args={"name": "bob", "seat": 1, "count": 2})  # fmt: skip
    for m in (ann, bob, cat):
        m.apply(P.SeatUpdate(table_id=7, seat=1, player=autopilot))
        m.apply(notice)
    for m in (ann, cat):
        screen = render_text(m)
        assert "a bot plays for bob" in screen and "[a bot plays]" in screen
    assert "press Enter or a card key to take your seat back" in bob.status
    assert "take your seat back" in render_text(bob)  # the hints say it too
    bob.take_outbox()
    bob.choose(0)  # a card key
    (req,) = bob.take_outbox()
    assert isinstance(req, P.TakeBack)
    back: PlayerInfo = {**autopilot, "strategy": None, "control": "human", "control_reason": None}
    took = P.ChatMessage(sender="*", text="x", table_id=7, code="took_back",
                         args={"name": "bob", "seat": 1})  # fmt: skip
    for m in (ann, bob, cat):
        m.apply(P.SeatUpdate(table_id=7, seat=1, player=back))
        m.apply(took)
        assert "[a bot plays]" not in render_text(m)
    assert "bob takes the seat back from the bot" in render_text(cat)
    assert bob.status == "your seat is yours again"


def test_status_lines_go_when_the_state_they_describe_changes() -> None:
    clock = Clock()
    m = welcomed(clock)
    m.apply(P.TableList(re=None, tables=[table("waiting")]))
    req = m.shared.request(I.JoinTable(7, "nope"))
    m.apply(P.Error(code="bad_password", message="wrong or missing table password", re=rid(req)))
    prompt = m.boxes.password_prompt  # a wrong password is asked for again, not a status line
    assert prompt is not None and prompt.why == "Wrong password: try again."
    req = m.shared.request(I.JoinTable(7, "sesame"))
    m.apply(P.Snapshot(re=rid(req), table=table("waiting"), view=None, your_seat=0,
                       players=PLAYERS))  # fmt: skip
    assert "password" not in m.status.lower()
    req = m.shared.request(I.Start())
    m.apply(P.Error(code="not_ready", message="x", re=rid(req), rule="seats_empty",
                    args={"seats": [1, 2, 3]}))  # fmt: skip
    assert "seats 2, 3 and 4 are empty" in m.status
    m.apply(P.TableUpdate(table_id=7, table=table("playing")))
    assert m.status == ""
    m.at_table.leave()
    assert "press L again" in m.status
    m.at_table.leave()
    (leave,) = [r for r in m.take_outbox() if isinstance(r, P.Leave)]
    m.apply(P.Ok(re=leave.id))
    assert m.screen == M.LOBBY and "press L again" not in m.status


def test_a_new_table_starts_with_its_own_chat() -> None:
    clock = Clock()
    m = welcomed(clock)
    m.apply(P.Snapshot(re=None, table=table("waiting"), view=None, your_seat=0,
                       players=PLAYERS))  # fmt: skip
    m.apply(P.ChatMessage(sender="bob", text="first table", table_id=7))
    assert [t for _w, t in m.chat] == ["first table"]
    req = m.shared.request(I.Leave())
    m.apply(P.Ok(re=rid(req)))
    m.apply(P.ChatMessage(sender="zed", text="in the lobby", table_id=None))
    other: TableSummary = {**table("waiting"), "id": 8}
    req = m.shared.request(I.JoinTable(8))
    m.apply(P.Snapshot(re=rid(req), table=other, view=None, your_seat=1, players=PLAYERS))
    assert list(m.chat) == []  # the server replays table 8's own lines next
    m.apply(P.ChatMessage(sender="eve", text="second table", table_id=8))
    assert [t for _w, t in m.chat] == ["second table"]
    assert "first table" not in render_text(m)


def test_after_a_server_restart_the_spectator_watches_the_same_table() -> None:
    clock = Clock()
    m = watching(clock)
    m.connection_lost("gone")
    # the restarted server resumes the session in the lobby (it keeps no watchers)
    m.apply(P.Welcome(re=1, version=[1, 4], server="srv", token="t" * 16, name="cat",
                      resumed=True, table_id=None, seat=None))  # fmt: skip
    (req,) = m.take_outbox()
    assert isinstance(req, P.Spectate) and req.table_id == 7
    m.apply(P.Snapshot(re=rid(req), table=table("playing"), view=None, your_seat=None,
                       players=people()))  # fmt: skip
    assert m.screen == M.TABLE and m.game.table is not None and m.game.table["id"] == 7
