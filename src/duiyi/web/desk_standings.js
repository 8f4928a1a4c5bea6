// The desk's standings tab: the table the public page shows, with what each column means.
import { api, el } from "./api.js";
import { t } from "./i18n.js";
import { addTab } from "./desk_tabs.js";
import { standingsTable } from "./event.js";

async function render(ctx) {
  const st = await api("GET", `/api/events/${ctx.id}/standings`);
  return el("div", {}, el("h2", {}, t("standings")), el("div", { class: "table-wrap" }, standingsTable(st)),
    el("p", { class: "no-print actions" },
      el("button", { type: "button", onclick: () => window.print() }, t("desk.printStandings")), " ",
      el("a", { href: `/api/events/${ctx.id}/standings.html`, "data-testid": "wallchart" }, t("wallchart"))));
}

addTab({ id: "standings", label: "desk.tab.standings", order: 30, render });
