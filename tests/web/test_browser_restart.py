"""The server killed with -9 mid-round and started again on the same data folder and ports:
the page, untouched, reconnects by itself and is back in the same seat with the same hand,
and the game plays on to its end."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.screens import recorded_stats
from helpers.web import Guest, chromium, new_page, on_thread, require_browser, web_serve

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]


def test_the_page_comes_back_to_its_seat_and_hand_after_a_kill_9(tmp_path: Path) -> None:
    require_browser()
    data = tmp_path / "data"

    def scene() -> tuple[dict[str, list[int]], int]:
        with chromium(tmp_path / "shots") as browser:
            guest = Guest(new_page(browser))
            p = guest.page
            with web_serve(tmp_path, data) as server:
                port, web_port = server.port, server.web_port
                guest.enter(server.url, "rey")
                guest.create_table("restart", target=1)
                p.locator("#start").click()
                p.wait_for_selector('#hand[data-mode="pass"]')
                guest.pass_three()
                for _ in range(3):
                    p.wait_for_selector("#hand .card.legal")
                    guest.play_one()
                p.wait_for_selector("#hand .card.legal")
                seat = p.locator(".seat.me").get_attribute("data-seat")
                hand = guest.hand()
                assert len(hand) == 10, hand
                server.proc.kill()  # SIGKILL: no goodbye, nothing flushed
            p.wait_for_selector('#link-state:not([data-state="online"])')
            with web_serve(tmp_path, data, port=port, web_port=web_port) as again:
                p.wait_for_selector('#link-state[data-state="online"]', timeout=30_000)
                p.locator("#table").wait_for(state="visible")
                p.wait_for_function("n => document.querySelectorAll('#hand .card').length === n",
                                    arg=len(hand))  # fmt: skip
                assert p.locator(".seat.me").get_attribute("data-seat") == seat
                assert guest.hand() == hand
                guest.play_to_the_end(within=90)
                assert "Traceback" not in again.proc.text(), again.proc.text()
            assert not guest.errors, guest.errors
            return guest.stats(), len(hand)

    shown, _ = on_thread(scene, 170)
    recorded, rounds = recorded_stats(data)
    assert {k: shown[k] for k in recorded} == recorded
    assert sum(recorded["tricks"]) == 13 * rounds
