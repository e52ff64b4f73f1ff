// The page's words (client/web/words.js) under node: the exported catalogues, the plural
// forms of each language, and the server's codes worded as the terminal client words them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as words from "../../client/web/words.js";

const load = (name) => JSON.parse(readFileSync(new URL(`../../client/web/i18n/${name}.json`, import.meta.url)));
const codes = load("codes");
const golden = Object.fromEntries(JSON.parse(readFileSync(new URL("../data/protocol/golden.json", import.meta.url)))
  .vectors.map((v) => [v.name, v.message]));
const LRI = "\u2066", PDI = "\u2069";

test("the browser's languages pick a catalogue, else English", () => {
  assert.equal(words.pickLanguage(["ar-SY", "en"]), "ar");
  assert.equal(words.pickLanguage(["de-DE", "it-IT"]), "it");
  assert.equal(words.pickLanguage(["fr"]), "en");
});

test("Italian: a refusal by its code, and seats worded with the language's 'and'", () => {
  words.useCatalogue("it", load("it"), codes);
  assert.equal(words.explain(golden.error_not_ready_seats),
    "i posti 2 e 3 sono vuoti: qualcuno deve sedersi o l'host aggiunge dei bot");
  // talbees' words need a suit the server did not send: the code's words, as in Python.
  assert.equal(words.explain(golden.error_rule_talbees), "le regole impongono una carta precisa (talbees o undercut)");
  assert.equal(words.explain({ code: "no_such_code", message: "the server's own text" }), "the server's own text");
});

test("Arabic: notices from their codes, cards isolated left to right, six plural forms", () => {
  words.useCatalogue("ar", load("ar"), codes);
  assert.equal(words.chatText({ from: "*", code: "dropped", args: { grace: 60, name: "bob", seat: 1 }, text: "x" }),
    "انقطع bob؛ ينتظره المقعد 60 ثانية ليعود");
  assert.equal(words.chatText({ from: "*", code: "timeout_passed", args: { cards: [51, 24, 50] }, text: "x" }),
    `انتهى الوقت: مرر الخادم عنك ${LRI}K♦ K♠ A♠${PDI}`);
  assert.equal(words.t("play {card}", { card: words.cardWord(51) }), `العب ${LRI}A♠${PDI}`);
  assert.equal(words.chatText({ phrase: "well_played", from: "bob" }), "أحسنت!");
  assert.deepEqual([0, 1, 2, 5, 11, 100].map((n) => words.nt("{n} point", "{n} points", n)),
    ["0 نقطة", "1 نقطة", "2 نقطتان", "5 نقاط", "11 نقطة", "100 نقطة"]);
});

test("English: the msgids themselves, and English plurals", () => {
  words.useCatalogue("en", load("en"), codes);
  assert.equal(words.t("{name} to play", { name: "ann" }), "ann to play");
  assert.equal(words.nt("{n} point", "{n} points", 1), "1 point");
  assert.equal(words.nt("{n} point", "{n} points", 4), "4 points");
  assert.equal(words.chatText({ from: "bob", text: "hi" }), "hi");
  assert.equal(words.explain({ code: "rate_limited", message: "" }), "too fast: wait a moment and try again");
});

test("a counted notice takes the language's plural form, never '1 times'", () => {
  const line = (count) => ({ from: "*", code: "timeouts_bot", args: { name: "ann", count }, text: "x" });
  words.useCatalogue("en", load("en"), codes);
  assert.equal(words.chatText(line(1)), "a bot plays for ann: the clock ran out 1 time in a row");
  assert.equal(words.chatText(line(3)), "a bot plays for ann: the clock ran out 3 times in a row");
  words.useCatalogue("it", load("it"), codes);
  assert.equal(words.chatText(line(1)), "un bot gioca per ann: il tempo è scaduto 1 volta di fila");
  words.useCatalogue("ar", load("ar"), codes);
  assert.equal(words.chatText(line(2)), "يلعب روبوت مكان ann: انتهى الوقت مرتين متتاليتين (2)");
});
