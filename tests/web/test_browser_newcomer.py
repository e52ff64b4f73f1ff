"""What a newcomer with only a browser met on the table page, end to end against a real
`leekha serve`: the host of a waiting table was told to wait for the host (itself), and a
quick-play table showed that line and a start button with no word of the bots that fill it
after the server's wait."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from helpers.web import Guest, chromium, new_page, on_thread, require_browser, web_serve

pytestmark = [pytest.mark.slow, pytest.mark.timeout(150)]

TURN = "() => document.querySelector('#turn').textContent"


def test_the_host_is_told_who_is_missing_and_quick_play_counts_the_bots_in(
    tmp_path: Path,
) -> None:
    require_browser()

    def scene() -> tuple[str, str, list[int], float, str]:
        with (
            web_serve(tmp_path, tmp_path / "data") as server,
            chromium(tmp_path / "shots") as browser,
        ):
            host = Guest(new_page(browser))
            host.enter(server.url, "hana")
            host.create_table("mine", bots=("easy", "", ""))
            waiting = host.page.evaluate(TURN)
            quick = Guest(new_page(browser))
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
            # Nobody presses start: the bots come and the deal follows.
            p.wait_for_function(
                "() => document.querySelector('#hand').dataset.mode === 'pass'", timeout=40_000
            )
            dealt_after = time.monotonic() - asked
            assert not quick.errors and not quick.console, (quick.errors, quick.console)
            return waiting, first, counts, dealt_after, p.evaluate(TURN)

    waiting, first, counts, dealt_after, then = on_thread(scene, 130)
    assert waiting == "waiting for players (2/4)"
    assert first in (
        "quick play: bots take the empty seats in 20 seconds",
        "quick play: bots take the empty seats in 19 seconds",
    )
    assert counts[0] - counts[-1] >= 2 and all(0 < n <= 20 for n in counts), counts
    assert 15 <= dealt_after <= 35, dealt_after
    assert then == "your pass: choose 3 cards"
