// The game page: a player (token), the arbiter (arbiter key) or a spectator (nothing).
import { api, el, showError, notice, clearNotice, copyButton, link, newActionId, Problem } from "./api.js";
import { BoardView } from "./board.js";
import { getLang, t, tOf, colon, article, paren } from "./i18n.js";
import { closedText, resultText, scoreWords, seatName } from "./labels.js";
import { rulingForm, rulingLine, rulingTable, termination } from "./rulings.js";
import { myGames, remember } from "./mine.js";
import { gameType } from "./games.js";
import { takeSecrets } from "./keys.js";

const SEATS = ["black", "white"];
// answers that say "not now" rather than "no": a process restarting or failing over
const RETRY_STATUS = new Set([502, 503, 504]);
const RETRY_FOR_MS = 30000;
// a socket that takes this long to answer an action is not answering: send it again
const ACK_WITHIN_MS = 12000;

function fmt(seconds) {
  const s = Math.max(0, Math.ceil(seconds - 1e-6));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const r = s % 60;
  const mm = String(m).padStart(h ? 2 : 1, "0");
  return (h ? `${h}:` : "") + `${mm}:${String(r).padStart(2, "0")}`;
}

/** The stored preference ``key`` (a boolean), else ``dflt``. */
function pref(key, dflt) {
  const v = localStorage.getItem(`duiyi.${key}`);
  return v === null ? dflt : v === "1";
}

function setPref(key, on) { localStorage.setItem(`duiyi.${key}`, on ? "1" : "0"); }

/** A touch screen (no hover, coarse pointer): moves are confirmed by default there. */
function touchScreen() {
  try { return window.matchMedia("(hover: none) and (pointer: coarse)").matches; } catch (_e) { return false; }
}

let audio = null;
/** A short wooden click for a stone put on the board (Web Audio; silent without it). */
export function clack(page) {
  try {
    const C = window.AudioContext || window.webkitAudioContext;
    if (!C) return;
    audio = audio || new C();
    const o = audio.createOscillator();
    const gain = audio.createGain();
    o.type = "triangle";
    o.frequency.value = 740;
    const now = audio.currentTime;
    gain.gain.setValueAtTime(0.3, now);
    gain.gain.exponentialRampToValueAtTime(0.001, now + 0.08);
    o.connect(gain).connect(audio.destination);
    o.start(now);
    o.stop(now + 0.09);
    page.dataset.sounds = String(Number(page.dataset.sounds || 0) + 1);
  } catch (_e) { /* no sound: never an error */ }
}

/** Speak ``text`` in Chinese with the browser's speech synthesis, when it has any. */
export function speak(text) {
  try {
    const synth = window.speechSynthesis;
    if (!synth || typeof SpeechSynthesisUtterance === "undefined") return false;
    const u = new SpeechSynthesisUtterance(text);
    u.lang = "zh-CN";
    const voice = (synth.getVoices() || []).find((v) => (v.lang || "").toLowerCase().startsWith("zh"));
    if (voice) u.voice = voice;
    synth.speak(u);
    return true;
  } catch (_e) {
    return false;
  }
}

