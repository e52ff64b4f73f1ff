"""Language-dependent display: card names, refusals, right-to-left text, the CLI's words."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator

import pytest

from leekha.client import cardnames, i18n, refusals, rtl
from leekha.client.cli import main
from leekha.client.tui.canvas import Canvas
from leekha.common import cards as C
from leekha.common import errors as E
from leekha.protocol import errors as PE


@pytest.fixture
def lang() -> Iterator[None]:
    yield
    i18n.set_language("en")
    rtl.set_enabled(False)


def logical(visual: str) -> str:
    """Read a right-to-left visual run back in logical order: reverse it, unjoin letters."""
    return unicodedata.normalize("NFKC", visual[::-1].translate(_MIRROR))


_MIRROR = str.maketrans("()[]{}<>", ")(][}{><")


# ---- cards ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "names"),
    [
        ("en", ("queen of spades", "ten of diamonds", "king of clubs", "ace of hearts")),
        ("ar", ("بنت البستوني", "عشرة الديناري", "شايب السباتي", "آص الكبة")),
        ("it", ("regina di picche", "dieci di quadri", "re di fiori", "asso di cuori")),
    ],
)
def test_card_names_follow_the_language(lang: None, language: str, names: tuple[str, ...]) -> None:
    i18n.set_language(language)
    cards = [C.parse_card(t) for t in ("QS", "10D", "KC", "AH")]
    assert tuple(cardnames.card_name(c) for c in cards) == names
    # The short label is what the card face shows, in every language.
    assert [cardnames.card_label(c) for c in cards] == ["Q♠", "10♦", "K♣", "A♥"]
    assert cardnames.cards_label(cards, ascii=True) == "QS 10D KC AH"


# ---- refusals ------------------------------------------------------------------------


def test_every_error_code_has_words() -> None:
    codes = set(PE.PROTOCOL_ERRORS) | set(PE.ENGINE_ERRORS) | set(PE.APPLICATION_ERRORS)
    codes |= set(E.CODES) | {"bad_rules"}
    assert sorted(codes - set(refusals.MESSAGES)) == []


def test_refusals_are_explained_in_the_language(lang: None) -> None:
    assert refusals.explain("seat_taken", "seat 2 is occupied") == "that seat is taken"
    i18n.set_language("it")
    assert refusals.explain("seat_taken", "seat 2 is occupied") == "quel posto è occupato"
    i18n.set_language("ar")
    assert refusals.explain("not_your_turn", "it is seat 2's turn") == "ليس دورك"
    # A code from a newer server: its own text is better than nothing.
    assert refusals.explain("brand_new", "something new") == "something new"


# ---- right to left -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("env", "does_bidi"),
    [
        ({"TERM": "xterm-256color", "XTERM_VERSION": "XTerm(390)"}, False),
        ({"TERM": "xterm-256color", "VTE_VERSION": "7600"}, True),
        ({"TERM": "xterm-256color", "VTE_VERSION": "5402"}, False),
        ({"TERM": "tmux-256color", "TMUX": "/tmp/tmux-1000/default,1,0"}, False),
        ({"TERM": "screen", "VTE_VERSION": "7600"}, False),
        ({"TERM": "linux"}, False),
        ({"TERM": "xterm-256color", "KONSOLE_VERSION": "230804"}, True),
        ({"TERM": "mlterm"}, True),
        ({"TERM": "xterm-kitty", "KITTY_WINDOW_ID": "1"}, False),
        ({"TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"}, False),
        ({"TERM": "xterm-256color", "TERM_PROGRAM": "Apple_Terminal"}, True),
        ({"TERM": "xterm-256color"}, None),
    ],
)
def test_terminal_detection(env: dict[str, str], does_bidi: bool | None) -> None:
    assert rtl.terminal_does_bidi(env) is does_bidi
    assert rtl.resolve("auto", env) is (does_bidi is False)
    assert rtl.resolve("on", env) is True
    assert rtl.resolve("off", env) is False


def test_visual_reverses_arabic_and_joins_its_letters() -> None:
    shown = rtl.visual_text("بنت البستوني", rtl_paragraph=True)
    assert len(shown) == len("بنت البستوني")
    assert shown != "بنت البستوني"[::-1]  # joined forms, not the bare letters
    assert logical(shown) == "بنت البستوني"
    # Left-to-right text is untouched, whatever the paragraph direction.
    assert rtl.visual_text("Q♠ 10♦ (13)", rtl_paragraph=True) == "Q♠ 10♦ (13)"


def test_visual_keeps_a_latin_card_inside_an_arabic_sentence() -> None:
    # Logical: "اكشف Q♠ للتدبيل" (reveal Q♠ to double): read from the right, the verb
    # comes first, then the card, then the rest.
    shown = rtl.visual_text("اكشف Q♠ للتدبيل", rtl_paragraph=True)
    left, card, right = shown.partition("Q♠")
    assert card == "Q♠"
    assert logical(right.strip()) == "اكشف"
    assert logical(left.strip()) == "للتدبيل"


def test_an_arabic_name_in_an_english_sentence() -> None:
    shown = rtl.visual_text("أحمد takes it (+13)", rtl_paragraph=False)
    assert shown.endswith(" takes it (+13)")
    assert logical(shown[: len("أحمد")]) == "أحمد"


def test_styles_travel_with_their_characters() -> None:
    frags = [("class:name", "أحمد"), ("class:bot", " [bot]")]
    shown = rtl.visual(frags, rtl_paragraph=True)
    by_style: dict[str, str] = {}
    for style, text in shown:
        by_style[style] = by_style.get(style, "") + text
    assert logical(by_style["class:name"]) == "أحمد"
    assert sorted(by_style["class:bot"]) == sorted(" [bot]")


def test_the_canvas_reorders_when_bidi_is_on(lang: None) -> None:
    off = Canvas(20, 1)
    off.put(2, 0, "بنت البستوني")
    assert off.text() == "  بنت البستوني"
    rtl.set_enabled(True)
    i18n.set_language("ar")
    on = Canvas(20, 1)
    end = on.put(2, 0, "بنت البستوني")
    assert end == 2 + len("بنت البستوني")
    assert logical(on.text().strip()) == "بنت البستوني"


# ---- the command line ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ("usage: leekha", "options:", "play against bots right now")),
        ("it", ("uso: leekha", "opzioni:", "gioca subito contro i bot")),
        ("ar", ("الاستخدام: leekha", "الخيارات:", "العب ضد الروبوتات الآن")),
    ],
)
def test_help_in_each_language(
    lang: None, capsys: pytest.CaptureFixture[str], language: str, words: tuple[str, ...]
) -> None:
    with pytest.raises(SystemExit) as exit:
        main(["--lang", language, "--bidi", "off", "--help"])
    assert exit.value.code == 0
    out = capsys.readouterr().out
    for w in words:
        assert w in out


def test_language_from_the_environment(
    lang: None, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANGUAGE", "")
    monkeypatch.setenv("LC_ALL", "")
    monkeypatch.setenv("LC_MESSAGES", "")
    monkeypatch.setenv("LANG", "it_IT.UTF-8")
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    assert "gioca subito contro i bot" in capsys.readouterr().out


def test_errors_in_the_language_and_after_the_command(
    lang: None, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit:
        main(["play", "--rules", "nope", "--lang", "it", "--bidi", "off"])
    assert exit.value.code == 2
    err = capsys.readouterr().err
    assert "errore: argomento --rules: scelta non valida: 'nope'" in err


def test_arabic_help_in_display_order(lang: None, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--lang", "ar", "--bidi", "on", "--help"])
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if "play" in x and x.strip() != "play")
    text = line.strip()
    # Visual: the description (right to left) on the left, the command name at the right.
    assert text.endswith("play")
    assert logical(text[: -len("play")].strip()) == "العب ضد الروبوتات الآن (خادم مدمج)"


@pytest.mark.parametrize(
    ("language", "shown"),
    [
        ("en", "to 101, talbees, doubling"),
        ("it", "a 101, talbees, raddoppio"),
        ("ar", "إلى 101، تلبيس، تدبيل"),
    ],
)
def test_rules_summary_in_the_language(lang: None, language: str, shown: str) -> None:
    from leekha.client.rulestext import summary
    from leekha.common.config import PRESETS

    i18n.set_language(language)
    assert summary(PRESETS["levant"]) == shown


@pytest.mark.parametrize("names", [("ann", "b1", "b2", "b3"), ("ann", "bob", "b2", "cy")])
def test_each_seat_keeps_its_own_bot_tag_in_a_right_to_left_lobby(
    lang: None, names: tuple[str, ...]
) -> None:
    """Latin names with Arabic `[bot]` tags: each seat is isolated in bidi, so the line
    is not one Latin run "ann، b1" whose tags land on the wrong names (ann shown a bot)."""
    from leekha.client.tui.lobby_screen import _seat_summary

    i18n.set_language("ar")
    rtl.set_enabled(True)
    bots = [n.startswith("b") and len(n) == 2 for n in names]
    seats = [{"name": n, "is_bot": b} for n, b in zip(names, bots)]
    summary = _seat_summary({"seats": seats}, 70)
    on = Canvas(72, 1)
    on.line(0, 0, 72, summary)
    shown = on.text().strip()
    # Right to left: the first seat at the right edge, the separators between.
    items = [item.strip() for item in shown.split("،")][::-1]
    assert len(items) == 4, shown
    for item, name, bot in zip(items, names, bots):
        assert item.split("[")[0].strip() == name or item.endswith(name), (item, name, shown)
        assert ("[" in item) == bot, (item, name, shown)
        assert not any(ch in rtl.ISOLATES for ch in item)  # the marks take no cell
    rtl.set_enabled(False)  # a terminal that reorders by itself: logical order, no marks
    off = Canvas(72, 1)
    off.line(0, 0, 72, summary)
    assert not any(ch in rtl.ISOLATES for ch in off.text())


def test_an_arabic_hint_keeps_its_latin_word(lang: None) -> None:
    """The replay's "1-9 الجولة N": with bidi on, N stays in its hint, not in one Latin run
    with the next hint's key ("g/G N"); each hint reads key first, from the right."""
    from leekha.client.tui.hints import fit_hints

    i18n.set_language("ar")
    rtl.set_enabled(True)
    items = [("n/p", "جولة"), ("1-9", "الجولة N"), ("g/G", "البداية/النهاية"), ("?", "مساعدة")]
    line = Canvas(80, 1)
    line.line(0, 0, 80, fit_hints(items, 80))
    hints = [h.strip() for h in line.text().strip().split("  ")][::-1]
    assert [h.split()[-1] for h in hints] == ["n/p", "1-9", "g/G", "?"], hints
    assert hints[1].startswith("N "), hints
