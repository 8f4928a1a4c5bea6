// The desk's tabs (issue 20). Each tab is a module that calls addTab once when imported; desk.js
// imports the modules, draws the tab bar and the active tab. A tab:
//   { id: "players",            // the address: #/desk/EVENT/players
//     label: "desk.tab.players", // an i18n key (both languages)
//     order: 10,                 // place in the bar
//     visible: (ctx) => true,    // optional: shown for this event?
//     render: async (ctx) => Node }
// ctx (see desk.js): id, key, arbiter, ev (GET /api/events/{id}), e (= ev.event), desk (GET
// .../desk), params (the address's query), state (kept while the desk is open), change(method,
// path, opts) (an organiser request; redraws after it, also when refused), redraw(), go(tab, query).
export const TABS = [];

/** Add a tab to the desk (see above). */
export function addTab(tab) {
  const i = TABS.findIndex((x) => x.id === tab.id);
  if (i >= 0) TABS.splice(i, 1);
  TABS.push({ order: 100, visible: () => true, ...tab });
  TABS.sort((a, b) => a.order - b.order);
}
