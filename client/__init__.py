"""Leekha: client package."""
