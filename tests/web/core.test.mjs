// The page's core (client/web/core.js) under node's own runner: `node --test tests/web/*.test.mjs`.
// The golden vectors are docs/protocol.md's (tests/data/protocol/golden.json), the same the
// Python tests use; the msgpack codec is the vendored browser build the page loads.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as core from "../../client/web/core.js";

const require = createRequire(import.meta.url);
const msgpack = require("../../client/web/vendor/msgpack.min.js");
const codec = core.makeCodec(msgpack);
const golden = JSON.parse(readFileSync(new URL("../data/protocol/golden.json", import.meta.url)));
const hex = (b) => Buffer.from(b).toString("hex");
const bytes = (h) => new Uint8Array(Buffer.from(h, "hex"));
const byName = Object.fromEntries(golden.vectors.map((v) => [v.name, v]));

/** `actual` equals `expected` but for keys `expected` adds (defaults), at any depth. */
function assertWithin(actual, expected, where) {
  if (actual === null || typeof actual !== "object") return assert.deepEqual(actual, expected, where);
  assert.equal(Array.isArray(actual), Array.isArray(expected), where);
  if (Array.isArray(actual)) assert.equal(actual.length, expected.length, where);
  for (const [k, x] of Object.entries(actual)) assertWithin(x, expected[k], `${where}.${k}`);
}

test("every golden frame decodes to its message through the deframer", () => {
  for (const v of golden.vectors) {
    const d = codec.Deframer();
    const got = d.feed(bytes(v.hex));
    assert.equal(got.length, 1, v.name);
    if (!v.decode_only) {
      assert.deepEqual(got[0], v.message, v.name);
      continue;
    }
    // An older sender's frame: the keys it has are as decoded; the core reads the others
    // at their defaults (`?? null`, `|| []`), which the Python decoder fills in.
    assertWithin(got[0], v.decoded, v.name);
  }
});

test("a frame split byte by byte still comes out whole, once", () => {
  const all = bytes(byName.snapshot.hex + byName.ok.hex);
  const d = codec.Deframer();
  const out = [];
  for (const b of all) out.push(...d.feed(Uint8Array.of(b)));
  assert.deepEqual(out, [byName.snapshot.message, byName.ok.message]);
});

test("an oversized length is refused at once, and the deframer stays failed", () => {
  const d = codec.Deframer();
  assert.throws(() => d.feed(Uint8Array.of(0, 1, 0, 1)), /frame_too_large/);
  assert.throws(() => d.feed(bytes(byName.ok.hex)), /frame_too_large/);
});

// Every client request the core builds is byte-exact with the golden frame of the same
// fields: the field order and defaults are the wire's (section 6).
const CLIENT_TYPES = ["hello", "resume", "list_tables", "create_table", "join_seat", "spectate",
  "leave", "add_bot", "remove_bot", "start", "rematch", "pass_cards", "declare_double",
  "play_card", "chat", "get_stats", "phrase", "quick_play", "get_profile", "take_back", "ping"];

test("requests built by the core encode to the golden bytes", () => {
  let checked = 0;
  for (const v of golden.vectors) {
    if (v.decode_only || !CLIENT_TYPES.includes(v.message.type)) continue;
    const { type, id, ...fields } = v.message;
    if (Object.values(fields).some((x) => typeof x === "number" && !Number.isSafeInteger(x))) continue;
    if (JSON.stringify(fields.overrides || {}).match(/\d{16,}/)) continue; // int64: lossy in JS
    const msg = core.build(type, id, fields);
    assert.deepEqual(msg, v.message, v.name);
    assert.equal(hex(codec.frame(msg)), v.hex, v.name);
    checked++;
  }
  assert.ok(checked >= 25, `only ${checked} request vectors checked`);
});

test("defaults fill what a request leaves out, as the golden defaults vectors", () => {
  assert.equal(hex(codec.frame(core.build("join_seat", 300, { table_id: 70000 }))), byName.join_seat_defaults.hex);
  assert.equal(hex(codec.frame(core.build("add_bot", 5, { seat: 2 }))), byName.add_bot_default.hex);
});

