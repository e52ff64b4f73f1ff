"""The tournament messages (protocol 1.3) and the records they carry.

A host asks the server to run a duplicate tournament (`create_tournament`); anyone may
list tournaments, follow one (`get_tournament`, then `tournament_state` pushes) or, as a
client named in it (a person or a bot), enter it (`enter_tournament`) and be seated
wherever the schedule puts it. (1.4) A tournament may have a start time: `starts_at` on
the server's clock (Unix seconds), and `starts_in_s` beside it in what the server sends,
so a client counts down without trusting its own clock to agree with the server's.
Counts and ids are wide on the wire (any int), so a wrong one is refused by the server
with words (`bad_tournament`, `no_such_tournament`) and the connection stays open.
"""

from __future__ import annotations

from dataclasses import dataclass

from .catalogue import _RE_DOC, _RE_OR_NULL_DOC, _rid
from .message import Message, Sender, message, spec_field
from .records import NAME, RULES, TIMER, TIMER_REQUEST
from .schema import (
    ARGS,
    CODE,
    INT32,
    MSGPACK_INT,
    NON_NEG,
    REQ_ID,
    BoolSpec,
    EnumSpec,
    FloatSpec,
    IntSpec,
    ListSpec,
    NullableSpec,
    RecordSpec,
    Spec,
    StrSpec,
)
from .views import EntrantRequest, Rules, Tournament, TournamentSummary

__all__ = [
    "FORMATS",
    "KINDS",
    "RECORDS",
    "STATUSES",
    "CreateTournament",
    "EnterTournament",
    "GetTournament",
    "ListTournaments",
    "TournamentList",
    "TournamentState",
]

FORMATS = ("round_robin", "swiss")
STATUSES = ("waiting", "running", "finished")
KINDS = ("server", "client", "house")
#: The most entrants a request may list on the wire (the server accepts fewer: a
#: tournament's state must fit one frame); more is `bad_field`, not a refusal.
WIRE_ENTRANTS = 128
#: Most live tables and notes one `tournament_state` carries.
WIRE_TABLES = 64
WIRE_NOTES = 20
#: Most tournaments one `tournament_list` carries.
WIRE_LIST = 200
#: Any unsigned msgpack int: an id the server does not know is `no_such_tournament`.
TOURNAMENT_ID = IntSpec(0, 2**64 - 1, "int ≥ 0")
STRATEGY = StrSpec(1, 32)
POINTS = FloatSpec(-10000.0, 10000.0)
#: A start time: Unix seconds on the server's clock (up to the year 2500).
STARTS_AT = NullableSpec(FloatSpec(0.0, 16725225600.0))
#: Seconds until the start, as the server counted when it sent them.
STARTS_IN = NullableSpec(NON_NEG)
#: (1.4) When a tournament starts: null = when its client entrants are all in.
_START: dict[str, Spec | tuple[Spec, object]] = {
    "starts_at": (STARTS_AT, None),
    "starts_in_s": (STARTS_IN, None),
}

ENTRANT_REQUEST = RecordSpec.of(
    "EntrantRequest",
    name=(NullableSpec(NAME), None),
    strategy=(NullableSpec(STRATEGY), None),
)

ENTRANT = RecordSpec.of(
    "Entrant",
    index=NON_NEG,
    name=NAME,
    strategy=NullableSpec(STRATEGY),
    kind=EnumSpec(KINDS),
    present=BoolSpec(),
)

STANDING = RecordSpec.of(
    "Standing",
    entrant=NON_NEG,
    rank=NullableSpec(NON_NEG),
    games=NON_NEG,
    wins=NON_NEG,
    rounds=NON_NEG,
    points=INT32,
    mean=POINTS,
    low=NullableSpec(POINTS),
    high=NullableSpec(POINTS),
    fallback_games=NON_NEG,
    fallback_moves=(NON_NEG, 0),
)

TOURNAMENT_TABLE = RecordSpec.of(
    "TournamentTable",
    table_id=NON_NEG,
    game=NON_NEG,
    deal=NON_NEG,
    rotation=IntSpec(0, 3, "int 0..3"),
    seats=ListSpec(NON_NEG, 4, 4),
)

#: What a tournament's line in the list and its whole state both start with.
_WHICH: dict[str, Spec] = {
    "id": NON_NEG,
    "name": NAME,
    "format": EnumSpec(FORMATS),
    "status": EnumSpec(STATUSES),
}
_PROGRESS: dict[str, Spec] = {"games_done": NON_NEG, "games_total": NON_NEG}

TOURNAMENT_SUMMARY = RecordSpec.of(
    "TournamentSummary", **_WHICH, entrants=NON_NEG, **_PROGRESS, **_START
)

TOURNAMENT_NOTE = RecordSpec.of(
    "TournamentNote",
    code=CODE,
    args=ARGS,
)

TOURNAMENT = RecordSpec.of(
    "Tournament",
    **_WHICH,
    preset=StrSpec(1, 32),
    rules=RULES,
    deals=NON_NEG,
    stages=NullableSpec(NON_NEG),
    move_timer_s=TIMER,
    entrants=ListSpec(ENTRANT, 0, WIRE_ENTRANTS),
    standings=ListSpec(STANDING, 0, WIRE_ENTRANTS),
    tables=ListSpec(TOURNAMENT_TABLE, 0, WIRE_TABLES),
    **_PROGRESS,
    notes=ListSpec(StrSpec(0, 200), 0, WIRE_NOTES),
    **_START,
    note_codes=(ListSpec(TOURNAMENT_NOTE, 0, WIRE_NOTES), []),
)

