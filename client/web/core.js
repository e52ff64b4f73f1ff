// The page's sans-IO core: what a client knows of its server, folded from messages.
//
// No DOM, no socket, no timer: the same module runs in the browser (client/web/app.js) and
// under node (examples/node_bot.mjs, tests/web/*.test.mjs). It is the Python client core
// (client/core/, protocol/seatview.py) in a second language, with the same names:
// `ClientCore` with its `link`, `lobby`, `table`, `chats`, `requests`; `Link.welcome`,
// `Lobby.listed`/`updated`, `TableState.snapshot`/`seatUpdate`/`dealt`/`fold`/`gameOver`/
// `prompted`/`ownPass`/`turn`/`left`, `Chats.at`/`forget`/`onlyLobby`,
// `RequestTracker.send`/`reply`/`lost`. `receive(message)` folds every server message at
// once and returns the changes it made, named as client/core/changes.py names them;
// `request(intent)` sends an intent named as client/core/intents.py names it, tracked, to
// the outbox. Nothing waits to animate: a finished trick that stays on screen is the page's
// presentation timeline, drawn over the true state (docs/web.md).
//
// Over 400 lines because it is one statement of the protocol's client side (the session,
// the framing, the field order of every request, the seat view's fold) that the page, the
// node bot and the tests share; split, its parts would only import each other.

export const VERSIONS = [[1, 4]];
export const CLIENT_NAME = "leekha-web 0.1";
export const SYSTEM_SENDER = "*";
export const MAX_FRAME = 65536;
export const PHRASES = ["hello", "good_luck", "well_played", "thanks", "sorry", "hurry_up",
  "oops", "good_game"];
export const PRESETS = ["classic", "levant", "golden", "partnership", "idlib", "idlib_talyeekh"];
export const BOT_LEVELS = ["easy", "medium", "hard"];
// Connection states (client/core/link.py).
export const OFFLINE = "offline", ONLINE = "online", RECONNECTING = "reconnecting",
  FAILED = "failed";
// After these the page does not reconnect by itself (protocol.md section 9: "Do not
// auto-resume after session_replaced").
export const NO_RETRY = new Set(["session_replaced", "version_mismatch"]);
// Errors that close the connection (protocol/connection.py's fatal codes).
export const FATAL = new Set(["bad_frame", "frame_too_large", "bad_msgpack", "unknown_type",
  "missing_field", "bad_field", "version_mismatch", "not_hello_first", "server_full",
  "hello_timeout", "session_replaced", "server_shutdown"]);

// ---- cards (docs/protocol.md: card = suit * 13 + rank; suits ♣ ♦ ♥ ♠) --------------------
export const SUITS = ["♣", "♦", "♥", "♠"];
export const SUIT_LETTERS = ["C", "D", "H", "S"];
export const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
export const RANK_LETTERS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"];
export const QUEEN_SPADES = 49, TEN_DIAMONDS = 21, KING_CLUBS = 11;
export const suitOf = (c) => Math.floor(c / 13);
export const rankOf = (c) => c % 13;
export const isRed = (c) => suitOf(c) === 1 || suitOf(c) === 2;
/** "Q♠", "10♦": the card as a person reads it. */
export const cardText = (c) => RANKS[rankOf(c)] + SUITS[suitOf(c)];
/** "QS", "TD": the card's stable id for tests and data attributes. */
export const cardId = (c) => RANK_LETTERS[rankOf(c)] + SUIT_LETTERS[suitOf(c)];
export function cardOfId(id) {
  const r = RANK_LETTERS.indexOf(String(id).slice(0, -1).toUpperCase().replace("10", "T"));
  const s = SUIT_LETTERS.indexOf(String(id).slice(-1).toUpperCase());
  return r < 0 || s < 0 ? null : s * 13 + r;
}
/** The table page's link to a table (protocol/invite.py web_link): the table and the
 * password in the fragment, which a browser never sends to any server. */
export function webLink(page, tableId, password = null) {
  const tail = password === null || password === undefined ? "" : `?password=${encodeURIComponent(password)}`;
  return `${page.split("#")[0].replace(/\/+$/, "")}/#/table/${tableId}${tail}`;
}