function fed(client, ...names) {
  const changes = [];
  for (const n of names) changes.push(...client.receive(typeof n === "string" ? byName[n].message : n));
  return changes;
}

test("the handshake: hello, welcome, a token kept, the lobby asked for, pings answered", () => {
  const c = new core.ClientCore({ name: "alice", clock: () => 100 });
  const hello = c.connected();
  assert.equal(hello.type, "hello");
  assert.deepEqual(hello.versions, [[1, 4]]);
  c.takeOutbox();
  const ch = c.receive({ ...byName.welcome.message, re: hello.id });
  assert.deepEqual(ch.map((x) => x.what), ["Welcomed"]);
  assert.equal(ch[0].again, false);
  assert.equal(c.token, "q3W0vY2kZp8sLx1N");
  assert.equal(c.link.state, core.ONLINE);
  assert.deepEqual(c.takeOutbox().map((m) => m.type), ["list_tables"]);
  c.receive({ type: "ping", id: 40 });
  assert.deepEqual(c.takeOutbox(), [{ type: "pong", re: 40 }]);
});

test("a reconnect resumes with the token; bad_token falls back to hello", () => {
  const c = new core.ClientCore({ name: "alice", token: "old" });
  const r = c.connected();
  assert.equal(r.type, "resume");
  assert.equal(r.token, "old");
  c.takeOutbox();
  c.receive({ type: "error", code: "bad_token", message: "", re: r.id });
  const [hello] = c.takeOutbox();
  assert.equal(hello.type, "hello");
  assert.equal(hello.name, "alice");
  assert.equal(c.token, null);
});

test("a long lobby comes page by page: each next page is asked for and added", () => {
  const c = new core.ClientCore();
  const first = c.request({ intent: "ListTables" });
  const row = byName.table_list.message.tables[0];
  c.takeOutbox();
  c.receive({ type: "table_list", re: first.id, tables: [row], total: 2, next: 7 });
  const [more] = c.takeOutbox();
  assert.deepEqual([more.type, more.cursor], ["list_tables", 7]);
  c.receive({ type: "table_list", re: more.id, tables: [{ ...row, id: 9 }], total: 2, next: null });
  assert.deepEqual(c.lobby.rows().map((t) => t.id), [7, 9]);
  assert.deepEqual(c.takeOutbox(), []);
});

test("the lobby folds table_list and table_update", () => {
  const c = new core.ClientCore();
  fed(c, "table_list");
  assert.deepEqual(c.lobby.rows().map((t) => t.id), [7]);
  fed(c, "table_update");
  assert.equal(c.lobby.rows().length, 0);
});

test("a game folds from the snapshot and the events as the Python seat view does", () => {
  const c = new core.ClientCore({ clock: () => 1000 });
  fed(c, "snapshot");
  const g = c.table;
  assert.equal(g.yourSeat, 0);
  assert.equal(g.view.tricks.length, 2);
  assert.deepEqual(g.lastTrick.cards, [[2, 44], [3, 46], [0, 41], [1, 50]]);
  c.receive({ type: "turn", phase: "play", seats: [[1, 29.5]] });
  assert.equal(g.seatSecondsLeft(1), 30);
  assert.equal(g.view.turn, 1);
  for (const [seat, card] of [[1, 27], [2, 28], [3, 29]]) c.receive({ type: "card_played", seat, card });
  c.receive({ type: "your_turn", phase: "play", legal: [30, 33, 37], deadline: 29.5, can_double: [] });
  assert.ok(g.myTurn);
  c.receive({ type: "card_played", seat: 0, card: 30 });
  assert.ok(!g.view.hand.includes(30));
  assert.equal(g.view.turn, null);
  const ch = c.receive({ type: "trick_taken", winner: 0, cards: [[1, 27], [2, 28], [3, 29], [0, 30]], points: 4 });
  assert.deepEqual(ch.map((x) => [x.what, x.event.type]), [["ViewChanged", "trick_taken"]]);
  assert.deepEqual(ch[0].trick.cards, [[1, 27], [2, 28], [3, 29], [0, 30]]);
  assert.deepEqual(g.view.taken[0], [27, 28, 29, 30]);
  assert.deepEqual(g.view.round_points, [4, 0, 0, 0]);
  assert.equal(g.view.turn, 0);
  assert.ok(g.trickDone);
  fed(c, "round_scored");
  assert.deepEqual(g.view.totals, [14, 3, 6, 13]);
  assert.deepEqual(g.view.history, [[14, 3, 6, 13]]);
  assert.deepEqual(g.roundNote.points, [14, 3, 6, 13]);
  fed(c, "game_over_golden_goal_stats");
  assert.equal(g.view.phase, "game_over");
  assert.equal(g.table.status, "finished");
  assert.deepEqual(g.gameStats, byName.game_over_golden_goal_stats.message.stats);
  assert.deepEqual(g.view.result.winners, byName.game_over_golden_goal_stats.message.winners);
});

