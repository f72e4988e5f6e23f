// SVM Lab click canvas (Streamlit Custom Components v2), part 2 of 2 (after canvas_layer.js).
//
// Keeps the point list in the browser and draws the whole Playground from the fit endpoint's
// answer (ui/serving/fit_api.py `answer`): the picture, the numbers panel and the points table. A
// click costs the server one fit and no page rerun:
// 1. the edit is POSTed to the fit endpoint (data.fit_url; one request in flight, the latest
//    edit wins) and its answer (h on a grid, SV rings, slack, misclassified) is painted at
//    once on a canvas layer over the plot area (marching squares for h = 0, ±1, as
//    ui/step_player*.js does), in the current axis ranges (redrawn on zoom/pan); the numbers
//    panel and the table are filled from the same answer;
// 2. once the clicks have paused (QUIET_MS) the answer's full Plotly figure is applied with
//    Plotly.react and the layer is hidden, so hover, legend and PNG export show it;
// 3. the session hears of the points only when the student pauses (SYNC_IDLE_MS), turns to
//    anything else on the page or leaves it: setStateValue("points", {epoch, seq, points})
//    reruns the page's fragment, which stores them and sends back no figure
//    (ui/shared/controls.py page_answer).
// After a change made in Python (dataset, settings, import, table edit, link) the payload
// carries the page's own answer for the new state; without one the canvas asks the endpoint.
// Without an endpoint (404: an older server) the canvas asks the session for the answer
// instead (want_answer in its sync).
//
// Protocol (data from Python): points [[x1, x2, ±1]...], epoch (bumped when Python replaced
// the points), seq (the last canvas edit the session has), view_rev (bumped when the zoom
// should reset), max_points, plotly_url, busy_text, settings and fit_url (the endpoint's
// request), home (the data's axis ranges), title, answer (or null), url_query.
// Streamlit calls the default export again with new data on every rerun whose data changed;
// all listeners are bound once per element.
//
// Performance marks for benchmarks/tests: window.__svmlabPerf (see PERF); attributes
// data-n-points, data-seq, data-fit-seq (the last edit the session has), data-refit-seq (the
// answer on the layer), data-full-seq (the figure Plotly shows), data-epoch, data-draws,
// data-endpoint, data-syncs on the .svmlab-canvas element, whose __state holds the live
// state (overlayOn: the browser shows something Plotly did not draw; hAt(x, y): h of the
// layer).

const STATES = new WeakMap();
const PERF = (window.__svmlabPerf = window.__svmlabPerf || {});
for (const k of [
  "pointDrawn", // ms from the click (button released) to the frame that paints the point
  "refitDrawn", // ms from the click to the frame that paints its refit (either path)
  "refitSource", // "endpoint" or "page": which path painted each refitDrawn
  "endpointMs", // round trip of each endpoint request (POST → answer parsed)
  "serverMs", // the endpoint's own time per request (parse, fit, grid, draw data, JSON)
  "overlayMs", // ms of JS work to paint an answer on the layer, the numbers and the table
  "fullDrawn", // ms from the click to the frame that paints the full Plotly figure
  "reactMs", // ms Plotly.react took for each full redraw
  "fits", // the fit numbers of each refit (solver_ms, n_iter, converged)
]) {
  PERF[k] = PERF[k] || [];
}
const CLICK_SLOP_PX = 5; // a press that moves less than this is a click
const HIT_PX = 11; // a click within this distance of a point hits the point
const TOUCH_SLOP_PX = 10; // the same for a finger, which covers more and wobbles more
const TOUCH_HIT_PX = 18;
const NARROW_PX = 560; // a plot narrower than this (a phone) gets a compact layout (fitNarrow)
const UNDO_MAX = 200;
const QUIET_MS = 250; // the full figure (Plotly.react blocks ~60-150 ms) waits for a pause
// The session hears of the points once the clicks paused this long, or at once when the
// student touches anything outside the plot (a widget, a page link) or leaves. Measured
// (benchmarks/bench_click_cpu.py): a sync is a page rerun of ~9 ms of server CPU, as much as
// the click's own fit; at 1.5 s a student clicking every 2 s paid it on every click.
const SYNC_IDLE_MS = 4000;
const ABORT_AFTER_MS = 300; // a newer edit aborts a refit running longer (its worker is killed)

function nextFrame() {
  // resolves at the start of the next animation frame: the browser paints the DOM as it is
  // now right after this callback
  return new Promise((r) => requestAnimationFrame(() => r(performance.now())));
}

function roundTo(v, span) {
  const digits = Math.max(0, 3 - Math.floor(Math.log10(Math.max(span, 1e-12))));
  return Number(v.toFixed(Math.min(digits, 12)));
}

