// The public event page (pairings, results, standings, crosstable; printable as wall charts)
// and the tournament desk (organiser key).
import { api, el, showError, notice, clearNotice, copyButton, link } from "./api.js";
import { parsePlayers } from "./players.js";
import { t } from "./i18n.js";
import { gameSettings } from "./settings.js";

// every competition system of duiyi.tournament.systems (the server refuses what needs options)
export const SYSTEMS = ["swiss", "mcmahon", "round-robin", "double-round-robin", "swiss-elimination", "knockout",
  "double-elimination", "groups", "match", "relay"];

const RESULTS = ["1-0", "0-1", "draw", "forfeit-black", "forfeit-white", "double-forfeit", "both-lose", "no-result"];

function playerName(e, n) {
  if (n === null || n === undefined) return t("bye");
  const p = e.players.find((x) => x.number === n);
  return p ? `${p.name} (${n})` : String(n);
}

function resultOf(g) {
  return g.result || "";
}

export function standingsTable(s) {
  const cols = s.tiebreaks || [];
  const table = el("table", { class: "standings", "data-testid": "standings" });
  table.append(el("thead", {}, el("tr", {},
    el("th", {}, t("place")), el("th", {}, "#"), el("th", {}, t("name")), el("th", {}, t("rank")),
    el("th", {}, t("club")), el("th", {}, t("points")),
    cols.map((c) => el("th", { title: c.article }, c.label)))));
  const body = el("tbody");
  for (const r of s.standings || []) {
    body.append(el("tr", {},
      el("td", {}, String(r.place)), el("td", {}, String(r.number)), el("td", {}, r.name),
      el("td", {}, r.rank || ""), el("td", {}, r.club || ""), el("td", { class: "num" }, String(r.points)),
      cols.map((c) => el("td", { class: "num" }, String((r.tiebreaks || {})[c.name] ?? "")))));
  }
  table.append(body);
  return table;
}

function crosstableTable(x) {
  const table = el("table", { class: "crosstable", "data-testid": "crosstable" });
  const rounds = [];
  for (let r = 1; r <= x.rounds; r++) rounds.push(r);
  table.append(el("thead", {}, el("tr", {}, el("th", {}, "#"), el("th", {}, t("name")),
    rounds.map((r) => el("th", {}, String(r))))));
  const body = el("tbody");
  for (const p of x.players) {
    body.append(el("tr", {}, el("td", {}, String(p.number)), el("td", {}, p.name),
      rounds.map((r) => el("td", {}, (p.rounds[String(r)] || []).join(" ")))));
  }
  table.append(body);
  return table;
}

function roundTable(e, round, games, opts = {}) {
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
        el("option", { value: "" }, "—"), RESULTS.map((r) => el("option", { value: r, selected: resultOf(gm) === r }, r)));
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
      cells.push(el("td", { class: "result", "data-testid": `shown-result-${round.round}-${gm.board}` }, resultOf(gm)));
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
      const [st, x] = await Promise.all([api("GET", `/api/events/${id}/standings`), api("GET", `/api/events/${id}/crosstable`)]);
      if (stopped) return;
      shown = ev.version;
      const e = ev.event;
      const page = el("div", { class: "event-page", "data-testid": "event-page", "data-version": String(ev.version) });
      page.append(el("h1", {}, e.name), el("p", { class: "meta" }, `${t(e.game)} · ${e.system} · ${ev.current_round}/${e.rounds} · ${t("home.updated")}`));
      page.append(el("p", { class: "no-print" },
        el("button", { type: "button", onclick: () => window.print() }, t("print")), " ",
        el("a", { href: `/api/events/${id}/standings.html` }, t("wallchart"))));
      page.append(el("h2", {}, t("standings")), standingsTable(st));
      page.append(el("h2", {}, t("crosstable")), crosstableTable(x));
      page.append(el("h2", {}, t("pairings")));
      for (const r of [...e.history].reverse()) {
        page.append(el("h3", {}, roundTitle(r.round)), roundTable(e, r, ev.games, { eventId: id }));
      }
      main.replaceChildren(page);
    } catch (err) {
      if (shown === null) showError(err);
    }
  }
  draw();
  const timer = setInterval(draw, 8000);
  return () => { stopped = true; clearInterval(timer); };
}

