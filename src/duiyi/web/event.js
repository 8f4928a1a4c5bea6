// The public event page (pairings, results, standings, crosstable; printable as wall charts)
// and the tournament desk (organiser key).
import { api, el, showError, Problem } from "./api.js";
import { t, getLang, setBook, colon, paren } from "./i18n.js";
import { gameSettings } from "./settings.js";
import { gameType, games } from "./games.js";
import { eventOptions } from "./event_options.js";
import { printPairings } from "./prints.js";
import { score, rank, tiebreakHelp, resultText, systemText, crossCell, roundsText } from "./labels.js";
import { tiebreakLabel } from "./desk_standings.js";
import { keepSecret } from "./keys.js";

// every competition system of duiyi.tournament.systems (the server refuses what needs options)
export const SYSTEMS = ["swiss", "mcmahon", "round-robin", "double-round-robin", "swiss-elimination", "knockout",
  "double-elimination", "groups", "match", "relay"];

export const RESULTS = ["1-0", "0-1", "draw", "forfeit-black", "forfeit-white", "double-forfeit", "both-lose", "no-result"];

/** The results a game of ``game`` can be entered with: no 无胜负 where the book has none
 * (Gomoku §2.14: a finished game is won or drawn). */
export function resultsOf(game) {
  return gameType(game).no_result ? RESULTS : RESULTS.filter((r) => r !== "no-result");
}

export function playerName(e, n) {
  if (n === null || n === undefined) return t("bye");
  const p = e.players.find((x) => x.number === n);
  return p ? `${p.name}${paren(String(n))}` : String(n);
}

function resultOf(g) {
  return g.result || "";
}

export function standingsTable(s) {
  // the points have their own column: a "points" tiebreak would print 积分 twice
  const cols = (s.tiebreaks || []).filter((c) => c.name !== "points");
  const table = el("table", { class: "standings", "data-testid": "standings" });
  table.append(el("thead", {}, el("tr", {},
    // a team has a name, no rank and no club (Go §27.2, Gomoku §18.3(2))
    el("th", {}, t("place")), el("th", {}, "#"), el("th", {}, s.teams ? t("team") : t("name")),
    s.teams ? null : el("th", {}, t("rank")), s.teams ? null : el("th", {}, t("club")),
    el("th", {}, s.teams ? t("teams.match") : t("points")),
    cols.map((c) => el("th", { title: tiebreakHelp(c) }, tiebreakLabel(c))))));
  const body = el("tbody");
  // a shared place is marked as on the desk (3=), one settled by lot with * (Go §27.1(1)C)
  const places = {};
  for (const r of s.standings || []) places[r.place] = (places[r.place] || 0) + 1;
  for (const r of s.standings || []) {
    body.append(el("tr", {},
      el("td", {}, `${r.place}${places[r.place] > 1 ? "=" : ""}${r.by_lot ? "*" : ""}`), el("td", {}, String(r.number)), el("td", { class: "name" }, r.name),
      s.teams ? null : el("td", { class: "name" }, rank(r.rank)), s.teams ? null : el("td", { class: "name" }, r.club || ""),
      el("td", { class: "num" }, score(r.points)),
      cols.map((c) => el("td", { class: "num" }, score((r.tiebreaks || {})[c.name] ?? "")))));
  }
  table.append(body);
  return table;
}

export function crosstableTable(x) {
  const table = el("table", { class: "crosstable", "data-testid": "crosstable" });
  const rounds = [];
  for (let r = 1; r <= x.rounds; r++) rounds.push(r);
  table.append(el("thead", {}, el("tr", {}, el("th", {}, "#"), el("th", {}, t("name")),
    rounds.map((r) => el("th", {}, String(r))))));
  const body = el("tbody");
  for (const p of x.players) {
    body.append(el("tr", {}, el("td", {}, String(p.number)), el("td", { class: "name" }, p.name),
      rounds.map((r) => el("td", { class: "name" }, (p.rounds[String(r)] || []).map(crossCell).join(" ")))));
  }
  table.append(body);
  return table;
}

