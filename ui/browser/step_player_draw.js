// SVM Lab step player: drawing one step (the state: step_player_state.js).
//
// No Plotly on the hot path (a Plotly.react costs 15–60 ms on the 2-core test machine):
// Plotly draws the static frames once per run (the scatter plot's axes and points, the
// curves); here the shading, the lines h = 0, ±1 (and h = 0 before the step), the rings and
// marks go on canvases under and over the scatter plot, the (αᵢ, αⱼ) box is an SVG string
// (step_box.js), the α bars a canvas, the curves' marker a canvas.
// Each draw records what it drew in st.view (read by tests/browser/test_step_through.py).

import { ring, shadeScale, sizeCanvas } from "./canvas2d.js";
import { isolines } from "./contours.js";
import { escapeHtml, fmt, MINUS, niceTicks, sub, tickText } from "./format.js";
import { boxSVG } from "./step_box.js";
import { gridBefore, stepRecord } from "./step_player_state.js";
import { COL, FONT, MAX_SLACK_LABELS } from "./step_style.js";

// --------------------------------------------------------------------- geometry

function plotArea(gd) {
  const fl = gd && gd._fullLayout;
  if (!fl || !fl.xaxis || !fl.yaxis || !fl.xaxis._length) return null;
  return axesArea(fl.xaxis, fl.yaxis);
}

function axesArea(xa, ya) {
  const A = {
    x0: xa._offset,
    w: xa._length,
    y0: ya._offset,
    h: ya._length,
    xr: xa.range.map(Number),
    yr: ya.range.map(Number),
    ylog: ya.type === "log",
  };
  A.px = (x) => A.x0 + ((x - A.xr[0]) / (A.xr[1] - A.xr[0])) * A.w;
  A.py = (v) => {
    const t = A.ylog ? Math.log10(v) : v;
    return A.y0 + ((A.yr[1] - t) / (A.yr[1] - A.yr[0])) * A.h;
  };
  return A;
}

function strokeLines(ctx, A, lines, style) {
  ctx.save();
  ctx.strokeStyle = style.color;
  ctx.lineWidth = style.width;
  ctx.setLineDash(style.dash || []);
  ctx.lineJoin = "round";
  ctx.lineCap = style.dash ? "butt" : "round";
  ctx.beginPath();
  for (const line of lines) {
    line.forEach((p, idx) => {
      const X = A.px(p[0]);
      const Y = A.py(p[1]);
      if (idx === 0) ctx.moveTo(X, Y);
      else ctx.lineTo(X, Y);
    });
  }
  ctx.stroke();
  ctx.restore();
}

// ------------------------------------------------------------------ the scatter plot

function shadeGrid(st, ctx, A, h) {
  // h on the grid, from the −1 colour through white to the +1 colour: the payload's
  // region scale (ui/shared/figures.py REGION_COLORSCALE, ±REGION_ZMAX), as the Playground paints it
  shadeScale(st, ctx, st.R.xs, st.R.ys, h, st.R.regions, A.px, A.py);
}

function slackFeet(st, P, idx) {
  // ui.shared.figures.slack_segments: Newton steps along the numerical gradient of h towards
  // h(x) = yᵢ; null where no foot was found
  const R = st.R;
  const sv = [];
  for (let p = 0; p < R.n; p++) if (st.alpha[p] !== 0) sv.push(p);
  const b = P.b;
  const hAt = (x, y) => {
    let s = b;
    for (const p of sv) s += st.alpha[p] * R.y[p] * R.K(R.X[2 * p], R.X[2 * p + 1], x, y);
    return s;
  };
  const span = R.span;
  const eps = 1e-5 * span;
  return idx.map((q) => {
    let x = R.X[2 * q];
    let y = R.X[2 * q + 1];
    const target = R.y[q];
    let ok = true;
    for (let it = 0; it < 30; it++) {
      const r = target - hAt(x, y);
      if (Math.abs(r) < 1e-6) break;
      const gx = (hAt(x + eps, y) - hAt(x - eps, y)) / (2 * eps);
      const gy = (hAt(x, y + eps) - hAt(x, y - eps)) / (2 * eps);
      const gg = gx * gx + gy * gy;
      if (!(gg > 1e-18)) {
        ok = false;
        break;
      }
      let sx = (r / gg) * gx;
      let sy = (r / gg) * gy;
      const norm = Math.hypot(sx, sy);
      if (norm > span) {
        sx *= span / norm;
        sy *= span / norm;
      }
      x += sx;
      y += sy;
    }
    ok = ok && Math.abs(target - hAt(x, y)) < 1e-3;
    ok = ok && Math.hypot(x - R.X[2 * q], y - R.X[2 * q + 1]) < 3 * span;
    return ok ? [x, y] : null;
  });
}