function sheetText(sheet) {
  if (!sheet) return "—";
  const parts = [sheet.result || "—"];
  const w = sheet.warnings || {};
  if (w.black || w.white || sheet.black_warnings || sheet.white_warnings) {
    parts.push(`⚠ ${w.black ?? sheet.black_warnings ?? 0}/${w.white ?? sheet.white_warnings ?? 0}`);
  }
  return parts.join(" ");
}

function when(at) {
  if (!at) return "";
  try { return new Date(at * 1000).toLocaleString(); } catch (_e) { return String(at); }
}

// a result that disagreed with the one entered: the director picks one
function conflictBox(round, gm, opts) {
  const c = gm.conflict;
  return el("div", { class: "conflict", "data-testid": `conflict-${round}-${gm.board}`, role: "group", "aria-label": t("conflict") },
    el("p", {}, el("strong", {}, `${t("conflict")}: `),
      t("conflictText", { entered: gm.result || "—", other: sheetText(c.sheet), source: t(`src.${c.source}`) || c.source, by: c.by || "" })),
    c.reason ? el("p", { class: "note" }, c.reason) : null,
    el("div", { class: "actions" },
      el("button", { type: "button", "data-testid": `accept-conflict-${round}-${gm.board}`, onclick: () => opts.resolve(round, gm.board, true) },
        t("conflictAccept", { v: sheetText(c.sheet) })),
      el("button", { type: "button", "data-testid": `keep-conflict-${round}-${gm.board}`, onclick: () => opts.resolve(round, gm.board, false) },
        t("conflictKeep", { v: gm.result || "—" }))),
    opts.forceAsk && opts.forceAsk.round === round && opts.forceAsk.board === gm.board
      ? el("div", { class: "confirm", role: "alertdialog", "aria-labelledby": `force-q-${round}-${gm.board}`, "data-testid": "force-confirm" },
        el("p", { id: `force-q-${round}-${gm.board}` }, `${opts.forceAsk.text} ${t("forceQ")}`),
        el("div", { class: "actions" },
          el("button", { type: "button", class: "danger", "data-testid": "force-yes", onclick: () => opts.resolve(round, gm.board, opts.forceAsk.accept, true) }, t("forceYes")),
          el("button", { type: "button", onclick: () => opts.cancelForce() }, t("cancel"))))
      : null);
}

// every change of the board's result: who, when, from what to what
function trailBox(round, gm) {
  return el("details", { class: "trail", "data-testid": `trail-${round}-${gm.board}` },
    el("summary", {}, `${t("auditTrail")} (${gm.trail.length})`),
    el("ol", {}, gm.trail.map((a) => el("li", {},
      `${when(a.at)} · ${t(`src.${a.source}`)} · ${a.by || ""}: ${sheetText(a.previous)} → ${sheetText(a.value)}${a.note ? ` — ${a.note}` : ""}`))));
}

