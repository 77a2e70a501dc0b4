// The live feed, one connection per browser: a browser gives a host 6
// HTTP/1.1 connections, and a page per held feed left a 7th tab's requests
// queued for good. One tab, the leader (it holds the Web Lock
// 'arbiter-feed'), follows /api/feed and passes each message, with its feed
// position, to the others on a BroadcastChannel; when it closes the lock
// passes to another tab, which follows on from the last position it had.
// Each message carries the position before it (`prev`), so a tab sees a gap
// and asks the leader for what it missed: from the leader's ring of recent
// messages, else (older than the ring) a reload: never a silent miss.
// Without BroadcastChannel or Web Locks (an old browser, or plain HTTP to a
// host other than loopback: locks need a secure context) each page follows
// the feed itself, as before.
const NAME = 'arbiter-feed';
const RING = 1000;  // messages the leader keeps for tabs that join or lag

// Follows /api/feed from position `after`, itself: onMessage(id, kind, data)
// for each event ('game' or 'reload'), onState(up). A dropped stream is
// resumed by the browser itself (Last-Event-ID); a refused one (503 when the
// console is full, or a server restarting behind a proxy) ends an
// EventSource for good, so it tries again after 1-2 s, doubling up to
// 30-60 s, from the last message it had: never offline while the server is
// there. Returns { close() }.
export function stream(after, onMessage, onState) {
  let last = after;
  let source;
  let retry = 1000;
  let timer;
  const open = () => {
    source = new EventSource(`/api/feed?after=${encodeURIComponent(last)}`);
    const got = (kind) => (e) => {
      if (e.lastEventId) last = e.lastEventId;
      onMessage(last, kind, e.data);
    };
    source.addEventListener('game', got('game'));
    source.addEventListener('reload', got('reload'));
    source.addEventListener('open', () => { retry = 1000; onState(true); });
    source.addEventListener('error', () => {
      onState(false);
      if (source.readyState !== EventSource.CLOSED) return;  // the browser reconnects
      timer = setTimeout(open, retry * (1 + Math.random()));
      retry = Math.min(retry * 2, 30000);
    });
  };
  open();
  return { close: () => { clearTimeout(timer); source.close(); } };
}

export const shareable = () => typeof BroadcastChannel === 'function' && typeof navigator.locks?.request === 'function';

let hub = null;  // this tab's part in the shared feed, while a page follows

// As live.js's follow(), through the tab's hub.
export function followShared(after, onGame, onReload, onState) {
  hub ??= new Hub();
  return hub.add(Number(after), onGame, onReload, onState);
}

class Hub {
  constructor() {
    this.me = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
    this.subs = new Set();
    this.pos = null;     // every message after it has reached this tab (min of the pages')
    this.asked = null;   // the position last asked from, answer pending
    this.up = null;
    this.leader = null;  // { source, ring, from, last, done } while this tab leads
    this.quit = new AbortController();
    this.channel = new BroadcastChannel(NAME);
    this.channel.onmessage = (e) => this.heard(e.data);
    document.body.dataset.feed = 'follower';
    navigator.locks.request(NAME, { signal: this.quit.signal }, () => new Promise((done) => this.lead(done)))
      .catch(() => {});  // aborted: the page stopped following before its turn
  }

  add(after, onGame, onReload, onState) {
    const sub = { last: after, onGame, onReload, onState };
    this.subs.add(sub);
    if (this.pos === null || after < this.pos) {
      this.pos = after;
      this.ask();
    }
    if (this.up !== null) queueMicrotask(() => { if (this.subs.has(sub)) sub.onState?.(this.up); });
    return {
      close: () => {
        this.subs.delete(sub);
        // A page that follows again at once (the hall reading itself) keeps
        // the hub; one that goes hands the lead on.
        queueMicrotask(() => { if (!this.subs.size && hub === this) this.stop(); });
      },
    };
  }

  // Asks the leader for the messages after this.pos (the leader: itself).
  ask() {
    this.asked = this.pos;
    if (this.leader) this.replay(this.pos).forEach((m) => this.take(m));
    else this.channel.postMessage({ type: 'hello', from: this.me, after: this.pos });
  }

  // One message { id, prev, kind, data }, passed to the pages behind it.
  take(m) {
    if (m.id <= this.pos) return;  // had it
    if (m.prev > this.pos) {       // missed those between: asked for, this one comes again
      if (this.asked !== this.pos) this.ask();
      return;
    }
    this.pos = m.id;
    for (const sub of [...this.subs]) {
      if (sub.last >= m.id || !this.subs.has(sub)) continue;
      sub.last = m.id;
      if (m.kind === 'reload') sub.onReload();
      else sub.onGame(JSON.parse(m.data));
    }
  }

  state(up) {
    if (up === null || up === undefined || up === this.up) return;
    this.up = up;
    for (const sub of [...this.subs]) sub.onState?.(up);
  }

  heard(d) {
    if (d.type === 'hello') {
      if (this.leader) this.channel.postMessage({ type: 'replay', to: d.from, up: this.up, messages: this.replay(d.after) });
      return;
    }
    if (this.leader) return;  // the others' messages are for followers
    if (d.type === 'msg') this.take(d.m);
    else if (d.type === 'state') this.state(d.up);
    else if (d.type === 'replay' && d.to === this.me) {
      this.state(d.up);
      d.messages.forEach((m) => this.take(m));
    } else if (d.type === 'leader') {
      // Not connected until it is; what was asked of the last leader is lost.
      this.state(false);
      this.ask();
    }
  }

  // What a tab at position `after` missed: the ring's messages after it,
  // or, when the ring does not reach back so far, a reload.
  replay(after) {
    const L = this.leader;
    if (after >= L.last) return [];
    if (after < L.from) return [{ id: L.last, prev: after, kind: 'reload' }];
    return L.ring.filter((m) => m.id > after);
  }

  // The lock is this tab's: follow the feed from the last position it had.
  lead(done) {
    if (this.stopped) return done();
    const L = this.leader = { ring: [], from: this.pos, last: this.pos, done };
    document.body.dataset.feed = 'leader';
    if (this.up !== null) this.state(false);  // not connected until it is
    this.channel.postMessage({ type: 'leader' });
    L.source = stream(this.pos, (id, kind, data) => {
      const m = { id: Number(id), prev: L.last, kind, data };
      if (!(m.id > L.last)) return;
      L.last = m.id;
      L.ring.push(m);
      if (L.ring.length > RING) L.from = L.ring.shift().id;
      this.channel.postMessage({ type: 'msg', m });
      this.take(m);
    }, (up) => {
      this.channel.postMessage({ type: 'state', up });
      this.state(up);
    });
  }

  stop() {
    hub = null;
    this.stopped = true;
    this.quit.abort();
    if (this.leader) {
      this.leader.source.close();
      this.leader.done();  // the lock passes to another tab
    }
    this.channel.close();
    delete document.body.dataset.feed;
  }
}