function createState(root, parentElement) {
  const wrap = root.querySelector(".svmlab-plotwrap");
  const overlay = root.querySelector(".svmlab-overlay");
  let layer = root.querySelector("canvas.svmlab-refit");
  if (!layer) {
    // the endpoint's refit, under the point overlay (canvas.html stays unchanged)
    layer = document.createElement("canvas");
    layer.className = "svmlab-refit";
    layer.setAttribute("aria-hidden", "true");
    layer.style.display = "none";
    wrap.insertBefore(layer, overlay);
  }
  const st = {
    root,
    wrap,
    plot: root.querySelector(".svmlab-plot"),
    overlay,
    layer,
    overlayOn: false, // true while the browser shows something Plotly did not draw
    pointStyle: null, // marker colours/symbols/size of the point traces, from the figure
    statusEl: root.querySelector(".svmlab-status"),
    points: [], // [[x1, x2, label]]
    epoch: null,
    seq: 0, // the last edit made here
    fitSeq: 0, // the last edit the session has (data.seq)
    figSeq: -1, // the edit st.fig (the latest answer's figure) was fitted on
    fullSeq: -1, // the edit of the figure Plotly shows
    viewRev: null,
    cls: 1,
    undo: [],
    fig: null,
    title: "",
    home: null,
    startView: null, // the zoom to show first (canvas_payload's view)
    maxPoints: 2000,
    Plotly: null,
    ready: null,
    drawn: false,
    pending: new Map(), // seq -> click time, until the click's refit is painted (either path)
    pendingFull: new Map(), // seq -> click time, until the full figure is painted
    lastEdit: -Infinity,
    fullTimer: null,
    reacting: false,
    fullAgain: false,
    // the fit endpoint (ui/serving/fit_api.py)
    fitUrl: "",
    endpoint: null, // null: not asked yet, true: answers, false: unavailable (ask the page)
    failures: 0,
    settings: {},
    settingsKey: "",
    inFlight: false,
    again: false, // an edit came while a request was in flight: ask again when it answers
    sendTimer: null, // the session hears of the points when it fires (SYNC_IDLE_MS)
    syncedSeq: 0, // the edit the last sync carried
    holding: false, // a page link waits for the sync (holdPageSwitch)
    releasing: false,
    wantAnswer: false, // the endpoint failed: the session's rerun must send the answer
    holdFull: false, // tests freeze the layer (no full redraw) to inspect it
    syncs: 0,
    warm: null, // {points, alpha, key, epoch} of the last answer: the next request's warm start
    refit: null, // the answer on the layer: {ans, h, xs, ys, seq, points, view}
    refitOn: false,
    refitInfo: null, // what the layer drew (tests read it)
    highlight: [], // rows selected in the table (0-based), ringed in the plot
    numbersEl: root.querySelector(".svmlab-numbers"),
    tableEl: root.querySelector(".svmlab-table"),
    locked: false, // a teacher link locked the points (setLocked)
    hide: new Set(), // what a teacher link hides: "numbers", "table"
    style: {}, // the figure's style for the endpoint (present mode, hidden SVs)
    down: null,
    drag: null,
    rafPending: false,
    viewTimer: null,
    lastViewSent: null,
    draws: 0,
    setStateValue: null,
    session: null, // the session whose data the canvas last had (adoptedBy)
    boot: null, // the server process that sent it
    reloading: false,
    config: {},
    busyText: "",
    listeners: [],
  };
  root.__state = st;

  const on = (target, type, fn, opts) => {
    target.addEventListener(type, fn, opts);
    st.listeners.push(() => target.removeEventListener(type, fn, opts));
  };

  // ---- toolbar
  root.querySelectorAll("button[data-cls]").forEach((b) =>
    on(b, "click", () => setClass(st, Number(b.dataset.cls)))
  );
  on(root.querySelector("button[data-act=undo]"), "click", () => undo(st));
  on(root.querySelector("button[data-act=clear]"), "click", () => clearAll(st));
  on(st.tableEl, "click", (ev) => toggleRow(st, ev));
  // a student who leaves (or hides the tab) right after a click: tell the session now
  on(window, "pagehide", () => {
    flushSync(st);
    if (!st.reloading) keepPoints(st); // a reload within the sync's pause keeps them too
  });
  on(document, "visibilitychange", () => document.hidden && flushSync(st));
  // ... or turns to anything else on the page: the rerun that follows must see the points
  const elsewhere = (ev) => ev.target instanceof Node && !root.contains(ev.target) && flushSync(st);
  on(document, "pointerdown", elsewhere, true);
  on(document, "keydown", elsewhere, true);
  on(document, "click", (ev) => holdPageSwitch(st, ev), true);

  // ---- plot interactions: Pointer Events for mouse, pen and touch alike (capture phase: we
  // see the press before Plotly's drag layer does)
  on(st.plot, "pointerdown", (ev) => onDown(st, ev), true);
  on(st.plot, "pointermove", (ev) => onHover(st, ev), false);
  on(st.plot, "touchstart", (ev) => onTouchStart(st, ev), { capture: true, passive: false });
  on(st.plot, "contextmenu", (ev) => st.down && ev.preventDefault(), true); // a long press
  on(st.plot, "wheel", (ev) => onWheel(ev), { capture: true, passive: true });
  st.onUp = (ev) => onUp(st, ev);
  st.onMove = (ev) => onMove(st, ev);
  st.onCancel = (ev) => onCancel(st, ev);
  st.hAt = (x, y) => hAt(st, x, y);
  st.scheduleFull = () => scheduleFull(st);
  st.destroy = () => {
    st.listeners.forEach((off) => off());
    clearTimeout(st.fullTimer);
    clearTimeout(st.sendTimer);
    stopTracking(st);
    if (st.Plotly && st.drawn) st.Plotly.purge(st.plot);
    clearTimeout(st.resendTimer);
    STATES.delete(parentElement);
  };
  setClass(st, 1);
  return st;
}

function setClass(st, cls) {
  st.cls = cls === -1 ? -1 : 1;
  st.root.querySelectorAll("button[data-cls]").forEach((b) => {
    const active = Number(b.dataset.cls) === st.cls;
    b.classList.toggle("active", active);
    b.setAttribute("aria-pressed", active ? "true" : "false");
  });
}

function setLocked(st, locked) {
  // a teacher link locked the points: onDown ignores presses, the toolbar is disabled
  st.locked = locked;
  st.root.classList.toggle("locked", locked);
  st.root.querySelectorAll(".svmlab-toolbar button").forEach((b) => {
    if (b.dataset.title0 === undefined) b.dataset.title0 = b.title;
    b.disabled = locked;
    b.title = locked ? "Locked by your teacher." : b.dataset.title0;
  });
  const hint = st.root.querySelector(".svmlab-hint");
  if (st.hint0 === undefined) st.hint0 = hint.innerHTML; // canvas.html's (fine / coarse)
  const text = "the points are locked by your teacher: you can still zoom, pan and export";
  if (locked) hint.textContent = text;
  else if (hint.textContent === text) hint.innerHTML = st.hint0;
}

function setHidden(st, hide) {
  // a teacher link hides the numbers or the table so students predict first
  st.hide = new Set(Array.isArray(hide) ? hide : []);
  const box = st.root.querySelector(".svmlab-tablebox");
  if (box) box.hidden = st.hide.has("table");
}

function setStatus(st, text, isError) {
  st.statusEl.textContent = text || "";
  st.statusEl.classList.toggle("error", !!isError);
}

function updateAttrs(st) {
  const d = st.root.dataset;
  d.nPoints = String(st.points.length);
  d.seq = String(st.seq);
  d.fitSeq = String(st.fitSeq);
  d.refitSeq = String(st.refit ? st.refit.seq : 0);
  d.fullSeq = String(st.fullSeq);
  d.epoch = String(st.epoch);
  d.syncs = String(st.syncs);
  d.draws = String(st.draws);
  d.endpoint = String(st.endpoint);
  d.cls = String(st.cls);
}

