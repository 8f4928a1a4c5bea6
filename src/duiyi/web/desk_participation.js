// Participation on the players tab (issue 20): present/absent for each round not paired yet
// (Swiss-type systems), rounds a player missed, late entries, and the withdrawal asked in the
// page (the article, what it does to the results and to the game in play) with an undo until
// the next round is paired.
import { api, el } from "./api.js";
import { t } from "./i18n.js";
import { ROW_PARTS, LATE } from "./desk_players.js";
import { playerName } from "./event.js";
import { resultLabel } from "./desk_round.js";

const SWISS = ["swiss", "mcmahon", "swiss-elimination"];

function flags(ctx, p) {
  const raw = (p.extra && p.extra.participating) || "";
  const width = Math.max(ctx.e.rounds, ctx.e.history.length, 1);
  return raw.slice(0, width).padEnd(width, "1");
}

function futureRounds(ctx) {
  const out = [];
  for (let r = ctx.e.history.length + 1; r <= ctx.e.rounds; r++) out.push(r);
  return out;
}

function withdrawalOf(ctx, p) {
  return (ctx.e.withdrawals || []).find((w) => (w.player ?? w.number) === p.number) || null;
}

async function askBox(ctx, p) {
  const { id, e } = ctx;
  let pre;
  try {
    pre = await api("GET", `/api/events/${id}/players/${p.number}/withdrawal`, { token: ctx.key });
  } catch (err) {
    return el("p", { class: "conflict" }, err.text || String(err));
  }
  const lines = [t(`desk.wd.${pre.effect}`, { article: pre.article })];
  const g = pre.game;
  if (g) {
    const opp = g.black === p.number ? g.white : g.black;
    const where = { round: String(g.round), board: String(g.board), opp: playerName(e, opp) };
    if (g.result === null && g.after) lines.push(t("desk.wd.forfeits", { ...where, after: resultLabel(g.after) }));
    else if (g.result !== null) lines.push(t("desk.wd.stands", { ...where, result: resultLabel(g.result) }));
    else lines.push(t("desk.wd.pending", where));
  } else if (pre.started) {
    lines.push(t("desk.wd.noGame"));
  }
  lines.push(t("desk.wd.undoUntil"));
  return el("div", { class: "confirm", role: "alertdialog", "aria-labelledby": `wd-q-${p.number}`, "data-testid": "withdraw-confirm" },
    el("p", { id: `wd-q-${p.number}` }, el("strong", {}, t("desk.wd.q", { name: p.name, article: pre.article }))),
    el("ul", {}, lines.map((x) => el("li", {}, x))),
    el("div", { class: "actions" },
      el("button", {
        type: "button", class: "danger", "data-testid": "withdraw-yes",
        onclick: async () => {
          ctx.state.withdrawAsk = null;
          await ctx.change("POST", `/api/events/${id}/players/${p.number}/withdraw`);
        },
      }, t("desk.wd.yes", { name: p.name })),
      el("button", { type: "button", onclick: () => { ctx.state.withdrawAsk = null; ctx.redraw(); } }, t("cancel"))));
}

ROW_PARTS.push({
  withdraws: true,
  visible: () => true,
  head: (ctx) => {
    const cells = [el("th", {}, t("desk.part.missed"))];
    if (SWISS.includes(ctx.e.system)) for (const r of futureRounds(ctx)) cells.push(el("th", { class: "no-print" }, t("desk.part.plays", { n: String(r) })));
    return cells;
  },
  cell: (ctx, p) => {
    const f = flags(ctx, p);
    const missed = [];
    for (let r = 1; r <= ctx.e.history.length; r++) if (f[r - 1] === "0") missed.push(r);
    const w = withdrawalOf(ctx, p);
    const cells = [el("td", { class: "missed" }, missed.length ? t("desk.part.missedRounds", { rounds: missed.join(", ") }) : "",
      w ? el("span", { class: "note" }, `${missed.length ? " · " : ""}${t("desk.part.withdrewAfter", { n: String(w.after_round) })}`) : null)];
    if (SWISS.includes(ctx.e.system)) {
      for (const r of futureRounds(ctx)) {
        if (w) { cells.push(el("td", { class: "no-print" })); continue; }
        const box = el("input", {
          type: "checkbox", checked: f[r - 1] !== "0", "data-testid": `present-${p.number}-${r}`,
          "aria-label": t("desk.part.presentLabel", { name: p.name, n: String(r) }),
          onchange: () => ctx.change("PUT", `/api/events/${ctx.id}/players/${p.number}/rounds/${r}`, { body: { present: box.checked } }),
        });
        cells.push(el("td", { class: "no-print presence" }, el("label", {}, box, " ", f[r - 1] === "0" ? t("desk.part.absent") : t("desk.part.present"))));
      }
    }
    return cells;
  },
  action: (ctx, p) => {
    if (!ctx.e.history.length) return null; // before round 1: remove instead
    const w = withdrawalOf(ctx, p);
    if (w) {
      if (w.after_round < ctx.e.history.length) return null; // a round was paired since
      return el("button", {
        type: "button", class: "small", "data-testid": `undo-withdraw-${p.number}`,
        onclick: () => ctx.change("POST", `/api/events/${ctx.id}/players/${p.number}/withdraw/undo`),
      }, t("desk.wd.undo", { name: p.name }));
    }
    return el("button", {
      type: "button", class: "small", "data-testid": `withdraw-${p.number}`, "aria-label": `${t("withdraw")} ${p.name}`,
      onclick: () => { ctx.state.withdrawAsk = p.number; ctx.focusAfter("withdraw-yes"); ctx.redraw(); },
    }, t("withdraw"));
  },
  below: (ctx, p) => {
    if (ctx.state.withdrawAsk !== p.number) return null;
    const cell = el("td", { colspan: "20" });
    const row = el("tr", { class: "ask" }, cell);
    askBox(ctx, p).then((box) => {
      cell.append(box);
      const yes = cell.querySelector("[data-testid=withdraw-yes]");
      if (yes) yes.focus();
    });
    return row;
  },
});

/** What a late entry starts with (shown by the add form once a round is paired). */
LATE.note = function lateEntryNote(ctx) {
  const n = ctx.e.history.length;
  if (!n || !SWISS.includes(ctx.e.system)) return null;
  return el("p", { class: "note", "data-testid": "late-entry-note" }, t(ctx.e.system === "mcmahon" ? "desk.part.lateMcMahon" : "desk.part.late", { n: String(n), next: String(n + 1) }));
};
