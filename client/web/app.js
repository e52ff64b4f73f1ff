// The browser page of `leekha serve`: the WebSocket, the keys and the clicks around the
// sans-IO core (core.js). One WebSocket binary message is one protocol message (a msgpack
// map, no length prefix) at /ws on the page's own origin.
//
// Hooks for tests (stable ids and data attributes):
//   #name-entry #name-input #name-go #name-problem   the name form (first visit; a refused name)
//   #lobby #tables li.table-row[data-table-id][data-status] .join .watch .profile-link
//   #quick-play #new-table #leaderboard-open #refresh
//   #create-form #cf-name #cf-preset #cf-target #cf-pass-timer #cf-turn-timer #cf-password
//     #cf-counting #cf-overrides input[data-rule] #cf-bots select[data-seat] #cf-create
//   #password-form #password-input #password-go
//   #table[data-phase][data-status][data-seated]
//   .seat[data-seat="0..3"][data-pos="S|E|N|W"][data-control] (.turn .me .away) .name .points
//     .seat-clock .add-bot .remove-bot .sit
//   #turn[data-seat] #clock[data-seconds] #trick[data-taken-by] #trick .card[data-seat]
//   #trick-winner #hand[data-mode="pass|play|wait"] #hand .card[data-card="QS"][data-key="a"]
//     (.legal .lifted .chosen .received)
//   #actions: #start #pass-confirm .double[data-card] #play-lifted #rematch #take-back
//   #overlay #box: #round-summary #summary-continue #score-sheet #game-stats #winners
//     #leaderboard #profile-name #invite-link #invite-link-password
//   #chat #chat-lines li[data-from] #chat-input #chat-send #phrases-open .phrase[data-code]
//   #status[data-error] #link-state[data-state] #lang-switch
// Keys (desktop) mirror the terminal client's (client/tui/keymap.py): see keys.js.
// Over 400 lines: one page state (socket, box, lifted cards) that every handler reads and
// changes; the painting, boxes, keys and words are apart already.
import * as core from "./core.js";
import { t, pickLanguage, useCatalogue, explain, chatText, phraseWords, RTL, LANGUAGES } from "./words.js";
import { $, $$, h, show, fill } from "./dom.js";
import { paintLobby, paintTable, paintClocks } from "./paint.js";
import { boxContent, fillCreateForm, readCreateForm } from "./boxes.js";
import { keyHandler } from "./keys.js";

const STORE = { token: "leekha.token", name: "leekha.name", lang: "leekha.lang" };
const NAME_REFUSALS = new Set(["bad_name", "name_too_long", "name_claimed"]);
const HELLO_WAIT_MS = 10000; // the server's own hello_timeout_s
const HOLD_MS = 1500; // a finished trick stays on screen this long (presentation only)
const codec = core.makeCodec(globalThis.MessagePack);
const store = {
  get: (k) => { try { return localStorage.getItem(k); } catch { return null; } },
  set: (k, v) => { try { if (v === null) localStorage.removeItem(k); else localStorage.setItem(k, v); } catch { /* private mode */ } },
};

const client = new core.ClientCore({ name: store.get(STORE.name) || "", token: store.get(STORE.token) });
const ui = { selected: 0, lifted: null, cursor: -1, chosen: new Set(), hold: null, overlay: null,
  status: null, nameProblem: null, invite: null, rematchVoted: false, sent: null, handOrder: [], askedPassword: null };
let ws = null, attempt = 0, retryTimer = null;

// ---- invitations: #/table/N[?password=...] (the fragment never reaches a server) --------
function readInvite() {
  const m = /^#\/table\/(\d+)(?:\?(.*))?$/.exec(location.hash);
  if (!m) return null;
  const password = new URLSearchParams(m[2] || "").get("password");
  if (m[2]) history.replaceState(null, "", `#/table/${m[1]}`); // keep the password off screen
  return { table: Number(m[1]), password: password || null };
}

