// The board as SVG, row 1 at the bottom; its column letters and star points are the game's
// (games.js: Go's GTP letters A-T without I, Gomoku's a-o). The board draws what the server
// says; it knows no rules.
import { gameType } from "./games.js";

const NS = "http://www.w3.org/2000/svg";
const CELL = 40;
const MARGIN = 52;

export function letters(kind) { return gameType(kind).letters; }

export function pointName(kind, col, row) { return letters(kind)[col] + String(row); }

/** (col 0-based, row 1-based) of a point name, or null. */
export function parsePoint(kind, name) {
  if (!name) return null;
  const m = /^([A-Za-z])(\d{1,2})$/.exec(String(name).trim());
  if (!m) return null;
  const L = letters(kind); // one case per game: "d4" is Go's D4, "H8" Gomoku's h8
  const col = Math.max(L.indexOf(m[1].toUpperCase()), L.indexOf(m[1].toLowerCase()));
  if (col < 0) return null;
  return { col, row: Number(m[2]) };
}

/** (col, row) of the game's star points on a board of ``size``. */
function starPoints(kind, size) {
  return (gameType(kind).star_points[String(size)] || []).map((p) => parsePoint(kind, p)).filter(Boolean);
}

function svg(tag, attrs = {}, text) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

/**
 * Draw a board. ``view``: {kind, size, stones: {black: [...], white: [...]}, last, numbers:
 * {point: n}, dead: Set, proposal: Set, territory: {black: [], white: []}, forbidden: {p: foul},
 * candidates: [...], picks: [{point, color, label}], five: [...] (the winning line), ghost:
 * "black"|"white" (the hover preview's colour), pending: {point, color, forbidden} (a move
 * waiting for its confirmation)}. ``onPoint(name)`` on click.
 */
export class BoardView {
  constructor(container, onPoint, label) {
    this.container = container;
    this.onPoint = onPoint;
    this.cursor = null;
    this.svg = svg("svg", { class: "board", role: "application", "aria-roledescription": "board", tabindex: "0", "aria-label": label });
    this.svg.addEventListener("click", (ev) => {
      const target = ev.target.closest("[data-point]");
      if (target) this.onPoint(target.dataset.point);
    });
    this.svg.addEventListener("keydown", (ev) => this.key(ev));
    // the hover preview: a faint stone of the player's colour under the mouse
    this.svg.addEventListener("pointerover", (ev) => {
      if (ev.pointerType && ev.pointerType !== "mouse") return;
      const target = ev.target.closest("[data-point]");
      this.hover(target ? target.dataset.point : null);
    });
    this.svg.addEventListener("pointerleave", () => this.hover(null));
    container.append(this.svg);
  }

  key(ev) {
    const v = this.view;
    if (!v) return;
    const size = v.size;
    let c = this.cursor || { col: Math.floor(size / 2), row: Math.ceil(size / 2) };
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
    if (moves[ev.key]) {
      const [dc, dr] = moves[ev.key];
      c = { col: Math.min(size - 1, Math.max(0, c.col + dc)), row: Math.min(size, Math.max(1, c.row + dr)) };
      this.cursor = c;
      ev.preventDefault();
      this.draw(v);
    } else if ((ev.key === "Enter" || ev.key === " ") && this.cursor) {
      ev.preventDefault();
      this.onPoint(pointName(v.kind, c.col, c.row));
    }
  }

  hover(name) {
    this.hoverName = name;
    const ghost = this.ghostEl;
    const v = this.view;
    if (!ghost || !v) return;
    const q = name && v.ghost && !this.occupied.has(name) && !(v.pending && v.pending.point === name) ? parsePoint(v.kind, name) : null;
    if (!q) {
      ghost.setAttribute("visibility", "hidden");
      delete ghost.dataset.ghost;
      return;
    }
    const [x, y] = this.xy(q.col, q.row);
    ghost.setAttribute("cx", x);
    ghost.setAttribute("cy", y);
    ghost.setAttribute("visibility", "visible");
    ghost.dataset.ghost = name;
  }

  xy(col, row) {
    return [MARGIN + col * CELL, MARGIN + (this.view.size - row) * CELL];
  }

