"""The server's notices and the reasons of its refusals, in the interface language.

Since protocol 1.4 the server names each of its own lines (someone dropped, a bot plays a
seat, a timer played for you) and the rule behind each refusal (the engine's follow suit,
talbees, undercut, void rule and pass ban; why a table cannot start; what is wrong with a
rules option) with a code and its facts (leekha.protocol.notices). This module words each
code from those facts; it never reads the server's English, which older servers send
alone and which is then shown as it came.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Protocol

from leekha.client.cardnames import suit_name
from leekha.client.i18n import N_, _, ngettext
from leekha.common import cards as C

#: Notice code -> the words (leekha.protocol.notices.NOTICES; a test keeps the keys equal).
NOTICES: dict[str, str] = {
    "left_bot": N_("{name} left the table; a bot plays the seat"),
    "left": N_("{name} left the table"),
    "dropped": N_("{name} dropped; the seat waits {grace} s for them to come back"),
    "back_from_bot": N_("{name} is back and takes the seat back from the bot"),
    "back": N_("{name} is back"),
    "away_bot": N_("{name} is still away: a bot plays the seat until they come back"),
    "timeouts_bot": N_("a bot plays for {name}: the clock ran out {count} times in a row"),
    "took_back": N_("{name} takes the seat back from the bot"),
    "timeout_passed": N_("Time ran out: the server passed {cards} for you"),
    "timeout_played": N_("Time ran out: the server played {card} for you"),
    "muted": N_("{name} is muted for {seconds} s: too many messages"),
    "quick_wait": N_("Quick play: you take a bot's seat when this round ends"),
    "quick_seat": N_("{name} takes over a bot's seat"),
    "quick_moved": N_("The game you waited in ended: quick play seats you at {table}"),
    "tournament_away": N_("{name} is not here: the fallback bot plays this game for them"),
    "tournament_due": N_(
        "Your game {game} of tournament {name} is due: leave this table within {grace} s "
        "to play it, or the fallback bot plays it for you"
    ),
}

#: "seats_empty" when more than one seat is (a plural of its own, not "seat 1, 2 is empty").
SEATS_EMPTY_MANY = N_("seats {seats} are empty: someone must sit there or the host adds bots")

#: An `error`'s rule -> the words (leekha.protocol.notices.RULES; a test keeps them equal).
RULES: dict[str, str] = {
    "follow_suit": N_("{card}: you must follow {suit}"),
    "talbees": N_("{card}: talbees, {legal} must go now a higher {suit} card is down"),
    "undercut": N_("{card}: undercut, play under the Leekha ({legal})"),
    "void_rule": N_("{card}: you are void in {suit} and must play a Leekha ({legal})"),
    "pass_ban": N_("{card} cannot go: it would empty your {suit} (pass ban)"),
    "seats_empty": N_("seat {seats} is empty: someone must sit there or the host adds a bot"),
    "game_running": N_("the game is already running"),
    "game_still_running": N_("the game is still running"),
    "no_game_yet": N_("no game has finished here yet; the host starts the first one"),
    "bots_in_game": N_("bots cannot be removed during a game"),
    "tournament_one_game": N_("a tournament table plays one game"),
    "wrong_state": N_("not now: the table is {status}"),
    "tournaments_running": N_(
        "the server's limit of tournaments running at once ({limit}) is reached"
    ),
    "tournaments_waiting": N_(
        "the server's limit of tournaments waiting to start ({limit}) is reached"
    ),
    "tournaments_yours": N_(
        "your limit of tournaments not yet finished ({limit}) is reached: {ids}; cancel one "
        "(leekha tournament cancel) or wait"
    ),
    "rules_bool": N_("rules option {option} must be true or false; got {got}"),
    "rules_int": N_("rules option {option} must be an integer from {lo} to {hi}; got {got}"),
    "rules_choice": N_("rules option {option} must be one of {allowed}; got {got}"),
    "rules_unknown": N_("rules option {option} must be a known option: {known}; got {got}"),
    "rules_map": N_("rules option {option} must be a map of option names to values; got {got}"),
}

#: Notices whose words depend on a count (the fact named), in the plural forms of the
#: interface language; their NOTICES entry is the English plural, kept for the key test.
COUNTED: dict[str, tuple[str, Callable[[int], str]]] = {
    "timeouts_bot": (
        "count",
        lambda n: ngettext(
            "a bot plays for {name}: the clock ran out {count} time in a row",
            "a bot plays for {name}: the clock ran out {count} times in a row",
            n,
        ),
    ),
}

#: How each argument is shown: cards as cards, suits and seats as words and numbers.
_CARD_ARGS = ("card",)
_CARDS_ARGS = ("cards", "legal")


def _shown(args: Mapping[str, object], card: Callable[[int], str]) -> dict[str, object]:
    out: dict[str, object] = {}
    for key, value in args.items():
        if key in _CARD_ARGS and isinstance(value, int):
            out[key] = card(value)
        elif key in _CARDS_ARGS and isinstance(value, list):
            out[key] = " ".join(card(c) for c in C.display_order(value))
        elif key == "suit" and isinstance(value, int) and 0 <= value < 4:
            out[key] = suit_name(value)
        elif key == "option" and isinstance(value, str):
            out[key] = repr(value)  # as the engine names it: 'target'
        elif key == "allowed" and isinstance(value, list):
            out[key] = ", ".join(repr(v) for v in value)
            out["known"] = ", ".join(map(str, value))
        elif key == "seats" and isinstance(value, list):
            numbers = [str(s + 1) for s in value if isinstance(s, int)]
            out[key] = (
                numbers[0]
                if len(numbers) == 1
                else _("{some} and {last}").format(some=", ".join(numbers[:-1]), last=numbers[-1])
            )
        elif isinstance(value, list):
            out[key] = ", ".join(map(str, value))
        else:
            out[key] = value
    out.setdefault("known", "")
    return out


def _word(
    table: dict[str, str],
    code: str | None,
    args: Mapping[str, object],
    card: Callable[[int], str] | None,
) -> str | None:
    template = table.get(code or "")
    if template is None:
        return None
    seats = args.get("seats")
    if code == "seats_empty" and isinstance(seats, list) and len(seats) > 1:
        template = SEATS_EMPTY_MANY
    words = _(template)
    if (counted := COUNTED.get(code or "")) is not None and table is NOTICES:
        n = args.get(counted[0])
        words = counted[1](n if isinstance(n, int) else 2)
    try:
        return words.format(**_shown(args, card or C.format_card))
    except (KeyError, IndexError, ValueError):
        return None  # facts missing or malformed (a different server): use its text


def notice(
    code: str | None, args: Mapping[str, object], card: Callable[[int], str] | None = None
) -> str | None:
    """A notice in the interface language; None for a code this client does not know."""
    return _word(NOTICES, code, args, card)


def rule(
    code: str | None, args: Mapping[str, object], card: Callable[[int], str] | None = None
) -> str | None:
    """A refusal's rule in the interface language; None for a rule this client does not know."""
    return _word(RULES, code, args, card)


def chat_line(msg: ChatLine, card: Callable[[int], str] | None = None) -> str:
    """What a `chat_message` from the server says: its code worded, or its text as sent."""
    said = notice(getattr(msg, "code", None), getattr(msg, "args", {}) or {}, card)
    return msg.text if said is None else said


class ChatLine(Protocol):
    """A `chat_message` as `chat_line` reads it (older servers send no code or args)."""

    @property
    def text(self) -> str: ...
