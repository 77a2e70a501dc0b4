// The floor arbiter's words (zh, en) and the incidents an arbiter reports
// at a table: one row per button, each naming the event it records and the
// fields that event needs. tables.js builds every form from this table.
import { lang } from './i18n.js';

export const WORDS = {
  tables: ['台次', 'Tables'],
  table: ['台', 'Table'],
  noTables: ['本轮没有台次（建对局时用 --table 指定台次）', 'No tables this round (create games with --table)'],
  noSuchTable: ['本轮没有这个台次', 'This round has no such table'],
  whichGame: ['此台次有不止一局（不同赛事）：请选择要记录的对局', 'More than one game has this table number (different events): choose the game to record for'],
  black: ['黑方', 'Black'],
  white: ['白方', 'White'],
  warnings: ['警告', 'Warnings'],
  penalty: ['罚子', 'Penalty stones'],
  pending: ['待裁定', 'Pending rulings'],
  lowClock: ['剩余时间不多', 'Little time left'],
  result: ['结果', 'Result'],
  live: ['在线', 'online'],
  offline: ['离线', 'offline'],
  offlineNote: ['连接中断：记录保存在本机，恢复后按顺序发送', 'Offline: entries are kept on this phone and sent in order when the server answers'],
  time: ['时间', 'Time'],
  check: ['查看裁定', 'Show the ruling'],
  cancel: ['取消', 'Cancel'],
  confirm: ['确认记录', 'Confirm and record'],
  confirmAgain: ['再次确认', 'Confirm again'],
  back: ['返回', 'Back'],
  allTables: ['全部台次', 'All tables'],
  wouldRule: ['将作出的裁定', 'The ruling this will bring'],
  noRuling: ['无裁定（仅记录）', 'No ruling (recorded only)'],
  recorded: ['已记录', 'Recorded'],
  slip: ['裁定书', 'Slip'],
  outbox: ['尚未记录', 'Not yet recorded'],
  waiting: ['等待发送', 'waiting to be sent'],
  refused: ['被拒绝', 'refused'],
  discard: ['放弃此条', 'Discard'],
  unreachable: ['服务器无法连接：无法预览裁定。确认后保存在本机，恢复连接后按顺序发送。',
    'The server cannot be reached: no ruling preview. Confirmed entries are kept on this phone and sent in order when it answers.'],
  keep: ['保存，稍后发送', 'Keep and send later'],
  gameOver: ['本局结束', 'This ends the game'],
  mayEnd: ['无法预览，此项可能结束本局', 'No preview; this may end the game'],
  loses: ['判负', 'loses the game'],
  bothLose: ['双方判负', 'Both players lose the game'],
  cancelGame: ['取消本局：本局离开大厅和所有排名（仍留在账本中）',
    'Cancel the game: it leaves the hall and every standing (it stays in the ledger)'],
  voidEvent: ['作废一条记录：其后的裁定重新判定', 'Void an event: the rulings after it are judged again'],
  decideAt: ['在对局页裁定', 'Decide on the game page'],
  required: ['必填', 'required'],
  yes: ['是', 'yes'],
  no: ['否', 'no'],
  clause: ['条款', 'Clause'],
  atTable: ['台', 'table'],
};

export function w(key) {
  const pair = WORDS[key];
  if (!pair) return key;
  return lang() === 'zh' ? pair[0] : pair[1];
}

export function pick(zh, en) { return lang() === 'zh' ? zh : en; }

const PARTIES = { BLACK: ['黑方', 'Black'], WHITE: ['白方', 'White'], BOTH: ['双方', 'both players'] };
export function partyWord(p) { const x = PARTIES[p]; return x ? pick(x[0], x[1]) : ''; }