/** Points of each card before doubling (common/config.py card_points). */
export function cardPoints(rules) {
  const p = new Array(52).fill(0);
  for (let c = 26; c <= 38; c++) p[c] = 1;
  p[QUEEN_SPADES] = 13;
  p[TEN_DIAMONDS] = 10;
  if (rules && rules.club_leekha) p[KING_CLUBS] = 14;
  return p;
}
export const leekhaCards = (rules) =>
  rules && rules.club_leekha ? [QUEEN_SPADES, TEN_DIAMONDS, KING_CLUBS] : [QUEEN_SPADES, TEN_DIAMONDS];
/** Cards exempt from the pass ban: each Leekha card and every higher card of its suit. */
export function passExempt(rules) {
  const out = new Set();
  for (const l of leekhaCards(rules)) for (let c = l; c < suitOf(l) * 13 + 13; c++) out.add(c);
  return out;
}
/**
 * Why three cards cannot go as a pass (null: they can), as the server would refuse them: an
 * `error`-shaped {code, rule, args}. The check is the one docs/protocol.md section 7 asks of
 * a client ("for each suit of a non-exempt card you pass, keep at least one card of that
 * suit"); the server still decides.
 */
export function passProblem(hand, cards, rules) {
  if (cards.length !== 3 || new Set(cards).size !== 3) return { code: "bad_pass", rule: null, args: {} };
  if (!cards.every((c) => hand.includes(c))) return { code: "not_in_hand", rule: null, args: {} };
  if (rules && rules.pass_ban === false) return null;
  const exempt = passExempt(rules);
  const left = hand.filter((c) => !cards.includes(c));
  for (const c of cards) {
    if (!exempt.has(c) && !left.some((k) => suitOf(k) === suitOf(c))) {
      return { code: "pass_last_of_suit", rule: "pass_ban", args: { card: c, suit: suitOf(c) } };
    }
  }
  return null;
}

// ---- the codec's edges (msgpack injected: window.MessagePack or node's createRequire) ------
export function makeCodec({ encode, decode }) {
  const body = (msg) => encode(msg);
  const message = (bytes) => {
    const msg = decode(bytes);
    if (msg === null || typeof msg !== "object" || Array.isArray(msg) || typeof msg.type !== "string") {
      throw new Error("bad_msgpack: not a message map");
    }
    return msg;
  };
  /** One TCP frame: a 4-byte big-endian length, then the msgpack body. */
  const frame = (msg) => {
    const b = body(msg);
    const out = new Uint8Array(4 + b.length);
    new DataView(out.buffer).setUint32(0, b.length);
    out.set(b, 4);
    return out;
  };
  return { body, message, frame, Deframer: () => new Deframer(message) };
}

/** Length-prefixed frames out of a byte stream (TCP); a failed deframer stays failed. */
export class Deframer {
  constructor(message, maxFrame = MAX_FRAME) {
    this.message = message;
    this.maxFrame = maxFrame;
    this.buf = new Uint8Array(0);
    this.failed = null;
  }
  feed(bytes) {
    if (this.failed) throw this.failed;
    const joined = new Uint8Array(this.buf.length + bytes.length);
    joined.set(this.buf);
    joined.set(bytes, this.buf.length);
    const out = [];
    let at = 0;
    while (joined.length - at >= 4) {
      const n = new DataView(joined.buffer, joined.byteOffset + at, 4).getUint32(0);
      if (n < 1 || n > this.maxFrame) throw (this.failed = new Error("frame_too_large: " + n));
      if (joined.length - at - 4 < n) break;
      try {
        out.push(this.message(joined.subarray(at + 4, at + 4 + n)));
      } catch (e) {
        throw (this.failed = e);
      }
      at += 4 + n;
    }
    this.buf = joined.slice(at);
    return out;
  }
}

