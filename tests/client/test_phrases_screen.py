"""Quick phrases as people see them: three real `leekha join` clients on 80x24 ptys read
through pyte, in English, Italian and Arabic, against a real server. One key and a digit
say a phrase; every screen shows it in its own language, in the lobby's chat and at the
table both in the chat pane and beside the sender's seat."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.loopback import serve_for_people
from helpers.pty import LEEKHA, Terminal

pytestmark = pytest.mark.slow  # the fast lane leaves it out: it starts processes or ptys


def shows(term: Terminal, text: str, what: str) -> None:
    """Wait until `text` is on `term`'s screen."""
    term.until(lambda: text in term.text(), what)


def client(port: int, name: str, lang: str) -> Terminal:
    argv = [LEEKHA, "--lang", lang, "--bidi", "off", "join", f"127.0.0.1:{port}"]
    return Terminal([*argv, "--name", name, "--guest"])


def test_a_phrase_in_every_language_on_every_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server, port = serve_for_people(tmp_path, monkeypatch)
    terms: list[Terminal] = []
    try:
        ann, bob, sara = (client(port, *who) for who in
                          (("ann", "en"), ("bob", "it"), ("sara", "ar")))  # fmt: skip
        terms += [ann, bob, sara]
        for term, chat in ((ann, "chat"), (bob, "chat"), (sara, "دردشة")):
            shows(term, chat, "a lobby")
        ann.send("p")
        ann.until(lambda: "quick phrases" in ann.text(), "the picker")
        ann.send("4")  # thanks
        for term, words in ((ann, "thanks!"), (bob, "grazie!"), (sara, "شكرا!")):
            shows(term, f"ann: {words}", f"{words} in the lobby")

        ann.create_table("ann")
        for term in (bob, sara):
            shows(term, "ann's table", "ann's table listed")
            term.send("\r")
        ann.until(lambda: "bob" in ann.text() and "sara" in ann.text(), "all three seated")
        ann.send("p1")  # hello
        for term, words in ((ann, "hello!"), (bob, "ciao!"), (sara, "مرحبا!")):
            shows(term, f"«{words}»", f"{words} by ann's seat")
            assert f"ann: {words}" in term.text()
            assert all(len(line) == 80 for line in term.lines()) and len(term.lines()) == 24
        shown = {t: t.text() for t in terms}
        assert "hello!" not in shown[bob] and "hello!" not in shown[sara]
    finally:
        for term in terms:
            term.close()
        server.terminate()
        server.wait(timeout=10)
