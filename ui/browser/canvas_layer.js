// SVM Lab click canvas, part 1 of 2: the refit layer (ui/playground/canvas.py joins it before canvas.js
// into one module).
//
// Paints the fit endpoint's answer (ui/serving/fit_api.py: h on a grid, the styles and traces of
// ui/shared/figures.py's decision figure) on a canvas over the plot area, in the plot's current axis
// ranges, until the session's full Plotly figure replaces it: shading by h, h = ±1 dashed and
// h = 0 solid (marching squares, ideas from ui/browser/step_player_state.js), slack segments with
// their ξ labels, SV rings sized by α/C, the selected rows. The points and the misclassified
// marks are drawn above it by canvas.js (showOverlay).

const FONT = "Source Sans Pro, Arial, sans-serif"; // ui/shared/figures.py layout.font

function shade(st, ctx, R, px, py) {
  // the heatmap of h (ui/shared/figures.py _region_traces), coloured by its colorscale
  shadeScale(st, ctx, R.xs, R.ys, R.h, R.ans.regions, px, py);
}

function isolines(z, xs, ys, level) {
  // marching squares on z (row j at ys[j]), ideas from ui/browser/step_player_state.js: a segment
  // per cell between the crossed edges, stitched into polylines so dashes run on.
  // Edge ids: r * nx + c for the horizontal edge (r, c)-(r, c + 1), nx * ny + r * nx + c for
  // the vertical edge (r, c)-(r + 1, c).
  const nx = xs.length;
  const ny = ys.length;
  const V = nx * ny;
  const segA = [];
  const segB = [];
  const ends = new Map();
  const add = (e1, e2) => {
    const s = segA.length;
    segA.push(e1);
    segB.push(e2);
    for (const e of [e1, e2]) {
      const l = ends.get(e);
      if (l) l.push(s);
      else ends.set(e, [s]);
    }
  };
  for (let r = 0; r < ny - 1; r++) {
    for (let c = 0; c < nx - 1; c++) {
      const v00 = z[r * nx + c];
      const v01 = z[r * nx + c + 1];
      const v11 = z[(r + 1) * nx + c + 1];
      const v10 = z[(r + 1) * nx + c];
      const code = (v00 > level) | ((v01 > level) << 1) | ((v11 > level) << 2) | ((v10 > level) << 3);
      if (code === 0 || code === 15) continue;
      const B = r * nx + c;
      const Rt = V + r * nx + c + 1;
      const T = (r + 1) * nx + c;
      const L = V + r * nx + c;
      if (code === 5 || code === 10) {
        // a saddle: the centre value decides which corners connect
        const high = (v00 + v01 + v11 + v10) / 4 > level;
        if ((code === 5) === high) {
          add(L, T);
          add(B, Rt);
        } else {
          add(L, B);
          add(Rt, T);
        }
        continue;
      }
      const pair = { 1: [L, B], 2: [B, Rt], 3: [L, Rt], 4: [Rt, T], 6: [B, T], 7: [L, T] };
      const [e1, e2] = pair[code] || pair[15 - code];
      add(e1, e2);
    }
  }
  const point = (e) => {
    if (e < V) {
      const r = Math.floor(e / nx);
      const c = e % nx;
      const a = z[r * nx + c];
      const t = (level - a) / (z[r * nx + c + 1] - a);
      return [xs[c] + t * (xs[c + 1] - xs[c]), ys[r]];
    }
    const r = Math.floor((e - V) / nx);
    const c = (e - V) % nx;
    const a = z[r * nx + c];
    const t = (level - a) / (z[(r + 1) * nx + c] - a);
    return [xs[c], ys[r] + t * (ys[r + 1] - ys[r])];
  };
  const used = new Uint8Array(segA.length);
  const follow = (s, entry) => {
    // from segment s, entered through edge `entry`, along the chain; the exit edges
    const out = [];
    let cur = s;
    while (cur !== undefined && !used[cur]) {
      used[cur] = 1;
      const exit = segA[cur] === entry ? segB[cur] : segA[cur];
      out.push(exit);
      entry = exit;
      cur = (ends.get(exit) || []).find((o) => !used[o]);
    }
    return out;
  };
  const lines = [];
  for (let s = 0; s < segA.length; s++) {
    if (used[s]) continue;
    const start = segA[s];
    const ahead = follow(s, start);
    const prev = (ends.get(start) || []).find((o) => !used[o]);
    const back = prev === undefined ? [] : follow(prev, start).reverse();
    lines.push(back.concat([start], ahead).map(point));
  }
  return lines;
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

function drawRefit(st) {
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
  const a = R.ans;
  const info = { seq: R.seq, n: R.points.length, ok: a.ok, rings: 0, boundary: 0, margins: 0,
    slack: 0, labels: 0, misclassified: a.ok ? a.misclassified.length : 0,
    xr: area.xr.slice(), yr: area.yr.slice() }; // prettier-ignore
  if (a.ok) {
    shade(st, ctx, R, px, py);
    const margins = isolines(R.h, R.xs, R.ys, -1).concat(isolines(R.h, R.xs, R.ys, 1));
    const boundary = isolines(R.h, R.xs, R.ys, 0);
    strokeLines(ctx, margins, a.margins, px, py);
    strokeLines(ctx, boundary, a.boundary, px, py);
    info.margins = margins.length;
    info.boundary = boundary.length;
    const sl = a.slack;
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
    for (const g of a.rings) {
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

function hAt(st, x, y) {
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
