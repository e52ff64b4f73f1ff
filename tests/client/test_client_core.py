"""`ClientCore`, the sans-IO client core, fed messages and read back, h11-style.

The seat view folded from a whole game's messages must equal the engine's own seat view at
every step: the engine's events go through the server's own mapper
(`server/domain/wire_events.py`) and the prompts carry the engine's legal lists, so a
drift between the mapper, the fold and the engine shows up as a field-level mismatch. The
requests go to a recording `send`, and their answers are matched back to the intents that
asked.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from helpers import records as R
from helpers.engine import bot_moves
from helpers.tournament import state

from leekha import protocol as P
from leekha.client.core import intents as I
from leekha.client.core.core import (
    Answered,
    Change,
    ChatAdded,
    ClientCore,
    DecisionDue,
    GameEnded,
    LeftTable,
    LinkLost,
    LobbyChanged,
    ServerError,
    TableChanged,
    TournamentChanged,
    TournamentsListed,
    ViewChanged,
)
from leekha.client.core.lobby import Choice, Lobby
from leekha.common.bots.base import decide, make_strategy
from leekha.common.config import PRESETS, Rules, preset
from leekha.common.game import Game
from leekha.common.view import SeatViewDict, result, seat_view
from leekha.protocol.connection import Pending
from leekha.protocol.views import TableSummary, TournamentSummary
from leekha.server.domain import wire_events

CHECKED = [
    "seat", "phase", "round", "dealer", "pass_to", "turn", "passed", "received", "leader",
    "passes_done", "doubled", "trick", "tricks", "taken", "totals", "history", "result",
]  # fmt: skip


class Recorder:
    """The session's side of the core: what was sent, and whether the link is up."""

    def __init__(self) -> None:
        self.sent: list[P.Message] = []
        self.up = True
        self.ids = itertools.count(1)

    def send(self, msg: P.Message) -> bool:
        if self.up:
            self.sent.append(msg)
        return self.up

    def core(self) -> ClientCore:
        return ClientCore(self.send, lambda: next(self.ids))


def _summary(rules: Rules, **over: Any) -> TableSummary:
    return R.summary(rules=rules, status="playing", **over)


def _snapshot(game: Game, me: int, **view: Any) -> P.Snapshot:
    snap_view: SeatViewDict = {**seat_view(game, me).to_dict(), **view}  # type: ignore[typeddict-item]
    return P.Snapshot(table=_summary(game.config.to_dict()), view=snap_view, your_seat=me,
                      players=[R.player("x")] * 4)  # fmt: skip


def _prompt(game: Game, me: int, asked: set[tuple[int, str, int, int]]) -> P.YourTurn | None:
    """The server's `your_turn` for `me` when a decision of `me`'s starts (`asked`: the
    decisions prompted so far, named by the engine's view)."""
    v = seat_view(game, me)
    key = (v.round, v.phase, len(v.tricks), len(v.trick))
    if not v.legal or key in asked:
        return None
    asked.add(key)
    return P.YourTurn(phase=v.phase, legal=v.legal, can_double=v.can_double)


