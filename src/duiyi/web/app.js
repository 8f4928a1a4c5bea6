// duiyi's browser UI: a hash router over the pages. No build step: plain ES modules.
import { api, el, hashParams, showError, clearNotice } from "./api.js";
import { gamePage } from "./game.js";
import { eventPage, newEventPage } from "./event.js";
import { deskPage } from "./desk.js";
import { roomPage } from "./room.js";
import { t, translate, getLang, setLang, setBook } from "./i18n.js";
import { gameSettings } from "./settings.js";
import { myGames, remember } from "./mine.js";
import { games, loadGames } from "./games.js";
import { roundsText, scoreWords, seatName } from "./labels.js";

let leave = null;

function names(n) {
  return n && (n.black || n.white) ? `${seatName(n.black) || t("black")} – ${seatName(n.white) || t("white")}` : "";
}

/** "1 move", "7 moves" (一手, 7手): a count of moves in words, never "1 Moves". */
function movesText(n) {
  return Number(n) === 1 ? t("moves1") : t("movesN", { n: String(n) });
}

function resultLine(gm) {
  const o = gm.outcome || {};
  const sc = o.score || {};
  if (o.winner) {
    const who = (gm.seats && seatName(gm.seats[o.winner])) || t(o.winner);
    const margin = scoreWords(sc); // the game page's words: 黑胜3/4子 on a Chinese page, not B+1.5
    return `${who} · ${t(`term.${o.termination}`)}${margin ? ` · ${margin}` : ""}`;
  }
  if (!o.result) return gm.closed ? t("closedShort") : ""; // closed by the director's entry
  return o.result === "draw" ? t("draw") : t(`res.${o.result}`);
}

