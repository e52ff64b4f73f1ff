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
    parts = [_("to {n}").format(n=rules.target)]
    if rules.partnership == "combined":
        parts.append(_("partners"))
    elif rules.partnership == "individual_bust":
        parts.append(_("partners (bust)"))
    if rules.pass_direction == "alternate":
        parts.append(_("pass R/L"))
    if rules.talbees:
        parts.append(_("talbees"))
    if rules.doubling:
        parts.append(_("doubling"))
    if rules.game_end == "golden_goal":
        parts.append(_("golden goal"))
    if rules.club_leekha:
        parts.append(_("K♣ leekha"))
    if rules.undercut:
        parts.append(
            _("undercut") if rules.undercut_ceiling == "led_high" else _("undercut (rank)")
        )
    if rules.moon_penalty:
        parts.append(_("moon {n}").format(n=rules.moon_penalty))
    # TRANSLATORS: the separator between the parts of a rules summary ("to 101, talbees").
    return _(", ").join(parts)