// `grave`: it may end the game, so it is confirmed twice even when the
// server cannot be asked what it does (offline). `chief`: a chief arbiter's.
// Field types: how each is asked and turned into the event's JSON.
//   color  Black / White            bool   yes / no          point  a GTP point
//   points GTP points               choice one of `choices`   count  a multiple of 0.5, 0-361
//   minutes a duration in minutes   text   free text, required
export const INCIDENTS = [
  { id: 'arrival', zh: '到场', en: 'Arrival', kind: 'playerArrived', fields: [{ key: 'color', type: 'color' }] },
  { id: 'phone-rang', zh: '手机响铃', en: 'Phone rang', kind: 'phoneRang', fields: [{ key: 'color', type: 'color' }] },
  { id: 'phone-viewed', zh: '查看手机', en: 'Phone looked at', kind: 'phoneViewed', grave: true, fields: [{ key: 'color', type: 'color' }] },
  { id: 'takeback', zh: '悔棋', en: 'Takeback claimed', kind: 'takeback', fields: [{ key: 'color', type: 'color' }] },
  { id: 'stone-dropped', zh: '掉子', en: 'Stone dropped', kind: 'stoneDropped',
    fields: [{ key: 'color', type: 'color' }, { key: 'point', type: 'point', zh: '落点', en: 'Point' },
      { key: 'consented', type: 'bool', zh: '对方同意拾起', en: 'Opponent consents to pick it up' }] },
  { id: 'stones-displaced', zh: '棋子移位', en: 'Stones displaced', kind: 'stonesDisplaced',
    fields: [{ key: 'byColor', type: 'color', zh: '碰动者', en: 'Displaced by' },
      { key: 'points', type: 'displacement', zh: '原位置 → 现位置', en: 'From → to' },
      { key: 'agreement', type: 'choice', zh: '双方意见', en: 'The players agree', choices: [
        ['RESTORE', '恢复原位', 'to put them back'], ['STANDS', '维持现状', 'they stay'], ['NONE', '未达成一致', 'no agreement']] },
      { key: 'deliberate', type: 'bool', zh: '故意', en: 'Deliberate' }] },
  { id: 'capture-error', zh: '提子错误', en: 'Capture error', kind: 'captureError',
    fields: [{ key: 'color', type: 'color' },
      { key: 'kind', type: 'choice', zh: '错误', en: 'Error', choices: [
        ['REMOVED_LIVE', '提了有气的子', 'took stones with liberties'], ['NOT_REMOVED', '未提无气的子', 'left dead stones on the board']] },
      { key: 'points', type: 'points', zh: '棋子位置', en: 'Points' }] },
  { id: 'talk', zh: '交谈', en: 'Talk', kind: 'misconduct', fixed: { kind: 'TALK' }, fields: [{ key: 'color', type: 'color' }] },
  { id: 'disturbance', zh: '干扰对方', en: 'Disturbance', kind: 'misconduct', fixed: { kind: 'DISTURBANCE' }, fields: [{ key: 'color', type: 'color' }] },
  { id: 'cheating', zh: '作弊', en: 'Cheating', kind: 'misconduct', fixed: { kind: 'CHEATING' }, grave: true, fields: [{ key: 'color', type: 'color' }] },
  { id: 'left-seat', zh: '离席', en: 'Left the seat', kind: 'leftSeat',
    fields: [{ key: 'color', type: 'color' }, { key: 'permitted', type: 'bool', zh: '经裁判允许', en: 'With the arbiter\'s permission' }] },
  { id: 'smoking', zh: '吸烟', en: 'Smoking', kind: 'smoking', fields: [{ key: 'color', type: 'color' }] },
  { id: 'clock-fault', zh: '计时钟故障', en: 'Clock malfunction', kind: 'clockMalfunction',
    fields: [{ key: 'blackUsed', type: 'minutes', zh: '黑方已用（分钟）', en: 'Black used (minutes)' },
      { key: 'whiteUsed', type: 'minutes', zh: '白方已用（分钟）', en: 'White used (minutes)' }] },
  { id: 'adjourn', zh: '封盘', en: 'Adjourn', kind: 'adjourned', fields: [] },
  { id: 'resume', zh: '续赛', en: 'Resume', kind: 'resumed', fields: [] },
  { id: 'sealed-move', zh: '封手', en: 'Sealed move', kind: 'moveSealed', fields: [{ key: 'color', type: 'color' }] },
  { id: 'time-expired', zh: '超时', en: 'Time expired', kind: 'timeExpired', grave: true, fields: [{ key: 'color', type: 'color' }] },
  { id: 'resignation', zh: '认输', en: 'Resignation', kind: 'resign', grave: true, fields: [{ key: 'color', type: 'color', zh: '认输方', en: 'Resigning' }] },
  // After two passes, in a game whose moves are recorded: the board counts itself.
  { id: 'dead-stones', zh: '死子', en: 'Dead stones', kind: 'deadStones', grave: true,
    fields: [{ key: 'points', type: 'points', optional: true,
      zh: '死子位置（整块棋的每一子；没有死子则留空）', en: 'Points (every stone of a dead chain; empty if none)' }] },
  { id: 'count', zh: '数子', en: 'Count', kind: 'countRecorded', grave: true,
    fields: [{ key: 'blackCount', type: 'count', zh: '黑方子数（含目）', en: "Black's stones and points" }] },
  { id: 'withdrawal', zh: '退赛', en: 'Withdrawal', kind: 'withdrew', grave: true, fields: [{ key: 'color', type: 'color' }] },
  { id: 'cancel-game', zh: '取消本局', en: 'Cancel the game', kind: 'gameCancelled', chief: true,
    fields: [{ key: 'reason', type: 'text', zh: '原因', en: 'Reason' }] },
];

export function incidentTitle(i) { return pick(i.zh, i.en); }
