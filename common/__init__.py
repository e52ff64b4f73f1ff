"""The Leekha rules engine: pure, deterministic, no I/O.

Everything above this package (protocol, server, clients, bots) treats it as the single
source of truth for what is legal and how points are scored.
"""

__version__ = "0.1.0"
