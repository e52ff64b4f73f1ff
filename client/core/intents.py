"""What a client role asks of its server, as typed values: `ClientCore.request` turns each
into its protocol request and keeps it as the request's note, so the answer comes back
with the intent that asked for it (`Answered`).

An intent says what is wanted, never how it travels: the request id, the field names and
the wire's defaults are the core's (client/core/core.py). A move (`Pass`, `Play`) names
the decision it answers (`DecisionKey`) and how often it was sent before, so that an
answer to it can be judged against the decision in front of the seat now.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from leekha import protocol as P
from leekha.common.view import Rules

__all__ = [
    "AddBot",
    "CancelTournament",
    "Chat",
    "CreateTable",
    "CreateTournament",
    "DecisionKey",
    "Double",
    "EnterTournament",
    "GetProfile",
    "GetStats",
    "GetTournament",
    "Intent",
    "JoinTable",
    "Leave",
    "ListTables",
    "ListTournaments",
    "Pass",
    "Phrase",
    "Ping",
    "Play",
    "QuickPlay",
    "Rematch",
    "RemoveBot",
    "Spectate",
    "Start",
    "TakeBack",
    "message_of",
]

#: Names one decision of a game: round, phase, tricks done, cards on the trick.
DecisionKey = tuple[int, str, int, int]


@dataclass(frozen=True)
class ListTables:
    """The lobby's tables from `cursor` on (None: the first page); `confirm`: the second
    look before creating a table (the bot's)."""

    confirm: bool = False
    cursor: int | None = None


@dataclass(frozen=True)
class CreateTable:
    """A table of ours; the timers None: the server's defaults; `counting_aid` False
    forbids the counting aid at it (protocol 1.2: the terminal's form asks only then)."""

    name: str
    preset: str = "classic"
    overrides: Rules = field(default_factory=dict)
    password: str | None = None
    pass_timer_s: int | None = None
    turn_timer_s: int | None = None
    counting_aid: bool = True


@dataclass(frozen=True)
class QuickPlay:
    """(1.4) One request and the server seats us, or opens a table its bots complete after
    `wait_s` (None: the server's own wait)."""

    preset: str = "classic"
    overrides: Rules = field(default_factory=dict)
    bot: str = "heuristic"
    wait_s: int | None = None


@dataclass(frozen=True)
class AddBot:
    seat: int
    strategy: str = "heuristic"


@dataclass(frozen=True)
class RemoveBot:
    seat: int


@dataclass(frozen=True)
class TakeBack:
    """Our seat back from the bot that played it for us."""


@dataclass(frozen=True)
class GetStats:
    name: str | None = None


@dataclass(frozen=True)
class GetProfile:
    name: str


@dataclass(frozen=True)
class Chat:
    text: str


@dataclass(frozen=True)
class Phrase:
    code: str


@dataclass(frozen=True)
class JoinTable:
    table_id: int
    password: str | None = None


@dataclass(frozen=True)
class Spectate:
    table_id: int
    password: str | None = None


@dataclass(frozen=True)
class Leave:
    pass


@dataclass(frozen=True)
class Start:
    pass


@dataclass(frozen=True)
class Rematch:
    pass


@dataclass(frozen=True)
class EnterTournament:
    tournament_id: int


@dataclass(frozen=True)
class ListTournaments:
    pass


@dataclass(frozen=True)
class GetTournament:
    tournament_id: int


@dataclass(frozen=True)
class CancelTournament:
    tournament_id: int


@dataclass(frozen=True)
class CreateTournament:
    """A tournament as `leekha tournament create` built it: the request itself, already
    checked against the wire's limits (its `id` is replaced when it is sent)."""

    request: P.CreateTournament


@dataclass(frozen=True)
class Ping:
    """A probe: its answer (pong) says the server has said all it had to say before it."""


@dataclass(frozen=True)
class Double:
    card: int


@dataclass(frozen=True)
class Pass:
    """Three cards passed for `decision`, sent `tries` times before."""

    cards: tuple[int, ...]
    decision: DecisionKey
    tries: int = 0


@dataclass(frozen=True)
class Play:
    """A card played for `decision`, sent `tries` times before."""

    card: int
    decision: DecisionKey
    tries: int = 0


Intent = (
    ListTables | CreateTable | JoinTable | Spectate | Leave | Start | Rematch | Ping
    | EnterTournament | ListTournaments | GetTournament | CancelTournament | CreateTournament
    | Double | Pass | Play | QuickPlay | AddBot | RemoveBot | TakeBack | GetStats | GetProfile
    | Chat | Phrase
)  # fmt: skip


def message_of(intent: Intent, rid: int) -> P.Message:
    """The protocol request for `intent`, with the request id `rid`."""
    match intent:
        case ListTables(_confirm, cursor):
            return P.ListTables(id=rid, cursor=cursor)
        case CreateTable(name, preset, overrides, password, pass_timer, turn_timer, counting):
            return P.CreateTable(
                id=rid, name=name, preset=preset, overrides=dict(overrides), password=password,
                pass_timer_s=pass_timer, turn_timer_s=turn_timer, counting_aid=counting,
            )  # fmt: skip
        case QuickPlay(preset, overrides, bot, wait_s):
            return P.QuickPlay(
                id=rid, preset=preset, overrides=dict(overrides), bot=bot, wait_s=wait_s
            )
        case AddBot(seat, strategy):
            return P.AddBot(id=rid, seat=seat, strategy=strategy)
        case RemoveBot(seat):
            return P.RemoveBot(id=rid, seat=seat)
        case TakeBack():
            return P.TakeBack(id=rid)
        case GetStats(name):
            return P.GetStats(id=rid, name=name)
        case GetProfile(name):
            return P.GetProfile(id=rid, name=name)
        case Chat(text):
            return P.Chat(id=rid, text=text)
        case Phrase(code):
            return P.Phrase(id=rid, code=code)
        case JoinTable(table_id, password):
            return P.JoinSeat(id=rid, table_id=table_id, password=password)
        case Spectate(table_id, password):
            return P.Spectate(id=rid, table_id=table_id, password=password)
        case Leave():
            return P.Leave(id=rid)
        case Start():
            return P.Start(id=rid)
        case Rematch():
            return P.Rematch(id=rid)
        case EnterTournament(tournament_id):
            return P.EnterTournament(id=rid, tournament_id=tournament_id)
        case Ping():
            return P.Ping(id=rid)
        case ListTournaments():
            return P.ListTournaments(id=rid)
        case GetTournament(tournament_id):
            return P.GetTournament(id=rid, tournament_id=tournament_id)
        case CancelTournament(tournament_id):
            return P.CancelTournament(id=rid, tournament_id=tournament_id)
        case CreateTournament(request):
            return replace(request, id=rid)
        case Double(card):
            return P.DeclareDouble(id=rid, card=card)
        case Pass(cards):
            return P.PassCards(id=rid, cards=sorted(cards))
        case Play(card):
            return P.PlayCard(id=rid, card=card)
