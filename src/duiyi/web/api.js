// The server's public API: fetch with RFC 9457 problems turned into errors.
import { t, article, getLang, has, colon } from "./i18n.js";

/** A request's field as the server names it (``0.rating``, ``online.hints``) in the page's
 * words: a list's item counted from 1, each name as the page says it (issue 32).
 * @example fieldName("0.rating") // "item 1's rating"; on a Chinese page 第1项的等级分 */
export function fieldName(path) {
  const parts = String(path).split(".").filter(Boolean).map((p) => (/^\d+$/.test(p)
    ? t("field.item", { n: String(Number(p) + 1) })
    : has(`field.${p}`) ? t(`field.${p}`) : p));
  if (!parts.length) return t("field.body"); // the whole body (none sent, or not an object)
  return parts.join(getLang() === "zh" ? "的" : "'s ");
}

/** A refusal's value as the page says it: a colour as a word (黑方), a field or a setting
 * by its words, a table by its name, an article in the page's language; names, points and
 * numbers as sent. */
function said(key, value) {
  const v = String(value);
  if (v === "black" || v === "white") return t(v);
  if (key === "field" || key === "option") return fieldName(v);
  if (key === "table" && has(`table.${v}`)) return t(`table.${v}`);
  if (key === "article") return article(v);
  // an arbiter's decisions by the room's words (dec.<decision>): 复盘续赛
  if (key === "decision" && has(`dec.${v}`)) return t(`dec.${v}`);
  if (key === "allowed") return v.split(", ").map((d) => (has(`dec.${d}`) ? t(`dec.${d}`) : d)).join(getLang() === "zh" ? "、" : ", ");
  return v;
}

export class Problem extends Error {
  constructor(body, status, retryAfter = 0) {
    super(body.detail || body.title || `HTTP ${status}`);
    this.body = body;
    this.status = status;
    this.retryAfter = retryAfter; // seconds the server asked to wait (Retry-After), 0: none
  }
  /** The refusal in the page's language with the rule article when there is one (once: a
   * message may name it). A problem with a ``code`` the page knows (``err.<code>`` with the
   * problem's ``values`` said in the page's words) is said in the page's words, else the
   * server's English detail; a field the words do not name leads them (第1项的姓名：…). */
  get text() {
    const code = this.body.code;
    const raw = this.body.values || {};
    const values = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, said(k, v)]));
    let message = this.message;
    if (code && has(`err.${code}`)) {
      message = t(`err.${code}`, values);
      // the words before their values: do they name the field themselves?
      if (raw.field && !t(`err.${code}`).includes("{field}")) message = `${values.field}${colon()}${message}`;
    }
    const a = article(this.body.article);
    // the server's English detail may name the article in its words (… (Go §21.4)): once
    if (!a || message.includes(a) || message.includes(this.body.article)) return message;
    return getLang() === "zh" ? `${message}（${a}）` : `${message} (${a})`;
  }
}

// A 503 says the server cannot reach its store now (PostgreSQL restarting) and changed nothing:
// the methods a client may send again (RFC 9110 §9.2.2) are, RETRIES times at most, after the
// Retry-After the server names and a doubling backoff, the page saying "reconnecting"
// meanwhile. A POST is its caller's to send again (a move carries its action_id: game.js).
const IDEMPOTENT = new Set(["GET", "HEAD", "PUT", "DELETE"]);
const RETRIES = 5;
const LONGEST_WAIT_MS = 8000;

/** ``method path`` answered as JSON (or text); a refusal throws a Problem (see above for 503). */
export async function api(method, path, options = {}) {
  let backoff = 500;
  for (let attempt = 0; ; attempt++) {
    try {
      const data = await request(method, path, options);
      if (attempt) clearNotice("warn");
      return data;
    } catch (err) {
      const again = err instanceof Problem && err.status === 503 && IDEMPOTENT.has(method);
      if (!again || attempt >= RETRIES) {
        if (attempt) clearNotice("warn");
        throw err;
      }
      notice(t("reconnecting"), "warn", 0);
      const wait = Math.min(Math.max(backoff, err.retryAfter * 1000), LONGEST_WAIT_MS);
      await new Promise((resolve) => setTimeout(resolve, wait));
      backoff *= 2;
    }
  }
}

