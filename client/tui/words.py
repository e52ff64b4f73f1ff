"""The terminal client's words for the server's facts: bot levels, what a refused request
was doing, a round's note, a new table's name.

Only wording lives here: each function takes what the server or the engine decided and
says it in the reader's language (client/i18n.py); none decides anything.
"""

from __future__ import annotations

from collections.abc import Callable

from leekha import protocol as P
from leekha.client.cardnames import suit_name
from leekha.client.i18n import _
from leekha.common.config import RulesConfig

NAME_MAX = 24  # the server's default longest table name (ServerSettings.max_name_len)


def level_word(level: str) -> str:
    """A bot level as the player reads it."""
    words = {"easy": _("easy"), "medium": _("medium"), "hard": _("hard")}
    return words.get(level, level)


def bot_name(name: str, seat: int, level: str | None = None) -> str:
    """A bot seat's name in the reader's language. The server names the bots a host adds
    "{level} bot {seat}" (server/tablepeople.py); that exact name is said again with the
    level translated, any other name (a bot client's own) is the name."""
    for word in (level,) if level else ("easy", "medium", "hard"):
        if name == server_bot_name(word, seat):
            return _("{level} bot {n}").format(level=level_word(word), n=seat)
    return name


def server_bot_name(level: str, seat: int) -> str:
    """The name the server gives a bot of `level` a host adds at `seat`."""
    return f"{level} bot {seat}"


def suit_word(suit: int) -> str:
    return suit_name(suit)


def what(kind: str) -> str:
    """What a failed request was trying to do, for "… refused: …" status lines."""
    words = {
        "create_table": _("Creating the table"),
        "join_seat": _("Joining"),
        "spectate": _("Spectating"),
        "leave": _("Leaving"),
        "add_bot": _("Adding a bot"),
        "remove_bot": _("Removing the bot"),
        "start": _("Starting"),
        "rematch": _("Rematch"),
        "pass_cards": _("Pass"),
        "declare_double": _("Doubling"),
        "play_card": _("Play"),
        "chat": _("Chat"),
        "list_tables": _("Listing tables"),
        "get_stats": _("Statistics"),
        "list_tournaments": _("Listing tournaments"),
        "get_tournament": _("Following the tournament"),
        "quick_play": _("Quick play"),
        "enter_tournament": _("Entering the tournament"),
        "phrase": _("Quick phrase"),
    }
    return words.get(kind, kind)


def table_name_for(player: str, pattern: str) -> str:
    """`pattern` ("{name}'s table") filled in, the name shortened (with an ellipsis, so it
    reads as shortened) so the whole fits NAME_MAX."""
    room = max(2, NAME_MAX - len(pattern.format(name="")))
    name = player if len(player) <= room else player[: room - 1].rstrip() + "…"
    return pattern.format(name=name)[:NAME_MAX]


def round_note(msg: P.RoundScored, rules: RulesConfig, name: Callable[[int], str]) -> str:
    """What the engine decided about a round's end, said in words: golden goal stopped the
    game, a tie plays on, or someone shot the moon (protocol 1.4; nothing from an older
    server, which does not say)."""
    target = rules.target
    if msg.stopped:
        return _("golden goal: {target} reached mid-round, the game stops").format(target=target)
    if msg.tie:
        if rules.partnership == "combined":
            text = _("{target} reached, but the teams are tied: play goes on")
        elif rules.partnership == "individual_bust":
            text = _("{target} passed, but the highest totals are tied: play goes on")
        else:
            text = _("{target} reached, but the lowest totals are tied: play goes on")
        return text.format(target=target)
    if msg.moon is not None:
        return _("{name} shot the moon!").format(name=name(msg.moon))
    return ""
