"""Every request type against every protocol version: a session of a version older than
the type's (the catalogue's `since`) gets `unknown_type` and nothing else happens; a
session that speaks it is never told the type is unknown. The expectation comes from the
docs' own words ("(1.3) ..."), read apart from the code's `SINCE`."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from helpers.server import Harness

from leekha.protocol import catalogue as M
from leekha.protocol._examples import EXAMPLES
from leekha.protocol.message import CLIENT_TYPES
from leekha.protocol.version import PROTOCOL_VERSION

VERSIONS = [(1, minor) for minor in range(PROTOCOL_VERSION[1] + 1)]
#: The handshake's own messages are the session rules' (leekha.protocol.connection).
REQUESTS = sorted(t for t in CLIENT_TYPES if t not in ("hello", "resume", "prove", "pong"))


def _first_version(doc: str) -> tuple[int, int]:
    """The version a message's doc says added it ("(1.3) ..."), 1.0 when it says none."""
    said = re.match(r"\((\d)\.(\d)\)", doc)
    return (int(said.group(1)), int(said.group(2))) if said else (1, 0)


def test_every_request_type_has_an_example_and_its_since_matches_its_doc() -> None:
    assert set(REQUESTS) <= set(EXAMPLES)
    for t in REQUESTS:
        msg = EXAMPLES[t]
        assert _first_version(msg.DOC) == msg.SINCE, t


@pytest.mark.parametrize("version", VERSIONS, ids=lambda v: f"{v[0]}.{v[1]}")
def test_every_request_type_is_gated_by_the_version_that_added_it(
    version: tuple[int, int],
) -> None:
    h = Harness()
    for n, t in enumerate(REQUESTS):
        c = h.connect()
        welcome = c.request(M.Hello(id=1, versions=[list(version)], name=f"p{n}"))
        assert isinstance(welcome, M.Welcome)
        example = EXAMPLES[t]
        fields = {"id": 99} if hasattr(example, "id") else {"re": 1}
        reply = c.request(replace(example, **fields))  # type: ignore[type-var]
        needed = _first_version(example.DOC)
        unknown = isinstance(reply, M.Error) and reply.code == "unknown_type"
        if version < needed:
            assert isinstance(reply, M.Error) and unknown, (t, version, reply)
            assert f"needs protocol {needed[0]}.{needed[1]}" in reply.message
        else:
            assert not unknown, (t, version, reply)
        c.drop()