@pytest.mark.parametrize("preset_name", ["classic", "levant"])
@pytest.mark.parametrize("seed", [1, 2])
def test_a_whole_game_folds_to_the_engine_s_view_and_says_each_decision(
    preset_name: str, seed: int
) -> None:
    config = preset(preset_name, {"target": 60})
    game = Game(config, seed)
    me = seed % 4
    wire = Recorder()
    core = wire.core()
    # what an older server sends: no legal cards yet, no 1.1 fields (decoded as defaults)
    core.receive(_snapshot(game, me, legal=[], can_double=[], rules={}))
    strategies = [make_strategy("random", seed + s) for s in range(4)]
    rng = random.Random(seed)
    said: list[DecisionDue] = []
    decisions = 0
    asked: set[tuple[int, str, int, int]] = set()
    prompt = _prompt(game, me, asked)
    changes: list[Change] = core.receive(prompt) if prompt else []
    for steps, action in enumerate(bot_moves(game, strategies, rng)):
        said += [c for c in changes if isinstance(c, DecisionDue)]
        mine = action["seat"] == me and action["kind"] in ("pass", "play")
        key = core.decision()
        if mine:
            decisions += 1
            assert key is not None and key[1] == action["kind"], steps
        changes = []
        sent = None
        if mine and action["kind"] == "pass":
            cards = action["cards"]
            assert isinstance(cards, list) and key is not None
            sent = core.request(I.Pass(tuple(cards), key))
        events = wire_events.messages(game.apply(action), me)
        if sent is not None:
            changes += core.receive(P.Ok(re=sent.id))  # type: ignore[attr-defined]
        for msg in events:
            changes += core.receive(msg)
        prompt = _prompt(game, me, asked)
        if prompt is not None:
            changes += core.receive(prompt)
        expected = seat_view(game, me)
        got = core.table.view
        assert got is not None
        for field in CHECKED:
            assert getattr(got, field) == getattr(expected, field), (steps, field)
        # Our passed cards leave the hand on screen as soon as the server takes them; the
        # engine keeps them until the exchange.
        shown = expected.hand
        if expected.phase == "pass" and expected.passed is not None:
            shown = [c for c in expected.hand if c not in expected.passed]
        assert got.hand == shown, steps
        # A scored round's points move to the score sheet (`history`): the seats show 0
        # until the next trick (the engine keeps the last round's until the next deal).
        over = expected.phase == "game_over"
        assert got.round_points == ([0] * 4 if over else expected.round_points), steps
        assert (core.decision() is not None) == bool(expected.legal), steps
    final = core.table.view
    assert game.outcome is not None and final is not None and final.result == result(game)
    assert any(isinstance(c, GameEnded) for c in changes)
    assert len(said) == decisions  # each decision said due once, each one we made
    assert len({c.key for c in said}) == decisions


def test_the_strategy_s_view_has_the_rules_and_the_doubles() -> None:
    config = preset("levant")
    game = Game(config, 5)
    core = Recorder().core()
    view = seat_view(game, 0)
    core.receive(_snapshot(game, 0, legal=[]))
    assert core.decision() is None and core.seat_view() is not None
    changes = core.receive(P.YourTurn(phase="pass", legal=view.legal))
    assert changes[-1] == DecisionDue("pass", (0, "pass", 0, 0))
    sv = core.seat_view()
    assert sv is not None
    assert sv.rules == config.to_dict() and sv.seat == 0
    assert sv.can_double == game.can_double(0)
    assert decide(make_strategy("random", 1), sv)[-1]["kind"] == "pass"
    # the same prompt again (after a refusal) says it again; another seat's pass does not
    assert core.receive(P.YourTurn(phase="pass", legal=view.legal))[-1] == changes[-1]
    assert core.receive(P.PassDone(seat=1)) == [ViewChanged(P.PassDone(seat=1))]


def test_a_1_1_server_lists_the_doubles_itself() -> None:
    config = preset("levant")
    game = Game(config, 2)
    view = seat_view(game, 0).to_dict()
    derived = game.can_double(0)
    assert len(derived) >= 1  # the seed deals a Leekha card, so the two sources can differ
    core = Recorder().core()
    core.receive(P.Welcome(re=1, version=[1, 1], server="s", token="t", name="b"))
    core.receive(_snapshot(game, 0, legal=[]))
    core.receive(P.YourTurn(phase="pass", legal=view["legal"], can_double=[]))

    def doubles(c: ClientCore) -> list[int]:
        sv = c.seat_view()
        assert sv is not None
        return sv.can_double

    assert doubles(core) == []  # the server's word, not our derivation
    core.receive(P.YourTurn(phase="pass", legal=view["legal"], can_double=derived[:1]))
    assert doubles(core) == derived[:1]
    core.receive(P.DoubleRevealed(seat=0, card=derived[0]))
    assert doubles(core) == []
    # a 1.0 server: the field is absent (decoded as []), so the rule is applied locally
    old = Recorder().core()
    old.receive(P.Welcome(re=1, version=[1, 0], server="s", token="t", name="b"))
    old.receive(_snapshot(game, 0, can_double=[]))
    assert doubles(old) == derived


