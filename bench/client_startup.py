"""How long `leekha play` takes from the command to a drawn table, against `python -c pass`.

Both run on a pseudo-terminal (a real 80x24 screen) in the same run, so the ratio says how
much slower than bare interpreter startup the whole thing is: imports, the embedded server,
the handshake, table creation, three bots, the deal and the first full-screen frame.

    .venv/bin/python bench/client_startup.py [--runs N] [--against DIR]

`--floor` also times the libraries alone: a child that imports every module of the
standard library and the third-party packages that `leekha play` loaded on its way to the
drawn table (read from one untimed `-X importtime` run of it), and nothing of ours. Its
multiple of `python -c pass` is the part of the goal no change of this tree can reach. A
second, narrower floor imports only the libraries the project chose and cannot drop
(Twisted's asyncio reactor and logger, prompt_toolkit's `Application`, msgpack), with
nothing else the tree happens to use. And a third child imports every module `leekha play`
loaded, ours too, before it starts `leekha play` in the same process: the time from there
to the drawn table is what the run costs beyond its imports (the embedded server's start,
the handshake, the bots, the deal and the first frame).

`--against DIR` times another checkout of the tree (`git worktree add DIR REV`) in the same
run, alternated run by run with this one, for a before/after figure that the machine's
load cannot tilt. Every child runs with its bytecode cached, as in any installed copy: the
environment's PYTHONDONTWRITEBYTECODE is dropped, the bytecode goes to a folder of the
run's own (PYTHONPYCACHEPREFIX), and one untimed run of each command writes it first.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import pty
import select
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path


def _run_pty(
    argv: list[str], env: dict[str, str], timeout: float = 30.0, stderr: Path | None = None
) -> tuple[float, float]:
    """Start argv on an 80x24 pty; return (start wall time, exit wall time). `stderr`: a
    file for the child's standard error instead of the pty."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    err = stderr.open("wb") if stderr is not None else None
    start = time.time()
    try:
        proc = subprocess.Popen(
            argv, stdin=slave, stdout=slave, stderr=err if err is not None else slave, env=env
        )
    finally:
        if err is not None:
            err.close()
    os.close(slave)
    deadline = time.monotonic() + timeout
    try:
        while proc.poll() is None and time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    os.read(master, 65536)
                except OSError:
                    break
        proc.wait(timeout=max(0.1, deadline - time.monotonic()))
    finally:
        os.close(master)
    if proc.returncode != 0:
        raise SystemExit(f"{argv[:3]} exited with {proc.returncode}")
    return start, time.time()


def _tree(checkout: Path, into: Path) -> Path:
    """A folder that makes `leekha` that checkout's packages when put on PYTHONPATH (ahead
    of this environment's editable install): leekha/{common,protocol,server,client}."""
    root = into / "leekha"
    root.mkdir(parents=True)
    for pkg in ("common", "protocol", "server", "client"):
        (root / pkg).symlink_to(checkout.resolve() / pkg)
    return into


def _play_args(strategy: str, tmp: Path) -> list[str]:
    """`leekha play`'s arguments for one timed run to a drawn table, in the folder `tmp`:
    the drawn moment written to `tmp/drawn`, and a fresh data folder (no unfinished game to
    offer to resume)."""
    return [
        "play",
        "--strategy", strategy,
        "--exit-when-drawn",
        "--report-drawn", str(tmp / "drawn"),
        "--data", str(tmp / "play"),
    ]  # fmt: skip


def _play(
    env: dict[str, str], strategy: str, tmp: Path, stderr: Path | None = None
) -> tuple[float, float]:
    """One `leekha play` to a drawn table: (seconds to the drawn table, to its exit).
    `stderr`: run it with `-X importtime`, its report written to that file."""
    head = [sys.executable, "-X", "importtime", "-m", "leekha.client.cli"] if stderr else [
        str(Path(sys.executable).with_name("leekha"))
    ]  # fmt: skip
    s, e = _run_pty([*head, *_play_args(strategy, tmp)], env, stderr=stderr)
    return float((tmp / "drawn").read_text()) - s, e - s


def _imported(importtime: Path) -> list[str]:
    """The modules an `-X importtime` report names, in the order they were imported (not
    the editable install's finder, which is how the modules were found, not one of them)."""
    names = []
    for line in importtime.read_text(errors="replace").splitlines():
        if line.startswith("import time:") and "cumulative" not in line:
            name = line.rsplit("|", 1)[1].strip()
            if not name.startswith("__editable__"):
                names.append(name)
    return names


def _importing(names: list[str]) -> str:
    """The start of a `python -c` script that imports `names` in order, each as it can:
    pyOpenSSL marked absent first, as `leekha play` does (client/eventloop.py)."""
    return (
        "import sys, importlib\n"
        "sys.modules['OpenSSL'] = None\n"
        "def _t(n):\n"
        "    try: importlib.import_module(n)\n"
        "    except Exception: pass\n" + "".join(f"_t({name!r})\n" for name in names)
    )


def _after_imports_script(importtime: Path) -> str:
    """A `python -c` script that imports all that `leekha play` imported, then runs it in
    the same process: its first argument is the run's folder, the rest `leekha play`'s
    arguments (`_play_args` of that folder). It writes the seconds from the imports' end
    to the drawn table to `drawn.after` in the folder."""
    return _importing(_imported(importtime)) + (
        "import time\n"
        "tmp = sys.argv[1]\n"
        "sys.argv = ['leekha', *sys.argv[2:]]\n"
        "t = time.time()\n"
        "from leekha.client.cli import main\n"
        "try:\n"
        "    main()\n"
        "finally:\n"
        "    drawn = float(open(tmp + '/drawn').read())\n"
        "    open(tmp + '/drawn.after', 'w').write(str(drawn - t))\n"
    )