// ---- requests: the field order of each (docs/protocol.md section 6), defaults filled ------
const REQUESTS = {
  hello: [["versions", VERSIONS], ["name", ""], ["client", CLIENT_NAME], ["key", null]],
  resume: [["versions", VERSIONS], ["token", ""]],
  list_tables: [["cursor", null]],
  create_table: [["name", "Table"], ["preset", "classic"], ["overrides", {}], ["password", null],
    ["pass_timer_s", null], ["turn_timer_s", null], ["counting_aid", true]],
  join_seat: [["table_id", 0], ["seat", null], ["password", null]],
  spectate: [["table_id", 0], ["password", null]],
  leave: [], start: [], rematch: [], take_back: [],
  add_bot: [["seat", 0], ["strategy", "heuristic"]],
  remove_bot: [["seat", 0]],
  pass_cards: [["cards", []]],
  declare_double: [["card", 0]],
  play_card: [["card", 0]],
  chat: [["text", ""]],
  get_stats: [["name", null]],
  phrase: [["code", "hello"]],
  quick_play: [["preset", "classic"], ["overrides", {}], ["bot", "medium"], ["wait_s", null]],
  get_profile: [["name", ""]],
  ping: [],
};
const SORTED_MAPS = new Set(["overrides"]);
const SORTED_SETS = new Set(["cards"]);

/** The request `type` with `fields` (others at their defaults), keys in the wire's order. */
export function build(type, id, fields = {}) {
  const spec = REQUESTS[type];
  if (!spec) throw new Error("not a request: " + type);
  const msg = { type, id };
  for (const [key, dflt] of spec) {
    let v = key in fields && fields[key] !== undefined ? fields[key] : dflt;
    if (SORTED_MAPS.has(key)) v = Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]]));
    if (SORTED_SETS.has(key)) v = [...v].sort((a, b) => a - b);
    msg[key] = v;
  }
  return msg;
}

/** Which request a reply answers (client/core/requests.py): notes kept by id. */
export class RequestTracker {
  constructor() { this.open = new Map(); }
  send(request, note = null) { this.open.set(request.id, { request, note }); }
  /** The request `msg` answers, with its note (no longer open); null for a push. */
  reply(msg) {
    const re = msg.re;
    if (typeof re !== "number" || !this.open.has(re)) return null;
    const asked = this.open.get(re);
    this.open.delete(re);
    return { request: asked.request, note: asked.note, reply: msg,
      refusal: msg.type === "error" ? msg : null };
  }
  /** The connection is gone: every request in flight, oldest first, none left open. */
  lost() { const out = [...this.open.values()]; this.open.clear(); return out; }
  get size() { return this.open.size; }
}

// ---- the link, the lobby, the chats ---------------------------------------------------------
export class Link {
  constructor() {
    this.state = OFFLINE; this.detail = ""; this.server = ""; this.welcomed = false;
    this.version = null;
    this.web = null; // (1.4) the table page's address the server gives out, from welcome
  }
  /** Online; true when this session had been welcomed before (a reconnection). */
  welcome(msg) {
    const was = this.welcomed;
    Object.assign(this, { welcomed: true, state: ONLINE, detail: "", server: msg.server,
      version: msg.version, web: msg.web ?? null });
    return was;
  }
  lost(detail = "") { this.state = RECONNECTING; this.detail = detail; }
  failed(detail) { this.state = FAILED; this.detail = detail; }
  /** Not connected, and not trying (a refused name waits for the guest's next one). */
  offline(detail = "") { this.state = OFFLINE; this.detail = detail; }
}

export class Lobby {
  constructor() { this.tables = new Map(); this.total = null; }
  listed(msg, page = false) {
    if (!page) this.tables = new Map();
    for (const t of msg.tables) this.tables.set(t.id, t);
    this.total = msg.total ?? null;
  }
  updated(msg) {
    if (msg.table === null) this.tables.delete(msg.table_id);
    else this.tables.set(msg.table_id, msg.table);
  }
  /** The tables in the order the lobby lists them (by id: oldest first). */
  rows() { return [...this.tables.keys()].sort((a, b) => a - b).map((k) => this.tables.get(k)); }
}

