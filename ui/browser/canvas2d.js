// 2-D canvas helpers (canvas size, ring, heatmap by a Plotly colorscale) shared by the
// Playground's refit layer (canvas_layer.js) and the step player (step_player_draw.js).

import { scaleRgb } from "./colour_scale.js";

export function sizeCanvas(cv, w, h) {
  const dpr = window.devicePixelRatio || 1;
  const W = Math.max(1, Math.round(w * dpr));
  const H = Math.max(1, Math.round(h * dpr));
  if (cv.width !== W || cv.height !== H) {
    cv.width = W;
    cv.height = H;
    cv.style.width = w + "px";
    cv.style.height = h + "px";
  }
  const ctx = cv.getContext("2d");
  // the context keeps its state between draws when the size is unchanged: start afresh
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, w, h);
  ctx.textAlign = "left";
  ctx.textBaseline = "alphabetic";
  ctx.globalAlpha = 1;
  ctx.lineWidth = 1;
  ctx.setLineDash([]);
  return ctx;
}

export function ring(ctx, x, y, size, color, width) {
  ctx.beginPath();
  ctx.arc(x, y, size / 2, 0, 2 * Math.PI);
  ctx.strokeStyle = color;
  ctx.lineWidth = width;
  ctx.stroke();
}

function paintGrid(st, ctx, xs, ys, z, rgb, px, py) {
  // a heatmap of z (row j at ys[j], column i at xs[i]): one pixel per grid point on an
  // offscreen canvas, drawn scaled with smoothing, the bricks centred on the grid points as
  // Plotly's heatmap draws them. rgb(v, data, o) writes the colour of value v at data[o..o+2].
  const nx = xs.length;
  const ny = ys.length;
  if (!st.shadeCanvas) st.shadeCanvas = document.createElement("canvas");
  const off = st.shadeCanvas;
  off.width = nx;
  off.height = ny;
  const octx = off.getContext("2d");
  const img = octx.createImageData(nx, ny);
  const d = img.data;
  for (let j = 0; j < ny; j++) {
    const row = ny - 1 - j; // image rows run top-down
    for (let i = 0; i < nx; i++) {
      const o = 4 * (row * nx + i);
      rgb(z[j * nx + i], d, o);
      d[o + 3] = 255;
    }
  }
  octx.putImageData(img, 0, 0);
  const dx = (xs[nx - 1] - xs[0]) / (nx - 1);
  const dy = (ys[ny - 1] - ys[0]) / (ny - 1);
  const X0 = px(xs[0] - dx / 2);
  const X1 = px(xs[nx - 1] + dx / 2);
  const Y0 = py(ys[ny - 1] + dy / 2);
  const Y1 = py(ys[0] - dy / 2);
  ctx.imageSmoothingEnabled = true;
  ctx.drawImage(off, X0, Y0, X1 - X0, Y1 - Y0);
}

export function shadeScale(st, ctx, xs, ys, z, scale, px, py) {
  // the heatmap of z coloured as Plotly colours it: scale = {colorscale, zmin, zmax} of
  // ui/shared/figures.py's region traces (REGION_COLORSCALE, ±REGION_ZMAX)
  paintGrid(st, ctx, xs, ys, z, scaleRgb(scale), px, py);
}
