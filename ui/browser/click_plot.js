// SVM Lab: a Plotly chart that reports a click or a tap in its plot area as data
// coordinates (Streamlit Custom Components v2), for the More classes and Regression pages.
//
// The Playground's canvas knows two classes; st.plotly_chart reports only selections of
// existing markers (and on a touch screen Plotly selects the marker of the previous tap).
// Here a pointer that goes down on the plot area (Plotly's drag rectangle, .nsewdrag) and
// up within MOVE_PX of there is a click: its place in data coordinates goes to Python as the
// trigger value "click" {x, y, seq}; a longer drag is left to Plotly (zoom, pan). The figure
// is drawn with Plotly.react on the same div (like step_plot.js), so a zoom survives a redraw
// (layout.uirevision). The div's data-draws and data-clicks count draws and sent clicks (for
// the browser tests).
//
// By keyboard (click_keys.js): the plot takes focus, the arrow keys move a cursor and Enter
// adds a point there, sent as a click is.
//
// Data from Python (ui/shared/click_plot.py): fig (plotly JSON text), config, plotly_url.

import { attachKeys, redrawCursor } from "./click_keys.js";
import { drawLatest, loadInto } from "./plot_in_place.js";

const STATES = new WeakMap();
const MOVE_PX = 6;

function dataPoint(plot, e) {
  const L = plot._fullLayout;
  const drag = plot.querySelector(".nsewdrag");
  if (!L || !L.xaxis || !L.yaxis || !drag) return null;
  const r = drag.getBoundingClientRect();
  const px = e.clientX - r.left;
  const py = e.clientY - r.top;
  if (px < 0 || py < 0 || px > r.width || py > r.height) return null;
  const x = L.xaxis.p2c(px);
  const y = L.yaxis.p2c(py);
  return Number.isFinite(x) && Number.isFinite(y) ? { x, y } : null;
}

function send(st, x, y) {
  // a point to add, from a click or from the keyboard's Enter
  st.seq += 1;
  st.setTriggerValue("click", { x, y, seq: st.seq });
  st.plot.dataset.clicks = String(st.seq);
}

function listen(st) {
  const plot = st.plot;
  plot.addEventListener(
    "pointerdown",
    (e) => {
      // the target at the press: for a mouse, Plotly covers the page while the button is
      // down (its drag cover), so the release lands on that cover, not on the plot
      const t = e.target;
      const onPlot = !!(t && t.classList && t.classList.contains("nsewdrag"));
      st.down = e.isPrimary && onPlot ? { x: e.clientX, y: e.clientY } : null;
    },
    true
  );
  // the release may land on Plotly's drag cover (outside the plot): listen on the window
  const up = (e) => {
    const d = st.down;
    st.down = null;
    if (!d || !e.isPrimary || e.button > 0 || !st.setTriggerValue) return;
    if (Math.hypot(e.clientX - d.x, e.clientY - d.y) > MOVE_PX) return; // a zoom or a pan
    const p = dataPoint(plot, e);
    if (p) send(st, p.x, p.y);
  };
  const cancel = () => (st.down = null);
  window.addEventListener("pointerup", up, true);
  window.addEventListener("pointercancel", cancel, true);
  st.unlisten = () => {
    window.removeEventListener("pointerup", up, true);
    window.removeEventListener("pointercancel", cancel, true);
  };
}

export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  const plot = parentElement.querySelector(".svmlab-clickplot");
  if (!plot) return undefined;
  let st = STATES.get(parentElement);
  if (!st) {
    st = { plot, latest: null, drawnData: null, busy: false, draws: 0, seq: 0, down: null };
    STATES.set(parentElement, st);
    listen(st);
    st.unkeys = attachKeys(st, (x, y) => st.setTriggerValue && send(st, x, y));
    st.ready = loadInto(st, data);
  }
  st.setTriggerValue = setTriggerValue;
  if (data && data.fig) st.latest = data;
  st.ready.then(() => {
    if (st.Plotly) drawLatest(st).then(() => redrawCursor(st));
  });
  return () => {
    if (parentElement.isConnected) return;
    st.unlisten();
    st.unkeys();
    STATES.delete(parentElement);
    if (st.Plotly) st.Plotly.purge(plot);
  };
}
