// Players pasted into the desk: a list of names (one a line, "name, rank" allowed) or a CSV /
// tab-separated table with any of the usual headers (English, Chinese, OpenGotha's and EGD's
// names). The page only reads the table: the server checks each player and names what it
// refuses.

const HEADERS = {
  name: ["name", "player", "players", "full name", "fullname", "姓名", "棋手", "名字", "选手"],
  first: ["first name", "firstname", "given name", "first", "名"],
  last: ["last name", "lastname", "surname", "family name", "last", "姓"],
  rank: ["rank", "grade", "level", "dan", "kyu", "段位", "级别", "等级"],
  rating: ["rating", "elo", "rating points", "gor", "points", "等级分", "积分"],
  club: ["club", "city", "country", "association", "单位", "俱乐部", "地区"],
  // a team event's team (board order = the order of the list): never taken for the club
  team: ["team", "队", "队名", "队伍", "代表队", "隊"],
};

function field(header) {
  const h = header.trim().toLowerCase().replace(/^\uFEFF/, "");
  for (const [key, names] of Object.entries(HEADERS)) if (names.includes(h)) return key;
  return null;
}

function separator(line) {
  if (line.includes("\t")) return "\t";
  if (line.includes(";") && !line.includes(",")) return ";";
  if (line.includes(",")) return ",";
  if (line.includes("，")) return "，";
  return null;
}

/** Split one CSV line (double quotes protect separators). */
function cells(line, sep) {
  const out = [];
  let cur = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '"') {
      if (quoted && line[i + 1] === '"') { cur += '"'; i++; } else quoted = !quoted;
    } else if (c === sep && !quoted) {
      out.push(cur.trim());
      cur = "";
    } else cur += c;
  }
  out.push(cur.trim());
  return out;
}

const RANK = /^(\d{1,2}\s*[kdp]|\d{1,2}\s*(kyu|dan)|[1-9]段|\d{1,2}级|业余[1-9一二三四五六七八九]段)$/i;

/** True when ``text`` is an XML document (an OpenGotha file): the page never reads it, the
 * server's one reader does (``POST /api/events/{id}/players/opengotha``). */
export function isXml(text) {
  return /^\uFEFF?\s*<(\?xml|Tournament[\s>])/.test(String(text));
}

/**
 * ``text`` → ``[{name, rank?, rating?, club?, team?, extra?}]``. A first line whose cells are known headers is
 * a header row; otherwise each line is a name, optionally followed by a rank, a rating and a
 * club. Throws with the line number when a line has no name.
 */
export function parsePlayers(text) {
  if (/^\s*;\s*(CL|EV|PC|DT|TM)\[/m.test(text)) return egdPlayers(text);
  const lines = String(text).split(/\r?\n/).map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));
  if (!lines.length) return [];
  const sep = separator(lines[0]);
  let columns = null;
  let names = [];
  if (sep) {
    const raw = cells(lines[0], sep);
    const head = raw.map(field);
    if (head.filter(Boolean).length && (head.includes("name") || head.includes("last"))) {
      columns = head;
      names = raw.map((h) => h.trim().replace(/^\uFEFF/, "").slice(0, 40));
    }
  } else {
    const f = field(lines[0]);
    if (f === "name") columns = ["name"];
  }
  const body = columns ? lines.slice(1) : lines;
  const players = [];
  body.forEach((line, i) => {
    const own = separator(line) || sep;
    const row = own ? cells(line, own) : [line];
    if (!columns && row.length === 1) {
      // "刘洋 2段", "Lee Sedol 9p": a rank after the name, separated by a space
      const m = /^(.+?)\s+(\S+)$/.exec(row[0]);
      if (m && RANK.test(m[2])) row.splice(0, 1, m[1], m[2]);
    }
    const p = {};
    if (columns) {
      columns.forEach((c, j) => {
        if (c && row[j]) p[c] = row[j];
        // a column the page does not know is kept with the player, never dropped silently
        else if (!c && row[j] && names[j]) { p.extra = p.extra || {}; p.extra[names[j]] = row[j]; }
      });
      if (!p.name && (p.first || p.last)) p.name = [p.last, p.first].filter(Boolean).join(" ");
      delete p.first;
      delete p.last;
    } else {
      // no header: name, then what the cells look like (a rank, a rating, a club)
      p.name = row[0];
      for (const cell of row.slice(1)) {
        if (!cell) continue;
        if (!p.rank && RANK.test(cell)) p.rank = cell.replace(/\s+/g, "");
        else if (p.rating === undefined && /^\d{2,4}$/.test(cell)) p.rating = cell;
        else if (!p.club) p.club = cell;
      }
    }
    if (!p.name) {
      // a refusal with a code, said in the page's language as the server's are (api.js)
      const line = String(i + 1 + (columns ? 1 : 0));
      throw Object.assign(new Error(`line ${line}: no name`), { code: "players-csv-no-name", values: { line } });
    }
    if (p.rating !== undefined && p.rating !== "") {
      const n = Number(p.rating);
      if (Number.isFinite(n)) p.rating = n; else delete p.rating;
    } else delete p.rating;
    players.push(p);
  });
  return players;
}

/** The players of an EGD results file (``.h9``): place, surname, first name (spaces as ``_``),
 * rank, country, club, then the games. */
export function egdPlayers(text) {
  const out = [];
  for (const line of String(text).split(/\r?\n/)) {
    const m = /^\s*\d+\s+(\S+)\s+(\S+)\s+(\d{1,2}[kdp])\s+(\S{2})\s+(\S+)/i.exec(line);
    if (!m) continue;
    const p = { name: `${m[1]} ${m[2]}`.replace(/_/g, " "), rank: m[3].toLowerCase() };
    if (m[5] && m[5] !== "-") p.club = m[5];
    out.push(p);
  }
  return out;
}
