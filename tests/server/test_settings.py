"""Server settings: defaults, the TOML file, command-line precedence and clear errors."""

from __future__ import annotations

import argparse
import re
import tomllib
from dataclasses import fields
from pathlib import Path

import pytest

from leekha.server import settings as settings_mod
from leekha.server.settings import (
    DEFAULT_PORT,
    ServerSettings,
    SettingsError,
    load_settings,
)
from leekha.server.settings_cli import (
    add_server_arguments,
    example_config,
    option_flag,
    settings_from_args,
)


@pytest.fixture(autouse=True)
def no_user_config(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Point the per-user default config at a temp path so the developer's file never leaks in."""
    path = tmp_path / "xdg" / "server.toml"
    monkeypatch.setattr(settings_mod, "default_config_path", lambda: path)
    return path


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "server.toml"
    path.write_text(text, encoding="utf-8")
    return path


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_server_arguments(parser)
    return parser.parse_args(list(argv))


def test_defaults_without_any_file() -> None:
    s = load_settings(None, {})
    assert (s.host, s.port, s.announce) == ("0.0.0.0", DEFAULT_PORT, True)
    assert DEFAULT_PORT == 7241
    assert s.data_dir.name == "leekha"
    assert s.name.startswith("Leekha on ")
    assert (s.max_connections, s.max_connections_per_ip, s.rate_burst) == (20000, 64, 100)
    assert (s.log_level, s.log_file, s.bot_think_ms) == ("info", None, 50)


def test_default_user_file_is_read_when_present(no_user_config: Path) -> None:
    no_user_config.parent.mkdir()
    no_user_config.write_text('name = "Cellar"\n', encoding="utf-8")
    assert load_settings(None, {}).name == "Cellar"


def test_file_values_are_typed_and_applied(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        'port = 9000\nname = "  Basement  "\nannounce = false\ndata_dir = "~/leekha-data"\n'
        'hello_timeout_s = 5\nlog_level = "DEBUG"\nlog_file = "/tmp/l.log"\n',
    )
    s = load_settings(path, {})
    assert (s.port, s.name, s.announce) == (9000, "Basement", False)
    assert s.data_dir == Path("~/leekha-data").expanduser()
    assert s.hello_timeout_s == 5.0 and isinstance(s.hello_timeout_s, float)
    assert (s.log_level, s.log_file) == ("debug", Path("/tmp/l.log"))


def test_command_line_wins_over_file_and_none_means_not_given(tmp_path: Path) -> None:
    path = write(tmp_path, 'port = 9000\nname = "From file"\nmax_chat_len = 100\n')
    s = load_settings(path, {"port": 9100, "name": None, "max_chat_len": None})
    assert (s.port, s.name, s.max_chat_len) == (9100, "From file", 100)


def test_argparse_options_cover_every_setting_and_default_to_none(tmp_path: Path) -> None:
    args = parse()
    for f in fields(ServerSettings):
        assert getattr(args, f.name) is None, f.name
    path = write(tmp_path, "port = 9000\nannounce = true\nrate_burst = 10\n")
    args = parse(
        "--config",
        str(path),
        "--port",
        "9200",
        "--no-announce",
        "--data",
        str(tmp_path),
        "--max-connections",
        "50",
        "--dead-peer-timeout-s",
        "7.5",
        "--log-level",
        "WARN",
    )
    s = settings_from_args(args)
    assert (s.port, s.announce, s.data_dir, s.rate_burst) == (9200, False, tmp_path, 10)
    assert (s.max_connections, s.dead_peer_timeout_s, s.log_level) == (50, 7.5, "warn")


def test_explicit_missing_file_is_an_error_default_missing_is_not(tmp_path: Path) -> None:
    load_settings(None, {})  # default path does not exist: fine
    with pytest.raises(SettingsError, match="file not found"):
        load_settings(tmp_path / "nope.toml", {})
    with pytest.raises(SettingsError, match="directory"):
        load_settings(tmp_path, {})


@pytest.mark.parametrize(
    ("text", "key", "allowed"),
    [
        ("port = 70000", "port", "from 0 to 65535"),
        ('port = "7241"', "port", "an integer"),
        ("port = 7241.5", "port", "an integer"),
        ("announce = 1", "announce", "true or false"),
        ("max_connections = true", "max_connections", "an integer"),
        ("max_connections = 0", "max_connections", "from 1 to"),
        ("hello_timeout_s = -1", "hello_timeout_s", "a number from 0.1"),
        ("hello_timeout_s = inf", "hello_timeout_s", "a number"),
        ('log_level = "loud"', "log_level", "one of 'debug'"),
        ('name = "   "', "name", "1 to 63 characters"),
        ("data_dir = 3", "data_dir", "a path string"),
        ("[server]\nport = 1", "server", "unknown setting"),
    ],
)
def test_bad_values_name_the_key_and_what_is_allowed(
    tmp_path: Path, text: str, key: str, allowed: str
) -> None:
    path = write(tmp_path, text + "\n")
    with pytest.raises(SettingsError) as info:
        load_settings(path, {})
    message = str(info.value)
    assert info.value.key == key
    assert f"{key}:" in message and allowed in message and str(path) in message


def test_unknown_key_suggests_the_close_one(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="did you mean 'max_chat_len'"):
        load_settings(write(tmp_path, "max_chat_length = 5\n"), {})


def test_bad_override_is_reported_as_command_line() -> None:
    with pytest.raises(SettingsError, match=r"command line: port: .*0 to 65535"):
        load_settings(None, {"port": -1})
    with pytest.raises(SettingsError, match="unknown setting"):
        load_settings(None, {"colour": "red"})


def test_broken_toml_and_binary_files_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="invalid TOML"):
        load_settings(write(tmp_path, "port = = 3\n"), {})
    binary = tmp_path / "bin.toml"
    binary.write_bytes(b"\xff\xfe\x00port")
    with pytest.raises(SettingsError, match=r"(not UTF-8|invalid TOML)"):
        load_settings(binary, {})


