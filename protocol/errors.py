"""The one exception type of the wire layer, and the catalogue of error codes.

Codes are stable strings that travel in `error` messages, so a client written in any
language can branch on them. Descriptions here feed docs/protocol.md, which keeps the
document and the code from drifting apart.
"""

from __future__ import annotations

__all__ = [
    "APPLICATION_ERRORS",
    "ENGINE_ERRORS",
    "PROTOCOL_ERRORS",
    "ProtocolError",
]


class ProtocolError(Exception):
    """Anything wrong with bytes or messages on the wire.

    `re` is the offending request's `id` when it could be read, so the server can echo it in
    its `error` reply before closing.
    """

    def __init__(self, code: str, message: str, re: int | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.re = re


#: Raised by this package. After any of them the connection is unusable: the receiver sends
#: `error` (if it still can) and closes.
PROTOCOL_ERRORS: dict[str, str] = {
    "bad_frame": "The frame is malformed: zero length, bytes left over after the msgpack "
    "value, or the value is not a map.",
    "frame_too_large": "The length header exceeds the receiver's frame limit (default 65536).",
    "bad_msgpack": "The body is not valid msgpack (or is cut short by the frame end), uses "
    "a forbidden type (bin, ext), exceeds a container/string limit, nests too deeply, "
    "has a non-string or duplicate map key, or holds invalid UTF-8.",
    "unknown_type": "The `type` is not a known message type, is not allowed in this "
    "direction (e.g. a client sending `welcome`), or not at this point of the session "
    "(e.g. `prove` after the `welcome`).",
    "missing_field": "A required field is absent.",
    "bad_field": "A field has the wrong type or is out of range; the message names the field.",
    "version_mismatch": "`hello`/`resume` offered no protocol version the server speaks.",
    "not_hello_first": "The first message on a connection was not `hello` or `resume`.",
}

#: Rule violations reported by the engine (leekha.common.errors.RuleError), forwarded
#: verbatim by the server in reply to pass_cards / declare_double / play_card.
ENGINE_ERRORS: dict[str, str] = {
    "not_your_turn": "It is another seat's turn.",
    "not_in_hand": "The card is not in your hand.",
    "must_follow_suit": "You hold the led suit and must follow it.",
    "must_play_leekha": "The void rule forces you to play a Leekha card.",
    "must_play_forced": "Talbees/undercut forces a particular card.",
    "bad_pass": "A pass must be exactly 3 distinct cards from your hand.",
    "pass_last_of_suit": "The pass ban forbids passing the last card of a suit.",
    "already_passed": "You already committed your pass this round.",
    "cannot_double": "Doubling is off, the card is not doublable, or you already passed.",
    "wrong_phase": "The action does not fit the current phase.",
    "game_over": "The game has ended.",
    "bad_seat": "No such seat.",
    "bad_card": "No such card.",
}

#: Lobby and session failures the server reports. The connection stays open after these.
APPLICATION_ERRORS: dict[str, str] = {
    "bad_token": "`resume` named an unknown or expired session token. The connection stays "
    "in the handshake state; send `hello` to start a fresh session.",
    "no_such_table": "No table has that id.",
    "seat_taken": "The requested seat is occupied.",
    "table_full": "All four seats are taken (join as a spectator instead).",
    "bad_password": "The table's password does not match.",
    "not_host": "Only the table's host may do this (add_bot, remove_bot, start).",
    "not_seated": "The request needs you to be seated at a table.",
    "already_seated": "You are already at a table; `leave` first.",
    "not_ready": "`start` needs four occupied seats; `rematch` needs a finished game.",
    "rate_limited": "Too many requests; it had no effect: wait a moment, then send it again.",
    "too_many_tables": "The server's table limit is reached.",
    "chat_too_long": "Chat text exceeds the server's limit.",
    "name_too_long": "Name exceeds the server's limit.",
    "bad_name": "Name is empty, already in use, or has forbidden characters.",
    "name_claimed": "(1.2) The name belongs to a player with a key, and this `hello` did not "
    "carry that key: choose another name (or connect with that player's identity).",
    "bad_key": "(1.2) The `key` of `hello` is not an `ed25519:<base64>` key of 32 bytes (a "
    "key of an unknown type is refused): send `hello` again without it or with a good one.",
    "bad_signature": "(1.2) The `prove` signature does not verify for this connection's "
    "challenge; send `hello` again.",
    "bad_rules": "Unknown preset or an invalid override (message names the option).",
    "no_such_bot": "Unknown bot strategy, or no bot in that seat.",
    "bad_tournament": "(1.3) `create_tournament` asked for something the server cannot run "
    "(format, entrant count, a bad entrant, deals, stages, timer, too many games); the "
    "message says what, in words.",
    "too_many_tournaments": "(1.3) The server's limit of tournaments not yet finished is "
    "reached: of those running at once, of those waiting to start, or (1.4) of those one "
    "address or one name created; the message says which.",
    "not_your_tournament": "(1.4) `cancel_tournament`: only the tournament's creator or the "
    "server's operator may cancel it.",
    "no_such_tournament": "(1.3) No tournament has that id.",
    "not_an_entrant": "(1.3) `enter_tournament`: your session's name is not a client "
    "entrant of that tournament.",
    "already_entered": "(1.3) `enter_tournament`: another session that is still connected "
    "entered that name.",
    "tournament_over": "(1.3) `enter_tournament`: the tournament has finished.",
    "bad_phrase": "(1.4) `phrase`: the server has no quick phrase with that code.",
    "muted": "(1.4) `chat` or `phrase` from a session that flooded: nobody hears it until "
    "the mute ends (the message says how long).",
    "internal": "The server failed unexpectedly; the request had no effect.",
    "already_welcomed": "`hello`/`resume` on a connection that already has a session.",
    "server_full": "The server (or your address) has too many connections; sent once, then "
    "the server closes.",
    "hello_timeout": "No `hello`/`resume` arrived in time after connecting; sent once, then "
    "the server closes.",
    "session_replaced": "Your session was resumed on another connection; sent to the old "
    "connection, which the server then closes.",
    "server_shutdown": "The server is shutting down; sent to every connection, which the "
    "server then closes. Seats are kept: `resume` when it is back.",
}
