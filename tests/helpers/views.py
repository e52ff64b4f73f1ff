"""What objects are reachable from a value: the check that a bot sees its seat view and never
the game.
"""

from __future__ import annotations

import gc


def reachable(root: object) -> list[object]:
    seen: dict[int, object] = {}
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, type):
            continue
        seen[id(obj)] = obj
        stack.extend(gc.get_referents(obj))
    return list(seen.values())
