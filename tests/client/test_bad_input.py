"""Every command's bad input gets an exit status other than 0 and a line or two of words,
never a traceback: one table of cases over every subcommand.

A case runs where it must and no further: in this process when the command refuses before
its event loop (the loop is replaced by one that fails the test, so a refusal that slips
through fails instead of hanging), in a subprocess when the refusal comes from the event
loop (a server that refuses, a port in use), and on a pty for `leekha join`, which needs a
terminal before it connects. The servers the cases talk to are started once: a plain one,
a TLS one, and a password table on the plain one. Only the cases that name them start
them, and those cases, with every case in a subprocess or on a pty, are `slow`: the fast
lane runs the rest.
"""

from __future__ import annotations

import argparse
import os
import re
import socket
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from helpers.processes import LEEKHA, Proc, clean_env, serve
from helpers.pty import LEEKHA as LEEKHA_EXE
from helpers.pty import Terminal

from leekha.client import cli, exitcodes, i18n

#: Where a case runs: in this process, a subprocess with no terminal, or a pty.
HERE, PROC, PTY = "here", "proc", "pty"


@dataclass(frozen=True)
class Case:
    where: str
    argv: tuple[str, ...]
    says: str  # a regex the words on stderr (or the screen) must match
    code: int | None = None  # None: any status but 0
    lines: int = 2  # at most this many lines of words


def case(where: str, line: str, says: str, code: int | None = None, lines: int = 2) -> Any:
    argv = tuple(_split(line))
    slow = where != HERE or _names_servers(argv)
    return pytest.param(
        Case(where, argv, says, code, lines),
        id=f"{where}: {line}",
        marks=pytest.mark.slow if slow else (),
    )


def _names_servers(argv: tuple[str, ...]) -> bool:
    """Whether the case names a server of `places` ({plain}, {tls}, {dead}, {changed});
    {tmp} is the folder of `files`, made without one."""
    return "{" in " ".join(argv).replace("{tmp}", "")


def _split(line: str) -> list[str]:
    import shlex

    return shlex.split(line)


