"""Identity keys and the challenge a client signs: forged, replayed and foreign answers fail."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from leekha.client import identity as I
from leekha.protocol import auth
from leekha.protocol.errors import ProtocolError


def test_key_is_made_once_and_kept_owner_only(tmp_path: Path) -> None:
    first = I.load_or_create(tmp_path)
    again = I.load_or_create(tmp_path)
    assert first.public_key == again.public_key
    mode = stat.S_IMODE(os.stat(I.key_path(tmp_path)).st_mode)
    assert mode == 0o600


def test_export_import_moves_the_same_identity(tmp_path: Path) -> None:
    ident = I.Identity.generate()
    moved = I.Identity.from_export(ident.export_line())
    assert moved.public_key == ident.public_key
    I.save(moved, tmp_path / "other")
    loaded = I.load(tmp_path / "other")
    assert loaded is not None and loaded.public_key == ident.public_key


@pytest.mark.parametrize("line", ["", "hello", "leekha-id-1:!!!!", "leekha-id-1:AAAA"])
def test_damaged_export_lines_are_refused_clearly(line: str) -> None:
    with pytest.raises(I.IdentityError):
        I.Identity.from_export(line)


def _answer(ident: I.Identity, server: str, name: str, nonce: bytes) -> bytes:
    return ident.sign(auth.challenge_payload(server, name, ident.public_key, nonce))


def test_a_signed_challenge_verifies() -> None:
    ident = I.Identity.generate()
    nonce = os.urandom(auth.NONCE_BYTES)
    sig = _answer(ident, "srv", "Rana", nonce)
    payload = auth.challenge_payload("srv", "Rana", ident.public_key, nonce)
    assert auth.verify(ident.public_key, sig, payload)


def test_replayed_answer_fails_on_a_new_nonce() -> None:
    ident = I.Identity.generate()
    old = _answer(ident, "srv", "Rana", b"\x01" * 32)
    fresh = auth.challenge_payload("srv", "Rana", ident.public_key, b"\x02" * 32)
    assert not auth.verify(ident.public_key, old, fresh)


def test_answer_for_another_server_or_name_fails() -> None:
    ident = I.Identity.generate()
    nonce = b"\x07" * 32
    sig = _answer(ident, "srv-a", "Rana", nonce)
    key = ident.public_key
    assert not auth.verify(key, sig, auth.challenge_payload("srv-b", "Rana", key, nonce))
    assert not auth.verify(key, sig, auth.challenge_payload("srv-a", "Rania", key, nonce))


def test_wrong_key_fails() -> None:
    owner, thief = I.Identity.generate(), I.Identity.generate()
    nonce = b"\x09" * 32
    payload = auth.challenge_payload("srv", "Rana", owner.public_key, nonce)
    assert not auth.verify(owner.public_key, thief.sign(payload), payload)
    assert not auth.verify(owner.public_key, b"\x00" * 64, payload)
    assert not auth.verify(owner.public_key, b"short", payload)


@pytest.mark.parametrize(
    "key", ["rsa:AAAA", "ed448:" + "A" * 76, "nocolon", "ed25519:***", "ed25519:AAAA"]
)
def test_keys_of_unknown_type_or_shape_are_refused_with_bad_key(key: str) -> None:
    with pytest.raises(ProtocolError) as info:
        auth.decode_public_key(key)
    assert info.value.code == "bad_key"


def test_fingerprint_is_stable_and_short() -> None:
    ident = I.Identity.generate()
    fp = auth.key_fingerprint(ident.public_key)
    assert fp == I.Identity.from_export(ident.export_line()).fingerprint
    assert len(fp) == 19 and fp.count(":") == 3


def test_id_command_exports_and_imports(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from leekha.client import cli

    assert cli.main(["id", "--config-dir", str(tmp_path / "a"), "export"]) == 0
    line = capsys.readouterr().out.strip()
    assert cli.main(["id", "--config-dir", str(tmp_path / "b"), "import", line]) == 0
    capsys.readouterr()
    assert cli.main(["id", "--config-dir", str(tmp_path / "b"), "show"]) == 0
    shown = capsys.readouterr().out
    assert I.Identity.from_export(line).fingerprint in shown
    # a different identity is not silently overwritten
    other = I.Identity.generate().export_line()
    assert cli.main(["id", "--config-dir", str(tmp_path / "b"), "import", other]) == 1
    assert "--force" in capsys.readouterr().err
    assert cli.main(["id", "--config-dir", str(tmp_path / "b"), "import", "junk"]) == 1
    # `leekha id export > FILE` carried over: the file's name is read, not taken as the line
    (tmp_path / "id.txt").write_text(line + "\n")
    assert (
        cli.main(["id", "--config-dir", str(tmp_path / "c"), "import", str(tmp_path / "id.txt")])
        == 0
    )
    assert I.Identity.from_export(line).fingerprint in capsys.readouterr().out
    assert (
        cli.main(["id", "--config-dir", str(tmp_path / "c"), "import", str(tmp_path / "no")]) == 1
    )
    assert "cannot read" in capsys.readouterr().err


def test_join_proves_the_user_identity_unless_guest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from leekha.client.tui import join

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    first, again = join._identity(), join._identity()
    assert first is not None and again is not None and first.public_key == again.public_key
    (tmp_path / "leekha" / I.KEY_FILE).write_text("damaged")
    assert join._identity() is None  # a broken key file: play as a guest, say why


#: The worked example of docs/protocol.md ("Claimed names"), computed independently once.
GOLDEN = {
    "key": "ed25519:A6EHv/POEL4dcN0Y50vAmWfk1jCbpQ1fHdyGZBJVMbg=",
    "server": "srv-golden",
    "name": "  spaced   name ",
    "nonce": "ZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXp7fH1+f4CBgoM=",
    "signed": (
        "6c65656b68612d617574682d31007372762d676f6c64656e0020207370616365642020206e616d6520"
        "00656432353531393a41364548762f504f454c3464634e3059353076416d57666b316a4362705131"
        "66486479475a424a564d62673d006465666768696a6b6c6d6e6f707172737475767778797a7b7c7d"
        "7e7f80818283"
    ),
    "signature": (
        "E+fqham1ajkGpRb5CFcg8t3tSZ8uo5MJ3R5b0n53cDH8eCNtnVHV13uat/z5qLfJOI8VOUnzDeF2pSk+JhUaDw=="
    ),
}


def test_the_golden_key_proof_signs_the_name_as_sent_and_is_in_the_docs() -> None:
    import base64

    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    ident = I.Identity(Ed25519PrivateKey.from_private_bytes(bytes(range(32))))
    assert ident.public_key == GOLDEN["key"]
    nonce = base64.b64decode(GOLDEN["nonce"])
    assert nonce == bytes(range(100, 132))
    payload = auth.challenge_payload(GOLDEN["server"], GOLDEN["name"], ident.public_key, nonce)
    assert payload.hex() == GOLDEN["signed"]
    assert base64.b64encode(ident.sign(payload)).decode() == GOLDEN["signature"]
    doc = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")
    for field in ("key", "server", "nonce", "signed", "signature"):
        assert GOLDEN[field] in doc, field
    assert '`"  spaced   name "`' in doc
