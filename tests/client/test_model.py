"""The client model as a pure state machine: feed it protocol messages and intents."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest
from helpers import records as R
from helpers.model import HAND, PLAYERS, at_table, play_phase, seat_info, table, welcomed

from leekha import protocol as P
from leekha.client.tui import model as M
from leekha.client.tui.forms import CreateForm, PasswordPrompt
from leekha.client.tui.layout import render_text
from leekha.common import cards as C
from leekha.common.events import SeatStats
from leekha.common.view import SeatViewDict
from leekha.protocol.views import PlayerStats, TableSummary


def dealt(now: list[float], **kw: Any) -> M.ClientModel:
    """ann at a playing table, dealt round 0, on a clock the test moves through `now[0]`."""
    m = M.ClientModel("ann", clock=lambda: now[0], **kw)
    m.apply(P.Welcome(re=1, version=[1, 0], server="srv", token="t" * 16, name="ann"))
    m.apply(P.Snapshot(re=None, table=table("playing"), view=None, your_seat=0, players=PLAYERS))
    m.apply(P.Dealt(round=0, dealer=3, hand=HAND, pass_to=1))
    return m


def test_welcome_moves_from_connecting_to_lobby_and_lists_tables() -> None:
    m = M.ClientModel("ann")
    assert m.screen == M.CONNECTING
    m.apply(P.Welcome(re=1, version=[1, 0], server="srv", token="t" * 16, name="ann2"))
    assert m.screen == M.LOBBY
    assert m.name == "ann2"
    assert [type(x) for x in m.take_outbox()] == [P.ListTables]


def test_lobby_lists_updates_and_joins_the_selected_table() -> None:
    m = welcomed()
    m.take_outbox()
    t1, t2 = table(), table() | {"id": 9, "name": "Other", "has_password": True}
    m.apply(P.TableList(re=None, tables=[t1]))
    m.apply(P.TableUpdate(table_id=9, table=t2))
    assert [t["id"] for t in m.lobby.rows()] == [7, 9]
    assert "Friday" in render_text(m) and "Other" in render_text(m)
    m.in_lobby.join_selected()
    assert m.take_outbox() == [P.JoinSeat(id=2, table_id=7)]
    m.lobby.move(1)
    m.in_lobby.join_selected(spectate=True)
    assert m.boxes.password_prompt == PasswordPrompt(
        9, spectate=True
    )  # a password table asks first
    m.in_lobby.password_type("s3")
    m.in_lobby.password_submit()
    assert m.take_outbox() == [P.Spectate(id=3, table_id=9, password="s3")]
    m.apply(P.TableUpdate(table_id=9, table=None))
    assert [t["id"] for t in m.lobby.rows()] == [7]


def test_create_form_sends_rules_password_and_timers() -> None:
    m = welcomed()
    m.take_outbox()
    m.in_lobby.open_form()
    assert m.boxes.form is not None
    m.in_lobby.form_move(1)
    m.in_lobby.form_change(1)  # preset -> levant
    m.in_lobby.form_move(1)
    m.in_lobby.form_change(1)  # target -> first choice
    m.in_lobby.form_move(1)
    m.in_lobby.form_type("pw")
    m.in_lobby.form_move(1)
    m.in_lobby.form_change(1)
    m.in_lobby.form_submit()
    (req,) = m.take_outbox()
    assert isinstance(req, P.CreateTable)
    assert req.preset == "levant" and req.overrides == {"target": 11}
    assert req.password == "pw" and req.pass_timer_s == 120 and req.turn_timer_s == 30


def test_waiting_room_host_adds_bots_and_starts() -> None:
    m = welcomed()
    m.take_outbox()
    players = [seat_info("ann", host=True), seat_info(None), seat_info(None), seat_info(None)]
    m.apply(P.Snapshot(re=None, table=table(), view=None, your_seat=0, players=players))
    assert m.screen == M.TABLE
    assert "waiting for players (1/4)" in render_text(m)
    m.at_table.add_bot("random")
    assert m.take_outbox() == [P.AddBot(id=2, seat=1, strategy="random")]
    m.apply(P.SeatUpdate(table_id=7, seat=1, player=seat_info("rb", bot=True)))
    m.at_table.add_bot("random")
    added = m.take_outbox()[0]
    assert isinstance(added, P.AddBot) and added.seat == 2
    m.at_table.start()
    assert isinstance(m.take_outbox()[0], P.Start)


def test_auto_setup_creates_fills_and_starts() -> None:
    auto = M.AutoSetup(name="solo", preset="classic", overrides={"target": 10}, bot="random")
    m = welcomed(auto=auto)
    (create,) = m.take_outbox()
    assert isinstance(create, P.CreateTable) and create.overrides == {"target": 10}
    players = [seat_info("ann", host=True)] + [seat_info(None)] * 3
    m.apply(P.Snapshot(re=create.id, table=table(), view=None, your_seat=0, players=players))
    sent = m.take_outbox()
    bots = [b for b in sent if isinstance(b, P.AddBot)]
    assert bots == sent and [b.seat for b in bots] == [1, 2, 3]
    for b in bots:
        m.apply(P.Ok(re=b.id))
    assert isinstance(m.take_outbox()[0], P.Start)


def test_pass_phase_choose_three_confirm_then_send() -> None:
    m = at_table()
    assert m.my_turn and m.game.phase == "pass"
    hand = m.hand
    pick = C.parse_cards("AH QH 7H")
    for card in pick:
        m.choose(hand.index(card))
    assert m.choices.pass_sel == set(pick)
    m.enter()
    assert m.choices.pass_confirm and not m.outbox  # first Enter only stages
    m.escape()
    # Esc backs out of the confirm, keeps the pick
    assert not m.choices.pass_confirm and m.choices.pass_sel
    m.enter()
    m.enter()
    (req,) = m.take_outbox()
    assert isinstance(req, P.PassCards) and req == P.PassCards(id=req.id, cards=sorted(pick))
    m.apply(P.Ok(re=req.id))
    assert len(m.hand) == 10 and not m.my_turn
    assert m.game.view is not None and m.game.view.passes_done[0]


def test_pass_ban_dims_the_last_card_of_a_suit() -> None:
    m = welcomed()
    m.apply(P.Snapshot(re=None, table=table("playing"), view=None, your_seat=0, players=PLAYERS))
    hand = C.parse_cards("2C 3D 4D 5D 2H 3H 4H 5H 6H 2S 3S 4S 5S")
    m.apply(P.Dealt(round=0, dealer=3, hand=hand, pass_to=1))
    two_c = C.parse_card("2C")
    assert two_c not in m.choices.pass_choosable()  # a singleton club may not be passed
    m.choose(m.hand.index(two_c))
    assert two_c not in m.choices.pass_sel and m.status_error
    assert "last of clubs" in m.status
    # choosing two diamonds leaves the third diamond choosable only if it is not the last
    for c in C.parse_cards("3D 4D"):
        m.choose(m.hand.index(c))
    assert C.parse_card("5D") not in m.choices.pass_choosable()


def test_doubling_prompt_when_rules_allow() -> None:
    m = at_table("levant")
    offer = m.choices.double_offer
    assert offer == [C.QUEEN_SPADES, C.TEN_DIAMONDS] or set(offer) == {
        C.QUEEN_SPADES,
        C.TEN_DIAMONDS,
    }
    assert "doubling" in render_text(m)
    m.take_outbox()
    first = m.choices.double_offer[0]
    m.choices.answer_double(True)
    assert m.take_outbox()[0] == P.DeclareDouble(id=2, card=first)
    m.choices.answer_double(False)
    assert not m.choices.double_offer and not m.outbox
    m.apply(P.DoubleRevealed(seat=0, card=first))
    assert m.game.view is not None and m.game.view.doubled == [[first, 0]]
    plain = at_table("classic")
    assert plain.choices.double_offer == []


def test_passed_received_starts_play_and_turn_arrives() -> None:
    m = play_phase()
    assert m.game.phase == "play" and len(m.hand) == 13
    assert "received" in m.status
    m.apply(P.YourTurn(phase="play", legal=[C.parse_card("2C")], deadline=30.0))
    assert m.my_turn and m.alarm.seconds_left() == 30
    assert m.choices.legal_plays() == {C.parse_card("2C")}


def test_play_needs_lift_then_confirm_and_refuses_illegal() -> None:
    m = play_phase()
    two_c = C.parse_card("2C")
    m.apply(P.YourTurn(phase="play", legal=[two_c], deadline=None))
    m.take_outbox()
    m.choose(m.hand.index(C.parse_card("AS")))
    assert m.choices.lifted is None and m.status_error  # illegal: not even lifted
    m.choose(m.hand.index(two_c))
    assert m.choices.lifted == two_c and not m.outbox
    m.escape()
    assert m.choices.lifted is None
    m.choices.cursor = m.hand.index(two_c)
    m.enter()
    m.enter()
    (req,) = m.take_outbox()
    assert isinstance(req, P.PlayCard) and req == P.PlayCard(id=req.id, card=two_c)
    m.apply(P.Error(code="must_follow_suit", message="You must follow clubs", re=req.id))
    assert m.status == "Play refused: you must follow the suit that was led" and m.status_error


def test_trick_events_score_and_keep_the_last_trick() -> None:
    m = play_phase()
    plays = [(0, "2C"), (1, "9C"), (2, "QH"), (3, "KC")]
    for seat, text in plays:
        m.apply(P.CardPlayed(seat=seat, card=C.parse_card(text)))
    assert m.game.view is not None and len(m.game.view.trick) == 4
    cards = [[s, C.parse_card(t)] for s, t in plays]
    m.apply(P.TrickTaken(winner=3, cards=cards, points=1))
    assert m.game.view.round_points == [0, 0, 0, 1]
    assert m.game.view.taken[3] == [C.parse_card("QH")]
    assert m.at_table.display_trick() == cards  # the finished trick stays visible
    assert "b3 takes it (+1)" in render_text(m)
    m.at_table.toggle_last_trick()
    assert m.at_table.show_last and "last trick" in render_text(m)
    m.apply(P.CardPlayed(seat=3, card=C.parse_card("4S")))
    assert m.at_table.display_trick() == [[3, C.parse_card("4S")]] and not m.at_table.show_last


def test_round_summary_and_game_over_with_rematch() -> None:
    m = play_phase()
    taken = [[], [C.QUEEN_SPADES], [C.TEN_DIAMONDS], C.parse_cards("2H 3H")]
    m.apply(P.RoundScored(round=0, round_points=[0, 13, 10, 2], totals=[0, 13, 10, 2], taken=taken))
    assert m.boxes.summary is not None
    text = render_text(m)
    assert "round 1 over" in text and "Q♠" in text
    m.enter()
    assert m.boxes.summary is None
    m.apply(P.GameOver(winners=[0], losers=[1], totals=[0, 113, 10, 2]))
    text = render_text(m)
    assert "You win!" in text and "loser:  b1" in text
    m.take_outbox()
    m.at_table.rematch()
    m.at_table.rematch()  # one vote only
    assert [type(x) for x in m.take_outbox()] == [P.Rematch]
    m.apply(P.Dealt(round=0, dealer=0, hand=HAND, pass_to=1))
    assert m.game.phase == "pass" and not m.at_table.rematch_voted


def test_seat_updates_show_away_and_bot() -> None:
    m = play_phase()
    m.apply(P.SeatUpdate(table_id=7, seat=2, player=seat_info("b2", bot=True)))
    away = seat_info("cy") | {"connected": False}
    m.apply(P.SeatUpdate(table_id=7, seat=1, player=away))
    text = render_text(m)
    assert "cy [away]" in text and "b2 [bot]" in text


def test_snapshot_replaces_everything() -> None:
    m = play_phase()
    m.choices.lifted = 5
    view: SeatViewDict = {
        "seat": 0,
        "phase": "play",
        "round": 2,
        "dealer": 1,
        "pass_to": 2,
        "turn": 0,
        "hand": [0, 1],
        "passed": None,
        "received": None,
        "passes_done": [True] * 4,
        "doubled": [],
        "trick": [],
        "leader": 0,
        "tricks": [],
        "taken": [[], [], [], []],
        "round_points": [0] * 4,
        "totals": [5, 6, 7, 8],
        "legal": [0, 1],
        "history": [],
        "result": None,
        "can_double": [],
        "rules": {},
    }
    m.apply(P.Snapshot(re=None, table=table("playing"), view=view, your_seat=0, players=PLAYERS))
    assert m.hand == [1, 0] and m.choices.lifted is None and m.choices.legal_plays() == {0, 1}
    assert "round 3" in render_text(m)


def test_connection_states_show_in_the_header() -> None:
    m = play_phase()
    m.connection_lost("the connection was lost")
    m.reconnect_scheduled(2, 0.5)
    assert "reconnecting… attempt 2" in render_text(m)
    m.apply(P.Welcome(re=1, version=[1, 0], server="s", token="t" * 16, name="ann", resumed=True))
    assert m.link.state == M.ONLINE and m.screen == M.TABLE
    # an expired session comes back as a fresh one: the table is gone and the model says so
    m.apply(P.Welcome(re=2, version=[1, 0], server="s", token="u" * 16, name="ann"))
    assert m.screen == M.LOBBY and "expired" in m.status


def test_chat_and_help() -> None:
    m = play_phase()
    m.apply(P.ChatMessage(sender="b1", text="hello there", table_id=7))
    assert "b1: hello there" in render_text(m)
    m.take_outbox()
    m.send_chat("  hi  ")
    (chat,) = m.take_outbox()
    assert isinstance(chat, P.Chat) and chat.text == "hi"
    m.toggle_help()
    assert "keys" in render_text(m)
    m.escape()
    assert not m.boxes.show_help


def test_quit_asks_first() -> None:
    m = welcomed()
    assert m.ask_quit() is False
    assert m.ask_quit() is True


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (60, 20)])
def test_table_renders_at_any_size(size: tuple[int, int]) -> None:
    m = play_phase()
    text = render_text(m, *size)
    lines = text.split("\n")
    assert len(lines) == size[1]
    assert all(len(line) <= size[0] for line in lines)
    assert "ann (you)" in text


def test_ascii_cards() -> None:
    m = play_phase()
    m.ascii = True
    text = render_text(m, ascii=True)
    assert "QS" in text and "♠" not in text


# ---- protocol 1.1 ----------------------------------------------------------------------
def welcomed_11(name: str = "ann") -> M.ClientModel:
    m = M.ClientModel(name, clock=lambda: 100.0)
    m.apply(P.Welcome(re=1, version=[1, 1], server="srv", token="t" * 16, name=name))
    m.take_outbox()
    return m


def at_table_11(preset: str = "levant", can_double: list[int] | None = None) -> M.ClientModel:
    m = welcomed_11()
    m.apply(P.Snapshot(re=None, table=table("playing", preset), view=None, your_seat=0,
                       players=PLAYERS))  # fmt: skip
    m.apply(P.Dealt(round=0, dealer=3, hand=HAND, pass_to=1))
    m.apply(P.YourTurn(phase="pass", legal=HAND, deadline=60.0, can_double=can_double or []))
    m.take_outbox()
    return m


def test_doubles_come_from_the_servers_prompt_on_1_1() -> None:
    # The engine's rule from our view would offer both Q♠ and 10♦; the server's word wins.
    m = at_table_11(can_double=[C.QUEEN_SPADES])
    assert m.choices.double_offer == [C.QUEEN_SPADES]
    none = at_table_11(can_double=[])
    assert none.choices.double_offer == [] and none.choices.can_double() == []


def test_doubles_come_from_the_snapshot_view_on_1_1() -> None:
    m = welcomed_11()
    view: SeatViewDict = {
        "seat": 0, "phase": "pass", "round": 0, "dealer": 3, "pass_to": 1, "turn": None,
        "hand": HAND, "passed": None, "received": None, "passes_done": [False] * 4,
        "doubled": [], "trick": [], "leader": None, "tricks": [], "taken": [[], [], [], []],
        "round_points": [0] * 4, "totals": [0] * 4, "legal": HAND, "history": [],
        "result": None, "can_double": [C.TEN_DIAMONDS], "rules": {},
    }  # fmt: skip
    m.apply(P.Snapshot(re=None, table=table("playing", "levant"), view=view, your_seat=0,
                       players=PLAYERS))  # fmt: skip
    assert m.choices.double_offer == [C.TEN_DIAMONDS]


def test_resume_into_the_lobby_drops_the_stale_table_on_1_1() -> None:
    m = at_table_11()
    m.connection_lost("gone")
    m.apply(P.Welcome(re=2, version=[1, 1], server="s", token="t" * 16, name="ann",
                      resumed=True, table_id=None, seat=None))  # fmt: skip
    assert m.screen == M.LOBBY and m.status_error and "given up" in m.status
    assert [type(x) for x in m.take_outbox()] == [P.ListTables]


def test_resume_still_seated_keeps_the_table_and_waits_for_the_snapshot() -> None:
    m = at_table_11()
    m.connection_lost("gone")
    m.apply(P.Welcome(re=2, version=[1, 1], server="s", token="t" * 16, name="ann",
                      resumed=True, table_id=7, seat=0))  # fmt: skip
    assert m.screen == M.TABLE and m.status == "reconnected"
    assert m.take_outbox() == []


def test_resume_on_a_1_0_server_keeps_the_table() -> None:
    m = at_table()
    m.apply(P.Welcome(re=2, version=[1, 0], server="s", token="t" * 16, name="ann",
                      resumed=True))  # fmt: skip
    assert m.screen == M.TABLE and m.take_outbox() == []


# ---- waiting room: remove a bot --------------------------------------------------------
def waiting_room(host: bool = True) -> M.ClientModel:
    m = welcomed()
    players = [seat_info("ann", host=host), seat_info("rb1", bot=True), seat_info("cy"),
               seat_info("rb3", bot=True)]  # fmt: skip
    m.apply(P.Snapshot(re=None, table=table(), view=None, your_seat=0, players=players))
    m.take_outbox()
    return m


def test_host_removes_the_last_bot() -> None:
    m = waiting_room()
    m.at_table.remove_bot()
    (req,) = m.take_outbox()
    assert isinstance(req, P.RemoveBot) and req.seat == 3
    assert "rb3" in m.status
    m.apply(P.SeatUpdate(table_id=7, seat=3, player=seat_info(None)))
    m.at_table.remove_bot()
    (again,) = m.take_outbox()
    assert isinstance(again, P.RemoveBot) and again.seat == 1
    m.apply(P.SeatUpdate(table_id=7, seat=1, player=seat_info(None)))
    m.at_table.remove_bot()
    assert m.take_outbox() == [] and "no bot" in m.status


def test_only_the_host_removes_bots_and_refusals_are_shown() -> None:
    guest = waiting_room(host=False)
    guest.at_table.remove_bot()
    assert guest.take_outbox() == [] and guest.status_error
    m = waiting_room()
    m.at_table.remove_bot()
    (req,) = m.take_outbox()
    assert isinstance(req, P.RemoveBot)
    m.apply(P.Error(re=req.id, code="no_such_bot", message="no bot in that seat"))
    assert m.status == "Removing the bot refused: no such bot"


def test_remove_bot_key_is_bound_and_in_the_help() -> None:
    from leekha.client.tui.keys import Actions, build_keys

    m = waiting_room()
    kb = build_keys(m, Actions(quit=lambda: None, open_chat=lambda: None,
                               close_chat=lambda: None, send_chat=lambda: None))  # fmt: skip
    live = [b for b in kb.get_bindings_for_keys(("x",)) if b.filter()]
    assert len(live) == 1
    live[0].handler(SimpleNamespace(data="x"))  # type: ignore[arg-type]
    assert [type(x) for x in m.take_outbox()] == [P.RemoveBot]
    assert "x remove bot" in render_text(m)
    m.toggle_help()
    assert "remove" in render_text(m, 80, 30)


# ---- lobby: statistics -----------------------------------------------------------------
def test_stats_screen_asks_and_shows_a_table() -> None:
    m = welcomed_11()
    m.in_lobby.open_stats()
    (req,) = m.take_outbox()
    assert isinstance(req, P.GetStats) and req.name is None
    assert "asking the server" in render_text(m)
    rows: list[PlayerStats] = [
        R.stats_line("ann", 12, 5, 7.25),
        R.stats_line("bo", 3, 0, 12.0),
        {
            "name": "cy",
            "games": 4,
            "wins": 2,
            "avg_points_per_round": 6.0,
            "rating": 27.31,
            "rating_sigma": 4.1,
            "leekhas": 9,
            "moons": 1,
        },
    ]
    m.apply(P.Stats(re=req.id, players=rows))
    text = render_text(m)
    assert "player statistics" in text
    ann = next(line for line in text.splitlines() if "ann " in line and "12" in line)
    # name, rating (a guest has none), games, wins, avg/round, Leekhas eaten, moons
    assert ann.split()[1:8] == ["ann", "guest", "12", "5", "7.2", "0", "0"]
    assert any("bo" in line and "12.0" in line for line in text.splitlines())
    cy = next(line for line in text.splitlines() if "cy " in line)
    assert cy.split()[1:9] == ["cy", "27.3", "±12.3", "4", "2", "6.0", "9", "1"]
    m.escape()
    assert not m.boxes.stats_open and "player statistics" not in render_text(m)


def test_stats_with_no_games_and_late_replies() -> None:
    m = welcomed_11()
    m.in_lobby.open_stats()
    (req,) = m.take_outbox()
    assert isinstance(req, P.GetStats)
    m.apply(P.Stats(re=req.id, players=[]))
    assert "no finished games yet" in render_text(m)
    m.in_lobby.open_stats()
    (again,) = m.take_outbox()
    assert isinstance(again, P.GetStats)
    m.in_lobby.close_stats()
    m.apply(P.Stats(re=again.id, players=[R.stats_line("x", 1, 1, 0.0)]))
    assert not m.boxes.stats_open and m.boxes.stats is None


def test_stats_are_not_asked_of_a_1_0_server() -> None:
    m = welcomed()
    m.take_outbox()
    m.in_lobby.open_stats()
    assert m.take_outbox() == [] and not m.boxes.stats_open and "1.0" in m.status


# ---- create form: a typed target -------------------------------------------------------
def form_at_target(m: M.ClientModel) -> CreateForm:
    m.take_outbox()
    m.in_lobby.open_form()
    assert m.boxes.form is not None
    m.in_lobby.form_move(2)
    assert m.boxes.form.field == "target"
    return m.boxes.form


def test_create_form_takes_a_typed_target() -> None:
    m = welcomed()
    f = form_at_target(m)
    m.in_lobby.form_type("0")  # a leading zero is dropped
    m.in_lobby.form_type("2")
    m.in_lobby.form_type("x")  # not a digit: refused, nothing typed
    assert m.status_error and f.target_text == "2"
    m.in_lobby.form_type("50")
    m.in_lobby.form_backspace()
    m.in_lobby.form_type("7")
    assert f.target == 257
    assert "257_" in render_text(m)
    m.in_lobby.form_submit()
    (req,) = m.take_outbox()
    assert isinstance(req, P.CreateTable) and req.overrides == {"target": 257}


def test_create_form_refuses_a_target_out_of_range() -> None:
    m = welcomed()
    f = form_at_target(m)
    m.in_lobby.form_type("123456")  # capped at five digits: 12345 > 10000
    assert f.target_text == "12345" and f.target is None
    m.in_lobby.form_move(1)  # away from the field and back: still refused at submit
    m.in_lobby.form_submit()
    assert m.take_outbox() == [] and m.boxes.form is f and f.field == "target"
    assert "1 to 10000" in m.status
    f.target_text = ""
    m.in_lobby.form_submit()
    (req,) = m.take_outbox()
    assert isinstance(req, P.CreateTable) and req.overrides == {}


def test_create_form_arrows_still_cycle_targets_from_a_typed_one() -> None:
    m = welcomed()
    f = form_at_target(m)
    m.in_lobby.form_type("51")
    m.in_lobby.form_change(1)
    assert f.target == 101
    m.in_lobby.form_change(-1)
    m.in_lobby.form_change(-1)
    assert f.target == 31


def test_partnership_marks_the_partner_and_shows_team_totals() -> None:
    m = at_table("partnership")
    assert m.game.view is not None
    m.game.view = replace(m.game.view, totals=[5, 6, 7, 8])
    while m.choices.double_offer:  # close the doubling prompts so every seat is visible
        m.choices.answer_double(False)
    text = render_text(m)
    assert "b2 [bot] (partner)" in text  # seat 2 sits opposite seat 0
    assert "b2 [bot] (partner) · team 12" in text and "b1 [bot] · team 14" in text
    solo = at_table("classic")
    assert "(partner)" not in render_text(solo) and "team" not in render_text(solo)


# ---- issue 13: the table screen a Hearts player expects --------------------------------
def trick_on_table(led: str = "9C", legal: str = "2C 3C 4C 6C", **rules: Any) -> M.ClientModel:
    """Play phase, seat 3 led `led`; it is our turn with `legal` allowed."""
    m = play_phase(**rules)
    m.apply(P.CardPlayed(seat=3, card=C.parse_card(led)))
    m.apply(P.YourTurn(phase="play", legal=C.parse_cards(legal), deadline=None))
    return m


def test_suit_colour_survives_the_legal_and_cursor_classes() -> None:
    from leekha.client.tui.cardfrags import card_frag
    from leekha.client.tui.layout import STYLE

    red = STYLE.get_attrs_for_style_str(card_frag(C.parse_card("AH"), False)[0]).color
    for extra in ("class:card.legal", "class:card.legal class:card.cursor", "class:card.dim"):
        heart = card_frag(C.parse_card("AH"), False, extra)[0]
        spade = card_frag(C.parse_card("AS"), False, extra)[0]
        assert STYLE.get_attrs_for_style_str(heart).color == red == "c00000"
        assert STYLE.get_attrs_for_style_str(spade).color == "000000"


def test_long_names_still_make_a_valid_table_name() -> None:
    for n in range(1, 25):
        name = "x" * n
        assert len(M.table_name_for(name, "{name} vs bots")) <= M.NAME_MAX
        assert len(M.table_name_for(name, "{name}'s table")) <= M.NAME_MAX
    assert M.table_name_for("ann", "{name} vs bots") == "ann vs bots"


def test_refusals_name_the_rule_and_the_cursor_shows_it() -> None:
    m = trick_on_table()
    m.choices.cursor = m.hand.index(C.parse_card("AS"))
    assert "a!" in render_text(m).split("\n")[-3]  # the cursor on an illegal card is marked
    m.enter()
    assert m.status_error and "must follow clubs" in m.status and m.choices.lifted is None
    # void in the led suit: a Leekha must go
    v = trick_on_table(led="5H", legal="QS")
    assert v.game.view is not None
    v.game.view = replace(v.game.view, hand=[c for c in v.game.view.hand if C.suit_of(c) != 2])
    v.choose(v.hand.index(C.parse_card("AS")))
    assert "void in hearts" in v.status and "Q♠" in v.status
    # talbees: a higher spade is down, so the Q♠ must go
    t = trick_on_table(led="KS", legal="QS", talbees=True)
    t.choose(t.hand.index(C.parse_card("4S")))
    assert "talbees" in t.status and "Q♠" in t.status
    # undercut: the 10♦ is on the trick, so a lower diamond must go (the engine's reason)
    u = trick_on_table(led="10D", legal="3D", undercut=True)
    assert u.game.view is not None
    u.game.view = replace(u.game.view, hand=[c for c in u.game.view.hand if c != 21])
    u.choose(u.hand.index(C.parse_card("QD")))
    assert "undercut" in u.status and "3♦" in u.status
    # the server's refusal gets the same words
    w = trick_on_table()
    assert w.game.view is not None
    w.game.view = replace(w.game.view, legal=[*w.game.view.legal, C.parse_card("AS")])
    w.choose(w.hand.index(C.parse_card("AS")))
    w.enter()
    (req,) = w.take_outbox()
    assert isinstance(req, P.PlayCard)
    w.apply(
        P.Error(
            re=req.id,
            code="must_follow_suit",
            message="x",
            rule="follow_suit",
            args={"card": 51, "suit": 0, "legal": [0, 1, 2, 4]},
        )
    )
    assert "must follow clubs" in w.status


def test_doubles_show_beside_the_doubler_only_while_passing_and_summary_marks_them() -> None:
    m = at_table("levant")
    while m.choices.double_offer:
        m.choices.answer_double(False)
    m.apply(P.DoubleRevealed(seat=1, card=C.QUEEN_SPADES))
    assert "+0  x2 Q♠" in render_text(m)  # on b1's line, after the scores
    m.apply(P.PassDone(seat=0))
    m.apply(P.PassedReceived(cards=C.parse_cards("3C 4C 6C"), from_seat=3))
    text = render_text(m)
    assert "+0  x2" not in text and "x2 Q♠" in text  # a neutral note, not by b1
    m.apply(P.CardPlayed(seat=0, card=C.QUEEN_SPADES))
    assert "x2 Q♠" not in render_text(m)
    taken = [[], [C.QUEEN_SPADES], [], []]
    m.apply(P.RoundScored(round=0, round_points=[0, 26, 0, 0], totals=[0, 26, 0, 0], taken=taken))
    assert "Q♠x2" in render_text(m) and "scored double" in render_text(m)


def test_stale_status_lines_go() -> None:
    m = welcomed()
    m.apply(P.Snapshot(re=None, table=table("playing"), view=None, your_seat=0, players=PLAYERS))
    m.apply(P.Dealt(round=0, dealer=3, hand=C.parse_cards("2C 3D 4D 5D 2H 3H 4H 5H 6H 2S 3S 4S 5S"),
                    pass_to=1))  # fmt: skip
    m.choose(0 if m.hand[0] == C.parse_card("2C") else m.hand.index(C.parse_card("2C")))
    assert "pass ban" in m.status
    m.escape()
    assert m.status == ""
    # not playable, then the position moves on: the line goes
    p = trick_on_table()
    p.choose(p.hand.index(C.parse_card("AS")))
    assert "AS" not in p.status and "A♠" in p.status
    p.apply(P.CardPlayed(seat=0, card=C.parse_card("2C")))
    assert p.status == ""
    # a card lifted before the turn is judged when the turn comes
    q = play_phase()
    q.choose(q.hand.index(C.parse_card("3D")))
    assert "ready" in q.status
    q.apply(P.CardPlayed(seat=3, card=C.parse_card("9C")))
    q.apply(P.YourTurn(phase="play", legal=C.parse_cards("2C 3C"), deadline=None))
    assert "ready" not in q.status and "must follow clubs" in q.status and q.choices.lifted is None
    # the rematch line goes with the new deal
    r = play_phase()
    r.apply(P.GameOver(winners=[0], losers=[1], totals=[0, 113, 10, 2]))
    r.at_table.rematch()
    (req,) = r.take_outbox()[-1:]
    assert isinstance(req, P.Rematch)
    r.apply(P.Ok(re=req.id))
    assert "rematch vote sent" in r.status
    r.apply(P.Dealt(round=0, dealer=0, hand=HAND, pass_to=1))
    assert "rematch" not in r.status and r.game.view is not None and r.game.view.totals == [0] * 4


def test_game_flow_is_explained() -> None:
    m = play_phase()  # classic, target 101
    m.apply(P.RoundScored(round=0, round_points=[0, 105, 0, 0], totals=[0, 105, 0, 0],
                          taken=[[], [], [], []], tie=True))  # fmt: skip
    assert "lowest totals are tied: play goes on" in render_text(m)
    # the engine said no tie (the lowest total is unique): no tie note, whatever the totals
    t = play_phase(target=30)
    t.apply(P.RoundScored(round=0, round_points=[11, 36, 20, 5], totals=[11, 36, 20, 5],
                          taken=[[], [], [], []]))  # fmt: skip
    t.apply(P.GameOver(winners=[3], losers=[1], totals=[11, 36, 20, 5]))
    assert "tied" not in render_text(t)
    g = play_phase(game_end="golden_goal")
    g.apply(P.RoundScored(round=0, round_points=[0, 13, 0, 0], totals=[0, 130, 0, 0],
                          taken=[[], [C.QUEEN_SPADES], [], []], stopped=True))  # fmt: skip
    assert "golden goal" in render_text(g)
    g.apply(P.GameOver(winners=[0], losers=[1], totals=[0, 130, 0, 0], reason="golden_goal"))
    moon = play_phase(moon_penalty=26)
    moon.apply(P.RoundScored(round=0, round_points=[26, 0, 26, 26], totals=[26, 0, 26, 26],
                             taken=[[], [21, 49], [], []], moon=1))  # fmt: skip
    assert "b1 shot the moon" in render_text(moon)
    # `v` after a new deal has no last trick to show
    v = play_phase()
    plays = [[0, C.parse_card("2C")], [1, C.parse_card("9C")], [2, 5], [3, 6]]
    for seat, card in plays:
        v.apply(P.CardPlayed(seat=seat, card=card))
    v.apply(P.TrickTaken(winner=1, cards=plays, points=0))
    v.apply(P.Dealt(round=0, dealer=0, hand=HAND, pass_to=1))
    v.at_table.toggle_last_trick()
    assert not v.at_table.show_last and "no trick" in v.status


def take_trick(m: M.ClientModel, winner: int = 1) -> None:
    plays = [[3, C.parse_card("9C")], [0, C.parse_card("2C")], [1, C.parse_card("KC")],
             [2, C.QUEEN_SPADES]]  # fmt: skip
    for seat, card in plays[len(m.game.view.trick) if m.game.view else 0 :]:
        m.apply(P.CardPlayed(seat=seat, card=card))
    m.apply(P.TrickTaken(winner=winner, cards=plays, points=13))


def test_a_finished_trick_is_held_until_a_key_or_the_time() -> None:
    now = [100.0]
    m = dealt(now, trick_hold=1.5)
    m.apply(P.PassDone(seat=0))
    m.apply(P.PassedReceived(cards=C.parse_cards("3C 4C 6C"), from_seat=3))
    take_trick(m)
    assert m.holding and "b1 takes Q♠! (+13)" in render_text(m)
    m.apply(P.CardPlayed(seat=1, card=C.parse_card("AD")))  # bots go on: folded at once
    m.apply(P.YourTurn(phase="play", legal=[C.parse_card("3D")], deadline=30.0))
    # the screen still shows the finished trick; the state is already at our turn
    assert m.at_table.display_trick()[0][1] == C.parse_card("9C") and m.my_turn
    assert "any key next trick" in render_text(m)
    now[0] = 101.0
    assert not m.tick() and m.holding
    now[0] = 101.6
    assert m.tick() and not m.holding
    assert m.at_table.display_trick() == [[1, C.parse_card("AD")]] and m.my_turn
    assert m.alarm.seconds_left() == 29  # the turn's clock ran from when it arrived
    # a key (key_release) goes on sooner
    m2 = play_phase()
    m2.timeline.seconds = 5.0
    take_trick(m2)
    m2.apply(P.CardPlayed(seat=1, card=C.parse_card("AD")))
    assert m2.holding and m2.at_table.display_trick()[0] == [3, C.parse_card("9C")]
    m2.key_release()
    assert not m2.holding and m2.at_table.display_trick() == [[1, C.parse_card("AD")]]


def test_hints_and_status_are_never_cut_at_80x24() -> None:
    from leekha.client.tui.hints import fit_hints, hint_items

    screens = [welcomed(), at_table(), at_table("levant"), trick_on_table(), waiting_room()]
    lobby = welcomed()
    lobby.apply(P.TableList(re=None, tables=[table()]))
    screens.append(lobby)
    for m in screens:
        line = fit_hints(hint_items(m), 80)
        assert line and len(line) <= 80 and line.endswith(("help", "quit", "hidden"))
        assert line in render_text(m)
    ban = welcomed()
    ban.say("10♦ cannot go: with the cards chosen it would empty your diamonds (the pass ban)"
            " and this line is long enough to need a second one")  # fmt: skip
    text = render_text(ban)
    assert "(the pass ban)" in text and "second one" in text
    m = play_phase()
    m.name = "a" * 24
    m.connection_lost("gone")
    m.reconnect_scheduled(12, 16.0)
    assert "reconnecting… attempt 12, next in 16s" in render_text(m)


def test_too_small_clipped_hand_and_big_windows() -> None:
    m = trick_on_table()
    assert render_text(m, 30, 8).startswith("window too small: need 60×20")
    narrow = render_text(m, 60, 20)  # the smallest window: the whole hand, a to m
    assert "›" not in narrow and "‹" not in narrow and " m" in narrow.split("\n")[-3]
    m.apply(P.ChatMessage(sender="b1", text="x" * 60, table_id=7))
    big = render_text(m, 160, 50)
    assert "x" * 32 in big  # the chat column grows with the window


def test_ascii_is_pure_ascii() -> None:
    m = at_table("levant")
    m.ascii = True
    m.apply(P.ChatMessage(sender="b1", text="مرحبا …", table_id=7))
    for frame in (render_text(m), render_text(m, 30, 8)):
        assert frame.isascii()
    m.toggle_help()
    assert render_text(m).isascii()


def test_a_box_over_wide_and_combining_text_leaves_no_fragment() -> None:
    from prompt_toolkit.utils import get_cwidth

    from leekha.client.tui.canvas import Canvas

    cv = Canvas(20, 3)
    cv.put(0, 0, "漢字漢字漢字")
    cv.put(0, 1, "مَرْحَبًا بِكُمْ")
    cv.box(7, 3)
    for row in cv.lines():  # every row spans exactly the width: nothing shifts the border
        assert get_cwidth("".join(fragment[1] for fragment in row)) == 20
    assert "│" in cv.text().split("\n")[1]


def test_help_is_per_screen_and_explains_the_marks() -> None:
    lobby = welcomed()
    lobby.toggle_help()
    text = render_text(lobby, 80, 24)
    assert "new table" in text and "watch" in text and "score sheet" not in text
    m = play_phase()
    m.toggle_help()
    text = render_text(m, 80, 24)
    assert "(D) dealer" in text and "+N points taken this round" in text


def test_score_sheet_received_cards_leekha_callout_bell_and_stats() -> None:
    m = play_phase()
    m.alarm.bell = True
    assert m.choices.received == set(C.parse_cards("3C 4C 6C"))
    labels = render_text(m).split("\n")[-3]
    assert labels.count("+") == 3
    m.apply(P.YourTurn(phase="play", legal=C.parse_cards("3C"), deadline=None))
    assert m.alarm.ring
    take_trick(m)
    assert "b1 takes Q♠!" in m.status
    assert m.choices.received == set()  # our first play ends the marks
    m.apply(P.RoundScored(round=0, round_points=[0, 26, 0, 0], totals=[0, 26, 0, 0],
                          taken=[[], C.cards_of(m.game.rules.penalty_mask), [], []]))  # fmt: skip
    m.enter()
    m.toggle_scores()
    sheet = render_text(m)
    assert "score sheet" in sheet and "round 1" in sheet and "26" in sheet
    m.toggle_scores()
    seats = ((0, 0, 0, 0), (1, 1, 1, 126), (0, 0, 0, 0), (0, 0, 0, 0))
    stats: list[SeatStats] = [
        {"tricks": t, "leekhas": lk, "moons": mo, "rounds": [r]} for t, lk, mo, r in seats
    ]
    m.apply(P.GameOver(winners=[0], losers=[1], totals=[0, 126, 0, 0], stats=stats))
    over = render_text(m)
    cells = [line.split() for line in over.split("\n")]
    rows = {c[1]: c[2:6] for c in cells if len(c) > 5 and c[1] in ("tricks", "Leekhas", "moons")}
    assert rows["tricks"] == ["0", "1", "0", "0"]
    assert rows["Leekhas"] == ["0", "1", "0", "0"]
    assert rows["moons"] == ["0", "1", "0", "0"]


def test_counting_aid_shows_cards_out_and_voids_and_the_host_can_forbid_it() -> None:
    m = trick_on_table()
    m.apply(P.CardPlayed(seat=0, card=C.parse_card("2C")))
    m.apply(P.CardPlayed(seat=1, card=C.parse_card("5H")))  # b1 shows a club void
    m.at_table.toggle_counting()
    text = render_text(m)
    out = m.game.cards_out()
    assert C.parse_card("9C") not in out[C.CLUBS] and C.parse_card("5H") not in out[C.HEARTS]
    assert all(c not in out[C.suit_of(c)] for c in m.hand)
    assert sum(len(cards) for cards in out) == 52 - len(m.hand) - 3
    assert "still out" in text and "b1:♣" in text
    m.game.table = cast(TableSummary, dict(m.game.table or {}, counting_aid=False))
    m.at_table.toggle_counting()
    assert not m.at_table.counting and "host" in m.status


def test_the_create_form_forbids_the_counting_aid_on_a_1_2_server() -> None:
    m = M.ClientModel("ann", clock=lambda: 100.0)
    m.apply(P.Welcome(re=1, version=[1, 2], server="srv", token="t" * 16, name="ann"))
    m.take_outbox()
    m.in_lobby.open_form()
    assert m.boxes.form is not None
    m.boxes.form.row = m.boxes.form.ROWS.index("counting_aid")
    m.in_lobby.form_change(1)
    assert "forbidden" in render_text(m)
    m.in_lobby.form_submit()
    (req,) = m.take_outbox()
    assert isinstance(req, P.CreateTable) and req.counting_aid is False
    old = welcomed()  # a 1.0 server would not know the field: it is not sent
    old.take_outbox()
    old.in_lobby.open_form()
    assert old.boxes.form is not None
    old.boxes.form.counting_aid = False
    old.in_lobby.form_submit()
    (req,) = old.take_outbox()
    assert isinstance(req, P.CreateTable) and req.counting_aid is True


def test_a_box_leaves_no_half_word_beside_it() -> None:
    from leekha.client.tui.canvas import Canvas

    cv = Canvas(20, 3)
    cv.put(0, 1, "ann (you) 13 pts")
    cv.box(10, 3)
    row = cv.text().split("\n")[1]
    assert row.startswith("ann ") and "(" not in row and "13" not in row  # "(you)" was cut


def test_a_wide_box_leaves_no_lone_chat_words_in_the_strip_beside_it() -> None:
    """Found in issue 24's run by hand: a game-over box over the chat column left its last
    words (`seat`, `to`, `bob:`) standing in a strip seven cells wide."""
    from leekha.client.tui.canvas import Canvas

    cv = Canvas(80, 5)
    for y in range(5):
        cv.put(56, y, "bob takes the seat to")
        cv.put(0, y, "hard bot 3")
    cv.box(66, 3)
    rows = cv.text().split("\n")
    assert all(r[73:].strip() == "" and r[:7].strip() == "" for r in rows[1:4]), rows
    assert rows[0].endswith("seat to") and rows[4].startswith("hard bot 3")  # outside it


def test_long_names_never_run_into_each_other_or_the_chat() -> None:
    from leekha.client.tui.canvas import clip, frags_width

    assert clip([("a", "abc"), ("b", "defgh")], 5) == [("a", "abc"), ("b", "d…")]
    assert frags_width(clip([("", "x" * 30)], 7)) == 7
    m = trick_on_table()
    long = [seat_info("a" * 24, host=True)] + [seat_info("b" * 20 + str(i), bot=True)
                                               for i in (1, 2, 3)]  # fmt: skip
    m.game.players = long
    m.name = "a" * 24
    for line in render_text(m).split("\n")[1:-2]:
        table, _sep, chat = line.partition("│")
        assert len(table) <= 55 and not chat.strip().startswith(("…", "+", "pts"))


def test_the_lobby_header_names_the_server_not_its_software() -> None:
    m = M.ClientModel("ann", clock=lambda: 100.0)
    m.server_label = "Leekha on kitchen"
    m.apply(P.Welcome(re=1, version=[1, 1], server="leekha-server 0.1.0", token="t" * 16,
                      name="ann"))  # fmt: skip
    header = render_text(m).split("\n")[0]
    assert "Leekha on kitchen" in header and "leekha-server" not in header


def test_a_timer_about_to_run_out_warns_once_and_rings_when_asked() -> None:
    now = [100.0]
    m = dealt(now, bell=True)
    m.apply(P.YourTurn(phase="pass", legal=HAND, deadline=30.0))
    m.alarm.ring = False
    now[0] = 119.5  # 11 s left: nothing yet
    assert not m.tick() and "seconds left" not in m.status
    now[0] = 120.2  # 10 s left
    assert m.tick() and m.alarm.ring and "10 seconds left" in m.status and m.status_error
    assert "10 seconds left" in render_text(m)
    m.alarm.ring = False
    now[0] = 125.0
    assert not m.tick() and not m.alarm.ring  # once per deadline
    m.apply(P.PassDone(seat=0))
    m.apply(P.PassedReceived(cards=C.parse_cards("3C 4C 6C"), from_seat=3))
    assert "seconds left" not in m.status  # the position moved: the warning goes


def test_the_round_summary_shows_then_closes_when_the_next_round_needs_you() -> None:
    now = [100.0]
    m = dealt(now, trick_hold=1.5)
    taken = [[], C.parse_cards("QS"), [], []]
    m.apply(P.RoundScored(round=0, round_points=[0, 13, 0, 0], totals=[0, 13, 0, 0], taken=taken))
    assert m.overlay == M.SUMMARY and m.holding
    m.apply(P.Dealt(round=1, dealer=0, hand=HAND, pass_to=1))  # the next round, held
    assert m.overlay == M.SUMMARY
    now[0] = 103.0
    assert not m.tick() and m.overlay == M.SUMMARY  # still on screen
    now[0] = 104.1
    assert m.tick() and m.overlay != M.SUMMARY and m.boxes.summary is None
    assert m.game.view is not None and m.game.view.round == 1


def test_a_key_during_the_summary_hold_closes_it_and_goes_on() -> None:
    m = M.ClientModel("ann", clock=lambda: 100.0, trick_hold=1.5)
    m.apply(P.Welcome(re=1, version=[1, 0], server="srv", token="t" * 16, name="ann"))
    m.apply(P.Snapshot(re=None, table=table("playing"), view=None, your_seat=0, players=PLAYERS))
    m.apply(P.Dealt(round=0, dealer=3, hand=HAND, pass_to=1))
    taken = [[], C.parse_cards("QS"), [], []]
    m.apply(P.RoundScored(round=0, round_points=[0, 13, 0, 0], totals=[0, 13, 0, 0], taken=taken))
    assert m.overlay == M.SUMMARY and m.holding
    m.key_release()
    assert m.boxes.summary is None and not m.holding


def test_a_timer_set_to_off_asks_for_an_untimed_table() -> None:
    """Off is the wire's 0 (untimed); null would be the server's default timer."""
    m = welcomed()
    m.take_outbox()
    m.in_lobby.open_form()
    assert m.boxes.form is not None
    for _ in range(4):
        m.in_lobby.form_move(1)  # to the pass timer
    m.in_lobby.form_change(-2)  # 60 -> 30 -> off
    m.in_lobby.form_move(1)
    m.in_lobby.form_change(-2)  # 30 -> 15 -> off
    m.in_lobby.form_submit()
    (req,) = m.take_outbox()
    assert isinstance(req, P.CreateTable)
    assert req.pass_timer_s == 0 and req.turn_timer_s == 0


def test_a_player_who_left_keeps_their_name_in_the_result() -> None:
    """The game-over box names everyone who played, not "seat 2" for a seat left empty."""
    m = at_table()
    assert m.game.table is not None
    m.apply(P.SeatUpdate(table_id=int(m.game.table["id"]), seat=1, player=seat_info("bob")))
    m.apply(P.SeatUpdate(table_id=int(m.game.table["id"]), seat=1, player=seat_info(None)))
    assert m.player_name(1) == "bob"
    assert m.player_name(2) == "b2"
    alone = [seat_info("ann"), seat_info(None), seat_info(None), seat_info(None)]
    m.apply(P.Snapshot(re=None, table={**table(), "id": 8}, view=None, your_seat=0, players=alone))
    assert m.player_name(1) == "seat 2"  # another table: its own names


def test_a_start_refused_for_empty_seats_goes_once_someone_sits_down() -> None:
    """Issue 24, by hand: "Starting refused: seats 2, 3 and 4 are empty" stayed after bob
    sat down, no longer true."""
    m = waiting_room()
    m.at_table.start()
    (req,) = m.take_outbox()[-1:]
    assert isinstance(req, P.Start)
    m.apply(P.Error(re=req.id, code="not_ready", message="seats 2, 3 and 4 are empty"))
    assert "Starting refused" in m.status
    m.apply(P.SeatUpdate(table_id=8, seat=1, player=seat_info("bob")))
    assert "Starting refused" in m.status  # another table's seat: nothing here changed
    m.apply(P.SeatUpdate(table_id=7, seat=2, player=seat_info("bob")))
    assert m.status == ""


def test_a_join_refused_for_its_password_asks_for_it_and_tries_again() -> None:
    """An invitation without the password (`leekha join leekha://host/9`) asks for it
    instead of leaving the friend in the lobby with a refusal; a wrong one asks again."""
    m = M.ClientModel("ann", clock=lambda: 100.0)
    m.in_lobby.invited = (9, None)
    m.apply(P.Welcome(re=1, version=[1, 4], server="srv", token="t" * 16, name="ann"))
    join = [x for x in m.take_outbox() if isinstance(x, P.JoinSeat)]
    assert join == [P.JoinSeat(id=join[0].id, table_id=9)]
    m.apply(P.Error(re=join[0].id, code="bad_password", message="wrong or missing password"))
    assert m.boxes.password_prompt == PasswordPrompt(9, why="This table has a password.")
    assert "This table has a password." in render_text(m)
    m.in_lobby.password_type("nope")
    m.in_lobby.password_submit()
    (again,) = m.take_outbox()
    assert isinstance(again, P.JoinSeat)
    assert again == P.JoinSeat(id=again.id, table_id=9, password="nope")
    m.apply(P.Error(re=again.id, code="bad_password", message="wrong or missing password"))
    assert m.boxes.password_prompt == PasswordPrompt(9, why="Wrong password: try again.")
    # Watching a password table asks the same way.
    m.in_lobby.password_submit()
    m.take_outbox()
    m.in_lobby.join(9, None, spectate=True)
    (watch,) = m.take_outbox()
    assert isinstance(watch, P.Spectate)
    m.apply(P.Error(re=watch.id, code="bad_password", message="wrong or missing password"))
    assert m.boxes.password_prompt == PasswordPrompt(
        9, spectate=True, why="This table has a password."
    )


def test_a_held_round_summary_says_one_way_to_go_on_and_drops_the_rounds_voids() -> None:
    """Held before the next deal, any key goes on: the hint line and the box both say so
    (not "any key next trick" under "Enter or Esc"); the finished round's voids go."""
    t = [100.0]
    m = M.ClientModel("ann", clock=lambda: t[0], trick_hold=1.5)
    m.apply(P.Welcome(re=1, version=[1, 4], server="srv", token="t" * 16, name="ann"))
    m.apply(P.Snapshot(re=None, table=table("playing"), view=None, your_seat=0, players=PLAYERS))
    m.apply(P.Dealt(round=0, dealer=3, hand=HAND, pass_to=1))
    m.game.shown_void[1].add(0)
    m.apply(P.RoundScored(round=0, round_points=[0, 13, 10, 2], totals=[0, 13, 10, 2],
                          taken=[[], [], [], []]))  # fmt: skip
    assert m.game.shown_void == [set(), set(), set(), set()]
    m.apply(P.Dealt(round=1, dealer=0, hand=HAND, pass_to=2))  # held behind the summary
    assert m.holding and m.overlay == M.SUMMARY
    lines = render_text(m).splitlines()
    assert "any key to continue" in render_text(m)
    assert "Enter or Esc" not in render_text(m)
    assert lines[-1].startswith("any key continue"), lines[-1]


