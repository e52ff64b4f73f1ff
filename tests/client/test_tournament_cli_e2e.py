"""`leekha tournament` end to end on loopback: create and follow to the end over the wire,
list, then export from the database; the export's games agree with the game records the
server kept (`leekha records export`), and its standings add up to those records."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from helpers.loopback import serve_process
from helpers.pty import LEEKHA

pytestmark = pytest.mark.slow  # the fast lane leaves it out: it starts processes or ptys


def leekha(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([LEEKHA, *args], capture_output=True, text=True, timeout=60)


@pytest.mark.timeout(90)
def test_create_follow_list_export_agree_with_the_records(tmp_path: Path) -> None:
    data = tmp_path / "data"
    proc, port = serve_process(data, "--bot-think-ms", "1")
    where = f"127.0.0.1:{port}"
    try:
        refused = leekha("tournament", "create", where, "--deals", "500", "--format", "swiss",
                         *["--entrant", "server:random"] * 4)  # fmt: skip
        assert refused.returncode == 1
        assert "is more than 2000: use fewer deals" in refused.stderr  # the server's words
        out_of_range = leekha("tournament", "create", where, "--deals", "0",
                              *["--entrant", "server:random"] * 4)  # fmt: skip
        assert out_of_range.returncode == 2  # the command line's, before connecting
        assert "--deals: a whole number from 1 to 500" in out_of_range.stderr
        bots = ["--entrant", "server:heuristic", *["--entrant", "server:random"] * 3]
        made = leekha("tournament", "create", where, "--name", "Cup", "--deals", "1",
                      "--rule", "target=21", "--follow", *bots)  # fmt: skip
        assert made.returncode == 0, made.stderr
        assert "finished: 4/4 games" in made.stdout.splitlines()
        listed = leekha("tournament", "list", where)
        assert listed.stdout.strip() == "#1 Cup: round robin, finished, 4/4 games, 4 entrants"
    finally:
        proc.terminate()
        proc.wait(timeout=10)

    exported = leekha("tournament", "export", "1", "--data-dir", str(data))
    assert exported.returncode == 0, exported.stderr
    doc = json.loads(exported.stdout)
    assert len(doc["games"]) == 4
    assert len({g["seed"] for g in doc["games"]}) == 1  # one deal, in its four rotations
    points: dict[int, int] = {}
    for game in doc["games"]:
        record = records_export(data, game["record_id"])
        history = record["history"]
        assert game["rounds"] == history
        assert record["seed"] == game["seed"]
        assert game["winners"] == record["result"]["winners"]
        for seat, entrant in enumerate(game["seats"]):
            points[entrant] = points.get(entrant, 0) + sum(r[seat] for r in history)
    assert {s["entrant"]: s["points"] for s in doc["standings"]} == points
    status = leekha("tournament", "status", "1", "--data-dir", str(data))
    assert status.stdout.splitlines()[1] == "finished: 4/4 games"


def records_export(data: Path, game_id: int) -> Any:
    done = leekha("records", "export", "--data", str(data), "--game", str(game_id))
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)