#: Every tournament record, for the documentation generator.
RECORDS: tuple[RecordSpec, ...] = (
    ENTRANT_REQUEST,
    TOURNAMENT_SUMMARY,
    TOURNAMENT,
    ENTRANT,
    STANDING,
    TOURNAMENT_TABLE,
    TOURNAMENT_NOTE,
)

C: Sender = "client"
S: Sender = "server"


@message(
    "create_tournament",
    C,
    "(1.3) Ask the server to run a duplicate tournament: every deal is played by a "
    "foursome in all four seat rotations, each rotation a game at its own table. Reply "
    "`tournament_state`; refusals `bad_tournament` (the message says what is wrong), "
    "`bad_rules`, `too_many_tournaments`. Client entrants need not be connected yet: "
    "the tournament waits (status `waiting`) until every one of them has entered, "
    "or (1.4) until its `starts_at`.",
    since=(1, 3),
)
class CreateTournament(Message):
    id: int = _rid()
    name: str = spec_field(NAME, "the tournament's name")
    format: str = spec_field(
        StrSpec(1, 32),
        "`round_robin` (every foursome plays every deal) or `swiss` (`stages` stages, "
        "foursomes of near standing)",
        default="round_robin",
    )
    entrants: list[EntrantRequest] = spec_field(
        ListSpec(ENTRANT_REQUEST, 0, WIRE_ENTRANTS),
        "each a server bot (`strategy`) or a client by session `name`, exactly one of the "
        "two; 4 to 64 of them",
    )
    deals: int = spec_field(MSGPACK_INT, "deals per foursome (per stage in swiss), 1..500")
    stages: int | None = spec_field(
        NullableSpec(MSGPACK_INT), "swiss only: how many stages, 1..50", default=None
    )
    preset: str = spec_field(StrSpec(1, 32), "rules preset, as `create_table`", default="classic")
    overrides: Rules = spec_field(RULES, "rules keys changed from the preset", default_factory=dict)
    move_timer_s: int | None = spec_field(
        TIMER_REQUEST,
        "seconds per decision before the server plays for a silent entrant; null = the "
        "server's default (0 is refused: a tournament never waits forever)",
        default=None,
    )
    starts_at: float | None = spec_field(
        STARTS_AT,
        "(1.4) when the games begin, Unix seconds on the server's clock: entrants may "
        "enter before it, and whoever has not come by then is played for by the fallback "
        "once `seat_grace_s` is over; null = as soon as every client entrant has entered",
        default=None,
    )
    starts_in_s: int | None = spec_field(
        NullableSpec(MSGPACK_INT),
        "(1.4) or the start as seconds from now on the server's clock (a client's clock "
        "may not agree with the server's), 1..604800; at most one of the two",
        default=None,
    )


@message(
    "list_tournaments",
    C,
    "(1.3) Ask for the server's tournaments. Reply `tournament_list`.",
    since=(1, 3),
)
class ListTournaments(Message):
    id: int = _rid()


@message("tournament_list", S, "(1.3) The server's tournaments, newest first.", since=(1, 3))
class TournamentList(Message):
    re: int = spec_field(REQ_ID, _RE_DOC)
    tournaments: list[TournamentSummary] = spec_field(
        ListSpec(TOURNAMENT_SUMMARY, 0, WIRE_LIST), "one line each"
    )


@dataclass(frozen=True, kw_only=True)
class _Which(Message):
    """A request about one tournament (not a message of its own)."""

    id: int = _rid()
    tournament_id: int = spec_field(TOURNAMENT_ID, "which tournament")


@message(
    "get_tournament",
    C,
    "(1.3) Follow a tournament: reply `tournament_state`, then `tournament_state` pushes "
    "(`re` null) as its games start and finish while the session is in the lobby, "
    "until it follows another tournament. Unknown id: `no_such_tournament`.",
    since=(1, 3),
)
class GetTournament(_Which):
    pass


@message(
    "enter_tournament",
    C,
    "(1.3) Play in a tournament as the client entrant of your session's name. Reply "
    "`tournament_state` (and pushes, as `get_tournament`). Stay in the lobby: the "
    "server seats you at each of your games (a `snapshot` with `re` null, then play "
    "as at any table; no `rematch`) and takes you back to the lobby at its end. "
    "Refusals: `no_such_tournament`, `not_an_entrant`, `already_entered` (another "
    "connected session entered that name), `tournament_over`.",
    since=(1, 3),
)
class EnterTournament(_Which):
    pass


@message(
    "cancel_tournament",
    C,
    "(1.4) Cancel a tournament that has not finished: it ends at once, its live games are "
    "stopped (their players go back to the lobby) and it is listed as finished, with the "
    "note who cancelled it. Only its creator (the same claimed name, or a guest of the "
    "same name from the same address) or the server's operator (a client on the "
    "server's own machine, connected to the game's port itself, not through the table "
    "page) may. Reply `tournament_state`. Refusals: "
    "`no_such_tournament`, `not_your_tournament`, `tournament_over`.",
    since=(1, 4),
)
class CancelTournament(_Which):
    pass


@message(
    "tournament_state",
    S,
    "(1.3) A tournament as it stands: entrants, standings (best first), live tables, "
    "progress. The reply to `create_tournament`, `get_tournament` and "
    "`enter_tournament`, and pushed (`re` null) to its followers as games start and end.",
    since=(1, 3),
)
class TournamentState(Message):
    re: int | None = spec_field(NullableSpec(REQ_ID), _RE_OR_NULL_DOC, default=None)
    tournament: Tournament = spec_field(TOURNAMENT, "the tournament")
