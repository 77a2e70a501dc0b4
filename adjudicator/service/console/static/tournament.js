// The tournament page is rendered by the server (it prints without
// scripts); this keeps it live: when a game it shows changes, it is read
// again (at most once a second).
import { follow } from './live.js';
import { lang, applyLang, langSwitch } from './i18n.js';

// On screen one language, the one chosen (tournament.css); print keeps both.
document.documentElement.classList.add('one-lang');
applyLang();
let up = false;
const status = document.getElementById('status');
const showStatus = () => {
  const words = up ? ['实时', 'live'] : ['连接中断', 'reconnecting'];
  status.textContent = words[lang() === 'zh' ? 0 : 1];
  status.className = up ? 'status up' : 'status down';
};
document.querySelector('header').append(langSwitch(() => { if (status.textContent) showStatus(); }));

const main = document.querySelector('main.tournament');
const games = new Set([...document.querySelectorAll('a[href^="/games/"]')]
  .map((a) => decodeURIComponent(a.getAttribute('href').split('/')[2])));
let pending = null;
follow(main.dataset.feed, (g) => {
  if (!games.has(g.gameId) || pending) return;
  pending = setTimeout(() => location.reload(), 1000);
}, () => location.reload(), (isUp) => {
  up = isUp;
  showStatus();
  document.body.dataset.live = up ? '1' : '0';
});
document.body.dataset.loaded = '1';
