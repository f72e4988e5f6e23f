// SVM Lab click canvas (Streamlit Custom Components v2): the element's state and set-up, and
// what it does with each render's data (update). Its parts, each a module of its own:
// canvas_edit.js (pointer input and the edits), canvas_endpoint.js (the fit endpoint's
// requests and answers), canvas_layer.js (the answer painted at once), canvas_overlay.js (the
// points over it), canvas_full.js (Plotly's full figure), canvas_panels.js (the numbers and
// the table), canvas_sync.js (what the session hears, and when), canvas_status.js (marks for
// tests and benchmarks), canvas_geometry.js (pixels ↔ data), canvas_traces.js (which of
// Plotly's trace groups the overlay hid, and the traces' ids), canvas_keyboard.js and
// canvas_keys.js (the plot and the table by keyboard), canvas_say.js (the live region's
// sentence after each change).
//
// Keeps the point list in the browser and draws the whole Playground from the fit endpoint's
// answer (ui/serving/fit_api.py `answer`): the picture, the numbers panel and the points table. A
// click costs the server one fit and no page rerun:
// 1. the edit is POSTed to the fit endpoint (data.fit_url; one request in flight, the latest
//    edit wins) and its answer (h on a grid, SV rings, slack, misclassified) is painted at
//    once on a canvas layer over the plot area (h = 0, ±1 by contours.js, as in the step
//    player), in the current axis ranges (redrawn on zoom/pan); the numbers panel and the
//    table are filled from the same answer;
// 2. once the clicks have paused (QUIET_MS) the answer's full Plotly figure is applied with
//    Plotly.react and the layer is hidden, so hover, legend and PNG export show it;
// 3. the session hears of the points only when the student pauses (SYNC_IDLE_MS), turns to
//    anything else on the page or leaves it: setStateValue("points", {epoch, seq, points})
//    reruns the page's fragment, which stores them and sends back no figure
//    (ui/playground/panels.py page_answer).
// After a change made in Python (dataset, settings, import, table edit, link) the payload
// carries the page's own answer for the new state; without one the canvas asks the endpoint.
// An answer comes from one of these two, and is one of ui/serving/fit_schema.py's FitAnswer.
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

import {
  clearAll, onCancel, onDown, onHover, onMove, onTouchStart, onUp, onWheel, stopTracking, undo,
} from "./canvas_edit.js";
import { onAnswer, refreshView, requestRefit } from "./canvas_endpoint.js";
import { scheduleFull } from "./canvas_full.js";
import { bindKeys } from "./canvas_keyboard.js";
import { drawRefit, hAt } from "./canvas_layer.js";
import { hideLayer, showHighlight, toggleRow } from "./canvas_overlay.js";
import { describePlot, renderNumbers, shownTitle } from "./canvas_panels.js";
import { setStatus, updateAttrs } from "./canvas_status.js";
import {
  adoptedBy, flushSync, holdPageSwitch, keepPoints, mirrorUrl, reportView, useEndpoint,
} from "./canvas_sync.js";
import { mountState } from "./plotly_loader.js";

const STATES = new WeakMap();

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
    hiddenGroups: [], // Plotly's trace groups the overlay hid (canvas_traces.js)
    pointStyle: null, // marker colours/symbols/size of the point traces, from the figure
    statusEl: root.querySelector(".svmlab-status"),
    sayEl: root.querySelector(".svmlab-say"), // the one live region (canvas_status.js say)
    told: null, // the last edit, said with its answer: {seq, kind, index, point}
    kbd: null, // the keyboard's cursor or point (canvas_keyboard.js)
    tableRow: 0, // the table's row with the tab stop
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
    title: "", // what the panel and the exported image call the points (shownTitle)
    pageTitle: "", // the session's title for them
    edited: false, // edited here since the session last replaced the points
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
    endpoint: null, // null: not asked yet; did the last request get an answer (data-endpoint)
    settings: {},
    settingsKey: "",
    inFlight: false,
    again: false, // an edit came while a request was in flight: ask again when it answers
    sendTimer: null, // the session hears of the points when it fires (SYNC_IDLE_MS)
    syncedSeq: 0, // the edit the last sync carried
    holding: false, // a page link waits for the sync (holdPageSwitch)
    releasing: false,
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
  bindKeys(st, on, setClass);
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

function update(st, data) {
  st.maxPoints = data.max_points || 2000;
  st.busyText = data.busy_text || "";
  st.config = Object.assign({ responsive: true }, data.config || {}, { doubleClick: false });
  st.fitUrl = data.settings ? data.fit_url || "" : ""; // the endpoint needs the settings
  st.home = Array.isArray(data.home) ? data.home : null;
  // the session's zoom, shown again by a canvas mounted anew (back from another page)
  if (!st.drawn) st.startView = Array.isArray(data.view) ? data.view : null;
  st.pageTitle = data.title || "";
  st.a11y = data.a11y || null; // the plot's name and the words for its description
  st.canUndo = !!data.can_undo;
  setLocked(st, !!data.locked);
  setHidden(st, data.hide);
  st.style = data.style || {};
  const settingsKey = JSON.stringify([data.settings || {}, st.style]); // both shape an answer
  const settingsChanged = settingsKey !== st.settingsKey;
  st.settings = data.settings || {};
  st.solverNames = data.solver_names || {}; // the saved image's settings line (plot_export.js)
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
    st.told = null;
    st.edited = false;
    clearTimeout(st.sendTimer);
    st.sendTimer = null;
    hideLayer(st);
  }
  const title = shownTitle(st.pageTitle, st.edited);
  if (title !== st.title) {
    st.title = title;
    if (st.refit) renderNumbers(st);
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
  }
  if (!st.refit) describePlot(st); // the points until an answer comes (renderNumbers)
  updateAttrs(st);
  if (current) setTimeout(() => mirrorUrl(data.url_query), 0);
}

export default function (component) {
  const { parentElement, setStateValue } = component;
  // the page sends its data as JSON text, encoded once (ui/playground/canvas.py payload_text)
  const data = typeof component.data === "string" ? JSON.parse(component.data) : component.data;
  const st = mountState(parentElement, ".svmlab-canvas", STATES, createState, data,
    (st, P) => {
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
    (st, err) => setStatus(st, "The plot library could not be loaded: " + err.message, true)
  );
  if (!st) return undefined;
  st.setStateValue = setStateValue;
  st.ready.then(() => {
    if (st.Plotly && data) update(st, data);
  });
  return () => {
    if (!parentElement.isConnected) st.destroy();
  };
}
