"""Invitation lines: the URL form read and written one way, and a line that round-trips
end to end: a host's real `leekha join` (pty + pyte) shows it at the table, `leekha
invite` prints the same one, and a friend's `leekha join LINE` lands at that table over
TLS pinned to the fingerprint in the line (and a line with another fingerprint is refused).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from helpers.loopback import serve_for_people
from helpers.pty import LEEKHA, WAIT, Terminal
from hypothesis import given
from hypothesis import strategies as st

from leekha.client.tui.social import InviteBox
from leekha.protocol.invite import Invite, InviteError, normalize_fingerprint, web_link

FP = ":".join(["AB"] * 32)


def test_a_line_reads_back_as_what_was_written() -> None:
    invite = Invite("192.168.1.20", 7300, 12, "open sesame&x=1", True, FP)
    url = invite.url()
    assert url == (
        "leekha://192.168.1.20:7300/12?password=open%20sesame%26x%3D1&tls=1&fp=" + "AB" * 32
    )
    assert Invite.parse(url) == invite
    assert Invite.parse(invite.line()) == invite  # the whole pasted command line too
    assert invite.line() == f"leekha join '{url}'"


def test_defaults_ipv6_and_the_fingerprint_forms() -> None:
    plain = Invite.parse("leekha://lan-box/3")
    assert (plain.host, plain.port, plain.table_id) == ("lan-box", 7241, 3)
    assert (plain.password, plain.tls, plain.fingerprint) == (None, False, None)
    assert plain.url() == "leekha://lan-box:7241/3"
    v6 = Invite.parse("leekha://[::1]:9000/0?tls=1")
    assert (v6.host, v6.port, v6.tls, v6.address) == ("::1", 9000, True, "[::1]:9000")
    # a fingerprint means TLS, and either spelling is the one colon form
    assert Invite.parse("leekha://h/1?fp=" + "ab" * 32).tls
    assert normalize_fingerprint("ab" * 32) == normalize_fingerprint(FP.lower()) == FP


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("http://h/1", "starts with leekha://"),
        ("leekha://h/", "names no table"),
        ("leekha://h/x", "names no table"),
        ("leekha://h:0/1", "port"),
        ("leekha://h:99999/1", "malformed"),
        ("leekha://h/1?fp=12", "64 hex digits"),
        ("leekha://h/1?tls=yes", "tls must be 0 or 1"),
        ("leekha://h/1?seat=2", "unknown invitation option 'seat'"),
        ("leekha://h/1?tls=1&tls=0", "given twice"),
        ("leekha://h/1?password=", "1 to 64"),
        ("leekha://u@h/1", "malformed"),
    ],
)
def test_a_bad_line_says_what_is_wrong(text: str, problem: str) -> None:
    with pytest.raises(InviteError, match=problem):
        Invite.parse(text)


@given(
    password=st.none() | st.text(min_size=1, max_size=64),
    table=st.integers(0, 2**63 - 1),
    port=st.integers(1, 65535),
    fp=st.none() | st.binary(min_size=32, max_size=32).map(bytes.hex),
)
def test_any_invitation_round_trips(
    password: str | None, table: int, port: int, fp: str | None
) -> None:
    invite = Invite("example.org", port, table, password, fp is not None, fp)
    assert Invite.parse(invite.line()) == invite
    assert "'" not in invite.url() and " " not in invite.url()  # safe inside the quotes


def test_the_web_link_keeps_the_table_and_password_in_the_fragment() -> None:
    page = "http://192.168.1.20:7242/"
    assert web_link(page, 12) == "http://192.168.1.20:7242/#/table/12"
    assert web_link(page, 12, "open sesame/?#&") == (
        "http://192.168.1.20:7242/#/table/12?password=open%20sesame%2F%3F%23%26"
    )
    assert web_link("https://cards.example.org", 3) == "https://cards.example.org/#/table/3"
    box = InviteBox(Invite("192.168.1.20", 7241, 12), "sesame", page=page)
    assert box.web == "http://192.168.1.20:7242/#/table/12"  # the host chooses: out
    box.toggle()
    assert box.web == "http://192.168.1.20:7242/#/table/12?password=sesame"
    assert InviteBox(Invite("h", 1, 2)).web is None  # a server without a page


def _box_line(term: Terminal) -> str:
    """The invitation as the host's screen shows it, its pieces joined again."""
    rows = [ln.strip(" │") for ln in term.lines()]
    start = next(i for i, r in enumerate(rows) if r.startswith("leekha join '"))
    line = rows[start]
    for row in rows[start + 1 :]:
        if line.endswith("'"):
            break
        line += row
    return line


