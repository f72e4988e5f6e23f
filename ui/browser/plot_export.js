// The Playground plot's image export (imported by canvas_full.js): two
// toolbar buttons, PNG and SVG, in place of Plotly's one PNG button. The image is the plot as
// shown (the current zoom) with a title on top: the dataset's title and a line with the
// settings (kernel and its parameter, loss, C, bias, solver, n), so a saved figure says what
// it shows. The title is drawn only in the image (Plotly.toImage of a copy), never on screen.

const EXPORT_KERNELS = { linear: "linear kernel", polynomial: "polynomial kernel",
  gaussian: "Gaussian kernel" }; // prettier-ignore
const EXPORT_LOSSES = { hinge: "hinge loss (k = 1)", quadratic: "quadratic loss (k = 2)" };
const EXPORT_BIASES = { free: "free b", augmented: "augmented b" };
const EXPORT_SOLVERS = { smo: "SMO", qp: "QP (cvxopt)", sga: "SGA", newton: "Newton",
  psvm: "PSVM" }; // prettier-ignore
const EXPORT_TITLE_PX = 64; // the image is this much taller: the title's band

function exportNumber(v) {
  const x = Number(v);
  return Number.isFinite(x) ? String(Number(x.toPrecision(6))).replace("-", "\u2212") : String(v);
}

// "Gaussian kernel σ = 1 · hinge loss (k = 1) · C = 1 · free b · SMO · n = 14"
export function settingsLine(s, n) {
  s = s || {};
  let kernel = EXPORT_KERNELS[s.kernel] || String(s.kernel || "");
  if (s.kernel === "polynomial") kernel += ` (c + xᵀz)^q, q = ${exportNumber(s.degree)}, c = ${exportNumber(s.coef0)}`;
  if (s.kernel === "gaussian") kernel += ` σ = ${exportNumber(s.sigma)}`;
  const C = s.hard_margin ? "C = ∞ (hard margin)" : `C = ${exportNumber(s.C)}`;
  const parts = [kernel, EXPORT_LOSSES[s.loss] || s.loss, C, EXPORT_BIASES[s.bias] || s.bias,
    EXPORT_SOLVERS[s.solver] || s.solver, `n = ${n}`]; // prettier-ignore
  return parts.filter((p) => p !== undefined && p !== "").join(" · ");
}

// Plotly draws title text as its own small HTML subset: escape what the user typed
function exportEscape(v) {
  return String(v).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

// the figure to save: the plot as it is now, taller by the title's band
function exportFigure(st, gd) {
  const full = gd._fullLayout || {};
  const margin = Object.assign({}, gd.layout.margin || {});
  margin.t = (Number(margin.t) || 0) + EXPORT_TITLE_PX;
  const title = st.title || "SVM Lab";
  const line = settingsLine(st.settings, (st.points || []).length);
  const layout = Object.assign({}, gd.layout, {
    margin,
    width: full.width,
    height: (full.height || 600) + EXPORT_TITLE_PX,
    title: {
      text: `<b>${exportEscape(title)}</b>`,
      subtitle: { text: exportEscape(line), font: { size: 14, color: "#000000" } },
      x: 0.01, xanchor: "left", xref: "container",
      y: 1 - 10 / ((full.height || 600) + EXPORT_TITLE_PX), yanchor: "top", yref: "container",
      font: { size: 18, color: "#000000" },
    },
  }); // prettier-ignore
  return { data: gd.data, layout, config: { staticPlot: true } };
}

function exportImage(st, gd, format) {
  const opts = (st.config && st.config.toImageButtonOptions) || {};
  const fig = exportFigure(st, gd);
  return st.Plotly.downloadImage(fig, {
    format,
    filename: opts.filename || "svm_lab",
    width: fig.layout.width,
    height: fig.layout.height,
    scale: format === "png" ? opts.scale || 2 : 1,
  });
}

// the config Plotly.react gets: Plotly's own PNG button out, ours (PNG and SVG) in. The same
// object (the same click functions) while the config's values stay the same: a config that
// differs makes Plotly.react redraw everything (and forget the toolbar's chosen tool, pan)
export function withImageButtons(st, config) {
  const key = JSON.stringify(config);
  if (st.imageConfigKey !== key) {
    st.imageConfigKey = key;
    st.imageConfig = imageConfig(st, config);
  }
  return st.imageConfig;
}

function imageConfig(st, config) {
  const icons = st.Plotly.Icons || {};
  const remove = (config.modeBarButtonsToRemove || []).concat(["toImage"]);
  const button = (format, icon) => ({
    name: `svmlab-${format}`,
    title: `Download the plot as ${format.toUpperCase()} (with its title and settings)`,
    icon,
    click: (gd) => exportImage(st, gd, format),
  });
  return Object.assign({}, config, {
    modeBarButtonsToRemove: remove,
    modeBarButtonsToAdd: [button("png", icons.camera), button("svg", icons["camera-retro"] || icons.camera)],
  }); // prettier-ignore
}
