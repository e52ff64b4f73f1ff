"""The server's own sentences, in the interface language.

The server speaks at a table as the chat sender "*" (docs/protocol.md, "The table's own
lines"): someone dropped, is back, is replaced by a bot, left; a timer played for you. A
`not_ready` refusal says why the table cannot start (which seats are empty), and a bad rules
option is named with what it allows (the engine's ConfigError, also sent with `bad_rules`).
Those texts are English on the wire and carry no code of their own, so the client
recognises each by its template (the server's words with `{name}`-style holes) and says it
again in the player's language. A text of a shape this table does not know is shown as the
server sent it.
"""

from __future__ import annotations

import re
from functools import lru_cache

from leekha.client.i18n import N_, _

#: The server's templates, word for word (a test compares them with server/table.py).
TEMPLATES = (
    N_("{name} left the table; a bot plays the seat"),
    N_("{name} left the table"),
    N_("{name} dropped; the seat waits {grace} s for them to come back"),
    N_("{name} is back and takes the seat back from the bot"),
    N_("{name} is back"),
    N_("{name} is still away: a bot plays the seat until they come back"),
    N_("Time ran out: the server passed {cards} for you"),
    N_("Time ran out: the server played {card} for you"),
    N_("{name} is muted for {seconds} s: too many messages"),
    # not_ready refusals (server/lifecycle.py, server/table.py)
    N_("seat {seats} is empty: someone must sit there or the host adds a bot"),
    N_("bots cannot be removed during a game"),
    N_("the game is already running"),
    N_("the game is still running"),
    N_("no game has finished here yet; the host starts the first one"),
    N_("a tournament table plays one game"),
    # bad rules (leekha.common.config's ConfigError, also the text of a bad_rules refusal)
    N_("rules option {option} must be true or false; got {got}"),
    N_("rules option {option} must be an integer from {lo} to {hi}; got {got}"),
    N_("rules option {option} must be a known option: {known}; got {got}"),
    N_("rules option {option} must be a map of option names to values; got {got}"),
    N_("rules option {option} must be one of {allowed}; got {got}"),
)


@lru_cache(maxsize=1)
def _patterns() -> tuple[tuple[re.Pattern[str], str], ...]:
    out = []
    for template in TEMPLATES:
        parts = re.split(r"\{(\w+)\}", template)
        regex = "".join(
            re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+?)" for i, p in enumerate(parts)
        )
        out.append((re.compile(regex), template))
    return tuple(out)


def recognise(text: str) -> str | None:
    """`text` from the server in the interface language; None when its shape is unknown."""
    for pattern, template in _patterns():
        match = pattern.fullmatch(text)
        if match is not None:
            return _(template).format(**match.groupdict())
    return None


def translate(text: str) -> str:
    """`text` from the server, said in the interface language when its shape is known."""
    said = recognise(text)
    return text if said is None else said
