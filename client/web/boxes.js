// The boxes drawn over a screen, one at a time (`ui.overlay.kind`): the round's summary, the
// score sheet, the game-over box with the server's statistics, the leaderboard, a profile,
// the last trick, an invitation, and the two forms (new table, password).
import { PRESETS, BOT_LEVELS } from "./core.js";
import { t, nt } from "./words.js";
import { $, h, cardEl } from "./dom.js";
import { presetWord, levelWord, who } from "./paint.js";

const PASS_TIMERS = [0, 30, 60, 120], TURN_TIMERS = [0, 15, 30, 60]; // client/tui/forms.py
export const TARGET_MIN = 1, TARGET_MAX = 10000;
// Rules a host may switch from the preset in the form (docs/protocol.md, the rules table).
const OVERRIDES = [["doubling", "doubling"], ["talbees", "talbees"], ["club_leekha", "K♣ leekha"],
  ["undercut", "undercut"]];

const names = (g) => [0, 1, 2, 3].map((s) => who(g, s));

function sheet(g) {
  const v = g.view, who = names(g);
  return h("table", { id: "score-sheet" },
    h("thead", {}, h("tr", {}, h("th", {}, "#"), who.map((n) => h("th", {}, n)))),
    h("tbody", {}, (v ? v.history : []).map((r, i) => h("tr", {}, h("td", {}, String(i + 1)), r.map((p) => h("td", {}, String(p)))))),
    h("tfoot", {}, h("tr", {}, h("th", {}, t("total")), (v ? v.totals : [0, 0, 0, 0]).map((p) => h("th", {}, String(p))))));
}

export function boxContent(client, ui, act) {
  const g = client.table, o = ui.overlay;
  const close = h("button", { class: "close", on: { click: () => act.closeBox() } }, t("close"));
  switch (o.kind) {
    case "summary": {
      const n = o.note, who = names(g);
      return [h("h2", {}, t("round {n}", { n: n.round + 1 })),
        n.moon !== null ? h("p", { class: "moon" }, t("{name} shot the moon!", { name: who[n.moon] })) : null,
        n.stopped ? h("p", {}, t("golden goal: the round stopped early")) : null,
        n.tie ? h("p", {}, t("a tie at the target: play goes on")) : null,
        h("table", { id: "round-summary" }, h("tbody", {}, who.map((name, s) => h("tr", { data: { seat: s } },
          h("td", {}, name), h("td", { dir: "ltr" }, `+${n.points[s]}`), h("td", {}, String(n.totals[s])),
          h("td", { class: "taken" }, n.taken[s].map((c) => cardEl(c, { class: "mini" }))))))),
        h("button", { id: "summary-continue", on: { click: () => act.closeBox() } }, t("continue"))];
    }
    case "scores": return [h("h2", {}, t("score sheet")), sheet(g), close];
    case "game_over": {
      const v = g.view, r = v && v.result, who = names(g), stats = g.gameStats;
      if (!r) return [close];
      return [h("h2", {}, t("game over")),
        h("p", { id: "winners" }, t("winner: {names}", { names: r.winners.map((s) => who[s]).join(", ") })),
        r.reason === "golden_goal" ? h("p", {}, t("golden goal")) : null,
        h("table", { id: "game-stats" },
          h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, t("points")), h("th", {}, t("tricks")), h("th", {}, t("Leekha cards")), h("th", {}, t("moons")))),
          h("tbody", {}, who.map((name, s) => h("tr", { data: { seat: s }, class: r.winners.includes(s) ? "winner" : "" },
            h("td", {}, name), h("td", {}, String(r.totals[s])),
            h("td", {}, stats ? String(stats[s].tricks) : "–"), h("td", {}, stats ? String(stats[s].leekhas) : "–"),
            h("td", {}, stats ? String(stats[s].moons) : "–"))))),
        sheet(g),
        g.seated ? h("button", { id: "rematch-box", disabled: ui.rematchVoted, on: { click: () => act.rematch() } }, t("rematch")) : null,
        h("button", { id: "leave-box", on: { click: () => act.leave() } }, t("leave")), close];
    }
    case "stats": {
      const players = client.stats || [];
      return [h("h2", {}, t("player statistics")),
        players.length ? h("table", { id: "leaderboard" },
          h("thead", {}, h("tr", {}, h("th", {}, t("player")), h("th", {}, t("rating")), h("th", {}, t("games")), h("th", {}, t("wins")))),
          h("tbody", {}, [...players].sort((a, b) => (b.rating ?? -1e9) - (a.rating ?? -1e9)).map((p) => h("tr", { data: { name: p.name } },
            h("td", {}, h("button", { class: "link profile-link", on: { click: () => act.profile(p.name) } }, p.name)),
            h("td", {}, p.rating === null || p.rating === undefined ? "–" : p.rating.toFixed(1)),
            h("td", {}, String(p.games)), h("td", {}, String(p.wins))))))
          : h("p", {}, t("no finished games yet")), close];
    }
    case "profile": {
      const p = client.profile;
      if (!p) return [h("p", {}, t("loading…")), close];
      const s = p.stats;
      return [h("h2", { id: "profile-name" }, p.name),
        s ? h("p", {}, `${t("rating {rating}", { rating: s.rating === null ? "–" : s.rating.toFixed(1) })} · ${nt("{games} game, {wins} won, {avg:.1f} points a round", "{games} games, {wins} won, {avg:.1f} points a round", s.games, { games: s.games, wins: s.wins, avg: (s.avg_points_per_round ?? 0).toFixed(1) })}`)
          : h("p", {}, t("no finished games yet")),
        h("ul", { id: "recent" }, p.recent.map((r) => h("li", { class: r.won ? "won" : "" },
          `${new Date(r.finished * 1000).toLocaleDateString()} · ${r.table} · ${r.points} ${r.won ? "★" : ""}`))), close];
    }
    case "last_trick": {
      const tr = g.lastTrick;
      return [h("h2", {}, t("last trick")), tr ? h("div", { class: "trick-line" }, tr.cards.map(([s, c]) => cardEl(c, { data: { seat: s } })),
        h("p", {}, t("{name} takes the trick", { name: who(g, tr.winner) }))) : h("p", {}, t("no trick yet")), close];
    }
    case "invite": {
      return [h("h2", {}, t("invite")), h("p", {}, t("Send this link to a friend:")),
        h("input", { id: "invite-link", readonly: true, value: o.link }),
        o.withPassword ? h("p", {}, t("with the password:")) : null,
        o.withPassword ? h("input", { id: "invite-link-password", readonly: true, value: o.withPassword }) : null, close];
    }
    case "phrases": return [h("h2", {}, t("quick phrases")), h("div", { class: "phrase-list" }, act.phraseButtons()), close];
  }
  return [close];
}

