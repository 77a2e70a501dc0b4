// The tournament page is rendered by the server (it prints without
// scripts); this keeps it live: when a game it shows changes, it is read
// again (at most once a second).
import { follow } from './live.js';

const main = document.querySelector('main.tournament');
const games = new Set([...document.querySelectorAll('a[href^="/games/"]')]
  .map((a) => decodeURIComponent(a.getAttribute('href').split('/')[2])));
let pending = null;
const status = document.getElementById('status');
follow(main.dataset.feed, (g) => {
  if (!games.has(g.gameId) || pending) return;
  pending = setTimeout(() => location.reload(), 1000);
}, () => location.reload(), (up) => {
  status.textContent = up ? '实时 live' : '连接中断 reconnecting';
  status.className = up ? 'status up' : 'status down';
  document.body.dataset.live = up ? '1' : '0';
});
document.body.dataset.loaded = '1';