// ---- the connection ---------------------------------------------------------------------
function connect() {
  clearTimeout(retryTimer);
  const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
  const sock = new WebSocket(url);
  sock.binaryType = "arraybuffer";
  ws = sock;
  sock.onopen = () => {
    client.connected();
    flush();
    paint();
    // No welcome in time (a server still starting behind a proxy): try again.
    setTimeout(() => { if (ws === sock && client.link.state !== core.ONLINE) sock.close(); }, HELLO_WAIT_MS);
  };
  sock.onmessage = (e) => {
    let msg;
    try { msg = codec.message(new Uint8Array(e.data)); } catch { return; }
    for (const ch of client.receive(msg)) changed(ch);
    if (client.link.state === core.ONLINE) attempt = 0;
    flush();
    paint();
  };
  sock.onclose = () => {
    if (ws !== sock) return;
    ws = null;
    client.lost(t("connection lost"));
    ui.sent = null;
    if (client.link.state === core.FAILED) { paint(); return; }
    const delay = Math.min(10000, 500 * 2 ** attempt++) * (0.75 + Math.random() / 2);
    retryTimer = setTimeout(connect, delay);
    paint();
  };
}

function flush() {
  for (const m of client.takeOutbox()) if (ws && ws.readyState === WebSocket.OPEN) ws.send(codec.body(m));
}

/** Send `intent` (core.js INTENTS: `{intent: "JoinTable", table_id}`) and flush. */
function request(intent) {
  const msg = client.request(intent);
  flush();
  return msg;
}

function say(text, error = false) {
  ui.status = { text, error, until: Date.now() + (error ? 8000 : 4000) };
}

// ---- what each change does around the core -----------------------------------------------
const NOTES = { resumed: "reconnected", seat_given_up: "reconnected, but your seat was given up while you were away",
  session_expired: "reconnected, but the old session had expired", watching_again: "reconnected: watching the table again" };

function changed(ch) {
  const g = client.table;
  switch (ch.what) {
    case "Welcomed": {
      store.set(STORE.token, client.token);
      store.set(STORE.name, client.name);
      if (ch.note) say(t(NOTES[ch.note]), ch.note === "seat_given_up" || ch.note === "session_expired");
      // An invitation is followed once, from the lobby (a resumed seat comes first).
      const inv = ui.invite;
      ui.invite = null;
      if (inv && !g.table && (ch.welcome.table_id ?? null) === null) join(inv.table, false, inv.password);
      break;
    }
    case "ServerError": say(explain(ch.error), true); break;
    case "HelloRefused":
      if (ch.retried) say(explain(ch.error), true); // a resume's token expired: hello again
      else if (NAME_REFUSALS.has(ch.error.code)) {
        store.set(STORE.token, null);
        client.token = null;
        ui.nameProblem = explain(ch.error); // said by the field, until the next try
        showName(true); // another name, please
      } else {
        say(explain(ch.error), true);
        if (ws && client.link.state !== core.FAILED) ws.close(); // later, with backoff
      }
      break;
    case "Answered": {
      const req = ch.request;
      if (ch.refusal) {
        if (["join_seat", "spectate"].includes(req.type) && ch.refusal.code === "bad_password") {
          ui.askedPassword = { table: req.table_id, spectate: req.type === "spectate" };
          openBox("password");
        }
        say(explain(ch.refusal), true);
        if (req.type === "pass_cards") { ui.chosen.clear(); ui.sent = null; }
        if (req.type === "play_card") { ui.lifted = null; ui.sent = null; }
        if (req.type === "rematch") ui.rematchVoted = false;
        break;
      }
      // Our new table's snapshot: the bots the form asked for sit down.
      if (ch.reply.type === "snapshot" && ch.intent.bots) {
        for (const [seat, level] of ch.intent.bots) request({ intent: "AddBot", seat, strategy: level });
      }
      // A quick-play table: bots fill it when the wait ends (the one we asked for, when it
      // opened for us), not when a host starts it.
      if (req.type === "quick_play") ui.quick = [g.tableId, g.isHost ? Date.now() + req.wait_s * 1000 : 0];
      if (ch.reply.type !== "ok") break; // the stats, a profile: painted
      if (req.type === "rematch") say(t("rematch vote sent; waiting for the others"));
      if (req.type === "pass_cards") { ui.chosen.clear(); ui.sent = null; }
      if (req.type === "play_card") ui.sent = null;
      break;
    }
    case "TableChanged":
      ui.lifted = null; ui.chosen.clear(); ui.hold = null; ui.sent = null;
      if (g.view && g.view.phase === "game_over" && !ui.overlay) openBox("game_over");
      if (ui.overlay && ["password", "create"].includes(ui.overlay.kind)) closeBox();
      break;
    case "ViewChanged": {
      const ev = ch.event;
      // The next round is dealt at once: its hand is there under the round's summary, which
      // stays until the guest closes it (the terminal client's way); a rematch's deal
      // closes the game-over box.
      if (ev.type === "dealt") { ui.rematchVoted = false; ui.chosen.clear(); ui.lifted = null; ui.hold = null;
        if (ui.overlay && ui.overlay.kind === "game_over") closeBox(); }
      if (ev.type === "card_played") ui.hold = null;
      if (ev.type === "card_played" && ev.seat === g.yourSeat) { ui.lifted = null; ui.sent = null; }
      if (ev.type === "trick_taken") {
        ui.hold = { trick: ch.trick, until: Date.now() + HOLD_MS };
        setTimeout(paint, HOLD_MS + 20);
      }
      break;
    }
    case "DecisionDue": ui.sent = null; if (ch.kind === "play") ui.chosen.clear(); break;
    case "RoundScored": openBox("summary", { note: ch.note }); break;
    case "GameEnded": openBox("game_over"); break;
    case "ChatAdded": if (ch.line.from === "*" && ch.place === g.tableId) say(chatText(ch.line)); break;
  }
}

