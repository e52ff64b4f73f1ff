"""The page's JavaScript core speaks the Python client core's names (issue 36): a reader
of client/core/changes.py and intents.py knows client/web/core.js, and the other way
round. Computed from the files, so renaming either side alone fails here."""

from __future__ import annotations

import re
import typing
from pathlib import Path

from leekha.client.core import changes, intents

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "client" / "web"
CORE_JS = (WEB / "core.js").read_text(encoding="utf-8")
#: The core's users, which switch on its changes and name its intents.
USERS = [WEB / "app.js", WEB / "paint.js", WEB / "keys.js", WEB / "boxes.js",
         ROOT / "examples" / "node_bot.mjs"]  # fmt: skip

#: Python changes the page does without, each with the reason (kept honest below).
PAGE_LACKS = {
    "TournamentChanged": "the page shows no tournaments",
    "TournamentsListed": "the page shows no tournaments",
}

PY_CHANGES = {c.__name__ for c in typing.get_args(changes.Change)}
PY_INTENTS = {c.__name__ for c in typing.get_args(intents.Intent)}


def _js_list(name: str) -> set[str]:
    """The strings of `export const <name> = [...]` in core.js."""
    found = re.search(rf"export const {name} = \[([^\]]*)\]", CORE_JS)
    assert found, f"core.js lost its {name}"
    return set(re.findall(r'"(\w+)"', found.group(1)))


JS_ONLY = _js_list("JS_ONLY_CHANGES")
JS_CHANGES = set(re.findall(r'what: "(\w+)"', CORE_JS))


def test_the_python_core_has_the_changes_this_test_reads() -> None:
    # An independent floor: the union is read, so it must not be empty or half of it.
    assert {"Welcomed", "TableChanged", "ViewChanged", "DecisionDue", "Answered"} <= PY_CHANGES


def test_every_change_the_page_makes_is_a_python_change_or_listed_js_only() -> None:
    assert JS_CHANGES - PY_CHANGES <= JS_ONLY, sorted(JS_CHANGES - PY_CHANGES - JS_ONLY)
    assert not JS_ONLY & PY_CHANGES, "a JS-only change that Python has: use its name"
    assert JS_ONLY <= JS_CHANGES, "a JS-only change the core no longer makes"


def test_every_python_change_the_page_needs_is_made_by_the_page_core() -> None:
    missing = PY_CHANGES - set(PAGE_LACKS) - JS_CHANGES
    assert not missing, sorted(missing)
    assert not set(PAGE_LACKS) & JS_CHANGES, "the page makes it now: drop it from PAGE_LACKS"
    assert set(PAGE_LACKS) <= PY_CHANGES


def test_the_users_switch_only_on_changes_the_core_makes() -> None:
    for path in USERS:
        cases = set(re.findall(r'case "([A-Z]\w+)"', path.read_text(encoding="utf-8")))
        assert cases <= JS_CHANGES, (path.name, sorted(cases - JS_CHANGES))


def test_the_intents_are_the_python_intents() -> None:
    table = re.search(r"export const INTENTS = \{(.*?)\};", CORE_JS, re.S)
    assert table, "core.js lost its INTENTS"
    js_intents = dict(re.findall(r'(\w+): "(\w+)"', table.group(1)))
    assert set(js_intents) <= PY_INTENTS, sorted(set(js_intents) - PY_INTENTS)
    # Each maps to the request Python's message_of builds for the intent of that name.
    assert js_intents["JoinTable"] == "join_seat"
    assert js_intents["Pass"] == "pass_cards" and js_intents["Double"] == "declare_double"
    for path in USERS:
        said = re.findall(r"intent: ([^,}]+)", path.read_text(encoding="utf-8"))
        named = {n for s in said for n in re.findall(r'"(\w+)"', s)}  # a ? "A" : "B" too
        assert named <= set(js_intents), (path.name, sorted(named - set(js_intents)))
