// Every chart's image export: two toolbar buttons, PNG and SVG, in place of Plotly's one PNG
// button (the Playground's canvas, canvas_full.js; the pages' charts, the click plots and the
// Step-through's charts, plot_in_place.js; the step player, step_player.js). The image is the
// plot as shown (the current zoom) with a title on top and a line with the settings, so a saved
// figure says what it shows. The title is drawn only in the image (Plotly.toImage of a copy),
// never on screen.
//
// The words: st.export {title, settings} as Python sent them (ui/shared/chart.py export_text;
// or a function that returns them), else the Playground's: its dataset's title and settingsLine(st.settings, n, st.solverNames). A plot with
// canvas layers drawn over or under it (the step player's shading and lines) names them with
// st.exportLayers(gd) -> [{canvas, above}]: they go into the image as pictures, in place.
// A picture drawn as SVG text, not by Plotly (the (αᵢ, αⱼ) box, box_chart.js), is saved with
// the same band on top (savePicture).

const EXPORT_KERNELS = { linear: "linear kernel", polynomial: "polynomial kernel",
  gaussian: "Gaussian kernel" }; // prettier-ignore
const EXPORT_LOSSES = { hinge: "hinge loss (k = 1)", quadratic: "quadratic loss (k = 2)" };
const EXPORT_BIASES = { free: "free b", augmented: "augmented b" };
const EXPORT_TITLE_PX = 64; // the image is this much taller: the title's band (one line each)
const TITLE_LINE_PX = 24; // each more line of the title (18 px bold) …
const SETTINGS_LINE_PX = 18; // … and of the settings (14 px)
const TITLE_CHAR_PX = 10.5; // a character's width, a little more than on average
const SETTINGS_CHAR_PX = 7.5;

function exportNumber(v) {
  const x = Number(v);
  return Number.isFinite(x) ? String(Number(x.toPrecision(6))).replace("-", "\u2212") : String(v);
}

// "Gaussian kernel σ = 1 · hinge loss (k = 1) · C = 1 · free b · SMO · n = 14"; solverNames:
// the pages' names of the solvers (ui.shared.labels.SOLVER_NAMES, in the canvas payload)
export function settingsLine(s, n, solverNames) {
  s = s || {};
  let kernel = EXPORT_KERNELS[s.kernel] || String(s.kernel || "");
  if (s.kernel === "polynomial") kernel += ` (c + xᵀz)^q, q = ${exportNumber(s.degree)}, c = ${exportNumber(s.coef0)}`;
  if (s.kernel === "gaussian") kernel += ` σ = ${exportNumber(s.sigma)}`;
  const C = s.hard_margin ? "C = ∞ (hard margin)" : `C = ${exportNumber(s.C)}`;
  const parts = [kernel, EXPORT_LOSSES[s.loss] || s.loss, C, EXPORT_BIASES[s.bias] || s.bias,
    (solverNames || {})[s.solver] || s.solver, `n = ${n}`]; // prettier-ignore
  return parts.filter((p) => p !== undefined && p !== "").join(" · ");
}

