// The games duiyi plays as the server's registry describes them for the pages
// (GET /api/game-types, duiyi.games.ui): a page asks a game's description what differs (its
// board's letters and star points, its forms' presets and settings, whether it has a counting
// phase, the book's words) and never compares the game's name.
import { api } from "./api.js";

let described = {};

/** Read the descriptions once, before the first page is drawn (app.js). */
export async function loadGames() {
  described = await api("GET", "/api/game-types");
}

/** Every game, in the registry's order (Go first). */
export function games() {
  return Object.values(described);
}

/** The description of the game named ``name`` (a stored game's or an event's ``game``). */
export function gameType(name) {
  const found = described[name];
  if (!found) throw new Error(`unknown game ${name}`);
  return found;
}
