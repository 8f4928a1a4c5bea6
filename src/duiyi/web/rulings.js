// The arbiter's ruling form, shared by the arbiter's room and the game page. It is built from
// the game's ruling table (GET /api/games/{id}/rulings: the rulebook's `Book`): one entry per
// ruling, its fields (a player, the points, minutes and seconds, a decision, flags), the
// article preselected and the articles to choose from. Nothing is typed as JSON. "Rule…"
// first shows the ruling in words; only "Confirm the ruling" sends it.
import { api, el, newActionId } from "./api.js";
import { BoardView } from "./board.js";
import { t, tOf, colon, paren, getLang, article as articleWords, articleKey } from "./i18n.js";
import { gameType } from "./games.js";

const tables = {}; // game kind -> promise of its ruling table

/** The ruling table of a game's kind (asked once per kind, through any game of that kind). */
export function rulingTable(gameId, kind) {
  if (!tables[kind]) {
    tables[kind] = api("GET", `/api/games/${encodeURIComponent(gameId)}/rulings`)
      .then((r) => r.rulings)
      .catch((err) => { delete tables[kind]; throw err; });
  }
  return tables[kind];
}

/** The label of a ruling of the table: its own words per game where the books differ. */
export function rulingLabel(game, id) {
  const own = `rm.${game}.${id}`;
  return t(own) !== own ? t(own) : t(`rm.${id}`);
}

// the fields that name a ruling of the game (by its index among the rulings made): the ones
// an appeal may be against (not an appeal, not an appeal's decision), the appeals still open
const REFERS = {
  against: (made) => made.map((r, i) => (["appeal", "appeal_decided"].includes(r.kind) ? -1 : i)).filter((i) => i >= 0),
  appeal: (made) => {
    const decided = new Set(made.filter((r) => r.kind === "appeal_decided" && r.appeal).map((r) => r.appeal.against));
    return made.map((r, i) => (r.kind === "appeal" && !decided.has(i) ? i : -1)).filter((i) => i >= 0);
  },
};

// a field on a row of its own, its label above it (an article, a decision in words)
const wide = (...parts) => el("div", { class: "wide" }, ...parts);

/** The ruling in a sentence where its name alone does not say it all ("" when it does). */
export function rulingHint(game, id) {
  for (const key of [`rh.${game}.${id}`, `rh.${id}`]) if (t(key) !== key) return t(key);
  return "";
}

const mmss = (s) => `${Math.floor(s / 60)}:${String(Math.round(s % 60)).padStart(2, "0")}`;

function seconds(v) {
  const m = Number(v.min || 0);
  const s = Number(v.sec || 0);
  return Math.max(0, Math.round((Number.isFinite(m) ? m : 0) * 60 + (Number.isFinite(s) ? s : 0)));
}

/** The typed request of ``spec`` from the draft's values (only what the table asks). */
export function rulingBody(spec, values) {
  const body = { kind: spec.kind, ...spec.fixed };
  for (const f of spec.fields) {
    const v = values[f.name];
    switch (f.type) {
      case "seat":
        if (v) body[f.name] = v;
        break;
      case "seats":
        body[f.name] = ["black", "white"].filter((c) => v && v[c]);
        break;
      case "decision":
        body[f.name] = v || f.choices[0];
        break;
      case "signed_time": {
        const n = seconds(v || {});
        body[f.name] = v && v.sign === "-" ? -n : n;
        break;
      }
      case "time": {
        const n = seconds(v || {});
        if (n) body[f.name] = n;
        break;
      }
      case "points":
        body[f.name] = String(v || "").split(/[\s,]+/).filter(Boolean);
        break;
      case "point":
        body[f.name] = String(v || "").trim();
        break;
      case "article":
        if (spec.article_editable) body[f.name] = articleKey(v || spec.article).trim();
        break;
      case "note":
        if (String(v || "").trim()) body[f.name] = String(v).trim();
        break;
      case "flag":
        body[f.name] = v === undefined ? !!f.default : !!v;
        break;
      case "choice":
        if (v === "yes" || v === "no") body[f.name] = v === "yes";
        break;
      case "select":
        if (v || f.required) body[f.name] = v || f.default || f.choices[0];
        break;
      case "number":
        if (v !== undefined && String(v).trim() !== "" && Number.isFinite(Number(v))) body[f.name] = Number(v);
        break;
      default:
        break;
    }
  }
  return body;
}

