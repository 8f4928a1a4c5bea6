// The desk's export tab: every file and print the event gives, one button each.
import { el } from "./api.js";
import { t, getLang, paren, colon } from "./i18n.js";
import { addTab } from "./desk_tabs.js";
import { gameType } from "./games.js";
import { pairingSheet, playerName, roundTitle, tableCards } from "./event.js";

/** More exports from other modules: { label (i18n key), href(ctx) or onclick(ctx), testid }. */
export const EXPORTS = [];

const FORFEITS = ["forfeit-black", "forfeit-white", "double-forfeit"];

/** The boards the SGF archive has no record of, and why (as its missing.txt says,
 * duiyi.tournament.formats.records.missing_records): no online game on the board. */
function missingBoards(ctx) {
  const online = new Set((ctx.ev.games || []).map((g) => `${g.round}:${g.board}`));
  const out = [];
  for (const r of ctx.e.history) {
    for (const g of r.games) {
      if (online.has(`${r.round}:${g.board}`)) continue;
      const why = !g.result ? "pending" : FORFEITS.includes(g.result) ? "forfeit" : "desk";
      out.push({ round: r.round, board: g.board, g, why });
    }
  }
  return out;
}

function missingBox(ctx) {
  const missing = missingBoards(ctx);
  if (!missing.length || !ctx.ev.games.length) return null;
  return el("li", { class: "note", "data-testid": "export-sgf-missing" },
    el("p", {}, t("desk.ex.sgfMissing", { n: String(missing.length) })),
    el("ul", {}, missing.map((m) => el("li", {},
      `${roundTitle(m.round)} · ${t("board")} ${m.board}${colon()}${playerName(ctx.e, m.g.black)} – ${playerName(ctx.e, m.g.white)} — ${t(`desk.ex.missing.${m.why}`)}`))));
}

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
      missingBox(ctx),
      el("li", {}, el("a", { href: `/api/events/${id}/standings.html?lang=${getLang()}`, "data-testid": "export-wallchart", class: "button" }, t("wallchart"))),
      ctx.e.history.length ? [
        el("li", {}, el("button", { type: "button", "data-testid": "export-pairings", onclick: () => pairingSheet(ctx.e, ctx.e.history.at(-1)) },
          `${t("printPairings")}${paren(roundTitle(ctx.e.history.length))}`)),
        el("li", {}, el("button", { type: "button", "data-testid": "export-cards", onclick: () => tableCards(ctx.e, ctx.e.history.at(-1)) },
          `${t("tableCards")}${paren(roundTitle(ctx.e.history.length))}`)),
      ] : null,
      EXPORTS.map((x) => el("li", {}, x.href
        ? el("a", { href: x.href(ctx), "data-testid": x.testid, class: "button" }, t(x.label))
        : el("button", { type: "button", "data-testid": x.testid, onclick: () => x.onclick(ctx) }, t(x.label))))),
    el("p", { class: "note" }, t("desk.ex.prints")));
}

addTab({ id: "export", label: "desk.tab.export", order: 40, render });
