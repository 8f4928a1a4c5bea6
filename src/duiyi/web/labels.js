// How the books print what the server sends as codes: scores (7.5 or 7½, never 15/2), ranks
// (5段, 3级), tiebreak names and what each means, pairing reasons in the page's language.
import { t, getLang, article } from "./i18n.js";

/**
 * A score as the books print it: "15/2" → "7.5", "9/4" → "2.25", "6725/3" → "2241.67", "3" → "3".
 * Halves and quarters are exact decimals; any other fraction has two decimals.
 */
export function score(v) {
  if (v === null || v === undefined || v === "") return "";
  const s = String(v);
  const m = /^(-?\d+)\/(\d+)$/.exec(s);
  if (!m) return s;
  const num = Number(m[1]);
  const den = Number(m[2]);
  if (!den) return s;
  const x = num / den;
  if (Number.isInteger(x)) return String(x);
  for (const d of [2, 4, 8]) if ((num * d) % den === 0) return String(x);
  return x.toFixed(2);
}

/** A rank in the page's language: "5d" → 5段 / 5 dan, "3k" → 3级, "2p" → 职业2段. */
export function rank(r) {
  const m = /^\s*(\d{1,2})\s*([dkp])\s*$/i.exec(String(r || ""));
  if (!m) return r || "";
  const kind = m[2].toLowerCase();
  if (getLang() !== "zh") return `${m[1]}${kind}`;
  return t(`rank.${kind}`, { n: m[1] });
}

/** A seat's player as the server sends it, name and rank apart (``{name: "周七", rank: "1d"}``),
 * with the rank in the page's language (周七 1段). A plain string is a name typed on this page:
 * shown as it is, no rank read out of it (issue 32: "Team 3d" was cut into "Team 3段"). */
export function seatName(seat) {
  if (!seat) return "";
  if (typeof seat !== "object") return String(seat);
  const r = rank(seat.rank);
  return r ? `${seat.name || ""} ${r}` : seat.name || "";
}

/** A counted game's margin as the page's book says it: "黑胜3/4子" on a Chinese page (Go §9
 * counts stones), "B+1.5" on an English one; "" without a score. */
export function scoreWords(score) {
  if (!score) return "";
  return getLang() === "zh" ? score.result_zh || score.sgf_result || "" : score.sgf_result || score.result_zh || "";
}

/** Where an event stands, in words: "第 3 轮（共 5 轮）" (round 3 of 5), never a bare "3/5" (issue
 * 32); an event of open length (``rounds`` 0) has no "of". */
export function roundsText(current, rounds) {
  if (!current) return rounds ? t("ev.noRoundOf", { of: String(rounds) }) : t("ev.noRound");
  return rounds ? t("ev.roundOf", { n: String(current), of: String(rounds) }) : t("round", { n: String(current) });
}

/** A tiebreak column's name in the page's language (``board:2`` → 第2台). */
export function tiebreakLabel(tb) {
  const name = tb.name || "";
  const [base, arg] = name.split(":");
  if (base === "board") return t("tb.board", { n: arg || "" });
  const key = `tb.${base}`;
  const text = t(key);
  if (text !== key) return text;
  // the server's label is "中文 English": keep the page's half
  const label = tb.label || name;
  const cut = /^([^\x00-\x7f]+)\s+(.+)$/.exec(label);
  if (!cut) return label;
  return getLang() === "zh" ? cut[1] : cut[2];
}

/** What a tiebreak column means, with its article ("" when the book says nothing more). */
export function tiebreakHelp(tb) {
  const [base, arg] = (tb.name || "").split(":");
  const key = `tbh.${base}`;
  const text = t(key, { n: arg || "", m: "" });
  const cited = article(tb.article); // the event's own book, as the server names it
  if (text === key) return cited;
  if (!cited || text.includes("§")) return text;
  return getLang() === "zh" ? `${text}（${cited}）` : `${text} (${cited})`;
}

/** A result code in words ("forfeit-white" → 白方弃权（黑胜）). */
export function resultText(code) {
  return code ? t(`rc.${code}`) : "";
}