async function home(main) {
  const card = (title, testid, ...body) => el("section", { class: "card-box", "data-testid": testid, "aria-labelledby": `h-${testid}` },
    el("h2", { id: `h-${testid}` }, title), ...body);
  const seats = el("ul", { class: "seats", "data-testid": "demo-seats" });
  const sitCard = card(t("home.sit"), "sit", el("p", { class: "lede" }, t("home.sitLede")), seats);
  sitCard.hidden = true;
  const live = el("ul", { class: "live", "data-testid": "live-games" });
  const finished = el("ul", { class: "finished", "data-testid": "finished-games" });
  const events = el("ul", { class: "events", "data-testid": "events" });
  // the games this browser created or joined (its localStorage)
  const mine = el("ul", { class: "mine", "data-testid": "my-games" });
  for (const gm of myGames()) {
    mine.append(el("li", { "data-game-id": gm.id },
      el("a", { href: `#/game/${gm.id}?token=${gm.token}` }, t("home.playAs", { game: t(gm.game || "go"), colour: t(gm.seat) })),
      names(gm.names) ? ` · ${names(gm.names)}` : "", ` · ${gm.created ? t("home.created") : t("home.joined")} · `,
      el("a", { href: `#/game/${gm.id}` }, t("watch"))));
  }
  const mineCard = card(t("home.mine"), "mine", mine);
  mineCard.hidden = !mine.children.length;
  const left = el("div", {}, sitCard, mineCard,
    card(t("home.live"), "live", el("p", { class: "note" }, t("home.updated")), live),
    card(t("home.finished"), "finished", finished),
    card(t("home.events"), "events-card", events));
  const right = el("div", {});
  const page = el("div", { class: "home" }, el("h1", {}, t("home.title")), el("div", { class: "home-grid" }, left, right));

  // a new game
  const kind = el("select", { name: "game", "data-testid": "new-kind" }, games().map((g) => el("option", { value: g.name }, t(g.name))));
  const settings = gameSettings(() => kind.value, { prefix: "new", start: true });
  kind.addEventListener("change", settings.update);
  const blackName = el("input", { name: "black_name", "data-testid": "new-black-name", maxlength: "60", autocomplete: "off" });
  const whiteName = el("input", { name: "white_name", "data-testid": "new-white-name", maxlength: "60", autocomplete: "off" });
  right.append(el("details", { class: "card-box", open: true, "data-testid": "new-game" }, el("summary", {}, t("home.newGame")), el("form", {
    class: "stack",
    onsubmit: async (ev) => {
      ev.preventDefault();
      try {
        const body = { game: kind.value, ...settings.value() };
        const r = await api("POST", "/api/games", { body });
        const given = { black: blackName.value.trim() || null, white: whiteName.value.trim() || null };
        if (given.black || given.white) await api("PUT", `/api/games/${r.id}/names`, { body: given, token: r.arbiter_token });
        // the creator sits at Black's seat at once; the game page offers the one invitation
        // for the opponent and the spectators' link (kept with the game in "my games")
        remember({ id: r.id, game: kind.value, seat: "black", token: r.black_token, other: r.white_token, arbiter: r.arbiter_token, names: given, created: true });
        location.hash = `#/game/${r.id}?token=${r.black_token}`;
      } catch (err) { showError(err); }
    },
  }, el("label", {}, t("game"), kind),
  el("fieldset", { class: "settings" }, el("legend", {}, t("home.names")),
    el("label", {}, t("home.blackName"), blackName), el("label", {}, t("home.whiteName"), whiteName)),
  settings.node,
  el("button", { type: "submit", "data-testid": "create-game" }, t("create")))));
  // against an engine
  const engineBox = el("details", { class: "card-box", "data-testid": "engine-box" }, el("summary", {}, t("home.engine")));
  right.append(engineBox);
  // watch a game by id
  const gid = el("input", { name: "id", "aria-label": t("home.gameId"), placeholder: t("home.gameId") });
  right.append(el("details", { class: "card-box" }, el("summary", {}, t("home.watch")), el("form", {
    class: "inline", onsubmit: (ev) => { ev.preventDefault(); if (gid.value.trim()) location.hash = `#/game/${gid.value.trim()}`; },
  }, gid, el("button", { type: "submit" }, t("watch")))));
  main.replaceChildren(page);

  // the lists update by themselves (every few seconds while the page is shown)
  async function refresh() {
    try {
      const [r, n] = await Promise.all([api("GET", "/api/live-games"), api("GET", "/api/live-games/names").catch(() => ({ seats: {} }))]);
      live.replaceChildren(...(r.games.length ? [] : [el("li", {}, t("home.noLive"))]));
      for (const gm of r.games) {
        const where = gm.event_id ? ` · ${t("round", { n: gm.round })} · ${t("board")} ${gm.board}` : "";
        const who = names((n.seats || {})[gm.id]);
        live.append(el("li", { "data-game-id": gm.id }, el("a", { href: `#/game/${gm.id}` }, `${t(gm.game)} ${gm.size}×${gm.size}${who ? ` · ${who}` : ""}`),
          ` · ${gm.moves_exact === false ? t("movesAtMost", { n: gm.moves }) : movesText(gm.moves)}${where}${gm.engine ? ` · ${t("engine")}` : ""}`));
      }
    } catch (_e) { /* an older server without the list */ }
    try {
      const r = await api("GET", "/api/finished-games?limit=15");
      finished.replaceChildren(...(r.games.length ? [] : [el("li", {}, t("home.noFinished"))]));
      for (const gm of r.games) {
        const who = names(gm.seats);
        finished.append(el("li", { "data-game-id": gm.id }, el("a", { href: `#/game/${gm.id}` }, `${t(gm.game)} ${gm.size}×${gm.size}${who ? ` · ${who}` : ""}`),
          ` · ${resultLine(gm)} · `, el("a", { href: `/api/games/${gm.id}/sgf`, download: `${gm.id}.sgf` }, "SGF")));
      }
    } catch (_e) { /* an older server */ }
    try {
      const r = await api("GET", "/api/events");
      events.replaceChildren(...(r.events.length ? [] : [el("li", {}, t("home.noEvents"))]));
      for (const e of r.events) {
        events.append(el("li", {}, el("a", { href: `#/event/${e.id}` }, e.name), ` · ${t(e.game)} · ${t(`sys.${e.system}`)} · ${roundsText(e.current_round, e.rounds)} · ${t("ev.players", { n: String(e.players) })} · `,
          el("a", { href: `#/desk/${e.id}` }, t("desk")), " · ", el("a", { href: `#/room/${e.id}` }, t("room"))));
      }
    } catch (err) { showError(err); }
    try {
      const r = await api("GET", "/api/demo");
      seats.replaceChildren();
      for (const s of r.seats) {
        const li = el("li", { "data-game-id": s.game_id }, el("strong", {}, `${t(s.game)} · ${names(s.seats)}`),
          ` (${s.round ? `${t("round", { n: s.round })} · ${t("board")} ${s.board}` : t("casual")})`);
        for (const c of ["black", "white"]) {
          if (!s.tokens[c]) continue;
          li.append(el("a", { class: "sit", href: `#/game/${s.game_id}?token=${s.tokens[c]}`, "data-testid": `sit-${c}` },
            t("home.sitHere", { name: seatName(s.seats[c]), colour: t(c) })));
        }
        li.append(el("a", { href: `#/game/${s.game_id}` }, t("watch")));
        seats.append(li);
      }
      if (r.event_id && r.organiser_token) {
        seats.append(el("li", {}, el("a", { href: `#/desk/${r.event_id}?key=${r.organiser_token}&arbiter=${r.arbiter_token}`, "data-testid": "demo-desk" }, t("home.demoDesk")),
          " · ", el("a", { href: `#/room/${r.event_id}?arbiter=${r.arbiter_token}`, "data-testid": "demo-room" }, t("room"))));
      }
      sitCard.hidden = !r.seats.length && !r.event_id;
    } catch (_e) { sitCard.hidden = true; }
  }
  const timer = setInterval(refresh, 5000);
  leave = () => clearInterval(timer);
  await refresh();

  try {
    // the operator's engines, by name: the request names one, never a command
    const offered = (await api("GET", "/api/engines")).engines || [];
    if (!offered.length) {
      engineBox.append(el("p", {}, t("home.noEngine")));
    } else {
      const byName = Object.fromEntries(offered.map((e) => [e.name, e]));
      const ek = el("select", { name: "engine", "data-testid": "engine-kind" },
        offered.map((e) => el("option", { value: e.name }, `${t(e.game)} — ${e.label || e.name}`)));
      const game = () => byName[ek.value].game;
      const level = el("select", { name: "level", "data-testid": "engine-level" });
      const levelLabel = el("label", {}, t("engine.level"), level);
      const drawLevels = () => {
        const e = byName[ek.value];
        level.replaceChildren();
        levelLabel.hidden = !e.levels;
        if (!e.levels) return;
        for (let n = e.levels[0]; n <= e.levels[1]; n++) level.append(el("option", { value: String(n), selected: n === e.level }, String(n)));
      };
      drawLevels();
      // a Gomocup brain knows no designated opening: free openings only
      const es = gameSettings(game, { prefix: "engine", sizes: ["9", "13", "19"], lateness: false, engine: true });
      ek.addEventListener("change", () => { drawLevels(); es.update(); });
      const human = el("select", { name: "human" }, el("option", { value: "black" }, t("black")), el("option", { value: "white" }, t("white")));
      engineBox.append(el("form", {
        class: "stack",
        onsubmit: async (ev) => {
          ev.preventDefault();
          try {
            const body = { game: game(), engine: ek.value, human: human.value, ...es.value() };
            if (byName[ek.value].levels) body.level = Number(level.value);
            const r = await api("POST", "/api/engine-games", { body });
            remember({ id: r.id, game: game(), seat: human.value, token: r.token, created: true, engine: ek.value });
            location.hash = `#/game/${r.id}?token=${r.token}`;
          } catch (err) { showError(err); }
        },
      }, el("label", {}, t("engine.choice"), ek), levelLabel, el("label", {}, t("human"), human), es.node,
      el("button", { type: "submit", "data-testid": "play-engine" }, t("create"))));
    }
  } catch (_e) {
    engineBox.append(el("p", {}, t("home.noEngine")));
  }
}

