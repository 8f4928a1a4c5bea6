// A drawn game of an elimination round, settled by the book on the round tab (issue 20): the
// desk's 和棋 in a knockout asks how (Go §27.3, Gomoku §18.3(1)C): replay with colours
// reversed (加赛) or lot (抽签); replayed boards say so, and the online replay game starts for
// the players with their own links (POST .../settle-draw).
import { el } from "./api.js";
import { colon, t } from "./i18n.js";
import { ROUND_PARTS, lotWinner } from "./desk_round.js";
import { playerName } from "./event.js";

function knockoutRound(ctx, r) {
  return (ctx.ev.needs_winner || []).includes(r.round);
}

/** The draw waiting for the director's answer: kept in the tab's session storage too, so that
 * the question is still asked after a reload (a board that has a result meanwhile asks no more). */
function pending(ctx, r) {
  const key = `duiyi.drawAsk.${ctx.id}`;
  if (ctx.state.drawAsk === undefined) {
    try { ctx.state.drawAsk = JSON.parse(sessionStorage.getItem(key) || "null"); } catch (_e) { ctx.state.drawAsk = null; }
  }
  const ask = ctx.state.drawAsk;
  const g = ask && ask.round === r.round ? r.games.find((x) => x.board === ask.board) : null;
  if (ask && ask.round === r.round && (!g || g.result)) ctx.state.drawAsk = null;
  if (ctx.state.drawAsk) sessionStorage.setItem(key, JSON.stringify(ctx.state.drawAsk));
  else if (!ask || ask.round === r.round) sessionStorage.removeItem(key);
  return ctx.state.drawAsk && ctx.state.drawAsk.round === r.round ? ctx.state.drawAsk : null;
}

async function settle(ctx, ask, way) {
  const path = `/api/events/${ctx.id}/rounds/${ask.round}/boards/${ask.board}/settle-draw`;
  ctx.state.drawAsk = null;
  sessionStorage.removeItem(`duiyi.drawAsk.${ctx.id}`);
  const r = await ctx.change("POST", path, { body: { way, result: ask.result || "draw" } });
  if (r) {
    ctx.state.drawDone = { round: ask.round, board: ask.board, settled: r.settled, online: Boolean(r.replay_game), board_: r.board };
    await ctx.redraw();
  }
}

function askBox(ctx, r, ask) {
  const replays = Number(ctx.e.options.draw_replays ?? 2);
  const g = r.games.find((x) => x.board === ask.board) || {};
  // after the replays the book allows, the lot decides: no further replay is offered
  const more = (g.replays || 0) < replays;
  return el("div", { class: "confirm", role: "alertdialog", "aria-labelledby": "ko-q", "data-testid": "ko-draw" },
    el("p", { id: "ko-q" }, el("strong", {}, `${t("ko.title")}${colon()}`), t("ko.drawQ", { round: String(ask.round), board: String(ask.board) })),
    el("p", { class: "note" }, t("ko.note", { n: String(replays) })),
    more ? null : el("p", { class: "warn-box", "data-testid": "ko-lot-only" }, t("ko.lotOnly", { n: String(replays) })),
    el("div", { class: "actions" },
      more ? el("button", { type: "button", "data-testid": "ko-replay", onclick: () => settle(ctx, ask, "replay") }, t("ko.replay")) : null,
      el("button", { type: "button", "data-testid": "ko-lot", onclick: () => settle(ctx, ask, "lot") }, t("ko.lot")),
      el("button", { type: "button", onclick: () => { ctx.state.drawAsk = null; sessionStorage.removeItem(`duiyi.drawAsk.${ctx.id}`); ctx.redraw(); } }, t("cancel"))));
}

function doneBox(ctx, done) {
  const g = done.board_ || {};
  const text = done.settled === "lot"
    ? t("ko.lotDone", { who: playerName(ctx.e, lotWinner(g)) })
    : `${t("ko.replayed", { round: String(done.round), board: String(done.board), k: String(g.replays || 1) })}${done.online ? ` ${t("ko.online")}` : ""}`;
  return el("p", { class: "ok-box", role: "status", "data-testid": "ko-done" }, text);
}

ROUND_PARTS.push({
  visible: (ctx, r) => knockoutRound(ctx, r),
  render(ctx, r) {
    const box = el("div", { class: "knockout-draws no-print" });
    const ask = pending(ctx, r);
    if (ask) box.append(askBox(ctx, r, ask));
    const done = ctx.state.drawDone;
    if (done && done.round === r.round) box.append(doneBox(ctx, done));
    // boards being replayed (a draw at the desk or online): who has which colour now
    const replayed = r.games.filter((g) => g.replays && !g.result);
    if (replayed.length) {
      box.append(el("ul", { class: "note", "data-testid": "ko-replays" }, replayed.map((g) => el("li", {},
        `${t("ko.replayed", { round: String(r.round), board: String(g.board), k: String(g.replays) })} ● ${playerName(ctx.e, g.black)} – ○ ${playerName(ctx.e, g.white)}`))));
    }
    return box;
  },
});
