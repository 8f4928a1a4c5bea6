// The desk's export tab: every file and print the event gives, one button each.
import { el } from "./api.js";
import { t, getLang } from "./i18n.js";
import { addTab } from "./desk_tabs.js";
import { gameType } from "./games.js";
import { pairingSheet, roundTitle, tableCards } from "./event.js";

/** More exports from other modules: { label (i18n key), href(ctx) or onclick(ctx), testid }. */
export const EXPORTS = [];

function render(ctx) {
  const { id } = ctx;
  const file = (label, path, name, testid) => el("li", {}, el("a", { href: `/api/events/${id}${path}`, download: name, "data-testid": testid, class: "button" }, t(label)));
  return el("div", {}, el("h2", {}, t("desk.tab.export")),
    el("ul", { class: "exports" },
      file("desk.ex.opengotha", "/export/opengotha.xml", `${id}.xml`, "export-opengotha"),
      gameType(ctx.e.game).egd ? file("desk.ex.egd", "/export/results.h9", `${id}.h9`, "export-egd") : null,
      file("desk.ex.csv", "/export/standings.csv", `${id}-standings.csv`, "export-csv"),
      file("desk.ex.players", "/export/players.csv", `${id}-players.csv`, "export-players"),
      // the records of the online games; results entered at the desk alone have none
      ctx.ev.games.length ? file("desk.ex.sgf", "/export/sgf.zip", `${id}-sgf.zip`, "export-sgf")
        : el("li", { class: "note", "data-testid": "export-sgf-none" }, t("desk.ex.sgfNone")),
      el("li", {}, el("a", { href: `/api/events/${id}/standings.html?lang=${getLang()}`, "data-testid": "export-wallchart", class: "button" }, t("wallchart"))),
      ctx.e.history.length ? [
        el("li", {}, el("button", { type: "button", "data-testid": "export-pairings", onclick: () => pairingSheet(ctx.e, ctx.e.history.at(-1)) },
          `${t("printPairings")} (${roundTitle(ctx.e.history.length)})`)),
        el("li", {}, el("button", { type: "button", "data-testid": "export-cards", onclick: () => tableCards(ctx.e, ctx.e.history.at(-1)) },
          `${t("tableCards")} (${roundTitle(ctx.e.history.length)})`)),
      ] : null,
      EXPORTS.map((x) => el("li", {}, x.href
        ? el("a", { href: x.href(ctx), "data-testid": x.testid, class: "button" }, t(x.label))
        : el("button", { type: "button", "data-testid": x.testid, onclick: () => x.onclick(ctx) }, t(x.label))))),
    el("p", { class: "note" }, t("desk.ex.prints")));
}

addTab({ id: "export", label: "desk.tab.export", order: 40, render });
