// The chief arbiter's "start round" on the hall: a tournament and a round,
// then a confirmation naming what it does, then POST
// /api/tournaments/{id}/rounds/{n}/start (StartRound: every board's game
// created and attached, once). Shown to a CHIEF_ARBITER (or on an open
// server) only; the server refuses anyone else all the same.
import { session, post, el, onPlacements } from './live.js';
import { lang } from './i18n.js';

const say = (zh, en) => (lang() === 'en' ? en : zh);

async function main() {
  const box = document.getElementById('start-round');
  if (!box) return;
  const s = await session();
  if (s.secured && s.role !== 'CHIEF_ARBITER') return;
  const tournament = el('input', { id: 'start-tournament', required: true, size: 12, autocomplete: 'off', list: 'start-tournaments' });
  const round = el('input', { id: 'start-round-no', type: 'number', min: 1, required: true, size: 3 });
  // The tournaments whose games the hall shows, offered as the id is typed;
  // a known one's next round (after the last it has games in) fills an empty round.
  const known = el('datalist', { id: 'start-tournaments' });
  const next = new Map();
  onPlacements((placements) => {
    next.clear();
    const titles = new Map();
    for (const p of Object.values(placements)) {
      if (!p.tournament) continue;
      next.set(p.tournament, Math.max(next.get(p.tournament) || 1, Number(p.round || 0) + 1));
      titles.set(p.tournament, p.title || '');
    }
    known.replaceChildren(...[...titles].sort().map(([id, title]) => el('option', { value: id }, title)));
  });
  tournament.addEventListener('change', () => {
    const n = next.get(tournament.value.trim());
    if (n && !round.value) round.value = String(n);
  });
  const status = el('p', { class: 'start-status', role: 'status', 'aria-live': 'polite' });
  const confirmBox = el('p', { class: 'start-confirm', hidden: true });
  const start = el('button', { type: 'submit', id: 'start-round-button' }, say('开始本轮', 'Start round'));
  const form = el('form', { class: 'start-round' },
    el('label', { for: 'start-tournament' }, say('比赛', 'Tournament'), ' '), tournament, ' ',
    el('label', { for: 'start-round-no' }, say('轮次', 'Round'), ' '), round, ' ', start, known);
  box.replaceChildren(el('h2', {}, say('开始一轮', 'Start a round')), form, confirmBox, status);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const id = tournament.value.trim(), n = Number(round.value);
    if (!id || !(n >= 1)) return;
    // The second step names the consequence before anything is written.
    const yes = el('button', { type: 'button', id: 'start-round-confirm' }, say('确认', 'Confirm'));
    const no = el('button', { type: 'button' }, say('取消', 'Cancel'));
    confirmBox.replaceChildren(
      say(`为“${id}”第 ${n} 轮的每一台创建对局？`, `Create the game of every board of round ${n} of "${id}"?`),
      ' ', yes, ' ', no);
    confirmBox.hidden = false;
    no.addEventListener('click', () => { confirmBox.hidden = true; });
    yes.addEventListener('click', async () => {
      confirmBox.hidden = true;
      try {
        const r = await post(`/api/tournaments/${encodeURIComponent(id)}/rounds/${n}/start`, {});
        const tables = r.tables || [];
        const made = tables.filter((t) => t.created).length;
        // A team event's board a withdrawal forfeits (28.4) gets no game.
        const lost = tables.filter((t) => t.forfeited).length;
        const there = tables.length - made - lost;
        status.classList.remove('refused');
        status.textContent = say(`第 ${n} 轮：新建 ${made} 局，已有 ${there} 局` +
            (lost ? `，${lost} 台弃权（无对局）` : ''),
          `Round ${n}: ${made} game(s) created, ${there} already there` +
            (lost ? `, ${lost} board(s) lost by default` : ''));
      } catch (err) {
        // A refusal reads as one, not as the next line of news.
        status.classList.add('refused');
        status.textContent = err.message;
      }
    });
  });
}

main();