// ---- geometry

function plotArea(st) {
  const fl = st.plot._fullLayout;
  if (!fl || !fl.xaxis || !fl.yaxis) return null;
  const drag = st.plot.querySelector(".nsewdrag");
  let rect;
  if (drag) {
    const r = drag.getBoundingClientRect();
    rect = { left: r.left, top: r.top, width: r.width, height: r.height };
  } else {
    const r = st.plot.getBoundingClientRect();
    rect = {
      left: r.left + fl.xaxis._offset,
      top: r.top + fl.yaxis._offset,
      width: fl.xaxis._length,
      height: fl.yaxis._length,
    };
  }
  return { rect, xr: fl.xaxis.range.map(Number), yr: fl.yaxis.range.map(Number) };
}

function toData(area, clientX, clientY) {
  const { rect, xr, yr } = area;
  const fx = (clientX - rect.left) / rect.width;
  const fy = (clientY - rect.top) / rect.height;
  return [xr[0] + fx * (xr[1] - xr[0]), yr[1] - fy * (yr[1] - yr[0])];
}

function toPixel(area, x, y) {
  const { rect, xr, yr } = area;
  return [
    rect.left + ((x - xr[0]) / (xr[1] - xr[0])) * rect.width,
    rect.top + ((yr[1] - y) / (yr[1] - yr[0])) * rect.height,
  ];
}

function inside(area, clientX, clientY) {
  const { rect } = area;
  return (
    clientX >= rect.left &&
    clientX <= rect.left + rect.width &&
    clientY >= rect.top &&
    clientY <= rect.top + rect.height
  );
}

function hitTest(st, area, clientX, clientY, radius = HIT_PX) {
  let best = -1;
  let bestD = radius * radius;
  for (let i = 0; i < st.points.length; i++) {
    const p = toPixel(area, st.points[i][0], st.points[i][1]);
    const d = (p[0] - clientX) ** 2 + (p[1] - clientY) ** 2;
    if (d <= bestD) {
      bestD = d;
      best = i;
    }
  }
  return best;
}

// ---- editing

function pushUndo(st) {
  st.undo.push(st.points.map((p) => p.slice()));
  if (st.undo.length > UNDO_MAX) st.undo.shift();
}

const RESEND_MS = 3000; // a sync the session did not confirm by then is sent again

function sendPoints(st, force, flags) {
  // flags: what else the session should do with them ({undo: true}, {restored: true})
  clearTimeout(st.sendTimer);
  st.sendTimer = null;
  if (!st.setStateValue || (st.fitSeq >= st.seq && !force)) return;
  st.syncs += 1;
  st.syncedSeq = st.seq;
  // without the endpoint's answer the session's rerun must send one (ui/shared/controls.py)
  const value = { epoch: st.epoch, seq: st.seq, points: st.points };
  value.want_answer = !useEndpoint(st) || st.wantAnswer;
  st.setStateValue("points", Object.assign(value, flags || {}));
  st.wantAnswer = false;
  clearTimeout(st.resendTimer);
  st.resendTimer = setTimeout(() => {
    if (st.fitSeq >= st.seq) return;
    sendPoints(st); // a lost rerun: ask again (same content)
    checkServer(st); // ... unless the session is gone with its server
  }, RESEND_MS);
  updateAttrs(st);
}

function scheduleSync(st) {
  // one cheap rerun per pause instead of one per click (the session needs the points only
  // for its own panels, the share link and the other pages)
  clearTimeout(st.sendTimer);
  st.sendTimer = setTimeout(() => sendPoints(st), useEndpoint(st) ? SYNC_IDLE_MS : 0);
}

function flushSync(st) {
  if (st.sendTimer) sendPoints(st);
}

// Links to another page of the app (the menu, st.page_link). A page switch sent while the
// sync's rerun is on its way drops the sync (its fragment no longer exists on the new page),
// so a link clicked before the session has the latest points waits for it, at most NAV_HOLD_MS.
const PAGE_LINKS =
  '[data-testid="stSidebarNavLink"], [data-testid="stTopNavLink"], ' +
  '[data-testid="stPageLink-NavLink"]';
const NAV_HOLD_MS = 3000;

function holdPageSwitch(st, ev) {
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

function commit(st, t0) {
  st.seq += 1;
  st.pending.set(st.seq, t0);
  st.pendingFull.set(st.seq, t0);
  st.lastEdit = performance.now();
  clearTimeout(st.fullTimer);
  if (useEndpoint(st)) requestRefit(st);
  scheduleSync(st);
  setStatus(st, st.busyText);
  showOverlay(st, t0);
}

// ---- the fit endpoint

function useEndpoint(st) {
  return !!st.fitUrl && st.endpoint !== false;
}

function requestRefit(st) {
  if (st.inFlight) {
    st.again = true; // latest wins: asked for the newest points when this one answers
    if (performance.now() - st.inFlightT0 > ABORT_AFTER_MS) st.abort.abort(); // or ends
    return;
  }
  const area = plotArea(st);
  const req = {
    seq: st.seq,
    epoch: st.epoch,
    key: st.settingsKey,
    points: st.points.map((p) => p.slice()),
    view: st.drawn && area ? { x: area.xr.slice(), y: area.yr.slice() } : null,
  };
  const start = st.startView || st.home;
  if (!req.view && start) req.view = { x: start[0].slice(), y: start[1].slice() };
  const body = { points: req.points, settings: st.settings, seq: req.seq };
  if (Object.keys(st.style).length) body.style = st.style;
  if (req.view) body.view = req.view;
  if (st.home) body.home = { x: st.home[0], y: st.home[1] };
  const w = st.warm;
  if (w && w.key === req.key && w.epoch === req.epoch) {
    body.warm = { points: w.points, alpha: w.alpha };
  }
  st.inFlight = true;
  st.again = false;
  const t = performance.now();
  st.inFlightT0 = t;
  st.abort = new AbortController();
  fetch(st.fitUrl, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
    credentials: "same-origin",
    cache: "no-store",
    signal: st.abort.signal,
  })
    .then((r) => r.text().then((text) => [r.status, text, r.headers.get(BOOT_HEADER)]))
    .then(([status, text, boot]) => {
      PERF.endpointMs.push(performance.now() - t);
      if (restarted(st, boot)) return;
      if (status === 200) {
        st.endpoint = true;
        st.failures = 0;
        onAnswer(st, JSON.parse(text), req, "endpoint");
        return;
      }
      let msg = text;
      try {
        msg = JSON.parse(text).error;
      } catch (e) {
        /* not JSON: keep the text */
      }
      if (status === 404 || status === 405) {
        st.endpoint = false; // no endpoint on this server: the session answers
      } else {
        st.failures += 1;
      }
      st.wantAnswer = true;
      console.warn("SVM Lab refit endpoint:", status, msg);
    })
    .catch((err) => {
      if (err.name !== "AbortError") {
        st.failures += 1;
        st.wantAnswer = true;
        console.warn("SVM Lab refit endpoint:", err);
      }
    })
    .finally(() => {
      st.inFlight = false;
      if (st.failures >= 3) st.endpoint = false;
      updateAttrs(st);
      if (st.again && useEndpoint(st)) {
        requestRefit(st);
      } else {
        st.again = false;
        if (st.wantAnswer) sendPoints(st, true); // the session answers this edit
      }
    });
}

