"""The terminal client is one ClientCore and the screen's own state (issue 36): every server
message is folded by the core, once, and the screen only reacts to the changes it reports.

Tested the way magic-wormhole tests its machines: messages go into a model, and what comes
out is read and compared with what the protocol and the screen's words say should happen:
the core's changes in order, the requests sent, the status line, the bell, the boxes. A
recording dummy on the core's state says who wrote to it: only client/core may.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from helpers.model import HAND, PLAYERS, at_table, seat_info, table, welcomed
from helpers.tournament import lobby, state

from leekha import protocol as P
from leekha.client.core import intents as I
from leekha.client.core.chat import Chats
from leekha.client.core.core import ClientCore
from leekha.client.core.link import Link
from leekha.client.core.lobby import Lobby
from leekha.client.core.requests import RequestTracker
from leekha.client.core.table import TableState
from leekha.client.core.tournaments import Tournaments
from leekha.client.tui import model as M
from leekha.client.tui.layout import render_text
from leekha.client.tui.tournament import TournamentScreen
from leekha.common import cards as C
from leekha.protocol.connection import Pending
from leekha.protocol.views import TableSummary, TournamentSummary

#: The methods that change the core's state, by the class that holds it.
MUTATORS: dict[type, tuple[str, ...]] = {
    Link: ("welcome", "lost", "failed"),
    Lobby: ("listed", "updated"),
    TableState: (
        *("snapshot", "table_update", "seat_update", "dealt", "fold", "game_over"),
        *("prompted", "own_pass", "turn", "left"),
    ),
    Chats: ("forget", "only_lobby"),
    Tournaments: ("listed", "stated"),
    # The core itself and its tracker: their attributes are set, and the session handed
    # in, by the core alone (`ClientCore.attach`).
    ClientCore: (),
    RequestTracker: ("attach",),
}


@pytest.fixture
def writers(monkeypatch: pytest.MonkeyPatch) -> Iterator[set[str]]:
    """The modules that changed the core or its link, lobby, table, chats, tournaments or
    request tracker (an attribute set, or a folding method called) while the test ran."""
    seen: set[str] = set()

    def record() -> None:
        seen.add(str(sys._getframe(2).f_globals.get("__name__", "?")))

    for cls, names in MUTATORS.items():

        def setattr_(self: object, name: str, value: object) -> None:
            record()
            object.__setattr__(self, name, value)

        monkeypatch.setattr(cls, "__setattr__", setattr_)
        for name in names:
            monkeypatch.setattr(cls, name, recorded(getattr(cls, name), record))
    yield seen


def recorded(f: Callable[..., Any], record: Callable[[], None]) -> Callable[..., Any]:
    def method(self: object, *a: Any, **k: Any) -> Any:
        record()
        return f(self, *a, **k)

    return method


def kinds(changes: list[Any]) -> list[str]:
    return [type(c).__name__ for c in changes]


def test_a_whole_game_s_messages_and_keys_change_the_core_s_state_only_in_the_core(
    writers: set[str],
) -> None:
    m = at_table()  # welcome, snapshot, deal, prompt
    m.choices.pass_sel = set(C.parse_cards("AH QH 7H"))
    m.enter()
    m.enter()
    (req,) = m.take_outbox()
    assert isinstance(req, P.PassCards)
    m.apply(P.Ok(re=req.id))
    m.apply(P.PassDone(seat=0))
    m.apply(P.PassedReceived(cards=C.parse_cards("3C 4C 6C"), from_seat=3))
    m.apply(P.ChatMessage(sender="bob", text="hi", table_id=7))
    m.apply(P.SeatUpdate(table_id=7, seat=2, player=seat_info("cy")))
    m.apply(P.GameOver(winners=[0], losers=[2], totals=[10, 20, 40, 30]))
    m.apply(P.SeatUpdate(table_id=7, seat=0, player=seat_info(None)))
    m.at_table.leave()  # released: back to the lobby with no request but the list
    m.apply(P.TableList(re=None, tables=[table("waiting"), {**table("waiting"), "id": 8}]))
    m.lobby.move(1)  # the lobby's keys move the screen's choice, not the core's lobby
    m.lobby.move_person(1)
    m.connection_lost("gone")
    m.apply(P.Welcome(re=9, version=[1, 0], server="srv", token="u" * 16, name="ann"))
    assert m.screen == M.LOBBY
    outside = {w for w in writers if not w.startswith("leekha.client.core")}
    assert outside == set(), outside
    assert any(w.startswith("leekha.client.core") for w in writers)  # the dummy records


def test_the_tui_s_state_is_the_core_s() -> None:
    m = welcomed()
    assert m.link is m.core.link and m.lobby.lobby is m.core.lobby
    assert m.game is m.core.table and m.chats is m.core.chats


def test_a_welcome_after_the_session_expired_leaves_the_table_and_asks_for_the_lobby() -> None:
    m = at_table()
    changes = m.apply(P.Welcome(re=2, version=[1, 0], server="s", token="v" * 16, name="ann"))
    assert kinds(changes) == ["LeftTable", "Welcomed"]
    assert m.screen == M.LOBBY and m.status_error
    assert "old session had expired" in m.status
    assert [type(r) for r in m.take_outbox()] == [P.ListTables]


def test_a_restarted_server_that_forgot_our_watching_gets_asked_again() -> None:
    m = welcomed(version=(1, 4))
    spectate = m.shared.request(I.Spectate(7, "pw"))
    assert isinstance(spectate, P.Spectate)
    m.apply(P.Snapshot(re=spectate.id, table=table("playing"), view=None, your_seat=None,
                       players=PLAYERS))  # fmt: skip
    m.take_outbox()
    welcome = P.Welcome(re=3, version=[1, 4], server="s", token="w" * 16, name="ann",
                        resumed=True, table_id=None)  # fmt: skip
    assert kinds(m.apply(welcome)) == ["LeftTable", "Welcomed"]
    (again,) = m.take_outbox()
    assert isinstance(again, P.Spectate) and (again.table_id, again.password) == (7, "pw")
    assert m.status == "reconnected: watching the table again"


def test_an_error_that_answers_nothing_of_ours_is_the_server_s_word() -> None:
    m = welcomed()
    changes = m.apply(P.Error(code="bad_request", message="no such thing", re=77))
    assert kinds(changes) == ["ServerError"]
    assert m.status.startswith("Server: ") and m.status_error


def test_a_refusal_is_worded_as_the_request_it_refused_and_opens_the_choice_again() -> None:
    m = at_table()
    m.choices.pass_sel = set(C.parse_cards("AH QH 7H"))
    m.enter()
    m.enter()
    (req,) = m.take_outbox()
    assert isinstance(req, P.PassCards) and not m.choices.my_turn
    changes = m.apply(P.Error(code="illegal", message="x", re=req.id, rule="pass_ban"))
    assert kinds(changes)[0] == "Answered"
    assert m.status_error and m.choices.my_turn and sorted(req.cards) == sorted(m.choices.pass_sel)


def test_the_tournament_s_next_game_pushed_rings_and_shuts_the_tournament_box() -> None:
    m = welcomed(version=(1, 4))
    m.in_lobby.entered = 3
    m.boxes.open(TournamentScreen(lambda _i: None, m.core.tournaments))
    nxt: TableSummary = {**table("playing"), "id": 9, "name": "evening #2"}
    changes = m.apply(P.Snapshot(re=None, table=nxt, view=None, your_seat=1, players=PLAYERS))
    assert kinds(changes)[0] == "TableChanged"
    assert m.alarm.ring and m.boxes.tournaments is None
    assert m.status == "your tournament game is ready: evening #2"


def test_a_snapshot_of_the_table_we_are_at_does_not_ring() -> None:
    m = at_table()
    m.in_lobby.entered = 3
    m.alarm.ring = False
    m.apply(P.Snapshot(re=None, table=table("playing"), view=None, your_seat=0, players=PLAYERS))
    assert not m.alarm.ring


def test_a_quick_phrase_is_kept_in_the_chat_by_the_core_and_shown_beside_the_seat() -> None:
    m = welcomed(version=(1, 4))
    m.apply(P.Snapshot(re=None, table=table("waiting"), view=None, your_seat=0, players=PLAYERS))
    said = P.PhraseSaid(sender="bob", code=P.PHRASES[0], table_id=7, seat=1)
    assert kinds(m.apply(said)) == ["ChatAdded"]
    assert [who for who, _t in m.chat] == ["bob"] and m.social.bubble(1) is not None
    elsewhere = P.PhraseSaid(sender="zed", code=P.PHRASES[0], table_id=8, seat=2)
    assert m.apply(elsewhere) == [] and len(m.chat) == 1


def test_our_deal_clears_the_deal_before_and_the_turn_s_clock_is_ours() -> None:
    m = at_table()
    assert m.alarm.deadline_at == 100.0 + 60.0  # the prompt's deadline on our clock
    changes = m.apply(P.Dealt(round=1, dealer=0, hand=HAND, pass_to=3))
    assert kinds(changes)[0] == "ViewChanged" and m.timeline.current is None


def test_wiring_the_session_hands_it_to_the_core_s_own_tracker(writers: set[str]) -> None:
    """The app's session goes to the core through `ClientCore.attach`: the tracker the core
    was made with keeps matching, now by the session's word, and nothing outside the core
    sets the core's parts."""
    m = welcomed()
    tracker = m.core.requests
    sent: list[P.Message] = []

    def send(msg: P.Message) -> bool:
        sent.append(msg)
        return True

    asked: list[P.Message] = []

    def answered(msg: P.Message) -> Pending | None:
        asked.append(msg)  # this session sent nothing: no reply is an answer on it
        return None

    m.wire(send, iter(range(40, 50)).__next__, answered)
    req = m.shared.request(I.ListTables())
    assert isinstance(req, P.ListTables) and req.id == 40 and sent == [req]
    assert m.core.requests is tracker
    reply = P.TableList(re=req.id, tables=[])
    assert kinds(m.apply(reply)) == ["LobbyChanged"]  # folded, but answers nothing of ours
    assert asked == [reply] and req in [a.request for a in m.core.in_flight()]
    outside = {w for w in writers if not w.startswith("leekha.client.core")}
    assert outside == set(), outside


