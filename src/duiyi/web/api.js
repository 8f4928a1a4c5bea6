// The server's public API: fetch with RFC 9457 problems turned into errors.
export class Problem extends Error {
  constructor(body, status) {
    super(body.detail || body.title || `HTTP ${status}`);
    this.body = body;
    this.status = status;
  }
  /** The message with the rule article when there is one. */
  get text() {
    return this.body.article ? `${this.message} (${this.body.article})` : this.message;
  }
}

export async function api(method, path, { body, token, csv } = {}) {
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  let payload;
  if (csv !== undefined) {
    headers["Content-Type"] = "text/csv";
    payload = csv;
  } else if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    payload = JSON.stringify(body);
  }
  const r = await fetch(path, { method, headers, body: payload });
  const type = r.headers.get("content-type") || "";
  const data = type.includes("json") ? await r.json() : await r.text();
  if (!r.ok) throw new Problem(typeof data === "object" ? data : { detail: data }, r.status);
  return data;
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

export function showError(err) {
  const banner = document.getElementById("banner");
  const text = err instanceof Problem ? err.text : String(err && err.message ? err.message : err);
  banner.textContent = text;
  banner.className = "error";
  banner.dataset.testid = "error";
  clearTimeout(showError.timer);
  showError.timer = setTimeout(() => { banner.textContent = ""; banner.className = ""; }, 6000);
}

export function link(href) {
  return new URL(href, location.href).href;
}
