// The public broadcast's pages (/broadcast...): server-rendered; this only
// follows the broadcast's events and reads the page again when a game it
// shows moved (through the HTTP cache in front, when there is one).
const main = document.querySelector('main[data-games]');
const shown = new Set((main ? main.dataset.games : '').split(' ').filter(Boolean));
const events = new EventSource('/broadcast/events');
let reloading = false;
function reload() {
  if (reloading) return;
  reloading = true;
  // Several moves in a burst: one read of the page.
  setTimeout(() => location.reload(), 500);
}
events.addEventListener('board', (e) => {
  const game = JSON.parse(e.data).game;
  if (shown.has('*') || shown.has(game)) reload();
});
events.addEventListener('reload', reload);
// Whether the page follows now (for tests and styles: body[data-live]).
events.addEventListener('open', () => { document.body.dataset.live = '1'; });
events.addEventListener('error', () => { document.body.dataset.live = '0'; });
