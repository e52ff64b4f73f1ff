"""What a seat can do, as typed values: the one shape every path builds and checks.

The wire and the game records carry actions as plain maps (`{"kind": "play", "seat": 2,
"card": 36}`); those maps are untrusted, so `from_dict` is the single place that turns one
into an action, refusing a malformed one with the engine's stable error codes. Rule checks
(whose turn it is, what is in the hand) stay in `Game`: an action is well-formed, not legal.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar, Final, NotRequired, TypedDict

from leekha.common import errors as E
from leekha.common.cards import check_card
from leekha.common.errors import RuleError

PASS_COUNT: Final = 3
SEATS: Final = 4


class ActionMap(TypedDict):
    """An action as the wire and the game records carry it: a pass has `cards`, a double
    and a play have `card`."""

    kind: str
    seat: int
    card: NotRequired[int]
    cards: NotRequired[list[int]]


@dataclass(frozen=True, slots=True)
class Pass:
    """Three cards handed to the pass target; `cards` is kept sorted, as records store it."""

    seat: int
    cards: tuple[int, ...]

    def to_dict(self) -> ActionMap:
        return {"kind": "pass", "seat": self.seat, "cards": list(self.cards)}


@dataclass(frozen=True, slots=True)
class _OneCard:
    """An action on one card; its map is {kind, seat, card}."""

    KIND: ClassVar[str] = ""
    seat: int
    card: int

    def to_dict(self) -> ActionMap:
        return {"kind": self.KIND, "seat": self.seat, "card": self.card}


@dataclass(frozen=True, slots=True)
class Double(_OneCard):
    """A Leekha card revealed during the pass phase, so whoever takes it scores it twice."""

    KIND: ClassVar[str] = "double"


@dataclass(frozen=True, slots=True)
class Play(_OneCard):
    """One card onto the trick."""

    KIND: ClassVar[str] = "play"


Action = Pass | Double | Play


def from_dict(data: object) -> Action:
    """The action a wire or record map describes; raises RuleError when it is malformed.

    Keys other than kind, seat, card(s) are ignored: wire requests carry an id and a type.
    The seat is checked for being an int before the kind, as the engine always has, so a
    client sees the same code for the same garbage.
    """
    if not isinstance(data, Mapping):
        raise RuleError(E.BAD_ACTION, "an action is a map with a 'kind'")
    seat = data.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise RuleError(E.BAD_SEAT, f"action seat must be 0..3, got {seat!r}")
    kind = data.get("kind")
    if kind == "play":
        card = check_card(data.get("card"))
        return Play(check_seat(seat), card)
    if kind == "pass":
        return Pass(check_seat(seat), check_pass_cards(data.get("cards")))
    if kind == "double":
        return Double(check_seat(seat), check_card(data.get("card")))
    raise RuleError(E.BAD_ACTION, f"unknown action kind {kind!r} (pass, double, play)")


def check_seat(seat: object) -> int:
    """`seat` if it names a seat; the one statement of what a seat number is."""
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < SEATS:
        raise RuleError(E.BAD_SEAT, f"seat must be 0..3, got {seat!r}")
    return seat


def pass_mask(cards: object) -> int:
    """The mask of three different card numbers: the shape of a pass before any rule
    applies. Returns a mask, not a tuple, because legality checks it in a hot loop."""
    if not isinstance(cards, (list, tuple)) or len(cards) != PASS_COUNT:
        raise RuleError(E.BAD_PASS, f"a pass is exactly {PASS_COUNT} cards")
    mask = 0
    for c in cards:
        if type(c) is not int or not 0 <= c < 52:
            raise RuleError(E.BAD_CARD, f"not a card number: {c!r} (expected an int 0..51)")
        mask |= 1 << c
    if mask.bit_count() != PASS_COUNT:
        raise RuleError(E.BAD_PASS, "the three passed cards must be different")
    return mask


def check_pass_cards(cards: object) -> tuple[int, ...]:
    """The cards of a well-formed pass, sorted as records store them."""
    pass_mask(cards)
    return tuple(sorted(cards))  # type: ignore[call-overload]
