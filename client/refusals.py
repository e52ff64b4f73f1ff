"""The player's words for every error code the server or the engine can send.

The server speaks English on the wire, as a stable code plus a text (docs/protocol.md,
"Error codes"), and since 1.4 the rule behind the refusal with its facts; the client words
the rule (client/systemlines) or else the code in the interface language, so a refusal
reads the same in any language. A code this table does not know (a newer server) falls
back to the server's own text.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from leekha.client import systemlines
from leekha.client.i18n import N_, _

#: code -> what to tell the player. Every code of `leekha.protocol.errors` and
#: `leekha.common.errors` is here (a test checks it).
MESSAGES: dict[str, str] = {
    # the wire itself
    "bad_frame": N_("the connection sent something that is not a message"),
    "frame_too_large": N_("a message was too large for the server"),
    "bad_msgpack": N_("a message could not be read"),
    "unknown_type": N_("the server does not know that request"),
    "missing_field": N_("a request was missing a field"),
    "bad_field": N_("a request had a wrong value"),
    "version_mismatch": N_("this client and the server speak no common protocol version"),
    "not_hello_first": N_("the connection did not start with a greeting"),
    # the rules (the engine)
    "not_your_turn": N_("it is not your turn"),
    "not_in_hand": N_("that card is not in your hand"),
    "must_follow_suit": N_("you must follow the suit that was led"),
    "must_play_leekha": N_("you cannot follow suit: you must play a Leekha card"),
    "must_play_forced": N_("the rules force a particular card (talbees or undercut)"),
    "bad_pass": N_("a pass is exactly 3 different cards from your hand"),
    "pass_last_of_suit": N_("you may not pass the last card of a suit"),
    "already_passed": N_("your pass is already in"),
    "cannot_double": N_("that card cannot be doubled now"),
    "wrong_phase": N_("that does not fit this moment of the game"),
    "game_over": N_("the game is over"),
    "bad_seat": N_("there is no such seat"),
    "bad_card": N_("there is no such card"),
    "bad_action": N_("that move is not understood"),
    "bad_record": N_("the game record does not replay"),
    # the lobby and the session
    "bad_token": N_("the old session has expired"),
    "no_such_table": N_("that table is gone"),
    "seat_taken": N_("that seat is taken"),
    "table_full": N_("the table is full (you can watch)"),
    "bad_password": N_("wrong password"),
    "not_host": N_("only the table's host can do that"),
    "not_seated": N_("you are not at a table"),
    "already_seated": N_("you are already at a table"),
    "not_ready": N_("not yet: all four seats must be filled, or the game finished"),
    "rate_limited": N_("too fast: wait a moment and try again"),
    "muted": N_("you are muted for a while: you sent too many messages"),
    "bad_phrase": N_("the server does not know that quick phrase"),
    "too_many_tables": N_("the server has no room for another table"),
    "chat_too_long": N_("that message is too long"),
    "name_too_long": N_("that name is too long"),
    "bad_name": N_("that name cannot be used (empty, taken, or with forbidden characters)"),
    "name_claimed": N_("that name belongs to a player with a key on this server: pick another"),
    "bad_key": N_("the server cannot use this identity key"),
    "bad_signature": N_("the server could not confirm this identity"),
    "bad_tournament": N_("the server cannot run that tournament"),
    "too_many_tournaments": N_("the server already runs as many tournaments as it may"),
    "no_such_tournament": N_("that tournament does not exist"),
    "not_an_entrant": N_("your name is not an entrant of that tournament"),
    "already_entered": N_("another connection has entered under that name"),
    "tournament_over": N_("that tournament has finished"),
    "not_your_tournament": N_(
        "only the tournament's creator or the server's operator may cancel it"
    ),
    "bad_rules": N_("those rules are not valid"),
    "no_such_bot": N_("no such bot"),
    "internal": N_("the server hit a problem; try again"),
    "already_welcomed": N_("this connection already has a session"),
    "server_full": N_("the server is full; try again later"),
    "hello_timeout": N_("the server stopped waiting for this client"),
    "session_replaced": N_("your session was taken over by another connection"),
    "server_shutdown": N_("the server is shutting down; your seat is kept"),
}


def explain(
    code: str,
    text: str = "",
    rule: str | None = None,
    args: Mapping[str, Any] | None = None,
    card: Callable[[int], str] | None = None,
) -> str:
    """What to show for an `error` with this code: its rule worded from its facts when
    the server named one (1.4, more precise than the code), else the code's words, else
    the server's own text."""
    said = systemlines.rule(rule, args or {}, card)
    if said is not None:
        return said
    message = MESSAGES.get(code)
    if message is None:
        return text or code
    return _(message)
