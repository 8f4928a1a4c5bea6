// The desk's settings tab: the online games' settings (used by the next "start online games").
import { el, notice, showError } from "./api.js";
import { t } from "./i18n.js";
import { addTab } from "./desk_tabs.js";
import { describe } from "./event.js";
import { gameSettings } from "./settings.js";

function render(ctx) {
  const { e, ev, id } = ctx;
  const online = ev.online || {};
  const settings = gameSettings(() => e.game, { prefix: "desk", legend: "event.online" });
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
    el("p", { "data-testid": "online-summary" }, `${t("event.online")}: ${describe(online)}`),
    el("div", { class: "online-settings", "data-testid": "online-settings" }, form));
}

addTab({ id: "settings", label: "desk.tab.settings", order: 50, render });
