"""The page in Arabic on a phone (360×640): the document runs right to left, and on each
screen (the lobby, the create form, the pass, a trick in play, the box at the round's end) no
visible element reaches outside the viewport's width, nor does the page scroll sideways; the
table in play (the pass, a trick) fits the screen's height too, chat included."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.web import Guest, chromium, new_page, on_thread, require_browser, web_serve

pytestmark = [pytest.mark.slow, pytest.mark.timeout(150)]

PHONE = (360, 640)

#: Each visible element whose box reaches past the viewport's left or right edge, named; with
#: `tall`, past its top or bottom too (a screen that must fit without scrolling).
OUTSIDE = """(tall) => {
  const w = document.documentElement.clientWidth, ht = innerHeight, out = [];
  const name = (e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "")
    + (typeof e.className === "string" && e.className.trim()
      ? "." + e.className.trim().split(/\\s+/).join(".") : "")
    + (e.dataset.card ? `[${e.dataset.card}]` : "");
  for (const e of document.body.querySelectorAll("*")) {
    if (e.closest("[hidden]")) continue;
    const s = getComputedStyle(e);
    if (s.display === "none" || s.visibility === "hidden") continue;
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if (r.left < -0.5 || r.right > w + 0.5) {
      out.push(`${name(e)} ${r.left.toFixed(0)}..${r.right.toFixed(0)}`);
    } else if (tall && (r.top < -0.5 || r.bottom > ht + 0.5)) {
      out.push(`${name(e)} top ${r.top.toFixed(0)}..${r.bottom.toFixed(0)}`);
    }
  }
  const wide = document.documentElement.scrollWidth;
  if (wide > w) out.push(`page scrolls sideways: ${wide} > ${w}`);
  return out;
}"""


def test_arabic_on_a_phone_runs_right_to_left_within_the_screen(tmp_path: Path) -> None:
    require_browser()

    def scene() -> dict[str, list[str]]:
        with (
            web_serve(tmp_path, tmp_path / "data") as server,
            chromium(tmp_path / "shots") as browser,
        ):
            guest = Guest(new_page(browser, "ar", *PHONE))
            p = guest.page
            guest.enter(server.url, "سامي")
            assert p.evaluate("() => document.documentElement.dir") == "rtl"
            assert p.evaluate("() => document.documentElement.lang") == "ar"
            # Arabic words on the page, not the English source.
            assert "quick play" not in p.locator("#quick-play").inner_text()
            # The check itself sees an element too wide for the phone.
            p.evaluate("""() => document.body.append(Object.assign(document.createElement("div"),
                { id: "probe", style: "width: 500px; height: 4px" }))""")
            assert any(o.startswith("div#probe ") for o in p.evaluate(OUTSIDE, False))
            p.evaluate("() => document.querySelector('#probe').remove()")
            outside: dict[str, list[str]] = {"lobby": p.evaluate(OUTSIDE, False)}
            p.locator("#new-table").click()
            p.locator("#create-form").wait_for(state="visible")
            outside["create form"] = p.evaluate(OUTSIDE, False)
            p.locator("#cf-cancel").click()
            guest.create_table("هاتف", target=1)
            outside["waiting table"] = p.evaluate(OUTSIDE, False)
            p.locator("#start").click()
            p.wait_for_selector('#hand[data-mode="pass"]')
            guest.page.locator("#hand .card").first.click()
            outside["pass"] = p.evaluate(OUTSIDE, True)
            guest.page.locator("#hand .card").first.click()
            guest.pass_three()
            # gus's turn with cards on the table (the bots play at once).
            p.wait_for_selector("#hand .card.legal")
            if not p.locator("#trick .card").count():
                guest.play_one()
                p.wait_for_selector("#hand .card.legal")
            p.wait_for_selector("#trick .card")
            outside["trick"] = p.evaluate(OUTSIDE, True)
            guest.play_to_the_end(within=90, close_summaries=False)
            outside["round end box"] = p.evaluate(OUTSIDE, False)
            # The box's buttons keep their height: an Arabic label sits inside, not on the
            # bottom edge of a button squeezed by a box longer than the screen.
            p.set_viewport_size({"width": PHONE[0], "height": 360})
            p.wait_for_timeout(100)
            outside["squeezed buttons"] = p.evaluate(
                "() => [...document.querySelectorAll('#box button')]"
                ".filter((b) => b.scrollHeight > b.clientHeight + 1)"
                ".map((b) => b.id || b.className)"
            )
            assert p.evaluate("() => document.documentElement.dir") == "rtl"
            assert not guest.errors, guest.errors
            return outside

    outside = on_thread(scene, 140)
    assert outside == {k: [] for k in outside}, outside