# {plain} {tls} {dead}: a plain server, a TLS server, a port nobody listens on.
CASES = [
    # ---- leekha (no subcommand) and the display options
    case(HERE, "nosuch", r"invalid choice: 'nosuch'", 2),
    case(HERE, "--lang xx play", r"invalid choice: 'xx'", 2),
    # an unknown option points at the help of the command that was given
    case(HERE, "join --bogus", r"unrecognized arguments: --bogus\n\(`leekha join --help`", 2),
    case(HERE, "id show --bogus", r"\(`leekha id show --help` lists the options\)", 2),
    # ---- play
    case(HERE, "play --no-save", r"a terminal is needed", 1),
    case(HERE, "play --level easy --strategy random", r"--level and --strategy both", 2),
    case(HERE, "play --strategy nosuch", r"unknown strategy 'nosuch': use one of easy", 2),
    case(HERE, "play --rules nope", r"invalid choice: 'nope'", 2),
    case(HERE, "play --rule target=0", r"rules option 'target' must be an integer from 1", 2),
    case(HERE, "play --rule nonsense", r"expected KEY=VALUE", 2),
    case(HERE, "play --trick-hold soon", r"--trick-hold: a number from 0 to 10, not 'soon'", 2),
    # every numeric option has its range, checked before the terminal is
    case(HERE, "play --trick-hold -3", r"--trick-hold: a number from 0 to 10, not '-3'", 2),
    case(HERE, "play --trick-hold inf", r"--trick-hold: a number from 0 to 10, not 'inf'", 2),
    case(HERE, "join --quick --wait -1 h", r"--wait: a whole number from 0 to 600", 2),
    case(HERE, "join --browse-timeout 0", r"--browse-timeout: a number from 0.1 to 60", 2),
    case(HERE, "join h --rule target=0", r"rules option 'target' must be an integer from 1", 2),
    case(HERE, "replay --game 0", r"--game: a whole number from 1", 2),
    case(HERE, "replay --round -1", r"--round: a whole number from 1", 2),
    case(HERE, "tournament create h --deals 0", r"--deals: a whole number from 1 to 500", 2),
    case(HERE, "tournament create h --stages 51", r"--stages: a whole number from 1 to 50", 2),
    case(HERE, "tournament create h --move-timer 0", r"--move-timer: a whole number from 1", 2),
    case(HERE, "bot --table x --seed -1", r"--seed: a whole number from 0", 2),
    case(HERE, "bot --table x --delay-ms -5", r"--delay-ms: a whole number from 0 to 60000", 2),
    case(HERE, "match --precision 0", r"--precision: a number from 0.001", 2),
    # ---- replay
    case(HERE, "replay {tmp}/nope.json", r"leekha replay: .*nope\.json", 1),
    case(HERE, "replay {tmp}/record.json", r"a terminal is needed", 1),
    case(HERE, "replay {tmp}/record.json --round 99", r"the game has 1 round", 2),
    case(HERE, "replay {tmp}/garbage.json", r"leekha replay: ", 1),
    # ---- join
    case(HERE, "join host:99999", r"bad port '99999'", 2),
    case(HERE, "join 127.0.0.1:{plain}", r"a terminal is needed", 1),
    case(
        PTY,
        "join 127.0.0.1:{tls}",
        r"hung up without answering \(if it serves TLS, join with --tls\)",
        1,
    ),
    case(PTY, "join --tls 127.0.0.1:{plain}", r"the TLS handshake failed", 1),
    case(PTY, "join 127.0.0.1:{dead}", r"cannot connect to 127.0.0.1:\d+: connection refused", 1),
    case(
        PTY,
        "join --tls 127.0.0.1:{changed}",
        r"REFUSED: the TLS certificate of .* has changed",
        1, 6,
    ),
    # ---- bot
    case(HERE, "bot", r"one of the arguments --table --create --tournament is required", 2),
    case(HERE, 'bot --table ""', r"a table name is 1 to 64 characters, not ''", 2),
    case(HERE, 'bot --create "" 127.0.0.1:{plain}', r"a table name is 1 to 64 characters", 2),
    case(HERE, "bot --table x --strategy os:path", r"'os:path' is not a strategy class", 2),
    case(
        HERE,
        "bot --table x --strategy collections:OrderedDict",
        r"is not a strategy: building it",
        2,
    ),
    case(HERE, "bot --table x --strategy nosuch", r"unknown strategy 'nosuch'", 2),
    case(HERE, "bot --table x --count 0", r"--count: a whole number from 1 to 64, not '0'", 2),
    case(HERE, "bot --table x --games -1", r"--games: a whole number from 0", 2),
    case(HERE, "bot --tournament -1", r"a tournament id is a whole number", 2),
    case(HERE, "bot --table x host:0", r"bad port '0'", 2),
    case(PROC, "bot 127.0.0.1:{tls} --table x", r"hung up without answering", 2),
    case(PROC, "bot --tls 127.0.0.1:{plain} --table x", r"the TLS handshake failed", 2),
    case(PROC, "bot 127.0.0.1:{dead} --table x", r"connection refused", 2),
    case(
        PROC,
        "bot 127.0.0.1:{plain} --table Secret",
        r"'Secret' has a password: give it with --password",
        1,
    ),
    case(
        PROC,
        "bot 127.0.0.1:{plain} --table Secret --password nope",
        r"wrong or missing table password",
        1,
    ),
    case(PROC, "bot 127.0.0.1:{plain} --tournament 99 --name Zed", r"no tournament 99", 1),
    # ---- match
    case(
        HERE,
        "match --strategies os:path,random,random,random",
        r"'os:path' is not a strategy class",
        2,
    ),
    case(
        HERE,
        "match --strategies collections:OrderedDict,random,random,random",
        r"building it with a seed failed",
        2,
    ),
    case(
        HERE,
        "match --strategies nosuch:X,random,random,random",
        r"cannot load strategy 'nosuch:X'",
        2,
    ),
    case(
        HERE,
        "--lang ar --bidi off match --strategies foo,random,random,random",
        r"استراتيجية غير معروفة 'foo'",
        2,
    ),
    case(HERE, "match --strategies random,random", r"exactly four strategies", 2),
    case(HERE, "match --budget-ms -1", r"--budget-ms: a number from 0 to 60000", 2),
    case(HERE, "match --samples 0", r"--samples: a whole number from 1", 2),
    case(HERE, "match --rounds 0", r"--rounds: a whole number from 1", 2),
    case(HERE, "match --jobs 0", r"--jobs: a whole number from 1 to 1024", 2),
    # ---- serve
    case(HERE, "serve --port 99999", r"leekha serve: .*port", 2),
    case(
        PROC,
        "serve --host 127.0.0.1 --port {plain}",
        r"cannot listen on 127.0.0.1:\d+: the port is in use",
        1,
    ),
    case(PROC, "serve --host 999.1.1.1", r"cannot listen on 999.1.1.1:7241: no such address", 1),
    case(PROC, "serve --host nosuch.invalid", r"invalid:7241: the host name does not resolve", 1),
    case(PROC, "serve --listen garbage:1", r"cannot start: Unknown endpoint type: 'garbage'", 1),
    case(
        PROC,
        "serve --data /proc/nope",
        r"cannot start: /proc/nope: No such file or directory",
        1,
    ),
    case(PROC, "serve --tls --tls-cert /nope.pem", r"cannot start: cannot read /nope.pem", 1),
    # ---- invite
    case(HERE, "invite", r"the following arguments are required: HOST", 2),
    case(HERE, "invite host:0 Ann", r"bad port '0'", 2),
    case(PROC, "invite 127.0.0.1:{dead} 1", r"connection refused", 1),
    case(PROC, "invite 127.0.0.1:{plain} nosuch", r"nosuch", 1),
    case(PROC, "invite 127.0.0.1:{plain} Secret --password nope", r"not the table's password", 1),
    # ---- servers
    case(HERE, "servers --timeout soon", r"--timeout: a number from 0.1 to 60, not 'soon'", 2),
    case(HERE, "servers --timeout -1", r"--timeout: a number from 0.1 to 60", 2),
    # ---- records, tournament, id
    case(HERE, "records export", r"no database at .*leekha play", 1),
    case(HERE, "records export --data {tmp}/nowhere", r"no database at .*nowhere", 1),
    case(HERE, "records", r"the following arguments are required: ACTION", 2),
    case(HERE, "tournament", r"the following arguments are required", 2),
    case(HERE, "id nosuch", r"invalid choice: 'nosuch'", 2),
    case(HERE, "id --config {tmp} show", r"--config names a config file .* --config-dir", 2),
    case(HERE, "serve --config {tmp}", r"is a directory, expected a TOML file", 2),
]  # fmt: skip


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The folder and files the cases name ({tmp}), made once for the module."""
    tmp = tmp_path_factory.mktemp("bad-input")
    (tmp / "garbage.json").write_text("{ not json")
    (tmp / "record.json").write_text(_one_round_record())
    return {"tmp": str(tmp)}


@pytest.fixture(scope="module")
def places(files: dict[str, str]) -> Iterator[dict[str, str]]:
    """The servers the cases name, and the files, started once for the module."""
    tmp = Path(files["tmp"])
    # No penalty for the protocol violations some cases commit (TLS bytes to a plain server).
    calm = ("--kick-penalty-s", "0")
    plain_server = serve(tmp / "plain", 0, None, *calm)
    with plain_server as (_p, plain), serve(tmp / "tls", 0, None, "--tls", *calm) as (_t, tls):
        secret = Proc([*LEEKHA, "bot", f"127.0.0.1:{plain}", "--create", "Secret",
                       "--password", "pw"], clean_env(tmp / "plain"))  # fmt: skip
        try:
            secret.wait_line(r"seat \d at table", timeout=30)
            yield {**files, **_servers(tmp, plain, tls)}
        finally:
            secret.kill()


def _servers(tmp: Path, plain: int, tls: int) -> dict[str, str]:
    # A known_hosts that remembers another certificate for the TLS server.
    known = tmp / "home-changed" / "config" / "leekha" / "known_hosts"
    known.parent.mkdir(parents=True)
    known.write_text(f"127.0.0.1:{tls} " + ":".join(["AB"] * 32) + "\n")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        dead = s.getsockname()[1]
    return {"plain": str(plain), "tls": str(tls), "changed": str(tls), "dead": str(dead)}


def _one_round_record() -> str:
    """A finished game of one round, as `leekha records export` writes it."""
    import json

    from leekha.common.bots.base import make_strategy, play_out
    from leekha.common.config import preset
    from leekha.common.game import Game
    from leekha.common.record import GameRecord

    game = Game(preset("classic", {"target": 1}), 3)
    play_out(game, [make_strategy("random", s) for s in range(4)])
    return json.dumps(GameRecord.of(game, ["ann", "bob", "cy", "di"]).to_dict())


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    yield
    i18n.set_language("en")


@pytest.mark.parametrize("c", CASES)
def test_bad_input_is_refused_in_words(
    c: Case,
    request: pytest.FixtureRequest,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    places: dict[str, str] = request.getfixturevalue(
        "places" if _names_servers(c.argv) else "files"
    )
    argv = [a.format(**places) for a in c.argv]
    env = {
        "HOME": str(tmp_path),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "LANGUAGE": "", "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8",
    }  # fmt: skip
    if "{changed}" in " ".join(c.argv):
        env["XDG_CONFIG_HOME"] = str(Path(places["tmp"]) / "home-changed" / "config")
    if c.where == HERE:
        code, words = _here(argv, env, monkeypatch, capsys)
    elif c.where == PROC:
        code, words = _proc(argv, env)
    else:
        code, words = _pty(argv, env)
    assert "Traceback" not in words, words
    assert code != 0 if c.code is None else code == c.code, (code, words)
    lines = [ln for ln in words.splitlines() if ln.strip()]
    assert 1 <= len(lines) <= c.lines, words
    assert re.search(c.says, words), words


def _here(
    argv: list[str],
    env: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> tuple[int, str]:
    from twisted.internet import task

    from leekha.client import eventloop

    def no_loop(*_a: object, **_k: object) -> int:
        raise AssertionError("the command reached its event loop: run the case in a process")

    monkeypatch.setattr(eventloop, "run_on_reactor", no_loop)
    monkeypatch.setattr(task, "react", no_loop)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    try:
        code = cli.main(argv)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    out = capsys.readouterr()
    return code, out.err + out.out


def _proc(argv: list[str], env: dict[str, str]) -> tuple[int, str]:
    done = subprocess.run(
        [*LEEKHA, *argv],
        env=dict(os.environ, **env),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    return done.returncode, done.stderr + done.stdout


def _pty(argv: list[str], env: dict[str, str]) -> tuple[int, str]:
    for key, value in env.items():
        os.environ[key] = value  # Terminal passes os.environ on (restored below)
    term = Terminal([LEEKHA_EXE, *argv])
    try:
        term.until(lambda: term.proc.poll() is not None, "the command to end")
        code = term.proc.wait(timeout=10)
        term.pump(0.05)
        raw = term.raw.decode("utf-8", "replace").replace("\r", "")
        return code, raw
    finally:
        os.close(term.master)


@pytest.fixture(autouse=True)
def _keep_environ() -> Iterator[None]:
    saved = dict(os.environ)
    yield
    os.environ.clear()
    os.environ.update(saved)


def _parsers(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in action.choices.values():
                yield from _parsers(child)


def test_every_numeric_option_of_a_client_command_has_a_range() -> None:
    """A bare `type=int` or `type=float` takes -3, nan and 10**100: each number option of
    the commands in client/ takes its type from `options.in_range` instead."""
    bare = []
    for name, (module, _summary) in cli.COMMANDS.items():
        if not module.startswith("leekha.client"):
            continue
        top = cli.build_parser([name])
        (sub,) = [a for a in top._actions if isinstance(a, argparse._SubParsersAction)]
        for parser in _parsers(sub.choices[name]):
            bare += [f"{parser.prog} {a.dest}" for a in parser._actions if a.type in (int, float)]
    assert bare == []


def test_the_table_names_every_subcommand() -> None:
    """A new subcommand must come with its bad inputs."""
    covered = set()
    for p in CASES:
        (c,) = p.values
        words = [a for a in c.argv if not a.startswith("-") and a not in ("ar", "off")]
        covered.add(words[0] if words else "")
    assert sorted(set(cli.COMMANDS) - covered) == []


#: Commands that write to stdout without a terminal, each run into a pipe whose reader is
#: gone (`leekha id show | head -1`, where head has already ended).
INTO_A_CLOSED_PIPE = [
    "id show",
    "id export",
    "--help",
    "play --help",
    "records stats --data {tmp}/plain/data",
    "records export --data {tmp}/plain/data",
    "servers --timeout 0.2",
    "tournament list 127.0.0.1:{plain}",
    "invite 127.0.0.1:{plain} Secret --password pw",
]


@pytest.mark.slow
@pytest.mark.parametrize("line", INTO_A_CLOSED_PIPE)
def test_every_command_into_a_closed_pipe_ends_quietly(
    line: str, places: dict[str, str], tmp_path: Path
) -> None:
    """No `BrokenPipeError` traceback, nor Python's "Exception ignored" at exit: nothing
    on stderr, and the status a shell gives a program its reader left (141), or 0 when
    the words were all written before the reader went."""
    argv = [a.format(**places) for a in _split(line)]
    env = dict(os.environ, HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "config"),
               XDG_DATA_HOME=str(tmp_path / "data"), LANGUAGE="", LC_ALL="C.UTF-8")  # fmt: skip
    read, write = os.pipe()
    os.close(read)  # the reader has gone before the first word
    try:
        done = subprocess.run(
            [*LEEKHA, *argv],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )
    finally:
        os.close(write)
    assert done.stderr == "", done.stderr
    assert done.returncode in (0, exitcodes.BROKEN_PIPE), done.returncode
