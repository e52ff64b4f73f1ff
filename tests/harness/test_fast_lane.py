"""The fast lane's guard (tests/conftest.py): a test not marked `slow` cannot start a
process or a pty, and a test marked `slow` can."""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor

import pytest

REFUSED = r"starts a process or a pty: mark it @pytest.mark.slow"


def test_an_unmarked_test_cannot_start_a_process_or_a_pty() -> None:
    with pytest.raises(AssertionError, match=REFUSED):
        subprocess.run([sys.executable, "-c", "pass"], check=True)
    with pytest.raises(AssertionError, match=REFUSED):
        os.openpty()
    with pytest.raises(AssertionError, match=REFUSED), ProcessPoolExecutor(1) as pool:
        pool.submit(int).result()


@pytest.mark.slow
def test_a_slow_test_can() -> None:
    done = subprocess.run([sys.executable, "-c", "print(6 * 7)"], capture_output=True, text=True)
    assert done.stdout.strip() == "42"