// ---- the player's actions ---------------------------------------------------------------
function join(tableId, spectate, password = null) {
  const tb = client.lobby.tables.get(tableId);
  if (tb && tb.has_password && password === null) {
    ui.askedPassword = { table: tableId, spectate };
    openBox("password");
    return;
  }
  request({ intent: spectate ? "Spectate" : "JoinTable", table_id: tableId, password });
}

function tapCard(c) {
  const g = client.table, v = g.view;
  if (!v || g.yourSeat === null) return;
  if (g.autopiloted) request({ intent: "TakeBack" });
  if (ui.sent !== null) return; // a move is on its way
  if (v.phase === "pass") {
    if (!g.myTurn) return;
    if (ui.chosen.has(c)) ui.chosen.delete(c);
    else if (ui.chosen.size < 3) ui.chosen.add(c);
  } else if (v.phase === "play") {
    if (ui.lifted === c && g.myTurn) {
      // A card the server did not list goes too: its refusal names the rule, in words.
      ui.sent = c;
      request({ intent: "Play", card: c });
    } else ui.lifted = c;
  }
  paint();
}

function confirmPass() {
  const g = client.table;
  if (ui.chosen.size !== 3 || !g.myTurn || ui.sent !== null) return;
  ui.sent = [...ui.chosen];
  request({ intent: "Pass", cards: ui.sent });
}

const act = {
  paint: () => paint(),
  screen: () => screen(),
  send: (intent) => request(intent),
  // The server's own wait (20 s), asked for by name so the page can count it down.
  quick: () => request({ intent: "QuickPlay", wait_s: 20 }),
  join: (id, spectate) => join(id, spectate),
  openBox: (kind) => openBox(kind), openStats: () => openStats(), openInvite: () => openInvite(),
  request: (intent) => { request(intent); paint(); },
  sit: (seat) => { const id = client.table.tableId; request({ intent: "Leave" }); request({ intent: "JoinTable", table_id: id, seat, password: client.table.password ?? null }); },
  addBot: (seat, level) => request({ intent: "AddBot", seat, strategy: level }),
  profile: (name) => { client.profile = null; request({ intent: "GetProfile", name }); openBox("profile"); },
  tapCard, confirmPass,
  rematch: () => { ui.rematchVoted = true; request({ intent: "Rematch" }); paint(); },
  leave: () => {
    // Mid-game a seat left is a bot's for good: the first leave asks (the terminal's L, L).
    const g = client.table;
    if (g.seated && g.table.status === "playing" && !(Date.now() - ui.leaveAt < 5000)) {
      ui.leaveAt = Date.now();
      say(t("leave again to give your seat to a bot for good"));
      return paint();
    }
    closeBox(); request({ intent: "Leave" });
  },
  closeBox: () => closeBox(),
  phraseButtons: () => core.PHRASES.map((code, i) => h("button", { class: "phrase", data: { code },
    on: { click: () => { request({ intent: "Phrase", code }); closeBox(); } } }, `${i + 1} ${t(phraseWords()[code] || code)}`)),
};

