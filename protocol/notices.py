"""(1.4) The server's notices and the finer reasons of its refusals, each a stable code.

A notice is a `chat_message` from `*` (someone dropped, a bot took a seat, a timer played
for you) and a refusal an `error`; both name what happened with a code and its arguments,
and the English sentence here is only the `text` kept for clients older than 1.4. A client
words the code in its own language from the arguments and never reads the sentence, so
each code's arguments are part of the protocol (docs/protocol.md, "Notices and refusals").
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["NOTICES", "RULES", "TOURNAMENT_NOTES", "english", "note_english"]

#: Notice code -> the English sentence (arguments in braces). Cards are card ints on the
#: wire; the sentence shows them as text.
NOTICES: dict[str, str] = {
    "left_bot": "{name} left the table; a bot plays the seat",
    "left": "{name} left the table",
    "dropped": "{name} dropped; the seat waits {grace} s for them to come back",
    "back_from_bot": "{name} is back and takes the seat back from the bot",
    "back": "{name} is back",
    "away_bot": "{name} is still away: a bot plays the seat until they come back",
    "timeouts_bot": "{name} let the clock run out {count} times: a bot plays the seat "
    "until they act",
    "took_back": "{name} takes the seat back from the bot",
    "timeout_passed": "Time ran out: the server passed {cards} for you",
    "timeout_played": "Time ran out: the server played {card} for you",
    "muted": "{name} is muted for {seconds} s: too many messages",
    "quick_wait": "Quick play: you take a bot's seat when this round ends",
    "quick_seat": "{name} takes over a bot's seat",
    "quick_moved": "The game you waited in ended: quick play seats you at {table}",
    "tournament_away": "{name} is not here: the fallback bot plays this game for them",
    "tournament_due": "Your game {game} of tournament {name} is due: leave this table "
    "within {grace} s to play it, or the fallback bot plays it for you",
}

#: An `error`'s `rule` -> the English sentence. The engine's rules (a refused card or
#: pass), why the table cannot start (`not_ready`) and what is wrong with the rules
#: (`bad_rules`).
RULES: dict[str, str] = {
    # the engine (leekha.common.legality): a refused card or pass
    "follow_suit": "you must follow {suit}; legal: {legal}",
    "talbees": "talbees: {card} must go now a higher card of its suit is down",
    "undercut": "undercut: play under the Leekha card; legal: {legal}",
    "void_rule": "void in {suit}: play {legal}",
    "pass_ban": "cannot pass {card}: it would empty your {suit}",
    # not_ready (server/domain/lifecycle.py)
    "seats_empty": "seat {seats} is empty: someone must sit there or the host adds a bot",
    "game_running": "the game is already running",
    "game_still_running": "the game is still running",
    "no_game_yet": "no game has finished here yet; the host starts the first one",
    "bots_in_game": "bots cannot be removed during a game",
    "tournament_one_game": "a tournament table plays one game",
    "wrong_state": "cannot {event} while {status}",
    # too_many_tournaments (server/domain/tournament/requests.py)
    "tournaments_running": "the server's limit of tournaments running at once ({limit}) is reached",
    "tournaments_waiting": "the server's limit of tournaments waiting to start ({limit}) is "
    "reached",
    "tournaments_yours": "your limit of tournaments not yet finished ({limit}) is reached: "
    "{ids}; cancel one or wait",
    # bad_rules (leekha.common.config)
    "rules_bool": "rules option {option} must be true or false; got {got}",
    "rules_int": "rules option {option} must be an integer from {lo} to {hi}; got {got}",
    "rules_choice": "rules option {option} must be one of {allowed}; got {got}",
    "rules_unknown": "rules option {option} must be a known option: {allowed}; got {got}",
    "rules_map": "rules option {option} must be a map of option names to values; got {got}",
}


#: (1.4) A tournament's note code -> the English sentence (`Tournament.note_codes`). Games
#: and stages are counted from 1 here, as a person reads them.
TOURNAMENT_NOTES: dict[str, str] = {
    "begins_in": "the games begin in {seconds} s",
    "waiting_entrants": "waiting for the client entrants to enter",
    "entered": "{name} entered",
    "all_here": "every client entrant is here: the games begin",
    "queued": "the server runs as many tournaments as it may: it begins when one ends",
    "start_time": "the start time has come: the games begin",
    "not_entered": "{names} did not enter in time: the fallback plays for them",
    "away": "game {game}: {name} is away; the fallback plays for it",
    "stage_drawn": "stage {stage} of {stages} drawn",
    "cancelled": "cancelled by {name}",
    "finished": "the tournament has finished",
    "fallback_moves": "game {game}: the fallback made {moves} moves for {name}",
    "replayed": "game {game} lost its table; it is played again",
}
#: The English of a note whose count is 1, where it differs.
_ONE: dict[str, str] = {
    "fallback_moves": "game {game}: the fallback made 1 move for {name}",
}


def note_english(code: str, args: Mapping[str, object]) -> str:
    """A tournament note's English sentence (the `notes` older clients read)."""
    template = _ONE.get(code) if args.get("moves") == 1 else None
    return english(template or TOURNAMENT_NOTES[code], args)


def english(template: str, args: Mapping[str, object]) -> str:
    """The English sentence of a notice or rule, lists joined with commas (cards the
    caller has already turned into text)."""
    shown = {k: ", ".join(map(str, v)) if isinstance(v, list) else v for k, v in args.items()}
    return template.format(**shown)