// the separator of a list of names in the page's language: "、" on a Chinese page
const listSep = () => (getLang() === "zh" ? "、" : ", ");

/** The ruling in words, as the arbiter confirms it and the room lists it. */
export function rulingWords(game, spec, body, nameOf, made = []) {
  const who = (c) => `${nameOf(c)}${paren(t(c))}`;
  const parts = [rulingLabel(game, spec.id)];
  for (const f of spec.fields) {
    const v = body[f.name];
    if (v === undefined || v === "" || f.type === "article" || f.type === "note") continue;
    let text = null;
    if (f.type === "seat") text = who(v);
    else if (f.type === "seats") text = v.length ? v.map(who).join(listSep()) : "—";
    else if (f.type === "decision") text = t(`dec.${v}`);
    else if (f.type === "signed_time") text = `${v < 0 ? "−" : "+"}${mmss(Math.abs(v))}`;
    else if (f.type === "time") text = mmss(v);
    else if (f.type === "points") text = v.join(" ");
    else if (f.type === "point") text = v;
    else if (f.type === "flag") text = v ? t("yes") : null; // a flag left off says nothing
    else if (f.type === "choice") text = v ? t("yes") : t("no");
    else if (f.type === "select") text = wordOf(v);
    else if (f.type === "number" && REFERS[f.name] && made[v]) text = `${v + 1}. ${rulingLine(made[v], nameOf)}`;
    else if (f.type === "number") text = String(v);
    if (text !== null) parts.push(`${t(`rf.${f.name}`)}${colon()}${text}`);
  }
  const article = body.article || spec.article;
  if (article) parts.push(articleWords(article));
  if (body.note) parts.push(`“${body.note}”`);
  return parts.join(" · ");
}

/** The move a void move voids, in words (issue 32): the next move of the game, being made now
 * by the player on move; for the player not on move it says whose move that is (a void that
 * costs the turn is refused for it by the server). ``position``: the game's state.
 * e.g. voidedMove({id: "void_move"}, {color: "black"}, {move_count: 12, to_move: "black"}, n)
 * → "voids move 13, Black's, being made now" */
export function voidedMove(spec, body, position, nameOf) {
  if (spec.id !== "void_move" || !position || !body.color) return null;
  const n = String((position.move_count || 0) + 1);
  if (position.to_move === body.color) return t("rf.voids", { n, who: nameOf(body.color) });
  const other = body.color === "black" ? "white" : "black";
  return t("rf.voidsNotOnMove", { n, who: nameOf(body.color), other: nameOf(other) });
}

/**
 * The form. ``opts``: ``game`` (go or gomoku), ``table`` (the ruling table), ``draft`` (an
 * object kept by the caller across re-renders), ``nameOf(seat)``, ``calls`` (the open calls),
 * ``suffix`` (of the data-testids: "-3" on board 3 of the room), ``label`` (the form's name),
 * ``position`` (the game's state: its points are clicked on a small board) or ``state`` (the
 * game's state without that board: the move a void move voids is named from it),
 * ``send(body)`` (makes the ruling; resolves when done), ``rerender()``.
 */