def test_null_view_before_first_deal() -> None:
    core = Recorder().core()
    snap = P.Snapshot(table=_summary(preset("classic").to_dict()), view=None, your_seat=2,
                      players=[R.player()] * 4)  # fmt: skip
    assert core.receive(snap) == [TableChanged(1, True, arrived=True, unasked=True)]
    assert core.table.your_seat == 2 and core.decision() is None and core.seat_view() is None


def test_rules_this_client_does_not_know_are_read_as_the_preset() -> None:
    core = Recorder().core()
    rules = {**preset("levant").to_dict(), "a_future_rule": True}
    core.receive(P.Snapshot(table=_summary(rules, preset="levant"), view=None, your_seat=0,
                            players=[R.player()] * 4))  # fmt: skip
    assert core.rules == PRESETS["levant"]


def test_a_snapshot_that_shows_the_game_over_ends_the_game_we_were_playing() -> None:
    game = Game(preset("classic", {"target": 20}), 3)
    core = Recorder().core()
    core.receive(_snapshot(game, 0))
    strategies = [make_strategy("random", s) for s in range(4)]
    for action in bot_moves(game, strategies, random.Random(3)):
        game.apply(action)
    over = _snapshot(game, 0)
    over = P.Snapshot(table=_summary(game.config.to_dict()) | {"status": "finished"},
                      view=over.view, your_seat=0, players=over.players)  # fmt: skip
    assert GameEnded(missed=True) in core.receive(over)
    assert not any(isinstance(c, GameEnded) for c in core.receive(over))  # once


# ---- requests --------------------------------------------------------------------------
def test_a_request_is_built_sent_and_its_answer_names_the_intent() -> None:
    wire = Recorder()
    core = wire.core()
    join = I.JoinTable(3, "pw")
    sent = core.request(join)
    assert wire.sent == [P.JoinSeat(id=1, table_id=3, password="pw")] and sent == wire.sent[0]
    refusal = P.Error(re=1, code="bad_password", message="no")
    (answered,) = core.receive(refusal)
    assert isinstance(answered, Answered)
    assert answered.intent == join and answered.refusal == refusal
    # answered once: a second one answers nothing of ours, the server's own word
    assert core.receive(refusal) == [ServerError(refusal)]
    assert core.receive(P.Ok(re=99)) == []  # a reply to nothing we asked


def test_a_request_on_a_dead_link_is_not_tracked_and_a_drop_hands_back_the_open_ones() -> None:
    wire = Recorder()
    core = wire.core()
    core.request(I.Start())
    core.request(I.Play(5, (0, "play", 0, 0)))
    wire.up = False
    assert core.request(I.Rematch()) is None
    (lost,) = core.lost("gone")
    assert isinstance(lost, LinkLost)
    assert [a.note for a in lost.requests] == [I.Start(), I.Play(5, (0, "play", 0, 0))]
    assert core.link.state == "reconnecting" and list(core.in_flight()) == []


