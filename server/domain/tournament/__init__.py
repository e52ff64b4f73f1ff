"""Tournaments the server runs: pure planning (plan.py), standings (standings.py) and the
export (export.py), with the Twisted runner and its SQLite store beside them.

The pure modules know nothing of tables or connections: a tournament is a list of
entrants, a list of planned games, and the results of the games that finished. The
runner plays the plan; the `status` and `export` commands, the TUI and the server's live
state all compute standings from the same results with the same function.
"""
