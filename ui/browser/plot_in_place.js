// A Plotly chart redrawn in place (Plotly.react on one plot div), shared by the pages' charts
// (chart.js), the Step-through's charts (step_plot.js) and the click plot (click_plot.js): the
// plot library loaded once per element, and only the newest figure drawn, one draw at a time.
// A figure sent with its export words ({title, settings}) gets the PNG and SVG buttons
// (plot_export.js); one sent with a11y ({name, description}) its accessible name and
// description (chart_a11y.js).

import { describeBox, hidePlotlySvgs } from "./chart_a11y.js";
import { withImageButtons } from "./plot_export.js";
import { loadPlotlyFor } from "./plotly_loader.js";

// st.Plotly once the library is there; on failure the plot div says so
export function loadInto(st, data) {
  return loadPlotlyFor(data).then(
    (P) => {
      st.Plotly = P;
    },
    (err) => {
      st.plot.textContent = "The plot library could not be loaded: " + err.message;
    }
  );
}

// Draws st.latest ({fig: plotly JSON text, config, export}) unless it is drawn already; a figure that
// arrives meanwhile is drawn next (only the newest). `prepare(fig)` may rewrite the parsed
// figure; `drawn(layout, ms)` hears of each finished draw. The plot div's data-draws counts.
export async function drawLatest(st, { prepare, drawn } = {}) {
  if (st.busy) return;
  st.busy = true;
  try {
    while (st.latest && st.latest !== st.drawnData) {
      const d = st.latest;
      st.drawnData = d;
      let fig;
      try {
        fig = JSON.parse(d.fig);
        if (prepare) prepare(fig);
      } catch (e) {
        st.plot.textContent = "Could not read the figure: " + e.message;
        continue;
      }
      const layout = Object.assign({}, fig.layout, { autosize: true });
      delete layout.width;
      st.plot.style.height = (layout.height || 450) + "px";
      let config = Object.assign({ responsive: true }, d.config || {});
      if (d.export) {
        st.export = d.export; // read when a button is pressed: the words of the figure shown
        st.config = config;
        config = withImageButtons(st, config);
      }
      const t0 = performance.now();
      await st.Plotly.react(st.plot, fig.data, layout, config);
      if (drawn) drawn(layout, performance.now() - t0);
      hidePlotlySvgs(st.plot);
      describeBox(st.plot, d.a11y);
      st.draws += 1;
      st.plot.dataset.draws = String(st.draws);
    }
  } finally {
    st.busy = false;
  }
}
