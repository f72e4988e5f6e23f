// SVM Lab click canvas: what it reports about itself: the status line, the data-* attributes
// of the .svmlab-canvas element and the timings in window.__svmlabPerf (PERF), read by the
// browser tests and benchmarks/bench_latency.py.

export const PERF = (window.__svmlabPerf = window.__svmlabPerf || {});
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

export function nextFrame() {
  // resolves at the start of the next animation frame: the browser paints the DOM as it is
  // now right after this callback
  return new Promise((r) => requestAnimationFrame(() => r(performance.now())));
}

export function markDrawn(list, t0) {
  if (t0 == null) return;
  nextFrame().then((t) => list.push(t - t0));
}

export function setStatus(st, text, isError, quiet) {
  // quiet: the live region says it otherwise (an edit's sentence names why there is no model)
  st.statusEl.textContent = text || "";
  st.statusEl.classList.toggle("error", !!isError);
  if (isError && text && !quiet) say(st, text); // the status line is no live region
}

export function say(st, text) {
  // the canvas's one live region (polite, visually hidden): a short sentence per change,
  // never the whole panel (WCAG 4.1.3). The same sentence again is still a change to say.
  const el = st.sayEl;
  if (!el || !text) return;
  el.textContent = el.textContent === text ? text + "\u00a0" : text;
}

export function updateAttrs(st) {
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
  d.keyFocus = String(st.kbd ? st.kbd.focus : -1); // the point the keyboard has (-1: cursor)
}
