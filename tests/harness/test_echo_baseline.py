"""Smoke test for the echo ceiling benchmark: it runs, stops by itself and measures something."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "echo_baseline.py"


def load_bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("echo_baseline", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow  # starts a process or a pty: not in the fast lane
@pytest.mark.timeout(30)
def test_echo_baseline_measures_a_positive_rate() -> None:
    rate = load_bench().run_echo_baseline(connections=2, seconds=0.5)
    assert isinstance(rate, float)
    assert rate > 0


def test_echo_baseline_rejects_nonsense_arguments() -> None:
    bench = load_bench()
    with pytest.raises(ValueError, match="connections"):
        bench.run_echo_baseline(connections=0, seconds=1.0)
    with pytest.raises(ValueError, match="reactor"):
        bench.run_echo_baseline(connections=1, seconds=1.0, reactor="gevent")