export function rulingForm(opts) {
  const { game, table, draft, nameOf, calls = [], made = [], suffix = "", send, rerender } = opts;
  if (!table || !table.length) return el("p", { class: "note" }, t("loading"));
  const specOf = (id) => table.find((r) => r.id === id) || table[0];
  if (!draft.id || !table.some((r) => r.id === draft.id)) { draft.id = table[0].id; draft.values = {}; }
  const spec = specOf(draft.id);
  const values = draft.values || (draft.values = {});
  const tid = (name) => `${name}${suffix}`;
  const uid = (name) => `${name}${suffix || "-g"}`;

  // the ruling's name on a row of its own, the whole width of the form (a name is never cut
  // off in a narrow card), and below it the ruling in a sentence
  const hint = rulingHint(game, spec.id);
  const kind = el("select", {
    "data-testid": tid("rule-kind"), id: uid("rule-kind"),
    "aria-describedby": hint ? uid("rule-hint") : null,
  }, table.map((r) => el("option", { value: r.id, selected: r.id === spec.id }, rulingLabel(game, r.id))));
  kind.addEventListener("change", () => {
    draft.id = kind.value; draft.values = {}; draft.confirming = false; rerender();
  });
  const rows = [el("div", { class: "kind" }, el("label", { for: uid("rule-kind") }, t("room.kind")), kind,
    hint ? el("p", { class: "note hint", id: uid("rule-hint"), "data-testid": tid("rule-hint") }, hint) : null)];

  const seatOption = (c) => el("option", { value: c }, `${nameOf(c)}${paren(t(c))}`);
  for (const f of spec.fields) {
    const id = uid(`rule-${f.name}`);
    if (f.type === "note" && !spec.fields.some((x) => x.type === "article") && spec.article) {
      // the article the server derives from the kind: shown, not sent
      const aid = uid("rule-article");
      rows.push(wide(el("label", { for: aid }, t("rf.article")),
        el("input", { id: aid, value: articleWords(spec.article), readonly: true, "data-testid": tid("rule-article") })));
    }
    const label = el("label", { for: id }, t(`rf.${f.name}`));
    let input;
    if (f.type === "seat") {
      if (values[f.name] === undefined) values[f.name] = f.required ? "black" : "";
      input = el("select", { id, "data-testid": tid(f.name === "color" ? "rule-who" : `rule-${f.name}`) },
        f.required ? null : el("option", { value: "" }, t("rf.nobody")),
        ["black", "white"].map(seatOption));
      input.value = values[f.name];
      input.addEventListener("change", () => { values[f.name] = input.value; });
    } else if (f.type === "seats") {
      const v = values[f.name] || (values[f.name] = { black: false, white: false });
      input = el("span", { class: "seats", id, role: "group", "aria-label": t(`rf.${f.name}`) },
        ["black", "white"].map((c) => {
          const box = el("input", { type: "checkbox", "data-testid": tid(`rule-${f.name}-${c}`), checked: v[c] });
          box.addEventListener("change", () => { v[c] = box.checked; });
          return el("label", {}, box, ` ${nameOf(c)}${paren(t(c))}`);
        }));
      rows.push(el("span", { class: "label" }, t(`rf.${f.name}`)), input);
      continue;
    } else if (f.type === "decision") {
      if (!values[f.name]) values[f.name] = f.choices[0];
      input = el("select", { id, "data-testid": tid("rule-decision") },
        f.choices.map((d) => el("option", { value: d }, t(`dec.${d}`))));
      input.value = values[f.name];
      input.addEventListener("change", () => { values[f.name] = input.value; });
      rows.push(wide(label, input)); // a decision reads in words: the whole width
      continue;
    } else if (f.type === "signed_time" || f.type === "time") {
      const v = values[f.name] || (values[f.name] = { sign: "+", min: "0", sec: "0" });
      const parts = [];
      if (f.type === "signed_time") {
        const sign = el("select", { "data-testid": tid(`rule-${f.name}-sign`), "aria-label": t("rf.sign") },
          el("option", { value: "+" }, t("rf.add")), el("option", { value: "-" }, t("rf.take")));
        sign.value = v.sign;
        sign.addEventListener("change", () => { v.sign = sign.value; });
        parts.push(sign);
      }
      const min = el("input", { id, type: "number", min: "0", max: "60", value: v.min, class: "num", "data-testid": tid(`rule-${f.name}-min`) });
      const sec = el("input", { type: "number", min: "0", max: "59", value: v.sec, class: "num", "aria-label": `${t(`rf.${f.name}`)}${paren(t("rf.sec"))}`, "data-testid": tid(`rule-${f.name}-sec`) });
      min.addEventListener("input", () => { v.min = min.value; });
      sec.addEventListener("input", () => { v.sec = sec.value; });
      // the mouse's way beside the keyboard's: a minute or ten seconds more or less
      const step = (by, words, name) => el("button", {
        type: "button", class: "small step", "data-testid": tid(`rule-${f.name}-${name}`),
        onclick: () => {
          const n = Math.min(3600, Math.max(0, seconds(v) + by));
          v.min = String(Math.floor(n / 60)); v.sec = String(n % 60);
          min.value = v.min; sec.value = v.sec;
        },
      }, words);
      input = el("span", { class: "duration" }, ...parts,
        el("span", { class: "stepper" }, step(-60, `−1 ${t("rf.min")}`, "less-min"), min, t("rf.min"), step(60, `+1 ${t("rf.min")}`, "more-min")),
        el("span", { class: "stepper" }, step(-10, `−10 ${t("rf.sec")}`, "less-sec"), sec, t("rf.sec"), step(10, `+10 ${t("rf.sec")}`, "more-sec")));
      const what = el("label", { for: id }, `${t(`rf.${f.name}`)}${paren(t("rf.min"))}`);
      // minutes and seconds with their steppers: the whole width (a narrow side panel would
      // break them in two; beside their label "+1 分", "+10 秒" ran out of the room's card)
      rows.push(wide(what, input));
      continue;
    } else if (f.type === "article") {
      const list = uid("rule-articles");
      input = el("input", {
        id, value: articleWords(values.article || spec.article), list: spec.article_editable ? list : null,
        readonly: !spec.article_editable, "data-testid": tid("rule-article"), maxlength: "80",
      });
      input.addEventListener("input", () => { values.article = articleKey(input.value); });
      rows.push(wide(label, input, spec.article_editable
        ? el("datalist", { id: list }, (spec.articles || []).map((a) => el("option", { value: articleWords(a) })))
        : null));
      continue;
    } else if (f.type === "flag") {
      input = el("input", { id, type: "checkbox", "data-testid": tid(`rule-${f.name}`), checked: values[f.name] === undefined ? !!f.default : values[f.name] });
      input.addEventListener("change", () => { values[f.name] = input.checked; });
    } else if (f.type === "select") {
      // one of a few words; an optional one may be left to the server
      if (values[f.name] === undefined) values[f.name] = f.required ? (f.default || f.choices[0]) : (f.default || "");
      input = el("select", { id, "data-testid": tid(`rule-${f.name}`) },
        f.required || f.default ? null : el("option", { value: "" }, "—"),
        f.choices.map((c) => el("option", { value: c }, wordOf(c))));
      input.value = values[f.name];
      input.addEventListener("change", () => { values[f.name] = input.value; });
      rows.push(wide(label, input)); // words, not a number: the whole width
      continue;
    } else if (f.type === "number" && REFERS[f.name]) {
      // a ruling of this game by its line in the list of rulings made (an appeal names the
      // ruling it is against; its decision, the open appeal): picked, never a number typed
      const refs = REFERS[f.name](made);
      if (values[f.name] === undefined && refs.length) values[f.name] = String(refs[refs.length - 1]);
      input = el("select", { id, "data-testid": tid(`rule-${f.name}`) },
        refs.length ? null : el("option", { value: "" }, t("rf.noneMade")),
        refs.map((i) => el("option", { value: String(i) }, shortLine(i, made[i], nameOf))));
      input.value = values[f.name] ?? "";
      input.addEventListener("change", () => { values[f.name] = input.value; });
      rows.push(wide(label, input));
      continue;
    } else if (f.type === "number") {
      input = el("input", { id, type: "number", min: "0", value: values[f.name] ?? "", class: "num", "data-testid": tid(`rule-${f.name}`) });
      input.addEventListener("input", () => { values[f.name] = input.value; });
    } else if (f.type === "choice") {
      input = el("select", { id, "data-testid": tid(`rule-${f.name}`) },
        el("option", { value: "" }, t("rf.byArticle")), el("option", { value: "yes" }, t("yes")), el("option", { value: "no" }, t("no")));
      input.value = values[f.name] || "";
      input.addEventListener("change", () => { values[f.name] = input.value; });
    } else {
      // points, point, note: text
      const examples = gameType(game).example_points;
      const ph = f.type === "points" ? examples.join(" ") : f.type === "point" ? examples[0] : null;
      input = el("input", {
        id, value: values[f.name] || "", placeholder: ph, maxlength: f.type === "note" ? "300" : "200",
        "data-testid": tid(f.type === "point" ? "rule-points" : `rule-${f.name}`),
      });
      input.addEventListener("input", () => { values[f.name] = input.value; });
    }
    // a player reads "Lian Xiao 6d (Black)": the whole width, never cut in a tablet's card
    rows.push(...(f.type === "seat" ? [wide(label, input)] : [label, input]));
    if (opts.position && (f.type === "points" || f.type === "point")) {
      rows.push(pointPicker(opts.position, f, input, values, tid, draft));
    }
  }
  // the call this ruling answers (the arbiter picks it; the other calls stay open)
  // A call picked here and answered meanwhile (another tab, another arbiter) stays picked and
  // says by what: this ruling would answer it a second time, and the server refuses that.
  const open = calls.filter((c) => c.open);
  const taken = draft.call ? calls.find((c) => String(c.n) === draft.call && !c.open) : null;
  if (open.length || taken) {
    const shown = taken ? [...open, taken].sort((a, b) => a.n - b.n) : open;
    const pick = el("select", { id: uid("rule-call"), "data-testid": tid("rule-call") },
      el("option", { value: "" }, t("rf.noCall")),
      shown.map((c) => el("option", { value: String(c.n) },
        `${c.n}. ${nameOf(c.seat)}${colon()}${tOf(game, `about.${c.about}`)}${c.text ? ` — “${c.text}”` : ""}`)));
    pick.value = draft.call || "";
    pick.addEventListener("change", () => { draft.call = pick.value; });
    rows.push(el("label", { for: uid("rule-call") }, t("rf.call")), pick);
    if (taken) {
      rows.push(el("p", { class: "note warn", role: "status", "data-testid": tid("rule-call-taken") },
        t("rf.callTaken", { n: String(taken.n), by: taken.ruling || t("rf.theArbiter") })));
    }
  } else {
    draft.call = "";
  }

  const form = el("form", {
    class: "rule no-print", "aria-label": opts.label || t("room.ruleOn"),
    onsubmit: (ev) => { ev.preventDefault(); draft.confirming = true; rerender(); },
  }, el("fieldset", { class: "fields", disabled: !!draft.confirming }, el("legend", { class: "sr-only" }, opts.label || t("room.ruleOn")), rows));
  if (!draft.confirming) {
    form.append(el("button", { type: "submit", "data-testid": tid("rule") }, t("rule.check")));
    return form;
  }
  const body = rulingBody(spec, values);
  if (draft.call) body.answers = Number(draft.call);
  const voided = voidedMove(spec, body, opts.position || opts.state, nameOf);
  const words = rulingWords(game, spec, body, nameOf, made) + (voided ? ` · ${voided}` : "");
  const confirm = el("div", { class: "confirm", role: "alertdialog", "aria-modal": "false", "aria-labelledby": uid("rule-words"), "data-testid": tid("rule-confirm") },
    el("p", { id: uid("rule-words"), "data-testid": tid("rule-words") }, t("rule.sure"), " ", el("strong", {}, words)),
    el("div", { class: "actions" },
      el("button", {
        type: "button", class: "danger", "data-testid": tid("rule-yes"),
        onclick: async (ev) => {
          ev.target.disabled = true;
          // one id per ruling: the same ruling sent again after an error or a lost answer is
          // applied once; a changed ruling is a new one
          const sent = JSON.stringify(body);
          if (draft.sentAs !== sent) { draft.actionId = newActionId(); draft.sentAs = sent; }
          const ok = await send({ ...body, action_id: draft.actionId }, words);
          // made: the next ruling is a new one, even if it reads the same (a second violation)
          if (ok) { draft.id = null; draft.values = {}; draft.call = ""; draft.sentAs = null; }
          draft.confirming = false;
          rerender();
        },
      }, t("rule.confirm")),
      el("button", { type: "button", "data-testid": tid("rule-no"), onclick: () => { draft.confirming = false; rerender(); } }, t("rule.change"))));
  form.append(confirm);
  return form;
}

