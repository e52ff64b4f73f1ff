"""The one object that says which variant of Leekha a table plays.

Every rule option lives here so the engine, the server, records and the clients agree on a
single validated description; presets are simply named instances.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any, Final

from leekha.common import cards as C
from leekha.common.errors import ConfigError

PASS_DIRECTIONS: Final = ("right", "alternate")
VOID_RULES: Final = ("any_leekha", "queen_only", "free")
PARTNERSHIPS: Final = ("off", "combined", "individual_bust")
GAME_ENDS: Final = ("round_end", "golden_goal")
DEALER_RULES: Final = ("rotate", "biggest_eater")
UNDERCUT_CEILINGS: Final = ("led_high", "leekha_rank")

# Options added after protocol 1.1 go into `to_dict` only when they differ from their
# default, so the rules map of every table a 1.1 peer can play stays byte-identical.
_LATER_DEFAULTS: Final[dict[str, object]] = {"undercut_ceiling": "led_high"}

#: One rule option's value: every option is a flag, a number or a named choice.
Option = int | bool | str
#: A table's rules as a dict (`RulesConfig.to_dict`), option by name.
Rules = dict[str, Option]

MAX_TARGET: Final = 10_000
MAX_MOON: Final = 1_000


@dataclass(frozen=True, slots=True)
class RulesConfig:
    """All rule options; defaults are the `classic` preset (rules-en.txt)."""

    target: int = 101
    pass_direction: str = "right"
    pass_ban: bool = True
    void_rule: str = "any_leekha"
    talbees: bool = False
    doubling: bool = False
    partnership: str = "off"
    game_end: str = "round_end"
    club_leekha: bool = False
    undercut: bool = False
    dealer_rule: str = "rotate"
    moon_penalty: int = 0
    undercut_ceiling: str = "led_high"

    def __post_init__(self) -> None:
        _check_int("target", self.target, 1, MAX_TARGET)
        _check_choice("pass_direction", self.pass_direction, PASS_DIRECTIONS)
        _check_bool("pass_ban", self.pass_ban)
        _check_choice("void_rule", self.void_rule, VOID_RULES)
        _check_bool("talbees", self.talbees)
        _check_bool("doubling", self.doubling)
        _check_choice("partnership", self.partnership, PARTNERSHIPS)
        _check_choice("game_end", self.game_end, GAME_ENDS)
        _check_bool("club_leekha", self.club_leekha)
        _check_bool("undercut", self.undercut)
        _check_choice("dealer_rule", self.dealer_rule, DEALER_RULES)
        _check_int("moon_penalty", self.moon_penalty, 0, MAX_MOON)
        _check_choice("undercut_ceiling", self.undercut_ceiling, UNDERCUT_CEILINGS)

    # ---- derived tables -------------------------------------------------------------
    @property
    def leekha_cards(self) -> tuple[int, ...]:
        base = (C.QUEEN_SPADES, C.TEN_DIAMONDS)
        return (*base, C.KING_CLUBS) if self.club_leekha else base

    def card_points(self) -> tuple[int, ...]:
        """Points of each of the 52 cards before any doubling."""
        return _POINTS[self.club_leekha]

    @property
    def penalty_mask(self) -> int:
        """Every card that scores: the hearts and the Leekha cards."""
        return _PENALTY[self.club_leekha]

    @property
    def leekha_mask(self) -> int:
        return C.mask_of(self.leekha_cards)

    @property
    def round_total(self) -> int:
        """Points in one round with no doubling: 36, or 50 with the K♣."""
        return sum(self.card_points())

    # ---- conversion -----------------------------------------------------------------
    def to_dict(self) -> Rules:
        # Every field is a scalar, so no deep copy (asdict) is needed: every seat view
        # carries this dict, and bot matches build one per decision.
        out: Rules = {f.name: getattr(self, f.name) for f in _FIELDS}
        for key, default in _LATER_DEFAULTS.items():
            if out[key] == default:
                del out[key]
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, base: RulesConfig | None = None) -> RulesConfig:
        """Build from a plain dict; unknown keys are an error so typos never pass silently."""
        if not isinstance(data, Mapping):
            raise ConfigError("rules", "a map of option names to values", data, rule="rules_map")
        known = {f.name for f in fields(cls)}
        for key in data:
            if key not in known:
                raise ConfigError(
                    str(key),
                    "a known option: " + ", ".join(sorted(known)),
                    key,
                    rule="rules_unknown",
                    args={"allowed": sorted(known)},
                )
        return replace(base or cls(), **dict(data))

    def with_overrides(self, overrides: Mapping[str, object]) -> RulesConfig:
        return RulesConfig.from_dict(overrides, base=self)


def _check_bool(name: str, value: object) -> None:
    if not isinstance(value, bool):
        raise ConfigError(name, "true or false", value, rule="rules_bool")


def _check_int(name: str, value: object, lo: int, hi: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise ConfigError(
            name,
            f"an integer from {lo} to {hi}",
            value,
            rule="rules_int",
            args={"lo": lo, "hi": hi},
        )


def _check_choice(name: str, value: object, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise ConfigError(
            name,
            "one of " + ", ".join(repr(a) for a in allowed),
            value,
            args={"allowed": list(allowed)},
        )


def _points_table(club_leekha: bool) -> tuple[int, ...]:
    pts = [0] * 52
    for c in C.cards_of(C.HEARTS_MASK):
        pts[c] = 1
    pts[C.QUEEN_SPADES] = 13
    pts[C.TEN_DIAMONDS] = 10
    if club_leekha:
        pts[C.KING_CLUBS] = 14
    return tuple(pts)


# Points depend on one option only, so both tables are built once rather than per call:
# views, trick scoring and rollouts ask for them constantly.
_POINTS: Final = {club: _points_table(club) for club in (False, True)}
_PENALTY: Final = {club: C.mask_of(c for c in range(52) if _POINTS[club][c]) for club in _POINTS}

_FIELDS: Final = fields(RulesConfig)

CLASSIC: Final = RulesConfig()
LEVANT: Final = replace(CLASSIC, talbees=True, doubling=True, void_rule="queen_only")
GOLDEN: Final = replace(LEVANT, game_end="golden_goal")
PARTNERSHIP: Final = replace(LEVANT, partnership="combined")
IDLIB: Final = replace(
    CLASSIC,
    target=201,
    club_leekha=True,
    undercut=True,
    dealer_rule="biggest_eater",
)
# The Idlib game as jehadbaeth/Leekha plays it (docs/rules.md, "Presets"): free passing,
# forced talbees ("talyeekh"), undercut by Leekha rank binding forced discards too, and
# partners whose first member to bust loses for the team.
IDLIB_TALYEEKH: Final = replace(
    IDLIB,
    pass_ban=False,
    talbees=True,
    undercut_ceiling="leekha_rank",
    partnership="individual_bust",
)

PRESETS: Final[dict[str, RulesConfig]] = {
    "classic": CLASSIC,
    "levant": LEVANT,
    "golden": GOLDEN,
    "partnership": PARTNERSHIP,
    "idlib": IDLIB,
    "idlib_talyeekh": IDLIB_TALYEEKH,
}


def preset(name: str, overrides: Mapping[str, object] | None = None) -> RulesConfig:
    """A named preset with optional overrides, validated."""
    if name not in PRESETS:
        raise ConfigError(
            "preset", "one of " + ", ".join(PRESETS), name, args={"allowed": list(PRESETS)}
        )
    base = PRESETS[name]
    return base.with_overrides(overrides) if overrides else base


def preset_name(config: RulesConfig) -> str | None:
    for name, cfg in PRESETS.items():
        if cfg == config:
            return name
    return None
