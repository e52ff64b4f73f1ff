"""Specs of the nested structures shared by several messages.

They stay plain dicts in Python (so they pass straight through to JSON, the engine and
logs) but are validated field by field like messages are.
"""

from __future__ import annotations

from .schema import (
    CARD,
    CODE,
    INT32,
    NON_NEG,
    PER_SEAT_INT,
    SEAT,
    SEAT_CARD,
    BoolSpec,
    CardSetSpec,
    EnumSpec,
    FloatSpec,
    IntSpec,
    ListSpec,
    MapSpec,
    NullableSpec,
    RecordSpec,
    ScalarSpec,
    StrSpec,
    TupleSpec,
)

__all__ = [
    "CLOCK",
    "CONTROLS",
    "GAME_STATS",
    "NAME",
    "PLAYER_INFO",
    "PLAYER_STATS",
    "REASONS",
    "RECORDS",
    "RESULT",
    "RULES",
    "SEAT_INFO",
    "SEAT_STATS",
    "SEAT_VIEW",
    "TABLE_SUMMARY",
    "TIMER",
    "TIMERS",
    "TIMER_REQUEST",
    "TRICK_RECORD",
]

#: Hard protocol cap on names; the server may enforce a shorter one (name_too_long).
NAME = StrSpec(1, 64)
TIMER = NullableSpec(IntSpec(1, 3600, "int 1..3600 (seconds)"))
#: A timer asked for in `create_table`: null = the server's default, 0 = untimed.
TIMER_REQUEST = NullableSpec(IntSpec(0, 3600, "int 0..3600 (seconds)"))
RULES = MapSpec(ScalarSpec(), 32)
SEATS_SORTED = ListSpec(SEAT, 0, 4)

SEAT_INFO = RecordSpec.of(
    "SeatInfo",
    name=NullableSpec(NAME),
    is_bot=BoolSpec(),
    connected=BoolSpec(),
)

TIMERS = RecordSpec.of("Timers", pass_s=(TIMER, None), turn_s=(TIMER, None))

TABLE_SUMMARY = RecordSpec.of(
    "TableSummary",
    id=NON_NEG,
    name=NAME,
    host=(NullableSpec(NAME), None),
    preset=StrSpec(1, 32),
    rules=RULES,
    seats=ListSpec(SEAT_INFO, 4, 4),
    spectators=NON_NEG,
    status=EnumSpec(("waiting", "playing", "finished")),
    has_password=BoolSpec(),
    timers=TIMERS,
    counting_aid=(BoolSpec(), True),
)

#: (1.4) Who makes a seat's decisions: a person, a person within their grace period after a
#: drop, a bot seat, or a bot playing a person's seat (timeouts, or away past the grace
#: period) until they act again.
CONTROLS = ("human", "away", "bot", "autopilot")

PLAYER_INFO = RecordSpec.of(
    "PlayerInfo",
    name=NullableSpec(NAME),
    is_bot=BoolSpec(),
    connected=BoolSpec(),
    strategy=(NullableSpec(StrSpec(1, 32)), None),
    is_host=(BoolSpec(), False),
    # Added in 1.4 (optional): who plays the seat now, and why (a reason code).
    control=(NullableSpec(EnumSpec(CONTROLS)), None),
    control_reason=(NullableSpec(CODE), None),
)

#: (1.4) What one seat did in a game, counted by the server from the engine's events.
SEAT_STATS = RecordSpec.of(
    "SeatStats",
    tricks=NON_NEG,
    leekhas=NON_NEG,
    moons=NON_NEG,
    rounds=ListSpec(INT32, 0, 1000),
)
#: (1.4) Every seat's statistics of a finished game; null = not sent (an older server).
GAME_STATS = NullableSpec(ListSpec(SEAT_STATS, 4, 4))
#: (1.4) A decision pending on the server's clock: [seat, seconds left] (null = untimed).
CLOCK = TupleSpec(
    (SEAT, NullableSpec(FloatSpec(0.0, 86400.0))), "[seat, seconds left (float) \\| null]"
)

TRICK_RECORD = RecordSpec.of(
    "TrickRecord",
    leader=SEAT,
    cards=ListSpec(SEAT_CARD, 4, 4),
    winner=SEAT,
    points=NON_NEG,
)

#: Why a game ended (leekha.common.outcome): with a round, or mid-round (golden goal).
REASONS = ("target", "golden_goal")

RESULT = RecordSpec.of(
    "Result",
    winners=SEATS_SORTED,
    losers=SEATS_SORTED,
    totals=PER_SEAT_INT,
    # Added in 1.4 (optional): why it ended, whether a tie made play go past the target
    # first, and every seat's statistics (what `game_over` carries too).
    reason=(EnumSpec(REASONS), "target"),
    tie_extended=(BoolSpec(), False),
    stats=(GAME_STATS, None),
)

#: The seat-view dict of docs/ARCHITECTURE.md, validated key by key.
SEAT_VIEW = RecordSpec.of(
    "SeatView",
    seat=NullableSpec(SEAT),
    phase=EnumSpec(("pass", "play", "game_over")),
    round=NON_NEG,
    dealer=SEAT,
    pass_to=NullableSpec(SEAT),
    turn=NullableSpec(SEAT),
    hand=CardSetSpec(0, 13),
    passed=NullableSpec(CardSetSpec(3, 3)),
    received=NullableSpec(CardSetSpec(3, 3)),
    passes_done=ListSpec(BoolSpec(), 4, 4),
    doubled=ListSpec(TupleSpec((CARD, SEAT), "[card, seat]"), 0, 4),
    trick=ListSpec(SEAT_CARD, 0, 4),
    leader=NullableSpec(SEAT),
    tricks=ListSpec(TRICK_RECORD, 0, 13),
    taken=ListSpec(CardSetSpec(0, 52), 4, 4),
    round_points=PER_SEAT_INT,
    totals=PER_SEAT_INT,
    legal=CardSetSpec(0, 13),
    history=ListSpec(ListSpec(INT32, 4, 4), 0, 1000),
    result=NullableSpec(RESULT),
    # Added in 1.1 (optional, so 1.0 senders stay valid):
    can_double=(CardSetSpec(0, 4), []),
    rules=(RULES, {}),
)

#: One player's line in `stats` (finished games only; bots excluded).
PLAYER_STATS = RecordSpec.of(
    "PlayerStats",
    name=NAME,
    games=NON_NEG,
    wins=NON_NEG,
    avg_points_per_round=FloatSpec(-10000.0, 10000.0),
    # Added in 1.2 (optional): the openskill rating of a claimed name (null = guest), its
    # uncertainty, and Leekha cards eaten and moons over finished games.
    rating=(NullableSpec(FloatSpec(-10000.0, 10000.0)), None),
    rating_sigma=(NullableSpec(FloatSpec(0.0, 10000.0)), None),
    leekhas=(NON_NEG, 0),
    moons=(NON_NEG, 0),
)

#: Every record, for the documentation generator.
RECORDS: tuple[RecordSpec, ...] = (
    TABLE_SUMMARY,
    SEAT_INFO,
    TIMERS,
    PLAYER_INFO,
    SEAT_VIEW,
    TRICK_RECORD,
    RESULT,
    SEAT_STATS,
    PLAYER_STATS,
)
