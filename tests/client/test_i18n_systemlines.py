"""The server's table lines are recognised and translated, and stay in step with the server."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from leekha.client import i18n, systemlines

SERVER = Path(__file__).resolve().parents[2] / "server"


def server_templates() -> set[str]:
    """Every line the server says at a table through `_system(f"...")`, holes as `{}`."""
    found = set()
    for path in SERVER.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "_system"
                and node.args
                and isinstance(node.args[0], ast.JoinedStr)
            ):
                found.add(
                    "".join(
                        str(v.value) if isinstance(v, ast.Constant) else "{}"
                        for v in node.args[0].values
                    )
                )
    return found


def test_every_server_line_has_a_template() -> None:
    ours = {re.sub(r"\{\w+\}", "{}", t) for t in systemlines.TEMPLATES}
    theirs = server_templates()
    assert theirs, "the server's _system lines were not found"
    assert sorted(theirs - ours) == []


@pytest.mark.parametrize(
    ("lang", "line", "shown"),
    [
        ("en", "Sami left the table", "Sami left the table"),
        (
            "it",
            "Sami left the table; a bot plays the seat",
            "Sami ha lasciato il tavolo; un bot gioca al suo posto",
        ),
        ("ar", "Sami is back", "عاد Sami"),
        (
            "it",
            "Time ran out: the server played 8♣ for you",
            "Tempo scaduto: il server ha giocato 8♣ per te",
        ),
        ("ar", "a line from a newer server", "a line from a newer server"),
    ],
)
def test_lines_are_said_in_the_language(lang: str, line: str, shown: str) -> None:
    try:
        i18n.set_language(lang)
        assert systemlines.translate(line) == shown
    finally:
        i18n.set_language("en")


def test_every_not_ready_reason_is_recognised() -> None:
    from leekha.server import lifecycle as L

    reasons = {
        L.refusal(status, event, empty)
        for status in L.STATES
        for event in ("start", "rematch", "game_over")
        for empty in ([], [1, 3])
    }
    reasons.discard(None)
    for path in SERVER.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", None) == "Refused"
                and len(node.args) == 2
                and isinstance(node.args[0], ast.Constant)
                and node.args[0].value == "not_ready"
                and isinstance(node.args[1], ast.Constant)
                and isinstance(node.args[1].value, str)
            ):
                reasons.add(node.args[1].value)
    # The generic "cannot EVENT while STATE" is for transitions no client can ask for.
    asked = {r for r in reasons if r is not None and not r.startswith("cannot ")}
    assert asked
    assert sorted(r for r in asked if systemlines.recognise(r) is None) == []


def test_a_refusal_with_known_words_keeps_its_detail() -> None:
    from leekha.client import refusals

    text = "seat 1, 3 is empty: someone must sit there or the host adds a bot"
    assert refusals.explain("not_ready", text) == text
    try:
        i18n.set_language("it")
        assert "1, 3" in refusals.explain("not_ready", text)
    finally:
        i18n.set_language("en")


def test_every_rules_error_is_recognised() -> None:
    from leekha.common.config import RulesConfig, preset
    from leekha.common.errors import ConfigError

    bad: list[object] = [
        {"talbees": "yes"},
        {"target": 0},
        {"void_rule": "never"},
        {"no_such_option": 1},
        ["not", "a", "map"],
    ]
    texts = []
    for data in bad:
        with pytest.raises(ConfigError) as exc:
            RulesConfig.from_dict(data)  # type: ignore[arg-type]
        texts.append(exc.value.message)
    with pytest.raises(ConfigError) as exc:
        preset("nope")
    texts.append(exc.value.message)
    assert [t for t in texts if systemlines.recognise(t) is None] == []
    try:
        i18n.set_language("it")
        shown = systemlines.translate(texts[1])
    finally:
        i18n.set_language("en")
    assert shown == "l'opzione delle regole 'target' deve essere un intero da 1 a 10000; ricevuto 0"
