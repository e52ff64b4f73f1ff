"""The browser page's words: which msgids the page (client/web/) shows, and the command that
exports them from the terminal client's gettext catalogues to client/web/i18n/{lang}.json
(and the server codes' msgids, the same in every language, to client/web/i18n/codes.json).

The page has no gettext of its own: it reads these JSON files. Every msgid it shows is listed
here (marked with `N_`, so `pybabel extract` keeps it in the catalogues), together with the
server codes it words (refusals, rules, notices, quick phrases) taken from the tables the
terminal client uses. `tests/web/test_web_words.py` fails when the JSON differs from what
the .po files say now, or when a `t("…")` of the page is missing from this list.

    python -m leekha.client.webwords export      # write the three files
    python -m leekha.client.webwords check       # exit 1 if they are stale
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from babel.messages.pofile import read_po

from leekha.client import refusals, systemlines
from leekha.client.cardnames import SUIT_NAMES
from leekha.client.i18n import LANGUAGES, LOCALE_DIR, N_, RTL_LANGUAGES
from leekha.client.tui.social import PHRASE_WORDS

OUT_DIR = Path(__file__).parent / "web" / "i18n"

#: Every plain msgid the page shows (client/web/*.js and index.html).
PAGE: tuple[str, ...] = (
    # the name, the link, the status line
    N_("Your name"), N_("Enter the lobby"), N_("connection lost"), N_("connecting…"),
    N_("reconnecting…"), N_("disconnected"), N_("offline"), N_("reconnected"),
    N_("reconnected, but your seat was given up while you were away"),
    N_("reconnected, but the old session had expired"),
    N_("reconnected: watching the table again"),
    N_("rematch vote sent; waiting for the others"),
    # the lobby
    N_("quick play"), N_("new table"), N_("player statistics"), N_("refresh the list"),
    N_("No tables yet: open one, or quick play."), N_("join"), N_("watch"), N_("password"),
    N_("waiting"), N_("playing"), N_("finished"), N_("empty"), N_("{level} bot {n}"),
    N_("easy"), N_("medium"), N_("hard"), N_("{n} s"), N_("off"), N_("pass {pass} · turn {turn}"),
    # rules in a few words (client/rulestext.py) and the presets
    N_("to {n}"), N_(", "), N_("partners"), N_("partners (bust)"), N_("pass R/L"),
    N_("talbees"), N_("doubling"), N_("golden goal"), N_("K♣ leekha"), N_("undercut"),
    N_("undercut (rank)"), N_("moon {n}"), N_("classic"), N_("Levant"), N_("partnership"),
    N_("Idlib"), N_("Idlib talyeekh"),
    # the new-table form and the password box
    N_("name"), N_("rules"), N_("target"), N_("pass timer"), N_("turn timer"), N_("count aid"),
    N_("options"), N_("bot level"), N_("seat {n}"), N_("a person"), N_("the preset's"),
    N_("Table"), N_("cancel"), N_("create"), N_("the table needs a name"),
    N_("the target must be a number from {lo} to {hi}"), N_("This table has a password"),
    # the table
    N_("level"), N_("add bot"), N_("remove bot"), N_("sit here"), N_("away"), N_("bot plays"),
    N_("passed"), N_("host"), N_("points"), N_("waiting for the host to start"),
    N_("waiting for players ({n}/4)"), N_("game over"), N_("your pass: choose 3 cards"),
    N_("spectating"),
    N_("your turn"),
    N_("waiting for the passes"), N_("{name} to play"), N_("{n} s left"),
    N_("take my seat back"), N_("start"), N_("pass these 3 to {name}"),
    N_("double {card}"), N_("play {card}"), N_("rematch"), N_("{name} takes the trick"),
    N_("score sheet"), N_("last trick"), N_("no trick yet"), N_("quick phrases"), N_("invite"),
    N_("leave again to give your seat to a bot for good"),
    N_("Send this link to a friend:"), N_("with the password:"), N_("leave"), N_("close"),
    N_("continue"),
    # the boxes: round summary, game over, leaderboard, profile
    N_("round {n}"), N_("{name} shot the moon!"), N_("golden goal: the round stopped early"),
    N_("a tie at the target: play goes on"), N_("total"), N_("winner: {names}"),
    N_("tricks"), N_("Leekha cards"), N_("moons"), N_("player"), N_("rating"), N_("games"),
    N_("wins"), N_("no finished games yet"), N_("loading…"),
    N_("rating {rating}"),
    # chat, and the words the server's facts are said with
    N_("send"), N_("chat; Enter sends"), N_("{some} and {last}"), *SUIT_NAMES,
)  # fmt: skip

#: The notices whose words depend on a count (client/systemlines.py COUNTED, whose msgids sit
#: inside its ngettext calls): code -> (the counted argument, singular, plural). The page
#: words them with the language's plural form, never with NOTICES' English plural ("the
#: clock ran out 1 times"); tests/web/test_web_words.py keeps them equal to COUNTED's words.
COUNTED_WORDS: dict[str, tuple[str, str, str]] = {
    "timeouts_bot": (
        "count",
        "a bot plays for {name}: the clock ran out {count} time in a row",
        "a bot plays for {name}: the clock ran out {count} times in a row",
    ),
}

#: The refusals and rules of requests the page never makes (it shows no tournaments, its
#: hello carries no identity key to prove, and its core opens each connection with exactly
#: one hello or resume), and `bad_record`, which no server sends (the engine's replay):
#: they cannot reach the page, and their words would only weigh on its budget. One that
#: came anyway is said in the server's own text (words.js `explain`).
NOT_ON_THE_PAGE = frozenset({
    "bad_key", "bad_signature", "already_entered", "not_hello_first", "already_welcomed",
    "bad_record",
    "bad_tournament", "too_many_tournaments", "no_such_tournament", "not_an_entrant",
    "tournament_over", "not_your_tournament",
    "tournaments_running", "tournaments_waiting", "tournaments_yours",
})  # fmt: skip

#: Plural msgids the page shows: (singular, plural).
PLURALS: tuple[tuple[str, str], ...] = (
    ("{n} point", "{n} points"),
    (  # the profile box's line, the terminal client's own words
        "{games} game, {wins} won, {avg:.1f} points a round",
        "{games} games, {wins} won, {avg:.1f} points a round",
    ),
    *(COUNTED_WORDS[code][1:] for code in COUNTED_WORDS),
    (  # a table quick play opened for us, counting down (the terminal client's words)
        "quick play: bots take the empty seats in {n} second",
        "quick play: bots take the empty seats in {n} seconds",
    ),
)


def _plural_page() -> None:
    """Never called: marks the plural msgids for `pybabel extract`."""
    from leekha.client.i18n import ngettext

    ngettext("{n} point", "{n} points", 1)
    ngettext(
        "{games} game, {wins} won, {avg:.1f} points a round",
        "{games} games, {wins} won, {avg:.1f} points a round",
        1,
    )


def codes() -> dict[str, object]:
    """The server's codes -> their msgids, from the terminal client's own tables."""

    def page(table: dict[str, str]) -> dict[str, str]:
        return {c: m for c, m in table.items() if c not in NOT_ON_THE_PAGE | COUNTED_WORDS.keys()}

    return {
        "refusals": page(refusals.MESSAGES),
        "notices": page(systemlines.NOTICES),
        "rules": page(systemlines.RULES),
        "seats_empty_many": systemlines.SEATS_EMPTY_MANY,
        "phrases": dict(PHRASE_WORDS),
        "counted": {code: [arg, one] for code, (arg, one, _many) in COUNTED_WORDS.items()},
    }


def msgids() -> list[str]:
    """Every plain msgid of the page, each once, in a stable order."""
    found = [*PAGE, systemlines.SEATS_EMPTY_MANY]
    for key, table in codes().items():
        if key != "counted" and isinstance(table, dict):
            found += table.values()
    return sorted(set(found))


def catalogue(lang: str) -> dict[str, object]:
    """One language's words for the page, read from its .po file (English: the msgids)."""
    messages: dict[str, str | list[str]] = {}
    header = ""
    if lang == "en":
        # English is the msgids themselves: only the plurals need saying.
        for one, many in PLURALS:
            messages[one] = [one, many]
    else:
        with (LOCALE_DIR / lang / "LC_MESSAGES" / "leekha.po").open("rb") as f:
            po = read_po(f, locale=lang)
        header = str(po.plural_forms)
        for m in msgids():
            entry = po.get(m)
            said = entry.string if entry is not None else None
            messages[m] = said if isinstance(said, str) and said else m
        for one, many in PLURALS:
            entry = po.get(one)
            said = entry.string if entry is not None else None
            forms = list(said) if isinstance(said, tuple) else []
            messages[one] = forms if forms and all(forms) else [one, many]
    return {
        "lang": lang,
        "dir": "rtl" if lang in RTL_LANGUAGES else "ltr",
        "plural_forms": header,
        "messages": dict(sorted(messages.items())),
    }


def rendered(name: str) -> str:
    """The text of i18n/{name}.json: a language's words, or `codes` (the same for all)."""
    data = codes() if name == "codes" else catalogue(name)
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"


FILES = (*LANGUAGES, "codes")


def stale(out_dir: Path = OUT_DIR) -> list[str]:
    """The files that differ from what the catalogues say now."""
    return [
        name
        for name in FILES
        if not (out_dir / f"{name}.json").exists()
        or (out_dir / f"{name}.json").read_text(encoding="utf-8") != rendered(name)
    ]


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args == ["export"]:
        OUT_DIR.mkdir(parents=True, exist_ok=True)
        for name in FILES:
            (OUT_DIR / f"{name}.json").write_text(rendered(name), encoding="utf-8")
            print(f"wrote client/web/i18n/{name}.json")
        return 0
    if args == ["check"]:
        bad = stale()
        for name in bad:
            print(f"client/web/i18n/{name}.json is stale: python -m leekha.client.webwords export")
        return 1 if bad else 0
    print("usage: python -m leekha.client.webwords export|check", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
