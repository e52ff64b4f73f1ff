"""docs/ARCHITECTURE.md maps the whole tree: every module of the four packages is named
there, and nothing it names is gone. Another engineer's new module fails this test until
its line is added, and the failure says which line and where."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("common", "protocol", "server", "client")
DOC = ROOT / "docs" / "ARCHITECTURE.md"
ENTRY = re.compile(r"^- `((?:common|protocol|server|client)/[\w/]+\.py)`: \S", re.M)


def modules() -> set[str]:
    return {
        p.relative_to(ROOT).as_posix()
        for pkg in PACKAGES
        for p in (ROOT / pkg).rglob("*.py")
        if "__pycache__" not in p.parts
    }


def mapped() -> list[str]:
    return ENTRY.findall(DOC.read_text(encoding="utf-8"))


def test_every_package_module_is_on_the_map() -> None:
    missing = sorted(modules() - set(mapped()))
    lines = [
        f"  - `{m}`: <what it is for, in a few words>   (under '### {m.split('/')[0]}/')"
        for m in missing
    ]
    assert not missing, "docs/ARCHITECTURE.md does not map these modules; add:\n" + "\n".join(lines)


def test_the_map_names_no_module_that_is_gone_and_each_once() -> None:
    names = mapped()
    gone = sorted(set(names) - modules())
    assert not gone, f"docs/ARCHITECTURE.md maps modules that do not exist any more: {gone}"
    twice = sorted({n for n in names if names.count(n) > 1})
    assert not twice, f"docs/ARCHITECTURE.md maps these modules twice: {twice}"


def test_the_flow_names_only_modules_that_exist() -> None:
    """The socket-to-engine walk names modules in backticks; each must exist."""
    text = DOC.read_text(encoding="utf-8")
    flow = text[text.index("## One action") :]
    named = set(re.findall(r"`((?:common|protocol|server|client)/[\w/]+\.py)`", flow))
    assert named and named <= modules(), sorted(named - modules())
