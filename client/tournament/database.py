"""The database half of `leekha tournament`: `status ID` and `export ID` read the server's
data folder (SQLite in WAL mode may be read while the server runs), through the runner's
own store, so they show exactly what the server has committed."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import platformdirs

from leekha.client.i18n import _
from leekha.client.tournament import text
from leekha.protocol.views import ExportDoc, Tournament
from leekha.server.persistence import Store, db_path
from leekha.server.tournament import export
from leekha.server.tournament.store import Stored, TournamentStore


class NotFound(Exception):
    """No database, or no such tournament in it; the text says which."""


def load(data_dir: Path | None, tournament_id: int) -> Stored:
    folder = data_dir if data_dir is not None else platformdirs.user_data_path("leekha")
    path = db_path(folder.expanduser())
    if not path.is_file():
        raise NotFound(_("no database at {path}").format(path=path))
    store = Store(path)
    try:
        stored = TournamentStore(store).load(tournament_id)
    finally:
        store.close()
    if stored is None:
        raise NotFound(_("no tournament {id} in {path}").format(id=tournament_id, path=path))
    return stored


def document(stored: Stored) -> ExportDoc:
    """The export document of a stored tournament."""
    return export.document(stored.meta(), stored.entrants, list(stored.results.values()))


def state_of(stored: Stored, doc: ExportDoc) -> Tournament:
    """The document as `text.state_lines` reads a server's state: an entrant is named by
    its label (as the wire names it) and present when it has entered; live tables are
    the running server's to tell."""
    t = doc["tournament"]
    timer = t["move_timer_s"]
    return {
        "id": t["id"], "name": t["name"], "format": t["format"], "status": t["status"],
        "preset": t["preset"], "rules": t["rules"], "deals": t["deals"],
        "stages": t["stages"], "move_timer_s": None if timer is None else round(timer),
        "entrants": [
            {"index": e["index"], "name": e["label"], "strategy": e["strategy"],
             "kind": e["kind"], "present": e["index"] in stored.tokens}
            for e in doc["entrants"]
        ],
        "standings": list(doc["standings"]), "tables": [], "games_done": t["games_done"],
        "games_total": t["games_total"], "notes": [], "starts_at": t["starts_at"],
    }  # fmt: skip


def run(args: argparse.Namespace) -> int:
    stored = load(args.data_dir, args.tournament_id)
    doc = document(stored)
    if args.tournament_command == "status":
        out = "\n".join(text.state_lines(state_of(stored, doc)))
    elif args.format == "json":
        out = json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False)
    else:
        out = text.export_text(doc)
    if getattr(args, "output", None) is None:
        sys.stdout.write(out + "\n")
    else:
        args.output.write_text(out + "\n", encoding="utf-8")
    return 0
