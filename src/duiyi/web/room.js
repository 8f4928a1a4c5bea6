// The arbiter's room: every board of an event's current online round on one screen (a tablet
// in the playing hall): clocks and byo-yomi, the spoken calls, what waits for the arbiter
// (players' calls, draw offers, counting, absent players, fallen flags) and the rulings made.
// A ruling is sent to the game (POST /api/games/{id}/rulings): the game ends or goes on by the
// rules, and the event enters a finished game's result itself.
import { api, el, showError, notice } from "./api.js";
import { t, tOf, colon, paren, article } from "./i18n.js";
import { rulingForm, rulingLine, rulingTable, termination } from "./rulings.js";
import { takeSecrets } from "./keys.js";
import { closedText, seatName } from "./labels.js";

function fmt(seconds) {
  const s = Math.max(0, Math.ceil(seconds - 1e-6));
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, "0")}`;
}

export function roomPage(main, id, params) {
  // read once from the address, kept for this tab, and taken out of the address (keys.js)
  const key = takeSecrets("event", id, params, ["arbiter"]).arbiter || "";
  const room = { data: null, at: 0, calls: {}, sockets: {}, closed: false, drafts: {}, tables: {} };
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

  function nameOf(b, seat) { return (b.seats && seatName(b.seats[seat])) || t(seat); }

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
    if (base > 0 || !c.periods) return fmt(base) + (c.periods ? ` + ${c.periods}×${Math.round(c.period_time)}${t("rf.sec")}` : "");
    return `${t("byoyomi")} ${fmt(c.period_time + base)}${paren(`${c.periods} ${t("periods")}`)}`;
  }

  // what waits for the arbiter on a board
  function pending(b) {
    const st = b.state;
    const out = [];
    for (const c of b.calls || []) {
      if (!c.open) continue;
      out.push(el("li", { "data-testid": `pending-call-${b.board}-${c.n}` },
        t("room.call", { who: nameOf(b, c.seat), about: tOf(st.game, `about.${c.about}`) }), c.text ? ` — “${c.text}”` : "", " ",
        el("button", {
          type: "button", class: "small", "data-testid": `close-call-${b.board}-${c.n}`,
          onclick: () => closeCall(b, c),
        }, t("room.close"))));
    }
    if (st.outcome) return out;
    const seatOf = (colour) => (st.swapped ? (colour === "black" ? "white" : "black") : colour);
    if (st.draw_offer) out.push(el("li", {}, t("room.drawOffer", { who: nameOf(b, seatOf(st.draw_offer)) })));
    // Gomoku §10.3(4): how many draws each has offered (one may lead by two at most)
    const offers = st.draw_offers || {};
    if ((offers.black || 0) + (offers.white || 0) > 0) {
      out.push(el("li", { "data-testid": `offers-${b.board}` }, t("room.offers", {
        black: nameOf(b, seatOf("black")), b: String(offers.black || 0),
        white: nameOf(b, seatOf("white")), w: String(offers.white || 0),
      })));
    }
    if (st.phase === "counting") out.push(el("li", {}, t("room.counting", { n: String((st.accepted || []).length) })));
    for (const seat of st.absent || []) out.push(el("li", {}, t("room.absent", { who: nameOf(b, seat) })));
    for (const seat of ["black", "white"]) {
      const c = st.clocks && st.clocks[seat];
      if (!c) continue;
      if (c.flagged) out.push(el("li", {}, t("room.flag", { who: nameOf(b, seat) })));
      else if (c.base <= 0 && c.periods) out.push(el("li", {}, t("room.byoyomi", { who: nameOf(b, seat) })));
    }
    return out;
  }

  // the ruling form of a board, built from its game's ruling table (the rulebook's Book)
  function ruleForm(b) {
    const game = b.state.game;
    if (!room.tables[game]) {
      room.tables[game] = "loading";
      rulingTable(b.id, game).then((table) => { room.tables[game] = table; render(); })
        .catch((err) => { room.tables[game] = null; showError(err); });
    }
    const table = Array.isArray(room.tables[game]) ? room.tables[game] : null;
    const draft = room.drafts[b.id] || (room.drafts[b.id] = {});
    return rulingForm({
      game, table, draft, calls: b.calls || [], made: b.rulings || [], suffix: `-${b.board}`,
      position: b.state, // points are clicked on a small board of the game
      label: `${t("room.ruleOn")} ${b.board}`,
      nameOf: (seat) => nameOf(b, seat),
      rerender: render,
      send: async (body, words) => {
        try {
          const r = await api("POST", `/api/games/${encodeURIComponent(b.id)}/rulings`, { body, token: key });
          notice(`${t("board")} ${b.board}${colon()}${words}`, "ok");
          if (r.state && r.state.version >= b.state.version) { b.state = r.state; b.at = performance.now(); }
          b.rulings = [...(b.rulings || []), ...(r.rulings || [])];
          render();
          load();
          return true;
        } catch (err) { showError(err); return false; }
      },
    });
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
      const who = o.winner ? `${nameOf(b, o.winner)}${paren(t(o.winner))}` : "";
      return `${t("result")}${colon()}${who ? t("wins", { who, how: termination(st.game, o.termination) }) : t(o.result === "draw" ? "draw" : `res.${o.result}`)}${o.article ? paren(article(o.article)) : ""}`;
    }
    // the director entered the result at the desk: the game is closed, not "playing"
    if (st.closed !== undefined && st.closed !== null) return closedText(st.closed);
    const moves = st.move_count;
    return `${t(`phase.${st.phase}`, { n: String(st.fifth_n || 1) })} · ${t(moves === 1 ? "moves1" : "movesN", { n: String(moves) })}${st.paused ? ` · ${t("paused")}` : ""}`;
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
    if (call) card.append(el("p", { class: "call", "data-testid": `room-lastcall-${b.board}` }, `${t("room.lastCall")}${colon()}${call.zh} · ${call.en}`));
    card.append(el("h3", {}, t("room.pending")),
      items.length ? el("ul", { class: "pending-list", "data-testid": `pending-${b.board}` }, items) : el("p", { class: "note" }, t("room.nothing")));
    card.append(el("h3", {}, t("room.rulings")));
    const rulings = b.rulings || [];
    card.append(rulings.length
      ? el("ol", { class: "rulings", "data-testid": `rulings-${b.board}` }, rulings.map((r) => el("li", {},
        rulingLine(r, (seat) => nameOf(b, seat)))))
      : el("p", { class: "note" }, t("room.noRulings")));
    if (!st.outcome && (st.closed === undefined || st.closed === null)) card.append(ruleForm(b));
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
    const ws = new WebSocket(`${proto}://${location.host}/api/games/${encodeURIComponent(b.id)}/socket?version=${b.state.version}`, ["duiyi"]);
    room.sockets[b.id] = ws;
    ws.onmessage = (ev) => {
      let m;
      try { m = JSON.parse(ev.data); } catch (_e) { return; }
      const board = room.data && room.data.boards.find((x) => x.id === b.id);
      if (!board) return;
      // the hello brings what happened between the room's read and the socket's opening
      if ((m.type === "update" || m.type === "resync" || m.type === "hello") && m.state && m.state.version > board.state.version) {
        board.state = m.state;
        board.at = performance.now();
        render();
        if (m.state.outcome || (m.actions || []).some((e) => e.type === "ruling")) load();
      } else if (m.type === "calls" && Array.isArray(m.calls)) {
        // a player's call, or its answer, at once (no polling)
        board.calls = m.calls;
        board.callsSeq = (board.callsSeq || 0) + 1;
        render();
      } else if (m.type === "call") {
        room.calls[b.id] = m;
        render();
      } else if (m.type === "closed-by-director") {
        board.state = { ...board.state, closed: m.reason || "" };
        render();
      }
    };
    ws.onclose = () => { delete room.sockets[b.id]; };
  }

  async function load() {
    // an answer overtaken by a later read is dropped (it would take back a ruling just shown)
    const asked = (room.asked = (room.asked || 0) + 1);
    const seen = new Map((room.data ? room.data.boards : []).map((b) => [b.id, b.callsSeq || 0]));
    try {
      const d = await api("GET", `/api/events/${encodeURIComponent(id)}/room`, { token: key });
      if (asked !== room.asked) return;
      const now = performance.now();
      const shown = new Map((room.data ? room.data.boards : []).map((b) => [b.id, b]));
      for (const b of d.boards) {
        b.at = now;
        // a board's socket may have brought a newer position, or calls, while this was on its way
        const was = shown.get(b.id);
        if (!was) continue;
        if (was.state.version > b.state.version) { b.state = was.state; b.at = was.at; }
        if ((was.callsSeq || 0) !== seen.get(b.id)) b.calls = was.calls;
        b.callsSeq = was.callsSeq;
      }
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
  // calls, moves and rulings arrive on each board's socket; a new round's boards are looked
  // for now and then
  const poll = setInterval(load, 30000);
  const clock = setInterval(tick, 250);
  return () => {
    room.closed = true;
    clearInterval(poll);
    clearInterval(clock);
    for (const ws of Object.values(room.sockets)) ws.close();
  };
}