test("a pass: the server's ok takes the cards out of the hand; the exchange brings others", () => {
  const c = new core.ClientCore();
  fed(c, "snapshot_game_start");
  const g = c.table;
  c.receive(byName.dealt.message);
  const hand = [...g.view.hand];
  c.receive({ type: "your_turn", phase: "pass", legal: hand, deadline: null, can_double: [] });
  const req = c.request({ intent: "Pass", cards: [51, 24, 50] });
  assert.deepEqual(req.cards, [24, 50, 51]);
  c.receive({ type: "ok", re: req.id });
  assert.ok(!g.view.hand.includes(24));
  assert.ok(g.view.passes_done[g.yourSeat]);
  c.receive({ type: "passed_received", cards: [2, 13, 30], from_seat: 3 });
  assert.equal(g.view.phase, "play");
  assert.deepEqual(g.view.received, [2, 13, 30]);
  assert.equal(g.view.hand.length, 13);
  assert.equal(g.view.turn, (g.view.dealer + 1) % 4);
});

test("a refusal names the request it refused, with the error's rule", () => {
  const c = new core.ClientCore();
  const req = c.request({ intent: "Play", card: 5 });
  const [ch] = c.receive({ type: "error", code: "must_follow_suit", message: "x", re: req.id,
    rule: "follow_suit", args: { legal: [0, 2], suit: 0 } });
  assert.equal(ch.what, "Answered");
  assert.equal(ch.request.card, 5);
  assert.deepEqual(ch.intent, { intent: "Play", card: 5 });
  assert.equal(ch.refusal.rule, "follow_suit");
});

test("leaving: the ok takes us back to the lobby and asks for the list", () => {
  const c = new core.ClientCore();
  fed(c, "snapshot");
  const req = c.request({ intent: "Leave" });
  c.takeOutbox();
  const ch = c.receive({ type: "ok", re: req.id });
  assert.deepEqual(ch.map((x) => x.what), ["LeftTable", "Answered"]);
  assert.equal(ch[0].table_id, 7);
  assert.equal(c.table.table, null);
  assert.deepEqual(c.takeOutbox().map((m) => m.type), ["list_tables"]);
});

test("a resume into the lobby after a restart drops the table; a watcher watches again", () => {
  const c = new core.ClientCore({ token: "t" });
  const s = c.request({ intent: "Spectate", table_id: 7 });
  c.receive({ ...byName.snapshot.message, re: s.id, your_seat: null });
  const [lost] = c.lost("gone");
  assert.deepEqual([lost.what, lost.why, lost.requests.length], ["LinkLost", "gone", 0]);
  assert.equal(c.link.state, core.RECONNECTING);
  const r = c.connected();
  c.takeOutbox();
  c.receive({ ...byName.welcome_resumed_spectating.message, re: r.id, table_id: null, seat: null });
  assert.equal(c.table.table, null);
  assert.deepEqual(c.takeOutbox().map((m) => [m.type, m.table_id]), [["spectate", 7]]);
});

