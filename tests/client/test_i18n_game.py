"""A whole game played by keys in Italian and in Arabic (bidi on): the end screen is in the
language, with nothing English on it but names and key names."""

from __future__ import annotations

import asyncio
import re

import pytest
from helpers.tui import (
    WAIT,
    aio,
    play_args,
    play_whole_game,
    reactor_test,
    started,
    until,
)

from leekha.client import i18n, rtl
from leekha.client.tui import play
from leekha.client.tui.layout import render_text

#: What may stay Latin on an Arabic screen: names, the game's name and key names.
LATIN_OK = {"random", "bot", "tester", "Leekha", "Esc", "Enter", "space"}
#: English interface words that an Italian screen must not show.
ENGLISH = ("pts", "game over", "winner", "loser", "rematch", "leave", "quit", "help", "you")


async def finished_game_screen() -> str:
    args = play_args("--rule", "target=10", "--trick-hold", "0")
    async with started(play.play_main, args) as (client, inp, task):
        await until(client, lambda: client.table_drawn_at is not None, "table drawn")
        await play_whole_game(client, inp)
        screen = render_text(client.model)
        inp.send_text("qq")
        assert await asyncio.wait_for(task, WAIT) == 0
    return screen


@pytest.mark.parametrize("lang", ["it", "ar"])
@reactor_test
async def test_a_whole_game_in_the_language(lang: str) -> None:
    i18n.set_language(lang)
    rtl.set_enabled(lang == "ar")
    try:
        screen = await aio(finished_game_screen())
    finally:
        i18n.set_language("en")
        rtl.set_enabled(False)
    assert "┌" in screen  # the game-over box
    if lang == "ar":
        assert set(re.findall("[A-Za-z]{3,}", screen)) <= LATIN_OK, screen
    else:
        assert "partita finita" in screen
        words = [w for w in ENGLISH if re.search(rf"\b{w}\b", screen)]
        assert words == [], screen


def test_every_request_has_its_own_refusal_line_agreeing_in_each_language() -> None:
    """A refusal is one sentence per request type, not "{what} refused" with a noun put
    in: Italian's "refused" agrees with the noun ("Giocata rifiutata", "Avvio rifiutato")."""
    from leekha.client.tui.words import REFUSED, refused
    from leekha.protocol import message

    session = {"hello", "ping", "pong", "prove", "resume"}  # the link's, never a screen's
    assert sorted(message.CLIENT_TYPES - session - set(REFUSED)) == []
    try:
        i18n.set_language("it")
        assert refused("play_card", "x") == "Giocata rifiutata: x"
        assert refused("start", "x") == "Avvio rifiutato: x"
        assert refused("get_stats", "x") == "Statistiche rifiutate: x"
    finally:
        i18n.set_language("en")
    assert refused("play_card", "x") == "Play refused: x"
    assert refused("nosuch", "x") == "Request nosuch refused: x"
