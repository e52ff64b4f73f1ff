"""The terminal client end to end: real loopback server, real keys through a pipe.

prompt_toolkit runs on the asyncio loop that pytest-twisted's asyncio reactor drives, so
the app, the client session and the server all share one loop, as in `leekha play`.
"""

from __future__ import annotations

import asyncio
import os
import pty
import select
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers.tui import (
    WAIT,
    aio,
    get_reactor,
    play_args,
    play_whole_game,
    press,
    reactor_test,
    started,
    until,
)
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from twisted.internet.defer import Deferred

from leekha.client.session import retry_policy
from leekha.client.tui import model as M
from leekha.client.tui import play
from leekha.client.tui.app import ClientApp


@reactor_test
async def test_play_a_whole_game_by_keyboard_then_quit(tmp_path: Path) -> None:
    async def main() -> None:
        # Each finished trick is held 50 ms: the app's timer must release it.
        args = play_args("--rule", "target=10", "--trick-hold", "0.05", "--data", str(tmp_path))
        async with started(play.play_main, args) as (client, inp, task):
            m = client.model
            await until(client, lambda: client.table_drawn_at is not None, "table drawn")
            assert [p["is_bot"] for p in m.game.players] == [False, True, True, True]
            await play_whole_game(client, inp)
            result = m.game.view.result if m.game.view else None
            assert result is not None and max(result["totals"]) >= 10
            await press(client, inp, "r", lambda: m.at_table.rematch_voted, "rematch voted")
            await until(client, lambda: m.game.phase == "pass", "rematch dealt")
            await press(client, inp, "q", lambda: m.quit_confirm, "quit asked")
            inp.send_text("q")
            assert await asyncio.wait_for(task, WAIT) == 0
            assert not client.session.online

    await aio(main())
    from leekha.server.domain.persistence import Store

    store = Store.in_dir(tmp_path)  # the finished game is kept for records and replay
    try:
        (game_id,) = store.game_ids()
        record = store.game_record(game_id)
        assert record is not None and record["players"][0] == "tester"
        assert [p.games for p in store.stats("tester")] == [1]
    finally:
        store.close()


@reactor_test
async def test_a_whole_game_over_tls_with_a_self_signed_certificate(tmp_path: Path) -> None:
    """`leekha serve --tls` (self-signed, made on first run) and `leekha join --tls`."""
    from leekha.client.trust import KnownHosts
    from leekha.server.app import local_settings, start_server

    async def main() -> None:
        loop = asyncio.get_running_loop()
        settings = local_settings(tmp_path / "data", tls=True, bot_think_ms=0)
        server = await Deferred.fromCoroutine(start_server(get_reactor(), settings)).asFuture(loop)
        known = KnownHosts(tmp_path / "known_hosts")
        try:
            auto = M.AutoSetup(name="t", preset="classic", overrides={"target": 10}, bot="random")
            model = M.ClientModel("tls", auto=auto)
            with create_pipe_input() as inp:
                client = ClientApp(
                    model, get_reactor(), "127.0.0.1", server.port, tls=True,
                    known_hosts=known, input=inp, output=DummyOutput(),
                )  # fmt: skip
                await client.connect()
                pinned = known.get(f"127.0.0.1:{server.port}")
                assert pinned is not None
                assert client.notices and pinned in client.notices[0]
                task = asyncio.ensure_future(client.run())
                await play_whole_game(client, inp)
                assert model.game.view is not None and model.game.view.result is not None
                inp.send_text("qq")
                assert await asyncio.wait_for(task, WAIT) == 0
        finally:
            await Deferred.fromCoroutine(server.stop()).asFuture(loop)

    await aio(main())


@reactor_test
async def test_reconnects_and_resumes_the_same_seat() -> None:
    from leekha.server.app import start_server
    from leekha.server.settings import ServerSettings

    async def main(tmp: Path) -> None:
        settings = ServerSettings(
            host="127.0.0.1", port=0, data_dir=tmp, announce=False, bot_think_ms=0
        )
        server = await Deferred.fromCoroutine(start_server(get_reactor(), settings)).asFuture(
            asyncio.get_running_loop()
        )
        try:
            auto = M.AutoSetup(name="t", preset="classic", overrides={}, bot="random")
            model = M.ClientModel("resumer", auto=auto)
            with create_pipe_input() as inp:
                client = ClientApp(
                    model,
                    get_reactor(),
                    "127.0.0.1",
                    server.port,
                    input=inp,
                    output=DummyOutput(),
                    retry=retry_policy(first=0.02),
                )
                await client.connect()
                task = asyncio.ensure_future(client.run())
                await until(client, lambda: model.game.phase == "pass" and model.my_turn, "dealt")
                hand = list(model.hand)
                client.session.drop()
                await until(
                    client, lambda: model.link.state == M.RECONNECTING, "reconnecting shown"
                )
                await until(
                    client,
                    lambda: client.session.resumes == 1 and model.link.state == M.ONLINE,
                    "resumed",
                )
                await until(
                    client,
                    lambda: model.game.view is not None and model.hand == hand,
                    "snapshot restores the hand",
                )
                assert model.game.your_seat == 0 and model.screen == M.TABLE
                inp.send_text("qq")
                assert await asyncio.wait_for(task, WAIT) == 0
        finally:
            await Deferred.fromCoroutine(server.stop()).asFuture(asyncio.get_running_loop())

    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        await aio(main(Path(tmp)))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@reactor_test
