// The desk's round tab: pair the next round, one round at a time (the latest by default, any
// earlier one by its number), results with warnings, a correction that reaches a later pairing
// confirmed in the page with the pairings it affects, conflicts, the audit trail, online games,
// table cards and the pairing sheet.
import { api, el, link, copyButton, showError, clearNotice } from "./api.js";
import { secret, keepSecret } from "./keys.js";
import { gameType } from "./games.js";
import { t, colon, getLang } from "./i18n.js";
import { addTab } from "./desk_tabs.js";
import { reasonText } from "./labels.js";
import { resultsOf, playerName, roundTitle, conflictBox, trailBox, pairingSheet, tableCards } from "./event.js";

/** A result code in words ("1-0" → "Black wins"). */
export function resultLabel(code) {
  return code ? t(`rc.${code}`) : "—";
}

/** The player a drawn game's lot sends through (Game.lot: the game itself stays drawn). */
export function lotWinner(g) {
  return g.lot && g.lot.winner === "black" ? g.black : g.white;
}

/** A board decided by lot, in its result cell: who goes through, and the lot's seed in full
 * (sent as a string, so no digit is rounded away). */
export function lotLine(e, g) {
  return el("p", { class: "note lot", "data-testid": `lot-${g.board}` },
    // no space before a full-width bracket on a Chinese page: "抽签：选手1（1）胜出（对局仍为和棋…）"
    el("strong", {}, t("ko.lotBoard", { who: playerName(e, lotWinner(g)) })), getLang() === "zh" ? "" : " ",
    el("span", {}, t("ko.lotSeed", { seed: String(g.lot.seed || "—") })));
}

/** Extra parts of the round tab from other modules: { visible(ctx, r), render(ctx, r) → Node }. */
export const ROUND_PARTS = [];

function enterResult(ctx, r, gm, body, force = false) {
  const { id } = ctx;
  const path = `/api/events/${id}/rounds/${r.round}/boards/${gm.board}/result`;
  ctx.state.resultAsk = null;
  if (["draw", "no-result"].includes(body.result) && (ctx.ev.needs_winner || []).includes(r.round)) {
    ctx.state.drawAsk = { round: r.round, board: gm.board, result: body.result }; // desk_knockout.js asks how
    ctx.focusAfter("ko-replay");
    return ctx.redraw();
  }
  return ctx.change("PUT", path, {
    body: force ? { ...body, force: true } : body,
    patch: (answer) => patchBoard(ctx, answer),
    // after the next round was paired: ask in the page, naming the pairings it reaches
    refused: (err) => {
      if (err.status !== 409 || force || !/force/.test(err.message)) return false;
      ctx.state.resultAsk = { round: r.round, board: gm.board, body, text: err.text, affected: null };
      ctx.focusAfter("result-force-yes");
      return true;
    },
  });
}

/** Put a board's answer in place in the desk's event (true), without reading the whole event
 * again (issue 26); false when the change reaches further than the board (a disqualification
 * withdraws a player, a team match's score, a pairing made on the old result, a groups event
 * whose groups decide its final stage): the desk reads the event again. */
export function patchBoard(ctx, answer) {
  const { e, ev, desk } = ctx;
  const r = e.history[answer.round - 1];
  if (!answer.board || !r || r.round !== answer.round || (answer.withdrawn || []).length
    || (answer.affected || []).length || (e.teams || []).length || (r.matches || []).length
    || e.system === "groups") return false;
  const i = r.games.findIndex((g) => g.board === answer.board.board);
  if (i < 0) return false;
  r.games[i] = answer.board;
  ev.version = answer.version;
  ev.current_round = answer.current_round;
  const open = e.history.findIndex((x) => x.games.some((g) => !g.result));
  desk.completed_rounds = open < 0 ? e.history.length : open;
  desk.version = answer.version;
  for (const gameId of answer.closed_games || []) {
    const g = ev.games.find((x) => x.id === gameId);
    if (g && !g.closed) {
      g.closed = "entered at the desk";
      if (g.status === "live") g.status = "closed";
    }
  }
  return true;
}

async function affectedOf(ctx, ask) {
  if (ask.affected) return ask.affected;
  try {
    const a = await api("GET", `/api/events/${ctx.id}/rounds/${ask.round}/boards/${ask.board}/affected`, { token: ctx.key });
    ask.affected = a.affected;
  } catch (_err) { ask.affected = []; }
  return ask.affected;
}