export function roundTable(e, round, games, opts = {}) {
  if (opts.reasons && !Object.keys(opts.reasons).length) opts = { ...opts, reasons: null };
  const table = el("table", { class: "pairings", "data-testid": `round-${round.round}` });
  table.append(el("thead", {}, el("tr", {}, el("th", {}, t("board")), el("th", {}, t("black")),
    el("th", {}, t("white")), el("th", {}, opts.enter ? t("resultAndWarnings") : t("result")), opts.enter ? el("th", {}, t("record")) : null,
    opts.reasons ? el("th", {}, t("reason")) : null,
    el("th", {}, ""))));
  const body = el("tbody");
  for (const gm of round.games) {
    const online = games.find((x) => x.round === round.round && x.board === gm.board);
    const cells = [];
    if (opts.enter) {
      const sel = el("select", { "aria-label": `${t("result")} ${gm.board}`, "data-testid": `result-${round.round}-${gm.board}` },
        el("option", { value: "" }, "—"), resultsOf(e.game).map((r) => el("option", { value: r, selected: resultOf(gm) === r }, r)));
      const warn = (color) => el("input", {
        type: "number", min: "0", max: "2", value: String((gm.warnings || {})[color] || 0), class: "warn",
        "aria-label": `${t(color)} ${t("warnings")}`, title: `${t(color)} ${t("warnings")}`,
        "data-testid": `warn-${color}-${round.round}-${gm.board}`,
      });
      const bw = warn("black");
      const ww = warn("white");
      cells.push(el("td", { class: "enter" }, sel,
        el("label", { class: "warn-label" }, `⚠ ${t("black")}`, bw), el("label", { class: "warn-label" }, `⚠ ${t("white")}`, ww), el("button", {
        type: "button", "data-testid": `enter-${round.round}-${gm.board}`,
        onclick: () => opts.enter(round.round, gm.board, sel.value || null, Number(bw.value) || 0, Number(ww.value) || 0),
      }, t("enter"))));
    } else {
      // a drawn knockout game decided by lot: the draw, and who goes through by lot
      const lot = gm.lot ? ` · ${t("ko.lotBoard", { who: playerName(e, gm.lot.winner === "black" ? gm.black : gm.white) })}` : "";
      cells.push(el("td", { class: "result", "data-testid": `shown-result-${round.round}-${gm.board}` }, `${resultText(resultOf(gm))}${lot}`));
    }
    const reason = opts.reasons ? (opts.reasons[gm.board] || "") : null;
    if (opts.enter && (gm.conflict || (gm.trail && gm.trail.length))) {
      cells.push(el("td", { class: "record" }, gm.conflict ? conflictBox(round.round, gm, opts) : null, gm.trail && gm.trail.length ? trailBox(round.round, gm) : null));
    } else if (opts.enter) {
      cells.push(el("td", { class: "record" }));
    }
    const linkCell = el("td", {});
    if (online) {
      linkCell.append(el("a", { href: `#/game/${online.id}?event=${opts.eventId}` }, t("watch")));
      if (opts.arbiter) linkCell.append(" ", el("a", { href: `#/game/${online.id}?event=${opts.eventId}&arbiter=${encodeURIComponent(opts.arbiter)}` }, t("arbiterView")));
    }
    body.append(el("tr", {}, el("td", {}, String(gm.board)), el("td", {}, playerName(e, gm.black)),
      el("td", {}, playerName(e, gm.white)), cells, reason !== null ? el("td", { class: "reason" }, reason) : null, linkCell));
  }
  for (const b of round.byes || []) {
    body.append(el("tr", {}, el("td", {}, "—"), el("td", { colspan: "2" }, `${playerName(e, b.player ?? b)} ${t("bye")}`)));
  }
  table.append(body);
  return table;
}