// Plotly draws title text as its own small HTML subset: escape what the user typed
function exportEscape(v) {
  return String(v).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

// the words on top of the image: {title, line}
export function exportText(st) {
  const e = typeof st.export === "function" ? st.export() : st.export;
  if (e) return { title: e.title || "SVM Lab", line: e.settings || "" };
  const n = (st.points || []).length;
  return { title: st.title || "SVM Lab", line: settingsLine(st.settings, n, st.solverNames) };
}

// `text` in lines of at most `max` characters: broken between settings (" · "), and a setting
// longer than a line between its words; a word longer than a line stays whole
export function wrapWords(text, max) {
  const tokens = [];
  String(text).split(" · ").forEach((part, i) => {
    const words = part.length > max ? part.split(" ") : [part];
    words.forEach((w, j) => tokens.push({ w, sep: j > 0 ? " " : i > 0 ? " · " : "" }));
  });
  const lines = [];
  let cur = "";
  for (const { w, sep } of tokens) {
    if (cur && (cur + sep + w).length > max) {
      lines.push(cur);
      cur = w;
    } else cur = cur ? cur + sep + w : w;
  }
  lines.push(cur);
  return lines;
}

// the figure to save: the plot as it is now, taller by the title's band (the figure's own
// title, if any, gives way to the band's); a narrow plot's words take more lines
function exportFigure(st, gd) {
  const full = gd._fullLayout || {};
  const width = full.width || 700;
  const words = exportText(st);
  const title = wrapWords(words.title, Math.max(12, Math.floor((width - 20) / TITLE_CHAR_PX)));
  const line = wrapWords(words.line, Math.max(20, Math.floor((width - 20) / SETTINGS_CHAR_PX)));
  const band = EXPORT_TITLE_PX + (title.length - 1) * TITLE_LINE_PX + (line.length - 1) * SETTINGS_LINE_PX;
  const height = (full.height || 600) + band;
  const margin = Object.assign({}, gd.layout.margin || {});
  margin.t = (Number(full.margin && full.margin.t) || Number(margin.t) || 0) + band;
  const layout = Object.assign({}, gd.layout, {
    margin,
    width: full.width,
    height,
    title: {
      text: title.map((t) => `<b>${exportEscape(t)}</b>`).join("<br>"),
      subtitle: { text: line.map(exportEscape).join("<br>"), font: { size: 14, color: "#000000" } },
      x: 0.01, xanchor: "left", xref: "container",
      y: 1 - 10 / height, yanchor: "top", yref: "container",
      font: { size: 18, color: "#000000" },
    },
  }); // prettier-ignore
  return { fig: { data: gd.data, layout, config: { staticPlot: true } }, band };
}

function exportImage(st, gd, format) {
  const opts = (st.config && st.config.toImageButtonOptions) || {};
  const { fig, band } = exportFigure(st, gd);
  const size = { width: fig.layout.width, height: fig.layout.height };
  const name = opts.filename || "svm_lab";
  const scale = format === "png" ? opts.scale || 2 : 1;
  const layers = st.exportLayers ? st.exportLayers(gd).filter((l) => l && l.canvas) : [];
  if (layers.length) return layeredImage(st, gd, fig, layers, { format, name, scale, size, band });
  return st.Plotly.downloadImage(fig, Object.assign({ format, filename: name, scale }, size));
}

// ------------------------------------------------------- plots with canvas layers

const SVG_NS = "http://www.w3.org/2000/svg";

// the plot's SVG with each canvas layer as an <image> where it shows on screen (under the
// plot: after a white background; over it: last), as text
async function layeredSVG(st, gd, fig, layers, size, band) {
  const text = await st.Plotly.toImage(fig, Object.assign({ format: "svg", imageDataOnly: true }, size));
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  const root = doc.documentElement;
  const box = gd.getBoundingClientRect();
  const first = root.firstChild;
  const paper = doc.createElementNS(SVG_NS, "rect");
  Object.entries({ x: 0, y: 0, width: size.width, height: size.height, fill: "#ffffff" })
    .forEach(([k, v]) => paper.setAttribute(k, String(v)));
  root.insertBefore(paper, first);
  for (const { canvas, above } of layers) {
    const r = canvas.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const img = doc.createElementNS(SVG_NS, "image");
    const at = { x: r.left - box.left, y: r.top - box.top + band, width: r.width,
      height: r.height, preserveAspectRatio: "none", href: canvas.toDataURL("image/png") }; // prettier-ignore
    Object.entries(at).forEach(([k, v]) => img.setAttribute(k, String(v)));
    if (above) root.appendChild(img);
    else root.insertBefore(img, first);
  }
  return new XMLSerializer().serializeToString(root);
}

function saveBlob(blob, filename) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

async function layeredImage(st, gd, fig, layers, { format, name, scale, size, band }) {
  const svg = await layeredSVG(st, gd, fig, layers, size, band);
  return saveSVGText(svg, { format, name, scale, size });
}

// an SVG's text saved as .svg, or drawn into a PNG `scale` times its size
async function saveSVGText(svg, { format, name, scale, size }) {
  const svgBlob = new Blob([svg], { type: "image/svg+xml" });
  if (format === "svg") return saveBlob(svgBlob, name + ".svg");
  const url = URL.createObjectURL(svgBlob);
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    const cv = document.createElement("canvas");
    cv.width = Math.round(size.width * scale);
    cv.height = Math.round(size.height * scale);
    cv.getContext("2d").drawImage(img, 0, 0, cv.width, cv.height);
    const png = await new Promise((resolve) => cv.toBlob(resolve, "image/png"));
    return saveBlob(png, name + ".png");
  } finally {
    URL.revokeObjectURL(url);
  }
}

// ------------------------------------------------ a picture drawn as SVG text

// [the SVG `svg` (width × height) under a band with the words {title, line} (exportText), its
// height]: the same band as a Plotly chart's image
export function framedSVG(svg, width, height, words) {
  const title = wrapWords(words.title, Math.max(12, Math.floor((width - 20) / TITLE_CHAR_PX)));
  const line = wrapWords(words.line, Math.max(20, Math.floor((width - 20) / SETTINGS_CHAR_PX)));
  const band = EXPORT_TITLE_PX + (title.length - 1) * TITLE_LINE_PX + (line.length - 1) * SETTINGS_LINE_PX;
  const text = (t, y, size, weight) =>
    `<text x="${Math.round(0.01 * width)}" y="${y}" font-size="${size}" font-weight="${weight}" fill="#000000">${exportEscape(t)}</text>`; // prettier-ignore
  const rows = title.map((t, q) => text(t, 28 + q * TITLE_LINE_PX, 18, "bold"));
  const top = 28 + (title.length - 1) * TITLE_LINE_PX + 22;
  line.forEach((t, q) => rows.push(text(t, top + q * SETTINGS_LINE_PX, 14, "normal")));
  const H = height + band;
  return [`<svg xmlns="${SVG_NS}" width="${width}" height="${H}" font-family="Arial, sans-serif">` +
    `<rect width="${width}" height="${H}" fill="#FFFFFF"/>${rows.join("")}` +
    `<g transform="translate(0 ${band})">${svg}</g></svg>`, H]; // prettier-ignore
}

// save the picture `svg` (width × height) as `format` ("png" or "svg") with the words of
// exportText(st); st.config.toImageButtonOptions names the file, as on a Plotly chart
export function savePicture(st, svg, width, height, format) {
  const opts = (st.config && st.config.toImageButtonOptions) || {};
  const [framed, H] = framedSVG(svg, width, height, exportText(st));
  const scale = format === "png" ? opts.scale || 2 : 1;
  return saveSVGText(framed, { format, name: opts.filename || "svm_lab", scale,
    size: { width, height: H } }); // prettier-ignore
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
  const remove = (config.modeBarButtonsToRemove || []).concat(["toImage", "sendChartToCloud"]);
  const button = (format, icon) => ({
    name: `svmlab-${format}`,
    title: `Download the plot as ${format.toUpperCase()} (with its title and settings)`,
    icon,
    click: (gd) => exportImage(st, gd, format),
  });
  return Object.assign({}, config, {
    showSendToCloud: false,
    modeBarButtonsToRemove: remove,
    modeBarButtonsToAdd: [button("png", icons.camera), button("svg", icons["camera-retro"] || icons.camera)],
  }); // prettier-ignore
}
