"""The server builds its hottest messages unchecked (`Message.trusted`): what it sends must
still be exactly what the checked messages would have been.

Under the test suite every trusted message is also built the checked way and compared
(tests/conftest.py turns `verify_trusted` on); here a whole game runs with it off, as on a
server, and every frame a seat and a spectator received is decoded by a client's decoder
(every field checked against its spec) and encoded again from the checked message: the
bytes must be the same.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import cast

import pytest
from helpers.server import FakeClient, Harness, play_until

from leekha.protocol import catalogue as M
from leekha.protocol.codec import Decoder, encode
from leekha.protocol.errors import ProtocolError
from leekha.protocol.message import verify_trusted
from leekha.protocol.version import PROTOCOL_VERSION


@pytest.fixture
def as_a_server() -> Iterator[None]:
    """`Message.trusted` as a server runs it: unchecked."""
    before = verify_trusted(False)
    try:
        yield
    finally:
        verify_trusted(before)


def newest(h: Harness, name: str) -> FakeClient:
    """A client that speaks the newest version: it is sent every message there is."""
    client = h.connect()
    versions = [list(PROTOCOL_VERSION)]
    welcome = client.request(M.Hello(id=client.rid(), versions=versions, name=name))
    assert isinstance(welcome, M.Welcome), welcome
    client.token = welcome.token
    return client


def recorded(client: FakeClient) -> bytearray:
    """Every byte the server writes to `client` from now on (FakeClient.read clears)."""
    seen = bytearray()
    clear = cast(Callable[[], None], client.transport.clear)  # Twisted's: untyped

    def keep() -> None:
        seen.extend(client.transport.value())
        clear()

    client.transport.clear = keep  # type: ignore[method-assign]
    return seen


def test_every_frame_of_a_game_is_what_the_checked_messages_encode(as_a_server: None) -> None:
    h = Harness(bot_think_ms=5)
    host = newest(h, "host")
    tid = h.table_with_bots(host, preset="classic", overrides={"target": 40})
    watcher = newest(h, "watcher")
    assert isinstance(watcher.request(M.Spectate(id=watcher.rid(), table_id=tid)), M.Snapshot)
    streams = [recorded(host), recorded(watcher)]
    assert isinstance(host.request(M.Start(id=host.rid())), M.Ok)
    table = h.lobby.tables[tid]

    def over() -> bool:
        watcher.read()
        return table.game is not None and table.game.outcome is not None

    play_until(h, [host], tid, over, limit=3600)
    host.read()
    watcher.read()
    seen: set[str] = set()
    for data in streams:
        messages = Decoder(peer="server").feed(bytes(data))  # every field checked
        assert b"".join(encode(m) for m in messages) == bytes(data)
        seen |= {m.TYPE for m in messages}
    trusted = {"dealt", "pass_done", "passed_received", "card_played", "trick_taken"}
    trusted |= {"round_scored", "game_over", "your_turn", "turn", "ok"}
    assert trusted <= seen, trusted - seen


def test_trusted_is_checked_under_test_and_refuses_what_checking_would_change() -> None:
    before = verify_trusted(True)
    try:
        with pytest.raises(ProtocolError):
            M.CardPlayed.trusted(seat=4, card=0)  # seat out of range
        with pytest.raises(AssertionError, match="differs from its checked form"):
            M.YourTurn.trusted(phase="pass", legal=[3, 1, 2])  # a card set goes out sorted
        assert M.CardPlayed.trusted(seat=1, card=49) == M.CardPlayed(seat=1, card=49)
    finally:
        verify_trusted(before)


def test_trusted_fills_defaults_and_makes_each_its_own(as_a_server: None) -> None:
    first = M.YourTurn.trusted(phase="play", legal=[5])
    second = M.YourTurn.trusted(phase="play", legal=[6])
    assert first == M.YourTurn(phase="play", legal=[5], deadline=None, can_double=[])
    assert first.can_double is not second.can_double  # a default_factory, called per message
    assert M.CardPlayed.trusted(seat=9, card=99).seat == 9  # unchecked, as a server runs it