def test_every_intent_becomes_its_request() -> None:
    key = (1, "play", 2, 3)
    pairs: list[tuple[I.Intent, P.Message]] = [
        (I.ListTables(confirm=True), P.ListTables(id=7)),
        (I.ListTables(cursor=40), P.ListTables(id=7, cursor=40)),
        (I.Spectate(3, "pw"), P.Spectate(id=7, table_id=3, password="pw")),
        (I.ListTournaments(), P.ListTournaments(id=7)),
        (I.GetTournament(2), P.GetTournament(id=7, tournament_id=2)),
        (I.CancelTournament(2), P.CancelTournament(id=7, tournament_id=2)),
        (I.CreateTable("t", "levant", {"target": 30}, None),
         P.CreateTable(id=7, name="t", preset="levant", overrides={"target": 30})),
        (I.Leave(), P.Leave(id=7)),
        (I.Start(), P.Start(id=7)),
        (I.Rematch(), P.Rematch(id=7)),
        (I.EnterTournament(4), P.EnterTournament(id=7, tournament_id=4)),
        (I.Ping(), P.Ping(id=7)),
        (I.Double(12), P.DeclareDouble(id=7, card=12)),
        (I.Pass((9, 3, 5), key), P.PassCards(id=7, cards=[3, 5, 9])),
        (I.Play(8, key, 2), P.PlayCard(id=7, card=8)),
    ]  # fmt: skip
    for intent, msg in pairs:
        assert I.message_of(intent, 7) == msg


def test_our_leave_taken_puts_us_in_the_lobby_and_drops_the_table_s_chat() -> None:
    wire = Recorder()
    core = wire.core()
    core.receive(P.Snapshot(table=_summary(preset("classic").to_dict(), id=4), view=None,
                            your_seat=1, players=[R.player()] * 4))  # fmt: skip
    line = P.ChatMessage(sender="ann", text="hi", table_id=4)
    assert core.receive(line) == [ChatAdded(line)]
    assert list(core.chats.at(4)) == [("ann", "hi")]
    sent = core.request(I.Leave())
    assert sent is not None
    changes = core.receive(P.Ok(re=1))
    assert changes[0] == LeftTable(4) and isinstance(changes[1], Answered)
    assert core.table.table is None and list(core.chats.at(4)) == []


# ---- the lobby -------------------------------------------------------------------------
def _table(tid: int, name: str, *, taken: int = 1, status: str = "waiting",
           password: bool = False) -> TableSummary:  # fmt: skip
    seats = [R.seat(f"p{i}") for i in range(taken)] + [R.seat() for _ in range(4 - taken)]
    summary = R.summary(id=tid, name=name, seats=seats, status=status)  # type: ignore[arg-type]
    return summary | {"has_password": password}


@pytest.mark.parametrize(
    ("tables", "password", "choice"),
    [
        ([_table(9, "t"), _table(5, "t", taken=4), _table(6, "t"), _table(2, "x")], None,
         Choice("join", 6)),
        ([_table(3, "t", status="playing"), _table(4, "t", taken=4)], None, Choice("busy")),
        ([_table(3, "x")], None, Choice("absent")),
        ([_table(3, "t", password=True)], None, Choice("locked")),
        ([_table(3, "t", password=True)], "", Choice("join", 3)),
        ([_table(3, "t", password=True), _table(5, "t")], None, Choice("join", 5)),
    ],
)  # fmt: skip
def test_which_table_of_a_name_to_join(
    tables: list[TableSummary], password: str | None, choice: Choice
) -> None:
    lobby = Lobby()
    lobby.listed(P.TableList(re=1, tables=tables))
    assert lobby.choose("t", password) == choice


def test_the_lobby_is_folded_from_its_list_and_updates() -> None:
    core = Recorder().core()
    assert core.receive(P.TableList(re=None, tables=[_table(2, "t")])) == [LobbyChanged()]
    core.receive(P.TableUpdate(table_id=2, table=None))
    assert core.lobby.choose("t", None) == Choice("absent")


# ---- tournaments -------------------------------------------------------------------------
def _listed(tid: int, name: str) -> TournamentSummary:
    """A line of `tournament_list` as a 1.4 server sends it (it says no start time)."""
    return {"id": tid, "name": name, "format": "swiss", "status": "running", "entrants": 5,
            "games_done": 3, "games_total": 48, "starts_at": None, "starts_in_s": None}  # fmt: skip