def test_a_quick_play_waiter_sees_when_the_bots_come() -> None:
    """Quick play opened a table for us: the waiting room counts down to the bots."""
    t = [100.0]
    m = M.ClientModel("ann", clock=lambda: t[0])
    m.apply(P.Welcome(re=1, version=[1, 4], server="srv", token="t" * 16, name="ann"))
    m.take_outbox()
    m.in_lobby.quick = P.QuickPlay(id=0, wait_s=20)
    m.in_lobby.start_quick()
    (ask,) = m.take_outbox()
    assert isinstance(ask, P.QuickPlay) and ask.wait_s == 20
    waiting = table("waiting")
    waiting["seats"] = [R.seat("ann"), R.seat(), R.seat(), R.seat()]
    players = [seat_info("ann", host=True), *(seat_info(None) for _ in range(3))]
    m.apply(P.Snapshot(re=ask.id, table=waiting, view=None, your_seat=0, players=players))
    assert "bots take the empty seats in 20 seconds" in render_text(m)
    t[0] += 19.5
    assert m.tick()
    assert "bots take the empty seats in 1 second" in render_text(m)
    m.apply(P.Dealt(round=0, dealer=3, hand=HAND, pass_to=1))
    assert m.quick_seconds_left() is None


def test_a_box_over_the_chat_column_leaves_no_chat_fragments() -> None:
    """The profile box over part of the chat column: what it leaves of each chat line
    ("one 7", "that was a") goes too; a line it does not touch stays."""
    m = welcomed(version=(1, 4))
    m.apply(P.Snapshot(re=None, table=table("playing"), view=None, your_seat=0, players=PLAYERS))
    m.apply(P.Dealt(round=0, dealer=3, hand=HAND, pass_to=1))
    for i in range(12):
        m.apply(P.ChatMessage(sender="bob", text=f"well played everyone, close one {i}",
                              table_id=7))  # fmt: skip
    m.social.open_profiles(["ann", "b1"])
    assert m.overlay == M.PROFILE
    rows = render_text(m, 80, 24).splitlines()
    top = next(i for i, r in enumerate(rows) if "┌" in r)
    bottom = next(i for i, r in enumerate(rows) if "└" in r)
    for row in rows[top : bottom + 1]:
        assert row.rstrip().endswith(("┐", "│", "┘")), row
    assert "close one 11" in rows[-3] or "close one 11" in "\n".join(rows[bottom + 1 :])