async function askRow(ctx, r, gm, cols) {
  const ask = ctx.state.resultAsk;
  const affected = await affectedOf(ctx, ask);
  const { e } = ctx;
  return el("tr", { class: "ask" }, el("td", { colspan: String(cols) },
    el("div", { class: "confirm", role: "alertdialog", "aria-labelledby": "result-force-q", "data-testid": "result-force-confirm" },
      el("p", { id: "result-force-q" }, t("desk.correctQ", {
        round: String(r.round), board: String(gm.board),
        from: resultLabel(gm.result), to: resultLabel(ask.body.result),
      })),
      el("ul", { "data-testid": "affected" }, affected.map((a) => el("li", {},
        `${roundTitle(a.round)} · ${t("board")} ${a.board}${colon()}${playerName(e, a.black)} – ${playerName(e, a.white)}`))),
      el("p", { class: "note" }, t("desk.correctNote")),
      el("div", { class: "actions" },
        el("button", { type: "button", class: "danger", "data-testid": "result-force-yes", onclick: () => enterResult(ctx, r, gm, ask.body, true) },
          t("desk.correctYes", { to: resultLabel(ask.body.result) })),
        el("button", { type: "button", onclick: () => { ctx.state.resultAsk = null; ctx.redraw(); } }, t("cancel"))))));
}

/** What the round's online games' referees ruled that the board's ⚠ counts (Go §24 warnings,
 * Gomoku §12.3(4) violations), by board: the last online game of each board, read from its
 * state (GET /api/games/{id}, the ledger's summary). A game that cannot be read counts none. */
async function onlineCounts(ctx, r) {
  const counted = gameType(ctx.e.game).counted;
  const last = new Map();
  for (const g of ctx.ev.games || []) if (g.round === r.round) last.set(g.board, g);
  const out = new Map();
  await Promise.all([...last.entries()].map(async ([board, g]) => {
    try {
      const st = await api("GET", `/api/games/${g.id}`);
      const ref = st.referee || {};
      out.set(board, { black: (ref.black || {})[counted] || 0, white: (ref.white || {})[counted] || 0 });
    } catch (_err) { /* the board keeps the desk's counts */ }
  }));
  return out;
}

