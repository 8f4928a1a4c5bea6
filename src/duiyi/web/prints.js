// The desk's prints in the page's language (issue 20): the round's pairings (对阵表) with each
// player's club and points before the round; result slips (成绩记录单) with a box for every
// result, 和 included, and signature lines (Gomoku §10.1(1)F, §12.5(3)); the standings
// (成绩公告) with what each column means, and the crosstable. Each replaces the page with a
// sheet and a "Print" button; "Back to the desk" returns.
import { api, el, showError } from "./api.js";
import { t, getLang } from "./i18n.js";
import { score, rank, tiebreakLabel, tiebreakHelp, resultText, systemText, crossCell } from "./labels.js";

const colon = () => (getLang() === "zh" ? "：" : ": ");

function sheetPage(title, testid, ...body) {
  const main = document.getElementById("main");
  const back = location.hash;
  const bar = el("p", { class: "no-print actions" },
    el("button", { type: "button", onclick: () => window.print() }, t("print")), " ",
    el("a", { href: back, onclick: (ev) => { ev.preventDefault(); window.dispatchEvent(new HashChangeEvent("hashchange")); } }, t("pr.back")));
  main.replaceChildren(el("div", { class: "print-doc", "data-testid": testid }, bar, el("h1", {}, title), ...body,
    el("p", { class: "note printed" }, `${t("pr.printed")}: ${new Date().toLocaleString()}`)));
}

function who(side) {
  if (!side) return t("bye");
  return `${side.name}${side.rank ? ` ${rank(side.rank)}` : ""}`;
}

/** The round's pairings: 台次, 黑方 (单位, 积分), 白方 (单位, 积分), 结果. */
export async function printPairings(id, round) {
  let s;
  try { s = await api("GET", `/api/events/${id}/rounds/${round}/sheet`); } catch (err) { showError(err); return; }
  const pts = (side) => (side && !s.teams ? score(side.points) : "");
  const club = (side) => (side ? side.team || side.club || "" : "");
  const table = el("table", { class: "pairings print-sheet", "data-testid": "pairing-sheet" },
    el("thead", {}, el("tr", {},
      el("th", {}, t("board")), el("th", {}, `● ${t("black")}`), el("th", {}, t("pr.club")), el("th", {}, t("pr.score")),
      el("th", {}, `○ ${t("white")}`), el("th", {}, t("pr.club")), el("th", {}, t("pr.score")), el("th", {}, t("result")))),
    el("tbody", {}, s.boards.map((b) => el("tr", {},
      el("td", { class: "num" }, String(b.board)),
      el("td", { class: "name" }, who(b.black)), el("td", { class: "name" }, club(b.black)), el("td", { class: "num" }, pts(b.black)),
      el("td", { class: "name" }, who(b.white)), el("td", { class: "name" }, club(b.white)), el("td", { class: "num" }, pts(b.white)),
      el("td", {}, b.result ? resultText(b.result) : "")))));
  const byes = (s.byes || []).filter(Boolean).map(who);
  sheetPage(`${s.name} · ${t("round", { n: String(round) })} · ${t("pr.pairings")}`, "print-pairings-page",
    el("p", { class: "meta" }, `${t(s.game)} · ${systemText(s.system)}`), table,
    byes.length ? el("p", {}, `${t("bye")}: ${byes.join("、")}`) : null);
}

/** One result slip per board: both players, a box for each result, signature lines. */
export async function printSlips(id, round) {
  let s;
  try { s = await api("GET", `/api/events/${id}/rounds/${round}/sheet`); } catch (err) { showError(err); return; }
  const box = (label) => el("span", { class: "tick" }, "☐ ", label);
  const line = (label) => el("p", { class: "sign" }, `${label}${colon()}`, el("span", { class: "sign-line" }, " "));
  const slips = el("div", { class: "slips", "data-testid": "result-slips" }, s.boards.filter((b) => b.black && b.white).map((b) =>
    el("section", { class: "slip", "aria-label": `${t("board")} ${b.board}` },
      el("p", { class: "slip-head" }, `${s.name} · ${t("round", { n: String(round) })} · ${t("board")} ${b.board}`),
      el("p", {}, `● ${t("black")}${colon()}${who(b.black)}${b.black.team || b.black.club ? `（${b.black.team || b.black.club}）` : ""}`),
      el("p", {}, `○ ${t("white")}${colon()}${who(b.white)}${b.white.team || b.white.club ? `（${b.white.team || b.white.club}）` : ""}`),
      el("p", { class: "ticks" }, `${t("result")}${colon()}`, box(t("pr.blackWins")), " ", box(t("pr.whiteWins")), " ", box(t("pr.draw"))),
      el("p", { class: "sign" }, `${t("pr.moves")}${colon()}`, el("span", { class: "sign-line short" }, " "), `  ${t("pr.time")}${colon()}`, el("span", { class: "sign-line short" }, " ")),
      line(t("pr.signBlack")), line(t("pr.signWhite")), line(t("pr.signArbiter")))));
  sheetPage(`${s.name} · ${t("round", { n: String(round) })} · ${t("pr.slips")}`, "print-slips-page", slips);
}