export const CHAT_KEEP = 200;
export class Chats {
  constructor() { this.byPlace = new Map(); }
  /** The lines said at `place` (a table's id, or null for the lobby). */
  at(place) {
    if (!this.byPlace.has(place)) this.byPlace.set(place, []);
    return this.byPlace.get(place);
  }
  add(place, line) { const l = this.at(place); l.push(line); if (l.length > CHAT_KEEP) l.shift(); }
  forget(place) { this.byPlace.delete(place); }
  onlyLobby() { const l = this.at(null); this.byPlace = new Map([[null, l]]); }
}

// ---- the seat view, folded from events (protocol/seatview.py) ----------------------------
export function emptyView(seat) {
  return { seat, phase: "pass", round: 0, dealer: 0, pass_to: null, turn: null, hand: [],
    passed: null, received: null, passes_done: [false, false, false, false], doubled: [],
    trick: [], leader: null, tricks: [], taken: [[], [], [], []], round_points: [0, 0, 0, 0],
    totals: [0, 0, 0, 0], legal: [], history: [], result: null, can_double: [], rules: {} };
}
const sorted = (a) => [...a].sort((x, y) => x - y);

export function newRound(view, seat, msg) {
  const out = emptyView(seat);
  if (view && msg.round > 0) { out.totals = [...view.totals]; out.history = view.history.map((r) => [...r]); }
  if (view) out.rules = view.rules;
  return { ...out, round: msg.round, dealer: msg.dealer, hand: sorted(msg.hand), pass_to: msg.pass_to ?? null };
}

export function prompted(view, msg, seat) {
  const v = { ...view, phase: msg.phase, legal: sorted(msg.legal) };
  if (msg.phase === "pass") v.can_double = sorted(msg.can_double || []);
  else v.turn = seat;
  return v;
}

export function ownPassView(view, cards, seat) {
  const done = [...view.passes_done];
  if (seat !== null) done[seat] = true;
  return { ...view, passed: sorted(cards), passes_done: done, legal: [] };
}

/** The seat view after a game event; `view` itself for any other message. */
export function foldEvent(v, msg, seat, points) {
  switch (msg.type) {
    case "pass_done": {
      const done = [...v.passes_done]; done[msg.seat] = true;
      return { ...v, passes_done: done, legal: msg.seat === seat ? [] : v.legal };
    }
    case "double_revealed": {
      const d = v.doubled.filter((x) => x[0] !== msg.card).concat([[msg.card, msg.seat]]);
      return { ...v, doubled: d.sort((a, b) => a[0] - b[0] || a[1] - b[1]) };
    }
    case "passed_received": {
      const gone = new Set(v.passed || []);
      const lead = (v.dealer + 1) % 4;
      const hand = new Set(v.hand.filter((c) => !gone.has(c)).concat(msg.cards));
      return { ...v, phase: "play", hand: sorted(hand), received: sorted(msg.cards),
        passes_done: [true, true, true, true], turn: lead, leader: lead, legal: [] };
    }
    case "card_played": {
      const trick = [...v.trick, [msg.seat, msg.card]];
      const mine = msg.seat === seat;
      return { ...v, trick, leader: v.trick.length ? v.leader : msg.seat,
        hand: mine ? v.hand.filter((c) => c !== msg.card) : v.hand,
        legal: mine ? [] : v.legal, turn: trick.length < 4 ? (msg.seat + 1) % 4 : null };
    }
    case "trick_taken": {
      const cards = msg.cards.map((sc) => [...sc]);
      const record = { leader: cards[0][0], cards, winner: msg.winner, points: msg.points };
      const taken = v.taken.map((t) => [...t]);
      taken[msg.winner] = sorted(new Set(taken[msg.winner].concat(cards.map((sc) => sc[1]).filter((c) => points[c]))));
      const rp = [...v.round_points]; rp[msg.winner] += msg.points;
      return { ...v, trick: [], tricks: [...v.tricks, record], taken, round_points: rp,
        turn: msg.winner, leader: msg.winner };
    }
    case "round_scored":
      return { ...v, history: [...v.history, [...msg.round_points]], totals: [...msg.totals],
        taken: msg.taken.map((t) => [...t]), turn: null, legal: [] };
    case "game_over":
      return { ...v, phase: "game_over", turn: null, legal: [], result: { winners: [...msg.winners],
        losers: [...msg.losers], totals: [...msg.totals], reason: msg.reason ?? "target",
        tie_extended: !!msg.tie_extended, stats: msg.stats ?? null } };
  }
  return v;
}

