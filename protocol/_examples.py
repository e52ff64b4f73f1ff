"""Example messages and a whole-game transcript, used by the docs generator.

Building them through the real classes means every example in docs/protocol.md is valid.

Why one module of ~500 lines: it is data, one example per message type in the order the
docs show them, plus one transcript; `_docgen` and the golden test read it whole, and a
test checks that it covers every type, which one table makes plain to see.
"""

from __future__ import annotations

from dataclasses import replace

from leekha.common.events import SeatStats

from . import catalogue as msg
from . import people
from . import tournaments as tour
from .message import Message
from .views import (
    Control,
    PlayerInfo,
    Rules,
    SeatInfo,
    SeatViewDict,
    TableStatus,
    TableSummary,
    Tournament,
)

__all__ = ["EXAMPLES", "TRANSCRIPT", "Step"]

CLASSIC: Rules = {
    "club_leekha": False,
    "dealer_rule": "rotate",
    "doubling": False,
    "game_end": "round_end",
    "moon_penalty": 0,
    "partnership": "off",
    "pass_ban": True,
    "pass_direction": "right",
    "talbees": False,
    "target": 101,
    "undercut": False,
    "void_rule": "any_leekha",
}
TOKEN = "q3W0vY2kZp8sLx1N"


def _seat(name: str | None, bot: bool = False, connected: bool = True) -> SeatInfo:
    return {"name": name, "is_bot": bot, "connected": connected if name else False}


def _player(name: str | None, strategy: str | None = None, host: bool = False) -> PlayerInfo:
    control: Control | None = None if name is None else "bot" if strategy is not None else "human"
    return {
        "name": name,
        "is_bot": strategy is not None,
        "connected": name is not None,
        "strategy": strategy,
        "is_host": host,
        "control": control,
        "control_reason": "added" if strategy is not None else None,
    }


#: Bob's seat after his second timeout in a row: a bot plays it until he acts.
BOB_AUTOPILOT: PlayerInfo = {
    "name": "bob",
    "is_bot": False,
    "connected": True,
    "strategy": "heuristic",
    "is_host": False,
    "control": "autopilot",
    "control_reason": "timeouts",
}
#: Every seat's statistics of the game that ends in the examples (six rounds).
STATS: list[SeatStats] = [
    {"tricks": 19, "leekhas": 2, "moons": 0, "rounds": [14, 9, 11, 6, 12, 6]},
    {"tricks": 22, "leekhas": 5, "moons": 0, "rounds": [3, 21, 13, 18, 23, 26]},
    {"tricks": 20, "leekhas": 3, "moons": 0, "rounds": [6, 16, 23, 12, 10, 4]},
    {"tricks": 17, "leekhas": 1, "moons": 0, "rounds": [13, 10, 9, 4, 4, 0]},
]
GAME_OVER = msg.GameOver(
    winners=[3], losers=[1], totals=[58, 104, 71, 40], reason="target", stats=STATS, game_id=12
)


def _table(status: TableStatus, seats: list[SeatInfo], connected0: bool = True) -> TableSummary:
    seats = [s.copy() for s in seats]
    seats[0]["connected"] = connected0
    return {
        "id": 7,
        "name": "Friday night",
        "host": "alice",
        "preset": "classic",
        "rules": CLASSIC,
        "seats": seats,
        "spectators": 0,
        "status": status,
        "has_password": False,
        "timers": {"pass_s": 60, "turn_s": 30},
        "counting_aid": True,
    }


EMPTY = [_seat("alice"), _seat(None), _seat(None), _seat(None)]
BOTS = ["heuristic bot 1", "heuristic bot 2", "heuristic bot 3"]
FULL = [_seat("alice"), *(_seat(b, True) for b in BOTS)]
PLAYERS = [_player("alice", host=True), *(_player(b, "heuristic") for b in BOTS)]
HAND = [0, 5, 11, 14, 21, 24, 27, 33, 37, 41, 49, 50, 51]


