"""Shared by tests/harness/: run a bench/ script with --json, return its report."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parents[2] / "bench"


def run_bench(script: str, *args: str, timeout: float = 60.0) -> dict[str, Any]:
    """`args` are split at spaces: "--games 2 --kills 1" is four arguments."""
    proc = subprocess.run(
        [sys.executable, str(BENCH / script), *(w for a in args for w in a.split()), "--json"],
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    assert lines, f"{script} printed no report (exit {proc.returncode}): {proc.stderr[-3000:]}"
    return dict(json.loads(lines[-1]))
