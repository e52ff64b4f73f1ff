// Painting: the lobby and the table drawn from the core's state (core.js) and the page's own
// choices (`ui`: the lifted card, the pass being chosen, the held trick of the presentation
// timeline). Painting decides nothing about the game; every fact is the server's.
import { cardId, passProblem, BOT_LEVELS, suitOf, rankOf, isRed } from "./core.js";
import { t, nt, explain, cardWord, ltr } from "./words.js";
import { $, h, cardEl, show, fill } from "./dom.js";

const COMPASS = ["S", "E", "N", "W"];
export const compass = (seat, viewpoint) => COMPASS[(seat - viewpoint + 4) % 4];
const handOrder = (cards) => [...cards].sort((a, b) => suitOf(a) - suitOf(b) || rankOf(a) - rankOf(b));

const PRESET_WORDS = { classic: "classic", levant: "Levant", golden: "golden goal",
  partnership: "partnership", idlib: "Idlib", idlib_talyeekh: "Idlib talyeekh" };
export const presetWord = (p) => (PRESET_WORDS[p] ? t(PRESET_WORDS[p]) : p);
const LEVEL_WORDS = { easy: "easy", medium: "medium", hard: "hard" };
export const levelWord = (l) => (LEVEL_WORDS[l] ? t(LEVEL_WORDS[l]) : l);
const STATUS_WORDS = { waiting: "waiting", playing: "playing", finished: "finished" };

/** The rules in a few words (client/rulestext.py summary). */
export function rulesSummary(rules) {
  const r = rules || {};
  const flagged = [
    [r.partnership === "combined", t("partners")],
    [r.partnership === "individual_bust", t("partners (bust)")],
    [r.pass_direction === "alternate", t("pass R/L")],
    [r.talbees, t("talbees")],
    [r.doubling, t("doubling")],
    [r.game_end === "golden_goal", t("golden goal")],
    [r.club_leekha, t("K♣ leekha")],
    [r.undercut, r.undercut_ceiling === "leekha_rank" ? t("undercut (rank)") : t("undercut")],
    [r.moon_penalty, t("moon {n}", { n: r.moon_penalty })],
  ];
  return [t("to {n}", { n: r.target ?? 101 }), ...flagged.filter((f) => f[0]).map((f) => f[1])].join(t(", "));
}

export function timersText(timers) {
  const one = (s) => (s ? t("{n} s", { n: s }) : t("off"));
  return t("pass {pass} · turn {turn}", { pass: one(timers && timers.pass_s), turn: one(timers && timers.turn_s) });
}

export function seatName(p, seat) {
  if (!p || !p.name) return t("empty");
  const m = /^(easy|medium|hard|random|heuristic|search1?) bot (\d)$/.exec(p.name);
  if (p.is_bot && m) return t("{level} bot {n}", { level: levelWord(m[1]), n: m[2] });
  return p.name;
}

/** A seat's name as the reader reads it (a bot's level translated), or the seat's number. */
export function who(g, seat) {
  const p = g.players[seat];
  return p && p.name ? seatName(p, seat) : g.playerName(seat) || String(seat + 1);
}

// ---- the lobby --------------------------------------------------------------------------
export function paintLobby(client, ui, act) {
  const rows = client.lobby.rows();
  ui.selected = Math.max(0, Math.min(ui.selected, rows.length - 1));
  show($("#no-tables"), rows.length === 0);
  fill($("#tables"), rows.map((tb, i) => h("li", {
    class: "table-row" + (i === ui.selected ? " selected" : ""),
    data: { tableId: tb.id, status: tb.status }, on: { click: () => { ui.selected = i; act.paint(); } },
  },
  h("div", { class: "t-head" },
    h("strong", { class: "t-name" }, tb.name), tb.has_password ? h("span", { class: "lock", title: t("password") }, "🔒") : null,
    h("span", { class: "t-status" }, t(STATUS_WORDS[tb.status] || tb.status))),
  h("div", { class: "t-rules" }, `${presetWord(tb.preset)} · ${rulesSummary(tb.rules)}`),
  h("div", { class: "t-timers" }, timersText(tb.timers)),
  h("ul", { class: "t-seats" }, tb.seats.map((s, seat) => h("li", { data: { seat }, class: s.is_bot ? "bot" : s.name ? "person" : "empty" },
    s.name && !s.is_bot ? h("button", { class: "link profile-link", on: { click: (e) => { e.stopPropagation(); act.profile(s.name); } } }, s.name)
      : seatName(s, seat)))),
  h("div", { class: "t-buttons" },
    h("button", { class: "join", on: { click: (e) => { e.stopPropagation(); act.join(tb.id, false); } } }, t("join")),
    h("button", { class: "watch", on: { click: (e) => { e.stopPropagation(); act.join(tb.id, true); } } }, t("watch"))))));
}

