"""Every message of the protocol, each marked with the version that added it when not 1.0.

Client requests carry `id`; the server's direct reply echoes it as `re`. Field docs here are
rendered into docs/protocol.md by `leekha.protocol._docgen`.

Why one module of ~600 lines: it is the 1.0-1.2 catalogue, read as one reference (its
sections, handshake to game events, are the spec's sections, in the spec's order), and every
peer imports it whole as `M`. Its lines are declarations, one class per message, with no
logic shared between them to split by; the additions of later versions that form a job of
their own already live apart (`tournaments.py` 1.3, `people.py` 1.4).
"""

from __future__ import annotations

from typing import Any

from leekha.common.events import SeatStats
from leekha.common.outcome import Reason

from .message import Message, Sender, message, spec_field
from .records import (
    CLOCK,
    GAME_STATS,
    NAME,
    PLAYER_INFO,
    PLAYER_STATS,
    REASONS,
    RULES,
    SEAT_VIEW,
    TABLE_SUMMARY,
    TIMER_REQUEST,
)
from .schema import (
    ARGS,
    CARD,
    CODE,
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
from .views import Facts, PlayerInfo, PlayerStats, Rules, SeatViewDict, TableSummary

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
    "TakeBack",
    "TrickTaken",
    "Turn",
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
_ARGS_DOC = (
    "(1.4) the facts the code is worded with, by name (see Notices and refusals); "
    "a client words the code itself, in its own language"
)

C: Sender = "client"
S: Sender = "server"


def _rid() -> Any:
    return spec_field(REQ_ID, _ID_DOC)


def _versions() -> Any:
    return spec_field(ListSpec(VERSION, 1, 16), "protocol versions the client speaks")


# --- handshake -------------------------------------------------------------------------


@message(
    "hello",
    C,
    "First message of a new session. The server answers `welcome`, or `error` "
    "(`version_mismatch`) and closes.",
)
class Hello(Message):
    id: int = _rid()
    versions: list[list[int]] = _versions()
    name: str = spec_field(NAME, "display name wanted")
    client: str = spec_field(StrSpec(0, 64), "client software and version, free text", default="")
    key: str | None = spec_field(
        NullableSpec(StrSpec(1, 128)),
        "(1.2) your public key, `ed25519:<base64>`: the server answers `challenge` "
        "and the name is yours once you prove you hold the key; null = play as a guest",
        default=None,
    )


@message(
    "resume",
    C,
    "First message after a reconnect, instead of `hello`. The server answers `welcome` "
    "(`resumed: true`, with `table_id`/`seat` saying where the session is) then, if the "
    "session is at a table (seated or spectating), `snapshot` and, if a decision of "
    "yours is pending, `your_turn` with the time left; or `error` `bad_token`, after "
    "which the client may send `hello` on the same connection.",
)
class Resume(Message):
    id: int = _rid()
    versions: list[list[int]] = _versions()
    token: str = spec_field(TOKEN, "session token from an earlier `welcome`")


@message("welcome", S, "Handshake accepted.")
class Welcome(Message):
    re: int = spec_field(REQ_ID, "`id` of the `hello`/`resume`")
    version: list[int] = spec_field(VERSION, "the version chosen (see negotiate)")
    server: str = spec_field(StrSpec(0, 64), "server software name and version")
    token: str = spec_field(TOKEN, "opaque session token; keep it to `resume` after a drop")
    name: str = spec_field(NAME, "your display name as the server accepted it")
    resumed: bool = spec_field(BoolSpec(), "true when this answers `resume`", default=False)
    table_id: int | None = spec_field(
        NullableSpec(TABLE_ID),
        "(1.1) the table the session is at (seated or spectating); null = in the "
        "lobby, e.g. the seat was given up while you were away",
        default=None,
    )
    seat: int | None = spec_field(
        NullableSpec(SEAT), "(1.1) your seat at that table; null = not seated", default=None
    )
    verified: bool = spec_field(
        BoolSpec(),
        "(1.2) true when you proved the key that owns your name; false = guest",
        default=False,
    )
    web: str | None = spec_field(
        NullableSpec(StrSpec(1, 300)),
        "(1.4) the address of this server's table page as this connection reaches it "
        "(`http://HOST:PORT/` or `https://…/`; its WebSocket is `/ws` there); null = "
        "the server serves no page",
        default=None,
    )


# --- replies and keepalive -----------------------------------------------------------


@message(
    "challenge",
    S,
    "(1.2) Answers a `hello` that carried a `key`: prove you hold the key by signing "
    '`"leekha-auth-1\\0" + server + "\\0" + name + "\\0" + key + "\\0" + nonce` '
    "(UTF-8 strings, the nonce's 32 raw bytes) with Ed25519 and sending `prove`. "
    "The nonce is fresh for every connection, so an answer can never be replayed.",
    since=(1, 2),
)
class Challenge(Message):
    re: int = spec_field(REQ_ID, "`id` of the `hello`")
    nonce: str = spec_field(StrSpec(44, 44), "32 random bytes, base64")
    server: str = spec_field(StrSpec(1, 64), "this server's id, part of what you sign")


@message(
    "prove",
    C,
    "(1.2) The answer to `challenge`. The server answers `welcome` (the name is now "
    "claimed by your key if it was free), or `error` `bad_signature`, after which you "
    "may send `hello` again.",
    since=(1, 2),
)
class Prove(Message):
    re: int = spec_field(REQ_ID, "`id` of the `hello`")
    signature: str = spec_field(StrSpec(88, 88), "the Ed25519 signature, base64")


@message("error", S, "A request failed (it had no effect), or a protocol error before closing.")
class Error(Message):
    code: str = spec_field(StrSpec(1, 64), "stable error code (see Error codes)")
    message: str = spec_field(StrSpec(0, 1000), "human-readable detail (English)")
    re: int | None = spec_field(
        NullableSpec(REQ_ID), "`id` of the failed request, or null", default=None
    )
    rule: str | None = spec_field(
        NullableSpec(CODE),
        "(1.4) the finer reason: for an engine refusal the rule that forbids it "
        "(`follow_suit`, `talbees`, `undercut`, `void_rule`, `pass_ban`, ...), for "
        "`not_ready` and `bad_rules` what is missing or wrong (see Notices and refusals); "
        "null = the code says it all",
        default=None,
    )
    args: Facts = spec_field(ARGS, _ARGS_DOC, default_factory=dict)


@message("ok", S, "The request succeeded (for requests with no richer reply).")
class Ok(Message):
    re: int = spec_field(REQ_ID, _RE_DOC)


@message("ping", "both", "Keepalive, either direction; the peer answers `pong` with `re = id`.")
class Ping(Message):
    id: int = spec_field(REQ_ID, "echoed as `re` in the pong")


@message("pong", "both", "Answer to `ping`.")
class Pong(Message):
    re: int = spec_field(REQ_ID, "`id` of the ping")


# --- lobby ------------------------------------------------------------------------------


@message(
    "list_tables",
    C,
    "Ask for one page of the table list; reply `table_list`. Afterwards the server "
    "pushes `table_update` for every change until the client sits or spectates.",
)
class ListTables(Message):
    id: int = _rid()
    cursor: int | None = spec_field(
        NullableSpec(CURSOR),
        "(1.2) the `next` of the previous page: list the tables after it; "
        "null = from the first table",
        default=None,
    )


@message("table_list", S, "One page of the table list, in table id order.")
class TableList(Message):
    re: int | None = spec_field(NullableSpec(REQ_ID), _RE_OR_NULL_DOC, default=None)
    tables: list[TableSummary] = spec_field(
        ListSpec(TABLE_SUMMARY, 0, 1000),
        f"the tables of this page (the reference server sends at most {LIST_PAGE})",
    )
    total: int | None = spec_field(
        NullableSpec(NON_NEG), "(1.2) how many tables the server has in all", default=None
    )
    next: int | None = spec_field(
        NullableSpec(CURSOR),
        "(1.2) send this as `cursor` for the next page; null = this was the last",
        default=None,
    )


@message("table_update", S, "One table was created, changed, or (table null) removed.")
class TableUpdate(Message):
    table_id: int = spec_field(TABLE_ID, "which table")
    table: TableSummary | None = spec_field(
        NullableSpec(TABLE_SUMMARY), "its new summary; null = removed"
    )


@message(
    "create_table", C, "Create a table and sit at seat 0 as its host. Reply: `snapshot` with `re`."
)
class CreateTable(Message):
    id: int = _rid()
    name: str = spec_field(NAME, "table name")
    preset: str = spec_field(
        StrSpec(1, 32), "rules preset: classic, levant, golden, ...", default="classic"
    )
    overrides: Rules = spec_field(
        RULES,
        "rules keys changed from the preset (the rules table at the top)",
        default_factory=dict,
    )
    password: str | None = spec_field(
        NullableSpec(StrSpec(1, 64)), "null = open table", default=None
    )
    pass_timer_s: int | None = spec_field(
        TIMER_REQUEST,
        "seconds to choose a pass; null = the server's default, 0 = untimed",
        default=None,
    )
    turn_timer_s: int | None = spec_field(
        TIMER_REQUEST, "seconds per play; null = the server's default, 0 = untimed", default=None
    )
    counting_aid: bool = spec_field(
        BoolSpec(),
        "(1.2) false forbids the clients' card-counting aid (cards still out, voids "
        "shown) at this table",
        default=True,
    )


@message("join_seat", C, "Sit at a table. Reply: `snapshot` with `re`.")
class JoinSeat(Message):
    id: int = _rid()
    table_id: int = spec_field(TABLE_ID, "which table")
    seat: int | None = spec_field(NullableSpec(SEAT), "null = any free seat", default=None)
    password: str | None = spec_field(
        NullableSpec(StrSpec(1, 64)), "if the table has one", default=None
    )


@message("spectate", C, "Watch a table. Reply: `snapshot` (your_seat null) with `re`.")
class Spectate(Message):
    id: int = _rid()
    table_id: int = spec_field(TABLE_ID, "which table")
    password: str | None = spec_field(
        NullableSpec(StrSpec(1, 64)), "if the table has one", default=None
    )


@message(
    "leave",
    C,
    "Leave your seat or stop spectating; back to the lobby. Reply `ok`. Leaving a game "
    "in progress hands the seat to a bot.",
)
class Leave(Message):
    id: int = _rid()


@message(
    "add_bot",
    C,
    "Host only: put a bot in an empty seat. Reply `ok`. Strategies: `random` (any legal "
    "move), `heuristic` (rule-based, the default), `search` (Monte Carlo rollouts; "
    "slowest), `search1` (the previous search), any other name `leekha bot --help` lists; "
    "or a level for people: `easy`, `medium` (the heuristic), `hard` (the search with the "
    "value network inside it, `search-prior`; the strongest). `basic` is a deprecated "
    "alias of `heuristic`; any other name is refused with `no_such_bot`.",
)
class AddBot(Message):
    id: int = _rid()
    seat: int = spec_field(SEAT, "empty seat")
    strategy: str = spec_field(StrSpec(1, 32), "bot strategy (tier or level)", default="heuristic")


@message("remove_bot", C, "Host only: remove the bot from a seat (before start). Reply `ok`.")
class RemoveBot(Message):
    id: int = _rid()
    seat: int = spec_field(SEAT, "seat holding a bot")


@message("start", C, "Host only: start the game once all four seats are filled. Reply `ok`.")
class Start(Message):
    id: int = _rid()


@message(
    "rematch",
    C,
    "After `game_over`: vote for a new game with the same seats and rules. Reply `ok`; "
    "the new game starts (with `dealt`) when every seated human has voted.",
)
class Rematch(Message):
    id: int = _rid()


# --- game: client actions ---------------------------------------------------------------


@message(
    "take_back",
    C,
    "(1.4) I am at the keyboard: take my seat back from the bot that plays it after my "
    "timeouts (`control` `autopilot`, reason `timeouts`). Reply `ok`; everyone at the "
    "table then gets the `seat_update` and the `took_back` notice. Any other request but "
    "`ping`/`pong` takes the seat back too; this one does nothing else.",
    since=(1, 4),
)
class TakeBack(Message):
    id: int = _rid()


@message("pass_cards", C, "Commit your 3-card pass. Reply `ok` (or an engine error).")
class PassCards(Message):
    id: int = _rid()
    cards: list[int] = spec_field(CardSetSpec(3, 3), "the cards passed")


@message(
    "declare_double",
    C,
    "Reveal a Leekha card to double it (pass phase, before your pass, doubling on). Reply `ok`.",
)
class DeclareDouble(Message):
    id: int = _rid()
    card: int = spec_field(CARD, "Q♠ 49 or 10♦ 21")


@message("play_card", C, "Play a card on your turn. Reply `ok` (or an engine error).")
class PlayCard(Message):
    id: int = _rid()
    card: int = spec_field(CARD, "the card")


@message("chat", C, "Say something: to your table, or to the lobby when not at one. Reply `ok`.")
class Chat(Message):
    id: int = _rid()
    text: str = spec_field(StrSpec(1, 1000), "the text")


# --- game: snapshot and events ---------------------------------------------------------


@message(
    "snapshot",
    S,
    "The whole state of your table as you may see it. Sent in reply to create_table, "
    "join_seat, spectate; after welcome on resume; unprompted (`re` null) when a game "
    "starts (just before round 0's `dealt`) and after the server passed for your seat "
    "(timeout or away); and whenever the server judges events insufficient. Replaces all "
    "client-side state.",
)
class Snapshot(Message):
    re: int | None = spec_field(NullableSpec(REQ_ID), _RE_OR_NULL_DOC, default=None)
    table: TableSummary = spec_field(TABLE_SUMMARY, "the table summary")
    view: SeatViewDict | None = spec_field(
        NullableSpec(SEAT_VIEW), "your seat view; null before the first deal"
    )
    your_seat: int | None = spec_field(NullableSpec(SEAT), "your seat, null when spectating")
    players: list[PlayerInfo] = spec_field(ListSpec(PLAYER_INFO, 4, 4), "per seat")


@message(
    "dealt",
    S,
    "A new round, round 0 included: your 13 cards (spectators get an empty hand). Every "
    "round begins with it; a client that waits for `dealt` always learns its hand.",
)
class Dealt(Message):
    round: int = spec_field(NON_NEG, "0-based round number")
    dealer: int = spec_field(SEAT, "dealer seat")
    hand: list[int] = spec_field(CardSetSpec(0, 13), "your hand")
    pass_to: int | None = spec_field(NullableSpec(SEAT), "seat your pass goes to", default=None)


@message("pass_done", S, "A seat committed its pass (not what it passed).")
class PassDone(Message):
    seat: int = spec_field(SEAT, "who passed")


@message(
    "passed_received", S, "Every seat has passed; these are the cards you received. Play begins."
)
class PassedReceived(Message):
    cards: list[int] = spec_field(CardSetSpec(3, 3), "cards received")
    from_seat: int = spec_field(SEAT, "who passed them to you")


@message("double_revealed", S, "A seat revealed a Leekha card: it now scores double.")
class DoubleRevealed(Message):
    seat: int = spec_field(SEAT, "who revealed")
    card: int = spec_field(CARD, "the card")


@message("card_played", S, "A seat played a card to the current trick.")
class CardPlayed(Message):
    seat: int = spec_field(SEAT, "who played")
    card: int = spec_field(CARD, "the card")


@message("trick_taken", S, "The trick is complete. The winner leads next.")
class TrickTaken(Message):
    winner: int = spec_field(SEAT, "who took it")
    cards: list[list[int]] = spec_field(ListSpec(SEAT_CARD, 4, 4), "the trick in play order")
    points: int = spec_field(NON_NEG, "penalty points in it (doubles counted)")


@message("round_scored", S, "The round is over.")
class RoundScored(Message):
    round: int = spec_field(NON_NEG, "the round that ended")
    round_points: list[int] = spec_field(PER_SEAT_INT, "points per seat")
    totals: list[int] = spec_field(PER_SEAT_INT, "game totals after the round")
    taken: list[list[int]] = spec_field(
        ListSpec(CardSetSpec(0, 52), 4, 4), "penalty cards each seat took"
    )
    moon: int | None = spec_field(
        NullableSpec(SEAT),
        "(1.4) the seat that took every penalty card and shot the moon; null = nobody",
        default=None,
    )
    stopped: bool = spec_field(
        BoolSpec(),
        "(1.4) true when the golden-goal rule ended the round before its 13th trick",
        default=False,
    )
    tie: bool = spec_field(
        BoolSpec(),
        "(1.4) true when the target was reached but a tie for the win makes play go on",
        default=False,
    )


@message("game_over", S, "The game ended (after `round_scored`, or mid-round under golden goal).")
class GameOver(Message):
    winners: list[int] = spec_field(ListSpec(SEAT, 1, 4), "winning seats")
    losers: list[int] = spec_field(ListSpec(SEAT, 0, 4), "losing seats")
    totals: list[int] = spec_field(PER_SEAT_INT, "final totals")
    reason: Reason = spec_field(
        EnumSpec(REASONS),
        "(1.4) `target`: the game ended with a round; `golden_goal`: mid-round",
        default="target",
    )
    tie_extended: bool = spec_field(
        BoolSpec(),
        "(1.4) true when a tie had made play go on past the target before this end",
        default=False,
    )
    stats: list[SeatStats] | None = spec_field(
        GAME_STATS,
        "(1.4) every seat's tricks, Leekha cards taken, moons and points per round over "
        "the whole game, counted by the server from the engine's events; null = not sent",
        default=None,
    )
    game_id: int | None = spec_field(
        NullableSpec(NON_NEG),
        "(1.4) the id the server stored the game under (`leekha records export --game "
        "ID`, `leekha records list`); null = not said",
        default=None,
    )


@message(
    "seat_update",
    S,
    "Someone sat, left, disconnected, reconnected, or a bot took/left a seat at your table.",
)
class SeatUpdate(Message):
    table_id: int = spec_field(TABLE_ID, "the table")
    seat: int = spec_field(SEAT, "which seat")
    player: PlayerInfo = spec_field(PLAYER_INFO, "who is there now")


@message(
    "your_turn",
    S,
    "Prompt: act now. In the pass phase `legal` lists each card that may be part of some "
    "legal pass (judged card by card: a set of three legal cards can still be refused "
    "with `pass_last_of_suit`, see Passing); in the play phase the legal plays. When a "
    "timer runs out the server acts for you.",
)
class YourTurn(Message):
    phase: str = spec_field(EnumSpec(("pass", "play")), "what to do")
    legal: list[int] = spec_field(CardSetSpec(1, 13), "cards you may choose")
    deadline: float | None = spec_field(
        NullableSpec(FloatSpec(0.0, 86400.0)), "seconds left, null = no timer", default=None
    )
    can_double: list[int] = spec_field(
        CardSetSpec(0, 4),
        "(1.1) pass phase: Leekha cards you may still reveal with `declare_double`",
        default_factory=list,
    )


@message("chat_message", S, "Someone said something.")
class ChatMessage(Message):
    sender: str = spec_field(NAME, "speaker's name", wire="from")
    text: str = spec_field(StrSpec(1, 1000), "the text (a server notice: in English)")
    table_id: int | None = spec_field(NullableSpec(TABLE_ID), "null = lobby chat", default=None)
    code: str | None = spec_field(
        NullableSpec(CODE),
        "(1.4) a server notice (`from` `*`) names what happened with a code (see Notices "
        "and refusals); null = a person's line",
        default=None,
    )
    args: Facts = spec_field(ARGS, _ARGS_DOC, default_factory=dict)


@message(
    "turn",
    S,
    "(1.4) Whose decision the table waits for, and the time left on the server's clock. "
    "Sent to everyone at the table, spectators included, whenever a decision starts or "
    "its clock starts again (a seat taken back from a bot), after every `snapshot`, and "
    "never to a session of an older version. A client counts down from these figures.",
    since=(1, 4),
)
class Turn(Message):
    phase: str = spec_field(EnumSpec(("pass", "play")), "what the seats are deciding")
    seats: list[list[Any]] = spec_field(
        ListSpec(CLOCK, 0, 4),
        "each seat that must decide now (pass: every seat yet to pass; play: the one in "
        "turn) with its seconds left; an empty list = nobody (between games)",
    )


# --- statistics (1.1) -------------------------------------------------------------------


@message(
    "get_stats",
    C,
    "(1.1) Ask for player statistics over the server's finished games. Reply `stats`.",
    since=(1, 1),
)
class GetStats(Message):
    id: int = _rid()
    name: str | None = spec_field(
        NullableSpec(NAME), "one player's name (exact); null = everyone", default=None
    )


@message(
    "stats",
    S,
    "(1.1) Statistics of human players over finished games, most games first (at most "
    "200 players). A name with no finished game gives an empty list.",
    since=(1, 1),
)
class Stats(Message):
    re: int = spec_field(REQ_ID, _RE_DOC)
    players: list[PlayerStats] = spec_field(
        ListSpec(PLAYER_STATS, 0, STATS_MAX), "one entry per player"
    )