export function drawDecision(st, P) {
  const R = st.R;
  const D = st.dec;
  const gd = D.plot;
  const A = plotArea(gd);
  if (!A) return false;
  const W = gd.clientWidth;
  const Hh = gd.clientHeight;
  const k = st.k;
  const b = R.b[k];
  const h = st.hGrid && st.hGrid.length === st.g.length ? st.hGrid : new Float64Array(st.g.length);
  for (let m = 0; m < h.length; m++) h[m] = st.g[m] + b;
  st.hGrid = h;
  const X = R.X;
  const under = sizeCanvas(D.under, W, Hh);
  const over = sizeCanvas(D.over, W, Hh);
  for (const ctx of [under, over]) {
    ctx.save();
    ctx.beginPath();
    ctx.rect(A.x0, A.y0, A.w, A.h);
    ctx.clip();
  }
  shadeGrid(st, under, A, h);
  strokeLines(under, A, isolines(h, R.xs, R.ys, -1).concat(isolines(h, R.xs, R.ys, 1)), {
    color: "#222222",
    width: 2,
    dash: [9, 6],
  });
  strokeLines(under, A, isolines(h, R.xs, R.ys, 0), { color: "#000000", width: 3.5 });
  if (k > 0) {
    const gp = gridBefore(st);
    const bp = R.b[k - 1];
    const hp = st.hPrev && st.hPrev.length === gp.length ? st.hPrev : new Float64Array(gp.length);
    for (let m = 0; m < hp.length; m++) hp[m] = gp[m] + bp;
    st.hPrev = hp;
    strokeLines(under, A, isolines(hp, R.xs, R.ys, 0), {
      color: COL.before,
      width: 3,
      dash: [2, 6],
    });
  }
  const view = { step: k, pair: [], highlight: [], violators: P.violators.map((q) => q + 1),
    free: P.free.map((q) => q + 1), bound: P.bound.map((q) => q + 1),
    misclassified: P.misclassified.map((q) => q + 1), slack: [] }; // prettier-ignore
  if (st.options.show_slack && P.slack.length) {
    const feet = slackFeet(st, P, P.slack);
    const order = P.slack.map((q, s) => s).sort((s1, s2) => P.xi[P.slack[s2]] - P.xi[P.slack[s1]]);
    const labelled = new Set(order.slice(0, MAX_SLACK_LABELS));
    under.save();
    under.strokeStyle = "#333333";
    under.lineWidth = 2;
    under.setLineDash([2, 4]);
    under.beginPath();
    P.slack.forEach((q, s) => {
      const f = feet[s];
      if (!f) return;
      under.moveTo(A.px(X[2 * q]), A.py(X[2 * q + 1]));
      under.lineTo(A.px(f[0]), A.py(f[1]));
    });
    under.stroke();
    under.restore();
    over.fillStyle = "#111111";
    over.font = `14px ${FONT}`;
    over.textBaseline = "middle";
    P.slack.forEach((q, s) => {
      view.slack.push(q + 1);
      if (!labelled.has(s)) return;
      const f = feet[s] || [X[2 * q], X[2 * q + 1]];
      const mxp = (A.px(X[2 * q]) + A.px(f[0])) / 2;
      const myp = (A.py(X[2 * q + 1]) + A.py(f[1])) / 2;
      over.fillText("ξ=" + fmt(P.xi[q], 3), mxp + 4, myp); // as ui/shared/figures.py
    });
  }
  // support-vector rings (ui.shared.figures.ring_sizes), under the points like Plotly's traces
  const scale = R.ringScale !== null ? R.ringScale : P.amax > 0 ? P.amax : 1;
  for (const [list, color, width] of [
    [P.free, COL.free, 2.5],
    [P.bound, COL.bound, 4],
  ]) {
    for (const q of list) {
      const frac = Math.min(1, Math.max(0, st.alpha[q] / scale));
      ring(under, A.px(X[2 * q]), A.py(X[2 * q + 1]), 20 + 18 * frac, color, width);
    }
  }
  if (k > 0) {
    const i = R.I[k - 1];
    const j = R.J[k - 1];
    view.pair = [i + 1, j + 1];
    for (const q of [i, j]) {
      ring(under, A.px(X[2 * q]), A.py(X[2 * q + 1]), 42, COL.hl, 5);
      view.highlight.push([X[2 * q], X[2 * q + 1]]);
    }
  }
  // over the points: the KKT violators, the misclassified, the pair's labels
  over.lineWidth = 3;
  over.strokeStyle = COL.viol;
  for (const q of P.violators) {
    const x = A.px(X[2 * q]);
    const y = A.py(X[2 * q + 1]);
    const r = 15.6; // a Plotly diamond of size 24
    over.beginPath();
    over.moveTo(x, y - r);
    over.lineTo(x + r, y);
    over.lineTo(x, y + r);
    over.lineTo(x - r, y);
    over.closePath();
    over.stroke();
  }
  over.strokeStyle = "#000000";
  for (const q of P.misclassified) {
    const x = A.px(X[2 * q]);
    const y = A.py(X[2 * q + 1]);
    const r = 9;
    over.beginPath();
    over.moveTo(x - r, y - r);
    over.lineTo(x + r, y + r);
    over.moveTo(x + r, y - r);
    over.lineTo(x - r, y + r);
    over.stroke();
  }
  if (k > 0) {
    over.font = `bold 22px ${FONT}`;
    over.fillStyle = COL.pairText;
    over.textBaseline = "bottom";
    over.textAlign = "left";
    over.lineWidth = 4;
    over.strokeStyle = "rgba(255,255,255,0.85)";
    ["i", "j"].forEach((lab, s) => {
      const q = s === 0 ? R.I[k - 1] : R.J[k - 1];
      const x = A.px(X[2 * q]) + 9;
      const y = A.py(X[2 * q + 1]) - 7;
      over.strokeText(lab, x, y);
      over.fillText(lab, x, y);
    });
  }
  under.restore();
  over.restore();
  st.view.decision = view;
  return true;
}

