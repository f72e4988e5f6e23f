// SVM Lab click canvas: what the session hears, and when. The points go to the session
// (setStateValue "points", a fragment rerun) once the clicks pause, at once when the student
// turns to anything else or leaves, and before a page link is followed; a lost sync is sent
// again. A server restart or a reload keeps the browser's points (sessionStorage) and hands
// them to the new session.

import { updateAttrs } from "./canvas_status.js";

// The session hears of the points once the clicks paused this long, or at once when the
// student touches anything outside the plot (a widget, a page link) or leaves. Measured
// (benchmarks/bench_click_cpu.py): a sync is a page rerun of ~9 ms of server CPU, as much as
// the click's own fit; at 1.5 s a student clicking every 2 s paid it on every click.
const SYNC_IDLE_MS = 4000;
const RESEND_MS = 3000; // a sync the session did not confirm by then is sent again

export function useEndpoint(st) {
  return !!st.fitUrl;
}

export function sendPoints(st, force, flags) {
  // flags: what else the session should do with them ({undo: true}, {restored: true})
  clearTimeout(st.sendTimer);
  st.sendTimer = null;
  if (!st.setStateValue || (st.fitSeq >= st.seq && !force)) return;
  st.syncs += 1;
  st.syncedSeq = st.seq;
  const value = { epoch: st.epoch, seq: st.seq, points: st.points };
  st.setStateValue("points", Object.assign(value, flags || {}));
  clearTimeout(st.resendTimer);
  st.resendTimer = setTimeout(() => {
    if (st.fitSeq >= st.seq) return;
    sendPoints(st); // a lost rerun: ask again (same content)
    checkServer(st); // ... unless the session is gone with its server
  }, RESEND_MS);
  updateAttrs(st);
}

export function scheduleSync(st) {
  // one cheap rerun per pause instead of one per click (the session needs the points only
  // for its own panels, the share link and the other pages)
  clearTimeout(st.sendTimer);
  st.sendTimer = setTimeout(() => sendPoints(st), useEndpoint(st) ? SYNC_IDLE_MS : 0);
}

export function flushSync(st) {
  if (st.sendTimer) sendPoints(st);
}

// Links to another page of the app (the menu, st.page_link). A page switch sent while the
// sync's rerun is on its way drops the sync (its fragment no longer exists on the new page),
// so a link clicked before the session has the latest points waits for it, at most NAV_HOLD_MS.
const PAGE_LINKS =
  '[data-testid="stSidebarNavLink"], [data-testid="stTopNavLink"], ' +
  '[data-testid="stPageLink-NavLink"]';

const NAV_HOLD_MS = 3000;

export function holdPageSwitch(st, ev) {
  const link = ev.target instanceof Element && ev.target.closest(PAGE_LINKS);
  if (!link || st.releasing || st.fitSeq >= st.seq || !st.setStateValue) return;
  ev.preventDefault();
  ev.stopImmediatePropagation();
  if (st.holding) return; // a second click on a held link: the first one goes through
  st.holding = true;
  if (st.sendTimer || st.syncedSeq !== st.seq) sendPoints(st, true);
  const t0 = performance.now();
  const go = () => {
    if (st.fitSeq < st.seq && performance.now() - t0 < NAV_HOLD_MS) {
      setTimeout(go, 25);
      return;
    }
    st.holding = false;
    st.releasing = true;
    link.click();
    st.releasing = false;
  };
  go();
}

export function reportView(st) {
  clearTimeout(st.viewTimer);
  st.viewTimer = setTimeout(() => {
    const fl = st.plot._fullLayout;
    if (!fl || !st.setStateValue) return;
    const v = { rev: st.viewRev, x: fl.xaxis.range.map(Number), y: fl.yaxis.range.map(Number) };
    const key = JSON.stringify(v);
    if (key === st.lastViewSent) return;
    st.lastViewSent = key;
    st.setStateValue("view", v);
  }, 200);
}

export function mirrorUrl(query) {
  // keep the address bar in step with the points (the server sets st.query_params on full
  // reruns; point edits only rerun a fragment)
  if (typeof query !== "string" || !query) return;
  const want = "?" + query;
  if (window.location.search !== want) {
    try {
      window.history.replaceState(window.history.state, "", window.location.pathname + want);
    } catch (e) {
      /* sandboxed frames may forbid it; the share panel still shows the link */
    }
  }
}

export const BOOT_HEADER = "X-SVMLab-Boot"; // ui/serving/fit_api.py: the server process's id
const KEEP_KEY = "svmlab.canvas.points";

export function keepPoints(st) {
  // what the tab shows, for the page that opens next in this tab if it has the same address
  // (a reload, or the reload after a restart); another address (a link) is another state
  try {
    const entry = { query: window.location.search, points: st.points, t: Date.now() };
    window.sessionStorage.setItem(KEEP_KEY, JSON.stringify(entry));
  } catch (e) {
    /* storage disabled or full: the server's state stays what the last sync said */
  }
}

function keptPoints() {
  try {
    const text = window.sessionStorage.getItem(KEEP_KEY);
    window.sessionStorage.removeItem(KEEP_KEY);
    const entry = text ? JSON.parse(text) : null;
    if (entry && entry.query === window.location.search && Array.isArray(entry.points)) {
      return entry.points;
    }
  } catch (e) {
    /* as above */
  }
  return null;
}

export function restarted(st, boot) {
  // the endpoint answered from another server process than the page's: the session (and
  // every rerun it was asked for) is gone; reload, keeping the points for the new session
  if (!boot || !st.boot || boot === st.boot || st.reloading) return false;
  st.reloading = true;
  keepPoints(st);
  window.location.reload();
  return true;
}

function checkServer(st) {
  if (!useEndpoint(st)) return;
  fetch(st.fitUrl, { method: "GET", credentials: "same-origin", cache: "no-store" })
    .then((r) => restarted(st, r.headers.get(BOOT_HEADER)))
    .catch(() => {
      /* down: the next resend asks again */
    });
}

function samePoints(a, b) {
  if (!Array.isArray(b) || a.length !== b.length) return false;
  return a.every((p, i) => p[0] === b[i][0] && p[1] === b[i][1] && p[2] === (b[i][2] > 0 ? 1 : -1));
}

// A page's data from another session than before (the server restarted and the browser
// reconnected): the new session started from the address bar, which the lazy sync may not
// have brought up to date; the browser's points are the newest, so they are handed to it.
export function adoptedBy(st, data) {
  const session = data.session || null;
  const before = st.session;
  st.session = session;
  st.boot = data.boot || null;
  if (!before) {
    // the first data of this tab's canvas: points kept by the page it replaced, if any
    const kept = keptPoints();
    if (!kept || !session || samePoints(kept, data.points)) return false;
    st.points = kept.map((p) => [Number(p[0]), Number(p[1]), p[2] > 0 ? 1 : -1]);
  } else if (!session || session === before || samePoints(st.points, data.points)) {
    return false;
  }
  st.epoch = data.epoch;
  st.fitSeq = Number(data.seq || 0);
  st.seq = st.fitSeq + 1;
  st.undo = [];
  st.pending.clear();
  st.pendingFull.clear();
  sendPoints(st, true, { restored: true });
  return true;
}
