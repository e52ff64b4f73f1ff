"""Cards as a player names them, in the interface language.

The compact labels (Q♠, 10♦, ascii QS) stay the indices printed on the cards themselves,
which Levantine and Italian decks share with English ones; the words for suits and ranks
follow the language (Arabic players say بنت البستوني for the Q♠). The engine's text form in
`leekha.common.cards` is the wire and record format and never changes with the language.
"""

from __future__ import annotations

from collections.abc import Iterable

from leekha.client.i18n import N_, _
from leekha.common import cards as C

SUIT_NAMES = (N_("clubs"), N_("diamonds"), N_("hearts"), N_("spades"))
RANK_NAMES = (
    N_("two"),
    N_("three"),
    N_("four"),
    N_("five"),
    N_("six"),
    N_("seven"),
    N_("eight"),
    N_("nine"),
    N_("ten"),
    N_("jack"),
    N_("queen"),
    N_("king"),
    N_("ace"),
)


def suit_name(suit: int) -> str:
    """The suit as a noun ("spades", "البستوني", "picche")."""
    return _(SUIT_NAMES[suit])


def rank_name(rank: int) -> str:
    return _(RANK_NAMES[rank])


def card_name(card: int) -> str:
    """The card in words ("queen of spades", "بنت البستوني", "regina di picche")."""
    # TRANSLATORS: a card in words, e.g. "queen of spades"; {rank} and {suit} are names
    # from this catalogue.
    return _("{rank} of {suit}").format(rank=rank_name(card % 13), suit=suit_name(card // 13))


def card_label(card: int, ascii: bool = False) -> str:
    """The short form drawn on a card face: Q♠ (QS with `ascii`)."""
    return C.format_card(card, ascii=ascii)


def cards_label(cards: Iterable[int], ascii: bool = False) -> str:
    return " ".join(card_label(c, ascii) for c in cards)
