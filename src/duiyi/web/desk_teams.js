// The desk's teams tab (团体, issue 20): each team with its players in board order (分台定人制,
// Go §25.2, Gomoku §16.2: the order of the list) and the team standings by match points, game
// points and the book's chain (Go §27.2, Gomoku §18.3(2), §18.4(2)).
import { api, el } from "./api.js";
import { t } from "./i18n.js";
import { addTab } from "./desk_tabs.js";
import { standingsTable } from "./event.js";
import { rank } from "./labels.js";

function isTeamEvent(ctx) {
  return Boolean((ctx.e.teams && ctx.e.teams.length) || (ctx.e.options && ctx.e.options.team));
}

async function render(ctx) {
  const { e } = ctx;
  const box = el("div", {}, el("h2", {}, t("teams")));
  const teams = e.teams || [];
  if (!teams.length) {
    box.append(el("p", { class: "note" }, t("teams.none")), el("p", { class: "note" }, t("ev.teamHelp")));
    return box;
  }
  const byNumber = new Map(e.players.map((p) => [p.number, p]));
  const table = el("table", { class: "teams", "data-testid": "teams" },
    el("thead", {}, el("tr", {}, el("th", {}, "#"), el("th", {}, t("team")), el("th", {}, t("teams.members")))),
    el("tbody", {}, teams.map((tm) => el("tr", {},
      el("td", { class: "num" }, String(tm.number)), el("td", { class: "name" }, tm.name),
      el("td", {}, tm.members.map((n, i) => {
        const p = byNumber.get(n);
        return `${t("tb.board", { n: String(i + 1) })} ${p ? p.name : n}${p && p.rank ? ` ${rank(p.rank)}` : ""}`;
      }).join(" · "))))));
  box.append(el("div", { class: "table-wrap" }, table));
  if (e.history.length) {
    const st = await api("GET", `/api/events/${ctx.id}/standings`);
    box.append(el("h2", {}, t("teams.standings")), el("p", { class: "note" }, t("tbh.teams")),
      el("div", { class: "table-wrap" }, standingsTable(st)));
  }
  return box;
}

addTab({ id: "teams", label: "desk.tab.teams", order: 15, visible: isTeamEvent, render });
