// SVM Lab Step-through: one Plotly chart that is redrawn in place (Streamlit Custom
// Components v2).
//
// st.plotly_chart remounts its chart whenever the figure changes (a full Plotly.newPlot per
// step, plus the server validating every figure); this component keeps one plot div per
// element and calls Plotly.react with each step's figure on the live plot (no new plot per
// step, no validation on the server), and a zoom survives stepping (layout.uirevision).
//
// Data from Python (ui/step_through/plot.py): fig (plotly JSON text; contour traces with
// meta.z_from share x, y, z with the trace of that role), config, plotly_url.
// The plot div carries data-step (the figure's layout.meta.step) and data-draws after every
// finished draw, for the browser test and the latency benchmark; window.__svmlabStepReact
// keeps [chart, ms] of the recent Plotly.react calls (benchmarks/bench_latency.py).

import { drawLatest, loadInto } from "./plot_in_place.js";

const STATES = new WeakMap();
// [chart name, ms] of every Plotly.react, for benchmarks/bench_latency.py
const PERF = (window.__svmlabStepReact = window.__svmlabStepReact || []);

function resolveSharedGrids(fig) {
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

// a finished draw: its time for the benchmark, its step for the browser test
function noteDraw(st, layout, ms) {
  PERF.push([st.name, ms]);
  if (PERF.length > 2000) PERF.splice(0, 1000); // a long play must not grow it for ever
  const meta = layout.meta || {};
  st.plot.dataset.step = String(meta.step !== undefined ? meta.step : meta.k);
}

export default function (component) {
  const { data, parentElement } = component;
  const plot = parentElement.querySelector(".svmlab-stepplot");
  if (!plot) return undefined;
  let st = STATES.get(parentElement);
  if (!st) {
    const keyed = parentElement.closest("[class*='st-key-']");
    const name = keyed ? (keyed.className.match(/st-key-(\S+)/) || [])[1] : "";
    st = { plot, name, latest: null, drawnData: null, busy: false, draws: 0, Plotly: null };
    STATES.set(parentElement, st);
    st.ready = loadInto(st, data);
  }
  if (data && data.fig) st.latest = data;
  st.ready.then(() => {
    if (st.Plotly) {
      drawLatest(st, {
        prepare: resolveSharedGrids,
        drawn: (layout, ms) => noteDraw(st, layout, ms),
      });
    }
  });
  return () => {
    if (!parentElement.isConnected && st.Plotly) st.Plotly.purge(plot);
  };
}
