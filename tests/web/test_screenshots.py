"""The doc's screenshots can still be taken (tests/web/screenshots.py, English here): four
phone-sized PNGs, each small enough for docs/web/."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.web import on_thread, require_browser
from web.screenshots import SHOTS, main

pytestmark = [pytest.mark.slow, pytest.mark.timeout(200)]


def png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", path
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


def test_the_docs_screenshots_are_taken_at_phone_size(tmp_path: Path) -> None:
    require_browser()
    assert on_thread(lambda: main(["--out", str(tmp_path), "--lang", "en"]), 180) == 0
    for what in SHOTS:
        path = tmp_path / f"{what}-en.png"
        assert png_size(path) == (360, 640)
        assert path.stat().st_size < 60 * 1024, (path, path.stat().st_size)
