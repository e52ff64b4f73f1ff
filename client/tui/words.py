"""The terminal client's words for the server's facts: bot levels, what a refused request
was doing, a round's note, a new table's name.

Only wording lives here: each function takes what the server or the engine decided and
says it in the reader's language (client/i18n.py); none decides anything.
"""

from __future__ import annotations

from collections.abc import Callable

from leekha import protocol as P
from leekha.client.cardnames import suit_name
from leekha.client.i18n import N_, _
from leekha.common.config import RulesConfig

NAME_MAX = 24  # the server's default longest table name (ServerSettings.max_name_len)


def level_word(level: str) -> str:
    """A bot level as the player reads it."""
    words = {"easy": _("easy"), "medium": _("medium"), "hard": _("hard")}
    return words.get(level, level)


def bot_name(name: str, seat: int, level: str | None = None) -> str:
    """A bot seat's name in the reader's language. The server names the bots a host adds
    "{level} bot {seat}" (server/domain/tablepeople.py); that exact name is said again with the
    level translated, any other name (a bot client's own) is the name."""
    for word in (level,) if level else ("easy", "medium", "hard"):
        if name == server_bot_name(word, seat):
            return _("{level} bot {n}").format(level=level_word(word), n=seat)
    return name


def server_bot_name(level: str, seat: int) -> str:
    """The name the server gives a bot of `level` a host adds at `seat`."""
    return f"{level} bot {seat}"


def seconds(n: int) -> str:
    """A number of seconds, as the forms and the lobby show a timer."""
    # TRANSLATORS: seconds, abbreviated as a timer shows them ("30 s").
    return _("{n} s").format(n=n)


def suit_word(suit: int) -> str:
    return suit_name(suit)


#: The status line of a refused request, by its type: each a whole sentence, so that a
#: language can make "refused" agree with what was refused (Italian "Giocata rifiutata",
#: "Avvio rifiutato"), which one "{what} refused" for every noun could not.
REFUSED: dict[str, str] = {
    "create_table": N_("Creating the table refused: {words}"),
    "join_seat": N_("Joining refused: {words}"),
    "spectate": N_("Spectating refused: {words}"),
    "leave": N_("Leaving refused: {words}"),
    "add_bot": N_("Adding a bot refused: {words}"),
    "remove_bot": N_("Removing the bot refused: {words}"),
    "start": N_("Starting refused: {words}"),
    "rematch": N_("Rematch refused: {words}"),
    "pass_cards": N_("Pass refused: {words}"),
    "declare_double": N_("Doubling refused: {words}"),
    "play_card": N_("Play refused: {words}"),
    "chat": N_("Chat refused: {words}"),
    "list_tables": N_("Listing tables refused: {words}"),
    "get_stats": N_("Statistics refused: {words}"),
    "list_tournaments": N_("Listing tournaments refused: {words}"),
    "get_tournament": N_("Following the tournament refused: {words}"),
    "quick_play": N_("Quick play refused: {words}"),
    "enter_tournament": N_("Entering the tournament refused: {words}"),
    "phrase": N_("Quick phrase refused: {words}"),
    "get_profile": N_("Showing the profile refused: {words}"),
    "take_back": N_("Taking back refused: {words}"),
    "create_tournament": N_("Creating the tournament refused: {words}"),
    "cancel_tournament": N_("Cancelling the tournament refused: {words}"),
}


def refused(kind: str, words: str) -> str:
    """The status line for a refused request of type `kind`, the server's `words` in it."""
    line = REFUSED.get(kind)
    if line is None:  # a request type this client does not name: its wire name
        return _("Request {kind} refused: {words}").format(kind=kind, words=words)
    return _(line).format(words=words)


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