export function gamePage(main, id, params) {
  // read once from the address, kept for this tab, and taken out of the address (keys.js)
  const { token, arbiter: arbiterKey } = takeSecrets("game", id, params, ["token", "arbiter"]);
  const g = {
    state: null, analysis: null, callsSeq: 0, held: [], acked: 0, seat: null, viewMove: null, viewPos: null, picks: [],
    dispute: false, forbidden: false, sound: null, lastCall: null, openings: null,
    connected: false, closed: false, names: {}, resigning: false, focusNext: null,
    info: null, pending: null, calling: false, retrying: false, wake: null,
    rulings: [], rulingDraft: {}, rulingTable: undefined,
    confirmMoves: pref("confirm", touchScreen()), moveSound: pref("moveSound", true),
  };
  let ws = null;
  let backoff = 300;
  let refs = 0;
  const answers = new Map(); // ref of an action sent on the socket -> its promise's callbacks

  const boardBox = el("div", { class: "board-box" });
  const side = el("section", { class: "side", "aria-label": "game" });
  const page = el("div", { class: "game-page", "data-testid": "game-page", "data-game-id": id }, boardBox, side);
  main.replaceChildren(page);
  const board = new BoardView(boardBox, (p) => clickPoint(p), "board");
  const clockEls = {};
  side.append(el("p", { text: t("loading") }));

  // -- the socket ---------------------------------------------------------------------------
  function connect() {
    if (g.closed) return;
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const q = new URLSearchParams();
    q.set("version", String(g.state ? g.state.version : 0));
    // the secret travels as a subprotocol, never in the URL (URLs end up in logs)
    const protocols = ["duiyi"];
    if (token || arbiterKey) protocols.push(`bearer.${token || arbiterKey}`);
    ws = new WebSocket(`${proto}://${location.host}/api/games/${encodeURIComponent(id)}/socket?${q}`, protocols);
    ws.onmessage = (ev) => {
      let m;
      try { m = JSON.parse(ev.data); } catch (_e) { return; }
      if (m.type === "hello") {
        g.seat = m.seat;
        // "my games" on the home page: a seat opened here is remembered (created or joined)
        if (token && m.seat && !myGames().some((x) => x.id === id && x.seat === m.seat)) {
          remember({ id, game: m.state && m.state.game, seat: m.seat, token, created: false });
        }
        if (!g.state) g.rulings = [];
        if (!g.state || m.version > g.state.version) noteRulings(m.actions, !!g.state);
        setConnected(true);
        backoff = 300;
        setState(m.state, true);
        if (g.wake) { const wake = g.wake; g.wake = null; wake(); }
      } else if (m.type === "update" || m.type === "resync") {
        if (m.state && (!g.state || m.state.version > g.state.version)) noteRulings(m.actions, true);
        if (m.state) setState(m.state);
      } else if (m.type === "closed-by-director") {
        // the director entered the board's result: the game is over, the clocks stop
        if (g.state) { g.state = { ...g.state, closed: m.reason || "" }; render(); findReplay(); }
      } else if (m.type === "calls" && Array.isArray(m.calls)) {
        // a call, or the arbiter's answer, at once (no polling)
        g.callsSeq += 1;
        if (g.info) { g.info.calls = m.calls; render(); }
      } else if (m.type === "rematch" && m.rematch) {
        onRematch(m.rematch);
      } else if (m.type === "call") {
        onCall(m);
      } else if ((m.type === "ack" || m.type === "error") && answers.has(m.ref)) {
        const answer = answers.get(m.ref);
        answers.delete(m.ref);
        if (m.type === "ack") answer.resolve({ version: m.version });
        else answer.reject(new Problem(m.problem || {}, (m.problem && m.problem.status) || 0));
      } else if (m.type === "error") {
        const status = m.problem && m.problem.status;
        if (status === 404) notFound();
        // the server cannot reach its store, or is full: the socket closes (1013) and this
        // page connects again, with backoff, saying so
        else if (status === 503 || status === 429) notice(t("reconnecting"), "warn", 0);
        else showError(new Problem(m.problem || {}, 0));
      }
    };
    ws.onclose = (ev) => {
      unanswered(); // the actions sent on this socket go again, with their ids
      if (g.closed) return;
      if (ev.code === 4404) { notFound(); return; }
      setConnected(false);
      setTimeout(connect, backoff);
      backoff = Math.min(backoff * 2, 5000);
    };
  }

  function setConnected(on) {
    g.connected = on;
    page.dataset.connected = on ? "yes" : "no";
    if (!on) notice(t("reconnecting"), "warn", 0);
    else clearNotice("warn");
  }

  // a game id that does not exist: say so once, and stop trying
  function notFound() {
    g.closed = true;
    if (ws) ws.close();
    clearNotice();
    main.replaceChildren(el("div", { class: "not-found", "data-testid": "not-found" },
      el("h1", {}, t("notFound.title")),
      el("p", {}, t("notFound.text", { id })),
      el("p", {}, el("a", { href: "#/" }, t("notFound.home")))));
    document.title = `duiyi · ${t("notFound.title")}`;
  }

  function setState(state, force = false) {
    if (!state) return;
    if (g.state && state.version < g.state.version && !force) return;
    const first = !g.state;
    const changed = !g.state || state.version !== g.state.version;
    const before = g.state ? movesOf(g.state) : 0;
    g.state = state;
    g.stateAt = performance.now();
    if (first && g.sound === null) {
      // the spoken byo-yomi calls are the player's (Go §22.7): on by default at a seat only,
      // a spectator (a phone in the hall) turns them on
      const sys = (state.time_control && state.time_control.system) || "";
      g.sound = sys.startsWith("chinese") && !!g.seat;
    }
    if (changed) {
      g.picks = [];
      g.dispute = false;
      g.pending = null;
      if (!first) clearNotice("error");
      if (!first && movesOf(state) > before && g.moveSound) clack(page);
    }
    render();
    fetchAnalysis();
    if (changed && !first) fetchInfo();
    if (ended(state) && !g.replaySearch) { g.replaySearch = true; findReplay(); }
  }

  function movesOf(st) { return st.move_count; }

  // who sits at the board, the event and board, waiting for players, calls, a winning five
  async function fetchInfo() {
    try {
      const seq = g.callsSeq;
      const info = await api("GET", `/api/games/${encodeURIComponent(id)}/info`);
      // calls that came over the socket while this was on its way are newer than its own
      if (g.callsSeq !== seq && g.info) info.calls = g.info.calls;
      g.info = info;
    } catch (err) {
      if (err instanceof Problem && err.status === 404) { notFound(); return false; }
      return true;
    }
    if (g.info.event) g.event = g.info.event;
    if (g.info.waiting && token && !(g.seat && (g.info.ready || []).includes(g.seat))) {
      try {
        const r = await api("POST", `/api/games/${encodeURIComponent(id)}/ready`, { token });
        g.info.ready = r.ready;
        g.info.waiting = r.waiting;
      } catch (_e) { /* the socket's state says the rest */ }
    }
    if (g.state) render();
    return true;
  }

  async function fetchAnalysis() {
    const v = g.state.version;
    try {
      const a = await api("GET", `/api/games/${encodeURIComponent(id)}/analysis`);
      // two reads on their way at once may answer in either order: never go back to an older one
      if (a.version >= v && !(g.analysis && g.analysis.version > a.version)) {
        g.analysis = a;
        render();
        // the taps kept while the position waited for this, in the order they were made
        if (a.version === g.state.version) g.held.splice(0).forEach((p) => clickPoint(p));
      }
    } catch (err) {
      if (!(err instanceof Problem)) return;
      showError(err);
    }
  }

  function onCall(m) {
    g.lastCall = m;
    const box = side.querySelector("[data-testid=last-call]");
    if (box) box.textContent = `${m.zh} · ${m.en}`;
    if (g.sound && m.zh) speak(m.zh);
  }

  // a refusal the page words itself in its language (the server's text is English)
  const OWN_WORDS = [
    [/fifth-move candidates (\S+) and (\S+) make the same shape/, (m) => t("err.sameShape", { a: m[1], b: m[2] })],
  ];
  function localised(err) {
    if (!(err instanceof Problem)) return err;
    for (const [re, words] of OWN_WORDS) {
      const m = re.exec(err.message);
      if (m) return new Problem({ ...err.body, detail: words(m), article: null }, err.status);
    }
    return err;
  }

  // -- acting ---------------------------------------------------------------------------------
  // One user action, one action_id (made here, once): a retry after a network error, a 502-504,
  // a socket closed before it answered or the socket's reconnect (4409 after a failover) sends
  // the same id, so the server applies the action at most once. Actions leave one at a time,
  // in the order they were made.
  let outbox = Promise.resolve();
  function act(action) {
    const body = { ...action, action_id: newActionId() };
    const sent = outbox.then(() => send(body));
    outbox = sent.catch(() => {}); // a bug in one action never blocks the next
    return sent;
  }

  async function send(body) {
    const until = performance.now() + RETRY_FOR_MS;
    let wait = 250;
    for (;;) {
      try {
        const r = await post(body);
        clearNotice("error");
        if (g.retrying && g.connected) clearNotice("warn");
        g.retrying = false;
        if (r.state) setState(r.state);
        // the socket's ack names the version only: until its update arrives the page's position
        // is behind what was accepted, and nothing more is offered (a double-click plays once)
        else if (r.version && g.state && r.version > g.state.version) g.acked = r.version;
        return;
      } catch (err) {
        if (g.closed) return; // the page was left
        const again = !(err instanceof Problem) || RETRY_STATUS.has(err.status);
        if (!again || performance.now() + wait > until) {
          g.retrying = false;
          showError(localised(err));
          return;
        }
        g.retrying = true;
        notice(t("retrying"), "warn", 0);
        await retryAfter(wait);
        wait = Math.min(wait * 2, 4000);
      }
    }
  }

  // Over the open socket (``act`` with a ``ref``; its ``ack`` or ``error`` answers), else over
  // HTTP. Either way the body carries the action's id, so whichever copy arrives first counts.
  function post(body) {
    if (!ws || ws.readyState !== WebSocket.OPEN || !g.connected) {
      return api("POST", `/api/games/${encodeURIComponent(id)}/actions`, { body, token: token || arbiterKey });
    }
    return new Promise((resolve, reject) => {
      const ref = ++refs;
      const timer = setTimeout(() => {
        answers.delete(ref);
        reject(new Error("no answer from the socket"));
      }, ACK_WITHIN_MS);
      answers.set(ref, {
        resolve: (r) => { clearTimeout(timer); resolve(r); },
        reject: (e) => { clearTimeout(timer); reject(e); },
      });
      ws.send(JSON.stringify({ type: "act", ref, action: body }));
    });
  }

  // the socket closed: nothing sent on it will be answered (network errors: retried)
  function unanswered() {
    const pending = [...answers.values()];
    answers.clear();
    for (const answer of pending) answer.reject(new Error("connection closed"));
  }

  // wait ``ms``, or less: the socket's next hello (the server is back) wakes the retry at once
  function retryAfter(ms) {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      g.wake = () => { clearTimeout(timer); resolve(); };
    });
  }

  function mine() {
    if (g.acked && g.state && g.state.version < g.acked) return [];
    if (!g.seat || !g.analysis || g.analysis.version !== g.state.version || g.state.closed) return [];
    return g.analysis.allowed[g.seat] || [];
  }

  // true while the page shows a position whose analysis (what each seat may do) is on its way
  function analysisBehind() {
    return !!(g.seat && g.state && !g.state.closed && (!g.analysis || g.analysis.version < g.state.version));
  }

  function clickPoint(p) {
    if (!g.state || g.viewMove !== null) return;
    // taps in the moment between a new position and its analysis are kept and played after it
    if (analysisBehind()) { g.held.push(p); return; }
    const allowed = mine();
    const st = g.state;
    if (allowed.includes("open")) {
      if (g.picks.length >= 3) g.picks = [];
      g.picks.push(p);
      render();
    } else if (allowed.includes("propose_fifth") && st.fifth_n > 1) {
      const i = g.picks.indexOf(p);
      if (i >= 0) g.picks.splice(i, 1);
      else if (g.picks.length < st.fifth_n) g.picks.push(p);
      render();
    } else if (allowed.includes("choose_fifth")) {
      act({ type: "choose_fifth", point: p });
    } else if (st.phase === "counting" && allowed.includes("mark_dead")) {
      if (g.dispute) act({ type: "dispute", point: p });
      else act({ type: "mark_dead", points: [p] });
    } else if (allowed.includes("move")) {
      const stones = st.stones || {};
      if ((stones.black || []).includes(p) || (stones.white || []).includes(p)) {
        playMove(p); // the server names the rule (and the message clears itself)
      } else if (forbiddenFor(p) || g.confirmMoves) {
        // a second tap on the same point confirms; a forbidden point only by the button
        if (g.pending === p && !forbiddenFor(p)) { g.pending = null; playMove(p); return; }
        g.pending = p;
        g.focusNext = "confirm-move";
        render();
      } else {
        playMove(p);
      }
    }
  }

  // one move at a time: a double-click (or a second tap) while the first is on its way is not
  // sent again (it would come back "not your turn")
  function playMove(p) {
    if (g.moving) return;
    g.moving = true;
    act({ type: "move", move: p }).finally(() => { g.moving = false; });
  }

  /** The foul of a point forbidden to me now (Gomoku §2.19: Black only), or null. */
  function forbiddenFor(p) {
    const a = g.analysis && g.analysis.version === g.state.version ? g.analysis : null;
    if (!a || !a.forbidden || !g.seat) return null;
    if (seatColour(g.seat) !== "black") return null;
    return a.forbidden[p] || null;
  }

  function myColour() { return g.seat ? seatColour(g.seat) : null; }

  /** A player's name (the event's, or the one given for the seat), else the colour's word. */
  function hasName(seat) { return !!((g.info && g.info.seats && g.info.seats[seat]) || g.names[seat] || engineOpposite()); }

  function nameOf(seat) {
    const n = (g.info && g.info.seats && g.info.seats[seat]) || g.names[seat];
    if (n) return seatName(n);
    // against the computer: "You" and the engine's name, never "Black (Black)"
    const e = engineOpposite();
    if (e) return e.seat === seat ? e.name || t("engine") : t("you.name");
    return t(seat);
  }

  /** The engine of a casual game against the computer (its seat and name), or null. */
  function engineOpposite() {
    const e = g.analysis && g.analysis.engine;
    return e && !g.event ? e : null;
  }

  /** "Wang (White)"; a seat without a name is just its colour ("White", never "White (White)"). */
  function whoPlays(seat) {
    const colour = t(seatColour(seat));
    return hasName(seat) ? `${nameOf(seat)}${paren(colour)}` : colour;
  }

  // -- the view -------------------------------------------------------------------------------
  function gomokuNumbers(list, upto) {
    const numbers = {};
    list.slice(0, upto).forEach((p, i) => { if (p !== "pass") numbers[p] = i + 1; });
    return numbers;
  }

  function boardView() {
    const st = g.state;
    const a = g.analysis && g.analysis.version === st.version ? g.analysis : null;
    const kind = st.game;
    const type = gameType(kind);
    const size = st.size;
    const v = { kind, size, stones: st.stones, last: st.last_move };
    const total = st.move_count;
    if (g.viewMove !== null && g.viewMove < total) {
      if (type.captures) { // a past position is the server's (goTo); else the first moves' stones
        if (g.viewPos && g.viewPos.move === g.viewMove) {
          v.stones = g.viewPos.stones;
          v.last = g.viewPos.last_move;
        }
      } else {
        const stones = { black: [], white: [] };
        st.moves_list.slice(0, g.viewMove).forEach((p, i) => {
          if (p !== "pass") stones[i % 2 === 0 ? "black" : "white"].push(p);
        });
        v.stones = stones;
        v.numbers = gomokuNumbers(st.moves_list, g.viewMove);
        v.last = g.viewMove ? st.moves_list[g.viewMove - 1] : null;
      }
      return v;
    }
    v.five = g.info && g.info.five && g.info.five.length ? g.info.five : null;
    const me = myColour();
    if (me && mine().includes("move") && !ended(st)) {
      v.ghost = me;
      if (g.pending) v.pending = { point: g.pending, color: me, forbidden: !!forbiddenFor(g.pending) };
    }
    if (type.counting) {
      v.dead = new Set(st.dead || []);
      // the territory of the count shown beside the board (the proposal's while nothing is
      // marked), and a finished game keeps its final marking for review
      const shown = countShown(a);
      if (st.phase === "counting" && a && !st.dead.length) v.proposal = new Set(a.proposal || []);
      // against the computer: where the engine's dead stones and duiyi's proposal differ
      if (st.phase === "counting" && a && a.dead_views) {
        v.disagree = {};
        for (const p of a.dead_views.engine_only) v.disagree[p] = "engine";
        for (const p of a.dead_views.duiyi_only) v.disagree[p] = "duiyi";
      }
      if (shown && (st.phase === "counting" || st.outcome)) {
        v.territory = { black: shown.score.black_territory || [], white: shown.score.white_territory || [] };
        if (st.outcome && shown.score.dead && !v.dead.size) v.dead = new Set(shown.score.dead);
      }
    } else {
      v.numbers = gomokuNumbers(st.moves_list, st.moves_list.length);
      // Gomoku §2.10: the candidates are ringed while White chooses, not for the rest of the game
      v.candidates = st.phase === "choose_fifth" ? st.fifth_candidates : [];
      if (g.forbidden && a) v.forbidden = a.forbidden;
      const allowed = mine();
      if (allowed.includes("open")) {
        v.picks = g.picks.map((p, i) => ({ point: p, color: i === 1 ? "white" : "black", label: String(i + 1) }));
      } else {
        v.picks = g.picks.map((p) => ({ point: p, color: "black", label: "5" }));
      }
    }
    return v;
  }

  // the colour a seat plays: after the Renju swap (Gomoku §2.9) the Black seat plays White
  function seatColour(seat) {
    const st = g.state;
    if (st && st.stone_colours) return st.stone_colours[seat];
    return seat;
  }

  function clockText(seat) {
    const st = g.state;
    const c = st.clocks && st.clocks[seat];
    if (!c) return "";
    if (c.flagged) return t("flagged");
    const sys = (st.time_control && st.time_control.system) || "none";
    if (sys === "none") return "—";
    let elapsed = 0;
    if (st.clock_running === seat && !st.paused && !ended(st)) {
      elapsed = (performance.now() - g.stateAt) / 1000;
    }
    const base = c.base - elapsed;
    if (quotaClock(st)) return fmt(base); // the moves due are shown beside (movesDue)
    if (base > 0 || !c.periods) {
      const extra = c.periods ? ` + ${c.periods}×${Math.round(c.period_time)}${t("rf.sec")}` : "";
      return fmt(base) + extra;
    }
    // between two server updates a used-up period rolls over to the next one on display only
    const tc = st.time_control || {};
    const length = tc.period || (sys === "chinese-byoyomi" ? 60 : 0);
    let inPeriod = c.period_time + base;
    let left = c.periods;
    while (inPeriod <= 0 && left > 1 && length > 0) {
      inPeriod += length;
      left -= 1;
    }
    return `${t("byoyomi")} ${fmt(inPeriod)}${paren(`${left} ${t("periods")}`)}`;
  }

  // so many moves in a period (Go §12.5, Gomoku §8.2): the clock shows the period's time,
  // and the moves still due in it are said under the player's name
  function quotaClock(st) {
    const sys = st.time_control && st.time_control.system;
    return sys === "moves-per-period" || sys === "multi-period";
  }

  function tickClocks() {
    if (!g.state) return;
    for (const seat of SEATS) if (clockEls[seat]) clockEls[seat].textContent = clockText(seat);
  }

  /** The Go count the page shows: {score, proposal} — the proposal's count while no group is
   * marked (a proposal until accepted), else the count of the marking, a finished game's final
   * count for review. */
  function countShown(a) {
    const st = g.state;
    if (!gameType(st.game).counting) return null;
    if (st.phase === "counting" && a) {
      // once a side accepted, the count is of the marking it accepted (n/2), not "not accepted yet"
      if (!st.dead.length && !(st.accepted || []).length && a.proposal_score) return { score: a.proposal_score, proposal: true };
      if (a.score) return { score: a.score, proposal: false };
      return null;
    }
    if (st.outcome) {
      const s = st.outcome.score || (g.info && g.info.outcome && g.info.outcome.score) || (a && a.score);
      return s ? { score: s, proposal: false } : null;
    }
    return null;
  }

  /** A count's result in the page's language: 黑胜3/4子 in Chinese, B+1.5 in English. */
  // "Result: Li Wei (Black) wins by counting · B+1.5 (Go §9)"; the winner is a seat
  function outcomeText() {
    const st = g.state;
    const o = st.outcome;
    if (!o) return "";
    const how = o.termination ? termination(st.game, o.termination) : o.result;
    const parts = [];
    if (o.winner) parts.push(t("wins", { who: whoPlays(o.winner), how }));
    else if (o.result === "draw") parts.push(`${t("draw")} · ${how}`);
    else parts.push(`${t(`res.${o.result}`)} · ${how}`);
    const score = o.score || { sgf_result: st.sgf_result, result_zh: st.result_zh };
    const words = scoreWords(score);
    if (words && !(o.winner && !score.sgf_result && !score.result_zh)) parts.push(words);
    return `${t("result")}${colon()}${parts.join(" · ")}${o.article ? paren(article(o.article)) : ""}`;
  }

  function ended(st) {
    return Boolean(st.outcome) || (st.closed !== undefined && st.closed !== null);
  }

  // a drawn game of a knockout is replayed with colours reversed: the same link opens the replay
  async function findReplay(tries = 10) {
    if (g.replay || g.closed) return;
    if (!g.event) { if (tries > 1) setTimeout(() => findReplay(tries - 1), 1500); return; }
    const st = g.state;
    if (!st || !(st.closed || (st.outcome && !st.outcome.winner))) return;
    try {
      const ev = await api("GET", `/api/events/${encodeURIComponent(g.event.id)}`);
      const later = (ev.games || []).filter((x) => x.round === g.event.round && x.board === g.event.board && x.id !== id);
      const mineAt = (ev.games || []).findIndex((x) => x.id === id);
      const next = later.find((x) => (ev.games || []).findIndex((y) => y.id === x.id) > mineAt);
      if (next) { g.replay = next.id; render(); return; }
    } catch (_e) { /* try again */ }
    if (tries > 1) setTimeout(() => findReplay(tries - 1), 1500);
  }

  function phaseText() {
    const st = g.state;
    if (st.outcome) return outcomeText();
    if (st.closed !== undefined && st.closed !== null) return closedText(st.closed);
    const key = `phase.${st.phase}`;
    let s = t(key, { n: String(st.fifth_n || 1) });
    if (st.to_move) s += ` · ${t("toMove", { who: whoPlays(st.to_move) })}`;
    if (st.paused) s += ` · ${t("paused")}`;
    return s;
  }

  function button(label, testid, onclick, extra = {}) {
    return el("button", { type: "button", "data-testid": testid, onclick, ...extra }, label);
  }

  function render() {
    const st = g.state;
    if (!st) return;
    board.draw(boardView());
    const a = g.analysis && g.analysis.version === st.version ? g.analysis : null;
    const allowed = mine();
    page.dataset.version = String(st.version);
    const total = st.move_count;
    document.title = `duiyi · ${t(st.game)} · ${total} · ${phaseText()}`;
    page.dataset.phase = st.phase || "";
    // keep the keyboard focus and a half-typed move across re-renders
    const active = document.activeElement;
    const focusId = active && side.contains(active) ? active.dataset.testid : null;
    const typed = side.querySelector("[data-testid=move-input]");
    const typedValue = typed ? typed.value : "";
    side.replaceChildren();

    // players and clocks
    const players = el("div", { class: "players" });
    for (const seat of SEATS) {
      const colour = seatColour(seat);
      const running = st.clock_running === seat && !ended(st);
      const tags = [];
      // "(you)" unless the name already says it (against the computer: "You · Black")
      if (g.seat === seat && nameOf(seat) !== t("you.name")) tags.push(t("you"));
      if (a && a.engine && a.engine.seat === seat) tags.push(t("engine"));
      const clock = el("span", { class: "clock", "data-testid": `clock-${seat}` }, clockText(seat));
      clockEls[seat] = clock;
      const info = [];
      if (st.captures) info.push(`${t("captures")} ${st.captures[colour]}`);
      const due = quotaClock(st) && st.clocks && st.clocks[seat] && st.clocks[seat].periods;
      if (due) info.push(el("span", { "data-testid": `moves-due-${seat}` }, t("movesDue", { n: String(due) })));
      const ref = st.referee && st.referee[seat];
      if (ref && (ref.warnings || ref.violations)) info.push(`⚠ ${ref.warnings || ref.violations}`);
      if (st.accepted && st.accepted.includes(seat)) info.push(`✓ ${t("accepted")}`);
      const absent = (st.absent || []).includes(seat) && !ended(st);
      if (absent) info.unshift(el("span", { class: "absent", "data-testid": `absent-${seat}` }, t("absent")));
      players.append(el("div", { class: `player${running ? " running" : ""}${absent ? " is-absent" : ""}`, "data-testid": `player-${seat}`, "data-colour": colour },
        el("span", { class: `dot ${colour}`, "aria-hidden": "true" }),
        el("span", { class: "seat", "data-testid": `name-${seat}` }, nameOf(seat),
          hasName(seat) || colour !== seat ? el("span", { class: "colour", "data-testid": `colour-${seat}` }, ` · ${t(colour)}`) : null,
          tags.length ? (getLang() === "zh" ? `（${tags.join("、")}）` : ` (${tags.join(", ")})`) : ""),
        clock,
        el("span", { class: "info" }, info.flatMap((x, i) => (i ? [" · ", x] : [x])))));
    }
    if (g.event) {
      side.append(el("p", { class: "note", "data-testid": "event-line" },
        el("a", { href: `#/event/${g.event.id}` }, g.event.name), ` · ${t("round", { n: g.event.round })} · ${t("board")} ${g.event.board}`));
    }
    side.append(players);
    side.append(el("p", { class: "status", "data-testid": "status", "aria-live": "polite" }, phaseText()));
    if (g.info && g.info.waiting && !ended(st)) {
      side.append(el("p", { class: "waiting", "data-testid": "waiting" }, t("waiting", { n: String((g.info.ready || []).length) })));
    }
    // when the clock starts (issue 21): a casual game waits for both seats, or for the first move
    const start = st.clock || {};
    if (!start.started && !ended(st) && !(g.info && g.info.waiting)) {
      const key = start.start_rule === "first_move" ? "clockStart.firstMove" : start.start_rule === "seated" ? "clockStart.seated" : null;
      if (key) {
        const seated = 2 - (start.waiting_for || []).length;
        side.append(el("p", { class: "waiting", "data-testid": "clock-start" }, t(key, { n: String(seated) })));
      }
    }
    const invite = inviteBox();
    if (invite) side.append(invite);
    const finalScore = st.outcome ? countShown(a) : null;
    if (finalScore) {
      const s = finalScore.score;
      side.append(el("p", { class: "score", "data-testid": "final-count" },
        `${t("score")}${colon()}${nameOf("black")} ${s.black_area} · ${nameOf("white")} ${s.white_area} · ${t("komi")} ${s.komi_stones} → ${scoreWords(s)}`));
    }
    side.append(...gomokuNotes(allowed));
    if (a && a.engine && a.engine.error) side.append(el("p", { class: "error", "data-testid": "engine-error" }, `${t("engine")}${colon()}${a.engine.error}`));
    side.append(el("p", { class: "call", "data-testid": "last-call" }, g.lastCall ? `${g.lastCall.zh} · ${g.lastCall.en}` : ""));

    // what I may do now (the server says which: the page knows no rules)
    const actions = el("div", { class: "actions" });
    if (st.phase === "counting" && a) {
      side.append(el("p", { class: "note" }, t("counting.help")));
      if (!st.dead.length && a.proposal && a.proposal.length) {
        side.append(el("p", { class: "note" }, `${t("counting.proposal")}${colon()}${a.proposal.join(" ")}`));
        if (allowed.includes("mark_dead")) {
          actions.append(button(t("counting.apply"), "apply-proposal", () => act({ type: "set_dead", points: a.proposal })));
        }
      }
      const shown = countShown(a);
      if (shown) {
        const s = shown.score;
        const agreed = (st.accepted || []).length;
        side.append(el("p", { class: `score${shown.proposal ? " proposal" : ""}`, "data-testid": "score" },
          `${shown.proposal ? t("count.proposal") : t("count.marking", { n: String(agreed) })}${colon()}${t("black")} ${s.black_area} · ${t("white")} ${s.white_area} → ${scoreWords(s)}`));
      }
      if (a.dead_views) side.append(deadViews(a));
      // the accept carries the marking on the screen (the dashed proposal while nothing is
      // marked): the server records that one, or refuses if the marking changed meanwhile
      const onScreen = st.dead.length ? st.dead : (a.proposal || []);
      if (allowed.includes("accept")) actions.append(button(t("accept"), "accept", () => act({ type: "accept", dead: onScreen })));
      if (allowed.includes("dispute")) {
        actions.append(button(g.dispute ? t("disputeHint") : t("dispute"), "dispute", () => { g.dispute = !g.dispute; render(); },
          { "aria-pressed": g.dispute ? "true" : "false" }));
      }
    }
    if (allowed.includes("open")) actions.append(openingForm());
    if (allowed.includes("swap")) {
      actions.append(button(t("swap"), "swap", () => act({ type: "swap" })));
      actions.append(el("span", { class: "note" }, t("swapHint")));
    }
    if (allowed.includes("propose_fifth") && st.fifth_n > 1) {
      actions.append(el("p", { class: "note" }, `${t("proposeHint")} N = ${st.fifth_n}: ${g.picks.join(" ")}`));
      actions.append(button(t("propose"), "propose", () => act({ type: "propose_fifth", points: g.picks }),
        { disabled: g.picks.length !== st.fifth_n }));
      actions.append(button(t("clear"), "clear-picks", () => { g.picks = []; render(); }));
    }
    if (allowed.includes("choose_fifth")) actions.append(el("p", { class: "note" }, t("chooseHint")));
    if (allowed.includes("pass")) actions.append(button(t("pass"), "pass", () => act({ type: "pass" })));
    // Go §22.5: asked in advance (or at the overrun), an overrun of the last period is a pass
    if (allowed.includes("request_overtime_pass")) {
      actions.append(button(t("otPass"), "overtime-pass", () => act({ type: "request_overtime_pass" }),
        { title: t("otPass.help"), "aria-describedby": "ot-pass-help" }));
      actions.append(el("span", { class: "sr-only", id: "ot-pass-help" }, t("otPass.help")));
    } else if (g.seat && a && (a.overtime_pass || []).includes(g.seat)) {
      actions.append(el("span", { class: "note", "data-testid": "overtime-pass-asked" }, t("otPass.asked")));
    }
    actions.append(...takebackControls(allowed));
    if (allowed.includes("offer_draw")) actions.append(button(t("offerDraw"), "offer-draw", () => act({ type: "offer_draw" })));
    if (allowed.includes("accept_draw")) actions.append(button(t("acceptDraw"), "accept-draw", () => act({ type: "accept_draw" })));
    if (allowed.includes("decline_draw")) actions.append(button(t("declineDraw"), "decline-draw", () => act({ type: "decline_draw" })));
    if (allowed.includes("claim")) actions.append(button(t("claim"), "claim", () => act({ type: "claim" })));
    if (allowed.includes("resign")) {
      actions.append(button(t("resign"), "resign", () => { g.resigning = true; g.focusNext = "resign-yes"; render(); },
        { class: "danger", "aria-expanded": g.resigning ? "true" : "false", "aria-controls": "resign-confirm" }));
    } else if (!analysisBehind()) {
      g.resigning = false; // not while the new position's analysis is on its way
    }
    if (token && ended(st) && engineOpposite()) actions.append(...rematchControls());
    else if (token && g.seat && ended(st) && g.info && !g.info.event) actions.append(...friendRematch());
    else if (!token && ended(st) && g.info && g.info.rematch && g.info.rematch.game) {
      actions.append(el("a", { href: `#/game/${encodeURIComponent(g.info.rematch.game)}`, "data-testid": "rematch-watch" }, t("rematch.watch")));
    }
    side.append(actions);
    if (g.pending && allowed.includes("move")) side.append(moveConfirm());
    if (g.resigning) side.append(resignConfirm());
    if (allowed.includes("move")) {
      // the example is a point of this game's board in its book's notation (Go D4, Gomoku h8)
      const typing = t("keyboardMove", { point: gameType(st.game).example_points[0] });
      const input = el("input", { name: "move", size: "5", "data-testid": "move-input", value: typedValue, "aria-label": typing, placeholder: typing, autocomplete: "off" });
      side.append(el("form", { class: "kbd-move", onsubmit: (ev) => {
        ev.preventDefault();
        const typed = input.value.trim();
        input.value = "";
        clickPoint(typed);
      } },
        input, el("button", { type: "submit" }, t("play"))));
    }

    // display options
    const opts = el("div", { class: "options" });
    opts.append(button(g.sound ? t("soundOn") : t("soundOff"), "sound", () => { g.sound = !g.sound; render(); },
      { "aria-pressed": g.sound ? "true" : "false", title: t("sound") }));
    // Black's forbidden points on request, where the game shows them (not in rated events)
    if (st.rules && st.rules.fouls && !(a && a.hints === false)) {
      opts.append(button(t("forbidden"), "forbidden", () => { g.forbidden = !g.forbidden; render(); },
        { "aria-pressed": g.forbidden ? "true" : "false" }));
    }
    opts.append(button(g.moveSound ? t("moveSoundOn") : t("moveSoundOff"), "move-sound", () => {
      g.moveSound = !g.moveSound; setPref("moveSound", g.moveSound); render();
    }, { "aria-pressed": g.moveSound ? "true" : "false" }));
    if (g.seat && !ended(st)) {
      opts.append(button(t("confirmMoves"), "confirm-toggle", () => {
        g.confirmMoves = !g.confirmMoves; setPref("confirm", g.confirmMoves); g.pending = null; render();
      }, { "aria-pressed": g.confirmMoves ? "true" : "false" }));
    }
    opts.append(el("a", { href: `/api/games/${encodeURIComponent(id)}/sgf`, download: `${id}.sgf`, "data-testid": "sgf" }, t("sgf")));
    const watchUrl = link(`#/game/${encodeURIComponent(id)}`);
    opts.append(el("a", { href: `#/game/${encodeURIComponent(id)}`, class: "watch" }, t("watch")),
      copyButton(watchUrl, t("copyLink"), t("copied"), "copy-watch"));
    side.append(opts);
    // no arbiter to call in a casual game against the computer
    if (token && !engineOpposite()) side.append(callPanel(!ended(st)));
    if (g.replay) {
      side.append(el("p", { class: "ok-box", "data-testid": "replay-link" },
        el("a", { href: `#/game/${encodeURIComponent(g.replay)}${token ? `?token=${encodeURIComponent(token)}` : ""}` }, t("ko.replayLink"))));
    }

    if (g.rulings.length) side.append(rulingsPanel());
    side.append(moveList());
    if (arbiterKey) side.append(arbiterPanel());
    const wanted = g.focusNext || focusId;
    g.focusNext = null;
    if (wanted) {
      const again = side.querySelector(`[data-testid="${wanted}"]`);
      if (again) again.focus();
    }
  }

  // the seat that holds a stone colour (after the Renju swap the Black seat plays White)
  function seatOf(colour) {
    const st = g.state;
    return st.stone_colours && st.stone_colours.black !== "black" ? (colour === "black" ? "white" : "black") : colour;
  }

  // the game this browser created (Create on the home page seats its creator here): one
  // invitation for the opponent and the spectators' link to copy, the arbiter's folded away;
  // open until the opponent has played, then folded (the links stay at hand)
  function inviteBox() {
    const st = g.state;
    if (!token || ended(st)) return null;
    const made = myGames().find((x) => x.id === id && x.token === token && x.created && x.other);
    if (!made) return null;
    const other = made.seat === "black" ? "white" : "black";
    const row = (label, href, testid) => {
      const url = link(href);
      return el("p", {}, `${label} `, copyButton(url, t("copyLink"), t("copied"), `copy-${testid}`),
        el("a", { class: "url", href, "data-testid": testid }, url));
    };
    if (g.inviteOpen === undefined) g.inviteOpen = movesOf(st) < 2;
    const box = el("details", { class: "links invite card-box", "data-testid": "game-links", open: g.inviteOpen },
      el("summary", {}, t("invite.title")),
      row(t(`invite.${other}`), `#/game/${encodeURIComponent(id)}?token=${encodeURIComponent(made.other)}`, `link-${other}`),
      row(t("invite.watch"), `#/game/${encodeURIComponent(id)}`, "link-watch"));
    if (made.arbiter) {
      box.append(el("details", {}, el("summary", {}, t("home.arbiterLink")),
        row(t("arbiter"), `#/game/${encodeURIComponent(id)}?arbiter=${encodeURIComponent(made.arbiter)}`, "link-arbiter")));
    }
    box.append(el("p", { class: "note" }, t("home.links")));
    box.addEventListener("toggle", () => { if (box.parentNode) g.inviteOpen = box.open; });
    return box;
  }

  // Renju: the opening and N for the swap (Gomoku §2.9-2.10), the draw offers (§10.3)
  function gomokuNotes(allowed) {
    const st = g.state;
    const out = [];
    const live = !ended(st);
    if (st.opening && live && ["swap", "white4", "propose_fifth", "choose_fifth"].includes(st.phase)) {
      out.push(el("p", { class: "note", "data-testid": "opening-line" },
        t("openingIs", { name: openingName(st.opening), n: String(st.fifth_n || 1) })));
    }
    if (!gameType(st.game).draw_offers) return out;
    if (st.draw_offer && live) {
      const by = seatOf(st.draw_offer);
      const text = by === g.seat ? t("drawOfferedByMe") : t("drawOfferedBy", { who: whoPlays(by) });
      out.push(el("p", { class: "note", "data-testid": "draw-offer" }, text));
    }
    // Gomoku §10.3(4): a third offer ahead of the opponent is refused, and the page says why
    const offers = st.draw_offers || {};
    const mine = g.seat ? seatColour(g.seat) : null;
    if (mine && live && !st.draw_offer && !allowed.includes("offer_draw") && st.to_act && st.to_act !== mine) {
      const other = mine === "black" ? "white" : "black";
      const lead = (offers[mine] || 0) + 1 - (offers[other] || 0);
      if (lead > (st.draw_offer_lead || 2)) {
        out.push(el("p", { class: "note", "data-testid": "no-more-offers" },
          t("drawOfferLimit", { mine: String(offers[mine] || 0), theirs: String(offers[other] || 0) })));
      }
    }
    return out;
  }

  // a takeback by agreement (a casual game): ask, wait, or answer the opponent's request
  function takebackControls(allowed) {
    const st = g.state;
    const out = [];
    const other = g.seat === "black" ? "white" : "black";
    const answer = st.takeback_answer;
    if (g.seat && answer && answer.asker === g.seat && !ended(st)) {
      out.push(el("span", { class: "note", "data-testid": "takeback-answer" },
        t(`takeback.${answer.answer === "refused" ? "refused" : "playedOn"}`, { who: nameOf(other) })));
    }
    if (allowed.includes("request_takeback")) {
      // one request per press: a second click while it is on its way sends nothing
      out.push(button(t("takeback"), "takeback", () => {
        if (g.askingTakeback) return;
        g.askingTakeback = true;
        act({ type: "request_takeback" }).finally(() => { g.askingTakeback = false; });
      }));
    }
    if (g.seat && st.takeback === g.seat && !ended(st)) {
      out.push(el("span", { class: "note", "data-testid": "takeback-asked" }, t("takeback.asked", { who: nameOf(other) })));
    }
    if (allowed.includes("accept_takeback")) {
      out.push(el("span", { class: "note", "data-testid": "takeback-request" }, t("takeback.askedBy", { who: whoPlays(st.takeback) })));
      out.push(button(t("takeback.agree"), "takeback-agree", () => act({ type: "accept_takeback" })));
      out.push(button(t("takeback.refuse"), "takeback-refuse", () => act({ type: "decline_takeback" })));
    }
    return out;
  }

  // after a game against the computer: the same engine, level and rules, colours swapped
  function rematchControls() {
    const colour = t(g.seat === "black" ? "white" : "black");
    return [
      button(t("rematch"), "rematch", async (ev) => {
        ev.currentTarget.disabled = true;
        try {
          const r = await api("POST", `/api/games/${encodeURIComponent(id)}/rematch`, { token });
          remember({ id: r.id, game: g.state.game, seat: r.seat, token: r.token, created: true, engine: r.engine });
          location.hash = `#/game/${encodeURIComponent(r.id)}?token=${encodeURIComponent(r.token)}`;
        } catch (err) { showError(err); render(); }
      }, { title: t("rematch.help", { colour }), "aria-describedby": "rematch-help" }),
      el("span", { class: "note", id: "rematch-help" }, t("rematch.help", { colour })),
    ];
  }

  // after a casual game between two people: one offers a rematch with the colours swapped,
  // the other accepts; each keeps its link, seated at the other colour in the new game
  function friendRematch() {
    const r = g.info.rematch || {};
    const other = g.seat === "black" ? "white" : "black";
    const path = `/api/games/${encodeURIComponent(id)}/rematch`;
    const send = (method) => async (ev) => {
      ev.currentTarget.disabled = true;
      try { onRematch((await api(method, path, { token })).rematch); } catch (err) { showError(err); render(); }
    };
    if (r.game) return [el("a", { href: `#/game/${encodeURIComponent(r.game)}?token=${encodeURIComponent(token)}`, "data-testid": "rematch-link" }, t("rematch.go"))];
    const help = el("span", { class: "note", "data-testid": "rematch-note" });
    if (r.offered_by === g.seat) {
      help.textContent = t("rematch.offered", { who: nameOf(other) });
      return [help, button(t("rematch.withdraw"), "rematch-withdraw", send("DELETE"))];
    }
    if (r.offered_by === other) {
      help.textContent = t("rematch.offeredBy", { who: whoPlays(other), colour: t(other) });
      return [help, button(t("rematch.accept"), "rematch-accept", send("POST")), button(t("rematch.decline"), "rematch-decline", send("DELETE"))];
    }
    if (r.declined_by === other) help.textContent = t("rematch.declined", { who: nameOf(other) });
    return [button(t("rematch.offer"), "rematch-offer", send("POST"), { title: t("rematch.friendHelp", { colour: t(other) }) }), help];
  }

  // a rematch offered, declined or made (its page's answer, or the socket): once it is made
  // both players' pages move to it, each at its new colour with the same link
  function onRematch(r) {
    if (!g.info) return;
    g.info.rematch = r;
    if (r.game && token && g.seat && !g.closed) {
      location.hash = `#/game/${encodeURIComponent(r.game)}?token=${encodeURIComponent(token)}`;
      return;
    }
    render();
  }

  // the count of a game against the computer: the engine's dead stones beside duiyi's
  // proposal, in words where they differ (the board squares the same points)
  function deadViews(a) {
    const engine = (a.engine && a.engine.name) || t("engine");
    const box = el("div", { class: "dead-views note", "data-testid": "dead-views" });
    const stones = (n) => (n === 1 ? t("deadViews.stone") : t("deadViews.stones", { n: String(n) }));
    const { engine_only: mineOnly, duiyi_only: oursOnly } = a.dead_views;
    if (!mineOnly.length && !oursOnly.length) {
      box.append(el("p", {}, t("deadViews.agree", { engine })));
      return box;
    }
    if (mineOnly.length) {
      box.append(el("p", { "data-testid": "dead-engine-only" },
        t("deadViews.engineOnly", { engine, points: mineOnly.join(" "), count: stones(mineOnly.length) })));
    }
    if (oursOnly.length) {
      box.append(el("p", { "data-testid": "dead-duiyi-only" },
        t("deadViews.duiyiOnly", { engine, points: oursOnly.join(" "), count: stones(oursOnly.length) })));
    }
    box.append(el("p", {}, t("deadViews.help")));
    return box;
  }

  // a move waiting for its confirmation (touch screens, and always on a forbidden point)
  function moveConfirm() {
    const p = g.pending;
    const foul = forbiddenFor(p);
    const cancel = () => { g.pending = null; render(); };
    return el("div", {
      class: `confirm${foul ? " foul" : ""}`, role: "alertdialog", "aria-modal": "false",
      "aria-labelledby": "move-confirm-q", "data-testid": "move-confirm",
      onkeydown: (ev) => { if (ev.key === "Escape") { ev.preventDefault(); cancel(); } },
    },
    el("p", { id: "move-confirm-q" }, foul ? t("confirmFoul", { p, foul: t(`foul.${foul}`) }) : t("confirmMove", { p })),
    el("div", { class: "actions" },
      button(foul ? t("playAnyway") : t("playHere"), "confirm-move", () => { g.pending = null; act({ type: "move", move: p }); },
        { class: foul ? "danger" : "" }),
      button(t("cancel"), "cancel-move", cancel)));
  }

  // a player calls the arbiter to the board (a foul, the count, the clock...)
  function callPanel(open) {
    const mineCalls = ((g.info && g.info.calls) || []).filter((c) => c.seat === g.seat);
    const box = el("section", { class: "calls", "aria-label": t("callArbiter") });
    for (const c of mineCalls.slice(-3)) {
      box.append(el("p", { class: "note", "data-testid": `call-${c.n}` },
        `${tOf(g.state.game, `about.${c.about}`)}${c.text ? `${colon()}${c.text}` : ""} — ${c.open ? t("callOpen") : `${t("callClosed")}${c.answer ? `${colon()}${rulingLine(c.answer, nameOf)}` : c.ruling ? `${colon()}${c.ruling}` : ""}`}`));
    }
    if (!open) return box;
    if (!g.calling) {
      box.append(button(t("callArbiter"), "call-arbiter", () => { g.calling = true; g.focusNext = "call-about"; render(); }));
      return box;
    }
    const about = el("select", { "data-testid": "call-about", "aria-label": t("callAbout") },
      // Gomoku has no count of dead stones to call about (its book ends a game on five or a draw)
      ["foul", "count", "time", "draw", "other"].filter((a) => a !== "count" || gameType(g.state.game).counting)
        .map((a) => el("option", { value: a }, tOf(g.state.game, `about.${a}`))));
    const text = el("input", { "data-testid": "call-text", "aria-label": t("callText"), placeholder: t("callText"), maxlength: "300" });
    box.append(el("form", {
      class: "call-form",
      onsubmit: async (ev) => {
        ev.preventDefault();
        try {
          await api("POST", `/api/games/${encodeURIComponent(id)}/calls`, { body: { about: about.value, text: text.value }, token });
          g.calling = false;
          notice(t("callSent"), "ok");
          await fetchInfo();
        } catch (err) { showError(err); }
      },
    }, el("label", {}, t("callAbout"), " ", about), el("label", {}, t("callText"), " ", text),
    el("div", { class: "actions" }, el("button", { type: "submit", "data-testid": "call-send" }, t("send")),
      button(t("cancel"), "call-cancel", () => { g.calling = false; render(); }))));
    return box;
  }

  // an in-page confirmation (no window.confirm): focus moves into it, Escape cancels
  function resignConfirm() {
    const cancel = () => { g.resigning = false; g.focusNext = "resign"; render(); };
    const box = el("div", {
      class: "confirm", id: "resign-confirm", role: "alertdialog", "aria-modal": "false",
      "aria-labelledby": "resign-confirm-q", "data-testid": "resign-confirm",
      onkeydown: (ev) => { if (ev.key === "Escape") { ev.preventDefault(); cancel(); } },
    },
    el("p", { id: "resign-confirm-q" }, t("confirmResign")),
    el("div", { class: "actions" },
      button(t("resignConfirm"), "resign-yes", () => { g.resigning = false; act({ type: "resign" }); }, { class: "danger" }),
      button(t("cancel"), "resign-cancel", cancel)));
    return box;
  }

  /** An opening by its number and name: the Chinese name on a Chinese page (the book's, Gomoku
   * §3.2: "D1 寒星"), the Japanese one beside it on an English page ("D1 寒星 (Kansei)"). */
  function openingName(o) {
    return getLang() === "zh" ? `${o.id} ${o.chinese}` : `${o.id} ${o.chinese} (${o.japanese})`;
  }

  function openingForm() {
    const box = el("div", { class: "opening", "data-testid": "opening-form" });
    box.append(el("p", { class: "note" }, t("openHint")));
    const select = el("select", { "aria-label": t("openingList"), "data-testid": "opening-select" },
      el("option", { value: "" }, "—"));
    for (const o of g.openings || []) {
      const value = o.moves.join(" ");
      select.append(el("option", { value, selected: value === g.picks.join(" ") }, openingName(o)));
    }
    select.addEventListener("change", () => { g.picks = select.value ? select.value.split(" ") : []; render(); });
    const n = el("input", { type: "number", min: "1", max: "50", value: String(g.fifthN || 1), "data-testid": "fifth-n", "aria-label": t("fifthN") });
    n.addEventListener("input", () => { g.fifthN = Number(n.value) || 1; });
    box.append(el("label", {}, t("openingList"), " ", select));
    box.append(el("label", {}, t("fifthN"), " ", n));
    box.append(el("span", { class: "picks" }, g.picks.join(" ")));
    box.append(button(t("open"), "open", () => act({ type: "open", moves: g.picks, fifth_n: Number(n.value) || 1 }),
      { disabled: g.picks.length !== 3 }));
    if (g.openings === null) {
      g.openings = [];
      api("GET", "/api/gomoku/openings").then((r) => { g.openings = r.openings; render(); }).catch(() => {});
    }
    return box;
  }

  function moveList() {
    const st = g.state;
    // with handicap stones (Go §4) colours do not alternate: the state gives each move's
    const list = gameType(st.game).handicap
      ? st.moves.map(([c, p]) => ({ color: c, point: p || "pass" }))
      : st.moves_list.map((p, i) => ({ color: i % 2 === 0 ? "black" : "white", point: p }));
    const total = list.length;
    const at = g.viewMove === null ? total : g.viewMove;
    const box = el("section", { class: "moves", "aria-label": t("moves") });
    const nav = el("div", { class: "nav" },
      button("«", "nav-first", () => goTo(0), { "aria-label": t("navFirst") }),
      button("‹", "nav-prev", () => goTo(Math.max(0, at - 1)), { "aria-label": t("navPrev") }),
      button("›", "nav-next", () => goTo(Math.min(total, at + 1)), { "aria-label": t("navNext") }),
      button("»", "nav-last", () => goTo(null), { "aria-label": t("navLast") }),
      el("span", { "data-testid": "move-counter" }, `${at}/${total}`));
    box.append(el("h3", {}, t("moves")), nav);
    const ol = el("ol", { class: "move-list", "data-testid": "move-list" });
    list.forEach((m, i) => {
      ol.append(el("li", {},
        el("button", { type: "button", class: `mv ${m.color}${i + 1 === at ? " current" : ""}`, onclick: () => goTo(i + 1) },
          `${i + 1}. ${m.point === "pass" ? t("mv.pass") : m.point}`)));
    });
    box.append(ol);
    return box;
  }

  async function goTo(k) {
    const st = g.state;
    const total = st.move_count;
    g.viewMove = k === null || k >= total ? null : k;
    if (g.viewMove !== null && gameType(st.game).captures) {
      try {
        g.viewPos = await api("GET", `/api/games/${encodeURIComponent(id)}/position?move=${g.viewMove}`);
      } catch (err) { showError(err); }
    }
    render();
  }

  // the arbiter: pause, resume, and every ruling of the game's table as a form (rulings.js)
  function arbiterPanel() {
    const box = el("section", { class: "arbiter", "aria-label": t("arbiter") });
    box.append(el("h3", {}, t("arbiter")));
    box.append(button(t("pause"), "pause", () => act({ type: "pause" })));
    box.append(button(t("resume"), "resume", () => act({ type: "resume" })));
    const game = g.state.game;
    if (g.rulingTable === undefined) {
      g.rulingTable = null;
      rulingTable(id, game).then((table) => { g.rulingTable = table; render(); })
        .catch((err) => { g.rulingTable = undefined; showError(err); });
    }
    box.append(rulingForm({
      game, table: g.rulingTable, draft: g.rulingDraft, calls: (g.info && g.info.calls) || [], made: g.rulings,
      label: t("room.ruleOn"), nameOf, rerender: render, state: g.state,
      send: async (body, words) => {
        try {
          const r = await api("POST", `/api/games/${encodeURIComponent(id)}/rulings`, { body, token: arbiterKey });
          notice(words, "ok");
          if (r.state) setState(r.state);
          return true;
        } catch (err) { showError(err); return false; }
      },
    }));
    return box;
  }

  // the rulings made in this game, for everyone at the board: what, whom, article and note
  function rulingsPanel() {
    const box = el("section", { class: "rulings-made", "aria-label": t("room.rulings"), "data-testid": "rulings" });
    box.append(el("h3", {}, t("room.rulings")));
    box.append(el("ol", {}, g.rulings.map((r) => el("li", {
      class: g.seat && (r.color === g.seat || (r.colors || []).includes(g.seat)) ? "mine" : null,
    }, rulingLine(r, nameOf)))));
    return box;
  }

  // rulings from the log entries the socket brings (all of them in the first hello)
  function noteRulings(actions, fresh) {
    const made = (actions || []).filter((e) => e.type === "ruling" && e.ruling).map((e) => e.ruling);
    if (!made.length) return;
    g.rulings.push(...made);
    if (!fresh) return;
    for (const r of made) {
      if (g.seat && (r.color === g.seat || (r.colors || []).includes(g.seat))) {
        notice(`${t("rule.onYou")}${colon()}${rulingLine(r, nameOf)}`, "warn", 12000);
      }
    }
  }

  const timer = setInterval(tickClocks, 200);
  fetchInfo().then((found) => { if (found) connect(); });
  return () => {
    g.closed = true;
    clearInterval(timer);
    if (ws) ws.close();
  };
}