@pytest.mark.slow  # starts a process or a pty: not in the fast lane
def test_an_invitation_round_trips_over_tls(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server, port = serve_for_people(tmp_path, monkeypatch, "--tls")
    terms: list[Terminal] = []
    try:
        assert server.stdout is not None
        fingerprint = server.stdout.readline().split()[-1]
        ann = Terminal([LEEKHA, "join", f"127.0.0.1:{port}", "--tls", "--name", "ann", "--guest"])
        terms.append(ann)
        ann.until(lambda: "Press n to create one" in ann.text(), "ann's lobby")
        ann.send("n")
        ann.until(lambda: "new table" in ann.text(), "the create form")
        ann.send("\x1b[B\x1b[B\x1b[B")  # down to the password
        ann.send("sesame\r")
        ann.until(lambda: "ann (you)" in ann.text(), "ann at her table")
        ann.send("I")
        ann.until(lambda: "invite a friend" in ann.text(), "the invitation box")
        assert "password=" not in ann.text()  # the host chooses: out by default
        ann.send("p")
        ann.until(lambda: "password=sesame" in ann.text(), "the password put in")
        line = _box_line(ann)
        invite = Invite.parse(line)
        assert invite.fingerprint == fingerprint and invite.password == "sesame"
        assert (invite.host, invite.port, invite.tls) == ("127.0.0.1", port, True)

        printed = subprocess.run(
            [LEEKHA, "invite", f"127.0.0.1:{port}", str(invite.table_id), "--tls",
             "--password", "sesame"],
            capture_output=True, text=True, timeout=WAIT, env=dict(os.environ),
        )  # fmt: skip
        assert printed.returncode == 0, printed.stderr
        first, web = printed.stdout.strip().splitlines()
        assert first == line
        # The same table for a browser: the page's address from the welcome (https, as the
        # game is TLS), the route and the password in the fragment.
        tail = f"/#/table/{invite.table_id}?password=sesame"
        assert web.startswith("https://127.0.0.1:") and web.endswith(tail), web
        assert "open in a browser" in ann.text()
        assert "".join(r.strip(" │") for r in ann.lines()).count(tail) == 1
        wrong_pw = subprocess.run(
            [LEEKHA, "invite", f"127.0.0.1:{port}", str(invite.table_id), "--tls",
             "--password", "open"],
            capture_output=True, text=True, timeout=WAIT, env=dict(os.environ),
        )  # fmt: skip
        assert wrong_pw.returncode == 1 and wrong_pw.stdout == ""  # no line that seats nobody
        assert "not the table's password" in wrong_pw.stderr

        ann.send("\x1b")  # the box closes: the table is in view again
        url = line.split("'")[1]
        # Without its password the line asks for it (no --tls either: the line says so).
        bare = url.replace("password=sesame&", "")
        assert "sesame" not in bare
        bob = Terminal([LEEKHA, "join", bare, "--name", "bob", "--guest"])
        terms.append(bob)
        bob.until(lambda: "This table has a password." in bob.text(), "bob asked for it")
        bob.send("sesame\r")
        bob.until(lambda: "bob (you)" in bob.text() and "ann" in bob.text(), "bob at ann's table")
        ann.until(lambda: "bob" in ann.text(), "ann sees bob sit")

        wrong = url.replace("fp=" + fingerprint.replace(":", "")[:2], "fp=00", 1)
        assert wrong != url
        carol = Terminal([LEEKHA, "join", wrong, "--name", "carol", "--guest"])
        terms.append(carol)
        carol.until(lambda: carol.proc.poll() is not None, "carol's join to give up")
        assert carol.proc.returncode == 1
        text = "".join(carol.text().split())  # wrapped anywhere at 80 columns
        assert "isnottheoneinyourinvitation" in text, carol.text()
    finally:
        for term in terms:
            term.close()
        server.terminate()
        server.wait(timeout=10)
