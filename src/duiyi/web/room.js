// The arbiter's room: every board of an event's current online round on one screen (a tablet
// in the playing hall): clocks and byo-yomi, the spoken calls, what waits for the arbiter
// (players' calls, draw offers, counting, absent players, fallen flags) and the rulings made.
// A ruling is sent to the game (POST /api/games/{id}/rulings): the game ends or goes on by the
// rules, and the event enters a finished game's result itself.
import { api, el, showError, notice, newActionId } from "./api.js";
import { t } from "./i18n.js";

// The rulings offered here per game (one typed request each, POST /rulings): ``id`` the option,
// ``kind`` the request, the article it usually cites (``fixed``: the server derives it from the
// kind, the request names none), ``points`` the stones it names ("one" or "many"), ``lifted``
// a fixed flag of the request.
const KINDS = {
  go: [
    { id: "warn", label: "rk.warning", article: "Go §23.3" },
    { id: "void_move", label: "rk.void_move", article: "Go §19" },
    { id: "forfeit", label: "rk.forfeit", article: "Go §23.3" },
    { id: "restore_stones", label: "rk.stones_restored", article: "Go §18.1", fixed: true, points: "many" },
  ],
  gomoku: [
    { id: "violation", label: "rk.violation", article: "Gomoku §12.3(2)" },
    { id: "forfeit", label: "rk.forfeit", article: "Gomoku §12.3(2)" },
    { id: "replace_pushed", kind: "replace_stone", label: "rk.pushed", article: "Gomoku §6.1(5)", fixed: true, points: "one", lifted: false },
    { id: "replace_lifted", kind: "replace_stone", label: "rk.lifted", article: "Gomoku §6.1(6)", fixed: true, points: "one", lifted: true },
    { id: "accept_irregular", label: "rk.irregular_accepted", article: "Gomoku §6.1(5)" },
  ],
};

/** The typed ruling request of a ``spec`` of KINDS from the form's values. */
function typedRuling(spec, { color, article, points, note }) {
  const body = { kind: spec.kind || spec.id, color };
  if (!spec.fixed) body.article = article.trim();
  const named = points.split(/[\s,]+/).filter(Boolean);
  if (spec.points === "many") body.points = named;
  if (spec.points === "one") body.point = named.join("");
  if (spec.lifted !== undefined) body.lifted = spec.lifted;
  if (note.trim()) body.note = note.trim();
  return body;
}

