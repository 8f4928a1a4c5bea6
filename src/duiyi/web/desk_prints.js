// The desk's prints (prints.js) on its tabs: the round tab prints the round's pairings and
// result slips; the export tab 成绩公告 (standings with their meaning, crosstable) and the
// crosstable alone.
import { el } from "./api.js";
import { t } from "./i18n.js";
import { ROUND_PARTS } from "./desk_round.js";
import { EXPORTS } from "./desk_export.js";
import { printPairings, printSlips, printStandings, printCrosstable } from "./prints.js";

// on the desk: the round tab prints its pairings and result slips; the export tab the rest
ROUND_PARTS.push({
  visible: () => true,
  render: (ctx, r) => el("p", { class: "no-print actions" },
    el("button", { type: "button", "data-testid": `print-pairings-${r.round}`, onclick: () => printPairings(ctx.id, r.round) }, t("pr.printPairings")), " ",
    el("button", { type: "button", "data-testid": `print-slips-${r.round}`, onclick: () => printSlips(ctx.id, r.round) }, t("pr.printSlips"))),
});
EXPORTS.push({ label: "pr.standings", testid: "print-standings", onclick: (ctx) => printStandings(ctx.id) });
EXPORTS.push({ label: "pr.crosstable", testid: "print-crosstable", onclick: (ctx) => printCrosstable(ctx.id) });
