// SVM Lab click canvas: the plot area's pixels ↔ data coordinates, from Plotly's live layout,
// and which point a press hits.

export const HIT_PX = 11; // a click within this distance of a point hits the point

export function roundTo(v, span) {
  const digits = Math.max(0, 3 - Math.floor(Math.log10(Math.max(span, 1e-12))));
  return Number(v.toFixed(Math.min(digits, 12)));
}

export function plotArea(st) {
  const fl = st.plot._fullLayout;
  if (!fl || !fl.xaxis || !fl.yaxis) return null;
  const drag = st.plot.querySelector(".nsewdrag");
  let rect;
  if (drag) {
    const r = drag.getBoundingClientRect();
    rect = { left: r.left, top: r.top, width: r.width, height: r.height };
  } else {
    const r = st.plot.getBoundingClientRect();
    rect = {
      left: r.left + fl.xaxis._offset,
      top: r.top + fl.yaxis._offset,
      width: fl.xaxis._length,
      height: fl.yaxis._length,
    };
  }
  return { rect, xr: fl.xaxis.range.map(Number), yr: fl.yaxis.range.map(Number) };
}

export function toData(area, clientX, clientY) {
  const { rect, xr, yr } = area;
  const fx = (clientX - rect.left) / rect.width;
  const fy = (clientY - rect.top) / rect.height;
  return [xr[0] + fx * (xr[1] - xr[0]), yr[1] - fy * (yr[1] - yr[0])];
}

export function toPixel(area, x, y) {
  const { rect, xr, yr } = area;
  return [
    rect.left + ((x - xr[0]) / (xr[1] - xr[0])) * rect.width,
    rect.top + ((yr[1] - y) / (yr[1] - yr[0])) * rect.height,
  ];
}

export function inside(area, clientX, clientY) {
  const { rect } = area;
  return (
    clientX >= rect.left &&
    clientX <= rect.left + rect.width &&
    clientY >= rect.top &&
    clientY <= rect.top + rect.height
  );
}

export function hitTest(st, area, clientX, clientY, radius = HIT_PX) {
  let best = -1;
  let bestD = radius * radius;
  for (let i = 0; i < st.points.length; i++) {
    const p = toPixel(area, st.points[i][0], st.points[i][1]);
    const d = (p[0] - clientX) ** 2 + (p[1] - clientY) ** 2;
    if (d <= bestD) {
      bestD = d;
      best = i;
    }
  }
  return best;
}
