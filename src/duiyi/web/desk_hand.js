// Pairing by hand on the round tab (issue 20), as OpenGotha's "pairing by hand": before the
// round's games start, each board's Black and White and the bye are chosen from the round's
// players (swap two players, unpair and re-pair a board, move the bye); the server names what
// the automatic pairing would not have done (a rematch, colours unbalanced, a score-group
// jump, a second bye) and the director keeps the change or not.
import { api, el } from "./api.js";
import { t, colon } from "./i18n.js";
import { colours } from "./labels.js";
import { ROUND_PARTS } from "./desk_round.js";
import { playerName } from "./event.js";

function open(ctx, r) {
  return r.round === ctx.e.history.length && !r.games.some((g) => g.result || (g.trail && g.trail.length))
    && !ctx.ev.games.some((g) => g.round === r.round) && !(r.matches && r.matches.length);
}

function editor(ctx, r) {
  const { e, id } = ctx;
  const people = [...r.games.flatMap((g) => [g.black, g.white]), ...(r.byes || []).map((b) => b.player ?? b)];
  const choose = (value, label, testid) => el("select", { "aria-label": label, "data-testid": testid },
    el("option", { value: "" }, "—"), people.map((n) => el("option", { value: String(n), selected: n === value }, playerName(e, n))));
  const rows = r.games.map((g) => ({ board: g.board, black: choose(g.black, t("desk.hand.blackOf", { n: String(g.board) }), `hand-black-${g.board}`),
    white: choose(g.white, t("desk.hand.whiteOf", { n: String(g.board) }), `hand-white-${g.board}`) }));
  const byes = (r.byes || []).map((b, i) => choose(b.player ?? b, t("desk.hand.bye"), `hand-bye-${i + 1}`));
  const out = el("div", { "aria-live": "polite", "data-testid": "hand-warnings" });
  const body = () => ({
    games: rows.map((x) => [Number(x.black.value), Number(x.white.value)]),
    byes: byes.map((b) => Number(b.value)).filter(Boolean),
  });
  const save = () => ctx.change("PUT", `/api/events/${id}/rounds/${r.round}/pairings`, { body: body() }).then((res) => {
    if (res) ctx.state.hand = null;
    if (res) ctx.redraw();
  });
  const check = async () => {
    let res;
    try {
      res = await api("POST", `/api/events/${id}/rounds/${r.round}/pairings/check`, { token: ctx.key, body: body() });
    } catch (err) {
      out.replaceChildren(el("p", { class: "conflict", role: "alert" }, err.text || String(err)));
      return;
    }
    if (!res.warnings.length) { await save(); return; }
    out.replaceChildren(el("div", { class: "confirm", role: "alertdialog", "aria-labelledby": "hand-q" },
      el("p", { id: "hand-q" }, el("strong", {}, t("desk.hand.warn"))),
      el("ul", {}, res.warnings.map((w) => el("li", { "data-kind": w.kind }, `${t(`desk.hand.kind.${w.kind}`)}${colon()}${t(`desk.hand.msg.${w.kind}`, {
        board: String(w.board), a: playerName(e, w.players[0]), b: w.players.length > 1 ? playerName(e, w.players[1]) : "", detail: colours(w.detail || "") })}`))),
      el("div", { class: "actions" },
        el("button", { type: "button", class: "danger", "data-testid": "hand-save-anyway", onclick: save }, t("desk.hand.saveAnyway")),
        el("button", { type: "button", onclick: () => out.replaceChildren() }, t("desk.hand.keepEditing")))));
    const b = out.querySelector("button");
    if (b) b.focus();
  };
  const table = el("table", { class: "pairings hand", "data-testid": "hand-editor" },
    el("thead", {}, el("tr", {}, el("th", {}, t("board")), el("th", {}, t("black")), el("th", {}, t("white")))),
    el("tbody", {}, rows.map((x) => el("tr", {}, el("td", { class: "num" }, String(x.board)), el("td", {}, x.black), el("td", {}, x.white))),
      byes.map((b) => el("tr", {}, el("td", {}, "—"), el("td", { colspan: "2" }, el("label", {}, `${t("bye")}${colon()}`, b))))));
  return el("section", { class: "hand-box", "aria-label": t("desk.hand.title") }, el("h3", {}, t("desk.hand.title")),
    el("p", { class: "note" }, t("desk.hand.help")), el("div", { class: "table-wrap" }, table), out,
    el("p", { class: "actions" },
      el("button", { type: "button", "data-testid": "hand-save", onclick: check }, t("desk.hand.save")), " ",
      el("button", { type: "button", onclick: () => { ctx.state.hand = null; ctx.redraw(); } }, t("cancel"))));
}

ROUND_PARTS.push({
  visible: (ctx, r) => open(ctx, r),
  render: (ctx, r) => (ctx.state.hand === r.round ? editor(ctx, r) : el("p", { class: "no-print" }, el("button", {
    type: "button", "data-testid": "hand-open",
    onclick: () => { ctx.state.hand = r.round; ctx.redraw(); },
  }, t("desk.hand.open")))),
});
