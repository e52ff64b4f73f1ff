"""A table's rules in a few words, in the interface language, for the lobby and the header.

The words are the client's to choose (the engine only knows the options), so they live here
with the catalogue; option names that are also the game's own words (talbees, the golden
goal) are translated like any other.
"""

from __future__ import annotations

from leekha.client.i18n import _
from leekha.common.config import RulesConfig


def summary(rules: RulesConfig) -> str:
    """The options that make this game differ from the plainest one, comma-separated."""
    flagged = (
        (rules.partnership == "combined", _("partners")),
        (rules.partnership == "individual_bust", _("partners (bust)")),
        (rules.pass_direction == "alternate", _("pass R/L")),
        (rules.talbees, _("talbees")),
        (rules.doubling, _("doubling")),
        (rules.game_end == "golden_goal", _("golden goal")),
        (rules.club_leekha, _("K♣ leekha")),
        (
            rules.undercut,
            _("undercut") if rules.undercut_ceiling == "led_high" else _("undercut (rank)"),
        ),
        (rules.moon_penalty, _("moon {n}").format(n=rules.moon_penalty)),
    )
    parts = [_("to {n}").format(n=rules.target), *(text for on, text in flagged if on)]
    # TRANSLATORS: the separator between the parts of a rules summary ("to 101, talbees").
    return _(", ").join(parts)


def preset_word(name: str) -> str:
    """A preset's name as the player reads it (a server's own preset keeps its name)."""
    words = {
        "classic": _("classic"),
        "levant": _("Levant"),
        "golden": _("golden goal"),
        "partnership": _("partnership"),
        "idlib": _("Idlib"),
        "idlib_talyeekh": _("Idlib talyeekh"),
    }
    return words.get(name, name)