FRIDAY: TournamentSummary = {"id": 7, "name": "Friday", "format": "round_robin",
                             "status": "running", "entrants": 4, "games_done": 3,
                             "games_total": 8}  # fmt: skip


def test_the_tournament_box_paints_the_tournaments_the_core_folded(writers: set[str]) -> None:
    m = lobby()
    m.in_lobby.open_tournaments()
    (ask,) = m.take_outbox()
    assert isinstance(ask, P.ListTournaments)
    assert kinds(m.apply(P.TournamentList(re=ask.id, tournaments=[FRIDAY]))) == [
        "TournamentsListed", "Answered"]  # fmt: skip
    listing = m.core.tournaments.listing
    assert listing is not None and [t["name"] for t in listing] == ["Friday"]
    box = m.boxes.tournaments
    assert box is not None and box.listing is listing  # read from the core, not copied
    assert "#7 Friday: round robin, running, 3/8 games, 4 entrants" in render_text(m)
    # A push of another tournament is folded (the core keeps it) but not shown here.
    other = state(done=1)
    other["id"], other["name"] = 8, "Saturday"
    assert kinds(m.apply(P.TournamentState(re=None, tournament=other))) == ["TournamentChanged"]
    assert m.core.tournaments.state(8) is not None and "Saturday" not in render_text(m)
    # Enter follows Friday: until the server answers, the box says it is asking.
    m.in_lobby.tournament_enter()
    (get,) = m.take_outbox()
    assert isinstance(get, P.GetTournament) and get.tournament_id == 7
    assert "asking the server" in render_text(m)
    answer = P.TournamentState(re=get.id, tournament=state(done=3))
    assert kinds(m.apply(answer)) == ["TournamentChanged", "Answered"]
    assert box.state is m.core.tournaments.state(7)
    assert "#7 Friday" in render_text(m) and "3/8 games" in render_text(m)
    # The server pushes Friday moved on: the core's fold is what the box paints next.
    m.apply(P.TournamentState(re=None, tournament=state(done=4, tables=1)))
    assert "4/8 games" in render_text(m)
    # Back to the list: asked again, and shown as asked until its answer comes, though the
    # core still holds the last list.
    m.escape()
    (again,) = m.take_outbox()
    assert isinstance(again, P.ListTournaments) and "asking the server" in render_text(m)
    assert m.core.tournaments.listing == listing
    outside = {w for w in writers if not w.startswith("leekha.client.core")}
    assert outside == set(), outside