// the points of a ruling clicked on a small board of the game (``position``: its state, the
// stones as they stand); a click adds a point or takes it off again (one point: replaces it).
// The field keeps the typed way: what is typed is ringed on the board too.
function pointPicker(position, f, input, values, tid, draft) {
  const box = el("div", { class: "pick-board", "data-testid": tid(`rule-${f.name}-board`) });
  const kind = position.game;
  const chosen = () => String(values[f.name] || "").split(/[\s,]+/).filter(Boolean);
  const same = (a, b) => a.toLowerCase() === b.toLowerCase();
  const view = new BoardView(box, (p) => {
    if (draft.confirming) return;
    const now = chosen();
    let next;
    if (f.type === "point") next = [p];
    else next = now.some((x) => same(x, p)) ? now.filter((x) => !same(x, p)) : [...now, p];
    values[f.name] = next.join(" ");
    input.value = values[f.name];
    draw();
  }, t("rf.pickBoard"));
  function draw() {
    view.draw({
      kind, size: position.size || 15, stones: position.stones || { black: [], white: [] },
      picks: chosen().map((p) => ({ point: p, color: "chosen" })), // any case: parsePoint reads it
    });
  }
  input.addEventListener("input", draw);
  draw();
  return wide(el("p", { class: "note" }, t("rf.pickHelp")), box);
}