#: Seat 0's view at the deal of round 0 (the examples change what they show).
VIEW: SeatViewDict = {
    "seat": 0,
    "phase": "pass",
    "round": 0,
    "dealer": 0,
    "pass_to": 1,
    "turn": None,
    "hand": [],
    "passed": None,
    "received": None,
    "passes_done": [False, False, False, False],
    "doubled": [],
    "trick": [],
    "leader": None,
    "tricks": [],
    "taken": [[], [], [], []],
    "round_points": [0, 0, 0, 0],
    "totals": [0, 0, 0, 0],
    "legal": [],
    "history": [],
    "result": None,
    "can_double": [],
    "rules": CLASSIC,
}


TRICK_1 = [[1, 7], [2, 12], [3, 3], [0, 0]]
TRICK_2 = [[2, 44], [3, 46], [0, 41], [1, 50]]
AFTER_TWO = [2, 5, 11, 13, 14, 21, 27, 30, 33, 37, 49]

SNAP_NEW = msg.Snapshot(
    re=3,
    table=_table("waiting", EMPTY),
    view=None,
    your_seat=0,
    players=[_player("alice", host=True), _player(None), _player(None), _player(None)],
)
SNAP_START = msg.Snapshot(
    table=_table("playing", FULL),
    view={**VIEW, "hand": HAND, "legal": HAND},
    your_seat=0,
    players=PLAYERS,
)
SNAP_RESUME = msg.Snapshot(
    re=1,
    table=_table("playing", FULL),
    view={
        **VIEW,
        "phase": "play",
        "turn": 1,
        "leader": 1,
        "hand": AFTER_TWO,
        "passed": [24, 50, 51],
        "received": [2, 13, 30],
        "passes_done": [True, True, True, True],
        "tricks": [
            {"leader": 1, "cards": TRICK_1, "winner": 2, "points": 0},
            {"leader": 2, "cards": TRICK_2, "winner": 1, "points": 0},
        ],
    },
    your_seat=0,
    players=PLAYERS,
)

#: A challenge nonce and a signature of the right sizes (32 and 64 bytes, base64).
NONCE = "q83vEjRWeJq83vEjRWeJq83vEjRWeJq83vEjRWeJq8w="
SIGNATURE = "SIG" + "A" * 82 + "Q=="

TOURNAMENT: Tournament = {
    "id": 3,
    "name": "Bots of Aleppo",
    "format": "round_robin",
    "status": "running",
    "preset": "classic",
    "rules": CLASSIC,
    "deals": 8,
    "stages": None,
    "move_timer_s": 10,
    "entrants": [
        {"index": 0, "name": "maya-bot", "strategy": None, "kind": "client", "present": True},
        {
            "index": 1,
            "name": "heuristic#2",
            "strategy": "heuristic",
            "kind": "server",
            "present": True,
        },
        {"index": 2, "name": "search#3", "strategy": "search", "kind": "server", "present": True},
        {"index": 3, "name": "omar-bot", "strategy": None, "kind": "client", "present": False},
    ],
    "standings": [
        {
            "entrant": 2,
            "rank": 1,
            "games": 8,
            "wins": 4,
            "rounds": 41,
            "points": 290,
            "mean": 7.073,
            "low": 5.912,
            "high": 8.234,
            "fallback_games": 0,
            "fallback_moves": 0,
        },
        {
            "entrant": 0,
            "rank": 2,
            "games": 8,
            "wins": 2,
            "rounds": 41,
            "points": 402,
            "mean": 9.805,
            "low": 8.1,
            "high": 11.51,
            "fallback_games": 0,
            "fallback_moves": 0,
        },
        {
            "entrant": 1,
            "rank": 3,
            "games": 8,
            "wins": 2,
            "rounds": 41,
            "points": 417,
            "mean": 10.171,
            "low": 8.6,
            "high": 11.742,
            "fallback_games": 0,
            "fallback_moves": 0,
        },
        {
            "entrant": 3,
            "rank": 4,
            "games": 8,
            "wins": 0,
            "rounds": 41,
            "points": 551,
            "mean": 13.439,
            "low": 11.03,
            "high": 15.848,
            "fallback_games": 3,
            "fallback_moves": 61,
        },
    ],
    "tables": [{"table_id": 41, "game": 8, "deal": 2, "rotation": 0, "seats": [0, 1, 2, 3]}],
    "games_done": 8,
    "games_total": 32,
    "notes": ["game 6: the fallback made 14 moves for omar-bot"],
    "note_codes": [
        {"code": "fallback_moves", "args": {"game": 6, "moves": 14, "name": "omar-bot"}}
    ],
    "starts_at": 1764709200.0,
    "starts_in_s": 0,
}