function route() {
  if (leave) { leave(); leave = null; }
  clearNotice(); // a notice belongs to the page it was shown on
  setBook(null); // a page cites a book once it knows its game (i18n.js)
  const main = document.getElementById("main");
  translate();
  const { path, params } = hashParams();
  const [page, id] = path;
  // another page opens at its top (a language switch or a reconnection keeps the place)
  const shown = path.join("/");
  if (shown !== route.shown) { route.shown = shown; window.scrollTo(0, 0); }
  try {
    if (page === "game" && id) leave = gamePage(main, id, params);
    else if (page === "event" && id) leave = eventPage(main, id);
    else if (page === "desk" && id) leave = deskPage(main, id, params, path[2]);
    else if (page === "room" && id) leave = roomPage(main, id, params);
    else if (page === "new-event") newEventPage(main);
    else home(main).catch(showError);
  } catch (err) {
    showError(err);
  }
}

document.getElementById("lang").addEventListener("click", () => {
  setLang(getLang() === "zh" ? "en" : "zh");
  route();
});
setLang(getLang());
// the games' descriptions first (games.js): every page draws its game from them; a server
// that does not answer yet is asked again
function boot() {
  loadGames().then(() => {
    window.addEventListener("hashchange", route);
    route();
  }, (err) => {
    showError(err);
    setTimeout(boot, 2000);
  });
}
boot();
