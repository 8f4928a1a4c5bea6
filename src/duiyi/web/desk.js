// The director's desk (issue 20): one event, one tab at a time (players, the round, standings,
// export, settings; see desk_tabs.js for how a tab is added). The event is read first (an
// unknown id says so at once), then the organiser key (a wrong key says so before any control
// is shown). Every change goes through ctx.change, which redraws from the server afterwards,
// also after a refusal: what the desk shows is always what the server keeps. A change whose
// answer carries all it changed (a board's result answers the board) is put in place by its
// caller's ``patch`` instead: the desk draws again without reading the whole event (issue 26).
import { api, el, showError, clearNotice } from "./api.js";
import { t, setBook, colon } from "./i18n.js";
import { TABS } from "./desk_tabs.js";
import { roundTitle } from "./event.js";
import { forgetSecret, takeSecrets } from "./keys.js";
import "./desk_players.js";
import { aboutLine } from "./desk_settings.js";
import "./desk_participation.js";
import "./desk_round.js";
import "./desk_hand.js";
import "./desk_standings.js";
import "./desk_export.js";
import "./desk_knockout.js";
import "./desk_teams.js";
import "./desk_prints.js";

const KEEP = new Map(); // per event: what the desk remembers between tabs (reasons, questions)

function keyForm(id, message) {
  const k = el("input", { name: "key", id: "desk-key-input", "data-testid": "desk-key", autocomplete: "off" });
  const a = el("input", { name: "arbiter", id: "desk-arbiter-input", autocomplete: "off" });
  return el("div", { class: "desk-key" },
    message ? el("p", { class: "conflict", role: "alert", "data-testid": "desk-key-problem" }, message) : null,
    el("form", {
      class: "stack",
      onsubmit: (ev) => {
        ev.preventDefault();
        location.hash = `#/desk/${id}?key=${encodeURIComponent(k.value.trim())}&arbiter=${encodeURIComponent(a.value.trim())}`;
      },
    }, el("label", { for: "desk-key-input" }, t("organiserKey")), k,
    el("label", { for: "desk-arbiter-input" }, t("arbiterKey")), a,
    el("button", { type: "submit" }, t("desk.open"))),
    el("p", {}, el("a", { href: `#/event/${id}` }, t("public"))));
}

