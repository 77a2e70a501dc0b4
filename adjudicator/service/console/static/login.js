import { applyLang, langSwitch } from './i18n.js';

applyLang();
document.getElementById('tools').append(langSwitch(() => {}));
if (new URLSearchParams(location.search).get('failed') === '1') {
  document.getElementById('failed').hidden = false;
}
