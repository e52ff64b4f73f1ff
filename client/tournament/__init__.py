"""`leekha tournament`: create, list, follow and export the tournaments a server runs."""