// ---- the table --------------------------------------------------------------------------
export function paintTable(client, ui, act, now) {
  const g = client.table, v = g.view, vp = g.viewpoint;
  const table = $("#table");
  table.dataset.phase = v ? v.phase : "waiting";
  table.dataset.status = g.table ? g.table.status : "";
  table.dataset.seated = g.seated ? "yes" : "no";
  for (let seat = 0; seat < 4; seat++) paintSeat(client, ui, act, seat, compass(seat, vp));
  paintTrick(client, ui, vp, now);
  paintHand(client, ui, act);
  paintTurn(client, ui);
  paintActions(client, ui, act);
}

function paintSeat(client, ui, act, seat, pos) {
  const g = client.table, v = g.view;
  const el = $(`.seat[data-seat="${seat}"]`);
  const p = g.players[seat] || {};
  el.dataset.pos = pos;
  el.dataset.control = p.control || (p.is_bot ? "bot" : p.name ? "human" : "empty");
  el.classList.toggle("me", seat === g.yourSeat);
  el.classList.toggle("turn", g.waitingFor(seat));
  el.classList.toggle("away", !!p.name && !p.connected);
  const total = v ? v.totals[seat] : 0, round = v ? v.round_points[seat] : 0;
  const left = g.seatSecondsLeft(seat);
  const waiting = !g.table || g.table.status !== "playing";
  const extra = [];
  if (!p.name && waiting && g.isHost) {
    extra.push(h("select", { class: "bot-level", "aria-label": t("level") },
      BOT_LEVELS.map((l) => h("option", { value: l, selected: l === "medium" }, levelWord(l)))));
    extra.push(h("button", { class: "add-bot", on: { click: () => act.addBot(seat, el.querySelector(".bot-level").value) } }, t("add bot")));
  } else if (p.is_bot && waiting && g.isHost) {
    extra.push(h("button", { class: "remove-bot", on: { click: () => act.request({ intent: "RemoveBot", seat }) } }, t("remove bot")));
  } else if (!p.name && !g.seated) {
    extra.push(h("button", { class: "sit", on: { click: () => act.sit(seat) } }, t("sit here")));
  }
  if (p.control === "autopilot" || p.control === "away") extra.push(h("span", { class: "control-note" }, p.control === "away" ? t("away") : t("bot plays")));
  if (v && v.phase === "pass" && v.passes_done[seat]) extra.push(h("span", { class: "passed-mark" }, t("passed")));
  const doubled = v ? v.doubled.filter((d) => d[1] === seat).map((d) => cardEl(d[0], { class: "mini doubled" })) : [];
  fill(el,
    h("span", { class: "name" }, p.name ? seatName(p, seat) : t("empty"), p.is_host ? h("span", { class: "host", title: t("host") }, " ★") : null),
    h("span", { class: "points", title: t("points") }, v ? `${total}${round ? ` ${ltr(`+${round}`)}` : ""}` : ""),
    left !== null ? h("span", { class: "seat-clock" }, `${left}s`) : null,
    ...doubled, ...extra);
}

function paintTrick(client, ui, vp, now) {
  const g = client.table, v = g.view;
  const el = $("#trick");
  let cards = v ? v.trick : [], winner = null;
  if (ui.hold && now < ui.hold.until && cards.length === 0) { cards = ui.hold.trick.cards; winner = ui.hold.trick.winner; }
  el.dataset.takenBy = winner === null ? "" : String(winner);
  fill(el, cards.map(([seat, c]) => cardEl(c, { data: { seat, pos: compass(seat, vp) } })),
    winner !== null ? h("div", { id: "trick-winner" }, t("{name} takes the trick", { name: who(g, winner) }),
      ui.hold.trick.points ? ` (${nt("{n} point", "{n} points", ui.hold.trick.points)})` : "") : null);
}

function paintHand(client, ui, act) {
  const g = client.table, v = g.view;
  const el = $("#hand");
  const hand = v ? handOrder(v.hand) : [];
  ui.handOrder = hand;
  const mine = g.myTurn && ui.sent === null; // a move on its way: wait for the server
  const passing = v && v.phase === "pass" && mine;
  const received = new Set((v && v.received) || []);
  const legal = new Set((v && v.legal) || []);
  el.dataset.mode = passing ? "pass" : mine ? "play" : "wait";
  // Each card's button stays the same node while the card is in the hand (keyed by
  // data-card): only its classes change, so a tap spanning a repaint still clicks.
  const buttons = new Map([...el.children].map((b) => [b.dataset.card, b]));
  hand.forEach((c, i) => {
    const id = cardId(c);
    const b = buttons.get(id) || cardEl(c, { tag: "button", on: { click: () => act.tapCard(c) } });
    buttons.delete(id);
    b.className = ["card", isRed(c) ? "red" : "black", legal.has(c) && mine ? "legal" : "", ui.lifted === c ? "lifted" : "",
      ui.chosen.has(c) ? "chosen" : "", received.has(c) ? "received" : "", ui.cursor === i ? "cursor" : ""]
      .filter(Boolean).join(" ");
    b.dataset.key = "abcdefghijklm"[i];
    if (el.children[i] !== b) el.insertBefore(b, el.children[i] || null);
  });
  for (const b of buttons.values()) b.remove();
}