#: One example per message type, keyed by type tag.
EXAMPLES: dict[str, Message] = {
    m.TYPE: m
    for m in [
        msg.Hello(id=1, versions=[[1, 4]], name="alice", client="leekha-tui 0.1"),
        msg.Resume(id=1, versions=[[1, 4]], token=TOKEN),
        msg.Welcome(re=1, version=[1, 4], server="leekha-server 0.1", token=TOKEN, name="alice"),
        msg.Challenge(re=1, nonce=NONCE, server="k3P9xQ2mT8vA"),
        msg.Prove(re=1, signature=SIGNATURE),
        msg.Error(
            code="must_follow_suit",
            message="you must follow clubs; legal: 2♣ 4♣",
            re=12,
            rule="follow_suit",
            args={"suit": 0, "legal": [0, 2]},
        ),
        msg.Ok(re=5),
        msg.Ping(id=40),
        msg.Pong(re=40),
        msg.ListTables(id=2, cursor=None),
        msg.TableList(re=2, tables=[_table("waiting", EMPTY)], total=1, next=None),
        msg.TableUpdate(table_id=7, table=None),
        msg.CreateTable(
            id=3,
            name="Friday night",
            preset="classic",
            overrides={"doubling": True, "target": 151},
            password=None,
            pass_timer_s=60,
            turn_timer_s=30,
        ),
        msg.JoinSeat(id=4, table_id=7, seat=2, password="sesame"),
        msg.Spectate(id=4, table_id=7),
        msg.Leave(id=20),
        msg.AddBot(id=5, seat=1, strategy="heuristic"),
        msg.RemoveBot(id=6, seat=1),
        msg.Start(id=8),
        msg.Rematch(id=30),
        msg.PassCards(id=9, cards=[51, 50, 24]),
        msg.DeclareDouble(id=9, card=49),
        msg.PlayCard(id=10, card=0),
        msg.TakeBack(id=14),
        msg.Chat(id=11, text="good luck ☺"),
        SNAP_RESUME,
        msg.Dealt(round=0, dealer=3, hand=HAND, pass_to=1),
        msg.PassDone(seat=2),
        msg.PassedReceived(cards=[2, 13, 30], from_seat=3),
        msg.DoubleRevealed(seat=3, card=21),
        msg.CardPlayed(seat=1, card=7),
        msg.TrickTaken(winner=2, cards=TRICK_1, points=0),
        msg.RoundScored(
            round=0,
            round_points=[14, 3, 6, 13],
            totals=[14, 3, 6, 13],
            taken=[[21, 27, 30, 33], [26, 28, 29], [31, 32, 34, 35, 36, 38], [49]],
            moon=None,
            stopped=False,
            tie=False,
        ),
        GAME_OVER,
        msg.SeatUpdate(table_id=7, seat=1, player=BOB_AUTOPILOT),
        msg.YourTurn(phase="play", legal=[2, 5, 11], deadline=29.5),
        msg.Turn(phase="play", seats=[[1, 29.5]]),
        msg.ChatMessage(
            sender="*",
            text="bob let the clock run out 2 times: a bot plays the seat until they act",
            table_id=7,
            code="timeouts_bot",
            args={"name": "bob", "seat": 1, "count": 2},
        ),
        msg.GetStats(id=70, name="alice"),
        tour.CreateTournament(
            id=80,
            name="Bots of Aleppo",
            format="round_robin",
            entrants=[
                {"name": "maya-bot", "strategy": None},
                {"name": None, "strategy": "heuristic"},
                {"name": None, "strategy": "search"},
                {"name": "omar-bot", "strategy": None},
            ],
            deals=8,
            preset="classic",
            move_timer_s=10,
            starts_at=1764709200.0,
        ),
        tour.ListTournaments(id=81),
        tour.TournamentList(
            re=81,
            tournaments=[
                {
                    "id": 3,
                    "name": "Bots of Aleppo",
                    "format": "round_robin",
                    "status": "running",
                    "entrants": 4,
                    "games_done": 8,
                    "games_total": 32,
                    "starts_at": 1764709200.0,
                    "starts_in_s": 0,
                }
            ],
        ),
        people.Phrase(id=90, code="well_played"),
        people.PhraseSaid(sender="bob", code="well_played", seat=1, table_id=7),
        people.GetProfile(id=92, name="alice"),
        people.Profile(
            re=92,
            name="alice",
            stats={
                "name": "alice",
                "games": 12,
                "wins": 5,
                "avg_points_per_round": 7.25,
                "rating": 27.314,
                "rating_sigma": 4.102,
                "leekhas": 9,
                "moons": 1,
            },
            recent=[
                {
                    "game_id": 41,
                    "table": "friday",
                    "finished": 1764620400.0,
                    "seat": 2,
                    "points": 38,
                    "won": True,
                    "players": ["bob", "carla", "alice", "medium bot 3"],
                }
            ],
        ),
        people.QuickPlay(id=91, preset="levant", overrides={"target": 51}, bot="hard", wait_s=30),
        tour.GetTournament(id=82, tournament_id=3),
        tour.EnterTournament(id=2, tournament_id=3),
        tour.CancelTournament(id=83, tournament_id=3),
        tour.TournamentState(re=82, tournament=TOURNAMENT),
        msg.Stats(
            re=70,
            players=[
                {
                    "name": "alice",
                    "games": 12,
                    "wins": 5,
                    "avg_points_per_round": 7.25,
                    "rating": 27.314,
                    "rating_sigma": 4.102,
                    "leekhas": 9,
                    "moons": 1,
                }
            ],
        ),
    ]
}

