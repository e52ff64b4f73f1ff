"""Every message of the protocol, each marked with the version that added it when not 1.0.

Client requests carry `id`; the server's direct reply echoes it as `re`. Field docs here are
rendered into docs/protocol.md by `leekha.protocol._docgen`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from .message import Message, Sender, meta, register
from .records import (
    NAME,
    PLAYER_INFO,
    PLAYER_STATS,
    RULES,
    SEAT_VIEW,
    TABLE_SUMMARY,
    TIMER_REQUEST,
)
from .schema import (
    CARD,
    NON_NEG,
    PER_SEAT_INT,
    REQ_ID,
    SEAT,
    SEAT_CARD,
    BoolSpec,
    CardSetSpec,
    EnumSpec,
    FloatSpec,
    IntSpec,
    ListSpec,
    NullableSpec,
    StrSpec,
    TupleSpec,
)

__all__ = [
    "AddBot",
    "CardPlayed",
    "Challenge",
    "Chat",
    "ChatMessage",
    "CreateTable",
    "Dealt",
    "DeclareDouble",
    "DoubleRevealed",
    "Error",
    "GameOver",
    "GetStats",
    "Hello",
    "JoinSeat",
    "Leave",
    "ListTables",
    "Ok",
    "PassCards",
    "PassDone",
    "PassedReceived",
    "Ping",
    "PlayCard",
    "Pong",
    "Prove",
    "Rematch",
    "RemoveBot",
    "Resume",
    "RoundScored",
    "SeatUpdate",
    "Snapshot",
    "Spectate",
    "Start",
    "Stats",
    "TableList",
    "TableUpdate",
    "TrickTaken",
    "Welcome",
    "YourTurn",
]

VERSION = TupleSpec(
    (IntSpec(0, 65535, "major"), IntSpec(0, 65535, "minor")), "[major, minor] (ints 0..65535)"
)
TOKEN = StrSpec(1, 128)
#: Most players one `stats` reply carries (keeps it well inside a frame).
STATS_MAX = 200
#: Any unsigned msgpack int: an id the server does not know is refused `no_such_table`.
TABLE_ID = IntSpec(0, 2**64 - 1, "int ≥ 0")
#: A place in the table list: the id of the last table of a page.
CURSOR = TABLE_ID
#: Tables in one `table_list` page of the reference server: a summary is about 500 bytes,
#: and at most about 2 KB with six 64-character names of 4-byte characters, so a page
#: always fits a frame.
LIST_PAGE = 25
_ID_DOC = "request id chosen by the client; echoed as `re` in the reply"
_RE_DOC = "`id` of the request this answers"
_RE_OR_NULL_DOC = "`id` of the request this answers, or null when pushed unprompted"

C: Sender = "client"
S: Sender = "server"


def _rid() -> Any:
    return field(metadata=meta(REQ_ID, doc=_ID_DOC))


# --- handshake -------------------------------------------------------------------------


@register
@dataclass(frozen=True, kw_only=True)
class Hello(Message):
    TYPE: ClassVar[str] = "hello"
    SENDER: ClassVar[Sender] = C
    DOC: ClassVar[str] = (
        "First message of a new session. The server answers `welcome`, or `error` "
        "(`version_mismatch`) and closes."
    )
    id: int = _rid()
    versions: list[list[int]] = field(
        metadata=meta(ListSpec(VERSION, 1, 16), doc="protocol versions the client speaks")
    )
    name: str = field(metadata=meta(NAME, doc="display name wanted"))
    client: str = field(
        default="", metadata=meta(StrSpec(0, 64), doc="client software and version, free text")
    )
    key: str | None = field(
        default=None,
        metadata=meta(
            NullableSpec(StrSpec(1, 128)),
            doc="(1.2) your public key, `ed25519:<base64>`: the server answers `challenge` "
            "and the name is yours once you prove you hold the key; null = play as a guest",
        ),
    )


@register
@dataclass(frozen=True, kw_only=True)
class Resume(Message):
    TYPE: ClassVar[str] = "resume"
    SENDER: ClassVar[Sender] = C
    DOC: ClassVar[str] = (
        "First message after a reconnect, instead of `hello`. The server answers `welcome` "
        "(`resumed: true`, with `table_id`/`seat` saying where the session is) then, if the "
        "session is at a table (seated or spectating), `snapshot` and, if a decision of "
        "yours is pending, `your_turn` with the time left; or `error` `bad_token`, after "
        "which the client may send `hello` on the same connection."
    )
    id: int = _rid()
    versions: list[list[int]] = field(
        metadata=meta(ListSpec(VERSION, 1, 16), doc="protocol versions the client speaks")
    )
    token: str = field(metadata=meta(TOKEN, doc="session token from an earlier `welcome`"))


@register
@dataclass(frozen=True, kw_only=True)
class Welcome(Message):
    TYPE: ClassVar[str] = "welcome"
    SENDER: ClassVar[Sender] = S
    DOC: ClassVar[str] = "Handshake accepted."
    re: int = field(metadata=meta(REQ_ID, doc="`id` of the `hello`/`resume`"))
    version: list[int] = field(metadata=meta(VERSION, doc="the version chosen (see negotiate)"))
    server: str = field(metadata=meta(StrSpec(0, 64), doc="server software name and version"))
    token: str = field(
        metadata=meta(TOKEN, doc="opaque session token; keep it to `resume` after a drop")
    )
    name: str = field(metadata=meta(NAME, doc="your display name as the server accepted it"))
    resumed: bool = field(
        default=False, metadata=meta(BoolSpec(), doc="true when this answers `resume`")
    )
    table_id: int | None = field(
        default=None,
        metadata=meta(
            NullableSpec(TABLE_ID),
            doc="(1.1) the table the session is at (seated or spectating); null = in the "
            "lobby, e.g. the seat was given up while you were away",
        ),
    )
    seat: int | None = field(
        default=None,
        metadata=meta(
            NullableSpec(SEAT), doc="(1.1) your seat at that table; null = not seated"
        ),
    )
    verified: bool = field(
        default=False,
        metadata=meta(
            BoolSpec(),
            doc="(1.2) true when you proved the key that owns your name; false = guest",
        ),
    )


# --- replies and keepalive -----------------------------------------------------------


@register
@dataclass(frozen=True, kw_only=True)
class Challenge(Message):
    TYPE: ClassVar[str] = "challenge"
    SENDER: ClassVar[Sender] = S
    DOC: ClassVar[str] = (
        "(1.2) Answers a `hello` that carried a `key`: prove you hold the key by signing "
        "`\"leekha-auth-1\\0\" + server + \"\\0\" + name + \"\\0\" + key + \"\\0\" + nonce` "
        "(UTF-8 strings, the nonce's 32 raw bytes) with Ed25519 and sending `prove`. "
        "The nonce is fresh for every connection, so an answer can never be replayed."
    )
    re: int = field(metadata=meta(REQ_ID, doc="`id` of the `hello`"))
    nonce: str = field(metadata=meta(StrSpec(44, 44), doc="32 random bytes, base64"))
    server: str = field(
        metadata=meta(StrSpec(1, 64), doc="this server's id, part of what you sign")
    )


@register
@dataclass(frozen=True, kw_only=True)
class Prove(Message):
    TYPE: ClassVar[str] = "prove"
    SENDER: ClassVar[Sender] = C
    DOC: ClassVar[str] = (
        "(1.2) The answer to `challenge`. The server answers `welcome` (the name is now "
        "claimed by your key if it was free), or `error` `bad_signature`, after which you "
        "may send `hello` again."
    )
    re: int = field(metadata=meta(REQ_ID, doc="`id` of the `hello`"))
    signature: str = field(metadata=meta(StrSpec(88, 88), doc="the Ed25519 signature, base64"))


@register
@dataclass(frozen=True, kw_only=True)
class Error(Message):
    TYPE: ClassVar[str] = "error"
    SENDER: ClassVar[Sender] = S
    DOC: ClassVar[str] = "A request failed (it had no effect), or a protocol error before closing."
    code: str = field(metadata=meta(StrSpec(1, 64), doc="stable error code (see Error codes)"))
    message: str = field(metadata=meta(StrSpec(0, 1000), doc="human-readable detail"))
    re: int | None = field(
        default=None,
        metadata=meta(NullableSpec(REQ_ID), doc="`id` of the failed request, or null"),
    )


@register
@dataclass(frozen=True, kw_only=True)
class Ok(Message):
    TYPE: ClassVar[str] = "ok"
    SENDER: ClassVar[Sender] = S
    DOC: ClassVar[str] = "The request succeeded (for requests with no richer reply)."
    re: int = field(metadata=meta(REQ_ID, doc=_RE_DOC))


@register
@dataclass(frozen=True, kw_only=True)
class Ping(Message):
    TYPE: ClassVar[str] = "ping"
    SENDER: ClassVar[Sender] = "both"
    DOC: ClassVar[str] = "Keepalive, either direction; the peer answers `pong` with `re = id`."
    id: int = field(metadata=meta(REQ_ID, doc="echoed as `re` in the pong"))


@register
@dataclass(frozen=True, kw_only=True)
class Pong(Message):
    TYPE: ClassVar[str] = "pong"
    SENDER: ClassVar[Sender] = "both"
    DOC: ClassVar[str] = "Answer to `ping`."
    re: int = field(metadata=meta(REQ_ID, doc="`id` of the ping"))


# --- lobby ------------------------------------------------------------------------------


@register
@dataclass(frozen=True, kw_only=True)
class ListTables(Message):
    TYPE: ClassVar[str] = "list_tables"
    SENDER: ClassVar[Sender] = C
    DOC: ClassVar[str] = (
        "Ask for one page of the table list; reply `table_list`. Afterwards the server "
        "pushes `table_update` for every change until the client sits or spectates."
    )
    id: int = _rid()
    cursor: int | None = field(
        default=None,
        metadata=meta(
            NullableSpec(CURSOR),
            doc="(1.2) the `next` of the previous page: list the tables after it; "
            "null = from the first table",
        ),
    )


@register
@dataclass(frozen=True, kw_only=True)
class TableList(Message):
    TYPE: ClassVar[str] = "table_list"
    SENDER: ClassVar[Sender] = S
    DOC: ClassVar[str] = "One page of the table list, in table id order."
    re: int | None = field(default=None, metadata=meta(NullableSpec(REQ_ID), doc=_RE_OR_NULL_DOC))
    tables: list[dict[str, Any]] = field(
        metadata=meta(
            ListSpec(TABLE_SUMMARY, 0, 1000),
            doc=f"the tables of this page (the reference server sends at most {LIST_PAGE})",
        )
    )
    total: int | None = field(
        default=None,
        metadata=meta(
            NullableSpec(NON_NEG), doc="(1.2) how many tables the server has in all"
        ),
    )
    next: int | None = field(
        default=None,
        metadata=meta(
            NullableSpec(CURSOR),
            doc="(1.2) send this as `cursor` for the next page; null = this was the last",
        ),
    )


@register
@dataclass(frozen=True, kw_only=True)
class TableUpdate(Message):
    TYPE: ClassVar[str] = "table_update"
    SENDER: ClassVar[Sender] = S
    DOC: ClassVar[str] = "One table was created, changed, or (table null) removed."
    table_id: int = field(metadata=meta(TABLE_ID, doc="which table"))
    table: dict[str, Any] | None = field(
        metadata=meta(NullableSpec(TABLE_SUMMARY), doc="its new summary; null = removed")
    )


@register
@dataclass(frozen=True, kw_only=True)
class CreateTable(Message):
    TYPE: ClassVar[str] = "create_table"
    SENDER: ClassVar[Sender] = C
    DOC: ClassVar[str] = (
        "Create a table and sit at seat 0 as its host. Reply: `snapshot` with `re`."
    )
    id: int = _rid()
    name: str = field(metadata=meta(NAME, doc="table name"))
    preset: str = field(
        default="classic",
        metadata=meta(StrSpec(1, 32), doc="rules preset: classic, levant, golden, ..."),
    )
    overrides: dict[str, Any] = field(
        default_factory=dict,
        metadata=meta(RULES, doc="rules keys changed from the preset (the rules table at the top)"),
    )
    password: str | None = field(
        default=None,
        metadata=meta(NullableSpec(StrSpec(1, 64)), doc="null = open table"),
    )
    pass_timer_s: int | None = field(
        default=None,
        metadata=meta(
            TIMER_REQUEST, doc="seconds to choose a pass; null = the server's default, 0 = untimed"
        ),
    )
    turn_timer_s: int | None = field(
        default=None,
        metadata=meta(
            TIMER_REQUEST, doc="seconds per play; null = the server's default, 0 = untimed"
        ),
    )
    counting_aid: bool = field(
        default=True,
        metadata=meta(
            BoolSpec(),
            doc="(1.2) false forbids the clients' card-counting aid (cards still out, voids "
            "shown) at this table",
        ),
    )


@register
@dataclass(frozen=True, kw_only=True)
class JoinSeat(Message):
    TYPE: ClassVar[str] = "join_seat"
    SENDER: ClassVar[Sender] = C
    DOC: ClassVar[str] = "Sit at a table. Reply: `snapshot` with `re`."
    id: int = _rid()
    table_id: int = field(metadata=meta(TABLE_ID, doc="which table"))
    seat: int | None = field(
        default=None, metadata=meta(NullableSpec(SEAT), doc="null = any free seat")
    )
    password: str | None = field(
        default=None, metadata=meta(NullableSpec(StrSpec(1, 64)), doc="if the table has one")
    )


@register
@dataclass(frozen=True, kw_only=True)
class Spectate(Message):
    TYPE: ClassVar[str] = "spectate"
    SENDER: ClassVar[Sender] = C
    DOC: ClassVar[str] = "Watch a table. Reply: `snapshot` (your_seat null) with `re`."
    id: int = _rid()
    table_id: int = field(metadata=meta(TABLE_ID, doc="which table"))
    password: str | None = field(
        default=None, metadata=meta(NullableSpec(StrSpec(1, 64)), doc="if the table has one")
    )


@register
@dataclass(frozen=True, kw_only=True)
class Leave(Message):
    TYPE: ClassVar[str] = "leave"
    SENDER: ClassVar[Sender] = C
    DOC: ClassVar[str] = (
        "Leave your seat or stop spectating; back to the lobby. Reply `ok`. Leaving a game "
        "in progress hands the seat to a bot."
    )
    id: int = _rid()


@register
@dataclass(frozen=True, kw_only=True)
class AddBot(Message):
    TYPE: ClassVar[str] = "add_bot"
    SENDER: ClassVar[Sender] = C
    DOC: ClassVar[str] = (
        "Host only: put a bot in an empty seat. Reply `ok`. Strategies: `random` (any legal "
        "move), `heuristic` (rule-based, the default), `search` (Monte Carlo rollouts; "
        "strongest, slowest). `basic` is a deprecated alias of `heuristic`; any other name "
        "is refused with `no_such_bot`."
    )
    id: int = _rid()
    seat: int = field(metadata=meta(SEAT, doc="empty seat"))
    strategy: str = field(
        default="heuristic",
        metadata=meta(StrSpec(1, 32), doc="bot strategy: random, heuristic or search"),
    )


@register
@dataclass(frozen=True, kw_only=True)
class RemoveBot(Message):
    TYPE: ClassVar[str] = "remove_bot"
    SENDER: ClassVar[Sender] = C
    DOC: ClassVar[str] = "Host only: remove the bot from a seat (before start). Reply `ok`."
    id: int = _rid()
    seat: int = field(metadata=meta(SEAT, doc="seat holding a bot"))


@register
@dataclass(frozen=True, kw_only=True)
class Start(Message):
    TYPE: ClassVar[str] = "start"
    SENDER: ClassVar[Sender] = C
    DOC: ClassVar[str] = "Host only: start the game once all four seats are filled. Reply `ok`."
    id: int = _rid()


@register
@dataclass(frozen=True, kw_only=True)
class Rematch(Message):
    TYPE: ClassVar[str] = "rematch"
    SENDER: ClassVar[Sender] = C
    DOC: ClassVar[str] = (
        "After `game_over`: vote for a new game with the same seats and rules. Reply `ok`; "
        "the new game starts (with `dealt`) when every seated human has voted."
    )
    id: int = _rid()


# --- game: client actions ---------------------------------------------------------------


@register
@dataclass(frozen=True, kw_only=True)
class PassCards(Message):
    TYPE: ClassVar[str] = "pass_cards"
    SENDER: ClassVar[Sender] = C
    DOC: ClassVar[str] = "Commit your 3-card pass. Reply `ok` (or an engine error)."
    id: int = _rid()
    cards: list[int] = field(metadata=meta(CardSetSpec(3, 3), doc="the cards passed"))


@register
@dataclass(frozen=True, kw_only=True)
class DeclareDouble(Message):
    TYPE: ClassVar[str] = "declare_double"
    SENDER: ClassVar[Sender] = C
    DOC: ClassVar[str] = (
        "Reveal a Leekha card to double it (pass phase, before your pass, doubling on). Reply `ok`."
    )
    id: int = _rid()
    card: int = field(metadata=meta(CARD, doc="Q♠ 49 or 10♦ 21"))


@register
@dataclass(frozen=True, kw_only=True)
class PlayCard(Message):
    TYPE: ClassVar[str] = "play_card"
    SENDER: ClassVar[Sender] = C
    DOC: ClassVar[str] = "Play a card on your turn. Reply `ok` (or an engine error)."
    id: int = _rid()
    card: int = field(metadata=meta(CARD, doc="the card"))


@register
@dataclass(frozen=True, kw_only=True)
class Chat(Message):
    TYPE: ClassVar[str] = "chat"
    SENDER: ClassVar[Sender] = C
    DOC: ClassVar[str] = (
        "Say something: to your table, or to the lobby when not at one. Reply `ok`."
    )
    id: int = _rid()
    text: str = field(metadata=meta(StrSpec(1, 1000), doc="the text"))


# --- game: snapshot and events ---------------------------------------------------------


@register
@dataclass(frozen=True, kw_only=True)
class Snapshot(Message):
    TYPE: ClassVar[str] = "snapshot"
    SENDER: ClassVar[Sender] = S
    DOC: ClassVar[str] = (
        "The whole state of your table as you may see it. Sent in reply to create_table, "
        "join_seat, spectate; after welcome on resume; unprompted (`re` null) when a game "
        "starts (just before round 0's `dealt`) and after the server passed for your seat "
        "(timeout or away); and whenever the server judges events insufficient. Replaces all "
        "client-side state."
    )
    re: int | None = field(default=None, metadata=meta(NullableSpec(REQ_ID), doc=_RE_OR_NULL_DOC))
    table: dict[str, Any] = field(metadata=meta(TABLE_SUMMARY, doc="the table summary"))
    view: dict[str, Any] | None = field(
        metadata=meta(NullableSpec(SEAT_VIEW), doc="your seat view; null before the first deal")
    )
    your_seat: int | None = field(
        metadata=meta(NullableSpec(SEAT), doc="your seat, null when spectating")
    )
    players: list[dict[str, Any]] = field(
        metadata=meta(ListSpec(PLAYER_INFO, 4, 4), doc="per seat")
    )


@register
@dataclass(frozen=True, kw_only=True)
class Dealt(Message):
    TYPE: ClassVar[str] = "dealt"
    SENDER: ClassVar[Sender] = S
    DOC: ClassVar[str] = (
        "A new round, round 0 included: your 13 cards (spectators get an empty hand). Every "
        "round begins with it; a client that waits for `dealt` always learns its hand."
    )
    round: int = field(metadata=meta(NON_NEG, doc="0-based round number"))
    dealer: int = field(metadata=meta(SEAT, doc="dealer seat"))
    hand: list[int] = field(metadata=meta(CardSetSpec(0, 13), doc="your hand"))
    pass_to: int | None = field(
        default=None, metadata=meta(NullableSpec(SEAT), doc="seat your pass goes to")
    )


@register
@dataclass(frozen=True, kw_only=True)
class PassDone(Message):
    TYPE: ClassVar[str] = "pass_done"
    SENDER: ClassVar[Sender] = S
    DOC: ClassVar[str] = "A seat committed its pass (not what it passed)."
    seat: int = field(metadata=meta(SEAT, doc="who passed"))


@register
@dataclass(frozen=True, kw_only=True)
class PassedReceived(Message):
    TYPE: ClassVar[str] = "passed_received"
    SENDER: ClassVar[Sender] = S
    DOC: ClassVar[str] = "Every seat has passed; these are the cards you received. Play begins."
    cards: list[int] = field(metadata=meta(CardSetSpec(3, 3), doc="cards received"))
    from_seat: int = field(metadata=meta(SEAT, doc="who passed them to you"))


@register
@dataclass(frozen=True, kw_only=True)
class DoubleRevealed(Message):
    TYPE: ClassVar[str] = "double_revealed"
    SENDER: ClassVar[Sender] = S
    DOC: ClassVar[str] = "A seat revealed a Leekha card: it now scores double."
    seat: int = field(metadata=meta(SEAT, doc="who revealed"))
    card: int = field(metadata=meta(CARD, doc="the card"))


@register
@dataclass(frozen=True, kw_only=True)
class CardPlayed(Message):
    TYPE: ClassVar[str] = "card_played"
    SENDER: ClassVar[Sender] = S
    DOC: ClassVar[str] = "A seat played a card to the current trick."
    seat: int = field(metadata=meta(SEAT, doc="who played"))
    card: int = field(metadata=meta(CARD, doc="the card"))


@register
@dataclass(frozen=True, kw_only=True)
class TrickTaken(Message):
    TYPE: ClassVar[str] = "trick_taken"
    SENDER: ClassVar[Sender] = S
    DOC: ClassVar[str] = "The trick is complete. The winner leads next."
    winner: int = field(metadata=meta(SEAT, doc="who took it"))
    cards: list[list[int]] = field(
        metadata=meta(ListSpec(SEAT_CARD, 4, 4), doc="the trick in play order")
    )
    points: int = field(metadata=meta(NON_NEG, doc="penalty points in it (doubles counted)"))


@register
@dataclass(frozen=True, kw_only=True)
class RoundScored(Message):
    TYPE: ClassVar[str] = "round_scored"
    SENDER: ClassVar[Sender] = S
    DOC: ClassVar[str] = "The round is over."
    round: int = field(metadata=meta(NON_NEG, doc="the round that ended"))
    round_points: list[int] = field(metadata=meta(PER_SEAT_INT, doc="points per seat"))
    totals: list[int] = field(metadata=meta(PER_SEAT_INT, doc="game totals after the round"))
    taken: list[list[int]] = field(
        metadata=meta(ListSpec(CardSetSpec(0, 52), 4, 4), doc="penalty cards each seat took")
    )


@register
@dataclass(frozen=True, kw_only=True)
class GameOver(Message):
    TYPE: ClassVar[str] = "game_over"
    SENDER: ClassVar[Sender] = S
    DOC: ClassVar[str] = "The game ended (after `round_scored`, or mid-round under golden goal)."
    winners: list[int] = field(metadata=meta(ListSpec(SEAT, 1, 4), doc="winning seats"))
    losers: list[int] = field(metadata=meta(ListSpec(SEAT, 0, 4), doc="losing seats"))
    totals: list[int] = field(metadata=meta(PER_SEAT_INT, doc="final totals"))


@register
@dataclass(frozen=True, kw_only=True)
class SeatUpdate(Message):
    TYPE: ClassVar[str] = "seat_update"
    SENDER: ClassVar[Sender] = S
    DOC: ClassVar[str] = (
        "Someone sat, left, disconnected, reconnected, or a bot took/left a seat at your table."
    )
    table_id: int = field(metadata=meta(TABLE_ID, doc="the table"))
    seat: int = field(metadata=meta(SEAT, doc="which seat"))
    player: dict[str, Any] = field(metadata=meta(PLAYER_INFO, doc="who is there now"))


@register
@dataclass(frozen=True, kw_only=True)
class YourTurn(Message):
    TYPE: ClassVar[str] = "your_turn"
    SENDER: ClassVar[Sender] = S
    DOC: ClassVar[str] = (
        "Prompt: act now. In the pass phase `legal` lists each card that may be part of some "
        "legal pass (judged card by card: a set of three legal cards can still be refused "
        "with `pass_last_of_suit`, see Passing); in the play phase the legal plays. When a "
        "timer runs out the server acts for you."
    )
    phase: str = field(metadata=meta(EnumSpec(("pass", "play")), doc="what to do"))
    legal: list[int] = field(metadata=meta(CardSetSpec(1, 13), doc="cards you may choose"))
    deadline: float | None = field(
        default=None,
        metadata=meta(NullableSpec(FloatSpec(0.0, 86400.0)), doc="seconds left, null = no timer"),
    )
    can_double: list[int] = field(
        default_factory=list,
        metadata=meta(
            CardSetSpec(0, 4),
            doc="(1.1) pass phase: Leekha cards you may still reveal with `declare_double`",
        ),
    )


@register
@dataclass(frozen=True, kw_only=True)
class ChatMessage(Message):
    TYPE: ClassVar[str] = "chat_message"
    SENDER: ClassVar[Sender] = S
    DOC: ClassVar[str] = "Someone said something."
    sender: str = field(metadata=meta(NAME, wire="from", doc="speaker's name"))
    text: str = field(metadata=meta(StrSpec(1, 1000), doc="the text"))
    table_id: int | None = field(
        default=None, metadata=meta(NullableSpec(TABLE_ID), doc="null = lobby chat")
    )


# --- statistics (1.1) -------------------------------------------------------------------


@register
@dataclass(frozen=True, kw_only=True)
class GetStats(Message):
    TYPE: ClassVar[str] = "get_stats"
    SENDER: ClassVar[Sender] = C
    DOC: ClassVar[str] = (
        "(1.1) Ask for player statistics over the server's finished games. Reply `stats`."
    )
    id: int = _rid()
    name: str | None = field(
        default=None,
        metadata=meta(NullableSpec(NAME), doc="one player's name (exact); null = everyone"),
    )


@register
@dataclass(frozen=True, kw_only=True)
class Stats(Message):
    TYPE: ClassVar[str] = "stats"
    SENDER: ClassVar[Sender] = S
    DOC: ClassVar[str] = (
        "(1.1) Statistics of human players over finished games, most games first (at most "
        "200 players). A name with no finished game gives an empty list."
    )
    re: int = field(metadata=meta(REQ_ID, doc=_RE_DOC))
    players: list[dict[str, Any]] = field(
        metadata=meta(ListSpec(PLAYER_STATS, 0, STATS_MAX), doc="one entry per player")
    )
