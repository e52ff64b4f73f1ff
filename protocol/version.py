"""Protocol versions, the features each version added, and the handshake rules.

A peer never compares version numbers itself: it asks `speaks(version, FEATURE)`. Each
feature is declared once here with the version that added it, so "which version brought
what" has one answer and one place to extend (`feature(...)` for each new addition).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from .catalogue import Hello, Resume
from .errors import ProtocolError
from .message import Message

__all__ = [
    "CAN_DOUBLE",
    "CODED_NOTICES",
    "COUNTING_AID",
    "FEATURES",
    "GAME_FACTS",
    "PAGED_LIST",
    "PROFILES",
    "PROTOCOL_VERSION",
    "QUICK_PHRASES",
    "QUICK_PLAY",
    "SEAT_CONTROL",
    "STATS",
    "SUPPORTED_VERSIONS",
    "TOURNAMENTS",
    "TOURNAMENT_CANCEL",
    "TOURNAMENT_START",
    "TURN_CLOCK",
    "WELCOME_SAYS_SEAT",
    "Feature",
    "HasVersion",
    "feature",
    "hears",
    "negotiate",
    "require_handshake",
    "speaks",
]

#: (major, minor). Minor bumps only add optional fields; major bumps may break anything.
PROTOCOL_VERSION: tuple[int, int] = (1, 4)
#: Highest minor spoken per major, newest first. A minor includes every lower minor, so
#: (1, 4) means 1.0 to 1.4 are all spoken.
SUPPORTED_VERSIONS: tuple[tuple[int, int], ...] = (PROTOCOL_VERSION,)


@dataclass(frozen=True)
class Feature:
    """Something a protocol version added that a peer must not expect from older ones."""

    name: str
    since: tuple[int, int]
    doc: str = ""


#: Every feature by name (docs and tests list them from here).
FEATURES: dict[str, Feature] = {}


def feature(name: str, since: tuple[int, int], doc: str = "") -> Feature:
    """Declare a feature once; a second declaration of the same name is a bug."""
    if name in FEATURES:
        raise ValueError(f"feature {name!r} is already declared")
    if since > PROTOCOL_VERSION:
        raise ValueError(f"feature {name!r} is newer than PROTOCOL_VERSION")
    FEATURES[name] = made = Feature(name, since, doc)
    return made


CAN_DOUBLE = feature(
    "can_double", (1, 1), "`SeatView` and `your_turn` list the Leekha cards still doublable"
)
WELCOME_SAYS_SEAT = feature(
    "welcome_says_seat", (1, 1), "a resume `welcome` carries `table_id` and `seat`"
)
STATS = feature("stats", (1, 1), "`get_stats` and `stats`")
COUNTING_AID = feature(
    "counting_aid",
    (1, 2),
    "`create_table` and the table summary carry `counting_aid` (a host may forbid the aid)",
)
IDENTITY = feature(
    "identity", (1, 2), "`hello.key`, `challenge`/`prove`, `welcome.verified`, claimed names"
)
PAGED_LIST = feature(
    "paged_list",
    (1, 2),
    "`list_tables` takes a `cursor`; `table_list` is one page with `total` and `next`",
)
TOURNAMENTS = feature(
    "tournaments",
    (1, 3),
    "`create_tournament`, `list_tournaments`, `get_tournament`, `enter_tournament` and "
    "their replies: duplicate tournaments the server runs",
)

QUICK_PHRASES = feature(
    "quick_phrases",
    (1, 4),
    "`phrase` and `phrase_said`: quick phrases as codes, each reader's language",
)

GAME_FACTS = feature(
    "game_facts",
    (1, 4),
    "`round_scored` says `moon`, `stopped` and `tie`; `game_over` and a finished view's "
    "`result` say `reason`, `tie_extended` and every seat's `stats`",
)
SEAT_CONTROL = feature(
    "seat_control",
    (1, 4),
    "`PlayerInfo.control` and `control_reason`: who plays each seat (a person, away, a bot, "
    "a bot for a person), sent to everyone at the table when it changes",
)
TURN_CLOCK = feature(
    "turn_clock",
    (1, 4),
    "`turn`: whose decision the table waits for and the time left, to everyone at the "
    "table, spectators included",
)
CODED_NOTICES = feature(
    "coded_notices",
    (1, 4),
    "the server's notices (`chat_message` from `*`) and refusals (`error`) carry a code "
    "(`code`, `rule`) and `args`; a refused card or pass names the engine's rule",
)


def hears(version: Sequence[int] | HasVersion | None, msg: type[Message] | Message) -> bool:
    """Whether a peer of `version` can decode `msg` (a message type newer than the
    negotiated version is never sent to it)."""
    if version is not None and not isinstance(version, Sequence):
        version = version.version
    return version is None or tuple(version[:2]) >= msg.SINCE


QUICK_PLAY = feature(
    "quick_play",
    (1, 4),
    "`quick_play`: one request, and the server seats you, opens a table or fills it with bots",
)

PROFILES = feature(
    "profiles",
    (1, 4),
    "`get_profile` and `profile`: one player's rating, games, wins and latest games",
)

TOURNAMENT_START = feature(
    "tournament_start",
    (1, 4),
    "`create_tournament.starts_at`, and `starts_at` with `starts_in_s` in a tournament's "
    "state and list line: a tournament that begins at a set time",
)

TOURNAMENT_CANCEL = feature(
    "tournament_cancel",
    (1, 4),
    "`cancel_tournament`: a tournament's creator or the server's operator cancels it",
)


class HasVersion(Protocol):
    """Anything that knows its negotiated version (a `Connection`, a client session)."""

    @property
    def version(self) -> Sequence[int] | None: ...


def speaks(version: Sequence[int] | HasVersion | None, what: Feature) -> bool:
    """Whether a negotiated version (welcome.version, or a connection's) includes `what`.

    A decoded 1.0 frame still carries the defaults of later fields (`can_double: []`), so
    a field's presence cannot tell "empty" from "not sent": the version has to.
    """
    if version is not None and not isinstance(version, Sequence):
        version = version.version
    return version is not None and tuple(version[:2]) >= what.since


def negotiate(
    client_versions: Iterable[Sequence[int]],
    supported: Iterable[Sequence[int]] = SUPPORTED_VERSIONS,
) -> tuple[int, int] | None:
    """Pick the version a connection will use, or None if there is none.

    Each side lists (major, minor) meaning "major, minors 0..minor". The highest common
    major wins, at the lower of the two minors.
    """

    def best(versions: Iterable[Sequence[int]]) -> dict[int, int]:
        out: dict[int, int] = {}
        for v in versions:
            if len(v) != 2:
                continue
            major, minor = int(v[0]), int(v[1])
            out[major] = max(minor, out.get(major, minor))
        return out

    ours, theirs = best(supported), best(client_versions)
    common = set(ours) & set(theirs)
    if not common:
        return None
    major = max(common)
    return (major, min(ours[major], theirs[major]))


def require_handshake(msg: Message) -> Hello | Resume:
    """Check the first message of a connection: it must be `hello` or `resume`."""
    if isinstance(msg, Hello | Resume):
        return msg
    rid = getattr(msg, "id", None)
    raise ProtocolError(
        "not_hello_first",
        f"first message must be hello or resume, not {msg.TYPE}",
        rid if isinstance(rid, int) else None,
    )
