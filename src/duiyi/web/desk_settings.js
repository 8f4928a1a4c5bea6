// The desk's settings tab: the online games' settings (used by the next "start online games").
import { el, notice, showError } from "./api.js";
import { t, colon } from "./i18n.js";
import { addTab } from "./desk_tabs.js";
import { describe } from "./event.js";
import { gameType } from "./games.js";
import { gameSettings } from "./settings.js";

/** The event's days, place and country (the EGD's DT and PC, OpenGotha's dates and place). */
function aboutForm(ctx) {
  const o = ctx.e.options || {};
  const field = (key, label, attrs) => el("label", {}, t(label), el("input", { name: key, value: o[key] || "", "data-testid": `about-${key}`, ...attrs }));
  const form = el("form", {
    class: "stack about-event", "aria-label": t("desk.about"),
    onsubmit: async (ev) => {
      ev.preventDefault();
      const data = new FormData(form);
      const options = {};
      for (const key of ["begin_date", "end_date", "location", "country"]) options[key] = String(data.get(key) || "").trim();
      options.country = options.country.toUpperCase();
      if (await ctx.change("PATCH", `/api/events/${ctx.id}`, { body: { options } })) notice(t("saved"), "ok");
    },
  }, el("h3", {}, t("desk.about")),
  // the EGD file is Go's only (the export offers none for Gomoku): its help names it only there
  el("p", { class: "note", "data-testid": "about-help" }, t(gameType(ctx.e.game).egd ? "desk.about.help" : "desk.about.helpNoEgd")),
  field("begin_date", "desk.about.begin", { type: "date" }), field("end_date", "desk.about.end", { type: "date" }),
  field("location", "desk.about.location", { maxlength: "100" }),
  field("country", "desk.about.country", { maxlength: "2", size: "3", pattern: "[A-Za-z]{2}", placeholder: t("desk.about.countryEg") }),
  el("button", { type: "submit", "data-testid": "save-about" }, t("save")));
  return form;
}

/** The event's days, place and country in one line ("" when none is set). */
export function aboutLine(e) {
  const o = e.options || {};
  const days = [o.begin_date, o.end_date && o.end_date !== o.begin_date ? o.end_date : null].filter(Boolean).join(" – ");
  return [days, [o.location, o.country].filter(Boolean).join(", ")].filter(Boolean).join(" · ");
}

function render(ctx) {
  const { e, ev, id } = ctx;
  const online = ev.online || {};
  const settings = gameSettings(() => e.game, { prefix: "desk", legend: "event.online", fouls: true });
  settings.set(online);
  const form = el("form", {
    class: "stack",
    onsubmit: async (ev2) => {
      ev2.preventDefault();
      let body;
      try { body = { online: settings.value() }; } catch (err) { showError(err); return; }
      if (await ctx.change("PATCH", `/api/events/${id}`, { body })) notice(t("saved"), "ok");
    },
  }, settings.node, el("button", { type: "submit", "data-testid": "save-online" }, t("save")));
  return el("div", {}, el("h2", {}, t("desk.tab.settings")),
    el("p", { "data-testid": "online-summary" }, `${t("event.online")}${colon()}${describe(online)}`),
    el("div", { class: "online-settings", "data-testid": "online-settings" }, form), aboutForm(ctx));
}

addTab({ id: "settings", label: "desk.tab.settings", order: 50, render });
