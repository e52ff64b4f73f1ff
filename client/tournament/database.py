"""The database half of `leekha tournament`: `status ID` and `export ID` read a tournament
from the server's data folder through `server/local.py`, which the command line hands over
as `args.local` (the client imports nothing of the server), and print it."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Protocol

from leekha.client.i18n import _
from leekha.client.tournament import text
from leekha.protocol.views import ExportDoc, Tournament


class Local(Protocol):
    """What these commands need of the server's data folder: server/local.py's."""

    def kept_tournament(
        self, tournament_id: int, folder: Path | None = None
    ) -> tuple[ExportDoc | None, frozenset[int], Path]: ...


class NotFound(Exception):
    """No database, or no such tournament in it, or no writing the export's --output
    file; the text says which (the command's status 1, a sentence, no traceback)."""


def load(
    local: Local, data_dir: Path | None, tournament_id: int
) -> tuple[ExportDoc, frozenset[int]]:
    """The tournament's export document and the entrants that have entered (indices)."""
    doc, entered, path = local.kept_tournament(tournament_id, data_dir)
    if not path.is_file():
        raise NotFound(_("no database at {path}").format(path=path))
    if doc is None:
        raise NotFound(_("no tournament {id} in {path}").format(id=tournament_id, path=path))
    return doc, entered


def state_of(doc: ExportDoc, entered: frozenset[int]) -> Tournament:
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
             "kind": e["kind"], "present": e["index"] in entered}
            for e in doc["entrants"]
        ],
        "standings": list(doc["standings"]), "tables": [], "games_done": t["games_done"],
        "games_total": t["games_total"], "notes": [], "starts_at": t["starts_at"],
    }  # fmt: skip


def run(args: argparse.Namespace) -> int:
    doc, entered = load(args.local, args.data_dir, args.tournament_id)
    if args.tournament_command == "status":
        out = "\n".join(text.state_lines(state_of(doc, entered)))
    elif args.format == "json":
        out = json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False)
    else:
        out = text.export_text(doc)
    if getattr(args, "output", None) is None:
        sys.stdout.write(out + "\n")
    else:
        try:
            args.output.write_text(out + "\n", encoding="utf-8")
        except OSError as exc:  # no such folder, a folder, no permission: words, not a trace
            raise NotFound(
                _("cannot write {path}: {problem}").format(path=args.output, problem=exc.strerror)
            ) from exc
    return 0
