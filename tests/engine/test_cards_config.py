"""Cards text and the rules config: parsing, validation, presets."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from leekha.common import cards as C
from leekha.common.config import PRESETS, RulesConfig, preset, preset_name
from leekha.common.errors import CardError, ConfigError


@pytest.mark.parametrize(
    ("text", "card"),
    [("QS", 49), ("Q♠", 49), ("10D", 21), ("10♦", 21), ("td", 21), (" 2c ", 0), ("AH", 38)],
)
def test_parse_card(text: str, card: int) -> None:
    assert C.parse_card(text) == card


@pytest.mark.parametrize("text", ["", "Q", "1S", "11S", "QX", "ZS", "S", "10"])
def test_parse_card_rejects_bad_text(text: str) -> None:
    with pytest.raises(CardError) as info:
        C.parse_card(text)
    assert info.value.code == "bad_card"
    assert repr(text) in info.value.message


@given(st.integers(0, 51), st.booleans())
def test_format_parse_round_trip(card: int, ascii: bool) -> None:
    assert C.parse_card(C.format_card(card, ascii=ascii)) == card


def test_format_rejects_non_cards() -> None:
    for bad in (-1, 52, "QS"):
        with pytest.raises(CardError):
            C.format_card(bad)  # type: ignore[arg-type]


def test_masks_round_trip() -> None:
    cs = [0, 13, 49, 51]
    assert C.cards_of(C.mask_of(cs)) == cs
    assert C.display_order([0, 49, 38, 21])[:2] == [49, 38]


@given(st.integers(0, C.FULL_DECK))
def test_cards_of_lists_every_set_bit_in_order(mask: int) -> None:
    assert C.cards_of(mask) == [c for c in range(52) if mask >> c & 1]


def test_classic_is_rules_en() -> None:
    c = PRESETS["classic"]
    assert (c.target, c.pass_direction, c.pass_ban, c.void_rule) == (
        101,
        "right",
        True,
        "any_leekha",
    )
    assert not c.talbees and not c.doubling and c.partnership == "off"
    assert c.game_end == "round_end" and c.round_total == 36


def test_presets() -> None:
    assert PRESETS["levant"].talbees and PRESETS["levant"].doubling
    assert PRESETS["levant"].void_rule == "queen_only"
    assert PRESETS["golden"].game_end == "golden_goal"
    assert PRESETS["partnership"].partnership == "combined"
    idlib = PRESETS["idlib"]
    assert idlib.club_leekha and idlib.undercut and idlib.dealer_rule == "biggest_eater"
    assert idlib.target == 201 and idlib.round_total == 50
    # jehadbaeth/Leekha's Idlib: idlib with free passing, talyeekh, undercut by rank, partners.
    other = PRESETS["idlib_talyeekh"]
    assert other == RulesConfig(
        target=201,
        pass_ban=False,
        talbees=True,
        partnership="individual_bust",
        club_leekha=True,
        undercut=True,
        undercut_ceiling="leekha_rank",
        dealer_rule="biggest_eater",
    )
    for name, cfg in PRESETS.items():
        assert preset_name(cfg) == name
        assert RulesConfig.from_dict(cfg.to_dict()) == cfg


@pytest.mark.parametrize(
    ("option", "value", "allowed"),
    [
        ("target", 0, "integer from 1"),
        ("target", True, "integer"),
        ("pass_direction", "up", "'right'"),
        ("void_rule", "any", "'queen_only'"),
        ("talbees", "yes", "true or false"),
        ("partnership", "teams", "'combined'"),
        ("game_end", "sudden", "'golden_goal'"),
        ("dealer_rule", "random", "'biggest_eater'"),
        ("moon_penalty", -1, "integer from 0"),
        ("undercut_ceiling", "rank", "'leekha_rank'"),
    ],
)
def test_bad_option_names_option_and_allowed(option: str, value: object, allowed: str) -> None:
    with pytest.raises(ConfigError) as info:
        RulesConfig.from_dict({option: value})
    assert info.value.option == option
    assert allowed in str(info.value)
    assert info.value.code == "bad_rules"


def test_unknown_option_and_preset() -> None:
    with pytest.raises(ConfigError, match="tagret"):
        RulesConfig.from_dict({"tagret": 51})
    with pytest.raises(ConfigError, match="preset"):
        preset("nope")
    with pytest.raises(ConfigError):
        RulesConfig.from_dict([1, 2])  # type: ignore[arg-type]
    assert preset("classic", {"target": 51}).target == 51


def test_options_newer_than_protocol_1_1_appear_only_when_set() -> None:
    """A 1.1 peer reads every rules map it was always sent, byte for byte."""
    assert sorted(PRESETS["idlib"].to_dict()) == sorted(
        [
            "target",
            "pass_direction",
            "pass_ban",
            "void_rule",
            "talbees",
            "doubling",
            "partnership",
            "game_end",
            "club_leekha",
            "undercut",
            "dealer_rule",
            "moon_penalty",
        ]
    )
    assert PRESETS["idlib_talyeekh"].to_dict()["undercut_ceiling"] == "leekha_rank"
