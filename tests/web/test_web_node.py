"""The page's JavaScript under node: the core's own tests (`node --test
tests/web/*.test.mjs`) and the node bot (examples/node_bot.mjs) playing a whole game
against a real `leekha serve` over TCP, driven by the same client/web/core.js the page
paints from. Skipped, with the reason, where node is not installed (CI installs it)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers.processes import Proc, clean_env, serve

ROOT = Path(__file__).resolve().parents[2]
NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed")
pytestmark = pytest.mark.timeout(120)


@needs_node
@pytest.mark.slow  # runs node, a process
def test_the_core_passes_its_node_tests() -> None:
    assert NODE is not None
    files = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tests" / "web").glob("*.test.mjs"))
    assert files
    done = subprocess.run(
        [NODE, "--test", *files], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stdout + done.stderr
    passed = re.search(r"^# pass (\d+)", done.stdout, re.M)
    assert passed is not None and int(passed.group(1)) >= 10, done.stdout


@needs_node
@pytest.mark.slow
def test_the_node_bot_plays_a_game_to_its_end(tmp_path: Path) -> None:
    assert NODE is not None
    with serve(tmp_path) as (_server, port):
        argv = [NODE, str(ROOT / "examples" / "node_bot.mjs"), "--port", str(port),
                "--target", "31", "--timeout-s", "90"]  # fmt: skip
        bot = Proc(argv, clean_env(tmp_path))
        try:
            assert bot.finish(timeout=100) == 0, bot.text()
            m = bot.wait_line(r"game over after (\d+) rounds: totals ([-\d ]+),", timeout=1)
            totals = [int(t) for t in m.group(2).split()]
            # The game ends once a total reaches the target (classic rules, no partners).
            assert max(totals) >= 31, bot.text()
            rounds = re.findall(r"round \d+: ([-\d ]+) \(totals", bot.text())
            assert len(rounds) == int(m.group(1))
            summed = [sum(int(r.split()[s]) for r in rounds) for s in range(4)]
            assert summed == totals, bot.text()
            assert "left the table; done" in bot.text()
        finally:
            bot.kill()