def test_the_counting_aid_is_as_the_player_left_it_after_a_resume(tmp_path: Path) -> None:
    """C turned the aid on; the next run (a resumed `leekha play`, a rejoin after a quit)
    starts with it on, as the player left it, where the table allows it."""
    from leekha.client.prefs import Prefs

    first = M.ClientModel("ann", prefs=Prefs(tmp_path / "screen.json"))
    assert not first.at_table.counting
    first.at_table.toggle_counting()
    assert first.at_table.counting
    again = M.ClientModel("ann", prefs=Prefs(tmp_path / "screen.json"))
    assert again.at_table.counting
    again.at_table.toggle_counting()
    assert not M.ClientModel("ann", prefs=Prefs(tmp_path / "screen.json")).at_table.counting
    assert not M.ClientModel("ann").at_table.counting  # no file: the default, off


def test_a_first_welcome_that_resumes_into_the_lobby_says_nothing_of_reconnecting() -> None:
    """A new `leekha join` presents the token kept from the last run, so the server
    resumes the session: in the lobby, nothing was lost and no link had dropped, and the
    status line must not say "reconnected" to someone who just started the program."""
    m = M.ClientModel("ann", clock=lambda: 100.0)
    m.apply(P.Welcome(re=1, version=[1, 1], server="s", token="t" * 16, name="ann",
                      resumed=True, table_id=None, seat=None))  # fmt: skip
    assert m.screen == M.LOBBY and "reconnect" not in m.status
    assert [type(x) for x in m.take_outbox()] == [P.ListTables]
    # back at a seat kept from an earlier run, it is news
    m = M.ClientModel("ann", clock=lambda: 100.0)
    m.apply(P.Welcome(re=1, version=[1, 1], server="s", token="t" * 16, name="ann",
                      resumed=True, table_id=7, seat=0))  # fmt: skip
    assert m.status == "reconnected"
