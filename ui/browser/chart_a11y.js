// A chart's accessible name and description (WCAG 1.1.1), for every Plotly chart (chart.js,
// click_plot.js, step_plot.js through plot_in_place.js) and the Playground's canvas: the
// chart's box becomes role="figure" named by aria-label and described by a visually hidden
// <p> beside it (aria-describedby). Plotly's own <svg class="main-svg"> would read as an
// unnamed image, or one named after its tick labels, each toolbar button's icon as an
// unnamed image inside the named button, and a 3-D scene's overlay svg as an empty image:
// every svg of the plot is hidden from the accessibility tree after each draw.
// The toolbar's buttons (PNG, SVG, zoom) stay, named by their titles.
// The words come from Python (ui/shared/describe.py) or, on the canvas, from describe.js.

let counter = 0;

// the style of a text only a screen reader reads (as Bootstrap's visually-hidden)
const HIDDEN_STYLE =
  "position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;" +
  "clip:rect(0,0,0,0);white-space:nowrap;border:0";

export function hidePlotlySvgs(plot) {
  // Plotly draws its layers anew on some redraws: hide each one it has now
  plot.querySelectorAll("svg").forEach((s) => {
    s.setAttribute("aria-hidden", "true");
  });
}

export function describeBox(box, words) {
  // box: the chart's element; words: {name, description} (missing: left as they are)
  if (!box || !words) return;
  let p = box.svmlabDescription;
  if (!p) {
    counter += 1;
    p = box.ownerDocument.createElement("p");
    p.id = `svmlab-chart-desc-${counter}`;
    p.className = "svmlab-chart-description";
    p.setAttribute("style", HIDDEN_STYLE);
    box.insertAdjacentElement("afterend", p);
    box.svmlabDescription = p;
    // a plot that takes keys (role="application", click_keys.js, the canvas) keeps its role:
    // a screen reader then passes the keys to it
    if (box.getAttribute("role") !== "application") box.setAttribute("role", "figure");
    box.setAttribute("aria-describedby", p.id);
  }
  // its name, then (on a plot that takes keys) what the keys do
  if (words.name) {
    const keys = box.dataset.keys ? ` ${box.dataset.keys}` : "";
    box.setAttribute("aria-label", `${String(words.name)}.${keys}`.replace(/\.\./g, "."));
  }
  if (words.description != null && p.textContent !== String(words.description)) {
    p.textContent = String(words.description);
  }
}