def _floor_script(importtime: Path) -> str:
    """A `python -c` script importing what `leekha play` imported that is not ours, in the
    order it did: the libraries' share of its start, which no change here can remove."""
    return _importing([n for n in _imported(importtime) if n.split(".")[0] != "leekha"])


#: The libraries the project chose (the guide names Twisted, prompt_toolkit and msgpack),
#: as `leekha play` loads them: the asyncio reactor without pyOpenSSL, the logger, the
#: full-screen `Application`.
CHOSEN = (
    "import sys; sys.modules['OpenSSL'] = None; "
    "import twisted.internet.asyncioreactor, twisted.logger, "
    "prompt_toolkit.application, msgpack"
)

#: `leekha play` to a drawn table, as a multiple of bare interpreter startup.
GOAL_RATIO = 12.0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--strategy", default="best")
    parser.add_argument(
        "--against", type=Path, default=None, metavar="DIR",
        help="another checkout to time in the same run, alternated with this one",
    )  # fmt: skip
    parser.add_argument(
        "--floor", action="store_true",
        help="also time the libraries leekha play loads, alone (the part no change here removes)",
    )  # fmt: skip
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="leekha-startup-") as work:
        base = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        base.update(TERM="xterm-256color", PYTHONPYCACHEPREFIX=str(Path(work) / "pyc"))
        # Both trees through the same door (PYTHONPATH), so that how the packages are
        # found (this environment's editable install or the path) is not in the ratio.
        trees = {"this tree": Path(__file__).resolve().parents[1]}
        if args.against is not None:
            trees[str(args.against)] = args.against
        envs = {}
        for i, (name, checkout) in enumerate(trees.items()):
            tree = _tree(checkout, Path(work) / f"tree{i}")
            path = os.pathsep.join(p for p in (str(tree), base.get("PYTHONPATH")) if p)
            envs[name] = dict(base, PYTHONPATH=path)
        scripts: tuple[str, str] | None = None  # with --floor: (the floor's, the run's after)
        if args.floor:
            report = Path(work) / "importtime.txt"
            with tempfile.TemporaryDirectory(dir=work) as tmp:
                _play(envs["this tree"], args.strategy, Path(tmp), stderr=report)
            scripts = (_floor_script(report), _after_imports_script(report))
        floor: list[float] = []
        chosen: list[float] = []
        after: list[float] = []
        bare: list[float] = []
        drawn: dict[str, list[float]] = {name: [] for name in envs}
        total: dict[str, list[float]] = {name: [] for name in envs}
        for n in range(args.runs + 1):  # run 0 writes the bytecode and is not counted
            s, e = _run_pty([sys.executable, "-c", "pass"], base)
            for name, env in envs.items():
                with tempfile.TemporaryDirectory(dir=work) as tmp:
                    to_drawn, to_exit = _play(env, args.strategy, Path(tmp))
                if n:
                    drawn[name].append(to_drawn)
                    total[name].append(to_exit)
            if n:
                bare.append(e - s)
            if scripts is not None:
                floor_script, after_script = scripts
                fs, fe = _run_pty([sys.executable, "-c", floor_script], envs["this tree"])
                if n:
                    floor.append(fe - fs)
                cs, ce = _run_pty([sys.executable, "-c", CHOSEN], envs["this tree"])
                if n:
                    chosen.append(ce - cs)
                with tempfile.TemporaryDirectory(dir=work) as tmp:
                    play = _play_args(args.strategy, Path(tmp))
                    argv = [sys.executable, "-c", after_script, tmp, *play]
                    _run_pty(argv, envs["this tree"])
                    if n:
                        after.append(float((Path(tmp) / "drawn.after").read_text()))
    ref = statistics.median(bare)
    print(f"python -c pass              median {ref * 1000:7.1f} ms")
    if floor:
        med = statistics.median(floor)
        print(f"libraries alone (floor)     median {med * 1000:7.1f} ms  = {med / ref:.1f}x")
        med = statistics.median(chosen)
        print(f"the chosen libraries alone  median {med * 1000:7.1f} ms  = {med / ref:.1f}x")
        med = statistics.median(after)
        print(f"play after all its imports  median {med * 1000:7.1f} ms  = {med / ref:.1f}x")
    for name in envs:
        med = statistics.median(drawn[name])
        print(
            f"leekha play -> drawn table  median {med * 1000:7.1f} ms  "
            f"(min {min(drawn[name]) * 1000:.1f}, max {max(drawn[name]) * 1000:.1f})  "
            f"= {med / ref:.1f}x  [{name}]"
        )
        print(f"leekha play -> drawn -> exited     {statistics.median(total[name]) * 1000:7.1f} ms")
    # The goal is a ratio to the reference measured in the same run (docs/performance.md).
    med = statistics.median(drawn["this tree"])
    print(
        f"goal: at most {GOAL_RATIO:g}x python -c pass:",
        "OK" if med <= GOAL_RATIO * ref else "OVER",
    )
    return 0 if med <= GOAL_RATIO * ref else 1


if __name__ == "__main__":
    sys.exit(main())
