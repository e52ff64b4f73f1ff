"""The server's notices and refusal rules are worded by code, in step with the protocol."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path
from typing import ClassVar

import pytest

from leekha.client import i18n, refusals, systemlines
from leekha.common.config import RulesConfig, preset
from leekha.common.errors import ConfigError
from leekha.protocol import notices

SERVER = Path(__file__).resolve().parents[2] / "server"


def _holes(template: str) -> set[str]:
    return {name for _t, name, _f, _c in string.Formatter().parse(template) if name}


def test_the_client_words_every_code_of_the_protocol() -> None:
    assert set(systemlines.NOTICES) == set(notices.NOTICES)
    assert set(systemlines.RULES) == set(notices.RULES)


def server_notice_codes() -> set[str]:
    """Every code the server passes to `notice(...)` / `_seat_notice(...)` as a literal."""
    found = set()
    for path in SERVER.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("notice", "_seat_notice")
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                found.add(str(node.args[0].value))
    return found


def test_every_notice_the_server_sends_is_in_the_protocol() -> None:
    codes = server_notice_codes()
    assert codes, "the server's notice(...) calls were not found"
    assert sorted(codes - set(notices.NOTICES)) == []


@pytest.mark.parametrize("code", sorted(systemlines.NOTICES))
def test_notice_words_use_only_facts_the_server_sends(code: str) -> None:
    # `known` is the client's name for the list of options a rules error allows
    assert _holes(systemlines.NOTICES[code]) <= _holes(notices.NOTICES[code]) | {"seat"}


@pytest.mark.parametrize(
    ("lang", "code", "args", "shown"),
    [
        ("en", "left", {"name": "Sami", "seat": 1}, "Sami left the table"),
        (
            "it",
            "left_bot",
            {"name": "Sami", "seat": 1},
            "Sami ha lasciato il tavolo; un bot gioca al suo posto",
        ),
        ("ar", "back", {"name": "Sami", "seat": 2}, "عاد Sami"),
        (
            "it",
            "timeout_played",
            {"card": 6},
            "Tempo scaduto: il server ha giocato 8♣ per te",
        ),
    ],
)
def test_notices_are_said_in_the_language(
    lang: str, code: str, args: dict[str, object], shown: str
) -> None:
    try:
        i18n.set_language(lang)
        assert systemlines.notice(code, args) == shown
    finally:
        i18n.set_language("en")


def test_an_unknown_code_shows_the_servers_text() -> None:
    class Line:
        code = "from_a_newer_server"
        args: ClassVar[dict[str, object]] = {}
        text = "a line from a newer server"

    assert systemlines.chat_line(Line()) == "a line from a newer server"
    Line.code = "left"  # a known code with facts missing: the text, not a crash
    assert systemlines.chat_line(Line()) == "a line from a newer server"


def test_not_ready_names_the_empty_seats_as_people_count_them() -> None:
    said = refusals.explain("not_ready", "x", "seats_empty", {"seats": [1, 3]})
    assert said.startswith("seats 2 and 4 are empty")
    assert refusals.explain("not_ready", "x", "seats_empty", {"seats": [0, 1, 3]}).startswith(
        "seats 1, 2 and 4 are empty"
    )
    assert refusals.explain("not_ready", "x", "seats_empty", {"seats": [2]}).startswith(
        "seat 3 is empty"
    )
    try:
        i18n.set_language("it")
        assert "2 e 4" in refusals.explain("not_ready", "x", "seats_empty", {"seats": [1, 3]})
    finally:
        i18n.set_language("en")


def test_every_rules_error_has_a_rule_the_client_words() -> None:
    bad: list[object] = [
        {"talbees": "yes"},
        {"target": 0},
        {"void_rule": "never"},
        {"no_such_option": 1},
        ["not", "a", "map"],
    ]
    errors = []
    for data in bad:
        with pytest.raises(ConfigError) as exc:
            RulesConfig.from_dict(data)  # type: ignore[arg-type]
        errors.append(exc.value)
    with pytest.raises(ConfigError) as exc:
        preset("nope")
    errors.append(exc.value)
    assert [e.rule for e in errors if systemlines.rule(e.rule, e.facts) is None] == []
    try:
        i18n.set_language("it")
        shown = systemlines.rule(errors[1].rule, errors[1].facts)
    finally:
        i18n.set_language("en")
    assert shown == "l'opzione delle regole 'target' deve essere un intero da 1 a 10000; ricevuto 0"


def test_no_regular_expression_reads_server_prose() -> None:
    source = (Path(systemlines.__file__)).read_text()
    assert "import re" not in source and not re.search(r"\bre\.\w+\(", source)
