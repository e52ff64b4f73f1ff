"""What the WebSocket refuses, end to end: a garbage message, a text one and an oversized one
sent from a page (its own WebSocket to /ws), as the first message (dropped without a word)
and after a welcome (the error, then the close); and a handshake from a foreign Origin on a
raw socket (403; the page's own origin gets 101). All while a guest plays a game at another
table, which must not notice: online throughout, to the game's end."""

from __future__ import annotations

import base64
import os
import socket
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from helpers.web import Guest, brief, chromium, new_page, on_thread, require_browser, web_serve

from leekha.client.refusals import MESSAGES as REFUSAL_WORDS
from leekha.protocol.codec import DEFAULT_MAX_FRAME

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = [pytest.mark.slow, pytest.mark.timeout(150)]

#: A fresh WebSocket from the page's origin: a hello first when `hello` (then the bad
#: message is a protocol error of a welcomed session), then one bad message; what came back
#: (a message's type, an error's code) and how it closed.
SEND = """async ([kind, size, hello]) => {
  const ws = new WebSocket(`ws://${location.host}/ws`);
  ws.binaryType = "arraybuffer";
  const got = [];
  let welcomed;
  const welcome = new Promise((r) => { welcomed = r; });
  ws.onmessage = (e) => {
    let m;
    try { m = MessagePack.decode(new Uint8Array(e.data)); } catch { m = null; }
    if (m && m.type === "welcome") welcomed();
    else got.push(m && m.type === "error" ? m.code : m ? m.type : "undecodable");
  };
  const closed = new Promise((r) => { ws.onclose = (e) => r({ code: e.code }); });
  await new Promise((r, j) => { ws.onopen = r; ws.onerror = () => j(new Error("no socket")); });
  if (hello) {
    ws.send(MessagePack.encode({ type: "hello", id: 1, versions: [[1, 4]], name: "probe" }));
    await welcome;
  }
  let body;
  if (kind === "garbage") body = new Uint8Array([0xc1, 0xff, 0x00, 0x13, 0x37]);
  else if (kind === "text") body = "hello?";
  else body = MessagePack.encode({ type: "chat", id: 2, text: "x".repeat(size) });
  ws.send(body);
  const end = await Promise.race([closed, new Promise((r) => setTimeout(() => r(null), 10000))]);
  return { closed: end, got };
}"""


def handshake(web_port: int, origin: str) -> str:
    """The status line a WebSocket upgrade to /ws from `origin` gets, on a raw socket."""
    key = base64.b64encode(os.urandom(16)).decode()
    request = (
        f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{web_port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
        f"Origin: {origin}\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", web_port), timeout=10) as s:
        s.sendall(request.encode())
        reply = b""
        while b"\r\n" not in reply:
            chunk = s.recv(4096)
            if not chunk:
                break
            reply += chunk
    return reply.split(b"\r\n", 1)[0].decode(errors="replace")


def test_garbage_oversized_and_foreign_origin_are_refused_and_a_game_goes_on(
    tmp_path: Path,
) -> None:
    require_browser()

    def scene() -> dict[str, Any]:
        # No penalty for the address of a protocol violation: each probe here comes from
        # 127.0.0.1, and each must meet its own refusal, not the last one's ban.
        with (
            web_serve(tmp_path, tmp_path / "data", "--kick-penalty-s", "0") as server,
            chromium(tmp_path / "shots") as browser,
        ):
            gus = Guest(new_page(browser))
            gus.enter(server.url, "gus")
            gus.page.evaluate("""() => { window.linkStates = [];
                new MutationObserver(() => linkStates.push(
                    document.querySelector('#link-state').dataset.state))
                .observe(document.querySelector('#link-state'), { attributes: true }); }""")
            gus.create_table("busy", target=1)
            gus.page.locator("#start").click()
            gus.page.wait_for_selector('#hand[data-mode="pass"]')

            other = new_page(browser)
            other.goto(server.url)
            big = DEFAULT_MAX_FRAME + 1024
            seen = {
                f"{kind}{' after hello' if hello else ''}": other.evaluate(SEND, [kind, big, hello])
                for kind in ("garbage", "text", "oversized")
                for hello in (False, True)
            }
            seen["foreign"] = handshake(server.web_port, "http://evil.example")
            seen["own"] = handshake(server.web_port, server.url.rstrip("/"))
            gus.play_to_the_end(within=90)
            seen["states"] = gus.page.evaluate("() => window.linkStates")
            seen["errors"] = gus.errors
            seen["server"] = server.proc.text()
            return seen

    seen = on_thread(scene, 140)
    expected = {"garbage": "bad_msgpack", "text": "bad_frame", "oversized": "frame_too_large"}
    for kind, code in expected.items():
        # The first message bad: dropped without a word (docs/protocol.md, "WebSocket").
        first = seen[kind]
        assert first["closed"] is not None and first["got"] == [], f"{kind}: {first}"
        # After a welcome: the error, as on TCP, then the close.
        later = seen[f"{kind} after hello"]
        assert later["closed"] is not None and later["got"] == [code], f"{kind}: {later}"
    assert " 403 " in seen["foreign"] + " ", seen["foreign"]
    assert " 101 " in seen["own"], seen["own"]
    # gus's game went on to its end without a drop: online the whole time.
    assert all(s == "online" for s in seen["states"]), seen["states"]
    assert not seen["errors"], seen["errors"]
    assert "Traceback" not in seen["server"], seen["server"]