def test_example_config_lists_every_key_and_uncommented_is_valid(tmp_path: Path) -> None:
    text = example_config()
    keys = {f.name for f in fields(ServerSettings)}
    for key in keys:
        assert f"# {key} = " in text, key
    # Uncomment the plain default lines: the result must load and equal the defaults.
    setting = re.compile(r"^# ([a-z_]+ = [^#<]*)$")
    lines = [m.group(1) for line in text.splitlines() if (m := setting.match(line))]
    path = write(tmp_path, "\n".join(lines) + "\n")
    parsed = tomllib.loads(path.read_text(encoding="utf-8"))
    unset = {"data_dir", "name", "log_file", "tls_cert", "tls_key", "game_seed"}
    assert set(parsed) == keys - unset
    assert load_settings(path, {}) == load_settings(None, {})


def test_shipped_example_matches_generator() -> None:
    shipped = Path(__file__).resolve().parents[2] / "docs" / "server.example.toml"
    assert shipped.read_text(encoding="utf-8") == example_config()


def test_hosting_guide_documents_every_key_and_option() -> None:
    guide = (Path(__file__).resolve().parents[2] / "docs" / "hosting.md").read_text("utf-8")
    for f in fields(ServerSettings):
        assert f"| `{f.name}` |" in guide, f.name
        assert f"`{option_flag(f.name)}" in guide, f.name


def test_game_seed_makes_every_game_deal_the_same_and_is_unset_by_default() -> None:
    from twisted.internet.testing import MemoryReactorClock

    from leekha.server.domain.lobby import Lobby
    from leekha.server.domain.persistence import Store

    assert load_settings(None, {}).game_seed is None
    fixed = settings_from_args(parse("--game-seed", "1234"))
    assert fixed.game_seed == 1234
    with pytest.raises(SettingsError, match="game_seed: must be an integer from 0 to"):
        load_settings(None, {"game_seed": -1})
    store = Store(":memory:")
    try:
        lobby = Lobby(MemoryReactorClock(), fixed, store)
        assert [lobby.new_seed() for _ in range(3)] == [1234, 1234, 1234]
        free = Lobby(MemoryReactorClock(), load_settings(None, {}), store)
        assert len({free.new_seed() for _ in range(8)}) > 1
    finally:
        store.close()
