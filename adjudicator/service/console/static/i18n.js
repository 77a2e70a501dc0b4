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
  clocks: ['剩余时间', 'Time left'],
  warnings: ['警告', 'Warnings'],
  penalty: ['罚子', 'Penalty stones'],
  pending: ['待裁定', 'Pending rulings'],
  result: ['结果', 'Result'],
  inPlay: ['进行中', 'in play'],
  deadStones: ['死子（棋盘上以×标出）', 'Dead stones (crossed on the board)'],
  live: ['实时', 'live'],
  offline: ['连接中断', 'reconnecting'],
  timeline: ['事件记录（{zone}时间）', 'Event timeline (times in {zone})'],
  rulings: ['裁定记录', 'Ruling history'],
  decide: ['裁定', 'Decide'],
  decidedBy: ['裁定人', 'Decided by'],
  slip: ['裁定书', 'Slip'],
  audit: ['审计', 'Audit'],
  notYours: ['此项须由裁判长裁定', "This ruling is the chief arbiter's to decide"],
  cannotDecide: ['你的角色不能裁定', 'Your role cannot decide rulings'],
  signIn: ['登录', 'Sign in'],
  signOut: ['退出', 'Sign out'],
  webhooks: ['推送', 'Webhooks'],
  token: ['令牌', 'Token'],
  badToken: ['令牌无效、已撤销或已过期', 'The token is unknown, revoked or expired'],
  open: ['开放模式（本机）', 'open (loopback)'],
  none: ['无', 'none'],
  note: ['备注', 'Note'],
  round: ['轮次', 'Round'],
  roundN: ['第{n}轮', 'Round {n}'],
  allRounds: ['全部轮次', 'All rounds'],
  wallScreen: ['大屏模式', 'Wall screen'],
  attention: ['提示', 'Needs attention'],
  finishedGames: ['已结束对局', 'Finished games'],
  pendingRuling: ['待裁定', 'ruling pending'],
  pendingRulings: ['待裁定', 'Pending rulings'],
  newWarning: ['新警告', 'new warning'],
  newWarnings: ['新警告', 'New warnings'],
  lastPeriod: ['最后一次读秒', 'in the last period'],
  lastPeriods: ['最后一次读秒', 'Last periods'],
  untimed: ['不计时', 'untimed'],
  mayDecide: ['可裁定者', 'May decide'],
  decided: ['已裁定', 'Decided'],
  decision: ['裁定', 'Decision'],
  against: ['处罚对象', 'Against'],
  sanctions: ['处罚', 'Sanctions'],
  noSanction: ['无处罚', 'no sanction'],
  incident: ['事件', 'incident'],
  replay: ['复盘', 'Replay'],
  first: ['开始', 'Start'],
  previous: ['上一手', 'Previous'],
  next: ['下一手', 'Next'],
  last: ['最新', 'Latest'],
  atMove: ['第{n}手', 'move {n}'],
  superseded: ['已被取代', 'superseded'],
  also: ['另见', 'also'],
  tournament: ['比赛', 'Tournament'],
  standings: ['排名', 'Standings'],
  pairings: ['对阵', 'Pairings'],
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
