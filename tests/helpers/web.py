"""The browser end-to-end tests' tools: Debian's chromium driven by Playwright (never a
downloaded browser), a real `leekha serve` with its table page, and a guest who acts on the
page by clicks only.

pytest runs the asyncio reactor's loop on its own thread (pytest-twisted), and Playwright's
sync API refuses to run inside a running loop, so each browser scene runs on a thread of
its own (`on_thread`). Outside CI a missing chromium skips the tests with the reason; under
CI (the env variable CI set, as .ci/run does) it fails them.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import msgpack
import pytest

from helpers.processes import Proc, serve

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, WebSocket

T = TypeVar("T")

#: The guests of this thread's scene, for a failure's account.
_here = threading.local()

CHROMIUM = Path(os.environ.get("LEEKHA_CHROMIUM", "/usr/bin/chromium"))
#: Flags for a quiet, offline, throw-away browser (Playwright adds a fresh user-data dir).
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
#: Milliseconds a page action or wait may take on a loaded machine.
STEP_MS = 15_000


def browser_missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install -e '.[dev]')"
    if not CHROMIUM.exists():
        return f"no chromium at {CHROMIUM} (Debian: apt-get install chromium fonts-noto-core)"
    return None


def require_browser() -> None:
    """Skip the test where no browser can run; under CI, fail it instead."""
    why = browser_missing()
    if why is None:
        return
    if os.environ.get("CI"):
        pytest.fail(f"CI must run the browser tests: {why}")
    pytest.skip(why)


def on_thread(body: Callable[[], T], timeout: float) -> T:
    """`body()` on a thread of its own (no asyncio loop running there), its result or its
    exception; an AssertionError if it takes longer than `timeout` seconds."""
    out: list[T] = []
    err: list[BaseException] = []

    def run() -> None:
        try:
            out.append(body())
        except BaseException as e:
            err.append(e)

    def run_here() -> None:
        _here.guests = []
        run()

    worker = threading.Thread(target=run_here, name="browser", daemon=True)
    worker.start()
    worker.join(timeout)
    if worker.is_alive():
        raise AssertionError(f"the browser scene took over {timeout:.0f} s")
    if err:
        raise err[0]
    return out[0]


@contextmanager
def chromium(shots: Path | None = None) -> Iterator[Browser]:
    """Debian's chromium under Playwright. When the body fails, a screenshot of each open
    page goes to `shots` and the failure's note names it."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, timeout=60_000)
        try:
            yield browser
        except BaseException as e:
            if shots is not None:
                for path in screenshots(browser, shots):
                    e.add_note(f"screenshot: {path}")
            for guest in getattr(_here, "guests", []):
                e.add_note(f"{guest.name}'s last messages: " + ", ".join(guest.wire[-30:]))
                if guest.errors:
                    e.add_note(f"{guest.name}'s page errors: {guest.errors}")
            raise
        finally:
            browser.close()


