// SVM Lab click canvas (Streamlit Custom Components v2), part 2 of 2 (after canvas_layer.js).
//
// Draws the server's figure with Plotly.js (loaded once from the app's static folder), keeps
// the point list in the browser so a click is drawn at once, and sends the whole list back
// with setStateValue("points", {epoch, seq, points}) so no click is lost.
//
// A click's refit is drawn twice, fast then full:
// 1. the edit is POSTed to the fit endpoint (data.fit_url, ui/fit_api.py; one request in
//    flight, the latest edit wins) and its answer (h on a grid, SV rings, slack, misclassified)
//    is painted at once on a canvas layer over the plot area (marching squares for h = 0, ±1,
//    as ui/step_player*.js does), in the current axis ranges (redrawn on zoom/pan);
// 2. the points go to the session (setStateValue, right after the endpoint's answer so the
//    two do not compete for the server); its rerun sends the full figure, applied with
//    Plotly.react once it is for the latest edit and the clicks have paused (QUIET_MS); then
//    the layer is hidden, so hover, legend and PNG export show the full figure.
// Without an endpoint (404: AppTest, an older server) only step 2 runs, as before.
//
// Protocol (data from Python): fig (plotly JSON text), points [[x1, x2, ±1]...], epoch
// (bumped when Python replaced the points), seq (the last canvas edit the figure was fitted
// on), view_rev (bumped when the zoom should reset), max_points, plotly_url, busy_text,
// settings and fit_url (the endpoint's request), highlight (selected rows, 0-based).
// Streamlit calls the default export again with new data on every rerun whose data changed;
// all listeners are bound once per element.
//
// Performance marks for benchmarks/tests: window.__svmlabPerf (see PERF); attributes
// data-n-points, data-seq, data-fit-seq (the session's figure), data-refit-seq (the endpoint's
// refit on the layer), data-full-seq (the figure Plotly shows), data-epoch, data-draws,
// data-endpoint on the .svmlab-canvas element, whose __state holds the live state
// (overlayOn: the browser shows something Plotly did not draw; hAt(x, y): h of the layer).

