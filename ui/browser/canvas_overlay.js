// SVM Lab click canvas: the SVG overlay over the plot: the current points while Plotly's
// figure is stale (Plotly's point traces hidden meanwhile), the misclassified marks of the
// answer on the layer, the rings of the rows selected in the table, and the keyboard's cursor
// or focused point (canvas_keyboard.js).

import { plotArea, toPixel } from "./canvas_geometry.js";
import { cursorMarkup, ringMarkup } from "./canvas_keys.js";
import { markDrawn, PERF, updateAttrs } from "./canvas_status.js";
import { hideGroups, pointGroups, showGroups } from "./canvas_traces.js";
import { PALETTE } from "./palette.js";

const HIGHLIGHT = { color: PALETTE.GREEN, size: 42, width: 5 }; // ui/shared/figures.py _highlight_trace

export function pointArrays(st) {
  const out = { 1: [[], [], []], "-1": [[], [], []] };
  st.points.forEach((p, i) => {
    const a = out[p[2] > 0 ? 1 : "-1"];
    a[0].push(p[0]);
    a[1].push(p[1]);
    a[2].push(i + 1);
  });
  return out;
}

export function readPointStyle(st) {
  // marker style of the point traces as Plotly resolved it (so the overlay matches)
  const style = {};
  (st.plot._fullData || []).forEach((t) => {
    if (t.meta && t.meta.role === "points") {
      const m = t.marker || {};
      style[t.meta.label > 0 ? 1 : -1] = {
        color: m.color || (t.meta.label > 0 ? PALETTE.BLUE : PALETTE.VERMILLION),
        symbol: String(m.symbol || "circle"),
        size: Number(m.size) || 12,
        line: (m.line && m.line.color) || PALETTE.WHITE,
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

export function showOverlay(st, t0) {
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
    // ui/shared/figures.py _misclassified_trace: Plotly's "x-thin-open", arms of size / 2
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
  parts.push(highlightMarkup(st, area), "</svg>");
  st.overlay.innerHTML = parts.join("");
  // Plotly's (stale) point traces under it: hidden, and remembered (canvas_traces.js)
  hideGroups(st.hiddenGroups, pointGroups(st.plot._fullData, st.plot.calcdata));
  st.overlayOn = true;
  updateAttrs(st);
  markDrawn(PERF.pointDrawn, t0);
}

export function showPlotlyPoints(st) {
  // every group the overlay hid is shown again: Plotly may have reused it for another layer
  showGroups(st.hiddenGroups);
}

export function hideOverlay(st) {
  showPlotlyPoints(st);
  st.overlayOn = false;
  showHighlight(st);
  hideLayer(st);
}

function highlightMarkup(st, area) {
  // rings around the points of the rows selected in the table
  const { rect } = area;
  const r = HIGHLIGHT.size / 2;
  const rings = st.highlight
    .filter((i) => st.points[i])
    .map((i) => {
      const q = toPixel(area, st.points[i][0], st.points[i][1]);
      return `<circle class="svmlab-hl" cx="${q[0] - rect.left}" cy="${q[1] - rect.top}" ` +
        `r="${r}" fill="none" stroke="${HIGHLIGHT.color}" stroke-width="${HIGHLIGHT.width}"/>`;
    })
    .join("");
  return rings + keyMarkup(st, area);
}

function keyShown(st) {
  return !!(st.kbd && st.kbd.on);
}

function keyMarkup(st, area) {
  // the keyboard's place while the plot has the keyboard: a ring on the focused point, else
  // the cursor's crosshair
  if (!keyShown(st)) return "";
  const { rect } = area;
  const k = st.kbd;
  const p = k.focus >= 0 ? st.points[k.focus] : null;
  if (!p && k.x == null) return "";
  const q = toPixel(area, p ? p[0] : k.x, p ? p[1] : k.y);
  if (!p) return cursorMarkup(q[0] - rect.left, q[1] - rect.top);
  const style = (st.pointStyle || {})[p[2] > 0 ? 1 : -1];
  return ringMarkup(q[0] - rect.left, q[1] - rect.top, (style ? style.size / 2 : 6) + 7);
}

export function showHighlight(st) {
  // the overlay without points (Plotly shows them): the selected rows' rings only
  if (st.overlayOn) return showOverlay(st, null);
  const area = plotArea(st);
  if (!area || (!st.highlight.length && !keyShown(st))) {
    st.overlay.innerHTML = "";
    return undefined;
  }
  const wrap = st.overlay.getBoundingClientRect();
  const { rect } = area;
  st.overlay.innerHTML =
    `<svg x="${rect.left - wrap.left}" y="${rect.top - wrap.top}" width="${rect.width}" ` +
    `height="${rect.height}" overflow="hidden">${highlightMarkup(st, area)}</svg>`;
  return undefined;
}

export function hideLayer(st) {
  st.refitOn = false;
  st.layer.style.display = "none";
}

export function toggleRow(st, ev) {
  // a click on a table row rings its point in the plot (again: unrings it)
  const tr = ev.target.closest && ev.target.closest("tr[data-row]");
  if (!tr) return;
  const i = Number(tr.dataset.row);
  const k = st.highlight.indexOf(i);
  if (k >= 0) st.highlight.splice(k, 1);
  else st.highlight.push(i);
  tr.classList.toggle("selected", k < 0);
  tr.setAttribute("aria-selected", k < 0 ? "true" : "false");
  showHighlight(st);
  updateAttrs(st);
}
