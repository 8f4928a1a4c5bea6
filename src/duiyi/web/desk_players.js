// The desk's players tab: the list (edit and remove before a first pairing, withdraw after),
// one player by hand, a pasted list or table, the numbers drawn by lot before round 1.
import { el, notice, showError } from "./api.js";
import { t } from "./i18n.js";
import { isXml, parsePlayers } from "./players.js";
import { addTab } from "./desk_tabs.js";
import { rank } from "./labels.js";

function editRow(ctx, p) {
  const { id } = ctx;
  const f = {
    name: el("input", { value: p.name, required: true, "data-testid": `edit-name-${p.number}`, "aria-label": t("name") }),
    rank: el("input", { value: p.rank || "", size: "5", "aria-label": t("rank"), "data-testid": `edit-rank-${p.number}` }),
    rating: el("input", { value: p.rating ?? "", type: "number", step: "1", "aria-label": t("rating"), "data-testid": `edit-rating-${p.number}` }),
    club: el("input", { value: p.club || "", "aria-label": t("club"), "data-testid": `edit-club-${p.number}` }),
  };
  const done = () => { ctx.state.editing = null; };
  const save = async () => {
    const body = { name: f.name.value.trim(), rank: f.rank.value.trim(), club: f.club.value.trim(),
      rating: f.rating.value.trim() ? Math.round(Number(f.rating.value)) : null };
    done();
    await ctx.change("PATCH", `/api/events/${id}/players/${p.number}`, { body });
  };
  const onkey = (ev) => {
    if (ev.key === "Enter") { ev.preventDefault(); save(); }
    if (ev.key === "Escape") { done(); ctx.redraw(); }
  };
  for (const x of Object.values(f)) x.addEventListener("keydown", onkey);
  return el("tr", { class: "editing" }, el("td", {}, String(p.number)), el("td", {}, f.name), el("td", {}, f.rank),
    el("td", {}, f.rating), el("td", {}, f.club),
    el("td", {}, el("button", { type: "button", class: "small", "data-testid": `save-${p.number}`, onclick: save }, t("save")), " ",
      el("button", { type: "button", class: "small", onclick: () => { done(); ctx.redraw(); } }, t("cancel"))));
}

/** The numbers of the players paired in some round (a bye counts). */
export function pairedPlayers(e) {
  return new Set(e.history.flatMap((r) => [...r.games.flatMap((g) => [g.black, g.white]),
    ...(r.byes || []).map((b) => b.player ?? b)]));
}

/** Extra cells and actions of a player's row, from other parts of the desk (participation). */
export const ROW_PARTS = [];
/** What a late entry starts with (set by desk_participation.js). */
export const LATE = { note: null };

function playersTable(ctx) {
  const { e, id } = ctx;
  const withdrawn = new Set((e.withdrawals || []).map((w) => w.player ?? w.number));
  const paired = pairedPlayers(e);
  const parts = ROW_PARTS.filter((x) => x.visible(ctx));
  const table = el("table", { class: "players-table", "data-testid": "players" });
  table.append(el("thead", {}, el("tr", {}, el("th", {}, "#"), el("th", {}, t("name")), el("th", {}, t("rank")),
    el("th", {}, t("rating")), el("th", {}, t("club")), parts.flatMap((x) => x.head(ctx)),
    el("th", { class: "no-print" }, el("span", { class: "sr-only" }, t("actions"))))));
  const body = el("tbody");
  for (const p of e.players) {
    if (ctx.state.editing === p.number) { body.append(editRow(ctx, p)); continue; }
    const acts = el("td", { class: "no-print actions-cell" });
    if (withdrawn.has(p.number)) acts.append(t("withdrawn"));
    else if (!paired.has(p.number)) {
      acts.append(el("button", {
        type: "button", class: "small", "data-testid": `edit-${p.number}`, "aria-label": `${t("edit")} ${p.name}`,
        onclick: () => { ctx.state.editing = p.number; ctx.focusAfter(`edit-name-${p.number}`); ctx.redraw(); },
      }, t("edit")), " ",
      el("button", { type: "button", class: "small danger", "data-testid": `remove-${p.number}`, "aria-label": `${t("remove")} ${p.name}`,
        onclick: () => ctx.change("DELETE", `/api/events/${id}/players/${p.number}`) }, t("remove")));
    } else if (!ROW_PARTS.some((x) => x.withdraws)) {
      acts.append(el("button", {
        type: "button", class: "small", "data-testid": `withdraw-${p.number}`, "aria-label": `${t("withdraw")} ${p.name}`,
        onclick: () => ctx.change("POST", `/api/events/${id}/players/${p.number}/withdraw`),
      }, t("withdraw")));
    }
    for (const x of parts) if (x.action) { const a = x.action(ctx, p); if (a) acts.append(" ", a); }
    body.append(el("tr", { "data-player": String(p.number), class: withdrawn.has(p.number) ? "withdrawn" : null },
      el("td", {}, String(p.number)), el("td", {}, p.name), el("td", {}, rank(p.rank)),
      el("td", {}, p.rating ?? ""), el("td", {}, p.club || ""), parts.flatMap((x) => x.cell(ctx, p)), acts));
    for (const x of parts) if (x.below) { const b = x.below(ctx, p); if (b) body.append(b); }
  }
  table.append(body);
  return table;
}

