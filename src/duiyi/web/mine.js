// "My games": the games this browser created or joined, kept in its localStorage (the links
// with their tokens never leave the browser).
const KEY = "duiyi.myGames";
const MAX = 30;

/** The games remembered, newest first. */
export function myGames() {
  try {
    const list = JSON.parse(localStorage.getItem(KEY) || "[]");
    return Array.isArray(list) ? list : [];
  } catch (_e) {
    return [];
  }
}

/** Remember a game (``{id, game, seat, token, names, created}``); the same seat is kept once. */
export function remember(entry) {
  const others = myGames().filter((g) => !(g.id === entry.id && g.seat === entry.seat));
  const list = [{ ...entry, at: Date.now() }, ...others].slice(0, MAX);
  try { localStorage.setItem(KEY, JSON.stringify(list)); } catch (_e) { /* private mode: no list */ }
}