// the round's pairings on one sheet, for the wall (print)
function pairingSheet(e, round) {
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

function roundTitle(n) {
  return t("round", { n });
}

export async function deskPage(main, id, params) {
  const key = params.get("key") || localStorage.getItem(`duiyi.org.${id}`) || "";
  const arbiter = params.get("arbiter") || localStorage.getItem(`duiyi.arb.${id}`) || "";
  if (key) localStorage.setItem(`duiyi.org.${id}`, key);
  if (arbiter) localStorage.setItem(`duiyi.arb.${id}`, arbiter);
  const state = { reasons: JSON.parse(localStorage.getItem(`duiyi.reasons.${id}`) || "{}"), links: null };

  function focusAfter(testid) { state.focus = testid; }
  function refocus() {
    if (!state.focus) return;
    const f = main.querySelector(`[data-testid="${state.focus}"]`);
    state.focus = null;
    if (f) f.focus();
  }

  // a player entered by mistake is corrected in place (before their first pairing)
  function editRow(p) {
    const f = {
      name: el("input", { value: p.name, required: true, "data-testid": `edit-name-${p.number}`, "aria-label": t("name") }),
      rank: el("input", { value: p.rank || "", size: "5", "aria-label": t("rank"), "data-testid": `edit-rank-${p.number}` }),
      rating: el("input", { value: p.rating ?? "", type: "number", step: "1", "aria-label": t("rating"), "data-testid": `edit-rating-${p.number}` }),
      club: el("input", { value: p.club || "", "aria-label": t("club"), "data-testid": `edit-club-${p.number}` }),
    };
    const formId = `edit-form-${p.number}`;
    const save = async () => {
      const body = { name: f.name.value.trim(), rank: f.rank.value.trim(), club: f.club.value.trim(),
        rating: f.rating.value.trim() ? Math.round(Number(f.rating.value)) : null };
      state.editing = null;
      await change("PATCH", `/api/events/${id}/players/${p.number}`, { body });
    };
    const onkey = (ev) => {
      if (ev.key === "Enter") { ev.preventDefault(); save(); }
      if (ev.key === "Escape") { state.editing = null; draw(); }
    };
    for (const x of Object.values(f)) x.addEventListener("keydown", onkey);
    return el("tr", { id: formId, class: "editing" }, el("td", {}, String(p.number)), el("td", {}, f.name), el("td", {}, f.rank),
      el("td", {}, f.rating), el("td", {}, f.club),
      el("td", {}, el("button", { type: "button", class: "small", "data-testid": `save-${p.number}`, onclick: save }, t("save")), " ",
        el("button", { type: "button", class: "small", onclick: () => { state.editing = null; draw(); } }, t("cancel"))));
  }

  async function change(method, path, opts = {}) {
    try {
      const r = await api(method, path, { token: key, ...opts });
      clearNotice("error");
      await draw();
      refocus();
      return r;
    } catch (err) {
      showError(err);
      return null;
    }
  }

  async function draw() {
    let ev; let st;
    try {
      [ev, st] = await Promise.all([api("GET", `/api/events/${id}`), api("GET", `/api/events/${id}/standings`)]);
    } catch (err) { showError(err); return; }
    const e = ev.event;
    const page = el("div", { class: "desk", "data-testid": "desk" });
    page.append(el("h1", {}, `${e.name} — ${t("desk")}`),
      el("p", { class: "meta" }, `${t(e.game)} · ${e.system} · ${ev.current_round}/${e.rounds} · `,
        el("a", { href: `#/event/${id}` }, t("public")), " · ",
        el("a", { href: `#/room/${id}${arbiter ? `?arbiter=${encodeURIComponent(arbiter)}` : ""}`, "data-testid": "room-link" }, t("room"))));
    if (!key) {
      const k = el("input", { name: "key", "aria-label": t("organiserKey"), "data-testid": "desk-key" });
      const a = el("input", { name: "arbiter", "aria-label": t("arbiterKey") });
      page.append(el("form", {
        class: "stack",
        onsubmit: (ev2) => {
          ev2.preventDefault();
          location.hash = `#/desk/${id}?key=${encodeURIComponent(k.value.trim())}&arbiter=${encodeURIComponent(a.value.trim())}`;
        },
      }, el("label", {}, t("organiserKey"), k), el("label", {}, t("arbiterKey"), a),
      el("button", { type: "submit" }, t("send"))));
    }

    // what waits for the director: boards whose results disagree (each links to its board)
    const waiting = e.history.flatMap((r) => r.games.filter((g) => g.conflict).map((g) => [r.round, g.board]));
    if (waiting.length) {
      page.append(el("div", { class: "conflict no-print", "data-testid": "conflicts", role: "status" },
        el("strong", {}, `${t("conflict")}: `),
        waiting.flatMap(([r, b], i) => [i ? ", " : "", el("a", { href: `#conflict-${r}-${b}`, onclick: (ev2) => {
          ev2.preventDefault();
          const box = main.querySelector(`[data-testid="conflict-${r}-${b}"]`);
          if (box) { box.scrollIntoView({ block: "center" }); const btn = box.querySelector("button"); if (btn) btn.focus(); }
        } }, `${roundTitle(r)} · ${t("board")} ${b}`)])));
    }
    const jump = (target) => (ev2) => { ev2.preventDefault(); const h = main.querySelector(`#${target}`); if (h) { h.scrollIntoView(); h.focus(); } };
    page.append(el("nav", { class: "desk-nav no-print", "aria-label": t("desk") },
      el("a", { href: "#desk-players", onclick: jump("desk-players") }, t("players")),
      el("a", { href: "#desk-rounds", onclick: jump("desk-rounds") }, t("pairings")),
      el("a", { href: "#desk-standings", onclick: jump("desk-standings") }, t("standings"))));
    page.append(el("p", { class: "no-print" }, el("a", { href: `/api/events/${id}/standings.html`, "data-testid": "wallchart" }, t("wallchart")),
      " · ", el("a", { href: `#/event/${id}` }, `${t("standings")} (${t("print")})`)));

    // players
    const withdrawn = new Set((e.withdrawals || []).map((w) => w.player ?? w.number));
    const players = el("table", { class: "players-table", "data-testid": "players" });
    players.append(el("thead", {}, el("tr", {}, el("th", {}, "#"), el("th", {}, t("name")), el("th", {}, t("rank")),
      el("th", {}, t("rating")), el("th", {}, t("club")), el("th", { class: "no-print" }, el("span", { class: "sr-only" }, t("actions"))))));
    const tb = el("tbody");
    const paired = new Set(e.history.flatMap((r) => [...r.games.flatMap((g) => [g.black, g.white]),
      ...(r.byes || []).map((b) => b.player ?? b)]));
    for (const p of e.players) {
      if (state.editing === p.number) { tb.append(editRow(p)); continue; }
      const acts = el("td", { class: "no-print" });
      if (withdrawn.has(p.number)) acts.append(t("withdrawn"));
      else if (key) {
        if (!paired.has(p.number)) {
          acts.append(el("button", { type: "button", class: "small", "data-testid": `edit-${p.number}`, onclick: () => { state.editing = p.number; focusAfter(`edit-name-${p.number}`); draw().then(refocus); } }, t("edit")), " ",
            el("button", { type: "button", class: "small danger", "data-testid": `remove-${p.number}`, "aria-label": `${t("remove")} ${p.name}`,
              onclick: () => change("DELETE", `/api/events/${id}/players/${p.number}`) }, t("remove")));
        } else {
          acts.append(el("button", {
            type: "button", class: "small", "data-testid": `withdraw-${p.number}`,
            onclick: () => change("POST", `/api/events/${id}/players/${p.number}/withdraw`),
          }, t("withdraw")));
        }
      }
      tb.append(el("tr", {}, el("td", {}, String(p.number)), el("td", {}, p.name), el("td", {}, p.rank || ""),
        el("td", {}, p.rating ?? ""), el("td", {}, p.club || ""), acts));
    }
    players.append(tb);
    // one player by hand, or a pasted list of names / a table with the usual headers
    const one = { name: el("input", { name: "name", required: true, maxlength: "200", "data-testid": "add-name" }),
      rank: el("input", { name: "rank", size: "5", maxlength: "12", "data-testid": "add-rank", placeholder: "3d" }),
      rating: el("input", { name: "rating", type: "number", step: "1", "data-testid": "add-rating" }),
      club: el("input", { name: "club", maxlength: "200", "data-testid": "add-club" }) };
    const addForm = el("form", {
      class: "add-player no-print", "aria-label": t("addPlayer"),
      onsubmit: async (ev2) => {
        ev2.preventDefault();
        const p = { name: one.name.value.trim(), rank: one.rank.value.trim(), club: one.club.value.trim() };
        if (one.rating.value.trim()) p.rating = Math.round(Number(one.rating.value));
        if (await change("POST", `/api/events/${id}/players`, { body: [p] })) { notice(t("playersAdded", { n: "1" }), "ok"); focusAfter("add-name"); }
      },
    }, el("label", {}, t("name"), one.name), el("label", {}, t("rank"), one.rank), el("label", {}, t("rating"), one.rating),
    el("label", {}, t("club"), one.club), el("button", { type: "submit", "data-testid": "add-player" }, t("addPlayer")));
    const csv = el("textarea", { id: "paste-players", rows: "5", cols: "40", "data-testid": "csv", placeholder: t("pastePlaceholder") });
    const preview = el("p", { class: "note", "data-testid": "paste-preview", "aria-live": "polite" });
    const showPreview = () => {
      try {
        const list = csv.value.trim() ? parsePlayers(csv.value) : [];
        preview.textContent = list.length ? t("pastePreview", { n: String(list.length), names: list.slice(0, 4).map((p) => p.name).join(", ") }) : "";
      } catch (err) { preview.textContent = err.message; }
    };
    csv.addEventListener("input", showPreview);
    const file = el("input", { type: "file", accept: ".csv,.tsv,.txt,text/csv,text/plain", "aria-label": t("pasteFile") });
    file.addEventListener("change", async () => { if (file.files[0]) { csv.value = await file.files[0].text(); showPreview(); } });
    // appendix 五.2(1): round 1 numbers by lot; Go §27.1(1)C: lots settle the last ties
    const lots = el("p", { class: "no-print actions" },
      !e.history.length && e.players.length > 1 ? el("button", {
        type: "button", "data-testid": "draw-numbers",
        onclick: async () => { const r = await change("POST", `/api/events/${id}/players/draw`, { body: {} }); if (r) notice(t("drawnNumbers", { seed: String(r.seed) }), "ok", 6000); },
      }, t("drawNumbers")) : null,
      e.players.length > 1 ? el("button", {
        type: "button", "data-testid": "draw-lots",
        onclick: async () => { const r = await change("POST", `/api/events/${id}/lots`, { body: {} }); if (r) notice(t("drawnLots", { seed: String(r.seed) }), "ok", 6000); },
      }, t("drawLots")) : null);
    page.append(el("h2", { id: "desk-players", tabindex: "-1" }, t("players")), players, key ? lots : null, key ? addForm : null,
      el("form", {
        class: "csv no-print",
        onsubmit: async (ev2) => {
          ev2.preventDefault();
          let list;
          try { list = parsePlayers(csv.value); } catch (err) { showError(err); return; }
          if (!list.length) return;
          if (await change("POST", `/api/events/${id}/players`, { body: list })) notice(t("playersAdded", { n: String(list.length) }), "ok");
        },
      }, el("label", { for: "paste-players" }, t("pastePlayers")), el("br"), csv, preview, file,
      el("button", { type: "submit", "data-testid": "import" }, t("import"))));

    // the online games' settings (used by the next "start online games")
    if (key) page.append(onlineSettings(e, ev.online || {}));

    // rounds
    page.append(el("h2", { id: "desk-rounds", tabindex: "-1" }, t("pairings")),
      el("button", {
        type: "button", "data-testid": "pair",
        onclick: async () => {
          try {
            const r = await api("POST", `/api/events/${id}/rounds`, { token: key });
            state.reasons[r.round] = Object.fromEntries(r.pairings.map((p) => [p.board, p.reason]));
            localStorage.setItem(`duiyi.reasons.${id}`, JSON.stringify(state.reasons));
          } catch (err) { showError(err); }
          await draw();
        },
      }, t("pairNext")));
    if (state.links) {
      const box = el("div", { class: "links", "data-testid": "player-links" }, el("h3", {}, t("gameLinks")));
      for (const gl of state.links.games) {
        const b = link(`#/game/${gl.game_id}?token=${gl.black_token}`);
        const w = link(`#/game/${gl.game_id}?token=${gl.white_token}`);
        box.append(el("p", {}, `${t("board")} ${gl.board}: `,
          el("a", { href: b }, `${t("black")} ${playerName(e, gl.black)}`), copyButton(b, t("copyLink"), t("copied")), " · ",
          el("a", { href: w }, `${t("white")} ${playerName(e, gl.white)}`), copyButton(w, t("copyLink"), t("copied"))));
      }
      page.append(box);
    }
    for (const r of [...e.history].reverse()) {
      const hasOnline = ev.games.some((g) => g.round === r.round);
      page.append(el("h3", {}, roundTitle(r.round)),
        roundTable(e, r, ev.games, {
          eventId: id,
          reasons: state.reasons[r.round] || {},
          arbiter,
          enter: (round, board, result, bw, ww) => change("PUT", `/api/events/${id}/rounds/${round}/boards/${board}/result`,
            { body: { result, black_warnings: bw, white_warnings: ww } }),
          forceAsk: state.forceAsk,
          cancelForce: () => { state.forceAsk = null; draw(); },
          resolve: async (round, board, accept, force = false) => {
            const path = `/api/events/${id}/rounds/${round}/boards/${board}/conflict`;
            state.forceAsk = null;
            try {
              await api("POST", path, { token: key, body: force ? { accept, force: true } : { accept } });
              clearNotice("error");
            } catch (err) {
              // after the next round was paired, the director confirms in the page (or not)
              if (err.status === 409 && !force) state.forceAsk = { round, board, accept, text: err.text };
              else showError(err);
            }
            await draw();
            if (state.forceAsk) { const b = main.querySelector("[data-testid=force-yes]"); if (b) b.focus(); }
          },
        }),
        el("p", { class: "no-print" },
          hasOnline ? null : el("button", {
            type: "button", "data-testid": `start-${r.round}`,
            onclick: async () => { const res = await change("POST", `/api/events/${id}/rounds/${r.round}/games`); if (res) { state.links = res; await draw(); } },
          }, t("startGames")), " ",
          el("button", { type: "button", "data-testid": `cards-${r.round}`, onclick: () => tableCards(e, r) }, t("tableCards")), " ",
          el("button", { type: "button", "data-testid": `sheet-${r.round}`, onclick: () => pairingSheet(e, r) }, t("printPairings"))));
    }
    page.append(el("h2", { id: "desk-standings", tabindex: "-1" }, t("standings")), standingsTable(st));
    main.replaceChildren(page);
  }
  function onlineSettings(e, online) {
    const settings = gameSettings(() => e.game, { prefix: "desk", legend: "event.online" });
    settings.set(online);
    const form = el("form", {
      class: "stack",
      onsubmit: async (ev2) => {
        ev2.preventDefault();
        let body;
        try { body = { online: settings.value() }; } catch (err) { showError(err); return; }
        if (await change("PATCH", `/api/events/${id}`, { body })) showSaved();
      },
    }, settings.node, el("button", { type: "submit", "data-testid": "save-online" }, t("save")));
    return el("details", { class: "online-settings no-print", "data-testid": "online-settings" },
      el("summary", { "data-testid": "online-summary" }, `${t("event.online")}: ${describe(online)}`), form);
  }

  function showSaved() {
    const banner = document.getElementById("banner");
    banner.textContent = t("saved");
    banner.className = "warn";
    setTimeout(() => { if (banner.textContent === t("saved")) { banner.textContent = ""; banner.className = ""; } }, 3000);
  }

  await draw();
}

/** A one-line description of game settings (the desk's summary). */
function describe(o) {
  const parts = [];
  if (o.size) parts.push(`${o.size}×${o.size}`);
  if (typeof o.rules === "string") parts.push(t(`rules.${o.rules}`));
  if (o.handicap) parts.push(`${t("handicap")} ${o.handicap}`);
  const tc = o.time_control;
  parts.push(tc ? t(`ts.${tc.system}`) : t("ts.none"));
  if (o.lateness) parts.push(t("late"));
  return parts.join(" · ");
}

function tableCards(e, round) {
  const main = document.getElementById("main");
  const cards = el("div", { class: "cards", "data-testid": "table-cards" });
  for (const g of round.games) {
    cards.append(el("div", { class: "card" },
      el("p", { class: "card-head" }, `${e.name} · ${roundTitle(round.round)} · ${t("board")} ${g.board}`),
      el("p", { class: "card-black" }, `● ${t("black")}: ${playerName(e, g.black)}`),
      el("p", { class: "card-white" }, `○ ${t("white")}: ${playerName(e, g.white)}`),
      el("p", { class: "card-result" }, `${t("result")}: ________   ${t("black")} ☐  ${t("white")} ☐`)));
  }
  const back = el("p", { class: "no-print" }, el("button", { type: "button", onclick: () => window.print() }, t("print")), " ",
    el("a", { href: location.hash }, "↩"));
  main.replaceChildren(back, cards);
}

export function newEventPage(main) {
  const name = el("input", { name: "name", required: true, "data-testid": "event-name", value: "Club Swiss" });
  const game = el("select", { name: "game", "data-testid": "event-game" }, el("option", { value: "go" }, t("go")), el("option", { value: "gomoku" }, t("gomoku")));
  const system = el("select", { name: "system", "data-testid": "event-system" },
    SYSTEMS.map((s) => el("option", { value: s }, `${t(`sys.${s}`)} (${s})`)));
  const rounds = el("input", { type: "number", min: "1", max: "99", value: "5", name: "rounds", "data-testid": "event-rounds" });
  const online = gameSettings(() => game.value, { prefix: "ev", legend: "event.online", tc: "chinese-byoyomi" });
  game.addEventListener("change", online.update);
  const form = el("form", {
    class: "stack",
    onsubmit: async (ev) => {
      ev.preventDefault();
      try {
        const r = await api("POST", "/api/events", {
          body: { name: name.value, game: game.value, system: system.value, rounds: Number(rounds.value), online: online.value() },
        });
        localStorage.setItem(`duiyi.org.${r.id}`, r.organiser_token);
        localStorage.setItem(`duiyi.arb.${r.id}`, r.arbiter_token);
        main.replaceChildren(el("div", { class: "keys", "data-testid": "event-keys" },
          el("h2", {}, t("event.keys")),
          el("p", {}, `${t("organiserKey")}: `, el("code", {}, r.organiser_token)),
          el("p", {}, `${t("arbiterKey")}: `, el("code", {}, r.arbiter_token)),
          el("p", {}, el("a", { href: `#/desk/${r.id}?key=${r.organiser_token}&arbiter=${r.arbiter_token}`, "data-testid": "open-desk" }, t("desk")),
            " · ", el("a", { href: `#/event/${r.id}` }, t("public")))));
      } catch (err) { showError(err); }
    },
  },
  el("label", {}, t("event.name"), name), el("label", {}, t("game"), game), el("label", {}, t("event.system"), system),
  el("label", {}, t("event.rounds"), rounds), online.node,
  el("button", { type: "submit", "data-testid": "create-event" }, t("create")));
  main.replaceChildren(el("h1", {}, t("nav.newEvent")), form);
}
