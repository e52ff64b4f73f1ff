"""Seeds derived from seeds: one rule, so a match game or a tournament deal gets the same
cards on any machine, in any process, in any order of play."""

from __future__ import annotations

import random


def derive_seed(*parts: int) -> int:
    """A 62-bit seed from a tuple; string seeding hashes with SHA-512, stable everywhere."""
    return random.Random(":".join(map(str, parts))).getrandbits(62)
