// Secrets a page is given in its address: a seat's token (#/game/ID?token=…), the organiser's
// key (#/desk/ID?key=…) and the arbiter's (?arbiter=…). Each is read once, kept in this tab's
// sessionStorage and taken out of the address (history.replaceState, which also keeps it out
// of the history), so that an address copied to invite spectators, a bookmark or a screenshot
// never hands over a seat or a desk. A reload in the same tab keeps working; another tab, or
// the browser opened again, needs the link again (docs/decisions.md, "Keys in the browser").

function name(scope, id, which) { return `duiyi.${scope}.${which}.${id}`; }

// where an older page kept an event's keys (localStorage): moved once into the tab's session
const LEGACY = { key: "duiyi.org.", arbiter: "duiyi.arb." };

function session() {
  try { return window.sessionStorage; } catch (_e) { return null; } // storage switched off
}

/** The ``which`` secret ("token", "key", "arbiter") this tab keeps for ``scope`` ("game" or
 * "event") ``id``, or null. */
export function secret(scope, id, which) {
  const s = session();
  const kept = s ? s.getItem(name(scope, id, which)) : null;
  if (kept || scope !== "event" || !LEGACY[which]) return kept;
  let old = null;
  try {
    old = localStorage.getItem(LEGACY[which] + id);
    if (old !== null) localStorage.removeItem(LEGACY[which] + id);
  } catch (_e) { /* no storage */ }
  if (old && s) s.setItem(name(scope, id, which), old);
  return old || null;
}

/** Keep ``value`` as this tab's ``which`` secret of ``scope`` ``id``. */
export function keepSecret(scope, id, which, value) {
  const s = session();
  if (s && value) s.setItem(name(scope, id, which), value);
}

/** Forget this tab's ``which`` secret of ``scope`` ``id`` (a key the server refused). */
export function forgetSecret(scope, id, which) {
  const s = session();
  if (s) s.removeItem(name(scope, id, which));
}

/** The secrets ``names`` of the page of ``scope`` ``id``: those in the address ``params``
 * are kept for the tab and removed from the address at once (the other parameters stay);
 * the others come from what the tab kept. Returns ``{name: value or null}``. */
export function takeSecrets(scope, id, params, names) {
  const out = {};
  let moved = false;
  for (const which of names) {
    const given = params.get(which);
    if (given) {
      keepSecret(scope, id, which, given);
      out[which] = given;
    } else {
      out[which] = secret(scope, id, which);
    }
    if (params.has(which)) { params.delete(which); moved = true; }
  }
  if (moved) {
    const h = location.hash.slice(1);
    const q = h.indexOf("?");
    const rest = params.toString();
    history.replaceState(history.state, "", `#${q < 0 ? h : h.slice(0, q)}${rest ? `?${rest}` : ""}`);
  }
  return out;
}
