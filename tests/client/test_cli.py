"""The `leekha` command line as a whole: one spelling per concept, help on every option,
rules overrides checked like the server checks them, and a `--help` that stays light."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers.server import Harness

from leekha.client import cli
from leekha.client.options import DEFAULT_PORT, parse_address, parse_rule
from leekha.common.config import Rules
from leekha.protocol import catalogue as M
from leekha.server.settings import DEFAULT_PORT as SERVER_DEFAULT_PORT


def _parsers(parser: argparse.ArgumentParser, path: str = "leekha") -> list[Any]:
    """Every (command path, parser) under `parser`, sub-subcommands included."""
    out: list[Any] = [(path, parser)]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                out += _parsers(child, f"{path} {name}")
    return out


def test_every_option_has_help_and_states_its_default_one_way() -> None:
    missing, undefaulted = [], []
    for path, parser in _parsers(cli.build_parser()):
        for action in parser._actions:
            if action.help == argparse.SUPPRESS or not action.option_strings:
                continue
            flag = f"{path} {action.option_strings[-1]}"
            if not action.help:
                missing.append(flag)
                continue
            trivial = action.default in (None, False, [], argparse.SUPPRESS)
            if not trivial and "(default: " not in parser._get_formatter()._expand_help(action):
                undefaulted.append(flag)
    assert missing == []
    assert undefaulted == []


def test_the_strategy_and_address_options_have_one_name_everywhere() -> None:
    parsers = dict(_parsers(cli.build_parser()))
    flags = {path: {s for a in p._actions for s in a.option_strings} for path, p in parsers.items()}
    for path in ("leekha play", "leekha bot"):
        assert "--strategy" in flags[path]
    assert "--strategies" in flags["leekha match"]
    for path in ("leekha play", "leekha bot", "leekha match", "leekha join"):
        assert not flags[path] & {"--seats", "--bots", "--think-ms", "--target", "--host"}, path
        assert "--port" not in flags[path], path
    assert "--delay-ms" in flags["leekha bot"] and "--budget-ms" in flags["leekha match"]


def test_default_port_is_the_servers() -> None:
    assert DEFAULT_PORT == SERVER_DEFAULT_PORT


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("example.org", ("example.org", SERVER_DEFAULT_PORT)),
        ("example.org:7000", ("example.org", 7000)),
        ("[::1]", ("::1", SERVER_DEFAULT_PORT)),
        ("[::1]:9", ("::1", 9)),
        ("::1", ("::1", SERVER_DEFAULT_PORT)),  # a bare IPv6 address: no port in it
        ("fe80::1", ("fe80::1", SERVER_DEFAULT_PORT)),
    ],
)
def test_addresses_take_the_default_port(text: str, expected: tuple[str, int]) -> None:
    assert parse_address(text) == expected


@pytest.mark.parametrize(
    "text",
    # The last four reached the resolver as names and failed as "cannot connect" (status
    # 1) instead of a bad command line (status 2).
    ["", "host:0", "host:65536", "host:x", "[::1", ":80", "bad::host", "host:12:34", "a b",
     "user@host"],
)  # fmt: skip
def test_bad_addresses_are_plain_errors(text: str) -> None:
    with pytest.raises(ValueError, match=r"address|port"):
        parse_address(text)


def test_bot_needs_no_port(capsys: pytest.CaptureFixture[str]) -> None:
    from leekha.client.bot import command

    parser = argparse.ArgumentParser()
    command.add_arguments(parser)
    options, problem = command._options(parser.parse_args(["--table", "t"]))
    assert problem is None and (options[0].host, options[0].port) == ("127.0.0.1", 7241)
    options, problem = command._options(parser.parse_args(["h:1", "--table", "t"]))
    assert (options[0].host, options[0].port) == ("h", 1)


@pytest.mark.parametrize(
    ("text", "pair"),
    [
        ("talbees=true", ("talbees", True)),
        ("target=51", ("target", 51)),
        ("void_rule=free", ("void_rule", "free")),
        ("void-rule=free", ("void_rule", "free")),
        ('pass_direction="alternate"', ("pass_direction", "alternate")),
    ],
)
def test_rule_values_read_as_json_or_text(text: str, pair: tuple[str, object]) -> None:
    assert parse_rule(text) == pair


@pytest.mark.parametrize("command", ["match", "play"])
@pytest.mark.parametrize("overrides", [{"target": -5}, {"void_rul": "free"}, {"talbees": "yes"}])
def test_a_bad_rule_gets_the_servers_error(
    command: str, overrides: Rules, capsys: pytest.CaptureFixture[str]
) -> None:
    host = Harness().player("host")
    reply = host.request(M.CreateTable(id=1, name="x", overrides=overrides))
    assert isinstance(reply, M.Error) and reply.code == "bad_rules"
    ((key, value),) = overrides.items()
    text = value if isinstance(value, str) else str(value)
    assert cli.main([command, "--rule", f"{key}={text}"]) == 2
    assert capsys.readouterr().err.strip() == f"leekha {command}: {reply.message}"


def test_rule_overrides_change_the_match(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["match", "--rounds", "3", "--strategies", "random,random,random,random"]
    rules = ["--rules", "classic", "--rule", "talbees=true", "--rule", "target=5"]
    assert cli.main([*argv, *rules]) == 0
    out = capsys.readouterr().out
    assert "talbees=true" in out and "target=5" in out


@pytest.mark.slow  # starts a process or a pty: not in the fast lane
def test_help_imports_no_network_or_screen_library() -> None:
    code = (
        "import sys; from leekha.client import cli; cli.build_parser(['--help']); "
        "heavy = {'twisted', 'zeroconf', 'prompt_toolkit', 'numpy', 'dask'}; "
        "print(sorted(heavy & {m.split('.')[0] for m in sys.modules}))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert out.stdout.strip() == "[]"


@pytest.mark.slow  # starts a process or a pty: not in the fast lane
def test_play_loads_no_tls_and_still_serves_and_connects() -> None:
    """`leekha play`'s process never loads pyOpenSSL or cryptography (start-up time):
    every module its table needs imports without them, and a server on 127.0.0.1 still
    takes a plain connection."""
    code = """