// ---- boxes ------------------------------------------------------------------------------
function openBox(kind, extra = {}) {
  ui.overlay = { kind, ...extra };
  if (kind === "create") fillCreateForm(client);
  if (kind === "password") {
    // The button says what it does: a watcher who is asked for the password is not seated.
    const go = $("#password-go");
    $("#password-input").value = "";
    go.textContent = t(go.dataset.t = ui.askedPassword?.spectate ? "watch" : "join");
  }
  paint();
  const focus = kind === "create" ? "#cf-name" : kind === "password" ? "#password-input" : null;
  if (focus) setTimeout(() => $(focus).focus(), 0);
}

function closeBox() {
  ui.overlay = null;
  document.body.append($("#create-form"), $("#password-form"));
  show($("#create-form"), false); show($("#password-form"), false);
  paint();
}

function paintBox() {
  const o = ui.overlay;
  show($("#overlay"), !!o);
  if (!o) return;
  const box = $("#box");
  box.dataset.kind = o.kind;
  if (o.kind === "create" || o.kind === "password") {
    const form = $(o.kind === "create" ? "#create-form" : "#password-form");
    if (form.parentNode !== box) box.replaceChildren(form);
    show(form, true);
    return;
  }
  fill(box, boxContent(client, ui, act));
}

// ---- painting ---------------------------------------------------------------------------
function screen() {
  if (!client.link.welcomed && !client.token && !ws) return "name";
  return client.table.table ? "table" : "lobby";
}

function paint() {
  const s = screen(), now = Date.now();
  show($("#name-entry"), s === "name");
  show($("#lobby"), s === "lobby");
  show($("#table"), s === "table");
  show($("#chat"), s !== "name");
  document.body.dataset.screen = s;
  const link = $("#link-state");
  link.dataset.state = client.link.state;
  // Offline with no socket: nothing is trying (the name form waits for the guest).
  $("#name-problem").textContent = ui.nameProblem || "";
  link.textContent = { online: client.name, offline: ws ? t("connecting…") : t("offline"), reconnecting: t("reconnecting…"), failed: t("disconnected") }[client.link.state] || "";
  if (s === "lobby") paintLobby(client, ui, act);
  if (s === "table") paintTable(client, ui, act, now);
  paintChat();
  paintBox();
  paintStatus(now);
}

function paintStatus(now) {
  const st = $("#status");
  if (ui.status && now > ui.status.until) ui.status = null;
  st.textContent = ui.status ? ui.status.text : client.link.state === core.FAILED ? explainLink() : "";
  st.dataset.error = ui.status && ui.status.error ? "yes" : "";
}

function explainLink() { return explain({ code: client.link.detail, message: client.link.detail }); }

function paintChat() {
  const lines = client.chats.at(client.here);
  const list = $("#chat-lines"), last = list.lastElementChild;
  fill(list, lines.slice(-50).map((l) => h("li", { data: { from: l.from }, class: l.from === "*" ? "notice" : l.phrase ? "phrase-line" : "" },
    l.from === "*" ? null : h("b", {}, `${l.from}: `), chatText(l))));
  if (list.lastElementChild !== last) list.scrollTop = list.scrollHeight; // a new line: show it
}

function openStats() { client.stats = null; request({ intent: "GetStats" }); openBox("stats"); }
function openInvite() {
  // The server's own address for its page (welcome's `web`: the LAN address or a proxy's),
  // else the address this page was opened at.
  const page = client.link.web || `${location.origin}${location.pathname}`;
  const g = client.table;
  openBox("invite", { link: core.webLink(page, g.tableId),
    withPassword: g.password ? core.webLink(page, g.tableId, g.password) : null });
}

// ---- the static controls ----------------------------------------------------------------
function translatePage() {
  for (const el of $$("[data-t]")) el.textContent = t(el.dataset.t);
  $("#chat-input").placeholder = t("chat; Enter sends");
  $("#name-input").placeholder = t("Your name");
}