function fmt(seconds) {
  const s = Math.max(0, Math.ceil(seconds - 1e-6));
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, "0")}`;
}

export function roomPage(main, id, params) {
  const key = params.get("arbiter") || localStorage.getItem(`duiyi.arb.${id}`) || "";
  if (params.get("arbiter")) localStorage.setItem(`duiyi.arb.${id}`, key);
  const room = { data: null, at: 0, calls: {}, sockets: {}, closed: false, drafts: {} };
  const page = el("div", { class: "room", "data-testid": "room" });
  main.replaceChildren(page);

  if (!key) {
    const k = el("input", { name: "arbiter", "aria-label": t("arbiterKey"), "data-testid": "room-key" });
    page.append(el("h1", {}, t("room")), el("p", {}, t("room.key")), el("form", {
      class: "inline",
      onsubmit: (ev) => { ev.preventDefault(); location.hash = `#/room/${id}?arbiter=${encodeURIComponent(k.value.trim())}`; },
    }, el("label", {}, t("arbiterKey"), " ", k), el("button", { type: "submit" }, t("send"))));
    return () => {};
  }

  function nameOf(b, seat) { return (b.names && b.names[seat]) || t(seat); }

  function clockText(b, seat) {
    const st = b.state;
    const c = st.clocks && st.clocks[seat];
    if (!c) return "—";
    if (c.flagged) return t("flagged");
    const sys = (st.time_control && st.time_control.system) || "none";
    if (sys === "none") return "—";
    let elapsed = 0;
    if (st.clock_running === seat && !st.paused && !st.outcome) elapsed = (performance.now() - b.at) / 1000;
    const base = c.base - elapsed;
    if (base > 0 || !c.periods) return fmt(base) + (c.periods ? ` + ${c.periods}×${Math.round(c.period_time)}s` : "");
    return `${t("byoyomi")} ${fmt(c.period_time + base)} (${c.periods} ${t("periods")})`;
  }

  // what waits for the arbiter on a board
  function pending(b) {
    const st = b.state;
    const out = [];
    for (const c of b.calls || []) {
      if (!c.open) continue;
      out.push(el("li", { "data-testid": `pending-call-${b.board}-${c.n}` },
        t("room.call", { who: nameOf(b, c.seat), about: t(`about.${c.about}`) }), c.text ? ` — “${c.text}”` : "", " ",
        el("button", {
          type: "button", class: "small", "data-testid": `close-call-${b.board}-${c.n}`,
          onclick: () => closeCall(b, c),
        }, t("room.close"))));
    }
    if (st.outcome) return out;
    if (st.draw_offer) out.push(el("li", {}, t("room.drawOffer", { who: nameOf(b, st.draw_offer) })));
    if (st.game === "go" && st.phase === "counting") out.push(el("li", {}, t("room.counting", { n: String((st.accepted || []).length) })));
    for (const seat of st.absent || []) out.push(el("li", {}, t("room.absent", { who: nameOf(b, seat) })));
    for (const seat of ["black", "white"]) {
      const c = st.clocks && st.clocks[seat];
      if (!c) continue;
      if (c.flagged) out.push(el("li", {}, t("room.flag", { who: nameOf(b, seat) })));
      else if (c.base <= 0 && c.periods) out.push(el("li", {}, t("room.byoyomi", { who: nameOf(b, seat) })));
    }
    return out;
  }

  function ruleForm(b) {
    const kinds = KINDS[b.state.game] || KINDS.go;
    const draft = room.drafts[b.id] || (room.drafts[b.id] = { method: kinds[0].id, color: "black", article: kinds[0].article, points: "", note: "" });
    const specOf = (v) => kinds.find((k) => k.id === v) || kinds[0];
    const method = el("select", { "data-testid": `rule-kind-${b.board}` }, kinds.map((k) => el("option", { value: k.id, selected: k.id === draft.method }, t(k.label))));
    const color = el("select", { "data-testid": `rule-who-${b.board}` }, ["black", "white"].map((c) => el("option", { value: c, selected: c === draft.color }, `${nameOf(b, c)} (${t(c)})`)));
    const article = el("input", { value: draft.article, "data-testid": `rule-article-${b.board}` });
    const points = el("input", { value: draft.points, "data-testid": `rule-points-${b.board}`, maxlength: "200", placeholder: "D4 D5" });
    const note = el("input", { value: draft.note, "data-testid": `rule-note-${b.board}`, maxlength: "200" });
    const pointsLabel = el("label", {}, t("room.points"), points);
    // the article of a kind the server names itself is shown, not sent; points only when asked
    const shape = () => {
      const spec = specOf(method.value);
      article.readOnly = !!spec.fixed;
      pointsLabel.hidden = !spec.points;
    };
    shape();
    method.addEventListener("change", () => {
      draft.method = method.value;
      draft.article = specOf(method.value).article;
      article.value = draft.article;
      shape();
    });
    color.addEventListener("change", () => { draft.color = color.value; });
    article.addEventListener("input", () => { draft.article = article.value; });
    points.addEventListener("input", () => { draft.points = points.value; });
    note.addEventListener("input", () => { draft.note = note.value; });
    return el("form", {
      class: "rule no-print",
      "aria-label": `${t("room.ruleOn")} ${b.board}`,
      onsubmit: async (ev) => {
        ev.preventDefault();
        const spec = specOf(method.value);
        const typed = typedRuling(spec, { color: color.value, article: article.value, points: points.value, note: note.value });
        const path = `/api/games/${encodeURIComponent(b.id)}/rulings`;
        // one id per ruling: the same ruling sent again after an error or a lost answer is
        // applied once; a changed ruling is a new one
        const sent = JSON.stringify(typed);
        if (draft.sentAs !== sent) { draft.actionId = newActionId(); draft.sentAs = sent; }
        try {
          const r = await api("POST", path, { body: { ...typed, action_id: draft.actionId }, token: key }); // a typed ruling (one schema per kind)
          const named = typed.points ? ` ${typed.points.join(" ")}` : typed.point ? ` ${typed.point}` : "";
          const text = `${t(spec.label)}${named} · ${nameOf(b, color.value)} · ${article.value.trim()}`;
          // the board's open calls are answered by this ruling
          for (const c of (b.calls || []).filter((x) => x.open)) {
            await api("POST", `/api/games/${encodeURIComponent(b.id)}/calls/${c.n}/close`, { body: { ruling: text }, token: key });
          }
          room.drafts[b.id] = null;
          notice(`${t("board")} ${b.board}: ${text}`, "ok");
          if (r.state) { b.state = r.state; b.at = performance.now(); }
          await load();
        } catch (err) { showError(err); }
      },
    },
    el("label", {}, t("room.kind"), method), el("label", {}, t("room.who"), color),
    el("label", {}, t("room.article"), article), pointsLabel, el("label", {}, t("room.note"), note),
    el("button", { type: "submit", "data-testid": `rule-${b.board}` }, t("room.rule")));
  }

  async function closeCall(b, c) {
    try {
      await api("POST", `/api/games/${encodeURIComponent(b.id)}/calls/${c.n}/close`, { body: { ruling: "" }, token: key });
      await load();
    } catch (err) { showError(err); }
  }

  function statusText(b) {
    const st = b.state;
    const o = st.outcome;
    if (o) {
      const who = o.winner ? `${nameOf(b, o.winner)} (${t(o.winner)})` : "";
      return `${t("result")}: ${who ? t("wins", { who, how: t(`term.${o.termination}`) }) : t(o.result === "draw" ? "draw" : `res.${o.result}`)} (${o.article || ""})`;
    }
    const moves = st.game === "go" ? st.moves.length : st.moves_list.length;
    return `${t(`phase.${st.phase}`)} · ${t("movesN", { n: String(moves) })}${st.paused ? ` · ${t("paused")}` : ""}`;
  }

  function boardCard(b) {
    const items = pending(b);
    const st = b.state;
    const card = el("section", {
      class: `room-board${items.length ? " alert" : ""}`, "data-testid": `room-board-${b.board}`, "data-game-id": b.id,
      "data-version": String(st.version), "aria-labelledby": `rb-${b.board}`,
    });
    card.append(el("h2", { id: `rb-${b.board}` }, `${t("board")} ${b.board}`, " · ",
      el("a", { href: `#/game/${b.id}?arbiter=${encodeURIComponent(key)}` }, t("room.open"))));
    for (const seat of ["black", "white"]) {
      const running = st.clock_running === seat && !st.outcome;
      card.append(el("div", { class: `seat-line${running ? " running" : ""}` },
        el("span", {}, el("span", { class: `dot ${seat}`, "aria-hidden": "true" }), " ", nameOf(b, seat),
          (st.referee && st.referee[seat] && (st.referee[seat].warnings || st.referee[seat].violations)) ? ` ⚠${st.referee[seat].warnings || st.referee[seat].violations}` : ""),
        el("span", { class: "clock", "data-clock": `${b.board}-${seat}` }, clockText(b, seat))));
    }
    card.append(el("p", { class: "status", "data-testid": `room-status-${b.board}` }, statusText(b)));
    const call = room.calls[b.id];
    if (call) card.append(el("p", { class: "call", "data-testid": `room-lastcall-${b.board}` }, `${t("room.lastCall")}: ${call.zh} · ${call.en}`));
    card.append(el("h3", {}, t("room.pending")),
      items.length ? el("ul", { class: "pending-list", "data-testid": `pending-${b.board}` }, items) : el("p", { class: "note" }, t("room.nothing")));
    card.append(el("h3", {}, t("room.rulings")));
    const rulings = b.rulings || [];
    card.append(rulings.length
      ? el("ul", { class: "rulings", "data-testid": `rulings-${b.board}` }, rulings.map((r) => el("li", {},
        `${t(`rk.${r.kind}`)} · ${r.color ? nameOf(b, r.color) : ""} · ${r.article}${r.note ? ` — ${r.note}` : ""}`)))
      : el("p", { class: "note" }, t("room.noRulings")));
    if (!st.outcome) card.append(ruleForm(b));
    return card;
  }

  function render() {
    const d = room.data;
    if (!d) return;
    const active = document.activeElement;
    const focusId = active && page.contains(active) ? active.dataset.testid : null;
    page.replaceChildren(
      el("h1", {}, `${t("room")} — ${d.event.name}`),
      el("p", { class: "lede" }, t("room.lede")),
      el("p", { class: "meta" }, d.round ? `${t("round", { n: d.round })} · ` : "",
        el("a", { href: `#/event/${id}` }, t("public")), " · ", el("a", { href: `#/desk/${id}` }, t("desk"))));
    if (!d.boards.length) page.append(el("p", {}, t("room.none")));
    page.append(el("div", { class: "room-boards" }, d.boards.map(boardCard)));
    if (focusId) {
      const again = page.querySelector(`[data-testid="${focusId}"]`);
      if (again) again.focus();
    }
  }

  function tick() {
    if (!room.data) return;
    for (const b of room.data.boards) {
      for (const seat of ["black", "white"]) {
        const c = page.querySelector(`[data-clock="${b.board}-${seat}"]`);
        if (c) c.textContent = clockText(b, seat);
      }
    }
  }

  // each board's spectator socket brings its moves and spoken calls at once
  function watch(b) {
    if (room.sockets[b.id] || room.closed) return;
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/api/games/${encodeURIComponent(b.id)}/socket?version=${b.state.version}`);
    room.sockets[b.id] = ws;
    ws.onmessage = (ev) => {
      let m;
      try { m = JSON.parse(ev.data); } catch (_e) { return; }
      const board = room.data && room.data.boards.find((x) => x.id === b.id);
      if (!board) return;
      if ((m.type === "update" || m.type === "resync") && m.state && m.state.version > board.state.version) {
        board.state = m.state;
        board.at = performance.now();
        render();
        if (m.state.outcome || (m.entry && m.entry.type === "ruling")) load();
      } else if (m.type === "call") {
        room.calls[b.id] = m;
        render();
      }
    };
    ws.onclose = () => { delete room.sockets[b.id]; };
  }

  async function load() {
    try {
      const d = await api("GET", `/api/events/${encodeURIComponent(id)}/room`, { token: key });
      const now = performance.now();
      for (const b of d.boards) b.at = now;
      room.data = d;
      render();
      for (const b of d.boards) watch(b);
    } catch (err) {
      showError(err);
      if (!room.data) page.replaceChildren(el("h1", {}, t("room")), el("p", {}, err.message || String(err)));
    }
  }

  page.append(el("p", {}, t("loading")));
  load();
  // the calls and claims of players arrive without a socket message: look again now and then
  const poll = setInterval(load, 4000);
  const clock = setInterval(tick, 250);
  return () => {
    room.closed = true;
    clearInterval(poll);
    clearInterval(clock);
    for (const ws of Object.values(room.sockets)) ws.close();
  };
}
