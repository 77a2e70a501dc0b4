// The webhooks page is rendered by the server (webhooks_page.h); this shows
// it in the language chosen, with the header's switch, as the tournament
// page does (tournament.css: both languages in print and without scripts).
import { applyLang, langSwitch } from './i18n.js';

document.documentElement.classList.add('one-lang');
applyLang();
document.querySelector('header').append(langSwitch(() => applyLang()));
document.body.dataset.loaded = '1';
