"""docs/protocol.md says which version it describes, and that is the version the code
speaks: its words, its example `hello` and its "Changes in" sections follow
`PROTOCOL_VERSION`."""

from __future__ import annotations

import re
from pathlib import Path

from leekha.protocol.version import PROTOCOL_VERSION

DOC = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text("utf-8")
SPOKEN = f"{PROTOCOL_VERSION[0]}.{PROTOCOL_VERSION[1]}"


def test_the_doc_says_it_is_the_version_the_code_speaks() -> None:
    (said,) = re.findall(r"This document is \*\*(\d+\.\d+)\*\*", DOC)
    assert said == SPOKEN
    (examples,) = re.findall(r"The examples below are at (\d+\.\d+)\.", DOC)
    assert examples == SPOKEN
    (listed,) = re.findall(r"highest minor it knows: `\[\[(\d+), (\d+)\]\]`", DOC)
    assert tuple(map(int, listed)) == PROTOCOL_VERSION


def test_the_newest_changes_section_is_the_version_the_code_speaks() -> None:
    sections = re.findall(r"^### Changes in (\d+)\.(\d+)$", DOC, re.M)
    assert max((int(a), int(b)) for a, b in sections) == PROTOCOL_VERSION