/** The desk of event ``id``; ``tab`` from the address (``#/desk/ID/TAB``). Returns a stop. */
export function deskPage(main, id, params, tab) {
  let stopped = false;
  // the keys leave the address (and the browser's history) at once, kept for this tab (keys.js)
  const kept = takeSecrets("event", id, params, ["key", "arbiter"]);
  const key = kept.key || "";
  const arbiter = kept.arbiter || "";
  if (!KEEP.has(id)) KEEP.set(id, { reasons: JSON.parse(localStorage.getItem(`duiyi.reasons.${id}`) || "{}") });
  const state = KEEP.get(id);
  main.replaceChildren(el("p", { "data-testid": "desk-loading" }, t("loading")));

  const ctx = {
    id, key, arbiter, params, state, main,
    async change(method, path, opts = {}) {
      let answer = null;
      try {
        answer = await api(method, path, { token: key, ...opts });
        clearNotice("error");
      } catch (err) {
        if (opts.refused && opts.refused(err)) { /* the caller asks the director */ } else showError(err);
      }
      // where the answer opens another address (``opens``), that address draws the desk once
      const to = answer !== null && opts.opens ? opts.opens(answer) : null;
      if (to) ctx.go(...to);
      // else the answer put in place (patch says whether it could), or the event read again
      else await draw(answer !== null && ctx.ev && opts.patch ? opts.patch(answer) : false);
      return answer;
    },
    redraw: () => draw(),
    go(to, query = "") {
      const hash = `#/desk/${id}/${to}${query ? `?${query}` : ""}`;
      if (location.hash === hash) draw(); // the same address: no hashchange draws it
      else location.hash = hash;
    },
    focusAfter(testid) { state.focus = testid; },
  };

  /** Draw the desk: the event and the desk's reminders read from the server, or (``local``)
   * those already here, a change's answer put in place. */
  async function draw(local = false) {
    if (local) return show(ctx.ev, ctx.desk);
    state.explanations = new Map(); // the rounds' explanations are read again with the event
    let ev;
    try {
      ev = await api("GET", `/api/events/${id}`);
    } catch (err) {
      if (stopped) return;
      main.replaceChildren(el("div", { class: "desk", "data-testid": "desk-missing" },
        el("h1", {}, t("desk")),
        el("p", { class: "conflict", role: "alert" }, err.status === 404 ? t("desk.noEvent", { id }) : (err.text || String(err)))),
        el("p", {}, el("a", { href: "#/" }, t("nav.home"))));
      return;
    }
    let desk;
    try {
      if (!key) throw Object.assign(new Error(t("desk.keyNeeded")), { status: 401 });
      desk = await api("GET", `/api/events/${id}/desk`, { token: key });
    } catch (err) {
      if (stopped) return;
      if (err.status === 403) forgetSecret("event", id, "key");
      main.replaceChildren(el("div", { class: "desk", "data-testid": "desk-locked" },
        el("h1", {}, `${ev.event.name} — ${t("desk")}`),
        keyForm(id, err.status === 403 ? t("desk.wrongKey") : err.status === 401 ? t("desk.keyNeeded") : (err.text || String(err)))));
      return;
    }
    if (stopped) return;
    await show(ev, desk);
  }

  async function show(ev, desk) {
    ctx.ev = ev;
    ctx.e = ev.event;
    setBook(ctx.e.game); // every article the desk shows is from the event's own book
    ctx.desk = desk;
    const shown = TABS.filter((x) => x.visible(ctx));
    const defaultTab = ctx.e.players.length && ctx.e.history.length ? "round" : "players";
    const active = shown.find((x) => x.id === tab) || shown.find((x) => x.id === defaultTab) || shown[0];
    const page = el("div", { class: "desk", "data-testid": "desk", "data-tab": active.id, "data-version": String(ev.version) });
    page.append(header(ctx), el("nav", { class: "desk-tabs no-print", "aria-label": t("desk") },
      shown.map((x) => el("a", {
        href: `#/desk/${id}/${x.id}`, "data-testid": `tab-${x.id}`,
        "aria-current": x.id === active.id ? "page" : null, class: x.id === active.id ? "active" : null,
      }, t(x.label)))));
    let body;
    try {
      body = await active.render(ctx);
    } catch (err) {
      showError(err);
      body = el("p", {}, String(err.message || err));
    }
    if (stopped) return;
    page.append(el("section", { class: "desk-tab", "data-testid": `desk-${active.id}`, "aria-label": t(active.label) }, body));
    main.replaceChildren(page);
    if (state.focus) {
      const f = main.querySelector(`[data-testid="${state.focus}"]`);
      state.focus = null;
      if (f) f.focus();
    }
  }

  draw();
  return () => { stopped = true; };
}

/** The title, where the event stands, what waits for the director. */
function header(ctx) {
  const { e, ev, id, arbiter, desk } = ctx;
  const box = el("header", { class: "desk-head" },
    el("h1", {}, `${e.name} — ${t("desk")}`),
    el("p", { class: "meta" }, `${t(e.game)} · ${t(`sys.${e.system}`)} · `, aboutLine(e) ? `${aboutLine(e)} · ` : "",
      t(ev.current_round ? "desk.roundOf" : "desk.noRoundOf", { n: String(ev.current_round), of: String(e.rounds) }), " · ",
      desk.completed_rounds ? t("desk.completeThrough", { n: String(desk.completed_rounds) }) : t("desk.noneComplete"), " · ",
      el("a", { href: `#/event/${id}` }, t("public")), " · ",
      el("a", { href: `#/room/${id}${arbiter ? `?arbiter=${encodeURIComponent(arbiter)}` : ""}`, "data-testid": "room-link" }, t("room"))));
  // what waits for the director: boards whose results disagree (each opens its round)
  const waiting = e.history.flatMap((r) => r.games.filter((g) => g.conflict).map((g) => [r.round, g.board]));
  if (waiting.length) {
    box.append(el("div", { class: "conflict no-print", "data-testid": "conflicts", role: "status" },
      el("strong", {}, `${t("conflict")}${colon()}`),
      waiting.flatMap(([r, b], i) => [i ? ", " : "", el("a", { href: `#/desk/${id}/round?round=${r}` }, `${roundTitle(r)} · ${t("board")} ${b}`)])));
  }
  return box;
}