/** The public event page; it follows the event by itself (results as they are entered). */
export function eventPage(main, id) {
  main.replaceChildren(el("p", {}, t("loading")));
  let shown = null;
  let stopped = false;
  async function draw() {
    try {
      const ev = await api("GET", `/api/events/${id}`);
      if (stopped || (shown !== null && ev.version === shown)) return;
      setBook(ev.event.game); // the articles of the event's own book
      const [st, x] = await Promise.all([api("GET", `/api/events/${id}/standings`), api("GET", `/api/events/${id}/crosstable`)]);
      if (stopped) return;
      shown = ev.version;
      const e = ev.event;
      const page = el("div", { class: "event-page", "data-testid": "event-page", "data-version": String(ev.version) });
      page.append(el("h1", {}, e.name), el("p", { class: "meta" }, `${t(e.game)} · ${systemText(e.system)} · ${roundsText(ev.current_round, e.rounds)} · ${t("home.updated")}`));
      page.append(el("p", { class: "no-print" },
        el("button", { type: "button", onclick: () => window.print() }, t("print")), " ",
        el("a", { href: `/api/events/${id}/standings.html?lang=${getLang()}` }, t("wallchart"))));
      // the rounds the standings count: a round still being played counts for nobody yet
      const done = st.played_rounds ?? 0;
      page.append(el("h2", { "data-testid": "standings-title" }, done ? t("desk.st.after", { n: String(done) }) : t("desk.st.none")));
      if (ev.current_round > done) page.append(el("p", { class: "note" }, t("desk.st.pending", { n: String(done + 1) })));
      page.append(standingsTable(st));
      page.append(el("h2", {}, t("crosstable")), crosstableTable(x));
      page.append(el("h2", {}, t("pairings")));
      for (const r of [...e.history].reverse()) {
        page.append(el("h3", {}, roundTitle(r.round)), roundTable(e, r, ev.games, { eventId: id }));
      }
      main.replaceChildren(page);
    } catch (err) {
      if (shown === null && err instanceof Problem && (err.status === 404 || err.status === 422)) {
        // no such event: say so (never "Loading…" for ever) and stop asking
        stopped = true;
        clearInterval(timer);
        main.replaceChildren(el("div", { class: "event-page", "data-testid": "event-missing" },
          el("h1", {}, t("event.noneTitle")), el("p", { role: "alert" }, t("event.none", { id }))));
        document.title = `duiyi · ${t("event.noneTitle")}`;
        return;
      }
      if (shown === null) showError(err);
    }
  }
  const timer = setInterval(draw, 8000);
  draw();
  return () => { stopped = true; clearInterval(timer); };
}

export function sheetText(sheet) {
  if (!sheet) return "—";
  const parts = [sheet.result ? resultText(sheet.result) : "—"];
  const w = sheet.warnings || {};
  if (w.black || w.white || sheet.black_warnings || sheet.white_warnings) {
    parts.push(`⚠ ${w.black ?? sheet.black_warnings ?? 0}/${w.white ?? sheet.white_warnings ?? 0}`);
  }
  return parts.join(" ");
}

export function when(at) {
  if (!at) return "";
  try { return new Date(at * 1000).toLocaleString(); } catch (_e) { return String(at); }
}

// a result that disagreed with the one entered: the director picks one
export function conflictBox(round, gm, opts) {
  const c = gm.conflict;
  return el("div", { class: "conflict", "data-testid": `conflict-${round}-${gm.board}`, role: "group", "aria-label": t("conflict") },
    el("p", {}, el("strong", {}, `${t("conflict")}${colon()}`),
      t("conflictText", { entered: gm.result ? resultText(gm.result) : "—", other: sheetText(c.sheet), source: t(`src.${c.source}`) || c.source, by: c.by || "" })),
    c.reason ? el("p", { class: "note" }, c.reason) : null,
    el("div", { class: "actions" },
      el("button", { type: "button", "data-testid": `accept-conflict-${round}-${gm.board}`, onclick: () => opts.resolve(round, gm.board, true) },
        t("conflictAccept", { v: sheetText(c.sheet) })),
      el("button", { type: "button", "data-testid": `keep-conflict-${round}-${gm.board}`, onclick: () => opts.resolve(round, gm.board, false) },
        t("conflictKeep", { v: gm.result ? resultText(gm.result) : "—" }))),
    opts.forceAsk && opts.forceAsk.round === round && opts.forceAsk.board === gm.board
      ? el("div", { class: "confirm", role: "alertdialog", "aria-labelledby": `force-q-${round}-${gm.board}`, "data-testid": "force-confirm" },
        el("p", { id: `force-q-${round}-${gm.board}` }, `${opts.forceAsk.text} ${t("forceQ")}`),
        el("div", { class: "actions" },
          el("button", { type: "button", class: "danger", "data-testid": "force-yes", onclick: () => opts.resolve(round, gm.board, opts.forceAsk.accept, true) }, t("forceYes")),
          el("button", { type: "button", onclick: () => opts.cancelForce() }, t("cancel"))))
      : null);
}