async function request(method, path, { body, token, csv, xml } = {}) {
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  let payload;
  if (csv !== undefined) {
    headers["Content-Type"] = "text/csv";
    payload = csv;
  } else if (xml !== undefined) {
    // a file sent as it is (a Blob keeps its bytes and so the encoding its XML declaration names)
    headers["Content-Type"] = "application/xml";
    payload = xml;
  } else if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    payload = JSON.stringify(body);
  }
  const r = await fetch(path, { method, headers, body: payload });
  const type = r.headers.get("content-type") || "";
  const data = type.includes("json") ? await r.json() : await r.text();
  if (!r.ok) {
    const retryAfter = Number(r.headers.get("retry-after")) || 0;
    throw new Problem(typeof data === "object" ? data : { detail: data }, r.status, retryAfter);
  }
  return data;
}

/**
 * A fresh id for one user action: the server applies an action at most once per id, so a
 * retry sends the same one. ``crypto.randomUUID`` needs a secure context (https or localhost);
 * on plain http elsewhere 128 random bits from ``getRandomValues`` do the same.
 */
export function newActionId() {
  const c = globalThis.crypto;
  if (c && typeof c.randomUUID === "function") return c.randomUUID();
  const bytes = new Uint8Array(16);
  c.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Parameters of the hash route: ``#/game/ID?token=...``. */
export function hashParams() {
  const h = location.hash.slice(1);
  const q = h.indexOf("?");
  const path = (q < 0 ? h : h.slice(0, q)).split("/").filter(Boolean);
  const params = new URLSearchParams(q < 0 ? "" : h.slice(q + 1));
  return { path, params };
}

export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (k === "text") e.textContent = v;
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

/**
 * An error as a notice floating over the page (it never pushes the board down): it clears
 * itself after a few seconds, on the next successful action and on leaving the page.
 */
export function showError(err) {
  // a page's own refusal with a code (a pasted line without a name) is said as the server's
  const coded = err && !(err instanceof Problem) && err.code
    ? new Problem({ detail: err.message, code: err.code, values: err.values }, 0) : err;
  const text = coded instanceof Problem ? coded.text : String(err && err.message ? err.message : err);
  notice(text, "error", 6000);
}

/** A floating notice: ``kind`` "error", "warn" or "ok"; ``ms`` 0 keeps it until cleared. */
export function notice(text, kind = "ok", ms = 3000) {
  const banner = document.getElementById("banner");
  banner.replaceChildren(el("span", { class: "text" }, text),
    el("button", { type: "button", class: "small close", "aria-label": "×", onclick: () => clearNotice() }, "×"));
  banner.className = kind;
  banner.dataset.testid = kind === "error" ? "error" : "notice";
  clearTimeout(notice.timer);
  if (ms) notice.timer = setTimeout(() => clearNotice(kind), ms);
}

/** Clear the notice (only one of ``kind`` when given). */
export function clearNotice(kind) {
  const banner = document.getElementById("banner");
  if (kind && banner.className !== kind) return;
  banner.replaceChildren();
  banner.className = "";
  delete banner.dataset.testid;
}

/** A button that copies ``text`` to the clipboard (and says so). */
export function copyButton(text, label = "Copy", done = "Copied", testid = undefined) {
  const b = el("button", { type: "button", class: "small copy", "data-testid": testid, "aria-label": `${label}: ${text}` }, label);
  b.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(text);
    } catch (_e) {
      // without the clipboard API (plain http): select a hidden field and copy
      const area = el("textarea", { "aria-hidden": "true", class: "offscreen" });
      area.value = text;
      document.body.append(area);
      area.select();
      try { document.execCommand("copy"); } catch (_e2) { /* nothing more to try */ }
      area.remove();
    }
    b.textContent = done;
    b.dataset.copied = "yes";
    setTimeout(() => { b.textContent = label; }, 2000);
  });
  return b;
}

export function link(href) {
  return new URL(href, location.href).href;
}
