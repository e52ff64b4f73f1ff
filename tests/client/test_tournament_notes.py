"""A tournament's notes cross the wire as codes with facts (1.4) beside the English older
clients read, and the client words them in its language with plural forms; the preset is
worded too. The server's notes and the client's words come from two tables a test keeps
in step."""

from __future__ import annotations

from typing import Any

import pytest
from helpers.server import Harness
from helpers.tournaments import _create, _hello, _tournament

from leekha.client import i18n
from leekha.client.tournament import text
from leekha.protocol.notices import TOURNAMENT_NOTES, note_english

V14 = [[1, 4]]


def test_every_note_code_is_worded_by_the_client() -> None:
    assert set(text.NOTES) | {"fallback_moves"} == set(TOURNAMENT_NOTES)


def test_the_english_counts_one_move_as_one_move() -> None:
    args: dict[str, Any] = {"game": 2, "moves": 1, "name": "ann"}
    assert note_english("fallback_moves", args) == "game 2: the fallback made 1 move for ann"
    args["moves"] = 14
    assert note_english("fallback_moves", args) == "game 2: the fallback made 14 moves for ann"


def test_the_server_sends_each_note_as_a_code_beside_its_english() -> None:
    h = Harness(ping_interval_s=3600.0, bot_think_ms=0)
    host = _hello(h, "host", V14)
    t = _tournament(h, _create(host, entrants=[{"name": "ann"}] + [{"strategy": "random"}] * 3,
                               starts_in_s=30))  # fmt: skip
    t.note("fallback_moves", game=2, moves=1, name="ann")
    state = h.lobby.tournaments.state(t).tournament
    assert state["notes"] == ["the games begin in 30 s", "game 2: the fallback made 1 move for ann"]
    assert state["note_codes"] == [
        {"code": "begins_in", "args": {"seconds": 30}},
        {"code": "fallback_moves", "args": {"game": 2, "moves": 1, "name": "ann"}},
    ]


@pytest.mark.parametrize(
    ("lang", "moves", "words"),
    [
        ("en", 1, "game 2: the fallback made 1 move for ann"),
        ("en", 14, "game 2: the fallback made 14 moves for ann"),
        ("it", 1, "partita 2: il bot di riserva ha fatto 1 mossa per ann"),
        ("it", 14, "partita 2: il bot di riserva ha fatto 14 mosse per ann"),
        ("ar", 2, "المباراة 2: لعب الروبوت البديل حركتين (2) عن ann"),
        ("ar", 14, "المباراة 2: لعب الروبوت البديل 14 حركة عن ann"),
    ],
)
def test_the_client_words_the_notes_in_its_language(lang: str, moves: int, words: str) -> None:
    t: Any = {
        "notes": ["english from the server", "an old server's note"],
        "note_codes": [
            {"code": "fallback_moves", "args": {"game": 2, "moves": moves, "name": "ann"}},
            {"code": "a_newer_code", "args": {}},
        ],
    }
    try:
        i18n.set_language(lang)
        assert text.note_lines(t) == [words, "an old server's note"]
    finally:
        i18n.set_language("en")


def test_without_codes_the_servers_english_is_shown_and_the_preset_is_worded() -> None:
    t: Any = {"notes": ["game 3 began"], "format": "round_robin", "preset": "levant",
              "deals": 2, "stages": None}  # fmt: skip
    assert text.note_lines(t) == ["game 3 began"]
    try:
        i18n.set_language("it")
        assert text.about(t) == "girone all'italiana, regole levantina, 2 smazzate"
    finally:
        i18n.set_language("en")
    assert "Levant" in text.about(t)