async function roundTable(ctx, r, explanation) {
  const { e, ev, id, arbiter } = ctx;
  const ruled = await onlineCounts(ctx, r);
  const reasons = Object.fromEntries(((explanation && explanation.pairings) || []).map((p) => [p.board, p.reason]));
  const hasReasons = Object.keys(reasons).length > 0;
  const cols = 6 + (hasReasons ? 1 : 0);
  const table = el("table", { class: "pairings", "data-testid": `round-${r.round}` });
  table.append(el("thead", {}, el("tr", {}, el("th", {}, t("board")), el("th", {}, t("black")),
    el("th", {}, t("white")), el("th", {}, t("resultAndWarnings")), el("th", {}, t("record")),
    hasReasons ? el("th", {}, t("reason")) : null, el("th", {}, el("span", { class: "sr-only" }, t("desk.links"))))));
  const body = el("tbody");
  const opts = {
    forceAsk: ctx.state.forceAsk,
    cancelForce: () => { ctx.state.forceAsk = null; ctx.redraw(); },
    resolve: async (round, board, accept, force = false) => {
      ctx.state.forceAsk = null;
      await ctx.change("POST", `/api/events/${id}/rounds/${round}/boards/${board}/conflict`, {
        body: force ? { accept, force: true } : { accept },
        refused: (err) => {
          if (err.status !== 409 || force) return false;
          ctx.state.forceAsk = { round, board, accept, text: err.text };
          ctx.focusAfter("force-yes");
          return true;
        },
      });
    },
  };
  for (const gm of r.games) {
    const online = ev.games.find((x) => x.round === r.round && x.board === gm.board);
    const sel = el("select", { "aria-label": `${t("result")} ${t("board")} ${gm.board}`, "data-testid": `result-${r.round}-${gm.board}` },
      el("option", { value: "" }, "—"), resultsOf(ctx.e.game).map((c) => el("option", { value: c, selected: (gm.result || "") === c }, resultLabel(c))));
    const online_ = ruled.get(gm.board) || { black: 0, white: 0 };
    // the desk's count includes what the online game's referee ruled (issue 32)
    const warn = (color) => el("input", {
      type: "number", min: "0", max: "2", value: String(Math.max((gm.warnings || {})[color] || 0, online_[color])), class: "warn",
      "aria-label": `${t(color)} ${t("warnings")} ${t("board")} ${gm.board}`,
      "data-testid": `warn-${color}-${r.round}-${gm.board}`,
    });
    const bw = warn("black");
    const ww = warn("white");
    const send = () => enterResult(ctx, r, gm, { result: sel.value || null, black_warnings: Number(bw.value) || 0, white_warnings: Number(ww.value) || 0 });
    // choosing a result enters it (one action per board); Enter sends changed warnings
    sel.addEventListener("change", send);
    const enter = el("button", {
      type: "button", "data-testid": `enter-${r.round}-${gm.board}`, "aria-label": `${t("enter")} ${t("board")} ${gm.board}`,
      onclick: send,
    }, t("enter"));
    const linkCell = el("td", {});
    if (online) {
      linkCell.append(el("a", { href: `#/game/${online.id}?event=${id}` }, t("watch")));
      if (arbiter) linkCell.append(" ", el("a", { href: `#/game/${online.id}?event=${id}&arbiter=${encodeURIComponent(arbiter)}` }, t("arbiterView")));
    }
    body.append(el("tr", { "data-board": String(gm.board) },
      el("td", { class: "num" }, String(gm.board)), el("td", {}, playerName(e, gm.black)), el("td", {}, playerName(e, gm.white)),
      el("td", { class: "enter" }, sel, el("label", { class: "warn-label" }, `⚠ ${t("black")}`, bw),
        el("label", { class: "warn-label" }, `⚠ ${t("white")}`, ww), enter, gm.lot ? lotLine(e, gm) : null,
        online_.black || online_.white ? el("p", { class: "note", "data-testid": `online-ruled-${r.round}-${gm.board}` },
          t("desk.onlineRuled", { b: String(online_.black), w: String(online_.white) })) : null),
      el("td", { class: "record" }, gm.conflict ? conflictBox(r.round, gm, opts) : null, gm.trail && gm.trail.length ? trailBox(r.round, gm) : null),
      hasReasons ? el("td", { class: "reason" }, reasonText(reasons[gm.board] || "")) : null, linkCell));
    const ask = ctx.state.resultAsk;
    if (ask && ask.round === r.round && ask.board === gm.board) body.append(await askRow(ctx, r, gm, cols));
  }
  for (const b of r.byes || []) {
    const n = b.player ?? b;
    body.append(el("tr", {}, el("td", {}, "—"), el("td", { colspan: "2" }, `${playerName(e, n)} · ${t("bye")}`),
      el("td", { colspan: String(cols - 3) })));
  }
  table.append(body);
  return table;
}

function linksBox(ctx) {
  const { e } = ctx;
  const box = el("div", { class: "links", "data-testid": "player-links" }, el("h3", {}, t("gameLinks")));
  for (const gl of ctx.state.links.games) {
    const b = link(`#/game/${gl.game_id}?token=${gl.black_token}`);
    const w = link(`#/game/${gl.game_id}?token=${gl.white_token}`);
    box.append(el("p", {}, `${t("board")} ${gl.board}${colon()}`,
      el("a", { href: b }, `${t("black")} ${playerName(e, gl.black)}`), copyButton(b, t("copyLink"), t("copied")), " · ",
      el("a", { href: w }, `${t("white")} ${playerName(e, gl.white)}`), copyButton(w, t("copyLink"), t("copied"))));
  }
  return box;
}