const STATES = new WeakMap();
const PERF = (window.__svmlabPerf = window.__svmlabPerf || {});
for (const k of [
  "pointDrawn", // ms from the click (button released) to the frame that paints the point
  "refitDrawn", // ms from the click to the frame that paints its refit (either path)
  "refitSource", // "endpoint" or "figure": which path painted each refitDrawn
  "endpointMs", // round trip of each endpoint request (POST → answer parsed)
  "serverMs", // the endpoint's own time per request (parse, fit, grid, draw data, JSON)
  "overlayMs", // ms of JS work to paint an endpoint answer on the layer
  "refitArrived", // ms from the click to the session's refitted figure reaching the component
  "fullDrawn", // ms from the click to the frame that paints the session's full figure
  "reactMs", // ms Plotly.react took for each full redraw
  "fits", // the fit numbers of each refit (solver_ms, n_iter, converged)
]) {
  PERF[k] = PERF[k] || [];
}
const CLICK_SLOP_PX = 5; // a press that moves less than this is a click
const HIT_PX = 11; // a click within this distance of a point hits the point
const UNDO_MAX = 200;
const QUIET_MS = 250; // the full figure (Plotly.react blocks ~60-150 ms) waits for a pause
const SEND_DEFER_MS = 300; // the session hears of an edit at most this long after it
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
    fitSeq: 0, // the edit the session's latest figure was fitted on
    figSeq: 0, // the edit st.fig was fitted on (= fitSeq)
    fullSeq: -1, // the edit of the figure Plotly shows
    viewRev: null,
    cls: 1,
    undo: [],
    fig: null,
    figText: null,
    drawnFigText: null,
    maxPoints: 2000,
    Plotly: null,
    ready: null,
    drawn: false,
    pending: new Map(), // seq -> click time, until the click's refit is painted (either path)
    pendingFull: new Map(), // seq -> click time, until the session's figure is painted
    pendingArrive: new Map(), // seq -> click time, until the session's figure arrives
    lastEdit: -Infinity,
    fullTimer: null,
    reacting: false,
    fullAgain: false,
    // the fit endpoint (ui/fit_api.py)
    fitUrl: "",
    endpoint: null, // null: not asked yet, true: answers, false: unavailable (today's path)
    failures: 0,
    settings: {},
    settingsKey: "",
    inFlight: false,
    again: false, // an edit came while a request was in flight: ask again when it answers
    sendDue: false, // the session has not heard of the latest edit yet
    sendTimer: null,
    warm: null, // {points, alpha, key, epoch} of the last answer: the next request's warm start
    refit: null, // the answer on the layer: {ans, h, xs, ys, seq, points, view}
    refitOn: false,
    refitInfo: null, // what the layer drew (tests read it)
    highlight: [],
    down: null,
    drag: null,
    rafPending: false,
    viewTimer: null,
    lastViewSent: null,
    draws: 0,
    setStateValue: null,
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

  // ---- plot interactions (capture phase: we see the press before Plotly does)
  on(st.plot, "mousedown", (ev) => onDown(st, ev), true);
  on(st.plot, "mousemove", (ev) => onHover(st, ev), false);
  st.onUp = (ev) => onUp(st, ev);
  st.onMove = (ev) => onMove(st, ev);
  st.hAt = (x, y) => hAt(st, x, y);
  st.destroy = () => {
    st.listeners.forEach((off) => off());
    clearTimeout(st.fullTimer);
    clearTimeout(st.sendTimer);
    window.removeEventListener("mouseup", st.onUp, true);
    window.removeEventListener("mousemove", st.onMove, true);
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

function hitTest(st, area, clientX, clientY) {
  let best = -1;
  let bestD = HIT_PX * HIT_PX;
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

const RESEND_MS = 3000; // an edit not answered by then is sent again

function sendPoints(st) {
  if (!st.setStateValue) return;
  if (window.__svmlabSyncFlushPending) {
    // the panels' sync (sync.js) is being flushed in this tick; Streamlit would send both
    // updates with the panels' fragment id and the canvas would not rerun: wait one task
    setTimeout(() => sendPoints(st), 0);
    return;
  }
  st.setStateValue("points", { epoch: st.epoch, seq: st.seq, points: st.points });
  clearTimeout(st.resendTimer);
  st.resendTimer = setTimeout(() => {
    if (st.fitSeq < st.seq) sendPoints(st); // a lost rerun: ask again (same content)
  }, RESEND_MS);
}

function commit(st, t0) {
  st.seq += 1;
  st.pending.set(st.seq, t0);
  st.pendingFull.set(st.seq, t0);
  st.pendingArrive.set(st.seq, t0);
  st.lastEdit = performance.now();
  clearTimeout(st.fullTimer);
  if (useEndpoint(st)) {
    requestRefit(st);
    deferSend(st);
  } else {
    sendPoints(st);
  }
  setStatus(st, st.busyText);
  showOverlay(st, t0);
}

// ---- the fit endpoint

function useEndpoint(st) {
  return !!st.fitUrl && st.endpoint !== false;
}

function deferSend(st) {
  // the session's rerun would compete with the endpoint's fit for the server's CPU: tell the
  // session when the endpoint has answered (or SEND_DEFER_MS after the first unsent edit)
  st.sendDue = true;
  if (!st.sendTimer) st.sendTimer = setTimeout(() => flushSend(st), SEND_DEFER_MS);
}

function flushSend(st) {
  clearTimeout(st.sendTimer);
  st.sendTimer = null;
  if (!st.sendDue) return;
  st.sendDue = false;
  sendPoints(st);
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
    view: area ? { x: area.xr.slice(), y: area.yr.slice() } : null,
  };
  const body = { points: req.points, settings: st.settings, seq: req.seq };
  if (req.view) body.view = req.view;
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
    .then((r) => r.text().then((text) => [r.status, text]))
    .then(([status, text]) => {
      PERF.endpointMs.push(performance.now() - t);
      if (status === 200) {
        st.endpoint = true;
        st.failures = 0;
        onAnswer(st, JSON.parse(text), req);
        return;
      }
      if (status === 404 || status === 405) {
        st.endpoint = false; // no endpoint on this server: the session's figure only
      } else {
        st.failures += 1;
        let msg = text;
        try {
          msg = JSON.parse(text).error;
        } catch (e) {
          /* not JSON: keep the text */
        }
        console.warn("SVM Lab refit endpoint:", status, msg);
      }
      flushSend(st); // the session's figure draws this edit
    })
    .catch((err) => {
      if (err.name !== "AbortError") {
        st.failures += 1;
        console.warn("SVM Lab refit endpoint:", err);
      }
      flushSend(st);
    })
    .finally(() => {
      st.inFlight = false;
      if (st.failures >= 3) st.endpoint = false;
      updateAttrs(st);
      if (st.again && useEndpoint(st)) {
        requestRefit(st);
      } else {
        st.again = false;
        // after the refit is painted: a rerun request makes Streamlit's frontend busy
        afterPaint(() => flushSend(st));
      }
    });
}

function afterPaint(fn) {
  requestAnimationFrame(() => setTimeout(fn, 0));
}

function decodeGrid(g) {
  // {"x": [x0, x1, nx], "y": [y0, y1, ny], "h": base64 little-endian float32, row j = ys[j]}
  const bin = atob(g.h);
  const bytes = new Uint8Array(bin.length);
  for (let k = 0; k < bin.length; k++) bytes[k] = bin.charCodeAt(k);
  const axis = ([a, b, n]) => Array.from({ length: n }, (_, i) => a + ((b - a) * i) / (n - 1));
  return { h: new Float32Array(bytes.buffer), xs: axis(g.x), ys: axis(g.y) };
}

function onAnswer(st, ans, req) {
  if (req.epoch !== st.epoch) return; // Python replaced the points meanwhile
  PERF.serverMs.push(ans.server_ms);
  if (ans.ok) {
    st.warm = { points: req.points, alpha: ans.alpha, key: req.key, epoch: req.epoch };
    PERF.fits.push(ans.fit);
  }
  if (req.key !== st.settingsKey) return; // the settings changed: a new request follows
  if (req.seq <= st.fullSeq || (st.refit && req.seq < st.refit.seq)) return; // drawn already
  const t = performance.now();
  st.refit = Object.assign({ ans, seq: req.seq, points: req.points, view: req.view },
    ans.ok ? decodeGrid(ans.grid) : { h: null, xs: [], ys: [] }); // prettier-ignore
  st.refitOn = true;
  drawRefit(st);
  showOverlay(st, null);
  PERF.overlayMs.push(performance.now() - t);
  if (req.seq === st.seq) {
    if (ans.ok) setStatus(st, "");
    else if (ans.kind === "need_two_classes") setStatus(st, "Add points of both classes to train.");
    else setStatus(st, "No model: " + String(ans.message).slice(0, 160), true);
  }
  donePending(st, req.seq, "endpoint");
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
  if (!st.undo.length) return;
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
  if (st.drag || st.down) return;
  const area = plotArea(st);
  if (!area || !inside(area, ev.clientX, ev.clientY)) {
    st.root.classList.remove("over-point");
    return;
  }
  st.root.classList.toggle("over-point", hitTest(st, area, ev.clientX, ev.clientY) >= 0);
}

function onDown(st, ev) {
  if (ev.button !== 0 || !st.drawn) return;
  if (ev.target.closest && ev.target.closest(".modebar")) return;
  const area = plotArea(st);
  if (!area || !inside(area, ev.clientX, ev.clientY)) return; // axes etc.: Plotly's
  const hit = hitTest(st, area, ev.clientX, ev.clientY);
  const [x, y] = toData(area, ev.clientX, ev.clientY);
  st.down = { cx: ev.clientX, cy: ev.clientY, x, y, shift: ev.shiftKey, hit, area };
  if (hit >= 0) {
    // the press is ours (delete or drag); Plotly must not start a zoom box
    ev.stopPropagation();
    ev.preventDefault();
    st.drag = { index: hit, moved: false, before: st.points.map((p) => p.slice()) };
    window.addEventListener("mousemove", st.onMove, true);
  }
  window.addEventListener("mouseup", st.onUp, true);
}

function onMove(st, ev) {
  const d = st.down;
  if (!d || !st.drag) return;
  const dist = Math.hypot(ev.clientX - d.cx, ev.clientY - d.cy);
  if (!st.drag.moved && dist < CLICK_SLOP_PX) return;
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

function onUp(st, ev) {
  window.removeEventListener("mouseup", st.onUp, true);
  window.removeEventListener("mousemove", st.onMove, true);
  const d = st.down;
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
  if (Math.hypot(ev.clientX - d.cx, ev.clientY - d.cy) >= CLICK_SLOP_PX) return; // a zoom box
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
    // ui/figures.py _misclassified_trace: Plotly's "x-thin-open", arms of size / 2
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
  parts.push("</svg>");
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
  st.overlay.innerHTML = "";
  hideLayer(st);
  st.overlayOn = false;
}

function hideLayer(st) {
  st.refitOn = false;
  st.layer.style.display = "none";
}

function markDrawn(list, t0) {
  if (t0 == null) return;
  nextFrame().then((t) => list.push(t - t0));
}

// ---- the session's full figure

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
  const layout = Object.assign({}, fig.layout, { autosize: true });
  delete layout.width;
  st.draws += 1;
  const t = performance.now();
  const drawnSeq = st.figSeq;
  const drawnEpoch = st.epoch;
  const drawnText = st.figText;
  return st.Plotly.react(st.plot, data, layout, st.config).then(() => {
    PERF.reactMs.push(performance.now() - t);
    st.drawn = true;
    if (drawnEpoch !== st.epoch) return null;
    st.fullSeq = drawnSeq;
    st.drawnFigText = drawnText;
    readPointStyle(st);
    if (st.refit && st.refit.seq <= drawnSeq) hideLayer(st); // Plotly shows as new a fit
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

function afterFull(st, seq) {
  if (seq === null) return;
  donePending(st, seq, "figure"); // clicks the endpoint did not draw
  const done = [];
  st.pendingFull.forEach((t0, s) => {
    if (s <= seq) done.push([s, t0]);
  });
  done.forEach(([s]) => st.pendingFull.delete(s));
  if (!done.length) return;
  nextFrame().then((t) => {
    done.forEach(([, t0]) => PERF.fullDrawn.push(t - t0));
    // let the numbers and the table catch up (see sync.js)
    window.dispatchEvent(new CustomEvent("svmlab:drawn", { detail: { seq, epoch: st.epoch } }));
  });
}

function scheduleFull(st) {
  // Plotly.react the session's figure: at once without the endpoint (today's path) and for
  // the first draw; else only when the figure is for the latest edit and the clicks paused
  clearTimeout(st.fullTimer);
  st.fullTimer = null;
  if (!st.fig || !st.Plotly) return;
  if (st.drawn && useEndpoint(st)) {
    if (st.figSeq !== st.seq) return; // a newer edit is on its way to the session
    const wait = st.lastEdit + QUIET_MS - performance.now();
    if (wait > 0) {
      st.fullTimer = setTimeout(() => scheduleFull(st), wait);
      return;
    }
    if (st.figText === st.drawnFigText && st.fullSeq === st.figSeq && !st.overlayOn) return;
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

function resolveSharedGrids(fig) {
  // contour traces marked meta.z_from share x, y, z with another trace (see canvas.py)
  const byRole = {};
  fig.data.forEach((t) => {
    if (t.meta && t.meta.role && !(t.meta.role in byRole)) byRole[t.meta.role] = t;
  });
  fig.data.forEach((t) => {
    const src = t.meta && t.meta.z_from && byRole[t.meta.z_from];
    if (src) {
      t.x = src.x;
      t.y = src.y;
      t.z = src.z;
    }
  });
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

function update(st, data) {
  st.maxPoints = data.max_points || 2000;
  st.busyText = data.busy_text || "";
  st.config = Object.assign({ responsive: true }, data.config || {}, { doubleClick: false });
  st.fitUrl = data.settings ? data.fit_url || "" : ""; // the endpoint needs the settings
  st.highlight = Array.isArray(data.highlight) ? data.highlight : [];
  const settingsKey = JSON.stringify(data.settings || {});
  const settingsChanged = settingsKey !== st.settingsKey;
  st.settings = data.settings || {};
  st.settingsKey = settingsKey;
  if (data.epoch !== st.epoch) {
    // Python replaced the points (dataset, import, table, link): adopt them; edits go on
    // from the session's last adopted one
    if (st.epoch !== null) pushUndo(st);
    st.points = (data.points || []).map((p) => [Number(p[0]), Number(p[1]), p[2] > 0 ? 1 : -1]);
    st.epoch = data.epoch;
    st.seq = Number(data.seq || 0);
    st.pending.clear();
    st.pendingFull.clear();
    st.pendingArrive.clear();
    st.refit = null;
    st.warm = null;
    st.fullSeq = -1;
    st.sendDue = false;
    hideLayer(st);
  }
  if (data.view_rev !== st.viewRev) {
    st.viewRev = data.view_rev;
    st.lastViewSent = null;
  }
  st.fitSeq = Number(data.seq || 0);
  st.figSeq = st.fitSeq;
  if (data.fig !== st.figText) {
    st.figText = data.fig;
    try {
      st.fig = JSON.parse(data.fig);
      resolveSharedGrids(st.fig);
    } catch (e) {
      setStatus(st, "Could not read the figure: " + e.message, true);
      return;
    }
  }
  if (st.fitSeq >= st.seq) setStatus(st, data.status_text || "", !!data.status_error);
  const arrived = performance.now();
  st.pendingArrive.forEach((t0, s) => {
    if (s <= st.fitSeq) {
      PERF.refitArrived.push(arrived - t0);
      if (!useEndpoint(st)) PERF.fits.push(data.fit_info || {});
      st.pendingArrive.delete(s);
    }
  });
  if (settingsChanged && st.refitOn && useEndpoint(st)) requestRefit(st); // the layer is stale
  updateAttrs(st);
  scheduleFull(st);
  setTimeout(() => mirrorUrl(data.url_query), 0);
}

export default function (component) {
  const { data, parentElement, setStateValue } = component;
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
          if (st.refitOn) {
            drawRefit(st);
            refreshView(st);
          }
          if (st.overlayOn) showOverlay(st, null);
          if (ev && Object.keys(ev).some((k) => k.startsWith("xaxis") || k.startsWith("yaxis"))) {
            reportView(st);
          }
        });
        st.plot.on("plotly_relayouting", () => {
          if (st.refitOn) drawRefit(st);
          if (st.overlayOn) showOverlay(st, null);
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