/** The clock tick between messages: only the clocks' text (nothing else is repainted). */
export function paintClocks(client, ui) {
  const g = client.table;
  if (!g.table) return;
  paintTurn(client, ui);
  for (let seat = 0; seat < 4; seat++) {
    const el = $(`.seat[data-seat="${seat}"] .seat-clock`), left = g.seatSecondsLeft(seat);
    if (el && left !== null) el.textContent = `${left}s`;
  }
}

function paintTurn(client, ui) {
  const g = client.table, v = g.view;
  const turn = $("#turn"), clock = $("#clock");
  let text = "", seatLeft = null;
  if (!g.table) text = "";
  else if (!v || g.table.status === "waiting") {
    // The host, or anyone at a quick-play table, is told who is missing (the terminal
    // client's words), not to wait for a host who is themselves or who starts nothing.
    const [id, until] = ui.quick || [], quick = id === g.tableId, left = Math.ceil((until - Date.now()) / 1000);
    text = !g.isHost && !quick ? t("waiting for the host to start") : quick && left > 0
      ? nt("quick play: bots take the empty seats in {n} second", "quick play: bots take the empty seats in {n} seconds", left)
      : t("waiting for players ({n}/4)", { n: g.players.filter((p) => p.name).length });
  }
  else if (v.phase === "game_over") text = t("game over");
  else if (g.myTurn) { text = v.phase === "pass" ? t("your pass: choose 3 cards") : t("your turn"); seatLeft = g.yourSeat; }
  else if (v.phase === "pass") {
    text = t("waiting for the passes");
    seatLeft = [...g.clockAt.keys()].find((s) => g.seatSecondsLeft(s) !== null) ?? null;
  }
  else if (v.turn !== null) { text = t("{name} to play", { name: who(g, v.turn) }); seatLeft = v.turn; }
  if (g.table && !g.seated) text = text ? `${t("spectating")} · ${text}` : t("spectating"); // a watcher is told so
  turn.textContent = text;
  turn.dataset.seat = seatLeft === null ? "" : String(seatLeft);
  const left = seatLeft === null ? null : g.seatSecondsLeft(seatLeft);
  clock.textContent = left === null ? "" : t("{n} s left", { n: left });
  clock.dataset.seconds = left === null ? "" : String(left);
  clock.classList.toggle("low", left !== null && left <= 5);
}

function paintActions(client, ui, act) {
  const g = client.table, v = g.view;
  const out = [];
  const status = g.table ? g.table.status : "";
  if (g.autopiloted) out.push(h("button", { id: "take-back", on: { click: () => act.request({ intent: "TakeBack" }) } }, t("take my seat back")));
  if (g.isHost && status === "waiting") out.push(h("button", { id: "start", on: { click: () => act.request({ intent: "Start" }) } }, t("start")));
  if (v && v.phase === "pass" && g.myTurn && ui.sent === null) {
    const chosen = [...ui.chosen];
    const problem = chosen.length === 3 ? passProblem(v.hand, chosen, g.rules) : "bad_pass";
    out.push(h("button", { id: "pass-confirm", disabled: problem !== null, on: { click: () => act.confirmPass() } },
      t("pass these 3 to {name}", { name: who(g, v.pass_to ?? 0) })));
    if (problem && problem.rule) out.push(h("span", { id: "pass-problem", class: "problem" }, explain(problem)));
    for (const c of g.doublable()) {
      out.push(h("button", { class: "double", data: { card: cardId(c) }, on: { click: () => act.request({ intent: "Double", card: c }) } },
        t("double {card}", { card: cardWord(c) })));
    }
  }
  if (v && v.phase === "play" && g.myTurn && ui.sent === null && ui.lifted !== null) {
    out.push(h("button", { id: "play-lifted", on: { click: () => act.tapCard(ui.lifted) } }, t("play {card}", { card: cardWord(ui.lifted) })));
  }
  if (v && v.phase === "game_over" && g.seated) {
    out.push(h("button", { id: "rematch", disabled: ui.rematchVoted, on: { click: () => act.rematch() } },
      ui.rematchVoted ? t("rematch vote sent; waiting for the others") : t("rematch")));
  }
  fill($("#actions"), out);
}