// "2. violation · Bo": a ruling of the list, short enough for a drop-down
function shortLine(i, r, nameOf) {
  const who = r.color ? ` · ${nameOf(r.color)}` : "";
  return `${i + 1}. ${t(`rk.${r.kind}`)}${who}`;
}

/** A ruling made (its JSON from the log) in the page's language: what, whom, article, note. */
export function rulingLine(r, nameOf) {
  const who = r.color ? `${nameOf(r.color)}${paren(t(r.color))}` : (r.colors || []).map((c) => `${nameOf(c)}${paren(t(c))}`).join(listSep());
  const parts = [t(`rk.${r.kind}`)];
  if (r.decision) parts.push(t(`dec.${r.decision}`));
  if (who) parts.push(who);
  for (const [c, s] of r.clock || []) parts.push(`${t(c)} ${s < 0 ? "−" : "+"}${mmss(Math.abs(s))}`);
  if (r.article) parts.push(articleWords(r.article));
  let line = parts.join(" · ");
  if (r.note) line += ` — ${noteWords(r.note)}`;
  if (r.outcome) line += ` → ${outcomeWords(r.outcome, nameOf)}`;
  return line;
}

function outcomeWords(o, nameOf) {
  if (o.winner) return t("rule.wins", { who: `${nameOf(o.winner)}${paren(t(o.winner))}` });
  return o.result === "draw" ? t("draw") : t(`res.${o.result}`);
}

// the core's own words for the losing one ("violation number 2: game lost") in the page's language
function noteWords(note) {
  return note.replace(/\b(warning|violation) number (\d+): game lost/, (_m, what, n) =>
    t("rule.nth", { what: t(what === "warning" ? "rk.warning" : "rk.violation"), n }));
}

/** How a game was won, in the book's words (Gomoku's second violation is not a warning). */
export function termination(game, term) {
  return t(`term.${gameType(game).terms[term] || term}`);
}

// a word of a ruling's list (heads, fact, upheld...) in the page's language where it has one
function wordOf(value) {
  const key = `rv.${value}`;
  if (t(key) !== key) return t(key);
  if (t(value) !== value) return t(value); // black, white
  return String(value).replace(/_/g, " ");
}
