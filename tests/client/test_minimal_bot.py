"""examples/minimal_bot.py (socket + msgpack, no leekha imports) plays whole games.

It is the proof that docs/protocol.md is enough to write a client, so it runs against a
real `leekha serve` process over loopback: once with three server bots, once with three
`leekha bot` clients joining its table by name.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest
from helpers.processes import Proc, bot, clean_env, serve, totals

# The fast lane leaves it out: it starts processes or ptys.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(120)]

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "minimal_bot.py"


def minimal(tmp: Path, port: int, *args: str) -> Proc:
    argv = [sys.executable, str(EXAMPLE), "127.0.0.1", str(port), "--seed", "1", *args]
    return Proc(argv, clean_env(tmp))


def test_example_uses_only_the_standard_library_and_msgpack() -> None:
    tree = ast.parse(EXAMPLE.read_text(encoding="utf-8"))
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            roots.add(node.module.split(".")[0])
    assert "leekha" not in roots and "twisted" not in roots
    assert roots - set(sys.stdlib_module_names) == {"msgpack"}


def test_example_turns_nagle_off_as_the_checklist_asks() -> None:
    import importlib.util
    import socket

    spec = importlib.util.spec_from_file_location("minimal_bot", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with socket.create_server(("127.0.0.1", 0)) as server:
        conn = module.Connection("127.0.0.1", server.getsockname()[1], timeout=5.0)
        try:
            assert conn.sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0
        finally:
            conn.sock.close()


def test_minimal_bot_plays_a_game_with_three_server_bots(tmp_path: Path) -> None:
    with serve(tmp_path) as (_server, port):
        proc = minimal(tmp_path, port, "--table", "solo", "--fill", "random", "--target", "30")
        try:
            assert proc.finish() == 0, proc.text()
            assert "game over: totals" in proc.text()
        finally:
            proc.kill()


def test_minimal_bot_hosts_three_leekha_bots(tmp_path: Path) -> None:
    with serve(tmp_path) as (_server, port):
        host = minimal(tmp_path, port, "--table", "mixed", "--target", "30")
        guests = None
        try:
            host.wait_line(r"seat 1 at table 'mixed'")
            guests = bot(tmp_path, port, "--table", "mixed", "--count", "3", "--name", "g")
            assert host.finish() == 0, host.text()
            assert guests.finish() == 0, guests.text()
            final = host.wait_line(r"game over: totals (\[[-\d, ]+\])", timeout=1).group(1)
            assert totals(guests) == final
        finally:
            host.kill()
            if guests is not None:
                guests.kill()


def test_unreachable_server_exits_2(tmp_path: Path) -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = minimal(tmp_path, port)
    try:
        assert proc.finish() == 2
        assert "cannot connect" in proc.text() and "Traceback" not in proc.text()
    finally:
        proc.kill()
