// The page's words: the terminal client's gettext catalogues, exported to i18n/{lang}.json by
// `python -m leekha.client.webwords export` (client/webwords.py lists every msgid used here;
// a test keeps the JSON equal to the .po files). `t(msgid, args)` formats `{name}` fields as
// Python's str.format does; `nt(singular, plural, n, args)` picks the language's plural form.
// The server's codes (refusals, rules, notices, phrases) are worded here as the terminal
// client words them (client/refusals.py, client/systemlines.py).
import { cardText, suitOf, rankOf } from "./core.js";

export const LANGUAGES = ["en", "ar", "it"];
export const RTL = new Set(["ar"]);
let messages = {};
export let lang = "en";

// Plural-Forms of each catalogue's header, as functions (no eval under the page's CSP).
const PLURAL = {
  en: (n) => (n === 1 ? 0 : 1),
  it: (n) => (n === 1 ? 0 : n !== 0 && n % 1000000 === 0 ? 1 : 2),
  ar: (n) => (n === 0 ? 0 : n === 1 ? 1 : n === 2 ? 2 : n % 100 >= 3 && n % 100 <= 10 ? 3
    : n % 100 >= 11 ? 4 : 5),
};

/** The first of the browser's languages the page has, else English. */
export function pickLanguage(wanted) {
  for (const w of wanted || []) {
    const code = String(w).toLowerCase().split(/[-_]/)[0];
    if (LANGUAGES.includes(code)) return code;
  }
  return "en";
}

/** A language's catalogue (i18n/{lang}.json) and, once, the codes' msgids (i18n/codes.json). */
export function useCatalogue(code, catalogue, codeTable) {
  lang = code;
  messages = (catalogue && catalogue.messages) || {};
  if (codeTable) codes = codeTable;
}

export function fmt(text, args) {
  if (!args) return text;
  // "{avg:.1f}": the Python format's spec is the caller's to apply (it passes the text).
  return text.replace(/\{(\w+)(?::[^}]*)?\}/g, (m, k) => (k in args ? String(args[k]) : m));
}

export function t(id, args) {
  const s = messages[id];
  return fmt(typeof s === "string" && s ? s : id, args);
}

export function nt(singular, plural, n, args) {
  const forms = messages[singular];
  const a = { n, ...(args || {}) };
  if (Array.isArray(forms) && forms.length) {
    const i = Math.min(PLURAL[lang] ? PLURAL[lang](n) : n === 1 ? 0 : 1, forms.length - 1);
    if (forms[i]) return fmt(forms[i], a);
  }
  return fmt(n === 1 ? singular : plural, a);
}

/** A card inside a sentence: isolated left to right, so "K♣" stays "K♣" in Arabic. */
export const cardWord = (c) => ltr(cardText(c));
/** Text isolated left to right inside a sentence of either direction ("+6" stays "+6"). */
export const ltr = (text) => `\u2066${text}\u2069`;

const SUIT_NAMES = ["clubs", "diamonds", "hearts", "spades"];
export const suitName = (s) => t(SUIT_NAMES[s]);
const displayOrder = (cards) => [...cards].sort((a, b) => suitOf(a) - suitOf(b) || rankOf(a) - rankOf(b));

// The server's codes -> msgids, from the Python tables (client/refusals.py MESSAGES,
// client/systemlines.py NOTICES and RULES, client/tui/social.py PHRASE_WORDS), carried in
// i18n/codes.json by the exporter: one statement of each, in Python.
let codes = { refusals: {}, notices: {}, rules: {}, phrases: {}, seats_empty_many: "" };
export const phraseWords = () => codes.phrases;

function shown(args) {
  const out = {};
  for (const [k, v] of Object.entries(args || {})) {
    if (k === "card" && typeof v === "number") out[k] = cardWord(v);
    else if ((k === "cards" || k === "legal") && Array.isArray(v)) out[k] = `\u2066${displayOrder(v).map(cardText).join(" ")}\u2069`;
    else if (k === "suit" && typeof v === "number" && v >= 0 && v < 4) out[k] = suitName(v);
    else if (k === "option" && typeof v === "string") out[k] = `'${v}'`;
    else if (k === "allowed" && Array.isArray(v)) { out[k] = v.map((x) => `'${x}'`).join(", "); out.known = v.join(", "); }
    else if (k === "seats" && Array.isArray(v)) {
      const ns = v.map((s) => String(s + 1));
      out[k] = ns.length === 1 ? ns[0] : t("{some} and {last}", { some: ns.slice(0, -1).join(", "), last: ns[ns.length - 1] });
    } else if (Array.isArray(v)) out[k] = v.join(", ");
    else out[k] = v;
  }
  if (!("known" in out)) out.known = "";
  return out;
}

function worded(table, code, args) {
  let template = table[code || ""];
  if (!Object.hasOwn(table, code || "")) template = null;
  if (!template) return null;
  if (code === "seats_empty" && Array.isArray(args.seats) && args.seats.length > 1) template = codes.seats_empty_many;
  const text = t(template, shown(args));
  return /\{\w+\}/.test(text) ? null : text;
}

/** An `error` in words: its rule, else its code, else the server's own text. */
export function explain(error) {
  const rule = worded(codes.rules, error.rule, error.args || {});
  if (rule) return rule;
  const m = Object.hasOwn(codes.refusals, error.code) ? codes.refusals[error.code] : null;
  return m ? t(m) : error.message || error.code;
}

/** A chat line in words: a person's text, a notice worded from its code, or a phrase. */
export function chatText(line) {
  if (line.phrase) return Object.hasOwn(codes.phrases, line.phrase) ? t(codes.phrases[line.phrase]) : line.phrase;
  if (line.from !== "*") return line.text;
  // A counted notice ("the clock ran out 1 time") in the language's plural form.
  const a = line.args || {}, c = codes.counted?.[line.code];
  if (c && typeof a[c[0]] === "number") return nt(c[1], c[1], a[c[0]], shown(a));
  return worded(codes.notices, line.code, a) || line.text;
}

