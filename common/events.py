"""What just happened in a game, as typed facts returned by `Game.apply`.

The engine is the one source of these facts: the server maps them to wire messages, the
clients fold them into views and the replay viewer steps through them, and none of those
re-derives a trick winner, the points or the end of the game from a before/after diff.

Hands and passed cards are private. An event that holds them (`Dealt`, `PassesExchanged`)
holds all four seats' cards and offers per-seat access; whoever turns it into messages must
send each seat only its own part. Card sets are 52-bit masks, the engine's currency, with
card-list accessors for the wire.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from leekha.common.cards import cards_of
from leekha.common.outcome import Outcome


class SeatStats(TypedDict):
    """One seat's figures of a game (`Tally.to_list`, protocol 1.4 `SeatStats`)."""

    tricks: int
    leekhas: int
    moons: int
    rounds: list[int]


@dataclass(frozen=True, slots=True)
class Dealt:
    """A new round was dealt: its number, dealer, each seat's 13 cards and pass target."""

    round: int
    dealer: int
    hands: tuple[int, ...]
    pass_to: tuple[int, ...]

    def hand(self, seat: int) -> list[int]:
        """`seat`'s own cards; never send another seat's."""
        return cards_of(self.hands[seat])


@dataclass(frozen=True, slots=True)
class Passed:
    """`seat` committed its pass; which cards stays private until the exchange."""

    seat: int


@dataclass(frozen=True, slots=True)
class PassesExchanged:
    """Every seat had passed, so all passes changed hands at once and play begins.

    `received[s]` is the mask seat s got and `senders[s]` the seat it came from.
    """

    received: tuple[int, ...]
    senders: tuple[int, ...]
    leader: int

    def for_seat(self, seat: int) -> tuple[list[int], int]:
        """(cards received, from which seat) for `seat` alone."""
        return cards_of(self.received[seat]), self.senders[seat]


@dataclass(frozen=True, slots=True)
class Doubled:
    """`seat` revealed a Leekha card, so whoever takes it scores it twice."""

    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class CardPlayed:
    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class TrickTaken:
    """A trick was completed and taken.

    `number` counts tricks in the round from 0; `points` includes doubling; `leekha` and
    `doubled` are the Leekha cards in the trick and those of them that were doubled.
    """

    number: int
    leader: int
    winner: int
    cards: tuple[tuple[int, int], ...]
    points: int
    leekha: tuple[int, ...]
    doubled: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RoundScored:
    """A round was scored and added to the totals.

    `points` is what each seat scored this round, the moon penalty included; `moon` the seat
    that took every penalty card, if one did. `taken[s]` is the mask of penalty cards seat s
    took and `doubled` the (card, seat that doubled it) pairs. `stopped` is true when the
    golden-goal rule ended the round before its 13th trick; `tie` when the target was reached
    but a tie for the win makes play go on.
    """

    round: int
    points: tuple[int, ...]
    totals: tuple[int, ...]
    taken: tuple[int, ...]
    doubled: tuple[tuple[int, int], ...]
    moon: int | None
    stopped: bool
    tie: bool

    def taken_cards(self) -> list[list[int]]:
        return [cards_of(t) for t in self.taken]


@dataclass(frozen=True, slots=True)
class GameOver:
    """The game ended. `stats` is every seat's `Tally.to_list()` entry for the whole game,
    the last round included (`Game.apply` fills it in; empty when built by hand)."""

    outcome: Outcome
    stats: tuple[SeatStats, ...] = ()


Event = (
    Dealt | Passed | PassesExchanged | Doubled | CardPlayed | TrickTaken | RoundScored | GameOver
)
