// SVM Lab click canvas: the refit layer.
//
// Paints the fit endpoint's answer (ui/serving/fit_api.py: h on a grid, the styles and traces of
// ui/shared/figures.py's decision figure) on a canvas over the plot area, in the plot's current axis
// ranges, until the session's full Plotly figure replaces it: shading by h, h = ±1 dashed and
// h = 0 solid (contours.js), slack segments with their ξ labels, SV rings sized by α/C, the
// selected rows. The points and the misclassified marks are drawn above it by
// canvas_overlay.js.

import { ring, shadeScale, sizeCanvas } from "./canvas2d.js";
import { plotArea } from "./canvas_geometry.js";
import { isolines } from "./contours.js";

const FONT = "Source Sans Pro, Arial, sans-serif"; // ui/shared/figures.py layout.font

function shade(st, ctx, R, px, py) {
  // the heatmap of h (ui/shared/figures.py _region_traces), coloured by its colorscale
  shadeScale(st, ctx, R.xs, R.ys, R.h, R.ans.regions, px, py);
}

function dashArray(dash, width) {
  // Plotly's dash patterns scale with max(width, 3)
  const d = Math.max(width, 3);
  const table = {
    dot: [d, d],
    dash: [3 * d, 3 * d],
    longdash: [5 * d, 5 * d],
    dashdot: [3 * d, d, d, d],
    longdashdot: [5 * d, 2 * d, d, 2 * d],
  };
  return table[dash] || [];
}

function strokeLines(ctx, lines, style, px, py) {
  ctx.save();
  ctx.strokeStyle = style.color;
  ctx.lineWidth = style.width;
  ctx.setLineDash(dashArray(style.dash, style.width));
  ctx.lineJoin = "round";
  ctx.beginPath();
  for (const line of lines) {
    line.forEach((p, k) => (k ? ctx.lineTo(px(p[0]), py(p[1])) : ctx.moveTo(px(p[0]), py(p[1]))));
  }
  ctx.stroke();
  ctx.restore();
}

export function drawRefit(st) {
  // The endpoint's refit on the layer, in the plot's current axis ranges: shading by h,
  // h = ±1 dashed, h = 0 solid, slack segments and ξ labels, SV rings (the
  // order of ui/shared/figures.py's traces; the points and the misclassified marks are the SVG
  // overlay's, above)
  const R = st.refit;
  const area = plotArea(st);
  if (!R || !area) return;
  const wrap = st.wrap.getBoundingClientRect();
  const ctx = sizeCanvas(st.layer, wrap.width, wrap.height);
  const x0 = area.rect.left - wrap.left;
  const y0 = area.rect.top - wrap.top;
  const w = area.rect.width;
  const h = area.rect.height;
  const [xa, xb] = area.xr;
  const [ya, yb] = area.yr;
  const px = (x) => x0 + ((x - xa) / (xb - xa)) * w;
  const py = (y) => y0 + ((yb - y) / (yb - ya)) * h;
  ctx.save();
  ctx.beginPath();
  ctx.rect(x0 + 1, y0 + 1, w - 2, h - 2); // inside the axis lines
  ctx.clip();
  ctx.fillStyle = "#FFFFFF"; // plot_bgcolor: the stale figure must not show through
  ctx.fillRect(x0, y0, w, h);
  const ans = R.ans;
  const info = { seq: R.seq, n: R.points.length, ok: ans.ok, rings: 0, boundary: 0, margins: 0,
    slack: 0, labels: 0, misclassified: ans.ok ? ans.misclassified.length : 0,
    xr: area.xr.slice(), yr: area.yr.slice() }; // prettier-ignore
  if (ans.ok) {
    shade(st, ctx, R, px, py);
    const margins = isolines(R.h, R.xs, R.ys, -1).concat(isolines(R.h, R.xs, R.ys, 1));
    const boundary = isolines(R.h, R.xs, R.ys, 0);
    strokeLines(ctx, margins, ans.margins, px, py);
    strokeLines(ctx, boundary, ans.boundary, px, py);
    info.margins = margins.length;
    info.boundary = boundary.length;
    const sl = ans.slack;
    if (sl.style && sl.lines.length) {
      const segs = sl.lines.map(([p, q, r, s]) => [[p, q], [r, s]]);
      strokeLines(ctx, segs, sl.style, px, py);
      info.slack = segs.length;
    }
    if (sl.font && sl.labels.length) {
      ctx.fillStyle = sl.font.color;
      ctx.font = `${sl.font.size}px ${FONT}`;
      ctx.textBaseline = "middle";
      ctx.textAlign = "left";
      for (const [x, y, text] of sl.labels) ctx.fillText(text, px(x) + 3, py(y));
      info.labels = sl.labels.length;
    }
    for (const g of ans.rings) {
      for (let k = 0; k < g.x.length; k++) {
        ring(ctx, px(g.x[k]), py(g.y[k]), g.size[k], g.color, g.width);
      }
      info.rings += g.x.length;
    }
  }
  ctx.restore();
  st.layer.style.display = "";
  st.refitInfo = info;
}

export function hAt(st, x, y) {
  // h(x, y) as the layer shows it: bilinear in the endpoint's grid (null without one)
  const R = st.refit;
  if (!R || !R.h) return null;
  const { xs, ys, h } = R;
  const nx = xs.length;
  const ny = ys.length;
  const fx = Math.min(nx - 1, Math.max(0, ((x - xs[0]) / (xs[nx - 1] - xs[0])) * (nx - 1)));
  const fy = Math.min(ny - 1, Math.max(0, ((y - ys[0]) / (ys[ny - 1] - ys[0])) * (ny - 1)));
  const i = Math.min(nx - 2, Math.floor(fx));
  const j = Math.min(ny - 2, Math.floor(fy));
  const u = fx - i;
  const v = fy - j;
  const at = (jj, ii) => h[jj * nx + ii];
  return (
    (1 - u) * (1 - v) * at(j, i) + u * (1 - v) * at(j, i + 1) +
    (1 - u) * v * at(j + 1, i) + u * v * at(j + 1, i + 1)
  ); // prettier-ignore
}