import sys
from leekha.client.eventloop import install_reactor, run_on_reactor
install_reactor(tls=False)
from leekha.server import local
import leekha.client.tui.app, leekha.client.tui.play, leekha.server.app
async def main(reactor):
    from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol
    from twisted.internet.protocol import Protocol
    from leekha.client.eventloop import twisted_await
    import asyncio, tempfile, pathlib
    with tempfile.TemporaryDirectory() as tmp:
        started = local.start(reactor, pathlib.Path(tmp), name="t", bot_think_ms=0)
        server = await twisted_await(started)
        try:
            end = TCP4ClientEndpoint(reactor, "127.0.0.1", server.port)
            loop = asyncio.get_running_loop()
            proto = await connectProtocol(end, Protocol()).asFuture(loop)
            proto.transport.loseConnection()
        finally:
            await twisted_await(server.stop())
    loaded = {m.split(".")[0] for m in sys.modules if sys.modules[m] is not None}
    print(sorted(loaded & {"OpenSSL", "cryptography", "service_identity"}))
    return 0
sys.exit(run_on_reactor(main, tls=False))
"""
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert out.stdout.strip() == "[]", out.stderr


def test_strategy_refusals_are_the_registrys_words_and_translated() -> None:
    """The client's copy of every StrategyError template is the engine's, word for word,
    so each refusal is said in the interface language."""
    from leekha.client.options import STRATEGY_TEMPLATES
    from leekha.common.bots import base

    engine = {v for k, v in vars(base).items() if k.isupper() and isinstance(v, str)}
    engine = {t for t in engine if "{" in t}
    assert engine == set(STRATEGY_TEMPLATES)


def test_the_table_name_limit_is_the_wires() -> None:
    from leekha.client.options import TABLE_NAME_MAX
    from leekha.protocol.records import NAME

    assert NAME.max_len == TABLE_NAME_MAX


def test_one_list_of_strategies_is_the_registry() -> None:
    """The list the commands' help and refusals show is what the registry holds."""
    from leekha.common.bots import BUILTIN
    from leekha.common.bots.base import _REGISTRY, strategy_names

    strategy_names()  # loads every built-in module
    ours = [n for n, f in _REGISTRY.items() if f.__module__.startswith("leekha.common.bots")]
    assert sorted(ours) == sorted(BUILTIN)
    assert strategy_names()[: len(BUILTIN)] == list(BUILTIN)


def test_each_built_in_name_is_registered_by_its_module() -> None:
    from leekha.common.bots import BUILTIN, MODULE_OF
    from leekha.common.bots.base import _REGISTRY, strategy_names

    strategy_names()
    assert set(MODULE_OF) == set(BUILTIN)
    for name in BUILTIN:
        assert _REGISTRY[name].__module__ == f"leekha.common.bots.{MODULE_OF[name]}", name


#: What `leekha play`'s table and server import, and a first name check, in a process of
#: its own: prints what of the deferred work was done anyway.
_DEFERRED_PROBE = """
import sys
from leekha.client.eventloop import install_reactor
install_reactor(tls=False)
import leekha.client.tui.app, leekha.client.tui.play, leekha.server.app, leekha.server.local
from leekha.protocol.message import MESSAGE_TYPES
from leekha.server.domain.limits import skeleton
assert skeleton("\u0501an") == skeleton("dan")  # Cyrillic komi de: the look-alikes are there
made = [t for t, c in MESSAGE_TYPES.items() if "__dataclass_fields__" in c.__dict__]
loaded = {m for m in sys.modules if sys.modules[m] is not None}
# A module may build a constant message (server/connection.py's refusal frame).
few = len(made) <= 3 < len(MESSAGE_TYPES)
deferred = {"confusable_homoglyphs", "babel.dates", "difflib", "tomllib"}
print(sorted(loaded & deferred), few)
"""


@pytest.mark.slow  # starts a process or a pty: not in the fast lane
def test_play_defers_what_its_first_table_does_not_need(tmp_path: Path) -> None:
    """Start-up time: importing what `leekha play` runs makes hardly any message dataclass
    (each is made when first used), leaves Babel's calendar data, difflib and tomllib (a
    refusal's wording, a config file) out, and once the look-alike map is cached, a name
    check reads the cache, not confusable-homoglyphs' JSON. The first run, with an empty
    cache, shows that the probe sees the library when it loads."""
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"))

    def probe() -> str:
        out = subprocess.run(
            [sys.executable, "-c", _DEFERRED_PROBE],
            capture_output=True, text=True, timeout=60, env=env,
        )  # fmt: skip
        assert out.returncode == 0, out.stderr
        return out.stdout.strip()

    assert probe() == "['confusable_homoglyphs'] True"
    assert probe() == "[] True"


def test_the_tournament_limits_on_the_command_line_are_the_servers() -> None:
    """`leekha tournament create` refuses out of range what the server would refuse."""
    from leekha.client.tournament import command
    from leekha.protocol.records import TIMER
    from leekha.protocol.schema import IntSpec
    from leekha.server.domain.tournament import plan

    assert (command.MAX_DEALS, command.MAX_STAGES) == (plan.MAX_DEALS, plan.MAX_STAGES)
    assert isinstance(TIMER.inner, IntSpec)
    assert (TIMER.inner.lo, TIMER.inner.hi) == (1, command.MAX_MOVE_TIMER_S)