// ---- one table as a client knows it (client/core/table.py) ------------------------------
export class TableState {
  constructor(clock) { this.clock = clock; this.left(); this.roundNote = null; }
  get tableId() { return this.table ? this.table.id : null; }
  get rules() { return (this.table && this.table.rules) || (this.view && this.view.rules) || {}; }
  get phase() { return this.view ? this.view.phase : ""; }
  get seated() { return this.yourSeat !== null; }
  get viewpoint() { return this.yourSeat ?? 0; }
  get isHost() { return this.yourSeat !== null && !!(this.players[this.yourSeat] || {}).is_host; }
  get myTurn() { return !!this.view && this.yourSeat !== null && this.view.legal.length > 0 &&
    (this.view.phase === "pass" ? !this.view.passes_done[this.yourSeat] : this.view.turn === this.yourSeat); }
  playerName(seat) { const p = this.players[seat]; return (p && p.name) || this.seatNames[seat] || null; }
  control(seat) { const p = this.players[seat]; return (p && p.control) || null; }
  get autopiloted() { return this.yourSeat !== null && this.control(this.yourSeat) === "autopilot"; }
  waitingFor(seat) { return this.clockAt.has(seat); }
  /** Seconds left on the server's clock for `seat`'s pending decision (null: none or untimed). */
  seatSecondsLeft(seat) {
    const at = this.clockAt.get(seat);
    return at === undefined || at === null ? null : Math.max(0, Math.ceil(at - this.clock() - 0.001));
  }
  /** Leekha cards we may still reveal (protocol/seatview.py doublable, a 1.1+ server). */
  doublable() {
    const v = this.view, seat = this.yourSeat;
    if (!v || seat === null || v.phase !== "pass" || v.passes_done[seat]) return [];
    const revealed = new Set(v.doubled.map((d) => d[0]));
    return v.can_double.filter((c) => v.hand.includes(c) && !revealed.has(c));
  }
  snapshot(msg, spectating) {
    const other = this.tableId !== msg.table.id;
    if (other) { this.clockAt = new Map(); this.seatNames = {}; }
    if (spectating) this.watching = spectating;
    else if (msg.your_seat !== null) this.watching = null;
    this.table = msg.table;
    this.view = msg.view ? { ...emptyView(msg.view.seat), ...msg.view } : null;
    this.players = msg.players.map((p) => ({ ...p }));
    this.rememberNames();
    this.yourSeat = msg.your_seat;
    this.trickDone = false;
    this.released = false;
    if (this.view) {
      this.gameStats = this.view.result ? this.view.result.stats || null : null;
      this.lastTrick = this.view.tricks.length ? this.view.tricks[this.view.tricks.length - 1] : null;
    }
    return other;
  }
  tableUpdate(msg) { if (this.table && msg.table && this.tableId === msg.table_id) this.table = msg.table; }
  seatUpdate(msg) {
    if (!this.table || msg.table_id !== this.tableId) return false;
    while (this.players.length < 4) this.players.push({ name: null, is_bot: false, connected: false });
    this.players[msg.seat] = { ...msg.player };
    this.rememberNames();
    if (msg.seat === this.yourSeat && !msg.player.name) { this.yourSeat = null; this.released = true; }
    return true;
  }
  dealt(msg) {
    if (!this.table) return false;
    const rules = this.view ? this.view.rules : this.rules;
    this.view = newRound(this.view, this.yourSeat, msg);
    this.view.rules = rules;
    if (msg.round === 0) this.gameStats = null;
    this.table = { ...this.table, status: "playing" };
    this.trickDone = false; this.lastTrick = null; this.roundNote = null;
    return true;
  }
  fold(msg) {
    if (!this.view) return false;
    let v = foldEvent(this.view, msg, this.yourSeat, cardPoints(this.rules));
    if (msg.type === "card_played") this.trickDone = false;
    else if (msg.type === "trick_taken") { this.lastTrick = v.tricks[v.tricks.length - 1]; this.trickDone = true; }
    else if (msg.type === "round_scored") {
      this.roundNote = { round: msg.round, points: [...msg.round_points], totals: [...msg.totals],
        taken: msg.taken, moon: msg.moon ?? null, stopped: !!msg.stopped, tie: !!msg.tie };
      v = { ...v, round_points: [0, 0, 0, 0] };
    }
    this.view = v;
    return true;
  }
  gameOver(msg) {
    this.fold(msg);
    this.gameStats = msg.stats ?? null;
    if (this.table) this.table = { ...this.table, status: "finished" };
  }
  prompted(msg) { if (!this.view) return false; this.view = prompted(this.view, msg, this.yourSeat); return true; }
  ownPass(cards) {
    if (!this.view) return;
    const v = ownPassView(this.view, cards, this.yourSeat);
    this.view = { ...v, hand: v.hand.filter((c) => !cards.includes(c)) };
  }
  /** (1.4) Whose decision the table waits for, counted from `at` on our clock. */
  turn(msg, at) {
    this.clockAt = new Map(msg.seats.map(([s, left]) => [s, left === null ? null : at + left]));
    const v = this.view;
    if (v && msg.phase === "play" && msg.seats.length) {
      const seat = msg.seats[0][0];
      let w = v;
      if (v.phase === "pass") w = { ...v, phase: "play", passes_done: [true, true, true, true], leader: seat };
      this.view = { ...w, turn: seat };
    }
  }
  left() {
    this.watching = null; this.clockAt = new Map(); this.table = null; this.view = null;
    this.players = []; this.seatNames = {}; this.yourSeat = null; this.released = false;
    this.trickDone = false; this.lastTrick = null; this.gameStats = null;
  }
  rememberNames() { this.players.forEach((p, s) => { if (p && p.name) this.seatNames[s] = p.name; }); }
}