/** A game the director closed by entering its result at the desk, in the page's words: the
 * server's reason "round 1 board 2: the director entered 1-0 (event …)" → 编排台已录入本局结果：黑胜（1-0）。本局结束。 */
export function closedText(reason) {
  const m = /the director entered (\S+)/.exec(String(reason));
  return t("closedByDirector", { result: m ? resultText(m[1]) : "—" });
}

/** A competition system by name (瑞士制…), never its slug. */
export function systemText(name) {
  const key = `sys.${name}`;
  const text = t(key);
  return text === key ? name : text;
}

/** A colour history "B0 W1" in the page's words: 黑0 白1 on a Chinese page. */
export function colours(text) {
  if (getLang() !== "zh") return String(text);
  return String(text).replace(/\bB(\d+) W(\d+)\b/g, "黑$1 白$2").replace(/\s*\(([BW]+)\)/g,
    (_m, seq) => `（${[...seq].map((c) => (c === "B" ? "黑" : "白")).join("")}）`);
}

/**
 * A knockout match or stage as the bracket names it ("R1.1": round 1, match 1; "P3-1.1": the
 * play-off for 3rd place, its round 1, match 1) in the page's words: 第1轮第1场,
 * 第3名决赛第1轮第1场 on a Chinese page; another name stays as it is.
 */
export function matchText(id) {
  const s = String(id);
  if (getLang() !== "zh") return s;
  const m = /^(?:P(\d+)-)?(?:R)?(\d+)(?:\.(\d+))?$/.exec(s);
  if (!m || (!m[1] && !s.startsWith("R"))) return s;
  return `${m[1] ? `第${m[1]}名决赛` : ""}第${m[2]}轮${m[3] ? `第${m[3]}场` : ""}`;
}