/** The new-table form, filled with the terminal client's choices. */
export function fillCreateForm(client) {
  $("#cf-name").value ||= t("Table");
  $("#cf-preset").replaceChildren(...PRESETS.map((p) => h("option", { value: p }, presetWord(p))));
  const timer = (sel, list, dflt) => $(sel).replaceChildren(...list.map((s) => h("option", { value: s, selected: s === dflt },
    s ? t("{n} s", { n: s }) : t("off"))));
  timer("#cf-pass-timer", PASS_TIMERS, 60);
  timer("#cf-turn-timer", TURN_TIMERS, 30);
  $("#cf-target").placeholder = t("the preset's");
  $("#cf-overrides").replaceChildren(h("legend", {}, t("options")), ...OVERRIDES.map(([key, word]) =>
    h("label", { class: "check" }, h("input", { type: "checkbox", data: { rule: key } }), h("span", {}, t(word)))));
  $("#cf-bots").replaceChildren(h("legend", {}, t("bot level")), ...[1, 2, 3].map((seat) => h("label", {},
    h("span", {}, t("seat {n}", { n: seat + 1 })),
    h("select", { data: { seat } }, h("option", { value: "" }, t("a person")), BOT_LEVELS.map((l) => h("option", { value: l }, levelWord(l)))))));
  $("#cf-problem").textContent = "";
}

/** What the form asks for, or the words of what is wrong with it. */
export function readCreateForm() {
  const name = $("#cf-name").value.trim();
  if (!name) return { problem: t("the table needs a name") };
  const text = $("#cf-target").value.trim();
  const overrides = {};
  if (text) {
    const n = Number(text);
    if (!/^\d+$/.test(text) || n < TARGET_MIN || n > TARGET_MAX) return { problem: t("the target must be a number from {lo} to {hi}", { lo: TARGET_MIN, hi: TARGET_MAX }) };
    overrides.target = n;
  }
  for (const box of document.querySelectorAll("#cf-overrides input[data-rule]")) if (box.checked) overrides[box.dataset.rule] = true;
  const password = $("#cf-password").value;
  const bots = [...document.querySelectorAll("#cf-bots select")].map((s) => [Number(s.dataset.seat), s.value]).filter((b) => b[1]);
  return { fields: { name, preset: $("#cf-preset").value, overrides, password: password || null,
    pass_timer_s: Number($("#cf-pass-timer").value), turn_timer_s: Number($("#cf-turn-timer").value),
    counting_aid: $("#cf-counting").checked }, bots };
}