def test_a_refused_hello_closed_by_both_ends_at_once_is_no_server_error(tmp_path: Path) -> None:
    """dup is in the lobby; a second browser asks for the name dup: `bad_name`, and that
    page closes its WebSocket while the server's hello deadline closes it too, ten seconds
    on. The server's log holds no error; once dup's browser is closed, the name is free
    (its connection ended: the close of a WebSocket reaches the session)."""
    require_browser()

    def visit(browser: Browser, url: str) -> tuple[Page, list[str]]:
        context = browser.new_context()
        context.add_init_script("localStorage.setItem('leekha.name', 'dup')")
        page = context.new_page()
        replies: list[str] = []
        page.on("websocket", lambda ws: ws.on(
            "framereceived", lambda body: replies.append(brief(body))))  # fmt: skip
        page.goto(url)
        for _ in range(100):  # the welcome, or the refusal
            if replies:
                break
            page.wait_for_timeout(100)
        return page, replies

    def scene() -> tuple[list[str], list[str], list[str], str]:
        with web_serve(tmp_path, tmp_path / "data") as server, chromium() as browser:
            first, held = visit(browser, server.url)
            second, refused = visit(browser, server.url)
            second.wait_for_timeout(12_000)
            first.context.close()
            second.context.close()
            time.sleep(1)
            _, again = visit(browser, server.url)
            return held, refused, again, server.proc.text()

    held, refused, again, log = on_thread(scene, 60)
    assert held[:1] == ["welcome"], held
    assert "error bad_name" in refused, refused
    assert again[:1] == ["welcome"], again
    assert "Traceback" not in log and "critical" not in log, log


def test_a_refused_name_is_said_by_the_field_and_the_page_is_offline_until_the_next(
    tmp_path: Path,
) -> None:
    """ann is in the lobby; a second browser asks for the name ann: the name form says why
    (the code's words in the catalogue), the header says offline, nothing reconnects; the
    next name enters the lobby and the words go."""
    require_browser()
    words = REFUSAL_WORDS["bad_name"]

    def scene() -> dict[str, Any]:
        with web_serve(tmp_path, tmp_path / "data") as server, chromium() as browser:
            Guest(new_page(browser)).enter(server.url, "ann")
            p = new_page(browser)
            p.goto(server.url)
            p.locator("#name-input").fill("ann")
            p.locator("#name-go").click()
            p.wait_for_function("() => document.querySelector('#name-problem').textContent")
            p.wait_for_timeout(1_500)  # a reconnection would have begun by now
            seen: dict[str, Any] = {
                "problem": p.locator("#name-problem").inner_text(),
                "state": p.locator("#link-state").get_attribute("data-state"),
                "header": p.locator("#link-state").inner_text(),
                "form": p.locator("#name-entry").is_visible(),
            }
            p.locator("#name-input").fill("ann2")
            p.locator("#name-go").click()
            p.locator("#lobby").wait_for(state="visible")
            p.wait_for_selector('#link-state[data-state="online"]')
            seen["after"] = p.locator("#name-problem").inner_text()
            return seen

    seen = on_thread(scene, 60)
    assert seen["problem"] == words, seen
    assert seen["state"] == "offline" and seen["header"] == "offline", seen
    assert seen["form"], seen
    assert seen["after"] == "", seen
