// Chinese and English: the visitor's choice, remembered in localStorage.
// Elements with data-i18n="key" show the key's text in the chosen language.
const TEXT = {
  hall: ['对局大厅', 'Hall'],
  games: ['对局', 'Games'],
  showFinished: ['显示已结束对局', 'Show finished games'],
  board: ['台次', 'Board'],
  black: ['黑方', 'Black'],
  white: ['白方', 'White'],
  move: ['手数', 'Move'],
  clocks: ['用时', 'Clocks'],
  warnings: ['警告', 'Warnings'],
  penalty: ['罚子', 'Penalty stones'],
  pending: ['待裁定', 'Pending rulings'],
  result: ['结果', 'Result'],
  inPlay: ['进行中', 'in play'],
  live: ['实时', 'live'],
  offline: ['连接中断', 'reconnecting'],
  timeline: ['事件记录', 'Event timeline'],
  rulings: ['裁定记录', 'Ruling history'],
  decide: ['裁定', 'Decide'],
  decidedBy: ['裁定人', 'Decided by'],
  slip: ['裁定书', 'Slip'],
  audit: ['审计', 'Audit'],
  notYours: ['此项须由裁判长裁定', "This ruling is the chief arbiter's to decide"],
  cannotDecide: ['你的角色不能裁定', 'Your role cannot decide rulings'],
  signIn: ['登录', 'Sign in'],
  signOut: ['退出', 'Sign out'],
  token: ['令牌', 'Token'],
  badToken: ['令牌无效、已撤销或已过期', 'The token is unknown, revoked or expired'],
  open: ['开放模式（本机）', 'open (loopback)'],
  none: ['无', 'none'],
  note: ['备注', 'Note'],
};

const KEY = 'arbiter.lang';

export function lang() {
  const saved = localStorage.getItem(KEY);
  if (saved === 'zh' || saved === 'en') return saved;
  return (navigator.language || '').startsWith('zh') ? 'zh' : 'en';
}

export function t(key) {
  const pair = TEXT[key];
  if (!pair) return key;
  return lang() === 'zh' ? pair[0] : pair[1];
}

export function applyLang(root = document) {
  document.documentElement.lang = lang() === 'zh' ? 'zh-Hans' : 'en';
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
}

// A button that switches the language, remembers it, and re-renders.
export function langSwitch(onChange) {
  const button = document.createElement('button');
  button.id = 'lang';
  button.type = 'button';
  const label = () => { button.textContent = lang() === 'zh' ? 'English' : '中文'; };
  label();
  button.addEventListener('click', () => {
    localStorage.setItem(KEY, lang() === 'zh' ? 'en' : 'zh');
    label();
    applyLang();
    onChange();
  });
  return button;
}
