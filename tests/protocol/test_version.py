"""Version negotiation and the first-message rule."""

from __future__ import annotations

import pytest

from leekha.protocol import (
    PROTOCOL_VERSION,
    SUPPORTED_VERSIONS,
    Hello,
    Ping,
    PlayCard,
    ProtocolError,
    Resume,
    negotiate,
    require_handshake,
    speaks,
)
from leekha.protocol.version import CAN_DOUBLE, FEATURES, STATS, Feature, feature


def test_current_version() -> None:
    assert PROTOCOL_VERSION == (1, 4)
    assert PROTOCOL_VERSION in SUPPORTED_VERSIONS


@pytest.mark.parametrize(
    ("client", "server", "expected"),
    [
        ([[1, 0]], [(1, 0)], (1, 0)),
        ([[1, 5]], [(1, 0)], (1, 0)),  # newer client minor: ours
        ([[1, 0]], [(1, 3)], (1, 0)),  # older client minor: theirs
        ([[2, 0], [1, 2]], [(1, 1)], (1, 1)),  # only common major
        ([[2, 1], [1, 2]], [(2, 0), (1, 1)], (2, 0)),  # highest common major
        ([[2, 0]], [(1, 0)], None),
        ([], [(1, 0)], None),
        ([[1]], [(1, 0)], None),  # malformed entries ignored
        ([[1, 0], [1, 4]], [(1, 9)], (1, 4)),  # repeated major: its highest minor
    ],
)
def test_negotiate(
    client: list[list[int]], server: list[tuple[int, int]], expected: tuple[int, int] | None
) -> None:
    assert negotiate(client, server) == expected


def test_negotiate_defaults_to_what_this_package_speaks() -> None:
    assert negotiate([[1, 0]]) == (1, 0)  # a 1.0 client still gets in, at 1.0
    assert negotiate([[1, 1]]) == (1, 1)  # and a 1.1 client at 1.1
    assert negotiate([[1, 2]]) == (1, 2)
    assert negotiate([[1, 3]]) == (1, 3)
    assert negotiate([[1, 4]]) == (1, 4)
    assert negotiate([[1, 7]]) == (1, 4)
    assert negotiate([[0, 9]]) is None


def test_first_message_must_be_hello_or_resume() -> None:
    hello = Hello(id=1, versions=[[1, 0]], name="a")
    resume = Resume(id=2, versions=[[1, 0]], token="t")
    assert require_handshake(hello) is hello
    assert require_handshake(resume) is resume
    with pytest.raises(ProtocolError) as info:
        require_handshake(PlayCard(id=5, card=1))
    assert info.value.code == "not_hello_first"
    assert info.value.re == 5
    with pytest.raises(ProtocolError):
        require_handshake(Ping(id=1))


def test_speaks_compares_negotiated_versions_with_the_feature() -> None:
    assert speaks([1, 1], CAN_DOUBLE) and speaks([1, 2], CAN_DOUBLE) and speaks([2, 0], STATS)
    assert not speaks([1, 0], CAN_DOUBLE) and not speaks(None, CAN_DOUBLE)
    later = Feature("later", (1, 2))
    assert speaks([1, 2], later) and not speaks([1, 1], later)


def test_features_are_declared_once_and_no_newer_than_the_protocol() -> None:
    assert FEATURES["can_double"] is CAN_DOUBLE
    with pytest.raises(ValueError, match="already declared"):
        feature("can_double", (1, 1))
    with pytest.raises(ValueError, match="newer"):
        feature("from_the_future", (1, 99))
    assert "from_the_future" not in FEATURES
