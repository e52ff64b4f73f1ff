"""Attacks on the table page's listener (leekha.server.web, leekha.server.websocket) over
real loopback sockets, each found by an attacker's pass over the web server: the hostile
peer speaks raw HTTP and RFC 6455 frames from a thread (no client library tidies them up),
and what it may cost the server is bounded by the limits a TCP peer meets."""

from __future__ import annotations

import socket
import time
from pathlib import Path
from typing import Any

import msgpack
import pytest_twisted
from helpers.loopback import within
from helpers.server import settings
from twisted.internet.threads import deferToThread
from twisted.logger import capturedLogs

from leekha.server.app import RunningServer, start_server

UPGRADE = (
    "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
)


def frame(payload: bytes, opcode: int = 2) -> bytes:
    """One final client frame, masked with the all-zero key (the payload as it is)."""
    size = len(payload)
    if size < 126:
        head = bytes((0x80 | opcode, 0x80 | size))
    else:
        head = bytes((0x80 | opcode, 0x80 | 126)) + size.to_bytes(2, "big")
    return head + b"\0\0\0\0" + payload


def upgraded(port: int, rcvbuf: int | None = None) -> socket.socket:
    """A WebSocket opened by hand, its 101 answer read."""
    sock = socket.socket()
    if rcvbuf is not None:  # before connecting, so the window stays small
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.settimeout(10)
    sock.connect(("127.0.0.1", port))
    sock.sendall(UPGRADE.encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(1)
        assert chunk, head
        head += chunk
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


def hello_frame(name: str) -> bytes:
    return frame(msgpack.packb({"type": "hello", "id": 1, "name": name, "versions": [[1, 4]]}))


async def serve(reactor: Any, tmp: Path, **over: Any) -> RunningServer:
    return await start_server(reactor, settings(tmp / "data", **over), page=None)


def ping_flood(port: int, budget: int) -> int:
    """WebSocket pings with a protocol message now and then (so the frame allowance and the
    keepalive never object), reading nothing: the bytes sent before the server closed the
    connection, or `budget` if it never did."""
    sock = upgraded(port, rcvbuf=4096)
    sent = 0
    try:
        sock.sendall(hello_frame("pinger"))
        block = frame(b"p" * 125, opcode=9) * 50
        for rid in range(2, 1 << 30):
            if sent >= budget:
                return sent
            block_end = frame(msgpack.packb({"type": "ping", "id": rid}))
            sock.sendall(block + block_end)
            sent += len(block) + len(block_end)
    except OSError:
        return sent
    finally:
        sock.close()
    return sent


@pytest_twisted.ensureDeferred
async def test_a_peer_that_pings_and_never_reads_is_dropped(tmp_path: Path) -> None:
    """Every ping is answered with a pong Twisted holds for the peer; one that never reads
    met no cap (and, once a pong was held, its frames went past the output cap too): the
    server's memory grew without end. Now the pongs count against max_output_kib."""
    from twisted.internet import reactor

    server = await serve(
        reactor, tmp_path, max_output_kib=64, rate_limit_msgs_per_s=1e5, rate_burst=100_000
    )
    try:
        assert server.web is not None
        budget = 24 << 20  # far past the kernel's buffers and the 64 KiB cap
        with capturedLogs() as events:
            sent = await within(deferToThread(ping_flood, server.web.port, budget), reactor, 120)
        assert sent < budget, "the server never dropped a peer that does not read"
        why = [str(e.get("why", "")) for e in events]
        assert any("KiB of pongs waiting" in w for w in why), why
    finally:
        await server.stop()


def answer(sock: socket.socket) -> bytes:
    """What the server sends until it closes (or 10 s pass)."""
    out = b""
    try:
        while chunk := sock.recv(4096):
            out += chunk
    except OSError:
        pass
    return out


def held_open(port: int, count: int) -> tuple[list[bytes], bytes]:
    """`count` HTTP connections that send nothing, held open (the first lines of what
    each got within a second), then one more: what that one got."""
    socks = [socket.create_connection(("127.0.0.1", port), timeout=1) for _ in range(count)]
    try:
        firsts = []
        for sock in socks:
            try:
                firsts.append(sock.recv(100))
            except TimeoutError:
                firsts.append(b"")
        extra = socket.create_connection(("127.0.0.1", port), timeout=10)
        with extra:
            refused = answer(extra)
        # One of the first closed: a new one is let in again.
        socks.pop().close()
        time.sleep(0.2)
        with socket.create_connection(("127.0.0.1", port), timeout=10) as again:
            again.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            firsts.append(answer(again).split(b"\r\n", 1)[0])
        return firsts, refused
    finally:
        for sock in socks:
            sock.close()


@pytest_twisted.ensureDeferred
async def test_plain_http_connections_count_against_the_address_cap(tmp_path: Path) -> None:
    """HTTP connections that never became a WebSocket were not counted at all: one address
    could hold thousands (each a file descriptor, up to the process's limit) where the
    game port allows it max_connections_per_ip. Now one counts as a game connection does,
    and the one over the cap is told so in words and closed."""
    from twisted.internet import reactor

    server = await serve(reactor, tmp_path, max_connections_per_ip=3)
    try:
        assert server.web is not None
        firsts, refused = await within(deferToThread(held_open, server.web.port, 3), reactor, 30)
        assert firsts[:3] == [b"", b"", b""]  # held, unanswered: they asked nothing yet
        assert firsts[3] == b"HTTP/1.1 404 Not Found"  # no page here; but let in again
        head, _, body = refused.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 503"), refused
        assert body == b"too many connections from 127.0.0.1 (limit 3)\n"
    finally:
        await server.stop()


def trickle(port: int, every: float, seconds: float) -> float:
    """An HTTP request whose headers never end, one line every `every` seconds: how long
    the server kept the connection (`seconds` if it kept it all along)."""
    start = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        try:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
            while time.monotonic() - start < seconds:
                time.sleep(every)
                sock.sendall(b"X-Slow: 1\r\n")
        except OSError:
            pass
    return time.monotonic() - start


@pytest_twisted.ensureDeferred
async def test_a_slow_http_request_is_dropped_at_the_frame_deadline(tmp_path: Path) -> None:
    """A client that sends its request's headers a line at a time kept its connection for
    good: Twisted's idle timeout (60 s) starts again with every byte. Now a request begun
    must be answered within frame_timeout_s, as a frame begun must be whole."""
    from twisted.internet import reactor

    server = await serve(reactor, tmp_path, frame_timeout_s=0.5)
    try:
        assert server.web is not None
        with capturedLogs() as events:
            kept = await within(deferToThread(trickle, server.web.port, 0.1, 5.0), reactor, 30)
        assert kept < 3.0, f"a trickling HTTP client was kept {kept:.1f} s"
        why = [e.get("log_format", "") for e in events]
        assert any("HTTP request did not complete" in str(w) for w in why), why
    finally:
        await server.stop()


def exchange(port: int, request: bytes) -> bytes:
    """One request sent verbatim on a connection of its own; all the server answered."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request)
        head = b""
        while b"\r\n\r\n" not in head and (chunk := sock.recv(4096)):
            head += chunk
        top, _, body = head.partition(b"\r\n\r\n")
        length = [
            int(line.split(b":", 1)[1])
            for line in top.split(b"\r\n")
            if line.lower().startswith(b"content-length:")
        ]
        want = length[0] if length and not request.startswith(b"HEAD") else 0
        while len(body) < want and (chunk := sock.recv(4096)):
            body += chunk
        return top + b"\r\n\r\n" + body


def upgrade_with(*lines: str, method: str = "GET", without: str = "") -> bytes:
    """An upgrade request to /ws with `lines` in place of the headers of the same name
    (and none named `without`)."""
    names = {line.split(":", 1)[0].lower() for line in lines} | {without.lower()}
    base = [line for line in UPGRADE.split("\r\n")[1:] if line]
    kept = [line for line in base if line.split(":", 1)[0].lower() not in names]
    return "\r\n".join([f"{method} /ws HTTP/1.1", *kept, *lines, "", ""]).encode()


@pytest_twisted.ensureDeferred
async def test_a_malformed_upgrade_is_answered_in_words_and_not_logged(tmp_path: Path) -> None:
    """Twisted's WebSocket resource logs each failed upgrade as an error (a scanner fills
    the operator's log), headers h11 finds malformed (two `Host`) broke it with a traceback
    and a 500,
    and a HEAD with the upgrade headers was upgraded. Now each is a plain answer in words,
    counted, not logged; and a HEAD of a file logs no warning."""
    from twisted.internet import reactor

    server = await serve(reactor, tmp_path)
    try:
        assert server.web is not None
        port = server.web.port
        cases = {
            "two hosts": upgrade_with("Host: 127.0.0.1", "Host: a"),
            "no version": upgrade_with("Sec-WebSocket-Version: 8"),
            "no key": upgrade_with(without="Sec-WebSocket-Key"),
            "not an upgrade connection": upgrade_with("Connection: keep-alive"),
        }
        with capturedLogs() as events:
            answers = {
                case: await deferToThread(exchange, port, request)
                for case, request in cases.items()
            }
            head = await deferToThread(exchange, port, upgrade_with(method="HEAD"))
            plain = await deferToThread(exchange, port, b"HEAD / HTTP/1.1\r\nHost: x\r\n\r\n")
            got = await deferToThread(exchange, port, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        for case, reply in answers.items():
            top, _, body = reply.partition(b"\r\n\r\n")
            assert top.startswith(b"HTTP/1.1 400"), (case, reply)
            assert body.startswith(b"not a WebSocket upgrade: "), (case, reply)
        assert head.startswith(b"HTTP/1.1 426"), head
        assert head.endswith(b"\r\n\r\n")  # no body
        assert plain.startswith(b"HTTP/1.1 404") and plain.endswith(b"\r\n\r\n"), plain
        length = [x for x in got.split(b"\r\n") if x.lower().startswith(b"content-length")]
        assert length and length[0] in plain.split(b"\r\n"), (plain, got)
        loud = [
            e
            for e in events
            if (e["log_level"].name in ("warn", "error", "critical") or "eat it" in str(e))
            and "is not installed" not in str(e.get("log_format", ""))  # once, for the page
        ]
        assert not loud, loud
    finally:
        await server.stop()


def server_frame(buf: bytes) -> tuple[bytes | None, bytes] | None:
    """The first whole (unmasked, short or 16-bit length) server frame in `buf`: its body
    (None for a control frame) and what follows it, or None while it is not whole."""
    if len(buf) < 2:
        return None
    size, start = buf[1] & 0x7F, 2
    if size == 126:
        if len(buf) < 4:
            return None
        size, start = int.from_bytes(buf[2:4], "big"), 4
    if len(buf) < start + size:
        return None
    binary = buf[0] & 0x0F == 2
    return (buf[start : start + size] if binary else None), buf[start + size :]


def big_then_burst(port: int) -> list[Any]:
    """A ping of 8 KiB (padded with a field the server ignores) sent in two parts: the
    first alone, then its rest and 60 KiB of small pings in one write (one read on the
    server). What came back."""
    sock = upgraded(port)
    with sock:
        sock.sendall(hello_frame("bursty"))
        big = msgpack.packb({"type": "ping", "id": 2, "pad": "x" * 8000})
        whole = frame(big)
        small = b"".join(frame(msgpack.packb({"type": "ping", "id": i})) for i in range(3, 3003))
        sock.sendall(whole[:5000])
        time.sleep(0.3)  # read by the server on its own
        sock.sendall(whole[5000:] + small)
        got: list[Any] = []
        buf = b""
        sock.settimeout(5)
        try:
            while len(got) < 3002:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                buf += chunk
                while (parsed := server_frame(buf)) is not None:
                    body, buf = parsed
                    if body is not None:
                        got.append(msgpack.unpackb(body))
        except OSError:
            pass
        return got


@pytest_twisted.ensureDeferred
async def test_a_read_that_ends_a_message_and_goes_on_is_not_too_large(tmp_path: Path) -> None:
    """The bytes of a message begun were counted a read at a time before the read was
    handed on: a read that ended an 8 KiB message and went on with 60 KiB of others
    counted 8 + 64 KiB against the one message, and an honest peer was refused
    `frame_too_large`. Now a read is handed on in pieces that fit the message begun."""
    from twisted.internet import reactor

    server = await serve(reactor, tmp_path, rate_limit_msgs_per_s=1e5, rate_burst=100_000)
    try:
        assert server.web is not None
        got = await within(deferToThread(big_then_burst, server.web.port), reactor, 30)
        assert got[0]["type"] == "welcome", got[:2]
        errors = [m for m in got if m.get("type") == "error"]
        assert not errors, errors[:2]
        assert [m["re"] for m in got[1:]] == list(range(2, 3003))
    finally:
        await server.stop()