test("the pass ban, as section 7 states it", () => {
  const hand = [1, 5, 28, 32, 40, 41, 42, 43, 44, 45, 46, 47, 48];
  assert.deepEqual(core.passProblem(hand, [28, 32, 40], {}),
    { code: "pass_last_of_suit", rule: "pass_ban", args: { card: 28, suit: 2 } });
  assert.equal(core.passProblem(hand, [28, 40, 41], {}), null);
  assert.equal(core.passProblem(hand, [28, 40], {}).code, "bad_pass");
  assert.equal(core.passProblem(hand, [28, 32, 40], { pass_ban: false }), null);
  assert.equal(core.passProblem([21, 22, 49, 0, 1], [21, 22, 49], {}), null);
});

test("card ids and words", () => {
  assert.equal(core.cardId(49), "QS");
  assert.equal(core.cardId(21), "TD");
  assert.equal(core.cardText(21), "10♦");
  assert.equal(core.cardOfId("QS"), 49);
  assert.ok(core.isRed(21) && core.isRed(30) && !core.isRed(49));
});

test("the browser's invitation link, as protocol/invite.py web_link writes it", () => {
  assert.equal(core.webLink("http://192.168.1.20:7242/", 12, "open sesame"),
    "http://192.168.1.20:7242/#/table/12?password=open%20sesame");
  assert.equal(core.webLink("http://h:1", 3), "http://h:1/#/table/3");
});

test("a shutdown closes the link for a while; a session taken over closes it for good", () => {
  const c = new core.ClientCore({ token: "t" });
  c.receive({ type: "error", code: "server_shutdown", message: "", re: null });
  assert.equal(c.link.state, core.RECONNECTING);
  c.receive({ type: "error", code: "session_replaced", message: "", re: null });
  assert.equal(c.link.state, core.FAILED);
  c.lost("closed");
  assert.equal(c.link.state, core.FAILED); // the page does not come back by itself
});

test("the changes carry client/core/changes.py's names, in the Python core's order", () => {
  const names = (ch) => ch.map((x) => x.what);
  const c = new core.ClientCore({ clock: () => 1000 });
  const asked = c.request({ intent: "JoinTable", table_id: 7 });
  assert.deepEqual(names(c.receive({ ...byName.snapshot.message, re: asked.id })), ["TableChanged", "Answered"]);
  assert.deepEqual(names(c.receive({ type: "turn", phase: "play", seats: [[0, 20]] })), ["ViewChanged", "OurClock"]);
  assert.equal(c.receive({ type: "turn", phase: "play", seats: [[0, 20]] })[1].deadline_at, 1020);
  const due = c.receive({ type: "your_turn", phase: "play", legal: [41], deadline: 20, can_double: [] });
  assert.deepEqual(due.map((x) => [x.what, x.kind]), [["ViewChanged", undefined], ["DecisionDue", "play"]]);
  assert.deepEqual(names(fed(c, "round_scored")), ["ViewChanged", "RoundScored"]);
  assert.deepEqual(names(fed(c, "game_over_golden_goal_stats")), ["ViewChanged", "GameEnded"]);
  const stats = c.request({ intent: "GetStats" });
  const [answered] = c.receive({ type: "stats", re: stats.id, players: [] });
  assert.deepEqual([answered.what, answered.reply.type, answered.intent.intent], ["Answered", "stats", "GetStats"]);
  assert.deepEqual(names(c.receive({ type: "error", code: "not_your_turn", message: "", re: 999 })), ["ServerError"]);
  const h = new core.ClientCore({ name: "x" });
  const hello = h.connected();
  const [refused] = h.receive({ type: "error", code: "name_taken", message: "", re: hello.id });
  assert.deepEqual([refused.what, refused.retried], ["HelloRefused", false]);
  assert.throws(() => h.request({ intent: "join_seat" }), /not an intent/);
});