function legend(st) {
  const cols = (st.tiebreaks || []).filter((c) => c.name !== "points");
  return el("dl", { class: "legend", "data-testid": "print-legend" },
    el("dt", {}, st.teams ? t("teams.match") : t("pr.score")), el("dd", {}, st.teams ? t("tbh.teams") : t("tbh.points")),
    cols.flatMap((c) => [el("dt", {}, tiebreakLabel(c)), el("dd", {}, tiebreakHelp(c))]));
}

function standingsSheet(st) {
  const cols = (st.tiebreaks || []).filter((c) => c.name !== "points");
  return el("table", { class: "standings print-sheet", "data-testid": "print-standings" },
    el("thead", {}, el("tr", {}, el("th", {}, t("place")), el("th", {}, "#"), el("th", {}, st.teams ? t("team") : t("name")),
      st.teams ? null : el("th", {}, t("rank")), st.teams ? null : el("th", {}, t("pr.club")),
      el("th", {}, st.teams ? t("teams.match") : t("pr.score")), cols.map((c) => el("th", {}, tiebreakLabel(c))))),
    el("tbody", {}, (st.standings || []).map((r) => el("tr", {},
      el("td", { class: "num" }, String(r.place)), el("td", { class: "num" }, String(r.number)), el("td", { class: "name" }, r.name),
      st.teams ? null : el("td", { class: "name" }, rank(r.rank)), st.teams ? null : el("td", { class: "name" }, r.club || ""),
      el("td", { class: "num" }, score(r.points)),
      cols.map((c) => el("td", { class: "num" }, score((r.tiebreaks || {})[c.name] ?? "")))))));
}

function crossSheet(x) {
  const rounds = [];
  for (let r = 1; r <= x.rounds; r++) rounds.push(r);
  return el("table", { class: "crosstable print-sheet", "data-testid": "print-crosstable" },
    el("thead", {}, el("tr", {}, el("th", {}, "#"), el("th", {}, t("name")), rounds.map((r) => el("th", {}, t("round", { n: String(r) }))))),
    el("tbody", {}, x.players.map((p) => el("tr", {}, el("td", { class: "num" }, String(p.number)), el("td", { class: "name" }, p.name),
      rounds.map((r) => el("td", { class: "name" }, (p.rounds[String(r)] || []).map(crossCell).join(" ")))))));
}

/** 成绩公告: the standings with the meaning of each column, then the crosstable. */
export async function printStandings(id, withCross = true) {
  let st; let x; let ev;
  try {
    [ev, st, x] = await Promise.all([api("GET", `/api/events/${id}`), api("GET", `/api/events/${id}/standings`), api("GET", `/api/events/${id}/crosstable`)]);
  } catch (err) { showError(err); return; }
  const played = st.played_rounds ?? st.rounds;
  sheetPage(`${ev.event.name} · ${t("pr.standings")}`, "print-standings-page",
    el("p", { class: "meta" }, `${t(ev.event.game)} · ${systemText(ev.event.system)} · ${t("pr.after", { n: String(played) })}`),
    standingsSheet(st), el("h2", {}, t("pr.tiebreaks")), el("p", { class: "note" }, t("tbh.intro")), legend(st),
    withCross && !st.teams ? el("h2", {}, t("pr.crosstable")) : null, withCross && !st.teams ? crossSheet(x) : null);
}

/** The crosstable alone. */
export async function printCrosstable(id) {
  let x; let ev;
  try { [ev, x] = await Promise.all([api("GET", `/api/events/${id}`), api("GET", `/api/events/${id}/crosstable`)]); } catch (err) { showError(err); return; }
  sheetPage(`${ev.event.name} · ${t("pr.crosstable")}`, "print-crosstable-page", crossSheet(x));
}
