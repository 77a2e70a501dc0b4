// An error page is rendered by the server (error_page.h) in both languages,
// the request's Accept-Language showing one; this shows the language the
// visitor chose (i18n.js), with the header's switch, as the webhooks page does.
import { applyLang, lang, langSwitch } from './i18n.js';

function titled() {
  const h1 = document.querySelector(`header h1 [lang="${lang() === 'zh' ? 'zh' : 'en'}"]`);
  if (h1) document.title = h1.textContent;
}

applyLang();
titled();
document.querySelector('header').append(langSwitch(() => { applyLang(); titled(); }));
document.body.dataset.loaded = '1';