// every change of the board's result: who, when, from what to what
/** Who made an entry of the audit trail in the page's words: the organiser, an online game
 * ("game ID" → 对局 ID), else as recorded. */
export function byText(by) {
  const who = String(by || "");
  const game = /^game (\S+)$/.exec(who);
  if (game) return t("by.game", { id: game[1] });
  const key = `by.${who}`;
  return t(key) === key ? who : t(key);
}

export function trailBox(round, gm) {
  return el("details", { class: "trail", "data-testid": `trail-${round}-${gm.board}` },
    el("summary", {}, `${t("auditTrail")}${paren(gm.trail.length)}`),
    el("ol", {}, gm.trail.map((a) => el("li", {},
      `${when(a.at)} · ${t(`src.${a.source}`)} · ${byText(a.by)}${colon()}${sheetText(a.previous)} → ${sheetText(a.value)}${a.note ? ` — ${a.note}` : ""}`))));
}

// the round's pairings on one sheet, for the wall (print)
export function pairingSheet(e, round) {
  // on the desk or the event page: the printed 对阵表 with clubs and points (prints.js)
  const at = /^#\/(?:desk|event)\/([^/?]+)/.exec(location.hash);
  if (at) { printPairings(decodeURIComponent(at[1]), round.round); return; }
  const main = document.getElementById("main");
  const table = el("table", { class: "pairings print-sheet", "data-testid": "pairing-sheet" },
    el("thead", {}, el("tr", {}, el("th", {}, t("board")), el("th", {}, `● ${t("black")}`), el("th", {}, `○ ${t("white")}`), el("th", {}, t("result")))),
    el("tbody", {}, round.games.map((g) => el("tr", {}, el("td", { class: "num" }, String(g.board)),
      el("td", {}, playerName(e, g.black)), el("td", {}, playerName(e, g.white)), el("td", {}, g.result || "")))));
  const byes = (round.byes || []).map((b) => playerName(e, b.player ?? b));
  const back = el("p", { class: "no-print" }, el("button", { type: "button", onclick: () => window.print() }, t("print")), " ",
    el("a", { href: location.hash }, "↩"));
  main.replaceChildren(back, el("h1", {}, `${e.name} · ${roundTitle(round.round)}`), table,
    byes.length ? el("p", {}, `${t("bye")}: ${byes.join(", ")}`) : null);
}

export function roundTitle(n) {
  return t("round", { n });
}

/** A one-line description of game settings (the desk's summary). */
export function describe(o) {
  const parts = [];
  if (o.size) parts.push(`${o.size}×${o.size}`);
  if (typeof o.rules === "string") parts.push(t(`rules.${o.rules}`));
  if (o.handicap) parts.push(`${t("handicap")} ${o.handicap}`);
  const tc = o.time_control;
  // the clock's main time in minutes (包干制 30分钟), when the system has one
  const base = tc && typeof tc.base === "number" && tc.base > 0 ? ` ${t("ts.minutes", { n: String(Math.round((tc.base / 60) * 100) / 100) })}` : "";
  parts.push(tc ? `${t(`ts.${tc.system}`)}${base}` : t("ts.none"));
  if (o.lateness) parts.push(t("late"));
  if (o.foul_policy) parts.push(t(`fouls.${o.foul_policy === "auto" ? "auto" : "claim"}`));
  if (o.hints !== undefined) parts.push(t(o.hints ? "hints.on" : "hints.off"));
  return parts.join(" · ");
}

