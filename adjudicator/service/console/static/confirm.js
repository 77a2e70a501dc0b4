// A choice that loses a game, voids an event or cancels a game is confirmed
// twice, the second time naming what it does (issue 29): on the floor
// arbiter's page and on the chief arbiter's decision buttons alike. The
// consequence is read from what the engine says (a dry run's rulings and
// result, or an option's sanctions), not guessed from the button.
import { el } from './live.js';
import { w, pick, partyWord } from './floor-words.js';
import { lang } from './i18n.js';
import { resultWords } from './words.js';

const LOSING = ['LOSS', 'BOTH_LOSE'];

function against(party) {
  if (party === 'BOTH') return w('bothLose');
  return `${partyWord(party)}${pick('', ' ')}${w('loses')}`;
}

// What deciding `option` of the pending `ruling` does, or null when it
// neither loses a game nor voids or cancels one.
export function decisionConsequence(ruling, option) {
  const sanctions = option.sanctions || [];
  if (!sanctions.some((s) => LOSING.includes(s))) return null;
  const party = sanctions.includes('BOTH_LOSE') ? 'BOTH' : (option.against || ruling.against);
  return `${against(party)} (${ruling.clause})`;
}

// What recording `kind` does, judged by its dry run `preview`
// (AppendEventsResponse), given the game's result before; null when nothing
// grave.
export function appendConsequence(kind, preview, resultBefore) {
  if (kind === 'gameCancelled') return w('cancelGame');
  if (kind === 'eventVoided') return w('voidEvent');
  const parts = [];
  for (const e of preview?.events || []) {
    for (const r of e.rulings || []) {
      if ((r.sanctions || []).some((s) => LOSING.includes(s)) && !r.pending) {
        parts.push(`${against((r.sanctions || []).includes('BOTH_LOSE') ? 'BOTH' : r.against)} (${r.clause})`);
      }
    }
  }
  const result = preview?.result;
  if (result && JSON.stringify(result) !== JSON.stringify(resultBefore || null)) {
    parts.push(`${w('gameOver')}${pick('：', ': ')}${resultWords(result, lang())} (${result.clause || ''})`);
  }
  return parts.length ? parts.join(' · ') : null;
}

// Shows the second confirmation in `container`, naming `consequence`, and
// resolves to whether it was confirmed. No window.confirm: it is in the page,
// readable, and takes the language of the page.
export function confirmTwice(container, consequence) {
  return new Promise((resolve) => {
    const box = el('div', { class: 'second-confirm', role: 'alertdialog', 'aria-labelledby': 'second-confirm-text' });
    const done = (ok) => { box.remove(); resolve(ok); };
    box.append(
      el('p', { id: 'second-confirm-text', class: 'consequence' }, consequence),
      el('div', { class: 'options' },
        el('button', { type: 'button', class: 'confirm-again danger', onclick: () => done(true) }, w('confirmAgain')),
        el('button', { type: 'button', class: 'cancel-again', onclick: () => done(false) }, w('cancel'))));
    container.append(box);
    box.querySelector('button.confirm-again').focus();
  });
}
