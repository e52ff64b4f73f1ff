"""Outside QA of tournaments: what a newcomer typed wrong gets a clear error, not a crash."""

from __future__ import annotations

import pytest

from leekha.client import cli

HOUSE = [x for _ in range(3) for x in ("--entrant", "server:heuristic")]


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        (["--deals", "99999999999999999999"], "deals"),
        (["--move-timer", "-1"], "move_timer_s"),
        (["--move-timer", "99999"], "move_timer_s"),
        (["--entrant", "a" * 300], "name"),
        (["--name", "t" * 5000], "name"),
    ],
)
def test_a_request_the_wire_cannot_carry_is_refused_before_connecting(
    extra: list[str], field: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # Port 1 on loopback: nothing listens, so reaching the network would say "cannot connect".
    argv = ["tournament", "create", "127.0.0.1:1", *HOUSE, "--entrant", "me", *extra]
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "cannot connect" not in err
    assert err.startswith("leekha tournament: ") and field in err
