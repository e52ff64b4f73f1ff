#!/usr/bin/env node
// A small Leekha bot under node, driven by the page's own core (client/web/core.js): the
// protocol in a second language, from docs/protocol.md. No npm install: it loads the
// msgpack build the page vendors. It speaks TCP (4-byte length + msgpack, section 1),
// opens a table (or joins TABLE), fills it with server bots, plays one game with legal
// moves to its end, prints the result and leaves.
//
//   node examples/node_bot.mjs [--host 127.0.0.1] [--port 7241] [--name nodebot]
//                              [--target 31] [--bots random] [--table N]
import net from "node:net";
import { createRequire } from "node:module";
import { parseArgs } from "node:util";
import * as core from "../client/web/core.js";

const require = createRequire(import.meta.url);
const codec = core.makeCodec(require("../client/web/vendor/msgpack.min.js"));
const { values: opt } = parseArgs({ options: {
  host: { type: "string", default: "127.0.0.1" }, port: { type: "string", default: "7241" },
  name: { type: "string", default: "nodebot" }, target: { type: "string", default: "31" },
  bots: { type: "string", default: "random" }, table: { type: "string" },
  "timeout-s": { type: "string", default: "300" },
} });

const client = new core.ClientCore({ name: opt.name });
const g = client.table;
const sock = net.connect({ host: opt.host, port: Number(opt.port), noDelay: true });
const deframer = codec.Deframer();
let rounds = 0, done = false;
const say = (...a) => console.log("[node_bot]", ...a);
const flush = () => { if (sock.writableEnded) return; for (const m of client.takeOutbox()) sock.write(codec.frame(m)); };
const fail = (why) => { say("FAILED:", why); process.exitCode = 1; sock.destroy(); };
const timer = setTimeout(() => fail("no game over in time"), Number(opt["timeout-s"]) * 1000);

/** Three cards from `legal` that the pass ban lets go together (section 7). */
function choosePass(view, rules) {
  const legal = view.legal;
  for (let i = 0; i < legal.length; i++)
    for (let j = i + 1; j < legal.length; j++)
      for (let k = j + 1; k < legal.length; k++) {
        const cards = [legal[i], legal[j], legal[k]];
        if (!core.passProblem(view.hand, cards, rules)) return cards;
      }
  return legal.slice(0, 3);
}

function act(change) {
  const v = g.view;
  switch (change.what) {
    case "Welcomed":
      say(`welcome: ${change.welcome.name} on ${change.welcome.server}`);
      if (!change.welcome.resumed) {
        if (opt.table !== undefined) client.request({ intent: "JoinTable", table_id: Number(opt.table) });
        else client.request({ intent: "CreateTable", name: `${opt.name}'s table`, pass_timer_s: 0,
          turn_timer_s: 0, overrides: { target: Number(opt.target) } });
      }
      break;
    case "DecisionDue":
      if (change.kind === "pass") client.request({ intent: "Pass", cards: choosePass(v, g.rules) });
      else client.request({ intent: "Play", card: v.legal[0] });
      break;
    case "RoundScored":
      rounds++;
      say(`round ${change.note.round}: ${change.note.points.join(" ")} (totals ${change.note.totals.join(" ")})`);
      break;
    case "GameEnded": {
      const r = v.result;
      say(`game over after ${rounds} rounds: totals ${r.totals.join(" ")}, winners ${r.winners.join(",")}`);
      if (g.gameStats) say("stats (tricks/leekhas/moons):", g.gameStats.map((s) => `${s.tricks}/${s.leekhas}/${s.moons}`).join(" "));
      client.request({ intent: "Leave", bye: true });
      break;
    }
    case "Answered": {
      const intent = change.intent, refusal = change.refusal;
      if (refusal && refusal.code === "rate_limited") {
        // Too fast for the server's rate limit: the request had no effect; send it again.
        setTimeout(() => { client.request(intent); flush(); }, 1000);
      } else if (refusal) fail(`${change.request.type} refused: ${refusal.code} ${refusal.message}`);
      else if (intent.intent === "CreateTable" && change.reply.type === "snapshot") {
        for (let seat = 1; seat < 4; seat++) client.request({ intent: "AddBot", seat, strategy: opt.bots });
        client.request({ intent: "Start" });
        say(`table ${g.tableId}: three ${opt.bots} bots, starting`);
      } else if (intent.bye) { done = true; clearTimeout(timer); say("left the table; done"); sock.end(); }
      break;
    }
    case "ServerError": // a closing error is followed by the close
      if (!core.FATAL.has(change.error.code)) fail(`refused: ${change.error.code} ${change.error.message}`);
      break;
    case "HelloRefused": // (a resume's expired token is followed by a hello)
      if (!change.retried) fail(`hello refused: ${change.error.code}`);
  }
}

sock.on("connect", () => { client.connected(); flush(); });
sock.on("data", (data) => {
  let messages;
  try { messages = deframer.feed(new Uint8Array(data)); } catch (e) { return fail(String(e)); }
  for (const msg of messages) for (const ch of client.receive(msg)) act(ch);
  flush();
});
sock.on("error", (e) => { if (!process.exitCode) fail(`cannot connect or lost: ${e.message}`); });
sock.on("close", () => {
  clearTimeout(timer);
  client.lost("closed");
  if (!done && !process.exitCode) fail("the server closed the connection before the game's end");
});
