"""End to end over real loopback TCP: whole games, reconnects, restarts and `leekha serve`."""

from __future__ import annotations

import signal
import socket
from pathlib import Path
from typing import Any, cast

import pytest
import pytest_twisted
from helpers.loopback import (
    BlockingClient,
    Player,
    bot_table,
    hello,
    is_type,
    serve_process,
    within,
)
from helpers.server import VERSIONS, settings
from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol
from twisted.internet.error import CannotListenError

from leekha.common import cards as C
from leekha.common.config import RulesConfig
from leekha.common.game import legal_passes
from leekha.protocol import catalogue as M
from leekha.protocol.codec import Decoder, encode
from leekha.protocol.message import Message
from leekha.server.app import RunningServer, local_settings, start_server


async def connect(reactor: Any, port: int, client: Player) -> Player:
    endpoint = TCP4ClientEndpoint(reactor, "127.0.0.1", port)
    await within(connectProtocol(endpoint, client), reactor)
    return client


async def serve(reactor: Any, tmp: Path, **over: Any) -> RunningServer:
    over.setdefault("bot_think_ms", 1)
    return await start_server(reactor, settings(tmp, **over))


@pytest_twisted.ensureDeferred
async def test_a_whole_game_over_loopback_then_a_clean_shutdown(tmp_path: Path) -> None:
    from twisted.internet import reactor

    server = await serve(reactor, tmp_path)
    try:
        alice = await connect(reactor, server.port, Player())
        await hello(reactor, alice, "alice")
        watcher = await connect(reactor, server.port, Player(autoplay=False))
        await hello(reactor, watcher, "watcher")
        listing = await within(watcher.request(M.ListTables(id=watcher.rid())), reactor)
        assert isinstance(listing, M.TableList)
        await bot_table(reactor, alice)
        update = await within(watcher.wait_for(is_type(M.TableUpdate)), reactor)
        assert update.table is not None
        reply = await within(alice.request(M.Start(id=alice.rid())), reactor)
        assert isinstance(reply, M.Ok)
        over = await within(alice.wait_for(is_type(M.GameOver)), reactor)
        assert isinstance(over, M.GameOver) and max(over.totals) >= 20
        assert len(server.store.game_ids()) == 1
    finally:
        await server.stop()
    err = await within(alice.wait_for(is_type(M.Error)), reactor)
    assert err.code == "server_shutdown"
    await within(alice.lost, reactor)


@pytest_twisted.ensureDeferred
async def test_reconnect_mid_trick_gets_the_seat_back(tmp_path: Path) -> None:
    from twisted.internet import reactor

    server = await serve(reactor, tmp_path, seat_grace_s=60.0)
    try:
        alice = await connect(reactor, server.port, Player(autoplay=False))
        welcome = await hello(reactor, alice, "alice")
        table_id = await bot_table(reactor, alice)
        await within(alice.request(M.Start(id=alice.rid())), reactor)
        alice.answer(await within(alice.wait_for(is_type(M.YourTurn)), reactor))  # the pass
        prompt = await within(alice.wait_for(is_type(M.YourTurn)), reactor)
        assert prompt.phase == "play"
        game = server.lobby.tables[table_id].game
        assert game is not None
        hand_before = C.cards_of(game.hands[0])
        assert alice.transport is not None
        cast(Any, alice.transport).loseConnection()  # zope interface: no `self` for mypy
        await within(alice.lost, reactor)

        back = await connect(reactor, server.port, Player())
        back.send(M.Resume(id=1, versions=VERSIONS, token=welcome.token))
        again = await within(back.wait_for(is_type(M.Welcome)), reactor)
        assert again.resumed
        snap = await within(back.wait_for(is_type(M.Snapshot)), reactor)
        assert snap.your_seat == 0 and snap.view is not None
        assert len(snap.view["trick"]) == 3, "seats 1-3 played; the trick waits for us"
        assert snap.view["hand"] == hand_before
        await within(back.wait_for(is_type(M.GameOver)), reactor)
    finally:
        await server.stop()


@pytest_twisted.ensureDeferred
async def test_restart_from_the_database_over_loopback(tmp_path: Path) -> None:
    from twisted.internet import reactor

    first = await serve(reactor, tmp_path, seat_grace_s=60.0)
    alice = await connect(reactor, first.port, Player(autoplay=False))
    welcome = await hello(reactor, alice, "alice")
    table_id = await bot_table(reactor, alice)
    await within(alice.request(M.Start(id=alice.rid())), reactor)
    alice.answer(await within(alice.wait_for(is_type(M.YourTurn)), reactor))
    await within(alice.wait_for(lambda m: isinstance(m, M.YourTurn) and m.phase == "play"), reactor)
    game = first.lobby.tables[table_id].game
    assert game is not None
    actions = list(game.actions)
    await first.abandon()  # like kill -9: no goodbye, nothing flushed
    await within(alice.lost, reactor)

    second = await serve(reactor, tmp_path, seat_grace_s=60.0)
    try:
        restored = second.lobby.tables[table_id]
        assert restored.game is not None and restored.game.actions == actions
        back = await connect(reactor, second.port, Player())
        back.send(M.Resume(id=1, versions=VERSIONS, token=welcome.token))
        snap = await within(back.wait_for(is_type(M.Snapshot)), reactor)
        assert snap.your_seat == 0 and snap.table["status"] == "playing"
        await within(back.wait_for(is_type(M.GameOver)), reactor)
        assert len(second.store.game_ids()) == 1
    finally:
        await second.stop()
        first.store.close()