async function render(ctx) {
  const { e, ev, id, desk } = ctx;
  const box = el("div", {});
  const next = ev.current_round + 1;
  const more = e.rounds === 0 || ev.current_round < e.rounds;
  const pairBox = el("div", { class: "no-print pair-box" });
  if (!e.history.length && !desk.numbers_drawn && e.players.length > 1) {
    pairBox.append(el("p", { class: "warn-box", role: "status", "data-testid": "numbers-warning" }, t("desk.numbersNotDrawn")),
      el("p", {}, el("button", {
        type: "button", "data-testid": "draw-and-pair",
        onclick: async () => {
          if (!(await ctx.change("POST", `/api/events/${id}/players/draw`, { body: {} }))) return;
          await ctx.change("POST", `/api/events/${id}/rounds`, { opens: (r) => ["round", `round=${r.round}`] });
        },
      }, t("desk.drawAndPair"))));
  }
  if (more) {
    pairBox.append(el("button", {
      type: "button", "data-testid": "pair",
      onclick: async () => {
        await ctx.change("POST", `/api/events/${id}/rounds`, { opens: (r) => ["round", `round=${r.round}`] });
      },
    }, t("desk.pairRound", { n: String(next) })));
  }
  box.append(pairBox);
  if (!e.history.length) {
    box.append(el("p", {}, t("desk.noRound")));
    return box;
  }
  const wanted = Number(ctx.params.get("round")) || ev.current_round;
  const n = Math.min(Math.max(wanted, 1), ev.current_round);
  const r = e.history[n - 1];
  box.append(el("nav", { class: "round-pick no-print", "aria-label": t("desk.rounds") },
    e.history.map((x) => el("a", {
      href: `#/desk/${id}/round?round=${x.round}`, "aria-current": x.round === n ? "page" : null,
      class: x.round === n ? "active" : null,
    }, roundTitle(x.round)))));
  // the round's explanation, read once per reading of the event (a result does not change it)
  let explanation = ctx.state.explanations && ctx.state.explanations.has(n) ? ctx.state.explanations.get(n) : undefined;
  if (explanation === undefined) {
    explanation = null;
    try {
      explanation = (await api("GET", `/api/events/${id}/rounds/${n}`)).explanation || null;
      if (ctx.state.explanations) ctx.state.explanations.set(n, explanation);
    } catch (err) { showError(err); }
  }
  box.append(el("h2", {}, roundTitle(n)));
  for (const part of ROUND_PARTS) if (part.visible(ctx, r)) box.append(await part.render(ctx, r));
  if (ctx.state.links && ctx.state.links.round === n) box.append(linksBox(ctx));
  box.append(el("div", { class: "table-wrap" }, await roundTable(ctx, r, explanation)));
  // who is not in this round: marked absent, or withdrawn before it
  const absent = e.players.filter((p) => ((p.extra && p.extra.participating) || "")[n - 1] === "0").map((p) => p.name);
  const gone = (e.withdrawals || []).filter((w) => w.after_round < n).map((w) => playerName(e, w.player ?? w.number));
  if (absent.length || gone.length) {
    box.append(el("p", { class: "note", "data-testid": "not-paired" },
      absent.length ? t("desk.notPairedAbsent", { names: absent.join(", ") }) : "", absent.length && gone.length ? " · " : "",
      gone.length ? t("desk.notPairedWithdrawn", { names: gone.join(", ") }) : ""));
  }
  if (explanation && explanation.notes && explanation.notes.length) box.append(el("ul", { class: "note" }, explanation.notes.map((x) => el("li", {}, reasonText(x)))));
  const hasOnline = ev.games.some((g) => g.round === n);
  // the links are derived from a key this tab keeps (keys.js), so that an answer lost on its
  // way (a timeout, a cut) is asked for again instead of leaving a round nobody can sit at
  const keptLinks = secret("event", id, `links${n}`);
  const showLinks = async () => {
    try {
      const res = await api("POST", `/api/events/${id}/rounds/${n}/links`, { body: { links_key: keptLinks || secret("event", id, `links${n}`) }, token: ctx.key });
      clearNotice("error");
      ctx.state.links = { ...res, round: n };
      ctx.redraw();
    } catch (err) { showError(err); }
  };
  box.append(el("p", { class: "no-print actions" },
    hasOnline ? null : el("button", {
      type: "button", "data-testid": `start-${n}`,
      onclick: async () => {
        let links = secret("event", id, `links${n}`);
        if (!links) {
          links = [...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, "0")).join("");
          keepSecret("event", id, `links${n}`, links);
        }
        let failed = null;
        const res = await ctx.change("POST", `/api/events/${id}/rounds/${n}/games`, {
          body: { links_key: links }, refused: (err) => { failed = err; return false; },
        });
        if (res) { ctx.state.links = { ...res, round: n }; ctx.redraw(); }
        // no answer, or the proxy's 5xx: the games may have been made; their links asked again
        else if (failed && !(failed.status >= 400 && failed.status < 500)) await showLinks();
      },
    }, t("startGames")),
    hasOnline && keptLinks && !(ctx.state.links && ctx.state.links.round === n) ? el("button", {
      type: "button", "data-testid": `links-again-${n}`, onclick: showLinks,
    }, t("desk.linksAgain")) : null, " ",
    el("button", { type: "button", "data-testid": `cards-${n}`, onclick: () => tableCards(e, r) }, t("tableCards")), " ",
    el("button", { type: "button", "data-testid": `sheet-${n}`, onclick: () => pairingSheet(e, r) }, t("printPairings"))));
  return box;
}

addTab({ id: "round", label: "desk.tab.round", order: 20, visible: (ctx) => ctx.e.players.length > 0 || ctx.e.history.length > 0, render });
