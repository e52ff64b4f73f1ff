"""One exception type for every rule violation, with codes that never change.

Stable codes let the server forward an engine refusal to a client verbatim and let clients
in any language branch on the code rather than parse English.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

NOT_YOUR_TURN: Final = "not_your_turn"
NOT_IN_HAND: Final = "not_in_hand"
MUST_FOLLOW_SUIT: Final = "must_follow_suit"
MUST_PLAY_LEEKHA: Final = "must_play_leekha"
MUST_PLAY_FORCED: Final = "must_play_forced"
BAD_PASS: Final = "bad_pass"
PASS_LAST_OF_SUIT: Final = "pass_last_of_suit"
ALREADY_PASSED: Final = "already_passed"
CANNOT_DOUBLE: Final = "cannot_double"
WRONG_PHASE: Final = "wrong_phase"
GAME_OVER: Final = "game_over"
BAD_SEAT: Final = "bad_seat"
BAD_CARD: Final = "bad_card"
BAD_ACTION: Final = "bad_action"
BAD_RECORD: Final = "bad_record"


# Every code the engine raises, for clients that must have words for each (client/refusals).
CODES: Final = frozenset(
    {
        NOT_YOUR_TURN,
        NOT_IN_HAND,
        MUST_FOLLOW_SUIT,
        MUST_PLAY_LEEKHA,
        MUST_PLAY_FORCED,
        BAD_PASS,
        PASS_LAST_OF_SUIT,
        ALREADY_PASSED,
        CANNOT_DOUBLE,
        WRONG_PHASE,
        GAME_OVER,
        BAD_SEAT,
        BAD_CARD,
        BAD_ACTION,
        BAD_RECORD,
    }
)


#: The rule behind a refused card or pass (protocol 1.4 `error.rule`), finer than the
#: code: `must_play_forced` is talbees or undercut.
FOLLOW_SUIT: Final = "follow_suit"
TALBEES: Final = "talbees"
UNDERCUT: Final = "undercut"
VOID_RULE: Final = "void_rule"
PASS_BAN: Final = "pass_ban"


#: One fact a refusal or a notice is worded with: a count, a flag, a name or code, null,
#: or a list of them (seats, cards, option values). The wire's `args` carries these
#: (leekha.protocol.schema.ArgSpec checks them).
Fact = int | bool | str | None | Sequence[int | str]
#: The facts of one refusal or notice, by name.
Facts = dict[str, Fact]


class CodedError(Exception):
    """A refusal with a stable code: the engine's errors and the server's `Refused` alike.

    `rule` names the rule behind it when the code alone does not (talbees or undercut),
    and `facts` the facts a client words it with (cards and suits as ints), so a client in
    any language explains the refusal without working the rules out again.
    """

    def __init__(
        self,
        code: str,
        message: str,
        *,
        rule: str | None = None,
        args: Facts | None = None,
    ) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.rule = rule
        self.facts: Facts = dict(args or {})


class LeekhaError(CodedError):
    """Base of every error the engine raises on purpose."""


class RuleError(LeekhaError):
    """An action the rules forbid; the game state is left untouched."""


class CardError(RuleError, ValueError):
    """Card text that does not name a card."""

    def __init__(self, message: str) -> None:
        super().__init__(BAD_CARD, message)


class ConfigError(LeekhaError, ValueError):
    """A rules option with a value outside what that option allows."""

    def __init__(
        self,
        option: str,
        allowed: str,
        got: object,
        *,
        rule: str = "rules_choice",
        args: Facts | None = None,
    ) -> None:
        super().__init__(
            "bad_rules",
            f"rules option {option!r} must be {allowed}; got {got!r}",
            rule=rule,
            args={"option": option, "got": repr(got)[:60], **(args or {})},
        )
        self.option = option
        self.allowed = allowed