export function tableCards(e, round) {
  const main = document.getElementById("main");
  const cards = el("div", { class: "cards", "data-testid": "table-cards" });
  // a board forfeited by a withdrawal has nobody to sit at it: no card (issue 20)
  const gone = new Set((e.withdrawals || []).filter((w) => w.after_round >= round.round).map((w) => w.player ?? w.number));
  for (const g of round.games) {
    if ((gone.has(g.black) || gone.has(g.white)) && String(g.result || "").startsWith("forfeit")) continue;
    cards.append(el("div", { class: "card" },
      el("p", { class: "card-head" }, `${e.name} · ${roundTitle(round.round)} · ${t("board")} ${g.board}`),
      el("p", { class: "card-black" }, `● ${t("black")}${colon()}${playerName(e, g.black)}`),
      el("p", { class: "card-white" }, `○ ${t("white")}${colon()}${playerName(e, g.white)}`),
      el("p", { class: "card-result" }, `${t("result")}${colon()}________   ${t("black")} ☐  ${t("white")} ☐`)));
  }
  const back = el("p", { class: "no-print" }, el("button", { type: "button", onclick: () => window.print() }, t("print")), " ",
    el("a", { href: location.hash }, "↩"));
  main.replaceChildren(back, cards);
}

export function newEventPage(main) {
  const name = el("input", { name: "name", required: true, "data-testid": "event-name", value: t("newEvent.name") });
  const game = el("select", { name: "game", "data-testid": "event-game" }, games().map((g) => el("option", { value: g.name }, t(g.name))));
  const system = el("select", { name: "system", "data-testid": "event-system" },
    SYSTEMS.map((s) => el("option", { value: s }, t(`sys.${s}`))));
  const rounds = el("input", { type: "number", min: "1", max: "99", value: "5", name: "rounds", "data-testid": "event-rounds" });
  const online = gameSettings(() => game.value, { prefix: "ev", legend: "event.online", tc: "chinese-byoyomi", fouls: true });
  game.addEventListener("change", online.update);
  const options = eventOptions(() => system.value); // 团体, knockout lines, same club
  system.addEventListener("change", options.update);
  // a game's standings may come in variants (Go §27.1(2): a Swiss places by total score (A) or
  // by points then opponents' points (B))
  const variant = el("select", { name: "variant", "data-testid": "event-variant" },
    el("option", { value: "A" }, t("desk.variantA")), el("option", { value: "B" }, t("desk.variantB")));
  const variantLabel = el("label", {}, t("desk.variant"), variant);
  const showVariant = () => { variantLabel.hidden = !gameType(game.value).variant_systems.includes(system.value); };
  game.addEventListener("change", showVariant);
  system.addEventListener("change", showVariant);
  showVariant();
  const form = el("form", {
    class: "stack",
    onsubmit: async (ev) => {
      ev.preventDefault();
      try {
        const r = await api("POST", "/api/events", {
          body: { name: name.value, game: game.value, system: system.value, rounds: Number(rounds.value), online: online.value(),
            options: { ...options.value(), ...(variantLabel.hidden ? {} : { variant: variant.value }) } },
        });
        keepSecret("event", r.id, "key", r.organiser_token); // this tab's (keys.js)
        keepSecret("event", r.id, "arbiter", r.arbiter_token);
        main.replaceChildren(el("div", { class: "keys", "data-testid": "event-keys" },
          el("h2", {}, t("event.keys")),
          el("p", {}, `${t("organiserKey")}${colon()}`, el("code", {}, r.organiser_token)),
          el("p", {}, `${t("arbiterKey")}${colon()}`, el("code", {}, r.arbiter_token)),
          el("p", {}, el("a", { href: `#/desk/${r.id}?key=${r.organiser_token}&arbiter=${r.arbiter_token}`, "data-testid": "open-desk" }, t("desk")),
            " · ", el("a", { href: `#/event/${r.id}` }, t("public")))));
      } catch (err) { showError(err); }
    },
  },
  el("label", {}, t("event.name"), name), el("label", {}, t("game"), game), el("label", {}, t("event.system"), system),
  el("label", {}, t("event.rounds"), rounds), variantLabel, options.node, online.node,
  el("button", { type: "submit", "data-testid": "create-event" }, t("create")));
  main.replaceChildren(el("h1", {}, t("nav.newEvent")), form);
}
