"""The messages that bring people together (protocol 1.4): quick phrases and quick play.

A quick phrase travels as a code from a small fixed set, never as text, so each reader
sees it in their own language ("well played" to one, "أحسنت" to another). The codes are
listed here once; a code a reader does not know (a newer peer's) is shown as the code
itself. The server refuses a code that is not in its set (`bad_phrase`) rather than
closing the connection, so a newer client can talk to an older server.

Quick play is one request, and the server decides where it leads, so two people asking
at once can never race for one seat.
"""

from __future__ import annotations

from .catalogue import TABLE_ID, _rid
from .message import Message, Sender, message, spec_field
from .records import NAME, PLAYER_STATS, RULES
from .schema import (
    INT32,
    NON_NEG,
    REQ_ID,
    SEAT,
    BoolSpec,
    FloatSpec,
    IntSpec,
    ListSpec,
    NullableSpec,
    RecordSpec,
    StrSpec,
)
from .views import PlayerStats, RecentGame, Rules

__all__ = ["PHRASES", "RECORDS", "GetProfile", "Phrase", "PhraseSaid", "Profile", "QuickPlay"]

#: The quick phrases, in the order a picker shows them (keys 1..8).
PHRASES = (
    "hello",
    "good_luck",
    "well_played",
    "thanks",
    "sorry",
    "hurry_up",
    "oops",
    "good_game",
)
PHRASE = StrSpec(1, 32)
#: Most recent games one `profile` carries.
RECENT_MAX = 10

RECENT_GAME = RecordSpec.of(
    "RecentGame",
    game_id=NON_NEG,
    table=StrSpec(0, 64),
    finished=FloatSpec(0.0, 1e11),
    seat=SEAT,
    points=INT32,
    won=BoolSpec(),
    players=ListSpec(StrSpec(0, 64), 4, 4),
)
RECORDS: tuple[RecordSpec, ...] = (RECENT_GAME,)

C: Sender = "client"
S: Sender = "server"


@message(
    "phrase",
    C,
    "(1.4) Say a quick phrase, by its code: to your table, or to the lobby when not at one. "
    "Reply `ok`. It counts against the same rate limit as `chat`; a session that floods "
    "is muted for the others for a while (`muted`). A code the server does not know is "
    "refused with `bad_phrase`.",
    since=(1, 4),
)
class Phrase(Message):
    id: int = _rid()
    code: str = spec_field(
        PHRASE, "one of " + ", ".join(f"`{p}`" for p in PHRASES) + " (see Quick phrases)"
    )


@message(
    "phrase_said",
    S,
    "(1.4) Someone said a quick phrase. Show it in your reader's language; a code you "
    "do not know, as the code. A table keeps its phrases with its chat lines: whoever "
    "joins, watches or comes back (after a server restart too) hears them again in "
    "their place among the `chat_message`s.",
    since=(1, 4),
)
class PhraseSaid(Message):
    sender: str = spec_field(NAME, "speaker's name", wire="from")
    code: str = spec_field(PHRASE, "the phrase")
    seat: int | None = spec_field(
        NullableSpec(SEAT), "the speaker's seat at the table; null = not seated", default=None
    )
    table_id: int | None = spec_field(NullableSpec(TABLE_ID), "null = lobby", default=None)


@message(
    "quick_play",
    C,
    "(1.4) Seat me anywhere with these rules. The server seats you at a waiting table that "
    "quick play opened, with the same rules (the fullest first; never at a host's own "
    "table), or, when every such table is playing, at a quick-play table with a bot seat, "
    "watching until the round ends and then in the bot's seat; or it opens a table for "
    "you. A table it opens fills its empty seats with bots of your `bot` level after "
    "`wait_s` and starts; four people start it at once. Reply: `snapshot` with `re` "
    "(seated, or spectating until a bot's seat is yours). If that game ends first, the "
    "server places you again the same way: a `snapshot` without `re` and the notice "
    "`quick_moved`.",
    since=(1, 4),
)
class QuickPlay(Message):
    id: int = _rid()
    preset: str = spec_field(StrSpec(1, 32), "rules preset", default="classic")
    overrides: Rules = spec_field(RULES, "rules keys changed from the preset", default_factory=dict)
    bot: str = spec_field(
        StrSpec(1, 32), "the level (or strategy) of the bots that fill seats", default="medium"
    )
    wait_s: int | None = spec_field(
        NullableSpec(IntSpec(0, 600, "int 0..600 (seconds)")),
        "seconds to wait for people before bots fill a table opened for you; null = the "
        "server's default (20 on the reference server)",
        default=None,
    )


@message(
    "get_profile",
    C,
    "(1.4) Ask for one player's profile from the server's records. Reply `profile`.",
    since=(1, 4),
)
class GetProfile(Message):
    id: int = _rid()
    name: str = spec_field(NAME, "the player's name, exactly as shown")


@message(
    "profile",
    S,
    "(1.4) One player's rating, games and wins (`stats`, null when the records hold no "
    "finished game of that name) and their latest finished games, newest first.",
    since=(1, 4),
)
class Profile(Message):
    re: int = spec_field(REQ_ID, "`id` of the `get_profile`")
    name: str = spec_field(NAME, "whose profile")
    stats: PlayerStats | None = spec_field(
        NullableSpec(PLAYER_STATS), "as in `stats` (people only: a bot has none)"
    )
    recent: list[RecentGame] = spec_field(
        ListSpec(RECENT_GAME, 0, RECENT_MAX),
        f"their last finished games (at most {RECENT_MAX}), newest first: `finished` in "
        "seconds since 1970 (UTC), `points` their total in that game",
    )
