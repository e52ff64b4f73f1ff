"""A tournament as the player reads it: translated headings and lines for the command line
and the terminal client alike.

The columns are `leekha.protocol.tournament_text`'s (one layout for the export, `status`
and the TUI); only the words are put in the interface language here.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime

from leekha.client.i18n import N_, _, language, ngettext
from leekha.client.rulestext import preset_word
from leekha.protocol import tournament_text as export
from leekha.protocol.tournament_text import counted
from leekha.protocol.views import (
    ExportDoc,
    LabelledEntrant,
    Tournament,
    TournamentMeta,
    TournamentSummary,
    TournamentTable,
)


def headings() -> dict[str, str]:
    """The export's column headings, translated."""
    return {
        "rank": _("rank"),
        "entrant": _("entrant"),
        "games": _("games"),
        "wins": _("won"),
        "rounds": _("rounds"),
        "points": _("points"),
        "mean": _("pts/round"),
        "interval": _("95% CI"),
        "fallback": _("fallback"),
        "game": _("game"),
        "deal": _("deal"),
        "rotation": _("rot"),
        "record": _("record"),
        "winners": _("winners"),
        "house": _("house"),
        "seat": _("seat {n}"),
    }


def format_name(fmt: str) -> str:
    return {"round_robin": _("round robin"), "swiss": _("swiss")}.get(fmt, fmt)


def status_name(status: str) -> str:
    words = {"waiting": _("waiting"), "running": _("running"), "finished": _("finished")}
    return words.get(status, status)


def deals_text(n: int) -> str:
    return ngettext("{n} deal", "{n} deals", n).format(n=n)


def games_text(done: int, total: int) -> str:
    return ngettext("{done}/{total} game", "{done}/{total} games", total).format(
        done=done, total=total
    )


def rules_text(preset: str, rules: Mapping[str, object] | None) -> str:
    """A preset by its name, and the rules changed from it in brackets when there are any
    ("classic (to 21)"): the rules summary of the tournament's own rules."""
    from leekha.client.rulestext import summary
    from leekha.common.config import PRESETS, RulesConfig
    from leekha.common.errors import LeekhaError

    base = PRESETS.get(preset)
    if base is None or not rules or dict(rules) == base.to_dict():
        return preset_word(preset)
    try:
        own = RulesConfig.from_dict(dict(rules))
    except (LeekhaError, TypeError, ValueError):
        return preset_word(preset)
    said = summary(own)
    if said == summary(base):  # changes the summary does not name: key=value, as given
        ours, theirs = own.to_dict(), base.to_dict()
        said = ", ".join(f"{k}={json.dumps(v)}" for k, v in ours.items() if theirs.get(k) != v)
    return _("{preset} ({rules})").format(preset=preset_word(preset), rules=said)


def about(t: Tournament | TournamentMeta) -> str:
    """Format, rules, deals (and Swiss stages): what kind of tournament it is; rules that
    differ from the preset's (`--rule target=21`) are said after its name."""
    text = _("{format}, rules {preset}, {deals}").format(
        format=format_name(t["format"]), preset=rules_text(t["preset"], t.get("rules")),
        deals=deals_text(t["deals"]),
    )  # fmt: skip
    if n := t["stages"]:
        stages = ngettext("{n} stage", "{n} stages", n).format(n=n)
        text = _("{about}, {stages}").format(about=text, stages=stages)
    return text


def progress(t: Tournament | TournamentSummary) -> str:
    """Status and games done: "running: 3/32 games"."""
    return _("{status}: {games}").format(
        status=status_name(t["status"]), games=games_text(t["games_done"], t["games_total"])
    )


def summary_lines(t: TournamentSummary, left: int | None = None) -> list[str]:
    """One tournament of a list: its summary line, and a second one under it for its
    start time if it has one (`left`: as `start_text`)."""
    start = start_text(t, left)
    return [summary_line(t)] + ([] if start is None else ["    " + start])


def summary_line(t: TournamentSummary) -> str:
    """One tournament of a list: id, name, format, status and progress."""
    entrants = ngettext("{n} entrant", "{n} entrants", t["entrants"]).format(n=t["entrants"])
    return _("#{id} {name}: {format}, {status}, {games}, {entrants}").format(
        id=t["id"], name=t["name"], format=format_name(t["format"]),
        status=status_name(t["status"]), games=games_text(t["games_done"], t["games_total"]),
        entrants=entrants,
    )  # fmt: skip


def local_time(at: float, now: float | None = None) -> str:
    """A time on the server's clock as this machine's local time, in the interface
    language: the time alone when it is today, else with the day."""
    # Babel's calendar data only when a time is shown: the rest of the client needs none.
    from babel.dates import format_datetime, format_time

    when = datetime.fromtimestamp(at).astimezone()
    today = (datetime.now() if now is None else datetime.fromtimestamp(now)).astimezone()
    if when.date() == today.date():
        return format_time(when, "short", tzinfo=when.tzinfo, locale=language())
    return format_datetime(when, "EEE d MMM, HH:mm", tzinfo=when.tzinfo, locale=language())


