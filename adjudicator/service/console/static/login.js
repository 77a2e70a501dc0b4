import { applyLang, langSwitch } from './i18n.js';

applyLang();
document.getElementById('tools').append(langSwitch(() => {}));
const query = new URLSearchParams(location.search);
if (query.get('failed') === '1') {
  document.getElementById('failed').hidden = false;
}
// The page asked for before signing in: the server goes back to it (and
// checks it is one of this console's own).
document.getElementById('next').value = query.get('next') || '';
