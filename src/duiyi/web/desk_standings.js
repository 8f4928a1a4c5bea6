// The desk's standings tab (issue 20): standings that explain themselves. Place, name and
// points come first (so they stay on a phone's screen), then the columns of the method chosen
// at creation, in the order they decide; one sentence says what the method does, a legend says
// what each column is, and "after round N" counts only rounds whose results are all in.
import { api, el } from "./api.js";
import { t, getLang, article } from "./i18n.js";
import { addTab } from "./desk_tabs.js";
import { rank, tiebreakHelp } from "./labels.js";
import { gameType } from "./games.js";

/** An exact score as a short decimal ("13/2" → "6.5", "6725/3" → "2241.67"). */
export function shortScore(v) {
  const s = String(v ?? "");
  const m = /^(-?\d+)\/(\d+)$/.exec(s);
  if (!m) return s;
  const x = Number(m[1]) / Number(m[2]);
  return String(Math.round(x * 100) / 100);
}

/** A tiebreak column's name in the page's language (``board:2`` → "Board 2"). */
export function tiebreakLabel(c) {
  const [base, ...args] = c.name.split(":");
  const key = `tb.${base}`;
  const text = t(key, { n: args[0] || "", m: args[1] || "" });
  return text === key ? c.label : text;
}


/** The one sentence of the method chosen at creation (the game's book says it per system). */
function method(e, st) {
  const variant = String((e.options || {}).variant || "A").toUpperCase();
  if ((e.options || {}).placement) return t("desk.st.method.opengotha");
  if (e.options && e.options.tiebreaks) return t("desk.st.method.custom");
  const own = gameType(e.game).standings_methods[e.system];
  if (own) return t(`desk.st.method.${own.replace("{variant}", variant)}`);
  return st.tiebreaks.length ? t("desk.st.method.chain") : "";
}

function table(st) {
  const cols = (st.tiebreaks || []).filter((c) => c.name !== "points");
  const places = {};
  for (const r of st.standings || []) places[r.place] = (places[r.place] || 0) + 1;
  const tbl = el("table", { class: "standings desk-standings", "data-testid": "standings" });
  tbl.append(el("thead", {}, el("tr", {},
    el("th", { scope: "col" }, t("place")), el("th", { scope: "col" }, t("name")), el("th", { scope: "col" }, t("points")),
    cols.map((c) => el("th", { scope: "col", title: article(c.article) }, tiebreakLabel(c))),
    el("th", { scope: "col", class: "wide" }, "#"), el("th", { scope: "col", class: "wide" }, t("rank")), el("th", { scope: "col", class: "wide" }, t("club")))));
  const body = el("tbody");
  const left = new Map((st.withdrawn || []).map((w) => [w.player ?? w.number, w.after_round]));
  for (const r of st.standings || []) {
    const shared = places[r.place] > 1;
    const gone = left.has(r.number) ? el("span", { class: "note" }, `${t("desk.part.withdrewAfter", { n: String(left.get(r.number)) })}`) : null;
    body.append(el("tr", {},
      el("td", { class: "num place" }, `${r.place}${shared ? "=" : ""}${r.by_lot ? "*" : ""}`),
      el("td", { class: "name" }, r.name, gone), el("td", { class: "num pts" }, shortScore(r.points)),
      cols.map((c) => el("td", { class: "num" }, shortScore((r.tiebreaks || {})[c.name] ?? ""))),
      el("td", { class: "num wide" }, String(r.number)), el("td", { class: "wide" }, rank(r.rank)), el("td", { class: "wide" }, r.club || "")));
  }
  tbl.append(body);
  return tbl;
}

function legend(st) {
  const cols = (st.tiebreaks || []).filter((c) => c.name !== "points");
  return el("dl", { class: "legend", "data-testid": "standings-legend" },
    el("dt", {}, t("place")), el("dd", {}, t("desk.st.placeDoc")),
    el("dt", {}, t("points")), el("dd", {}, t("desk.st.pointsDoc")),
    cols.flatMap((c) => [el("dt", {}, tiebreakLabel(c)), el("dd", {}, tiebreakHelp(c))]));
}

async function render(ctx) {
  const { e, id } = ctx;
  const st = await api("GET", `/api/events/${id}/standings`);
  const done = st.played_rounds ?? 0;
  const chain = (st.tiebreaks || []).map((c) => (c.name === "points" ? t("points") : tiebreakLabel(c)));
  const box = el("div", {},
    el("h2", { "data-testid": "standings-title" }, done ? t("desk.st.after", { n: String(done) }) : t("desk.st.none")),
    st.rounds > done ? el("p", { class: "note", "data-testid": "standings-pending" }, t("desk.st.pending", { n: String(done + 1) })) : null,
    el("p", { class: "method", "data-testid": "standings-method" }, method(e, st)),
    chain.length ? el("p", { class: "note" }, t("desk.st.chain", { chain: chain.join(" → ") })) : null,
    el("div", { class: "table-wrap" }, table(st)), legend(st),
    el("p", { class: "no-print actions" },
      el("button", { type: "button", onclick: () => window.print() }, t("desk.printStandings")), " ",
      el("a", { href: `/api/events/${id}/standings.html?lang=${getLang()}`, "data-testid": "wallchart" }, t("wallchart"))));
  return box;
}

addTab({ id: "standings", label: "desk.tab.standings", order: 30, render });
