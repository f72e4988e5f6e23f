// SVM Lab: one chart of a page (Streamlit Custom Components v2), redrawn in place with
// Plotly.react, with the PNG and SVG buttons whose image carries the chart's title and
// settings (plot_export.js). Data from Python (ui/shared/chart.py): fig (plotly JSON text),
// config, export {title, settings}, plotly_url. The plot div's data-draws counts finished
// draws (for the browser tests).

import { drawLatest, loadInto } from "./plot_in_place.js";

const STATES = new WeakMap();

export default function (component) {
  const { data, parentElement } = component;
  const plot = parentElement.querySelector(".svmlab-chart");
  if (!plot) return undefined;
  let st = STATES.get(parentElement);
  if (!st) {
    st = { plot, latest: null, drawnData: null, busy: false, draws: 0, Plotly: null };
    STATES.set(parentElement, st);
    st.ready = loadInto(st, data);
  }
  if (data && data.fig) st.latest = data;
  st.ready.then(() => {
    if (st.Plotly) drawLatest(st);
  });
  return () => {
    if (parentElement.isConnected) return;
    STATES.delete(parentElement);
    if (st.Plotly) st.Plotly.purge(plot);
  };
}
