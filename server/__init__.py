"""Leekha: server package."""
