// The settings of a game as POST /api/games (and an event's "online" games) take them: board
// size, rules preset, handicap, every time system of duiyi.clock.system_from_json and the
// lateness rules, as far as the game has them (its description, games.js). The page only
// builds the JSON: the server validates it and names the article.
import { el } from "./api.js";
import { t } from "./i18n.js";
import { gameType } from "./games.js";

export const TIME_SYSTEMS = ["none", "absolute", "chinese-byoyomi", "japanese-byoyomi", "fischer", "moves-per-period"];

// per system: [field, label key, unit ("min" or "s" or ""), default, optional]
const TIME_FIELDS = {
  "none": [],
  "absolute": [["base", "tf.base", "min", 15]],
  "chinese-byoyomi": [["base", "tf.base", "min", 30], ["reserved_minutes", "tf.reserved", "", 3]],
  "japanese-byoyomi": [["base", "tf.base", "min", 30], ["periods", "tf.periods", "", 3], ["period", "tf.period", "s", 30]],
  "fischer": [["base", "tf.base", "min", 10], ["increment", "tf.increment", "s", 10], ["cap", "tf.cap", "min", "", true]],
  "moves-per-period": [["base", "tf.base", "min", 60], ["moves", "tf.moves", "", 15], ["period", "tf.periodMin", "min", 10],
    ["base_moves", "tf.baseMoves", "", "", true]],
};

function numberInput(name, value, testid, attrs = {}) {
  return el("input", { type: "number", name, value: String(value), min: "0", step: "any", inputmode: "decimal", "data-testid": testid, ...attrs });
}

/**
 * A fieldset of game settings. ``kind()`` tells the game (its name); call ``update()`` when it
 * changes. ``value()`` answers the JSON fields (size, rules, handicap, time_control, lateness);
 * ``prefix`` keeps the test ids of two forms apart; ``engine``: the rules an engine can play.
 */