function decodeGrid(g) {
  // {"x": [x0, x1, nx], "y": [y0, y1, ny], "h": base64 little-endian float32, row j = ys[j]}
  const bin = atob(g.h);
  const bytes = new Uint8Array(bin.length);
  for (let k = 0; k < bin.length; k++) bytes[k] = bin.charCodeAt(k);
  const axis = ([a, b, n]) => Array.from({ length: n }, (_, i) => a + ((b - a) * i) / (n - 1));
  return { h: new Float32Array(bytes.buffer), xs: axis(g.x), ys: axis(g.y) };
}

function onAnswer(st, ans, req, source) {
  // an answer (the endpoint's, or the page's in the payload) for the points req.points
  if (req.epoch !== st.epoch) return; // Python replaced the points meanwhile
  PERF.serverMs.push(ans.server_ms);
  if (ans.ok) {
    st.warm = { points: req.points, alpha: ans.alpha, key: req.key, epoch: req.epoch };
    PERF.fits.push(ans.fit);
  }
  if (req.key !== st.settingsKey) return; // the settings changed: a new request follows
  if (st.refit && req.seq < st.refit.seq) return; // an older edit's answer came late
  const t = performance.now();
  st.refit = Object.assign({ ans, seq: req.seq, points: req.points, view: req.view },
    ans.ok ? decodeGrid(ans.grid) : { h: null, xs: [], ys: [] }); // prettier-ignore
  st.refitOn = true;
  st.fig = ans.figure ? figureOf(ans, st.refit) : pointsOnly(st.fig);
  st.figSeq = req.seq;
  drawRefit(st);
  showOverlay(st, null);
  renderNumbers(st);
  renderTable(st);
  PERF.overlayMs.push(performance.now() - t);
  if (req.seq === st.seq) {
    if (ans.ok) setStatus(st, ans.message ? "Not converged: see the numbers." : "");
    else if (ans.kind === "need_two_classes") setStatus(st, "Add points of both classes to train.");
    else setStatus(st, "No model: " + String(ans.message).slice(0, 160), true);
  }
  donePending(st, req.seq, source);
  updateAttrs(st);
  scheduleFull(st);
}

function pointsOnly(fig) {
  // an answer without a figure (stopped at the time budget): the last figure's points alone
  if (!fig) return null;
  return { data: fig.data.filter((t) => t.meta && t.meta.role === "points"), layout: fig.layout };
}

function figureOf(ans, R) {
  // the answer's Plotly figure; its shading takes x, y, z from the answer's grid and its
  // contours from the shading (meta.z_from, see ui/playground/canvas.py canvas_figure_json)
  const fig = ans.figure;
  const nx = R.xs.length;
  const z = R.h ? Array.from({ length: R.ys.length }, (_, j) => R.h.subarray(j * nx, (j + 1) * nx)) : [];
  const grid = { x: R.xs, y: R.ys, z };
  const byRole = {};
  fig.data.forEach((t) => {
    if (t.meta && t.meta.role && !(t.meta.role in byRole)) byRole[t.meta.role] = t;
  });
  for (const pass of ["grid", "regions"]) {
    fig.data.forEach((t) => {
      const from = t.meta && t.meta.z_from;
      if (from !== pass) return;
      const src = pass === "grid" ? grid : byRole[pass];
      t.x = src.x;
      t.y = src.y;
      t.z = src.z;
    });
  }
  return fig;
}

// ---- the numbers panel and the points table (ui/shared/tables.py formats the numbers)

