"""The fast lane: `python -m pytest -m "not slow"` leaves out every test that starts a
process or a pty (README, "Run the tests"). A test not marked `slow` that starts one fails
here, in words that say so, so the lane stays fast as tests are added: what it catches is
every way the suite starts one (subprocess, a pty, a fork, a spawn, multiprocessing)."""

from __future__ import annotations

import multiprocessing.process
import os
import pty
import subprocess
from typing import NoReturn

import ifaddr  # noqa: F401 (loaded before the guard: see below)
import pytest

from leekha.protocol.message import verify_trusted

# The server builds its hottest messages unchecked (`Message.trusted`); under test every
# one of them is also built the checked way and must come out the same, in this process
# and in every server a test starts (the variable is inherited).
os.environ["LEEKHA_VERIFY_TRUSTED"] = "1"
verify_trusted(True)

# ifaddr (zeroconf's, for `leekha servers` and the server's announcement) runs ldconfig as
# it loads (ctypes.util.find_library): loaded here, so that the first test to import it is
# not taken for one that starts a process.

#: (module or class, attribute): every door to a new process or a pty.
_DOORS = [
    (subprocess, "Popen"),
    (pty, "openpty"),
    (pty, "fork"),
    (os, "openpty"),
    (os, "forkpty"),
    (os, "fork"),
    (os, "posix_spawn"),
    (os, "posix_spawnp"),
    (multiprocessing.process.BaseProcess, "start"),
]


@pytest.fixture(autouse=True)
def _fast_lane_starts_no_process(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    if request.node.get_closest_marker("slow") is not None:
        return

    def refuse(*_args: object, **_kwargs: object) -> NoReturn:
        raise AssertionError(
            f"{request.node.nodeid} starts a process or a pty: mark it @pytest.mark.slow "
            "(the fast lane, `-m 'not slow'`, leaves such tests out)"
        )

    for owner, name in _DOORS:
        if hasattr(owner, name):
            monkeypatch.setattr(owner, name, refuse)