  draw(view) {
    this.view = view;
    const { kind, size } = view;
    const s = this.svg;
    const full = MARGIN * 2 + (size - 1) * CELL;
    s.setAttribute("viewBox", `0 0 ${full} ${full}`);
    s.replaceChildren();
    s.append(svg("rect", { x: 0, y: 0, width: full, height: full, class: "wood" }));
    const L = letters(kind);
    const lines = svg("g", { class: "lines" });
    for (let i = 0; i < size; i++) {
      const [x0, y0] = this.xy(i, size);
      const [x1, y1] = this.xy(i, 1);
      lines.append(svg("line", { x1: x0, y1: y0, x2: x1, y2: y1 }));
      const [a0, b0] = this.xy(0, i + 1);
      const [a1, b1] = this.xy(size - 1, i + 1);
      lines.append(svg("line", { x1: a0, y1: b0, x2: a1, y2: b1 }));
    }
    s.append(lines);
    const labels = svg("g", { class: "coords", "aria-hidden": "true" });
    for (let i = 0; i < size; i++) {
      const [x] = this.xy(i, 1);
      labels.append(svg("text", { x, y: 22 }, L[i]));
      labels.append(svg("text", { x, y: full - 10 }, L[i]));
      const [, y] = this.xy(0, i + 1);
      labels.append(svg("text", { x: 16, y: y + 5 }, String(i + 1)));
      labels.append(svg("text", { x: full - 16, y: y + 5 }, String(i + 1)));
    }
    s.append(labels);
    for (const { col, row } of starPoints(kind, size)) {
      const [x, y] = this.xy(col, row);
      s.append(svg("circle", { cx: x, cy: y, r: 4, class: "star" }));
    }
    const territory = view.territory || {};
    for (const color of ["black", "white"]) {
      for (const p of territory[color] || []) {
        const q = parsePoint(kind, p);
        if (!q) continue;
        const [x, y] = this.xy(q.col, q.row);
        s.append(svg("rect", { x: x - 5, y: y - 5, width: 10, height: 10, class: `territory ${color}` }));
      }
    }
    this.occupied = new Set([...(view.stones.black || []), ...(view.stones.white || [])]);
    const dead = view.dead || new Set();
    const proposal = view.proposal || new Set();
    const stonesLayer = svg("g", { class: "stones" });
    for (const color of ["black", "white"]) {
      for (const p of view.stones[color] || []) {
        const q = parsePoint(kind, p);
        if (!q) continue;
        const [x, y] = this.xy(q.col, q.row);
        const cls = `stone ${color}${dead.has(p) ? " dead" : ""}`;
        stonesLayer.append(svg("circle", { cx: x, cy: y, r: CELL * 0.47, class: cls, "data-stone": p, "data-color": color }));
        const n = view.numbers && view.numbers[p];
        if (n) stonesLayer.append(svg("text", { x, y: y + 5, class: `num on-${color}` }, String(n)));
        if (dead.has(p)) {
          stonesLayer.append(svg("path", { d: `M${x - 9} ${y - 9}L${x + 9} ${y + 9}M${x + 9} ${y - 9}L${x - 9} ${y + 9}`, class: "dead-mark" }));
        } else if (proposal.has(p)) {
          stonesLayer.append(svg("circle", { cx: x, cy: y, r: CELL * 0.3, class: "proposal-mark", "data-proposal": p }));
        }
      }
    }
    s.append(stonesLayer);
    // the count against the computer: a square where the engine and duiyi judge differently
    for (const [p, who] of Object.entries(view.disagree || {})) {
      const q = parsePoint(kind, p);
      if (!q) continue;
      const [x, y] = this.xy(q.col, q.row);
      const box = svg("rect", { x: x - CELL * 0.5 + 1, y: y - CELL * 0.5 + 1, width: CELL - 2, height: CELL - 2, class: `disagree ${who}`, "data-disagree": p, "data-thinks-dead": who });
      s.append(box);
    }
    if (view.last && view.last !== "pass") {
      const q = parsePoint(kind, view.last);
      if (q) {
        const [x, y] = this.xy(q.col, q.row);
        const on = (view.stones.black || []).includes(view.last) ? "black" : "white";
        if (view.numbers && view.numbers[view.last]) {
          // a numbered stone: a red ring around the stone keeps its number readable
          s.append(svg("circle", { cx: x, cy: y, r: CELL * 0.47, class: "last ring", "data-last": view.last }));
        } else {
          s.append(svg("circle", { cx: x, cy: y, r: CELL * 0.16, class: `last on-${on}`, "data-last": view.last }));
        }
      }
    }
    if (view.five && view.five.length >= 5) {
      // the winning five: a line through it and a ring on each of its stones
      const ends = [view.five[0], view.five[view.five.length - 1]].map((p) => parsePoint(kind, p));
      if (ends[0] && ends[1]) {
        const [x0, y0] = this.xy(ends[0].col, ends[0].row);
        const [x1, y1] = this.xy(ends[1].col, ends[1].row);
        s.append(svg("line", { x1: x0, y1: y0, x2: x1, y2: y1, class: "five-line" }));
      }
      for (const p of view.five) {
        const q = parsePoint(kind, p);
        if (!q) continue;
        const [x, y] = this.xy(q.col, q.row);
        s.append(svg("circle", { cx: x, cy: y, r: CELL * 0.47, class: "five", "data-five": p }));
      }
    }
    for (const [p, foul] of Object.entries(view.forbidden || {})) {
      const q = parsePoint(kind, p);
      if (!q) continue;
      const [x, y] = this.xy(q.col, q.row);
      const g = svg("g", { class: "forbidden", "data-forbidden": p });
      g.append(svg("title", {}, foul));
      g.append(svg("path", { d: `M${x - 8} ${y - 8}L${x + 8} ${y + 8}M${x + 8} ${y - 8}L${x - 8} ${y + 8}` }));
      s.append(g);
    }
    for (const p of view.candidates || []) {
      const q = parsePoint(kind, p);
      if (!q) continue;
      const [x, y] = this.xy(q.col, q.row);
      s.append(svg("circle", { cx: x, cy: y, r: CELL * 0.4, class: "candidate", "data-candidate": p }));
    }
    for (const pick of view.picks || []) {
      const q = parsePoint(kind, pick.point);
      if (!q) continue;
      const [x, y] = this.xy(q.col, q.row);
      s.append(svg("circle", { cx: x, cy: y, r: CELL * 0.45, class: `pick ${pick.color}`, "data-pick": pick.point }));
      if (pick.label) s.append(svg("text", { x, y: y + 5, class: `num on-${pick.color}` }, pick.label));
    }
    if (this.cursor && this.cursor.col < size && this.cursor.row <= size) {
      const [x, y] = this.xy(this.cursor.col, this.cursor.row);
      s.append(svg("rect", { x: x - CELL / 2 + 2, y: y - CELL / 2 + 2, width: CELL - 4, height: CELL - 4, class: "cursor" }));
    }
    if (view.pending) {
      const q = parsePoint(kind, view.pending.point);
      if (q) {
        const [x, y] = this.xy(q.col, q.row);
        s.append(svg("circle", { cx: x, cy: y, r: CELL * 0.45, class: `pending ${view.pending.color}${view.pending.forbidden ? " foul" : ""}`, "data-pending": view.pending.point }));
      }
    }
    this.ghostEl = view.ghost ? svg("circle", { cx: 0, cy: 0, r: CELL * 0.45, class: `ghost ${view.ghost}`, visibility: "hidden" }) : null;
    if (this.ghostEl) s.append(this.ghostEl);
    const targets = svg("g", { class: "targets" });
    for (let c = 0; c < size; c++) {
      for (let r = 1; r <= size; r++) {
        const [x, y] = this.xy(c, r);
        const name = pointName(kind, c, r);
        targets.append(svg("rect", { x: x - CELL / 2, y: y - CELL / 2, width: CELL, height: CELL, "data-point": name, class: "target" }));
      }
    }
    s.append(targets);
    if (this.hoverName) this.hover(this.hoverName);
  }
}
