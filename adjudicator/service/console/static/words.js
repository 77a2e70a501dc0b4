// Events, sanctions and results in words, Chinese or English, from the one
// table the server's slip reads too (words.json, words.h): "Black Q16",
// "黑 Q16", "手机响铃", "a warning, one penalty stone", "白中盘胜". Every
// function takes the data as the proto3 JSON mapping gives it and a
// language, 'zh' or 'en'.
// Read with fetch rather than a JSON module import, which phones' browsers
// before 2024 (Safari < 17.2, Firefox < 138) do not know.
const WORDS = await (await fetch(new URL('./words.json', import.meta.url))).json();

const at = (pair, lang) => (pair ? pair[lang === 'zh' ? 0 : 1] : undefined);

// A colour (or Ruling.Party) as a short word: 黑 / Black.
export function colourWord(colour, lang) {
  return at(WORDS.colour[colour], lang) ?? colour ?? '';
}

// A colour as the player of it: 黑方 / Black.
export function sideWord(colour, lang) {
  return at(WORDS.side[colour], lang) ?? colour ?? '';
}

// An authority (ARBITER, CHIEF_ARBITER) or another enum value in words.
export function enumWord(value, lang) {
  return at(WORDS.enum[value], lang) ?? value ?? '';
}

// Who a stamped actor is ("Li Wei (CHIEF_ARBITER, token 1a2b3c4d)") in
// words: the role, then the name ("裁判长 Li Wei"), as the slip names people;
// the role's code and the token's id are for a tooltip, not the text.
export function actorWords(actor, lang) {
  const m = /^(.*) \(([A-Z_]+), token [0-9a-f]+\)$/.exec(actor || '');
  if (!m) return at(WORDS.who[actor], lang) ?? actor ?? '';
  const role = at(WORDS.who[m[2]], lang);
  return role ? `${role} ${m[1]}` : m[1];
}

// The event's kind: its one key that is not a common field ("phoneRang").
export function eventKind(event) {
  return Object.keys(event || {}).find((k) => !['at', 'actor', 'authority', 'idempotencyKey'].includes(k)) || '';
}

// True for what is not play at the board: an incident among the moves.
export function isIncident(event) {
  const kind = eventKind(event);
  return kind !== '' && !WORDS.play.includes(kind);
}

function fieldText(value, lang) {
  if (Array.isArray(value)) return value.map((v) => fieldText(v, lang)).join(', ');
  if (value && typeof value === 'object') return Object.values(value).map((v) => fieldText(v, lang)).join('→');
  if (typeof value === 'string') return at(WORDS.colour[value], lang) ?? at(WORDS.enum[value], lang) ?? value;
  return String(value ?? '');
}

function fill(template, fields, lang) {
  const colour = fields.color ?? fields.byColor;
  return template.replace(/\{(\w+)\}/g, (_, name) => {
    if (name === 'colour') return colour ? colourWord(colour, lang) : '';
    if (name === 'side' || name === 'Side') return colour ? sideWord(colour, lang) : '';
    return fieldText(fields[name], lang);
  }).replace(/\s*[（(]\s*[）)]/g, '').replace(/\s+/g, ' ').trim();
}

// A refusal in words: the server's error ({code, message, refusal}) worded
// from its reason when it gives one (refusal_reason.h), else its message.
// The instants it names (RFC 3339, UTC) are said by `sayTime` when given:
// the hall's clock, as the form that was refused took them.
const REFUSAL_TIMES = new Set(['at', 'previous']);
export function refusalWords(error, lang, sayTime) {
  const reason = error?.refusal;
  const template = reason && at(WORDS.refusal[reason.reason], lang);
  if (!template) return error?.message ?? '';
  const fields = sayTime
    ? Object.fromEntries(Object.entries(reason).map(([k, v]) => [k, REFUSAL_TIMES.has(k) ? sayTime(v) : v]))
    : reason;
  return fill(template, fields, lang);
}

// One event in words: "Black Q16", "黑 Q16", "phone rang (Black)".
export function eventWords(event, lang) {
  const kind = eventKind(event);
  const template = at(WORDS.event[kind], lang);
  return template ? fill(template, event[kind] || {}, lang) : kind;
}

// A proto3 JSON duration ("900s") in words: 15分钟 / 15 min; 90秒 / 90 s.
export function durationWords(duration, lang) {
  const secs = Math.round(parseFloat(String(duration)) || 0);
  const [key, n] = secs % 60 === 0 && secs > 0 ? ['minutes', secs / 60] : ['seconds', secs];
  return at(WORDS[key], lang).replace('{n}', n);
}

// A ruling's sanctions in words: "a warning, one penalty stone" /
// "警告一次，罚一子"; repeated ones counted ("罚2子").
export function sanctionWords(sanctions, lang, timeDeducted) {
  const counts = new Map();
  for (const s of sanctions || []) counts.set(s, (counts.get(s) || 0) + 1);
  const parts = [];
  for (const [s, n] of counts) {
    const row = WORDS.sanction[s];
    if (!row) { parts.push(s); continue; }
    let text = n > 1 && row.length > 2 ? row[lang === 'zh' ? 2 : 3].replace('{n}', n) : at(row, lang);
    if (s === 'TIME_DEDUCTED' && timeDeducted) text += ` ${durationWords(timeDeducted, lang)}`;
    parts.push(text);
  }
  return parts.join(lang === 'zh' ? '，' : ', ');
}

// A margin in stones (a multiple of ¼): "3又3/4子" / "3¾ stones (7.5 points)".
export function marginWords(stones, lang) {
  const whole = Math.floor(stones + 1e-9);
  const quarter = Math.round((stones - whole) * 4);
  let text = whole > 0 || quarter === 0 ? String(whole) : '';
  if (quarter > 0) text += (whole > 0 ? at(WORDS.and, lang) : '') + at(WORDS.quarters[quarter - 1], lang);
  return at(WORDS.margin, lang).replace('{stones}', text).replace('{points}', String(stones * 2));
}

// A result from its outcome and reason: "White wins on warnings", "白中盘胜".
// Play ended with two passes and no result yet: the count is awaited (the
// report's 双方虚着，未计算); an arbiter is wanted at the board.
export function countAwaited(game) {
  return !game?.result && (game?.state?.consecutivePasses || 0) >= 2;
}

// A badge's short words for a game whose count is awaited.
export function countDueWords(lang) {
  return at(WORDS.unfinished.countDue, lang);
}

// A game without a result: in play, or its count awaited.
export function unfinishedWords(state, lang) {
  return at(WORDS.unfinished[countAwaited({ state }) ? 'awaitingCount' : 'inPlay'], lang);
}

export function resultWords(result, lang) {
  if (!result) return '';
  const outcome = result.outcome || '';
  if (outcome === 'BLACK_WINS' || outcome === 'WHITE_WINS') {
    const colour = colourWord(outcome === 'BLACK_WINS' ? 'BLACK' : 'WHITE', lang);
    const template = at(WORDS.win[result.reason || ''] || WORDS.win[''], lang);
    const margin = result.marginStones !== undefined ? marginWords(result.marginStones, lang) : '';
    return template.replace('{colour}', colour).replace('{margin}', margin).trim();
  }
  return at(WORDS.outcome[outcome], lang) ?? outcome;
}