def countdown(seconds: int) -> str:
    """Seconds left as a person reads them: "4:05", or "2 h 05 min" past an hour."""
    seconds = max(0, seconds)
    if seconds < 3600:
        return f"{seconds // 60}:{seconds % 60:02d}"
    return _("{h} h {m:02d} min").format(h=seconds // 3600, m=seconds % 3600 // 60)


def start_text(t: Tournament | TournamentSummary, left: int | None = None) -> str | None:
    """(1.4) When a tournament starts, as a local time and a countdown (`left`: the
    seconds left now, else the server's `starts_in_s` as sent); None: no start time."""
    at = t.get("starts_at")
    if at is None:
        return None
    left = t.get("starts_in_s") if left is None else left
    when = local_time(at)
    if t["status"] != "waiting":
        return _("started at {time}").format(time=when)
    if left:
        return _("starts at {time}, in {left}").format(time=when, left=countdown(left))
    return _("starts at {time}, any moment now").format(time=when)


def labels(t: Tournament) -> dict[int, str]:
    """Entrant index -> how it is shown (a house bot marked as such)."""
    out = {}
    for e in t["entrants"]:
        label = e["name"] or e["strategy"] or "?"
        if e["kind"] == "house":
            label = _("{name} (house)").format(name=label)
        out[e["index"]] = label
    return out


def shown(t: Tournament) -> list[LabelledEntrant]:
    """The entrants as the standings tables label them (`labels`)."""
    return [{"index": index, "label": label} for index, label in labels(t).items()]


def missing(t: Tournament) -> str:
    """The client entrants not connected, by name ("" when all are here): whom a
    waiting tournament waits for."""
    away = [e for e in t["entrants"] if e["kind"] == "client" and not e["present"]]
    return ", ".join(e["name"] for e in away)


def state_lines(t: Tournament) -> list[str]:
    """A tournament's state (`tournament_state`'s map): title, progress, standings, live
    tables and the server's notes."""
    head = _("#{id} {name}: {about}").format(id=t["id"], name=t["name"], about=about(t))
    start = start_text(t)
    lines = [head, progress(t) if start is None else f"{progress(t)} · {start}"]
    lines += ["", *export.standings_table(shown(t), t["standings"], headings())]
    who = missing(t)
    if t["status"] == "waiting" and who:
        lines += ["", _("waiting for: {names}").format(names=who)]
    if t["tables"]:
        lines += ["", _("live tables:")]
        lines += [table_line(t, table) for table in t["tables"]]
    notes = note_lines(t)
    if notes:  # a log, not the state: "waiting for ..." stays in it once the games began
        lines += ["", _("what happened, latest last:"), *("  " + note for note in notes)]
    return lines


#: A tournament note's code (leekha.protocol.notices.TOURNAMENT_NOTES) -> its words; the
#: counted one, `fallback_moves`, is worded with `ngettext` in `note_text`.
NOTES: dict[str, str] = {
    "begins_in": N_("the games begin in {seconds} s"),
    "waiting_entrants": N_("waiting for the client entrants to enter"),
    "entered": N_("{name} entered"),
    "all_here": N_("every client entrant is here: the games begin"),
    "queued": N_("the server runs as many tournaments as it may: it begins when one ends"),
    "start_time": N_("the start time has come: the games begin"),
    "not_entered": N_("{names} did not enter in time: the fallback plays for them"),
    "away": N_("game {game}: {name} is away; the fallback plays for it"),
    "stage_drawn": N_("stage {stage} of {stages} drawn"),
    "cancelled": N_("cancelled by {name}"),
    "finished": N_("the tournament has finished"),
    "replayed": N_("game {game} lost its table; it is played again"),
}


def note_text(code: str, args: Mapping[str, object]) -> str | None:
    """One note in the interface language; None for a code this client does not know."""
    shown = {k: ", ".join(map(str, v)) if isinstance(v, list) else v for k, v in args.items()}
    try:
        if code == "fallback_moves":
            moves = int(str(args.get("moves", 0)))
            return ngettext(
                "game {game}: the fallback made {moves} move for {name}",
                "game {game}: the fallback made {moves} moves for {name}",
                moves,
            ).format(**shown)
        template = NOTES.get(code)
        return None if template is None else _(template).format(**shown)
    except (KeyError, IndexError, ValueError):
        return None  # facts missing (a different server): its English then


def note_lines(t: Tournament) -> list[str]:
    """The server's notes in the interface language: each worded from its code and facts
    (1.4), or the server's English where there is no code or it is not known here."""
    texts = [str(note) for note in t["notes"]]
    codes = t.get("note_codes") or []
    if len(codes) != len(texts):
        return texts
    return [note_text(c["code"], c["args"]) or text for c, text in zip(codes, texts, strict=True)]


def table_line(t: Tournament, table: TournamentTable) -> str:
    """One live table: its id, game, deal, rotation (counted from 1, as the table's name)
    and who sits where."""
    return _("table {table}: game {game}, deal {deal}, rotation {rotation}: {seats}").format(
        table=table["table_id"], seats=seats_text(labels(t), table), **numbers(table)
    )


def numbers(table: TournamentTable) -> dict[str, int]:
    """A live table's game, deal and rotation as people count them (from 1, as the
    table's name `NAME #n`); the wire numbers them from 0."""
    return {
        "game": counted(table["game"]),
        "deal": counted(table["deal"]),
        "rotation": counted(table["rotation"]),
    }


def seats_text(names: Mapping[int, str], table: TournamentTable) -> str:
    """Who sits at a live table, seat by seat."""
    return ", ".join(names.get(e, "?") for e in table["seats"])


def export_text(doc: ExportDoc) -> str:
    """The export as a readable table, with translated headings."""
    t = doc["tournament"]
    title = _("{name} ({about})").format(name=t["name"], about=about(t))
    return export.table(doc, headings(), title)
