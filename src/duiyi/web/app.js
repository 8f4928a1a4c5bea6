// duiyi's browser UI: a hash router over the pages. No build step: plain ES modules.
import { api, el, hashParams, showError, link } from "./api.js";
import { gamePage } from "./game.js";
import { eventPage, deskPage, newEventPage } from "./event.js";
import { t, translate, getLang, setLang } from "./i18n.js";
import { gameSettings } from "./settings.js";

let leave = null;

function gameLinks(r, withArbiter = true) {
  const box = el("div", { class: "links", "data-testid": "game-links" }, el("p", { class: "note" }, t("home.links")));
  const add = (label, href, testid) => box.append(el("p", {}, `${label}: `, el("a", { href, "data-testid": testid }, link(href))));
  if (r.black_token) add(t("black"), `#/game/${r.id}?token=${r.black_token}`, "link-black");
  if (r.white_token) add(t("white"), `#/game/${r.id}?token=${r.white_token}`, "link-white");
  if (r.token) add(t("you"), `#/game/${r.id}?token=${r.token}`, "link-you");
  if (withArbiter && r.arbiter_token) add(t("arbiter"), `#/game/${r.id}?arbiter=${r.arbiter_token}`, "link-arbiter");
  add(t("spectator"), `#/game/${r.id}`, "link-watch");
  return box;
}

async function home(main) {
  const events = el("ul", { class: "events", "data-testid": "events" });
  const live = el("ul", { class: "live", "data-testid": "live-games" });
  const page = el("div", { class: "home" }, el("h1", {}, t("home.title")),
    el("section", {}, el("h2", {}, t("home.events")), events),
    el("section", {}, el("h2", {}, t("home.live")), live));
  // a new game
  const kind = el("select", { name: "game", "data-testid": "new-kind" }, el("option", { value: "go" }, t("go")), el("option", { value: "gomoku" }, t("gomoku")));
  const settings = gameSettings(() => kind.value, { prefix: "new" });
  kind.addEventListener("change", settings.update);
  const out = el("div");
  page.append(el("section", {}, el("h2", {}, t("home.newGame")), el("form", {
    class: "stack",
    onsubmit: async (ev) => {
      ev.preventDefault();
      try {
        const body = { game: kind.value, ...settings.value() };
        out.replaceChildren(gameLinks(await api("POST", "/api/games", { body })));
        out.querySelector("a").focus();
      } catch (err) { showError(err); }
    },
  }, el("label", {}, t("game"), kind), settings.node,
  el("button", { type: "submit", "data-testid": "create-game" }, t("create"))), out));
  // against an engine
  const engineBox = el("section", {}, el("h2", {}, t("home.engine")));
  page.append(engineBox);
  // watch a game by id
  const gid = el("input", { name: "id", "aria-label": t("home.gameId"), placeholder: t("home.gameId") });
  page.append(el("section", {}, el("h2", {}, t("home.watch")), el("form", {
    class: "inline", onsubmit: (ev) => { ev.preventDefault(); if (gid.value.trim()) location.hash = `#/game/${gid.value.trim()}`; },
  }, gid, el("button", { type: "submit" }, t("watch")))));
  main.replaceChildren(page);
  try {
    const engines = await api("GET", "/api/engines");
    const choices = [];
    if (engines.go.length) choices.push(["go", `${t("go")} — GNU Go`]);
    if (engines.gomoku.length) choices.push(["gomoku", `${t("gomoku")} — Gomocup`]);
    if (!choices.length) {
      engineBox.append(el("p", {}, t("home.noEngine")));
    } else {
      const ek = el("select", { name: "game", "data-testid": "engine-kind" }, choices.map(([v, l]) => el("option", { value: v }, l)));
      // a Gomocup brain knows no designated opening: free openings only
      const es = gameSettings(() => ek.value, { prefix: "engine", sizes: ["9", "13", "19"], lateness: false, gomokuRules: ["free_renju", "free"] });
      ek.addEventListener("change", es.update);
      const human = el("select", { name: "human" }, el("option", { value: "black" }, t("black")), el("option", { value: "white" }, t("white")));
      const eout = el("div");
      engineBox.append(el("form", {
        class: "stack",
        onsubmit: async (ev) => {
          ev.preventDefault();
          try {
            const r = await api("POST", "/api/engine-games", { body: { game: ek.value, human: human.value, ...es.value() } });
            location.hash = `#/game/${r.id}?token=${r.token}`;
          } catch (err) { showError(err); }
        },
      }, el("label", {}, t("game"), ek), el("label", {}, t("human"), human), es.node,
      el("button", { type: "submit", "data-testid": "play-engine" }, t("create"))), eout);
    }
  } catch (_e) {
    engineBox.append(el("p", {}, t("home.noEngine")));
  }
  try {
    const r = await api("GET", "/api/live-games");
    if (!r.games.length) live.append(el("li", {}, "—"));
    for (const gm of r.games) {
      const where = gm.event_id ? ` · ${t("round", { n: gm.round })} · ${t("board")} ${gm.board}` : "";
      live.append(el("li", {}, el("a", { href: `#/game/${gm.id}` }, `${t(gm.game)} ${gm.size}×${gm.size}`),
        ` · ${gm.moves_exact === false ? t("movesAtMost", { n: gm.moves }) : `${gm.moves} ${t("moves")}`}${where}${gm.engine ? ` · ${t("engine")}` : ""}`));
    }
  } catch (_e) { /* an older server without the list */ }
  try {
    const r = await api("GET", "/api/events");
    if (!r.events.length) events.append(el("li", {}, t("home.noEvents")));
    for (const e of r.events) {
      events.append(el("li", {}, el("a", { href: `#/event/${e.id}` }, e.name), ` · ${t(e.game)} · ${e.system} · ${e.current_round}/${e.rounds} · ${e.players} `,
        el("a", { href: `#/desk/${e.id}` }, t("desk"))));
    }
  } catch (err) { showError(err); }
}

function route() {
  if (leave) { leave(); leave = null; }
  const main = document.getElementById("main");
  translate();
  const { path, params } = hashParams();
  const [page, id] = path;
  try {
    if (page === "game" && id) leave = gamePage(main, id, params);
    else if (page === "event" && id) eventPage(main, id);
    else if (page === "desk" && id) deskPage(main, id, params);
    else if (page === "new-event") newEventPage(main);
    else home(main);
  } catch (err) {
    showError(err);
  }
}

document.getElementById("lang").addEventListener("click", () => {
  setLang(getLang() === "zh" ? "en" : "zh");
  route();
});
setLang(getLang());
window.addEventListener("hashchange", route);
route();