export function gameSettings(kind, {
  prefix = "new", sizes = ["19", "13", "9"], legend = "settings", tc = "none", lateness = true, engine = false,
  start = false, fouls = false,
} = {}) {
  const game = () => gameType(kind());
  const size = el("select", { name: "size", "data-testid": `${prefix}-size` }, sizes.map((s) => el("option", { value: s }, `${s}×${s}`)));
  const rules = el("select", { name: "rules", "data-testid": `${prefix}-rules` });
  const handicap = el("select", { name: "handicap", "data-testid": `${prefix}-handicap` },
    [0, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => el("option", { value: String(n) }, n ? String(n) : t("handicap.none"))));
  const system = el("select", { name: "time_system", "data-testid": `${prefix}-tc` },
    TIME_SYSTEMS.map((s) => el("option", { value: s, selected: s === tc }, t(`ts.${s}`))));
  const timeBox = el("div", { class: "time-fields" });
  const late = el("select", { name: "lateness", "data-testid": `${prefix}-lateness` },
    el("option", { value: "none" }, t("late.none")), el("option", { value: "limit" }, t("late.limit")),
    el("option", { value: "same_site" }, t("late.sameSite")));
  // the book's limit (Go §22.1: one hour; Gomoku §8.5: the event's, 15 minutes here)
  const lateLimit = numberInput("late_limit", game().late_limit_minutes, `${prefix}-late-limit`, { min: "1" });
  lateLimit.addEventListener("input", () => { lateLimit.dataset.touched = "1"; });
  const lateLabel = el("label", {}, t("late.minutes"), lateLimit);
  // issue 21: when a casual game's clock starts (the server's "start"; lateness means a
  // scheduled start, so the choice is offered only without it)
  const startRule = el("select", { name: "start", "data-testid": `${prefix}-start` },
    el("option", { value: "seated" }, t("start.seated")), el("option", { value: "first_move" }, t("start.first_move")));
  const startLabel = el("label", {}, t("start"), startRule);
  // an event's Gomoku games (``fouls``): who points out Black's forbidden move (White claims it,
  // Gomoku §10.1(2), or it is ruled at once) and whether the forbidden points are shown to the
  // players (help to Black, Gomoku §12.2(7)); stored with the event's online settings
  const foulPolicy = el("select", { name: "foul_policy", "data-testid": `${prefix}-foul-policy` },
    el("option", { value: "claim" }, t("fouls.claim")), el("option", { value: "auto" }, t("fouls.auto")));
  const hints = el("select", { name: "hints", "data-testid": `${prefix}-hints` },
    el("option", { value: "off" }, t("hints.off")), el("option", { value: "on" }, t("hints.on")));
  const foulLabel = el("label", {}, t("fouls"), foulPolicy);
  const hintsLabel = el("label", {}, t("hints"), hints);
  const sizeLabel = el("label", {}, t("size"), size);
  const handicapLabel = el("label", {}, t("handicap"), handicap);
  const timeInputs = {};

  function drawTime() {
    timeBox.replaceChildren();
    for (const k of Object.keys(timeInputs)) delete timeInputs[k];
    for (const [field, label, unit, dflt, optional] of TIME_FIELDS[system.value]) {
      const input = numberInput(field, dflt, `${prefix}-tf-${field}`, optional ? { placeholder: t("optional") } : {});
      timeInputs[field] = [input, unit, optional];
      timeBox.append(el("label", {}, t(label), input));
    }
  }

  const sameSite = late.querySelector("option[value=same_site]");
  function update() {
    const g = game();
    const presets = engine ? g.engine_presets : g.presets;
    if ([...rules.options].map((o) => o.value).join() !== presets.join()) {
      const keep = rules.value;
      rules.replaceChildren(...presets.map((r) => el("option", { value: r }, t(`rules.${r}`))));
      if (presets.includes(keep)) rules.value = keep;
    }
    sizeLabel.hidden = g.sizes.length < 2;
    foulLabel.hidden = !fouls || !g.event_fouls;
    hintsLabel.hidden = !fouls || !g.event_fouls;
    handicapLabel.hidden = !g.handicap;
    // Go §22.2 only: a game without it is not offered the option at all (not even hidden)
    const site = g.same_site_lateness;
    if (!site && late.value === "same_site") late.value = "limit";
    if (site && sameSite.parentNode !== late) late.append(sameSite);
    if (!site && sameSite.parentNode === late) sameSite.remove();
    lateLabel.hidden = late.value !== "limit";
    startLabel.hidden = !start || system.value === "none" || late.value !== "none";
    if (!lateLimit.dataset.touched) lateLimit.value = String(g.late_limit_minutes);
  }

  system.addEventListener("change", () => { drawTime(); update(); });
  late.addEventListener("change", update);
  drawTime();
  update();

  function value() {
    const out = { rules: rules.value };
    const g = game();
    if (g.sizes.length > 1) out.size = Number(size.value);
    if (g.handicap) out.handicap = Number(handicap.value);
    if (system.value !== "none") {
      const tc = { system: system.value };
      for (const [field, [input, unit, optional]] of Object.entries(timeInputs)) {
        if (input.value.trim() === "") {
          if (optional) continue;
          throw new Error(`${t("time")}: ${input.closest("label").firstChild.textContent}?`);
        }
        const n = Number(input.value);
        tc[field] = unit === "min" ? n * 60 : n;
      }
      out.time_control = tc;
    }
    if (start && !startLabel.hidden) out.start = startRule.value;
    if (!foulLabel.hidden) {
      out.foul_policy = foulPolicy.value;
      out.hints = hints.value === "on";
    }
    if (!lateness) return out;
    if (late.value === "limit") out.lateness = { limit: Number(lateLimit.value) * 60 };
    else if (late.value === "same_site") out.lateness = { same_site: true };
    return out;
  }

  /** Show stored settings (an event's ``online``) in the form. */
  function set(spec = {}) {
    if (spec.size) size.value = String(spec.size);
    if (spec.handicap !== undefined) handicap.value = String(spec.handicap);
    update();
    if (typeof spec.rules === "string") rules.value = spec.rules;
    // an event's defaults: White claims, no hints (duiyi.games.gomoku.event_game_spec)
    foulPolicy.value = spec.foul_policy === "auto" ? "auto" : "claim";
    hints.value = spec.hints === true ? "on" : "off";
    const tcSpec = spec.time_control;
    system.value = tcSpec && TIME_FIELDS[tcSpec.system] ? tcSpec.system : "none";
    drawTime();
    for (const [field, [input, unit]] of Object.entries(timeInputs)) {
      const v = tcSpec ? tcSpec[field] : undefined;
      input.value = v === undefined || v === null ? "" : String(unit === "min" ? v / 60 : v);
    }
    const lat = spec.lateness;
    late.value = !lat ? "none" : lat.same_site ? "same_site" : "limit";
    if (lat && lat.limit) {
      lateLimit.value = String(lat.limit / 60);
      lateLimit.dataset.touched = "1";
    }
    update();
  }

  const node = el("fieldset", { class: "settings stack" }, el("legend", {}, t(legend)),
    sizeLabel, handicapLabel, el("label", {}, t("rules"), rules), foulLabel, hintsLabel, el("label", {}, t("time"), system), timeBox,
    lateness ? el("label", {}, t("late"), late) : null, lateness ? lateLabel : null, start ? startLabel : null);
  return { node, value, update, set };
}
