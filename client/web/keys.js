// The desktop keys: the terminal client's (client/tui/keymap.py), on the same state the
// clicks act on. `act` is the page's actions (app.js).
import { PHRASES } from "./core.js";
import { $ } from "./dom.js";

export function keyHandler(client, ui, act) {
  const g = client.table;
  const move = (list, step) => (list.length ? (Math.max(-1, ui.cursor) + step + list.length) % list.length : -1);
  const stepCursor = (step) => {
    ui.cursor = move(ui.handOrder, step);
    if (g.phase === "play") ui.lifted = ui.handOrder[ui.cursor] ?? null;
  };
  const enterKey = () => {
    if (g.phase === "pass" && ui.chosen.size === 3) return act.confirmPass();
    if (g.phase === "play" && ui.lifted !== null) return act.tapCard(ui.lifted);
    if (g.autopiloted) act.send({ intent: "TakeBack" });
  };
  const selected = () => client.lobby.rows()[ui.selected];
  const KEYS = {
    lobby: {
      ArrowUp: () => { ui.selected--; }, k: () => { ui.selected--; },
      ArrowDown: () => { ui.selected++; }, j: () => { ui.selected++; },
      Enter: () => { if (selected()) act.join(selected().id, false); },
      w: () => { if (selected()) act.join(selected().id, true); },
      Q: act.quick, n: () => act.openBox("create"), g: () => act.send({ intent: "ListTables" }),
      S: () => act.openStats(),
    },
    table: {
      ArrowLeft: () => stepCursor(-1), ArrowRight: () => stepCursor(1),
      " ": () => { if (ui.handOrder[ui.cursor] !== undefined) act.tapCard(ui.handOrder[ui.cursor]); },
      Enter: enterKey,
      y: () => { const d = g.doublable(); if (d.length) act.send({ intent: "Double", card: d[0] }); },
      r: () => { if (g.phase === "game_over" && g.seated) act.rematch(); },
      s: () => { if (g.isHost) act.send({ intent: "Start" }); },
      b: () => { const seat = g.players.findIndex((p) => !p.name); if (g.isHost && seat >= 0) act.send({ intent: "AddBot", seat, strategy: "medium" }); },
      x: () => { const seat = g.players.findIndex((p) => p.is_bot); if (g.isHost && seat >= 0) act.send({ intent: "RemoveBot", seat }); },
      v: () => act.openBox("last_trick"), S: () => act.openBox("scores"), I: () => act.openInvite(), L: () => act.leave(),
    },
    any: { t: () => $("#chat-input").focus(), p: () => act.openBox("phrases") },
  };

  return (e) => {
    const typing = e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement || e.target instanceof HTMLTextAreaElement;
    if (e.key === "Escape") { if (ui.overlay) act.closeBox(); else if (typing) e.target.blur(); return; }
    if (typing || e.ctrlKey || e.metaKey || e.altKey) return;
    if (ui.overlay) {
      const kind = ui.overlay.kind;
      if (kind === "summary" && (e.key === "Enter" || e.key === " ")) { e.preventDefault(); act.closeBox(); }
      else if (kind === "phrases" && /^[1-8]$/.test(e.key)) { act.send({ intent: "Phrase", code: PHRASES[Number(e.key) - 1] }); act.closeBox(); }
      else if (kind === "game_over" && (e.key === "r" || e.key === "Enter") && g.seated) act.rematch();
      return;
    }
    const s = act.screen();
    let fn = (KEYS[s] || {})[e.key] || KEYS.any[e.key];
    // While the hand is live, a-m are its cards (the terminal client's letters); otherwise
    // the letters are the table's commands (b, s, x: the host's, before a game).
    if (s === "table" && g.myTurn && /^[a-m]$/.test(e.key)) {
      const i = "abcdefghijklm".indexOf(e.key);
      fn = () => { if (ui.handOrder[i] !== undefined) { ui.cursor = i; act.tapCard(ui.handOrder[i]); } };
    }
    if (!fn) return;
    e.preventDefault();
    fn();
    act.paint();
  };
}