// The server's pairing reasons (English, tournament/pairing) in Chinese, part by part.
const REASONS = [
  [/^score group ([\d/.½]+): (\d+) meets (\d+), the nearest fitting player in the ascending \(odd round\) order$/,
    (m) => `积分组 ${score(m[1])}：${m[2]} 对 ${m[3]}，按序号升序（单数轮）最近的可配对者`],
  [/^score group ([\d/.½]+): (\d+) meets (\d+), the nearest fitting player in the descending \(even round\) order$/,
    (m) => `积分组 ${score(m[1])}：${m[2]} 对 ${m[3]}，按序号降序（双数轮）最近的可配对者`],
  [/^(\d+) \(score ([\d/.½]+)\) floats down to score ([\d/.½]+): no fitting partner left in its score group; (\d+) is the nearest$/,
    (m) => `${m[1]}（积分 ${score(m[2])}）本积分组内无可配对者，下调至积分 ${score(m[3])}；${m[4]} 最近`],
  // the reason is split at "; ", so the float and its nearest partner come as two parts
  [/^(\d+) \(score ([\d/.½]+)\) floats down to score ([\d/.½]+): no fitting partner left in its score group$/,
    (m) => `${m[1]}（积分 ${score(m[2])}）本积分组内无可配对者，下调至积分 ${score(m[3])}`],
  [/^(\d+) is the nearest$/, (m) => `${m[1]} 最近`],
  [/^skipped (.+)$/, (m) => `跳过 ${m[1].replace(/ ?\(met before\)/g, "（已相遇）").replace(/ ?\(colour clash\)/g, "（先后手冲突）")
    .replace(/ ?\(would leave the rest unpairable\)/g, "（其余无法配对）").replace(/ ?\(would leave more floaters in its group\)/g, "（本组浮动者增多）")
    .replace(/(\d+) more/g, "另 $1 人").replace(/, /g, "、")}`],
  [/^colour: equal histories, odd round: smaller number Black$/, () => "先后手：执黑白记录相同，单数轮序号小者执黑"],
  [/^colour: equal histories, even round: larger number Black$/, () => "先后手：执黑白记录相同，双数轮序号大者执黑"],
  [/^colour: equal balance \((B\d+ W\d+) against (B\d+ W\d+)\), odd round: smaller number Black$/,
    (m) => `先后手：执黑执白次数差相同（${colours(m[1])} 对 ${colours(m[2])}），单数轮序号小者执黑`],
  [/^colour: equal balance \((B\d+ W\d+) against (B\d+ W\d+)\), even round: larger number Black$/,
    (m) => `先后手：执黑执白次数差相同（${colours(m[1])} 对 ${colours(m[2])}），双数轮序号大者执黑`],
  [/^colour: (\d+) is due Black: Blacks minus Whites ([+\-]\d+) \((B\d+ W\d+)\) against ([+\-]\d+) \((B\d+ W\d+)\)$/,
    (m) => `先后手：${m[1]} 应执黑（执黑减执白 ${m[2]}，${colours(m[3])}；对方 ${m[4]}，${colours(m[5])}）`],
  [/^colour: (\d+) has had fewer Blacks \((.+) vs (.+)\)$/, (m) => `先后手：${m[1]} 执黑较少（${colours(m[2])} 对 ${colours(m[3])}）`],
  [/^colour: (\d+) is due Black: Blacks minus Whites ([+-]\d+) \((.+)\) against ([+-]\d+) \((.+)\)$/,
    (m) => `先后手：${m[1]} 应执黑（黑减白 ${m[2]}，${colours(m[3])}；对方 ${m[4]}，${colours(m[5])}）`],
  [/^paired by hand$/, () => "手工编排"],
  [/^(\d+) has the bye: moved by hand$/, (m) => `${m[1]} 轮空：手工调整`],
  [/^colour: equal balance, (\d+) had White more recently$/, (m) => `先后手：黑白次数相同，${m[1]} 最近一次执白`],
  [/^colour: (.+)$/, (m) => `先后手：${colours(m[1])}`],
  [/^Berger table round (\d+), cycle (\d+) reverses colours: (\d+) listed first plays Black \(号在前者执黑\)$/,
    (m) => `贝格尔表第 ${m[1]} 轮，第 ${m[2]} 循环交换先后手：${m[3]} 号在前执黑`],
  [/^Berger table round (\d+): (\d+) listed first plays Black \(号在前者执黑\)$/, (m) => `贝格尔表第 ${m[1]} 轮：${m[2]} 号在前执黑（号在前者执黑）`],
  [/^(R[\d.]+|P[\d\-.]+): upper line plays Black$/, (m) => `${matchText(m[1])}：上位线执黑`],
  [/^match (\d+): team (\d+) v team (\d+) on boards (\d+)–(\d+)$/, (m) => `第 ${m[1]} 场：${m[2]} 队对 ${m[3]} 队，第 ${m[4]}–${m[5]} 台`],
  [/^round 1 lines drawn by lot \((.+)\)$/, (m) => `第1轮签位抽签决定（${article(m[1]).replace("appendix ", "附则")}）`],
  [/^stage (.+)$/, (m) => `阶段：${matchText(m[1])}`],
  [/^same club kept apart: (\d+) and (\d+) swapped \(option avoid_same_club\)$/, (m) => `同单位回避：${m[1]} 与 ${m[2]} 对调（选项）`],
];

/** A pairing reason (or note) in the page's language. */
export function reasonText(reason) {
  if (!reason || getLang() !== "zh") return reason || "";
  return String(reason).split("; ").map((part) => {
    for (const [re, f] of REASONS) {
      const m = re.exec(part);
      if (m) return f(m);
    }
    return part;
  }).join("；");
}

/**
 * A crosstable cell in words: "8b+" → "●8 胜" (zh) / "●8 +" (en); "8w-f" → "○8 负（弃权）";
 * "5b?" (no result yet) → "●5 待定" (zh) / "●5 ?"; "bye" → 轮空; "·" stays (not played).
 */
export function crossCell(code) {
  const c = String(code || "");
  if (c === "bye") return t("bye");
  const m = /^(\d+)([bw])([+\-=?])(f?)$/.exec(c);
  if (!m) return c;
  const stone = m[2] === "b" ? "●" : "○";
  const zh = getLang() === "zh";
  const res = zh ? { "+": "胜", "-": "负", "=": "和", "?": t("cross.pending") }[m[3]] : m[3];
  const forfeit = m[4] ? (zh ? "（弃权）" : "f") : "";
  return `${stone}${m[1]}${zh ? " " : ""}${res}${forfeit}`;
}
