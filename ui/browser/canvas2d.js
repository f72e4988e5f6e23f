// 2-D canvas helpers (canvas size, ring, heatmap by a Plotly colorscale) shared by the
// Playground's refit layer (canvas_layer.js) and the step player (step_player_draw.js);
// prepended to each element's script like plotly_loader.js.

function sizeCanvas(cv, w, h) {
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

function ring(ctx, x, y, size, color, width) {
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

function parseHex(c) {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(String(c).trim());
  return m ? [1, 2, 3].map((k) => parseInt(m[k], 16)) : [255, 255, 255];
}

const LUTS = new Map();

function colorLut(scale) {
  // 256 RGB colours along a Plotly colorscale [[v, "#rrggbb"], ...]
  const key = JSON.stringify(scale);
  if (LUTS.has(key)) return LUTS.get(key);
  const stops = scale.map(([v, c]) => [Number(v), parseHex(c)]);
  const lut = new Uint8ClampedArray(256 * 3);
  for (let k = 0; k < 256; k++) {
    const t = k / 255;
    let s = 0;
    while (s < stops.length - 2 && t > stops[s + 1][0]) s++;
    const [v0, c0] = stops[s];
    const [v1, c1] = stops[Math.min(s + 1, stops.length - 1)];
    const f = v1 > v0 ? Math.min(1, Math.max(0, (t - v0) / (v1 - v0))) : 0;
    for (let ch = 0; ch < 3; ch++) lut[3 * k + ch] = c0[ch] + (c1[ch] - c0[ch]) * f;
  }
  LUTS.set(key, lut);
  return lut;
}

function shadeScale(st, ctx, xs, ys, z, scale, px, py) {
  // the heatmap of z coloured as Plotly colours it: scale = {colorscale, zmin, zmax} of
  // ui/shared/figures.py's region traces (REGION_COLORSCALE, ±REGION_ZMAX)
  const { colorscale, zmin, zmax } = scale;
  const lut = colorLut(colorscale);
  const rgb = (v, d, o) => {
    const t = (v - zmin) / (zmax - zmin);
    const k = 3 * Math.round(255 * (t < 0 ? 0 : t > 1 ? 1 : t));
    d[o] = lut[k];
    d[o + 1] = lut[k + 1];
    d[o + 2] = lut[k + 2];
  };
  paintGrid(st, ctx, xs, ys, z, rgb, px, py);
}