async def test_bad_address_is_a_plain_message(capsys: pytest.CaptureFixture[str]) -> None:
    from leekha.client.tui.join import join_main

    port = free_port()
    rc = await aio(join_main(get_reactor(), "127.0.0.1", port, "x", output=DummyOutput()))
    assert rc == 1
    err = capsys.readouterr().err
    assert f"cannot connect to 127.0.0.1:{port}: connection refused" in err
    assert "Traceback" not in err


def test_join_rejects_a_malformed_address(capsys: pytest.CaptureFixture[str]) -> None:
    from leekha.client.cli import main

    assert main(["join", "host:99999"]) == 2
    assert "bad port '99999'" in capsys.readouterr().err


def run_in_pty(argv: list[str], timeout: float) -> tuple[int, bytes]:
    """Run a command on a pseudo-terminal (a real 80x24 screen) and collect its output."""
    master, slave = pty.openpty()
    import fcntl
    import struct
    import termios

    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = dict(os.environ, TERM="xterm-256color")
    proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True)
    os.close(slave)
    out = bytearray()
    deadline = time.monotonic() + timeout
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                proc.kill()
                raise AssertionError(f"{argv} did not finish; output: {bytes(out[-2000:])!r}")
            ready, _, _ = select.select([master], [], [], min(left, 0.5))
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:
                    chunk = b""
                if not chunk:
                    break
                out.extend(chunk)
            elif proc.poll() is not None:
                break
        return proc.wait(timeout=5), bytes(out)
    finally:
        os.close(master)


@pytest.mark.slow  # starts a process or a pty: not in the fast lane
def test_leekha_play_starts_draws_and_exits_cleanly(tmp_path: Path) -> None:
    marker = tmp_path / "drawn"
    leekha = str(Path(sys.executable).with_name("leekha"))
    rc, out = run_in_pty(
        [
            leekha,
            "play",
            "--strategy",
            "random",
            "--exit-when-drawn",
            "--report-drawn",
            str(marker),
            "--data",
            str(tmp_path / "games"),
        ],
        timeout=30,
    )
    assert rc == 0, out[-2000:]
    assert marker.exists()
    assert (tmp_path / "games" / "leekha.sqlite3").is_file(), "the games are kept"
    assert b"Traceback" not in out
    assert "♠".encode() in out or b"S" in out


@reactor_test
async def test_lobby_create_fill_start_and_leave_by_keys() -> None:
    from leekha.client.tui.join import join_main
    from leekha.server.app import start_server
    from leekha.server.settings import ServerSettings

    async def main(tmp: Path) -> None:
        loop = asyncio.get_running_loop()
        settings = ServerSettings(
            host="127.0.0.1", port=0, data_dir=tmp, announce=False, bot_think_ms=0
        )
        server = await Deferred.fromCoroutine(start_server(get_reactor(), settings)).asFuture(loop)
        try:
            async with started(join_main, "127.0.0.1", server.port, "host") as (client, inp, task):
                m = client.model
                await until(client, lambda: m.screen == M.LOBBY, "lobby")
                await press(client, inp, "n", lambda: m.boxes.form is not None, "form open")
                inp.send_text("\x1b[B\x1b[C")  # down to rules, right: the next preset
                await press(client, inp, "\r", lambda: m.screen == M.TABLE, "table created")
                assert m.game.table is not None and m.game.table["preset"] != "classic"
                assert m.game.is_host and m.game.status_word == "waiting"
                for filled in (2, 3, 4):

                    def seated(f: int = filled) -> bool:
                        return sum(1 for p in m.game.players if p.get("name")) == f

                    await press(client, inp, "b\r", seated, f"{filled} seats filled")
                await press(client, inp, "s", lambda: m.game.phase == "pass", "game started")
                # Mid-game, leaving gives the seat up for good: L asks, L again leaves.
                await press(client, inp, "L", lambda: m.at_table.leave_confirm, "leaving asked")
                await press(client, inp, "L", lambda: m.screen == M.LOBBY, "back in the lobby")
                await until(client, lambda: not m.core.requests, "the table list answered")
                inp.send_text("qq")
                assert await asyncio.wait_for(task, WAIT) == 0
        finally:
            await Deferred.fromCoroutine(server.stop()).asFuture(loop)

    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        await aio(main(Path(tmp)))