@pytest_twisted.ensureDeferred
async def test_seat_takeover_over_loopback_is_refused(tmp_path: Path) -> None:
    from twisted.internet import reactor

    server = await serve(reactor, tmp_path)
    try:
        alice = await connect(reactor, server.port, Player(autoplay=False))
        await hello(reactor, alice, "alice")
        table_id = await bot_table(reactor, alice)
        mallory = await connect(reactor, server.port, Player(autoplay=False))
        reply = await within(
            mallory.request(M.Resume(id=1, versions=VERSIONS, token="x" * 32)), reactor
        )
        assert isinstance(reply, M.Error) and reply.code == "bad_token"
        await hello(reactor, mallory, "mallory")
        reply = await within(
            mallory.request(M.JoinSeat(id=mallory.rid(), table_id=table_id, seat=0)), reactor
        )
        assert isinstance(reply, M.Error) and reply.code == "seat_taken"
        reply = await within(mallory.request(M.Start(id=mallory.rid())), reactor)
        assert isinstance(reply, M.Error) and reply.code == "not_seated"
    finally:
        await server.stop()


def _read_frame(sock: socket.socket, decoder: Decoder) -> Message:
    while True:
        data = sock.recv(65536)
        if not data:
            raise AssertionError("connection closed")
        got = decoder.feed(data)
        if got:
            return got[0]


@pytest.mark.slow  # starts a process or a pty: not in the fast lane
@pytest.mark.timeout(60)
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_leekha_serve_process_prints_its_port_and_shuts_down_cleanly(
    tmp_path: Path, sig: signal.Signals
) -> None:
    # Started as a shell starts a background job: SIGINT ignored. It must stop anyway.
    proc, port = serve_process(tmp_path, ignore_sigint=True)
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            decoder = Decoder(peer="server")
            sock.sendall(encode(M.Hello(id=1, versions=VERSIONS, name="cli")))
            assert isinstance(_read_frame(sock, decoder), M.Welcome)
            proc.send_signal(sig)
            err = _read_frame(sock, decoder)
            assert isinstance(err, M.Error) and err.code == "server_shutdown"
        assert proc.wait(timeout=20) == 0
        assert (tmp_path / "leekha.sqlite3").is_file()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest_twisted.ensureDeferred
async def test_an_embedded_server_with_local_settings(tmp_path: Path) -> None:
    from twisted.internet import reactor

    server = await start_server(reactor, local_settings(tmp_path, bot_think_ms=1))
    try:
        assert server.host == "127.0.0.1" and server.port > 0 and server.announcing is None
        alice = await connect(reactor, server.port, Player())
        await hello(reactor, alice, "alice")
        table_id = await bot_table(reactor, alice, target=10)
        summary = server.lobby.tables[table_id].summary()
        assert summary["timers"] == {"pass_s": None, "turn_s": None}
    finally:
        await server.stop()
    busy = await start_server(reactor, local_settings(tmp_path))
    try:
        with pytest.raises(CannotListenError):  # the port is taken: a clear failure
            await start_server(reactor, local_settings(tmp_path / "other", port=busy.port))
    finally:
        await busy.stop()


@pytest.mark.slow  # starts a process or a pty: not in the fast lane
@pytest.mark.timeout(60)
def test_kill_9_then_restart_on_the_same_data_folder(tmp_path: Path) -> None:
    proc, port = serve_process(tmp_path, "--bot-think-ms", "1", "--seat-grace-s", "60")
    try:
        c = BlockingClient(port)
        c.send(M.Hello(id=c.rid(), versions=VERSIONS, name="alice"))
        token = c.until_a(M.Welcome).token
        c.send(M.CreateTable(id=c.rid(), name="k9", overrides={"target": 15}))
        rules = RulesConfig.from_dict(c.until_a(M.Snapshot).table["rules"])
        for seat in (1, 2, 3):
            c.send(M.AddBot(id=c.rid(), seat=seat, strategy="random"))
        c.send(M.Start(id=c.rid()))
        dealt = c.until(lambda m: isinstance(m, M.Snapshot) and m.view is not None)
        assert isinstance(dealt, M.Snapshot) and dealt.view is not None
        hand = dealt.view["hand"]
        c.until(is_type(M.YourTurn))
        c.send(M.PassCards(id=c.rid(), cards=list(next(legal_passes(rules, C.mask_of(hand))))))
        c.until(lambda m: isinstance(m, M.YourTurn) and m.phase == "play")
    finally:
        proc.kill()  # SIGKILL: no shutdown code runs
        proc.wait()
    c.close()
    proc, port = serve_process(tmp_path, "--bot-think-ms", "1", "--seat-grace-s", "60")
    try:
        c = BlockingClient(port)
        c.send(M.Resume(id=c.rid(), versions=VERSIONS, token=token))
        welcome = c.until(lambda m: isinstance(m, M.Welcome | M.Error))
        assert isinstance(welcome, M.Welcome) and welcome.resumed
        snap = c.until_a(M.Snapshot)
        assert snap.your_seat == 0 and snap.view is not None
        assert snap.view["phase"] == "play" and len(snap.view["hand"]) == 13
        prompt = c.until_a(M.YourTurn)
        assert prompt.phase == "play"
        c.close()
    finally:
        proc.terminate()
        assert proc.wait(timeout=20) == 0
