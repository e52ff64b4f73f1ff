"""Small modules: none in the packages over 400 lines unless its top says why, and none in
client/ over 400 at all (issue 24's "the largest module in client/ is under 400 lines").

The typing work of one day grew two client modules past the line without anyone noticing;
this is the check that notices.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("common", "protocol", "server", "client")
LIMIT = 400
#: How a module's docstring says why it is longer (each oversized one today says one).
REASON = re.compile(r"(?i)why one module|over 400 lines|one module on purpose")


def _sizes() -> dict[str, tuple[int, str]]:
    out = {}
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            doc = ast.get_docstring(ast.parse(text)) or ""
            out[str(path.relative_to(ROOT))] = (text.count("\n"), doc)
    return out


def test_no_package_module_is_over_400_lines_without_saying_why() -> None:
    sizes = _sizes()
    assert len(sizes) > 100  # the walk found the tree
    silent = [
        f"{name} ({n})" for name, (n, doc) in sizes.items() if n > LIMIT and not REASON.search(doc)
    ]
    assert silent == [], "over 400 lines, and the top does not say why: " + ", ".join(silent)


def test_every_client_module_is_under_400_lines() -> None:
    big = [
        f"{name} ({n})"
        for name, (n, _doc) in _sizes().items()
        if name.startswith("client/") and n >= LIMIT
    ]
    assert big == [], "client/ modules of 400 lines or more: " + ", ".join(big)