function escapeHtml(v) {
  return String(v).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function sentence(text) {
  // the engine's status ("not converged: …, try …") as a sentence of its own
  const t = String(text || "");
  return t.charAt(0).toUpperCase() + t.slice(1);
}

function renderNumbers(st) {
  const el = st.numbersEl;
  if (!el) return;
  if (st.hide.has("numbers")) {
    el.innerHTML = '<div class="svmlab-muted">Hidden by your teacher: predict first.</div>';
    return;
  }
  const R = st.refit;
  const pts = R ? R.points : st.points;
  const npos = pts.filter((p) => p[2] > 0).length;
  const parts = [
    `<div class="svmlab-title">${escapeHtml(st.title)}</div>`,
    `<div class="svmlab-count">${pts.length} points (${npos} of class +1, ` +
      `${pts.length - npos} of class −1)</div>`,
  ];
  const a = R && R.ans;
  if (a && !a.ok) {
    const cls = a.kind === "need_two_classes" ? "info" : "error";
    const lead = a.kind === "not_separable" ? "Not separable: " : "";
    parts.push(`<div class="svmlab-msg ${cls}" role="alert">${escapeHtml(lead + a.message)}</div>`);
  } else if (a) {
    if (a.message) {
      parts.push(
        `<div class="svmlab-msg warning" role="alert">${escapeHtml(sentence(a.message))}</div>`
      );
    }
    const rows = a.panel.map(
      ([k, v]) => `<tr><th scope="row">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`
    );
    parts.push(`<table class="svmlab-summary"><tbody>${rows.join("")}</tbody></table>`);
  }
  el.innerHTML = parts.join("");
}

const MINUS = "\u2212";

function fixed(v, digits) {
  if (v === null || v === undefined || !Number.isFinite(v)) return "";
  const s = v.toFixed(digits);
  return (Number(s) === 0 ? (0).toFixed(digits) : s).replace("-", MINUS);
}

function short(v) {
  // %.4g as the Python table shows coordinates
  const s = Number(v.toPrecision(4)).toString();
  return s.replace("-", MINUS);
}

function renderTable(st) {
  const el = st.tableEl;
  if (!el) return;
  const R = st.refit;
  const a = R && R.ans && R.ans.ok && R.points.length === st.points.length ? R.ans : null;
  const sel = new Set(st.highlight);
  const head =
    "<thead><tr><th>i</th><th>x1</th><th>x2</th><th>y</th><th>α</th><th>h(x)</th>" +
    "<th>y·h(x)</th><th>ξ</th><th>category</th></tr></thead>";
  const rows = st.points.map((p, i) => {
    const model = a
      ? `<td>${fixed(a.alpha[i], 4)}</td><td>${fixed(a.h[i], 3)}</td>` +
        `<td>${fixed(p[2] * a.h[i], 3)}</td><td>${fixed(a.xi[i], 3)}</td>` +
        `<td>${escapeHtml(a.category[i])}</td>`
      : "<td></td><td></td><td></td><td></td><td></td>";
    const on = sel.has(i) ? ' class="selected" aria-selected="true"' : "";
    return (
      `<tr data-row="${i}"${on}><td>x${i + 1}</td><td>${short(p[0])}</td>` +
      `<td>${short(p[1])}</td><td>${p[2] > 0 ? "+1" : MINUS + "1"}</td>${model}</tr>`
    );
  });
  el.innerHTML = head + `<tbody>${rows.join("")}</tbody>`;
}

function toggleRow(st, ev) {
  // a click on a table row rings its point in the plot (again: unrings it)
  const tr = ev.target.closest && ev.target.closest("tr[data-row]");
  if (!tr) return;
  const i = Number(tr.dataset.row);
  const k = st.highlight.indexOf(i);
  if (k >= 0) st.highlight.splice(k, 1);
  else st.highlight.push(i);
  tr.classList.toggle("selected", k < 0);
  tr.setAttribute("aria-selected", k < 0 ? "true" : "false");
  showHighlight(st);
  updateAttrs(st);
}

function donePending(st, seq, source) {
  // the clicks up to edit seq have their refit on screen from the next frame on
  const done = [];
  st.pending.forEach((t0, s) => {
    if (s <= seq) done.push([s, t0]);
  });
  if (!done.length) return;
  done.forEach(([s]) => st.pending.delete(s));
  nextFrame().then((t) =>
    done.forEach(([, t0]) => {
      PERF.refitDrawn.push(t - t0);
      PERF.refitSource.push(source);
    })
  );
}

function refreshView(st) {
  // after a zoom/pan the layer's grid may not cover the view, or be too coarse: ask again
  const R = st.refit;
  const area = plotArea(st);
  if (!R || !R.ans.ok || !area || !useEndpoint(st)) return;
  const gx = R.xs[R.xs.length - 1] - R.xs[0];
  const gy = R.ys[R.ys.length - 1] - R.ys[0];
  const [x0, x1] = area.xr;
  const [y0, y1] = area.yr;
  const covered = x0 >= R.xs[0] && x1 <= R.xs[R.xs.length - 1] && y0 >= R.ys[0] &&
    y1 <= R.ys[R.ys.length - 1]; // prettier-ignore
  if (!covered || x1 - x0 < 0.5 * gx || y1 - y0 < 0.5 * gy) requestRefit(st);
}

function addPoint(st, x, y, label, t0) {
  if (st.points.length >= st.maxPoints) {
    setStatus(st, `At most ${st.maxPoints} points.`, true);
    return;
  }
  pushUndo(st);
  st.points.push([x, y, label]);
  commit(st, t0);
}

function undo(st) {
  if (!st.undo.length) {
    // the canvas's own edits are all undone: the session brings back what it replaced
    // (points and settings), and the new payload follows
    if (!st.canUndo || !st.setStateValue) return;
    st.canUndo = false;
    sendPoints(st, true, { undo: true });
    return;
  }
  st.points = st.undo.pop();
  commit(st, performance.now());
}

function clearAll(st) {
  if (!st.points.length) return;
  pushUndo(st);
  st.points = [];
  commit(st, performance.now());
}

function onHover(st, ev) {
  if (st.drag || st.down || ev.pointerType === "touch") return;
  const area = plotArea(st);
  if (!area || !inside(area, ev.clientX, ev.clientY)) {
    st.root.classList.remove("over-point");
    return;
  }
  st.root.classList.toggle("over-point", hitTest(st, area, ev.clientX, ev.clientY) >= 0);
}

function panMode(st) {
  // the Pan tool of Plotly's toolbar is on: one finger pans the plot
  const fl = st.plot._fullLayout;
  return !!fl && fl.dragmode === "pan";
}

function onTouchStart(st, ev) {
  // Plotly's drag layer takes every touch it sees and preventDefaults it, so a swipe over the
  // plot could not scroll the page: keep touches from it (but for its toolbar and its Pan
  // tool). A touch that started on a point (onDown ran first) drags it: no scroll then.
  if (ev.target.closest && ev.target.closest(".modebar")) return;
  if (st.drag) {
    ev.preventDefault();
    ev.stopPropagation();
  } else if (!panMode(st)) {
    ev.stopPropagation();
  }
}

function onWheel(ev) {
  // a plain wheel scrolls the page: keep it from Plotly's scrollZoom; ctrl/⌘ + wheel (and a
  // trackpad pinch, which browsers send as ctrl + wheel) reaches Plotly, which zooms
  if (!ev.ctrlKey && !ev.metaKey) ev.stopPropagation();
}

function stopTracking(st) {
  window.removeEventListener("pointermove", st.onMove, true);
  window.removeEventListener("pointerup", st.onUp, true);
  window.removeEventListener("pointercancel", st.onCancel, true);
}

function onDown(st, ev) {
  if (!ev.isPrimary || ev.button !== 0 || !st.drawn || st.locked) return; // locked: zoom, pan
  if (ev.target.closest && ev.target.closest(".modebar")) return;
  const area = plotArea(st);
  if (!area || !inside(area, ev.clientX, ev.clientY)) return; // axes etc.: Plotly's
  const touch = ev.pointerType === "touch";
  const hit = hitTest(st, area, ev.clientX, ev.clientY, touch ? TOUCH_HIT_PX : HIT_PX);
  const [x, y] = toData(area, ev.clientX, ev.clientY);
  const shift = ev.shiftKey;
  st.down = { id: ev.pointerId, touch, cx: ev.clientX, cy: ev.clientY, x, y, shift, hit, area };
  stopTracking(st);
  if (hit >= 0) {
    // the press is ours (delete or drag): cancelling it stops the compatibility mousedown,
    // so Plotly does not start a zoom box
    ev.stopPropagation();
    ev.preventDefault();
    st.drag = { index: hit, moved: false, before: st.points.map((p) => p.slice()) };
    try {
      st.plot.setPointerCapture(ev.pointerId); // the drag goes on outside the plot
    } catch (e) {
      /* a synthetic event has no active pointer */
    }
    window.addEventListener("pointermove", st.onMove, true);
  } else if (touch) {
    ev.preventDefault(); // a tap is ours: no compatibility mouse events for Plotly
  }
  window.addEventListener("pointerup", st.onUp, true);
  window.addEventListener("pointercancel", st.onCancel, true);
}

function onMove(st, ev) {
  const d = st.down;
  if (!d || !st.drag || ev.pointerId !== d.id) return;
  const dist = Math.hypot(ev.clientX - d.cx, ev.clientY - d.cy);
  if (!st.drag.moved && dist < (d.touch ? TOUCH_SLOP_PX : CLICK_SLOP_PX)) return;
  st.drag.moved = true;
  const { rect } = d.area;
  const cx = Math.min(Math.max(ev.clientX, rect.left), rect.left + rect.width);
  const cy = Math.min(Math.max(ev.clientY, rect.top), rect.top + rect.height);
  const [x, y] = toData(d.area, cx, cy);
  const p = st.points[st.drag.index];
  p[0] = x;
  p[1] = y;
  ev.preventDefault();
  ev.stopPropagation();
  if (!st.rafPending) {
    st.rafPending = true;
    requestAnimationFrame(() => {
      st.rafPending = false;
      showOverlay(st, null);
    });
  }
}

function onCancel(st, ev) {
  // the browser took the pointer (it scrolls or zooms the page): no click; a point already
  // dragged stays where it is now
  const d = st.down;
  if (!d || ev.pointerId !== d.id) return;
  if (st.drag && st.drag.moved) {
    onUp(st, ev);
    return;
  }
  stopTracking(st);
  st.down = null;
  st.drag = null;
}

function onUp(st, ev) {
  const d = st.down;
  if (d && ev.pointerId !== d.id) return; // another finger
  stopTracking(st);
  st.down = null;
  if (!d) return;
  const drag = st.drag;
  st.drag = null;
  const tClick = performance.now(); // latency is measured from the click (button released)
  const xs = d.area.xr[1] - d.area.xr[0];
  const ys = d.area.yr[1] - d.area.yr[0];
  if (drag) {
    if (drag.moved) {
      const p = st.points[drag.index];
      p[0] = roundTo(p[0], xs);
      p[1] = roundTo(p[1], ys);
      st.undo.push(drag.before);
      if (st.undo.length > UNDO_MAX) st.undo.shift();
      commit(st, tClick);
    } else {
      pushUndo(st);
      st.points.splice(drag.index, 1);
      commit(st, tClick);
    }
    return;
  }
  const slop = d.touch ? TOUCH_SLOP_PX : CLICK_SLOP_PX;
  if (Math.hypot(ev.clientX - d.cx, ev.clientY - d.cy) >= slop) return; // a zoom box, a swipe
  const label = d.shift ? -st.cls : st.cls;
  addPoint(st, roundTo(d.x, xs), roundTo(d.y, ys), label, tClick);
}

// ---- drawing

function pointArrays(st) {
  const out = { 1: [[], [], []], "-1": [[], [], []] };
  st.points.forEach((p, i) => {
    const a = out[p[2] > 0 ? 1 : "-1"];
    a[0].push(p[0]);
    a[1].push(p[1]);
    a[2].push(i + 1);
  });
  return out;
}

const SVGNS = "http://www.w3.org/2000/svg";

function pointTraceGroups(st) {
  // the SVG groups Plotly drew the two point traces into
  const groups = [];
  (st.plot.calcdata || []).forEach((cd, i) => {
    const t = st.plot._fullData && st.plot._fullData[i];
    if (t && t.meta && t.meta.role === "points" && cd[0] && cd[0].node3) {
      groups.push(cd[0].node3.node());
    }
  });
  return groups;
}

function readPointStyle(st) {
  // marker style of the point traces as Plotly resolved it (so the overlay matches)
  const style = {};
  (st.plot._fullData || []).forEach((t) => {
    if (t.meta && t.meta.role === "points") {
      const m = t.marker || {};
      style[t.meta.label > 0 ? 1 : -1] = {
        color: m.color || (t.meta.label > 0 ? "#0072B2" : "#D55E00"),
        symbol: String(m.symbol || "circle"),
        size: Number(m.size) || 12,
        line: (m.line && m.line.color) || "#FFFFFF",
        width: (m.line && Number(m.line.width)) || 1.5,
      };
    }
  });
  st.pointStyle = style;
}

function markerMarkup(px, py, s) {
  const r = s.size / 2;
  const common = `fill="${s.color}" stroke="${s.line}" stroke-width="${s.width}"`;
  if (s.symbol.startsWith("square")) {
    return `<rect x="${px - r}" y="${py - r}" width="${2 * r}" height="${2 * r}" ${common}/>`;
  }
  return `<circle cx="${px}" cy="${py}" r="${r}" ${common}/>`;
}

function showOverlay(st, t0) {
  // Draw every current point in the overlay and hide Plotly's (stale) point traces; over
  // them, the misclassified marks of the refit on the layer.
  const area = plotArea(st);
  if (!area || !st.pointStyle) return;
  const wrap = st.overlay.getBoundingClientRect();
  const { rect } = area;
  const ox = rect.left - wrap.left;
  const oy = rect.top - wrap.top;
  const parts = [
    `<svg x="${ox}" y="${oy}" width="${rect.width}" height="${rect.height}" overflow="hidden">`,
  ];
  for (const p of st.points) {
    const q = toPixel(area, p[0], p[1]);
    parts.push(markerMarkup(q[0] - rect.left, q[1] - rect.top, st.pointStyle[p[2] > 0 ? 1 : -1]));
  }
  const R = st.refitOn && st.refit;
  const mark = R && R.ans.ok && R.ans.misclassified_mark;
  if (mark) {
    // ui/shared/figures.py _misclassified_trace: Plotly's "x-thin-open", arms of size / 2
    const r = mark.size / 2;
    const d = R.ans.misclassified
      .map((i) => {
        const q = toPixel(area, R.points[i][0], R.points[i][1]);
        const x = q[0] - rect.left;
        const y = q[1] - rect.top;
        return `M${x - r},${y - r}L${x + r},${y + r}M${x + r},${y - r}L${x - r},${y + r}`;
      })
      .join("");
    parts.push(`<path d="${d}" fill="none" stroke="${mark.color}" stroke-width="${mark.width}"/>`);
  }
  parts.push(highlightMarkup(st, area), "</svg>");
  st.overlay.innerHTML = parts.join("");
  if (!st.overlayOn) {
    pointTraceGroups(st).forEach((g) => (g.style.visibility = "hidden"));
    st.overlayOn = true;
  }
  updateAttrs(st);
  markDrawn(PERF.pointDrawn, t0);
}

function hideOverlay(st) {
  // Plotly reuses the trace groups on react, so undo the hiding explicitly
  pointTraceGroups(st).forEach((g) => (g.style.visibility = ""));
  st.overlayOn = false;
  showHighlight(st);
  hideLayer(st);
}

const HIGHLIGHT = { color: "#009E73", size: 42, width: 5 }; // ui/shared/figures.py _highlight_trace

function highlightMarkup(st, area) {
  // rings around the points of the rows selected in the table
  const { rect } = area;
  const r = HIGHLIGHT.size / 2;
  return st.highlight
    .filter((i) => st.points[i])
    .map((i) => {
      const q = toPixel(area, st.points[i][0], st.points[i][1]);
      return `<circle class="svmlab-hl" cx="${q[0] - rect.left}" cy="${q[1] - rect.top}" ` +
        `r="${r}" fill="none" stroke="${HIGHLIGHT.color}" stroke-width="${HIGHLIGHT.width}"/>`;
    })
    .join("");
}

function showHighlight(st) {
  // the overlay without points (Plotly shows them): the selected rows' rings only
  if (st.overlayOn) return showOverlay(st, null);
  const area = plotArea(st);
  if (!area || !st.highlight.length) {
    st.overlay.innerHTML = "";
    return undefined;
  }
  const wrap = st.overlay.getBoundingClientRect();
  const { rect } = area;
  st.overlay.innerHTML =
    `<svg x="${rect.left - wrap.left}" y="${rect.top - wrap.top}" width="${rect.width}" ` +
    `height="${rect.height}" overflow="hidden">${highlightMarkup(st, area)}</svg>`;
  return undefined;
}

function hideLayer(st) {
  st.refitOn = false;
  st.layer.style.display = "none";
}

function markDrawn(list, t0) {
  if (t0 == null) return;
  nextFrame().then((t) => list.push(t - t0));
}

// ---- the full figure (the latest answer's, drawn by Plotly)

function fullDraw(st) {
  const fig = st.fig;
  if (!fig) return Promise.resolve(null);
  const arr = pointArrays(st);
  const data = fig.data.map((t) => {
    if (t.meta && t.meta.role === "points") {
      const a = arr[t.meta.label > 0 ? 1 : "-1"];
      return Object.assign({}, t, { x: a[0], y: a[1], customdata: a[2] });
    }
    return t;
  });
  // uirevision: Plotly keeps the user's zoom until the session resets it (view_rev)
  // (axes copied: Plotly writes the zoom into the layout objects it is given)
  const axis = (a) => Object.assign({}, a, Array.isArray(a.range) ? { range: a.range.slice() } : {});
  const layout = Object.assign({}, fig.layout, { autosize: true, uirevision: st.viewRev,
    xaxis: axis(fig.layout.xaxis || {}), yaxis: axis(fig.layout.yaxis || {}) }); // prettier-ignore
  delete layout.width;
  if (!st.drawn && st.startView) {
    layout.xaxis.range = st.startView[0].slice();
    layout.yaxis.range = st.startView[1].slice();
  }
  fitNarrow(st, layout);
  st.draws += 1;
  const t = performance.now();
  const drawnSeq = st.figSeq;
  const drawnEpoch = st.epoch;
  const drawnFig = fig;
  return st.Plotly.react(st.plot, data, layout, withImageButtons(st, st.config)).then(() => {
    PERF.reactMs.push(performance.now() - t);
    st.drawn = true;
    if (drawnEpoch !== st.epoch) return null;
    st.fullSeq = drawnSeq;
    st.drawnFig = drawnFig;
    readPointStyle(st);
    if (st.refit && st.refit.seq <= drawnSeq && st.fig === drawnFig) hideLayer(st);
    if (st.seq === drawnSeq && !st.drag) {
      hideOverlay(st);
    } else {
      // edits arrived while drawing: keep them (and their refit) visible
      if (st.refitOn) drawRefit(st);
      showOverlay(st, null);
    }
    updateAttrs(st);
    return drawnSeq;
  });
}

function fitNarrow(st, layout) {
  // a phone: the legend in two columns of smaller type, the plot right under it and no
  // empty band below it (the figure is laid out for a desktop's column)
  const w = st.plot.clientWidth;
  if (!w || w >= NARROW_PX) return;
  const legend = layout.legend || {};
  layout.legend = Object.assign({}, legend, { font: Object.assign({}, legend.font, { size: 12 }) });
  layout.yaxis = Object.assign({}, layout.yaxis, { constraintoward: "top" });
  layout.margin = Object.assign({}, layout.margin, { l: 50 });
  if (layout.height) layout.height = Math.min(layout.height, Math.round(w * 1.25));
}

function afterFull(st, seq) {
  if (seq === null) return;
  const done = [];
  st.pendingFull.forEach((t0, s) => {
    if (s <= seq) done.push([s, t0]);
  });
  done.forEach(([s]) => st.pendingFull.delete(s));
  if (!done.length) return;
  nextFrame().then((t) => done.forEach(([, t0]) => PERF.fullDrawn.push(t - t0)));
}

function scheduleFull(st) {
  // Plotly.react the latest answer's figure: at once for the first draw, else when it is for
  // the latest edit and the clicks paused (QUIET_MS)
  clearTimeout(st.fullTimer);
  st.fullTimer = null;
  if (!st.fig || !st.Plotly || (st.holdFull && st.drawn)) return;
  if (st.drawn) {
    if (st.figSeq !== st.seq) return; // a newer edit's answer is on its way
    const wait = st.lastEdit + QUIET_MS - performance.now();
    if (wait > 0) {
      st.fullTimer = setTimeout(() => scheduleFull(st), wait);
      return;
    }
    if (st.fig === st.drawnFig && !st.overlayOn) return;
  }
  if (st.reacting) {
    st.fullAgain = true; // after the running draw
    return;
  }
  st.reacting = true;
  fullDraw(st)
    .then((seq) => afterFull(st, seq))
    .finally(() => {
      st.reacting = false;
      if (st.fullAgain) {
        st.fullAgain = false;
        scheduleFull(st);
      }
    });
}

function reportView(st) {
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

function mirrorUrl(query) {
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

// ---- a server restart or a reload: the browser keeps the points (sessionStorage)

const BOOT_HEADER = "X-SVMLab-Boot"; // ui/serving/fit_api.py: the server process's id
const KEEP_KEY = "svmlab.canvas.points";

function keepPoints(st) {
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

function restarted(st, boot) {
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
function adoptedBy(st, data) {
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

function update(st, data) {
  st.maxPoints = data.max_points || 2000;
  st.busyText = data.busy_text || "";
  st.config = Object.assign({ responsive: true }, data.config || {}, { doubleClick: false });
  st.fitUrl = data.settings ? data.fit_url || "" : ""; // the endpoint needs the settings
  st.home = Array.isArray(data.home) ? data.home : null;
  // the session's zoom, shown again by a canvas mounted anew (back from another page)
  if (!st.drawn) st.startView = Array.isArray(data.view) ? data.view : null;
  st.title = data.title || "";
  st.canUndo = !!data.can_undo;
  setLocked(st, !!data.locked);
  setHidden(st, data.hide);
  st.style = data.style || {};
  const settingsKey = JSON.stringify([data.settings || {}, st.style]); // both shape an answer
  const settingsChanged = settingsKey !== st.settingsKey;
  st.settings = data.settings || {};
  st.settingsKey = settingsKey;
  if (adoptedBy(st, data)) {
    /* a new session (the server restarted) took the browser's points */
  } else if (data.epoch !== st.epoch) {
    // Python replaced the points (dataset, import, table, link): adopt them; edits go on
    // from the session's last adopted one
    st.undo = []; // undoing past this replacement is the session's (ui/shared/history.py)
    st.points = (data.points || []).map((p) => [Number(p[0]), Number(p[1]), p[2] > 0 ? 1 : -1]);
    st.epoch = data.epoch;
    st.seq = Number(data.seq || 0);
    st.pending.clear();
    st.pendingFull.clear();
    st.refit = null;
    st.warm = null;
    st.fig = null;
    st.figSeq = -1;
    st.fullSeq = -1;
    st.highlight = [];
    clearTimeout(st.sendTimer);
    st.sendTimer = null;
    hideLayer(st);
  }
  if (data.view_rev !== st.viewRev) {
    st.viewRev = data.view_rev;
    st.lastViewSent = null;
  }
  st.fitSeq = Math.max(st.fitSeq, Number(data.seq || 0));
  if (st.fitSeq >= st.seq) clearTimeout(st.resendTimer);
  const current = data.seq === st.seq; // the payload's points are the browser's
  if (data.answer && current) {
    const req = { seq: st.seq, epoch: st.epoch, key: settingsKey, view: null,
      points: st.points.map((p) => p.slice()) }; // prettier-ignore
    const ans = Object.assign({}, data.answer);
    if (typeof ans.figure === "string") ans.figure = JSON.parse(ans.figure);
    onAnswer(st, ans, req, "page");
  } else if ((settingsChanged || !st.refit) && useEndpoint(st)) {
    requestRefit(st); // new settings for the browser's own points, or no answer yet
  } else if ((settingsChanged || !st.refit) && st.endpoint === false && !current) {
    sendPoints(st); // no endpoint: the session answers the browser's points
  }
  updateAttrs(st);
  if (current) setTimeout(() => mirrorUrl(data.url_query), 0);
}

export default function (component) {
  const { parentElement, setStateValue } = component;
  // the page sends its data as JSON text, encoded once (ui/playground/canvas.py payload_text)
  const data = typeof component.data === "string" ? JSON.parse(component.data) : component.data;
  const root = parentElement.querySelector(".svmlab-canvas");
  if (!root) return undefined;
  let st = STATES.get(parentElement);
  if (!st) {
    st = createState(root, parentElement);
    STATES.set(parentElement, st);
    st.ready = loadPlotly((data && data.plotly_url) || "app/static/plotly.min.js").then(
      (P) => {
        st.Plotly = P;
        st.plot.on || P.newPlot(st.plot, [], {}, { responsive: true });
        st.plot.on("plotly_relayout", (ev) => {
          if (st.refitOn) drawRefit(st);
          refreshView(st);
          showHighlight(st);
          if (ev && Object.keys(ev).some((k) => k.startsWith("xaxis") || k.startsWith("yaxis"))) {
            reportView(st);
          }
        });
        st.plot.on("plotly_relayouting", () => {
          if (st.refitOn) drawRefit(st);
          showHighlight(st);
        });
      },
      (err) => setStatus(st, "The plot library could not be loaded: " + err.message, true)
    );
  }
  st.setStateValue = setStateValue;
  st.ready.then(() => {
    if (st.Plotly && data) update(st, data);
  });
  return () => {
    if (!parentElement.isConnected) st.destroy();
  };
}