def test_the_tournament_list_is_folded_when_it_answers_our_asking_and_said_before_it() -> None:
    rec = Recorder()
    core = rec.core()
    assert core.tournaments.listing is None  # nothing asked yet
    ask = core.request(I.ListTournaments())
    assert isinstance(ask, P.ListTournaments)
    listed = [_listed(9, "Cup"), _listed(4, "Friday")]
    changes = core.receive(P.TournamentList(re=ask.id, tournaments=listed))
    assert [type(c) for c in changes] == [TournamentsListed, Answered]
    assert isinstance(changes[1], Answered) and changes[1].intent == I.ListTournaments()
    assert core.tournaments.listing == listed
    # A list answering nothing of ours (its request long gone) is no news: kept as it was.
    assert core.receive(P.TournamentList(re=99, tournaments=[])) == []
    assert core.tournaments.listing == listed
    # Asked again: the new list replaces the old one whole.
    again = core.request(I.ListTournaments())
    assert isinstance(again, P.ListTournaments)
    core.receive(P.TournamentList(re=again.id, tournaments=[_listed(4, "Friday")]))
    assert core.tournaments.listing == [_listed(4, "Friday")]


def test_a_tournament_s_state_answered_or_pushed_is_kept_by_its_id() -> None:
    rec = Recorder()
    core = rec.core()
    assert core.tournaments.state(7) is None
    get = core.request(I.GetTournament(7))
    assert isinstance(get, P.GetTournament)
    answer = P.TournamentState(re=get.id, tournament=state(done=3))
    changes = core.receive(answer)
    assert changes[0] == TournamentChanged(answer.tournament, pushed=False)
    assert [type(c) for c in changes] == [TournamentChanged, Answered]
    assert core.tournaments.state(7) == answer.tournament
    # A push: the tournament moved on, and the newer state replaces the older one.
    push = P.TournamentState(re=None, tournament=state(done=4, tables=1))
    assert core.receive(push) == [TournamentChanged(push.tournament, pushed=True)]
    kept = core.tournaments.state(7)
    assert kept is not None and kept["games_done"] == 4 and len(kept["tables"]) == 1
    # Another tournament's push is kept beside it, by its own id.
    other = state(status="waiting", tables=0, done=0)
    other["id"] = 8
    core.receive(P.TournamentState(re=None, tournament=other))
    eight = core.tournaments.state(8)
    assert eight is not None and eight["status"] == "waiting"
    assert core.tournaments.state(7) == push.tournament and core.tournaments.state(None) is None


def test_a_core_attached_to_its_session_keeps_its_tracker_and_what_is_in_flight() -> None:
    """`attach` hands the core the session its requests go to from then on; the tracker is
    the one it was made with, so a request asked before is still answered."""
    before, after = Recorder(), Recorder()
    core = before.core()
    tracker = core.requests
    early = core.request(I.ListTables())
    assert isinstance(early, P.ListTables) and before.sent == [early]
    theirs: list[P.Message] = []  # the replies the session was asked about

    def answered(msg: P.Message) -> Pending | None:
        theirs.append(msg)
        return Pending(early) if getattr(msg, "re", None) == early.id else None

    core.attach(after.send, itertools.count(500).__next__, answered)
    assert core.requests is tracker and len(tracker) == 1
    late = core.request(I.ListTournaments())
    assert isinstance(late, P.ListTournaments) and late.id == 500 and after.sent == [late]
    assert before.sent == [early]
    # The session says which replies answer a request sent on it: the early one does, the
    # late one's (say, a reply to a request of an older connection) does not.
    got = core.receive(P.TableList(re=early.id, tables=[]))
    assert [type(c) for c in got] == [LobbyChanged, Answered]
    assert core.receive(P.TournamentList(re=late.id, tournaments=[])) == []
    assert theirs == [
        P.TableList(re=early.id, tables=[]),
        P.TournamentList(re=late.id, tournaments=[]),
    ]
    assert [a.request for a in core.in_flight()] == [late]
