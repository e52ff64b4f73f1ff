"""What a newcomer with only a browser met on the table page, end to end against a real
`leekha serve`: the host of a waiting table was told to wait for the host (itself), and a
quick-play table showed that line and a start button with no word of the bots that fill it
after the server's wait; a name of spaces only did nothing on the click; a watcher asked for
a table's password was offered "join"; the language switch left an open form half in the
old language."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest
from helpers.pty import LEEKHA
from helpers.web import Guest, chromium, new_page, on_thread, require_browser, web_serve

from leekha.client import webwords
from leekha.client.refusals import MESSAGES as REFUSAL_WORDS

pytestmark = [pytest.mark.slow, pytest.mark.timeout(150)]

TURN = "() => document.querySelector('#turn').textContent"
#: What the new-table form shows and holds.
READ_FORM = """() => {
  const q = (s) => document.querySelector(s), shown = (s) => q(s).selectedOptions[0].textContent;
  return {
    legends: [...document.querySelectorAll('#create-form legend')].map(e => e.textContent),
    preset: shown('#cf-preset'), timer: shown('#cf-pass-timer'),
    level: shown('#cf-bots select[data-seat="1"]'),
    doubling: q('#cf-overrides input[data-rule="doubling"]').checked, name: q('#cf-name').value,
  };
}"""


def test_the_host_is_told_who_is_missing_and_quick_play_counts_the_bots_in(
    tmp_path: Path,
) -> None:
    require_browser()

    def scene() -> tuple[str, str, list[int], str, float, str]:
        with (
            web_serve(tmp_path, tmp_path / "data") as server,
            chromium(tmp_path / "shots") as browser,
        ):
            host = Guest(new_page(browser))
            host.enter(server.url, "hana")
            host.create_table("mine", bots=("easy", "", ""))
            waiting = host.page.evaluate(TURN)
            quick = Guest(new_page(browser))
            # A name of spaces only passes the field's `required`: the click said nothing.
            quick.page.goto(server.url)
            quick.page.locator("#name-input").fill("   ")
            quick.page.locator("#name-go").click()
            quick.page.wait_for_function(
                "() => document.querySelector('#name-problem').textContent"
            )
            spaces = quick.page.locator("#name-problem").inner_text()
            assert spaces == REFUSAL_WORDS["bad_name"], spaces
            assert quick.page.locator("#name-entry").is_visible()
            quick.enter(server.url, "quinn")
            p = quick.page
            asked = time.monotonic()
            p.locator("#quick-play").click()
            p.locator("#table").wait_for(state="visible")
            p.wait_for_function(f"() => ({TURN})().startsWith('quick play:')")
            first = p.evaluate(TURN)
            # The countdown ticks between messages (one line a second while it waits).
            seen = {first}
            while len(seen) < 3:
                p.wait_for_timeout(400)
                seen.add(p.evaluate(TURN))
            counts = sorted({int("".join(c for c in s if c.isdigit())) for s in seen}, reverse=True)
            # A second quick player sits at that table: not its host, and no host starts it.
            other = Guest(new_page(browser))
            other.enter(server.url, "quill")
            other.page.locator("#quick-play").click()
            other.page.wait_for_selector('#table[data-seated="yes"]')
            other.page.wait_for_function(f"() => ({TURN})().startsWith('waiting for players')")
            joined = other.page.evaluate(TURN)
            # Nobody presses start: the bots come and the deal follows.
            p.wait_for_function(
                "() => document.querySelector('#hand').dataset.mode === 'pass'", timeout=40_000
            )
            dealt_after = time.monotonic() - asked
            assert not quick.errors and not quick.console, (quick.errors, quick.console)
            return waiting, first, counts, joined, dealt_after, p.evaluate(TURN)

    waiting, first, counts, joined, dealt_after, then = on_thread(scene, 130)
    assert joined == "waiting for players (2/4)"
    assert waiting == "waiting for players (2/4)"
    assert first in (
        "quick play: bots take the empty seats in 20 seconds",
        "quick play: bots take the empty seats in 19 seconds",
    )
    assert counts[0] - counts[-1] >= 2 and all(0 < n <= 20 for n in counts), counts
    assert 15 <= dealt_after <= 35, dealt_after
    assert then == "your pass: choose 3 cards"


def test_a_watcher_asked_for_the_password_watches_and_leekha_invites_link_seats(
    tmp_path: Path,
) -> None:
    """The password box a watch opens says "watch" (it said "join", and a newcomer expects a
    seat); the link `leekha invite --password` prints seats a browser at that table."""
    require_browser()

    def scene() -> tuple[str, str, str, str]:
        with (
            web_serve(tmp_path, tmp_path / "data") as server,
            chromium(tmp_path / "shots") as browser,
        ):
            host = Guest(new_page(browser))
            host.enter(server.url, "hana")
            host.page.locator("#new-table").click()
            host.page.locator("#cf-name").fill("locked")
            host.page.locator("#cf-password").fill("open sesame")
            host.page.locator("#cf-create").click()
            host.page.locator("#table").wait_for(state="visible")
            watcher = Guest(new_page(browser))
            watcher.enter(server.url, "wes")
            p = watcher.page
            p.locator('.table-row:has-text("locked") .watch').click()
            go = p.locator("#password-go")
            go.wait_for(state="visible")
            said = go.inner_text()
            p.locator("#password-input").fill("open sesame")
            go.click()
            p.wait_for_selector('#table[data-seated="no"]')
            # The join button says "join" again when a seat is asked for.
            p.locator("#leave").click()
            p.locator('.table-row:has-text("locked") .join').click()
            go.wait_for(state="visible")
            joined = go.inner_text()
            printed = subprocess.run(
                [LEEKHA, "invite", f"127.0.0.1:{server.port}", "locked",
                 "--password", "open sesame"],
                capture_output=True, text=True, timeout=30, env=dict(os.environ),
            )  # fmt: skip
            assert printed.returncode == 0, printed.stderr
            link = printed.stdout.strip().splitlines()[-1]
            # The page's address as this test reaches it: the server names its LAN address.
            route = link[link.index("#") :]
            friend = Guest(new_page(browser))
            friend.page.goto(server.url + route)
            friend.page.locator("#name-input").fill("fred")
            friend.page.locator("#name-go").click()
            friend.page.wait_for_selector('#table[data-seated="yes"]')
            seated = friend.page.locator(".seat.me .name").inner_text()
            return said, joined, route, seated

    said, joined, route, seated = on_thread(scene, 130)
    assert (said, joined) == ("watch", "join")
    assert route.startswith("#/table/") and route.endswith("?password=open%20sesame")
    assert "fred" in seated


def test_the_language_switch_words_an_open_new_table_form_and_keeps_its_choices(
    tmp_path: Path,
) -> None:
    """The form's lists (presets, options, timers, bot levels) stayed in the old language
    when the switch changed it while the form was open: half Arabic, half Italian."""
    require_browser()
    it = webwords.catalogue("it")["messages"]
    assert isinstance(it, dict)

    def scene() -> dict[str, object]:
        with (
            web_serve(tmp_path, tmp_path / "data") as server,
            chromium(tmp_path / "shots") as browser,
        ):
            guest = Guest(new_page(browser, lang="ar"))
            guest.enter(server.url, "lina")
            p = guest.page
            p.locator("#new-table").click()
            p.locator("#cf-name").fill("mine")
            p.locator("#cf-preset").select_option("levant")
            p.locator("#cf-pass-timer").select_option("0")
            p.locator('#cf-overrides input[data-rule="doubling"]').check()
            p.locator('#cf-bots select[data-seat="1"]').select_option("hard")
            p.locator("#lang-switch").select_option("it")
            p.wait_for_function("() => document.documentElement.lang === 'it'")
            shown: dict[str, object] = p.evaluate(READ_FORM)
            # The form still creates the table it says.
            p.locator("#cf-create").click()
            p.wait_for_selector('.seat[data-control="bot"]')
            assert not guest.errors and not guest.console, (guest.errors, guest.console)
            return shown

    shown = on_thread(scene, 100)
    assert shown == {
        "legends": [it["options"], it["bot level"]],
        "preset": it["Levant"],
        "timer": it["off"],
        "level": it["hard"],
        "doubling": True,
        "name": "mine",
    }


def test_leave_mid_game_asks_once_before_a_bot_takes_the_seat_for_good(tmp_path: Path) -> None:
    """One tap on **leave** (beside **invite** on a phone) gave the seat to a bot for good;
    mid-game the first leave now says so and the second leaves, as the terminal's L, L."""
    require_browser()

    def scene() -> tuple[str, bool, bool]:
        with (
            web_serve(tmp_path, tmp_path / "data") as server,
            chromium(tmp_path / "shots") as browser,
        ):
            guest = Guest(new_page(browser, width=360, height=640))
            guest.enter(server.url, "lev")
            guest.create_table("stay", target=100)
            p = guest.page
            p.locator("#start").click()
            p.wait_for_function("() => document.querySelector('#hand').dataset.mode === 'pass'")
            p.locator("#leave").click()
            p.wait_for_function("() => document.querySelector('#status').textContent")
            said = p.locator("#status").inner_text()
            still = p.locator("#table").is_visible()
            p.locator("#leave").click()
            p.locator("#lobby").wait_for(state="visible")
            gone = any(w.startswith("> leave") for w in guest.wire)
            assert not guest.errors and not guest.console, (guest.errors, guest.console)
            return said, still, gone

    said, still, gone = on_thread(scene, 100)
    assert said == "leave again to give your seat to a bot for good"
    assert still and gone
