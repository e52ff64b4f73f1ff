"""Protocol versions and the handshake rules that do not need I/O."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .catalogue import Hello, Resume
from .errors import ProtocolError
from .message import Message

__all__ = ["PROTOCOL_VERSION", "SUPPORTED_VERSIONS", "negotiate", "require_handshake"]

#: (major, minor). Minor bumps only add optional fields; major bumps may break anything.
PROTOCOL_VERSION: tuple[int, int] = (1, 1)
#: Highest minor spoken per major, newest first.
SUPPORTED_VERSIONS: tuple[tuple[int, int], ...] = (PROTOCOL_VERSION,)


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