#: (arrow, message or None, note). Arrow "C→S" or "S→C"; None with "…" marks a cut.
Step = tuple[str, Message | None, str]

TRANSCRIPT: list[Step] = [
    ("", None, "TCP connection opened."),
    ("C→S", msg.Hello(id=1, versions=[[1, 4]], name="alice", client="leekha-tui 0.1"), ""),
    (
        "S→C",
        msg.Welcome(re=1, version=[1, 4], server="leekha-server 0.1", token=TOKEN, name="alice"),
        "keep the token",
    ),
    ("C→S", msg.ListTables(id=2), "the first page"),
    ("S→C", msg.TableList(re=2, tables=[], total=0), "no tables yet"),
    ("C→S", msg.CreateTable(id=3, name="Friday night", pass_timer_s=60, turn_timer_s=30), ""),
    ("S→C", SNAP_NEW, "reply to create_table: alice is host at seat 0"),
    ("C→S", msg.AddBot(id=4, seat=1), ""),
    ("S→C", msg.SeatUpdate(table_id=7, seat=1, player=_player(BOTS[0], "heuristic")), ""),
    ("S→C", msg.Ok(re=4), ""),
    ("", None, "… add_bot for seats 2 and 3 likewise (ids 5, 6) …"),
    ("C→S", msg.Start(id=7), ""),
    ("S→C", msg.Ok(re=7), ""),
    ("S→C", SNAP_START, "the game starts: every member gets a snapshot (status playing)"),
    (
        "S→C",
        msg.Dealt(round=0, dealer=0, hand=HAND, pass_to=1),
        "then dealt, as every round begins; alice passes to seat 1",
    ),
    ("S→C", msg.YourTurn(phase="pass", legal=HAND, deadline=60.0), ""),
    (
        "S→C",
        msg.Turn(phase="pass", seats=[[0, 60.0]]),
        "to everyone at the table (the bots have passed already, or pass at once)",
    ),
    ("S→C", msg.PassDone(seat=1), "bots pass at once"),
    ("S→C", msg.PassDone(seat=2), ""),
    ("S→C", msg.PassDone(seat=3), ""),
    ("C→S", msg.PassCards(id=8, cards=[24, 50, 51]), "K♦ K♠ A♠"),
    ("S→C", msg.Ok(re=8), ""),
    ("S→C", msg.PassDone(seat=0), ""),
    ("S→C", msg.PassedReceived(cards=[2, 13, 30], from_seat=3), "4♣ 2♦ 6♥ from seat 3"),
    ("S→C", msg.CardPlayed(seat=1, card=7), "seat 1 leads the first trick ((dealer + 1) % 4): 9♣"),
    ("S→C", msg.CardPlayed(seat=2, card=12), ""),
    ("S→C", msg.CardPlayed(seat=3, card=3), ""),
    (
        "S→C",
        msg.YourTurn(phase="play", legal=[0, 2, 5, 11], deadline=30.0),
        "alice must follow clubs",
    ),
    ("S→C", msg.Turn(phase="play", seats=[[0, 30.0]]), "everyone sees whose turn it is"),
    ("C→S", msg.PlayCard(id=9, card=0), "2♣"),
    ("S→C", msg.Ok(re=9), ""),
    ("S→C", msg.CardPlayed(seat=0, card=0), ""),
    ("S→C", msg.TrickTaken(winner=2, cards=TRICK_1, points=0), "A♣ takes it"),
    ("S→C", msg.CardPlayed(seat=2, card=44), ""),
    ("S→C", msg.CardPlayed(seat=3, card=46), ""),
    ("S→C", msg.YourTurn(phase="play", legal=[41, 49], deadline=30.0), "must follow spades"),
    ("C→S", msg.PlayCard(id=10, card=41), "4♠, keeping the Q♠ back"),
    ("S→C", msg.Ok(re=10), ""),
    ("S→C", msg.CardPlayed(seat=0, card=41), ""),
    ("S→C", msg.CardPlayed(seat=1, card=50), ""),
    ("S→C", msg.TrickTaken(winner=1, cards=TRICK_2, points=0), "K♠ (seat 1) takes it"),
    (
        "",
        None,
        "The connection drops. The server keeps seat 0 for the session and marks it "
        "disconnected; the bots wait (or a timer plays for alice).",
    ),
    (
        "S→C",
        msg.SeatUpdate(
            table_id=7, seat=0, player={**_player("alice", host=True), "connected": False}
        ),
        "sent to the other connections at the table",
    ),
    ("", None, "New TCP connection."),
    ("C→S", msg.Resume(id=1, versions=[[1, 4]], token=TOKEN), "request ids restart per connection"),
    (
        "S→C",
        msg.Welcome(
            re=1,
            version=[1, 4],
            server="leekha-server 0.1",
            token=TOKEN,
            name="alice",
            resumed=True,
            table_id=7,
            seat=0,
        ),
        "still seated: table 7, seat 0",
    ),
    (
        "S→C",
        replace(SNAP_RESUME, re=None),
        "not a reply (welcome was): the full state; seat 1 is to lead trick 3",
    ),
    ("S→C", msg.Turn(phase="play", seats=[[1, 17.25]]), "seat 1's clock as the server runs it"),
    ("C→S", msg.PlayCard(id=2, card=2), "out of turn"),
    (
        "S→C",
        msg.Error(code="not_your_turn", message="it is seat 1's turn", re=2),
        "no effect; the connection stays open",
    ),
    ("C→S", msg.Chat(id=3, text="sorry, lag"), ""),
    ("S→C", msg.ChatMessage(sender="alice", text="sorry, lag", table_id=7), "echoed to all"),
    ("S→C", msg.Ok(re=3), ""),
    ("", None, "… tricks 3 to 13 …"),
    (
        "S→C",
        msg.RoundScored(
            round=0,
            round_points=[14, 3, 6, 13],
            totals=[14, 3, 6, 13],
            taken=[[21, 27, 30, 33], [26, 28, 29], [31, 32, 34, 35, 36, 38], [49]],
        ),
        "",
    ),
    ("", None, "… rounds 1 to 5: dealt, passing, 13 tricks, round_scored …"),
    (
        "S→C",
        msg.RoundScored(
            round=5,
            round_points=[6, 26, 4, 0],
            totals=[58, 104, 71, 40],
            taken=[[26, 27, 28, 29, 30, 31], [21, 32, 33, 34, 35, 36, 37, 38, 49], [], []],
        ),
        "seat 1 passes 101",
    ),
    ("S→C", GAME_OVER, "lowest total wins; the statistics are the server's"),
    ("C→S", msg.Rematch(id=60), ""),
    ("S→C", msg.Ok(re=60), "a new game starts with dealt once all humans voted"),
    ("C→S", msg.Ping(id=61), ""),
    ("S→C", msg.Pong(re=61), ""),
    ("C→S", msg.Leave(id=62), ""),
    ("S→C", msg.Ok(re=62), "back in the lobby"),
]