// ---- requests as intents (client/core/intents.py) ---------------------------------------
/**
 * Each intent's request: `{intent: "JoinTable", table_id}` sends `join_seat`. The fields are
 * the Python dataclass's; other keys stay on the intent as the role's note (the page's
 * `bots`). JS-only: `JoinTable.seat`; `Pass`/`Play` name no decision (the hand is locked).
 */
export const INTENTS = {
  ListTables: "list_tables", CreateTable: "create_table", QuickPlay: "quick_play",
  AddBot: "add_bot", RemoveBot: "remove_bot", TakeBack: "take_back", GetStats: "get_stats",
  GetProfile: "get_profile", Chat: "chat", Phrase: "phrase", JoinTable: "join_seat",
  Spectate: "spectate", Leave: "leave", Start: "start", Rematch: "rematch", Ping: "ping",
  Double: "declare_double", Pass: "pass_cards", Play: "play_card",
};

// ---- the session: one object per player, across connections ------------------------------
/**
 * The changes, `{what: "<class in client/core/changes.py>", ...}` (tests/web/test_core_names.py
 * keeps them equal). ViewChanged's trick_taken adds the `trick` held on screen; every reply
 * to a request of ours is Answered (`refusal` when an error). JS-only: HelloRefused (in
 * Python the session sees the handshake). No TournamentChanged: the page has no tournaments.
 */
export const JS_ONLY_CHANGES = ["HelloRefused"];

/**
 * `new ClientCore({name, token, clock})`. Per connection: `connected()` gives the first
 * message (`resume` with a token, else `hello`); feed each server message to `receive(msg)`
 * and send what `takeOutbox()` holds (pongs, and the session's own requests).
 * `lost(detail)` when it drops.
 */