// ------------------------------------------------------------------------ the box

export function drawBox(st) {
  const B = st.box;
  const k = st.k;
  if (k === 0) {
    if (B.shown !== 0) {
      B.el.innerHTML = `<div class="sp-info">${escapeHtml(st.R.text.box_empty)}</div>`;
      B.cap.textContent = "";
      B.shown = 0;
    }
    st.view.box = { step: 0 };
    return;
  }
  const W = Math.max(300, B.el.clientWidth || 500);
  const [svg, view] = boxSVG(stepRecord(st.R, k), W, 520, st.uid);
  B.el.innerHTML = svg;
  B.cap.textContent = st.R.text.box_caption;
  B.shown = k;
  st.view.box = view;
}

// ------------------------------------------------------------------------ α bars

export function drawBars(st) {
  const R = st.R;
  const cv = st.bars;
  const W = Math.max(300, cv.parentElement.clientWidth || 800);
  const Hh = 320;
  const ctx = sizeCanvas(cv, W, Hh);
  const { n, y } = R;
  const a = st.alpha;
  const k = st.k;
  const changed = k > 0 ? [...new Set([R.I[k - 1], R.J[k - 1]])].sort((p, q) => p - q) : [];
  const before = k > 0 ? [R.aold[2 * k - 2], R.aold[2 * k - 1]] : [];
  let top = 0;
  for (let q = 0; q < n; q++) top = Math.max(top, a[q]);
  if (Number.isFinite(R.Cbox)) top = Math.max(top, R.Cbox);
  const ymax = top > 0 ? 1.12 * top : 1;
  const m = { l: 70, r: 20, t: 60, b: 60 };
  const A = { x0: m.l, w: W - m.l - m.r, y0: m.t, h: Hh - m.t - m.b };
  const X = (v) => A.x0 + ((v - 0.5) / n) * A.w;
  const Y = (v) => A.y0 + (1 - v / ymax) * A.h;
  ctx.font = `20px ${FONT}`;
  ctx.fillStyle = "#262730";
  ctx.textBaseline = "alphabetic";
  ctx.fillText(
    `α after this step${changed.length ? " (changed entries in green, old value marked)" : ""}`,
    8,
    28
  );
  // grid, ticks
  ctx.font = `16px ${FONT}`;
  ctx.strokeStyle = "#EEEEEE";
  ctx.lineWidth = 1;
  for (const t of niceTicks(0, ymax, 4)) {
    ctx.beginPath();
    ctx.moveTo(A.x0, Y(t));
    ctx.lineTo(A.x0 + A.w, Y(t));
    ctx.stroke();
    ctx.textAlign = "right";
    ctx.fillText(tickText(t), A.x0 - 8, Y(t) + 5);
  }
  const xt = n <= 20 ? Array.from({ length: n }, (_, q) => q + 1) : niceTicks(1, n, 8);
  ctx.textAlign = "center";
  for (const t of xt) {
    if (t < 1 || t > n || t !== Math.round(t)) continue;
    ctx.fillText(String(t), X(t), A.y0 + A.h + 22);
  }
  ctx.fillText("point", A.x0 + A.w / 2, Hh - 10);
  ctx.save();
  ctx.translate(20, A.y0 + A.h / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.fillText("α", 0, 0);
  ctx.restore();
  // bars (pale class colours edged in the full colour, for 3:1; the changed entries solid green)
  const gap = n <= 60 ? 0.15 : 0;
  const bw = Math.max(1, (A.w / n) * (1 - gap));
  const isChanged = new Set(changed);
  ctx.lineWidth = 1.5;
  for (let q = 0; q < n; q++) {
    if (isChanged.has(q) || !(a[q] > 0)) continue;
    ctx.fillStyle = ctx.strokeStyle = y[q] > 0 ? COL.pos : COL.neg;
    ctx.globalAlpha = 0.45;
    ctx.fillRect(X(q + 1) - bw / 2, Y(a[q]), bw, Y(0) - Y(a[q]));
    ctx.globalAlpha = 1;
    ctx.strokeRect(X(q + 1) - bw / 2, Y(a[q]), bw, Y(0) - Y(a[q]));
  }
  for (const q of changed) {
    ctx.fillStyle = COL.hl;
    ctx.fillRect(X(q + 1) - bw / 2, Y(a[q]), bw, Y(0) - Y(a[q]));
    ctx.strokeStyle = COL.pairEdge;
    ctx.lineWidth = 1.5;
    ctx.strokeRect(X(q + 1) - bw / 2, Y(a[q]), bw, Y(0) - Y(a[q]));
  }
  // the old values of the changed entries
  const mark = Math.max(8, Math.min(30, 600 / Math.max(n, 1)));
  ctx.strokeStyle = "#000000";
  ctx.lineWidth = 3;
  const olds = [];
  if (k > 0) {
    const pts = [R.I[k - 1], R.J[k - 1]];
    pts.forEach((q, s) => {
      olds.push([q + 1, before[s]]);
      ctx.beginPath();
      ctx.moveTo(X(q + 1) - mark / 2, Y(before[s]));
      ctx.lineTo(X(q + 1) + mark / 2, Y(before[s]));
      ctx.stroke();
    });
  }
  if (Number.isFinite(R.Cbox)) {
    ctx.save();
    ctx.strokeStyle = "#444444";
    ctx.lineWidth = 2;
    ctx.setLineDash([8, 6]);
    ctx.beginPath();
    ctx.moveTo(A.x0, Y(R.Cbox));
    ctx.lineTo(A.x0 + A.w, Y(R.Cbox));
    ctx.stroke();
    ctx.restore();
    ctx.font = `15px ${FONT}`;
    ctx.textAlign = "right";
    ctx.fillStyle = "#262730";
    ctx.fillText("C = " + fmt(R.Cbox), A.x0 + A.w, Y(R.Cbox) - 4);
  }
  ctx.strokeStyle = "#444444";
  ctx.lineWidth = 1;
  ctx.strokeRect(A.x0, A.y0, A.w, A.h);
  st.barsArea = { A, X, Y, n };
  st.view.alpha = { step: k, changed: changed.map((q) => q + 1), before: olds, ymax };
}

export function barsHover(st, ev) {
  const tip = st.tip;
  const g = st.barsArea;
  if (!g || !st.R) return;
  const r = st.bars.getBoundingClientRect();
  const x = ev.clientX - r.left;
  const yy = ev.clientY - r.top;
  const q = Math.round(((x - g.A.x0) / g.A.w) * g.n + 0.5) - 1;
  if (q < 0 || q >= g.n || yy < g.A.y0 || yy > g.A.y0 + g.A.h) {
    tip.hidden = true;
    return;
  }
  tip.hidden = false;
  tip.textContent = `α${sub(q + 1)} = ${fmt(st.alpha[q], 5)}  (y = ${st.R.y[q] > 0 ? "+1" : MINUS + "1"})`;
  tip.style.left = Math.min(x + 12, r.width - 180) + "px";
  tip.style.top = Math.max(0, yy - 30) + "px";
}

// ------------------------------------------------------------------------ curves

export function drawCurvesMarker(st) {
  const Cv = st.cur;
  const gd = Cv.plot;
  const fl = gd._fullLayout;
  if (!fl || !fl.xaxis || !fl.yaxis2 || !fl.xaxis2) return false;
  const R = st.R;
  const k = st.k;
  const top = axesArea(fl.xaxis, fl.yaxis);
  const bottom = axesArea(fl.xaxis2, fl.yaxis2);
  const ctx = sizeCanvas(Cv.over, gd.clientWidth, gd.clientHeight);
  const x = top.px(k);
  if (x < top.x0 - 1 || x > top.x0 + top.w + 1) return true; // zoomed away
  ctx.strokeStyle = COL.hl;
  ctx.lineWidth = 2;
  ctx.beginPath();
  ctx.moveTo(x, top.y0);
  ctx.lineTo(x, bottom.y0 + bottom.h);
  ctx.stroke();
  const dot = (A, v, color) => {
    if (!Number.isFinite(v) || (A.ylog && !(v > 0))) return;
    const y = A.py(v);
    if (y < A.y0 - 7 || y > A.y0 + A.h + 7) return;
    ctx.beginPath();
    ctx.arc(x, y, 7, 0, 2 * Math.PI);
    ctx.fillStyle = color;
    ctx.fill();
    ctx.strokeStyle = "#FFFFFF";
    ctx.lineWidth = 2;
    ctx.stroke();
  };
  dot(top, R.dual[k], COL.dual);
  dot(top, R.primal[k], COL.primal);
  dot(bottom, R.kkt[k], COL.kkt);
  st.view.curves = { k, x };
  return true;
}
