"""Cards as ints and hands as 52-bit masks, so the hot paths are integer arithmetic.

card = suit * 13 + rank, rank 0..12 is 2..A, suits are clubs, diamonds, hearts, spades.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from leekha.common.errors import CardError

CLUBS: Final = 0
DIAMONDS: Final = 1
HEARTS: Final = 2
SPADES: Final = 3

SUIT_LETTERS: Final = "CDHS"
SUIT_SYMBOLS: Final = "♣♦♥♠"
SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")
RANK_TEXT: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")

FULL_DECK: Final = (1 << 52) - 1
SUIT_MASK: Final = tuple(0x1FFF << (13 * s) for s in range(4))


def card(suit: int, rank: int) -> int:
    return suit * 13 + rank


def suit_of(c: int) -> int:
    return c // 13


QUEEN_SPADES: Final = card(SPADES, 10)
TEN_DIAMONDS: Final = card(DIAMONDS, 8)
KING_CLUBS: Final = card(CLUBS, 11)
HEARTS_MASK: Final = SUIT_MASK[HEARTS]

# Precomputed per-card tables keep the move generator free of arithmetic on the hot path.
SUIT_OF: Final = tuple(c // 13 for c in range(52))
BIT: Final = tuple(1 << c for c in range(52))
# Every card of the same suit ranked strictly below / above card c.
BELOW: Final = tuple(SUIT_MASK[c // 13] & ((1 << c) - 1) for c in range(52))
ABOVE: Final = tuple(SUIT_MASK[c // 13] & ~((1 << (c + 1)) - 1) for c in range(52))


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


class _SuitCards(dict[int, tuple[int, ...]]):
    """The cards of one suit for each 13-bit pattern, filled in as patterns are met (at
    most 8,192 a suit): a hand becomes four look-ups instead of a loop over its cards."""

    __slots__ = ("base",)

    def __init__(self, suit: int) -> None:
        super().__init__()
        self.base = 13 * suit

    def __missing__(self, bits: int) -> tuple[int, ...]:
        found = tuple(self.base + r for r in range(13) if bits >> r & 1)
        self[bits] = found
        return found


_CLUBS, _DIAMONDS, _HEARTS, _SPADES = (_SuitCards(s) for s in range(4))


def cards_of(mask: int) -> list[int]:
    """Cards of a mask in ascending order."""
    if mask & (mask - 1) and 0 < mask <= FULL_DECK:
        return [
            *_CLUBS[mask & 0x1FFF],
            *_DIAMONDS[mask >> 13 & 0x1FFF],
            *_HEARTS[mask >> 26 & 0x1FFF],
            *_SPADES[mask >> 39],
        ]
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


_RANK_PARSE: Final = {text: i for i, text in enumerate(RANK_TEXT)} | {"T": 8, "1": -1}
_SUIT_PARSE: Final = (
    {ch: i for i, ch in enumerate(SUIT_LETTERS)}
    | {ch: i for i, ch in enumerate(SUIT_SYMBOLS)}
    | {"♤": SPADES, "♡": HEARTS, "♢": DIAMONDS, "♧": CLUBS}
)


def parse_card(text: str) -> int:
    """Read "QS", "10D", "TD", "Q♠", "10♦" (any case, surrounding blanks ignored)."""
    if not isinstance(text, str):
        raise CardError(f"card text must be a string, got {type(text).__name__}")
    t = text.strip().upper()
    if len(t) < 2:
        raise CardError(f"not a card: {text!r} (expected rank then suit, like 'QS' or '10♦')")
    suit = _SUIT_PARSE.get(t[-1])
    rank = _RANK_PARSE.get(t[:-1], -1)
    if suit is None:
        raise CardError(f"not a card: {text!r}: unknown suit {t[-1]!r} (use C D H S or ♣ ♦ ♥ ♠)")
    if rank < 0:
        raise CardError(f"not a card: {text!r}: unknown rank {t[:-1]!r} (use 2-10, J, Q, K, A)")
    return card(suit, rank)


def parse_cards(text: str) -> list[int]:
    """Read a blank- or comma-separated list of cards."""
    return [parse_card(p) for p in text.replace(",", " ").split()]


def format_card(c: int, *, ascii: bool = False) -> str:
    if not isinstance(c, int) or not 0 <= c < 52:
        raise CardError(f"not a card number: {c!r} (expected 0..51)")
    suits = SUIT_LETTERS if ascii else SUIT_SYMBOLS
    return RANK_TEXT[c % 13] + suits[c // 13]


def format_cards(cards: Iterable[int], *, ascii: bool = False) -> str:
    return " ".join(format_card(c, ascii=ascii) for c in cards)


def check_card(c: object) -> int:
    if not isinstance(c, int) or isinstance(c, bool) or not 0 <= c < 52:
        raise CardError(f"not a card number: {c!r} (expected an int 0..51)")
    return c


def display_order(cards: Iterable[int]) -> list[int]:
    """Sort for showing a hand: spades, hearts, clubs, diamonds alternating colours, high first."""
    order = {SPADES: 0, HEARTS: 1, CLUBS: 2, DIAMONDS: 3}
    return sorted(cards, key=lambda c: (order[c // 13], -(c % 13)))