let codeTable = null;
async function setLanguage(code) {
  const load = async (name) => { try { return await (await fetch(`i18n/${name}.json`)).json(); } catch { return null; } };
  const [cat, codes] = await Promise.all([load(code), codeTable ? codeTable : load("codes")]);
  codeTable = codes;
  useCatalogue(code, cat, codes);
  document.documentElement.lang = code;
  document.documentElement.dir = RTL.has(code) ? "rtl" : "ltr";
  $("#lang-switch").value = code;
  translatePage();
  if (ui.overlay?.kind === "create") {
    // The form's lists are built in words: build them again, keeping what was chosen.
    const els = () => [...$("#create-form").elements], kept = els().map((e) => [e.value, e.checked]);
    fillCreateForm(client);
    els().forEach((e, i) => { [e.value, e.checked] = kept[i]; });
  }
  paint();
}

function showName(again = false) {
  $("#name-input").value = client.name || "";
  if (again) {
    const sock = ws;
    ws = null; // its close is no drop: no reconnection
    if (sock) sock.close();
    client.lost();
    client.link.offline(client.link.detail);
    client.link.welcomed = false;
    paint();
  }
  setTimeout(() => $("#name-input").focus(), 0);
}

function wire() {
  $("#name-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const name = $("#name-input").value.trim();
    // Only spaces: the words the server's bad_name would bring, without the round trip
    // (the browser's `required` lets spaces through, and the click did nothing).
    ui.nameProblem = name ? null : explain({ code: "bad_name" });
    if (name) {
      client.name = name;
      store.set(STORE.name, name);
      connect();
    }
    paint();
  });
  $("#lang-switch").addEventListener("change", (e) => { store.set(STORE.lang, e.target.value); setLanguage(e.target.value); });
  $("#quick-play").addEventListener("click", act.quick);
  $("#new-table").addEventListener("click", () => openBox("create"));
  $("#leaderboard-open").addEventListener("click", () => openStats());
  $("#refresh").addEventListener("click", () => request({ intent: "ListTables" }));
  $("#scores-open").addEventListener("click", () => openBox("scores"));
  $("#last-trick-open").addEventListener("click", () => openBox("last_trick"));
  $("#phrases-open").addEventListener("click", () => openBox("phrases"));
  $("#invite-open").addEventListener("click", () => openInvite());
  $("#leave").addEventListener("click", () => act.leave());
  $("#chat-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("#chat-input").value.trim();
    if (text) request({ intent: "Chat", text });
    $("#chat-input").value = "";
  });
  $("#create-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const got = readCreateForm();
    if (got.problem) { $("#cf-problem").textContent = got.problem; return; }
    request({ intent: "CreateTable", ...got.fields, bots: got.bots });
    closeBox();
  });
  $("#cf-cancel").addEventListener("click", () => closeBox());
  $("#password-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const asked = ui.askedPassword;
    const password = $("#password-input").value;
    if (!asked || !password) return;
    closeBox();
    request({ intent: asked.spectate ? "Spectate" : "JoinTable", table_id: asked.table, password });
  });
  $("#password-cancel").addEventListener("click", () => closeBox());
  $("#overlay").addEventListener("click", (e) => { if (e.target.id === "overlay" && ui.overlay && !["create", "password"].includes(ui.overlay.kind)) closeBox(); });
  window.addEventListener("hashchange", () => {
    const inv = readInvite();
    if (inv && client.link.state === core.ONLINE && !client.table.table) join(inv.table, false, inv.password);
  });
  // The clocks count down between messages.
  // Only their text: a repaint of the page would swap nodes under a finger.
  setInterval(() => {
    if ((client.table.clockAt.size || ui.quick) && screen() === "table") paintClocks(client, ui);
    if (ui.status) paintStatus(Date.now());
  }, 500);
}

async function start() {
  document.addEventListener("keydown", keyHandler(client, ui, act));
  wire();
  ui.invite = readInvite();
  const code = store.get(STORE.lang) || pickLanguage(navigator.languages || [navigator.language]);
  await setLanguage(LANGUAGES.includes(code) ? code : "en");
  if (client.token || client.name) connect();
  else showName();
  paint();
}

start();
