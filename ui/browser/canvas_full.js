// SVM Lab click canvas: the latest answer's full Plotly figure (hover, legend, PNG export),
// drawn with Plotly.react once the clicks pause; then the layer and the overlay go.

import { drawRefit } from "./canvas_layer.js";
import { hidePlotlySvgs } from "./chart_a11y.js";
import {
  hideLayer, hideOverlay, pointArrays, readPointStyle, showOverlay, showPlotlyPoints,
} from "./canvas_overlay.js";
import { nextFrame, PERF, updateAttrs } from "./canvas_status.js";
import { roleUids } from "./canvas_traces.js";
import { withImageButtons } from "./plot_export.js";

const QUIET_MS = 250; // the full figure (Plotly.react blocks ~60-150 ms) waits for a pause

const PRESENT_MIN_PX = 300; // the smallest figure present mode shrinks to
const NARROW_PX = 560; // a plot narrower than this (a phone) gets a compact layout (fitNarrow)

function fullDraw(st) {
  const fig = st.fig;
  if (!fig) return Promise.resolve(null);
  const arr = pointArrays(st);
  // a uid per role: Plotly keeps a layer's group for the same layer (canvas_traces.js)
  const data = roleUids(fig.data).map((t) => {
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
  fitPresent(st, layout);
  st.draws += 1;
  const t = performance.now();
  const drawnSeq = st.figSeq;
  const drawnEpoch = st.epoch;
  const drawnFig = fig;
  return st.Plotly.react(st.plot, data, layout, withImageButtons(st, st.config)).then(() => {
    PERF.reactMs.push(performance.now() - t);
    st.drawn = true;
    hidePlotlySvgs(st.plot); // Plotly's svgs read as unnamed images (chart_a11y.js)
    // the groups hidden before the draw may hold other layers now: show them all; the
    // overlay, if it stays, hides the new point groups (showOverlay)
    showPlotlyPoints(st);
    if (drawnEpoch !== st.epoch) {
      if (st.overlayOn) showOverlay(st, null);
      return null;
    }
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

function fitPresent(st, layout) {
  // present mode (a projector, issue 32 item 12): the whole figure below the plot's top edge
  // fits the window, so no part of the plot is scrolled out of sight
  if (!layout.height || !document.querySelector(".svmlab-present-mode")) return;
  const top = st.plot.getBoundingClientRect().top + window.scrollY;
  const room = Math.round(window.innerHeight - top - 8);
  layout.height = Math.max(PRESENT_MIN_PX, Math.min(layout.height, room));
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

export function scheduleFull(st) {
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