export class ClientCore {
  constructor({ name = "", token = null, clock = () => Date.now() / 1000 } = {}) {
    this.name = name; this.token = token; this.clock = clock;
    this.link = new Link(); this.lobby = new Lobby(); this.table = new TableState(clock);
    this.chats = new Chats(); this.requests = new RequestTracker();
    this.nextId = 1; this.outbox = []; this.stats = null; this.profile = null;
    this.pendingHello = null;
  }
  get here() { return this.table.tableId; }
  takeOutbox() { const out = this.outbox; this.outbox = []; return out; }
  /** Queue the request for `intent` (INTENTS), tracked with the intent as its note. */
  request(intent) {
    const type = INTENTS[intent.intent];
    if (!type) throw new Error("not an intent: " + intent.intent);
    return this.send(type, intent, intent);
  }
  /** Queue request `type`, tracked with `note` (hello and resume: untracked). */
  send(type, fields = {}, note = null) {
    const msg = build(type, this.nextId++ % 2147483648, fields);
    if (type !== "hello" && type !== "resume") this.requests.send(msg, note);
    this.outbox.push(msg);
    return msg;
  }
  /** A new connection: the handshake's first message. */
  connected() {
    this.outbox = [];
    const msg = this.token ? this.send("resume", { token: this.token })
      : this.send("hello", { name: this.name });
    this.pendingHello = msg;
    return msg;
  }
  /** The connection dropped: requests in flight are gone (LinkLost carries them). */
  lost(detail = "") {
    this.pendingHello = null;
    if (this.link.state !== FAILED) this.link.lost(detail); // failed stays failed
    return [{ what: "LinkLost", why: detail, requests: this.requests.lost() }];
  }
  /** Fold one server message; the changes it made. */
  receive(msg) {
    const ch = [];
    const g = this.table;
    const view = (event) => ch.push({ what: "ViewChanged", event });
    switch (msg.type) {
      case "ping": this.outbox.push({ type: "pong", re: msg.id }); break;
      case "welcome": this.welcome(msg, ch); break;
      case "error": this.error(msg, ch); break;
      case "ok": this.ok(msg, ch); break;
      case "table_list": {
        // One page (1.2): a page after the first adds to the list, and the next is asked for.
        const asked = this.requests.reply(msg);
        const later = !!asked && asked.request.cursor !== null && asked.request.cursor !== undefined;
        this.lobby.listed(msg, later);
        if (asked && msg.next !== null && msg.next !== undefined) this.request({ intent: "ListTables", cursor: msg.next });
        ch.push({ what: "LobbyChanged" });
        break;
      }
      case "table_update": this.lobby.updated(msg); g.tableUpdate(msg); ch.push({ what: "LobbyChanged" }); break;
      case "snapshot": {
        const asked = this.requests.reply(msg);
        const req = asked && asked.request;
        const watch = req && req.type === "spectate" ? [req.table_id, req.password] : null;
        const other = g.snapshot(msg, watch);
        if (other) this.chats.forget(g.tableId);
        if (req && ["create_table", "join_seat", "spectate"].includes(req.type)) g.password = req.password;
        ch.push({ what: "TableChanged", table_id: g.tableId, other, unasked: !asked });
        if (asked) this.answered(asked, ch);
        break;
      }
      case "seat_update": {
        const seated = g.seated;
        if (g.seatUpdate(msg)) ch.push({ what: "SeatsChanged", table_id: msg.table_id, seat: msg.seat, freed: seated && g.released });
        break;
      }
      case "dealt": if (g.dealt(msg)) view(msg); break;
      case "your_turn":
        // (Python's DecisionDue also comes with a snapshot that asks for one.)
        if (g.prompted(msg)) { view(msg); ch.push({ what: "DecisionDue", kind: msg.phase, deadline: msg.deadline ?? null }); }
        break;
      case "turn": {
        g.turn(msg, this.clock());
        view(msg);
        const at = g.yourSeat === null ? undefined : g.clockAt.get(g.yourSeat);
        if (at !== undefined && at !== null) ch.push({ what: "OurClock", deadline_at: at });
        break;
      }
      case "pass_done": case "double_revealed": case "passed_received": case "card_played":
        if (g.fold(msg)) view(msg); break;
      case "trick_taken":
        if (g.fold(msg)) ch.push({ what: "ViewChanged", event: msg, trick: g.lastTrick }); break;
      case "round_scored":
        if (g.fold(msg)) { view(msg); ch.push({ what: "RoundScored", event: msg, note: g.roundNote }); } break;
      case "game_over": g.gameOver(msg); view(msg); ch.push({ what: "GameEnded", game_id: msg.game_id ?? null }); break;
      case "chat_message": case "phrase_said": {
        const line = msg.type === "chat_message"
          ? { from: msg.from, text: msg.text, code: msg.code ?? null, args: msg.args || {} }
          : { from: msg.from, phrase: msg.code, seat: msg.seat ?? null };
        const place = msg.table_id ?? null;
        this.chats.add(place, line);
        ch.push({ what: "ChatAdded", message: msg, place, line });
        break;
      }
      case "stats": case "profile": {
        const asked = this.requests.reply(msg);
        if (!asked) break;
        if (msg.type === "stats") this.stats = msg.players; else this.profile = msg;
        this.answered(asked, ch);
        break;
      }
      default: { const asked = this.requests.reply(msg); if (asked) this.answered(asked, ch); }
    }
    return ch;
  }
  /** Answered, as Python's: the reply with the request and the intent that asked. */
  answered(asked, ch) {
    ch.push({ what: "Answered", request: asked.request, intent: asked.note, reply: asked.reply,
      refusal: asked.refusal });
  }
  welcome(msg, ch) {
    this.pendingHello = null;
    const was = this.link.welcome(msg);
    this.token = msg.token; this.name = msg.name;
    this.chats.onlyLobby();
    const g = this.table;
    const watched = g.table && g.yourSeat === null ? g.watching : null;
    let note = null;
    if (watched && msg.table_id === null) {
      // A restarted server forgets who watched: watch the same table again.
      this.leaveTable(ch);
      this.request({ intent: "Spectate", table_id: watched[0], password: watched[1] });
      note = "watching_again";
    } else if (msg.resumed && msg.table_id === null && g.table) {
      this.leaveTable(ch); note = "seat_given_up";
    } else if (msg.resumed) note = "resumed";
    else if (was) { this.leaveTable(ch); note = "session_expired"; }
    if (!note || note !== "watching_again") {
      if (!msg.resumed || !this.table.table) this.request({ intent: "ListTables" });
    }
    // `note` (JS-only): Python's `lost`, as the page words it.
    ch.push({ what: "Welcomed", welcome: msg, again: was, note });
  }
  error(msg, ch) {
    const hello = this.pendingHello;
    if (hello && msg.re === hello.id) {
      this.pendingHello = null;
      if (msg.code === "bad_token" && hello.type === "resume") {
        // The old session expired: start afresh on the same connection.
        this.token = null;
        this.pendingHello = this.send("hello", { name: this.name });
        ch.push({ what: "HelloRefused", error: msg, retried: true });
        return;
      }
      if (NO_RETRY.has(msg.code)) this.link.failed(msg.code);
      ch.push({ what: "HelloRefused", error: msg, retried: false });
      return;
    }
    if (FATAL.has(msg.code)) {
      // The connection closes. Reconnecting helps after a shutdown or a full server; not
      // after another connection took the session over, nor without a common version.
      if (NO_RETRY.has(msg.code)) this.link.failed(msg.code);
      else this.link.lost(msg.code);
      ch.push({ what: "ServerError", error: msg });
      return;
    }
    const asked = this.requests.reply(msg);
    if (asked) this.answered(asked, ch);
    else ch.push({ what: "ServerError", error: msg });
  }
  ok(msg, ch) {
    const asked = this.requests.reply(msg);
    if (!asked) return;
    const req = asked.request;
    if (req.type === "pass_cards" && this.table.view) this.table.ownPass(req.cards);
    else if (req.type === "leave") { this.leaveTable(ch); this.request({ intent: "ListTables" }); }
    this.answered(asked, ch);
  }
  leaveTable(ch) {
    const gone = this.table.tableId;
    if (this.table.table) {
      this.chats.forget(gone);
      ch.push({ what: "LeftTable", table_id: gone });
    }
    this.table.left();
  }
}