def screenshots(browser: Browser, folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i, context in enumerate(browser.contexts):
        for j, page in enumerate(context.pages):
            path = folder / f"failed-{i}-{j}.png"
            try:
                page.screenshot(path=str(path), full_page=True, timeout=5_000)
            except Exception:  # the page itself may be what broke
                continue
            paths.append(path)
    return paths


@dataclass
class WebServer:
    proc: Proc
    port: int
    url: str

    @property
    def web_port(self) -> int:
        return int(self.url.rsplit(":", 1)[1].strip("/"))


@contextmanager
def web_serve(
    tmp: Path, data: Path, *extra: str, port: int = 0, web_port: int = 0
) -> Iterator[WebServer]:
    """A real `leekha serve` on 127.0.0.1 with its table page: `web_port` 0 is the server's
    default (with `--port 0`, an ephemeral one), another the same port again (a restart)."""
    web = ("--web", f"tcp:{web_port}:interface=127.0.0.1") if web_port else ()
    with serve(tmp, port, data, *web, *extra) as (proc, tcp_port):
        m = proc.wait_line(r"table page: (http://[\d.]+:\d+/)")
        yield WebServer(proc, tcp_port, m.group(1))


def new_page(browser: Browser, lang: str = "en", width: int = 900, height: int = 800) -> Page:
    """A page in a fresh context (its own storage: its own person)."""
    context = browser.new_context(locale=lang, viewport={"width": width, "height": height})
    context.set_default_timeout(STEP_MS)
    return context.new_page()


class Guest:
    """A person on the page, by clicks: the name, the lobby, the table, the cards."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.name = "?"
        if not hasattr(_here, "guests"):
            _here.guests = []
        _here.guests.append(self)
        self.errors: list[str] = []
        #: The protocol messages both ways, in brief ("> play_card", "< error not_your_turn"),
        #: for a failure's account.
        self.wire: list[str] = []
        #: Taps the page lost (see `tap`).
        self.lost_taps = 0
        #: What the page logged as an error (a failed load, a refused script...).
        self.console: list[str] = []
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("console", lambda m: self.console.append(m.text) if m.type == "error" else None)
        page.on("websocket", self._watch)

    def _watch(self, ws: WebSocket) -> None:
        ws.on("framesent", lambda body: self.wire.append("> " + brief(body)))
        ws.on("framereceived", lambda body: self.wire.append("< " + brief(body)))
        ws.on("close", lambda _ws: self.wire.append("closed"))

    def enter(self, url: str, name: str) -> None:
        p, self.name = self.page, name
        p.goto(url)
        p.locator("#name-input").fill(name)
        p.locator("#name-go").click()
        p.locator("#lobby").wait_for(state="visible")
        p.wait_for_selector('#link-state[data-state="online"]')

    def create_table(
        self, name: str, *, target: int = 1, bots: tuple[str, str, str] = ("easy",) * 3
    ) -> None:
        """The create form: `target`, both timers off, a bot level (or "" for a person) for
        seats 2 to 4; then the table is on screen."""
        p = self.page
        p.locator("#new-table").click()
        p.locator("#cf-name").fill(name)
        p.locator("#cf-target").fill(str(target))
        p.locator("#cf-pass-timer").select_option("0")
        p.locator("#cf-turn-timer").select_option("0")
        for seat, level in enumerate(bots, start=1):
            p.locator(f'#cf-bots select[data-seat="{seat}"]').select_option(level)
        p.locator("#cf-create").click()
        p.locator("#table").wait_for(state="visible")
        filled = sum(1 for level in bots if level)
        p.wait_for_function(
            "n => document.querySelectorAll('.seat[data-control=\"bot\"]').length >= n", arg=filled
        )

    def hand(self) -> list[str]:
        return [c or "" for c in self.page.locator("#hand .card").evaluate_all(
            "els => els.map(e => e.dataset.card)")]  # fmt: skip

    def tap(self, card: str, done: str, arg: object = None, sent: str | None = None) -> None:
        """Click `card` in the hand until the JS predicate `done(arg)` holds. The page rebuilds
        the hand on each paint (every 500 ms while a clock runs or a status line shows), and a
        click whose press and release straddle a repaint is lost: such a tap is made again
        and counted in `lost_taps`; unless the message `sent` went out meanwhile, which then
        only waits for the server."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        for _ in range(3):
            mark = len(self.wire)
            try:
                self.page.locator(f'#hand .card[data-card="{card}"]').click(timeout=5_000)
            except PlaywrightTimeout:
                # The round's summary came up over the hand after the tap was decided on:
                # the page shows it once the round's last trick has had its moment on screen,
                # and the next deal's pass may already be there. Close it, as a guest would.
                summary = self.page.locator("#summary-continue")
                if not summary.is_visible():
                    raise
                summary.click()
                self.lost_taps += 1
                continue
            try:
                self.page.wait_for_function(done, arg=arg, timeout=3_000)
                return
            except PlaywrightTimeout:
                if sent is not None and any(w.startswith(f"> {sent}") for w in self.wire[mark:]):
                    self.page.wait_for_function(done, arg=arg)
                    return
                self.lost_taps += 1
        raise AssertionError(f"three taps on {card} did nothing")

    def pass_three(self) -> None:
        """Three cards of the longest suit (it keeps one: no suit passed away whole)."""
        hand = self.hand()
        suits: dict[str, list[str]] = {}
        for card in hand:
            suits.setdefault(card[-1], []).append(card)
        longest = max(suits.values(), key=len)
        for card in longest[:3]:
            chosen = "c => !!document.querySelector(`#hand .card.chosen[data-card='${c}']`)"
            self.tap(card, chosen, card)
        self.page.locator("#pass-confirm:enabled").click()
        self.page.wait_for_function("() => document.querySelector('#hand').dataset.mode !== 'pass'")

    def play_one(self) -> str:
        """Lift the first legal card, tap it again to play it; the card."""
        p = self.page
        card = p.locator("#hand .card.legal").first.get_attribute("data-card") or ""
        held = p.locator("#hand .card").count()
        lifted = "c => !!document.querySelector(`#hand .card.lifted[data-card='${c}']`)"
        self.tap(card, lifted, card)
        # Played: one card fewer (or, after the round's last card, a new deal of 13).
        fewer = "n => document.querySelectorAll('#hand .card').length !== n"
        self.tap(card, fewer, held, sent="play_card")
        return card

    def step(self) -> str:
        """One move if this seat has one: "over" at the game-over box, "summary" while a
        round's summary is open, "moved" after a move, "idle" otherwise."""
        p = self.page
        if p.locator("#game-stats").is_visible():
            return "over"
        if p.locator("#summary-continue").is_visible():
            return "summary"
        mode = p.locator("#hand").get_attribute("data-mode")
        if mode == "pass":
            self.pass_three()
            return "moved"
        if mode == "play" and p.locator("#hand .card.legal").count():
            self.play_one()
            return "moved"
        return "idle"

    def play_to_the_end(self, within: float, close_summaries: bool = True) -> int:
        """Every move of this seat until the game-over box, each round's summary closed (or
        until the first summary: `close_summaries` False). How many cards it played."""
        played = 0
        deadline = time.monotonic() + within
        while (done := self.step()) != "over":
            if time.monotonic() > deadline:
                raise AssertionError(f"no game over within {within:.0f} s ({played} played)")
            if done == "summary":
                if not close_summaries:
                    break
                self.page.locator("#summary-continue").click()
            elif done == "moved":
                played += 1
            else:
                self.page.wait_for_timeout(50)
        return played

    def stats(self) -> dict[str, list[int]]:
        """The game-over box's figures per seat, in seat order: points, tricks, Leekhas,
        moons (the terminal client's rows and the engine's tally)."""
        rows = self.page.locator("#game-stats tbody tr").evaluate_all(
            "rows => rows.map(r => [Number(r.dataset.seat),"
            " ...[...r.cells].slice(1).map(c => Number(c.textContent))])"
        )
        rows.sort()
        assert [r[0] for r in rows] == [0, 1, 2, 3], rows
        return {
            label: [r[i] for r in rows]
            for i, label in enumerate(("points", "tricks", "Leekhas", "moons"), start=1)
        }


def brief(body: str | bytes) -> str:
    """A WebSocket message in a few words: its type, and an error's code."""
    if isinstance(body, str):
        return f"text {body[:40]!r}"
    try:
        msg = msgpack.unpackb(body)
    except Exception:
        return f"{len(body)} undecodable bytes"
    if not isinstance(msg, dict):
        return repr(msg)[:60]
    extra = msg.get("code") or msg.get("card") or msg.get("phase") or ""
    return f"{msg.get('type')} {extra}".strip()
