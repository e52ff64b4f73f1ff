"""Smoke test for bench/list_tables.py: it builds the lobby it says, and a request answers
one page of 25 tables whatever the count, at a cost it measures."""

from __future__ import annotations

import pytest
from helpers.harness import run_bench


@pytest.mark.slow  # starts a process or a pty: not in the fast lane
@pytest.mark.timeout(60)
def test_list_tables_answers_one_page_at_any_count() -> None:
    report = run_bench("list_tables.py", "--counts 10,60 --requests 20 --repeats 1")
    small, large = report["rows"]
    assert (small["tables"], large["tables"]) == (10, 60)
    assert (small["page"], large["page"]) == (10, 25)  # a page holds at most 25 tables
    for row in (small, large):
        assert row["first_page_us"] > 0 and row["middle_page_us"] > 0
