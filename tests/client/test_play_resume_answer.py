"""The question `leekha play` asks before its screen opens, "Resume the game in round N?
(Y/n)": a no forgets the unfinished game for good, so only a no may say no. A newcomer who
types a card's letter before the screen is up (the question sits where the table will be)
is asked again, not robbed of the game. No process: `input` is replaced."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from leekha.client import i18n
from leekha.client.tui.play import ask_resume


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    yield
    i18n.set_language("en")


def _answers(monkeypatch: pytest.MonkeyPatch, *typed: str) -> list[str]:
    """Feed `typed` to `input`, one line a call; the prompts it was shown, in order.
    Running out of lines is Ctrl-D (EOFError), as at a terminal."""
    left = list(typed)
    asked: list[str] = []

    def fake_input(prompt: str = "") -> str:
        asked.append(prompt)
        if not left:
            raise EOFError
        return left.pop(0)

    monkeypatch.setattr("builtins.input", fake_input)
    return asked


@pytest.mark.parametrize("typed", ["", "y", "Yes", " Y "])
def test_enter_or_yes_resumes(monkeypatch: pytest.MonkeyPatch, typed: str) -> None:
    asked = _answers(monkeypatch, typed)
    assert ask_resume(3) is True
    assert asked == ["Resume the game in round 3? (Y/n) "]


@pytest.mark.parametrize("typed", ["n", "No", " N "])
def test_no_starts_a_new_game(monkeypatch: pytest.MonkeyPatch, typed: str) -> None:
    asked = _answers(monkeypatch, typed)
    assert ask_resume(3) is False
    assert len(asked) == 1


def test_anything_else_asks_again_instead_of_forgetting_the_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # "abc": three cards chosen for the pass before the table was on the screen
    asked = _answers(monkeypatch, "abc", "q", "y")
    assert ask_resume(1) is True
    assert asked == ["Resume the game in round 1? (Y/n) "] * 3


def test_the_translated_no_is_understood(monkeypatch: pytest.MonkeyPatch) -> None:
    i18n.set_language("it")
    _answers(monkeypatch, "no")
    assert ask_resume(2) is False
    i18n.set_language("ar")
    _answers(monkeypatch, "لا")
    assert ask_resume(2) is False
    _answers(monkeypatch, "نعم")
    assert ask_resume(2) is True