function addForm(ctx) {
  const { id } = ctx;
  const one = { name: el("input", { name: "name", required: true, maxlength: "200", "data-testid": "add-name" }),
    rank: el("input", { name: "rank", size: "5", maxlength: "12", "data-testid": "add-rank", placeholder: rank("3d") }),
    rating: el("input", { name: "rating", type: "number", step: "1", "data-testid": "add-rating" }),
    club: el("input", { name: "club", maxlength: "200", "data-testid": "add-club" }) };
  return el("form", {
    class: "add-player no-print", "aria-label": t("addPlayer"),
    onsubmit: async (ev) => {
      ev.preventDefault();
      const p = { name: one.name.value.trim(), rank: one.rank.value.trim(), club: one.club.value.trim() };
      if (one.rating.value.trim()) p.rating = Math.round(Number(one.rating.value));
      ctx.focusAfter("add-name");
      if (await ctx.change("POST", `/api/events/${id}/players`, { body: [p] })) notice(t("playersAdded", { n: "1" }), "ok");
    },
  }, el("label", {}, t("name"), one.name), el("label", {}, t("rank"), one.rank), el("label", {}, t("rating"), one.rating),
  el("label", {}, t("club"), one.club), el("button", { type: "submit", "data-testid": "add-player" }, t("addPlayer")));
}

/** What the server read from an OpenGotha file and what it did not enter (kept in the desk's
 * state so that it stays on the page after the players tab is drawn again). */
function importReport(ctx) {
  const r = ctx.state.imported;
  if (!r) return null;
  const n = r.not_entered;
  const lines = [t("og.read", { players: String(r.read.players), rounds: String(r.read.rounds), games: String(r.read.games) }),
    t("og.entered", { n: String(r.entered) })];
  if (n.rounds || n.games) lines.push(t("og.notEntered", { rounds: String(n.rounds), games: String(n.games) }));
  if (n.teams) lines.push(t("og.teamsNotEntered", { n: String(n.teams) }));
  return el("div", { class: "note", "data-testid": "import-report", role: "status" },
    lines.map((x) => el("p", {}, x)),
    r.warnings.length ? el("details", {}, el("summary", {}, t("og.warnings", { n: String(r.warnings.length) })),
      el("ul", {}, r.warnings.map((w) => el("li", {}, w)))) : null);
}

