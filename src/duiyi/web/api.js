// The server's public API: fetch with RFC 9457 problems turned into errors.
import { t, article, getLang } from "./i18n.js";

export class Problem extends Error {
  constructor(body, status, retryAfter = 0) {
    super(body.detail || body.title || `HTTP ${status}`);
    this.body = body;
    this.status = status;
    this.retryAfter = retryAfter; // seconds the server asked to wait (Retry-After), 0: none
  }
  /** The refusal in the page's language with the rule article when there is one (once: a
   * message may name it). A problem with a ``code`` the page knows (``err.<code>`` with the
   * problem's ``values``, a colour said as a word) is said in the page's words, else the
   * server's English detail. */
  get text() {
    const key = this.body.code ? `err.${this.body.code}` : null;
    const values = Object.fromEntries(Object.entries(this.body.values || {}).map(([k, v]) => [k, t(String(v))]));
    const said = key ? t(key, values) : key;
    const message = said && said !== key ? said : this.message;
    const a = article(this.body.article);
    if (!a || message.includes(a)) return message;
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
  const text = err instanceof Problem ? err.text : String(err && err.message ? err.message : err);
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
