// The new-event form's entry and system options (issue 20): an individual or a team event
// (团体: boards per match, the players' team column gives the teams), how a knockout's round 1
// is drawn (appendix 一.3: by lot, or 1–2, 3–4 by numbers), and whether round 1 of a Swiss
// keeps players of one club apart (an option, as OpenGotha offers).
import { el } from "./api.js";
import { t } from "./i18n.js";

const KNOCKOUTS = ["knockout", "double-elimination"];
const SWISS = ["swiss", "mcmahon", "swiss-elimination"];

/** Form controls for ``system()``'s options; ``value()`` is the event's ``options`` part. */
export function eventOptions(system) {
  const kind = el("select", { name: "kind", "data-testid": "event-kind" },
    el("option", { value: "individual" }, t("ev.individual")), el("option", { value: "team" }, t("ev.team")));
  const boards = el("input", { type: "number", min: "1", max: "20", value: "3", name: "boards", "data-testid": "event-boards" });
  const boardsLabel = el("label", {}, t("ev.boards"), boards);
  const teamHelp = el("p", { class: "note" }, t("ev.teamHelp"));
  const lines = el("select", { name: "lines", "data-testid": "event-lines" },
    el("option", { value: "lot" }, t("ko.lines.lot")), el("option", { value: "numbers" }, t("ko.lines.numbers")));
  const linesLabel = el("label", {}, t("ko.lines"), lines);
  const sameClub = el("input", { type: "checkbox", name: "same_club", "data-testid": "event-same-club" });
  const sameClubLabel = el("label", { class: "check" }, sameClub, ` ${t("ev.sameClub")}`);
  const kindLabel = el("label", {}, t("ev.kind"), kind);

  function update() {
    const s = system();
    const team = kind.value === "team";
    boardsLabel.hidden = !team;
    teamHelp.hidden = !team;
    linesLabel.hidden = !KNOCKOUTS.includes(s) || team;
    sameClubLabel.hidden = !SWISS.includes(s) || team;
  }
  kind.addEventListener("change", update);
  update();

  function value() {
    const s = system();
    const out = {};
    if (kind.value === "team") { out.team = true; out.boards = Math.max(1, Math.round(Number(boards.value) || 1)); }
    else if (KNOCKOUTS.includes(s)) out.lines = lines.value;
    if (kind.value !== "team" && SWISS.includes(s) && sameClub.checked) out.avoid_same_club = true;
    return out;
  }
  return { node: el("div", { class: "stack event-options" }, kindLabel, boardsLabel, teamHelp, linesLabel, sameClubLabel), value, update };
}