function pasteForm(ctx) {
  const { id } = ctx;
  const csv = el("textarea", { id: "paste-players", rows: "5", cols: "40", "data-testid": "csv", placeholder: t("pastePlaceholder") });
  const preview = el("p", { class: "note", "data-testid": "paste-preview", "aria-live": "polite" });
  let xml = null; // an OpenGotha file, sent to the server's reader as it is
  const showPreview = () => {
    if (xml || isXml(csv.value)) { preview.textContent = t("og.preview"); return; }
    try {
      const list = csv.value.trim() ? parsePlayers(csv.value) : [];
      preview.textContent = list.length ? t("pastePreview", { n: String(list.length), names: list.slice(0, 4).map((p) => p.name).join(", ") }) : "";
    } catch (err) { preview.textContent = err.message; }
  };
  csv.addEventListener("input", () => { xml = null; showPreview(); });
  const file = el("input", { type: "file", class: "sr-only", accept: ".csv,.tsv,.txt,.xml,.h9,text/csv,text/plain,application/xml", "aria-label": t("pasteFile") });
  // the browser's own picker speaks the browser's language ("Choose File · No file chosen" on
  // a Chinese page, issue 32): the page's words instead, the input itself out of sight
  const chosen = el("span", { class: "note", "data-testid": "file-chosen" }, t("noFile"));
  const picker = el("label", { class: "file-pick", "data-testid": "file-pick" }, el("span", { class: "pick" }, t("pasteFile")), file, " ", chosen);
  file.addEventListener("change", async () => {
    const f = file.files[0];
    chosen.textContent = f ? f.name : t("noFile");
    if (!f) return;
    const text = await f.text();
    xml = isXml(text) ? f : null;
    csv.value = xml ? "" : text;
    showPreview();
  });
  return el("form", {
    class: "csv no-print",
    onsubmit: async (ev) => {
      ev.preventDefault();
      if (xml || isXml(csv.value)) {
        // the report is kept before the tab is drawn again (patch: then read from the server)
        const keep = (r) => { ctx.state.imported = r; return false; };
        const r = await ctx.change("POST", `/api/events/${id}/players/opengotha`, { xml: xml || csv.value, patch: keep });
        if (r) notice(t("playersAdded", { n: String(r.entered) }), "ok");
        return;
      }
      let list;
      try { list = parsePlayers(csv.value); } catch (err) { showError(err); return; }
      if (!list.length) return;
      ctx.state.imported = null;
      if (await ctx.change("POST", `/api/events/${id}/players`, { body: list })) notice(t("playersAdded", { n: String(list.length) }), "ok");
    },
  }, el("label", { for: "paste-players" }, t("pastePlayers")), el("br"), csv, preview, picker,
  el("button", { type: "submit", "data-testid": "import" }, t("import")), importReport(ctx));
}

/** Round 1's numbers by lot (appendix 五.2(1)) and lots for the last ties (Go §27.1(1)C). */
function lots(ctx) {
  const { e, id, desk } = ctx;
  const box = el("div", { class: "no-print lots" });
  const drawn = desk.numbers_drawn;
  const said = () => (drawn.teams
    ? t("desk.teamNumbersDrawn", { teams: String(drawn.teams), n: String(drawn.players), seed: String(drawn.seed) })
    : t("desk.numbersDrawn", { n: String(drawn.players), seed: String(drawn.seed) }));
  if (!e.history.length && e.players.length > 1) {
    box.append(el("p", { class: drawn ? "note" : "warn-box", "data-testid": "numbers-status", role: "status" },
      drawn ? said() : t("desk.numbersNotDrawn")));
    if (drawn && drawn.players < e.players.length) box.append(el("p", { class: "warn-box" }, t("desk.numbersLate", { n: String(e.players.length - drawn.players) })));
    box.append(el("button", {
      type: "button", "data-testid": "draw-numbers",
      onclick: async () => { const r = await ctx.change("POST", `/api/events/${id}/players/draw`, { body: {} }); if (r) notice(t("drawnNumbers", { seed: String(r.seed) }), "ok", 6000); },
    }, t("drawNumbers")));
  } else if (e.history.length) {
    box.append(el("p", { class: "note", "data-testid": "numbers-status" },
      drawn ? said() : t("desk.numbersNotDrawnPaired")));
  }
  if (e.players.length > 1) {
    box.append(" ", el("button", {
      type: "button", "data-testid": "draw-lots",
      onclick: async () => { const r = await ctx.change("POST", `/api/events/${id}/lots`, { body: {} }); if (r) notice(t("drawnLots", { seed: String(r.seed) }), "ok", 6000); },
    }, t("drawLots")));
  }
  return box;
}

addTab({
  id: "players",
  label: "desk.tab.players",
  order: 10,
  render: (ctx) => el("div", {}, el("h2", {}, t("players")), lots(ctx), el("div", { class: "table-wrap" }, playersTable(ctx)),
    el("h3", {}, t("addPlayer")), LATE.note ? LATE.note(ctx) : null, addForm(ctx), pasteForm(ctx)),
});
