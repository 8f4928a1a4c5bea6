// A drawn game of an elimination round, settled by the book on the round tab (issue 20): the
// desk's 和棋 in a knockout asks how (Go §27.3, Gomoku §18.3(1)C): replay with colours
// reversed (加赛) or lot (抽签); replayed boards say so, and the online replay game starts for
// the players with their own links (POST .../settle-draw).
import { el } from "./api.js";
import { t } from "./i18n.js";
import { ROUND_PARTS } from "./desk_round.js";
import { playerName } from "./event.js";

function knockoutRound(ctx, r) {
  return (ctx.ev.needs_winner || []).includes(r.round);
}

async function settle(ctx, ask, way) {
  const path = `/api/events/${ctx.id}/rounds/${ask.round}/boards/${ask.board}/settle-draw`;
  ctx.state.drawAsk = null;
  const r = await ctx.change("POST", path, { body: { way, result: ask.result || "draw" } });
  if (r) {
    ctx.state.drawDone = { round: ask.round, board: ask.board, settled: r.settled, online: Boolean(r.replay_game), board_: r.board };
    await ctx.redraw();
  }
}

function askBox(ctx, r, ask) {
  const replays = Number(ctx.e.options.draw_replays ?? 2);
  return el("div", { class: "confirm", role: "alertdialog", "aria-labelledby": "ko-q", "data-testid": "ko-draw" },
    el("p", { id: "ko-q" }, el("strong", {}, `${t("ko.title")}: `), t("ko.drawQ", { round: String(ask.round), board: String(ask.board) })),
    el("p", { class: "note" }, t("ko.note", { n: String(replays) })),
    el("div", { class: "actions" },
      el("button", { type: "button", "data-testid": "ko-replay", onclick: () => settle(ctx, ask, "replay") }, t("ko.replay")),
      el("button", { type: "button", "data-testid": "ko-lot", onclick: () => settle(ctx, ask, "lot") }, t("ko.lot")),
      el("button", { type: "button", onclick: () => { ctx.state.drawAsk = null; ctx.redraw(); } }, t("cancel"))));
}

function doneBox(ctx, done) {
  const g = done.board_ || {};
  const text = done.settled === "lot"
    ? t("ko.lotDone", { who: playerName(ctx.e, g.result === "1-0" ? g.black : g.white) })
    : `${t("ko.replayed", { round: String(done.round), board: String(done.board), k: String(g.replays || 1) })}${done.online ? ` ${t("ko.online")}` : ""}`;
  return el("p", { class: "ok-box", role: "status", "data-testid": "ko-done" }, text);
}

ROUND_PARTS.push({
  visible: (ctx, r) => knockoutRound(ctx, r),
  render(ctx, r) {
    const box = el("div", { class: "knockout-draws no-print" });
    const ask = ctx.state.drawAsk;
    if (ask && ask.round === r.round) box.append(askBox(ctx, r, ask));
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
