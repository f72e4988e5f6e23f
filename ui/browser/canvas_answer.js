// SVM Lab click canvas: the fit endpoint's answer read (ui/serving/fit_api.py answer): h on
// its grid from base64 float32, and the Plotly figure whose traces share that grid. No DOM.

export function decodeGrid(g) {
  // {"x": [x0, x1, nx], "y": [y0, y1, ny], "h": base64 little-endian float32, row j = ys[j]}
  const bin = atob(g.h);
  const bytes = new Uint8Array(bin.length);
  for (let k = 0; k < bin.length; k++) bytes[k] = bin.charCodeAt(k);
  const axis = ([a, b, n]) => Array.from({ length: n }, (_, i) => a + ((b - a) * i) / (n - 1));
  return { h: new Float32Array(bytes.buffer), xs: axis(g.x), ys: axis(g.y) };
}

export function pointsOnly(fig) {
  // an answer without a figure (stopped at the time budget): the last figure's points alone
  if (!fig) return null;
  return { data: fig.data.filter((t) => t.meta && t.meta.role === "points"), layout: fig.layout };
}

export function figureOf(ans, R) {
  // the answer's Plotly figure; its shading takes x, y, z from the answer's grid and its
  // contours from the shading (meta.z_from, see ui/shared/browser_data.py canvas_figure_json)
  const fig = ans.figure;
  const nx = R.xs.length;
  const z = R.h ? Array.from({ length: R.ys.length }, (_, j) => R.h.subarray(j * nx, (j + 1) * nx)) : [];
  const grid = { x: R.xs, y: R.ys, z };
  const byRole = {};
  fig.data.forEach((t) => {
    if (t.meta && t.meta.role && !(t.meta.role in byRole)) byRole[t.meta.role] = t;
  });
  for (const pass of ["grid", "regions"]) {
    fig.data.forEach((t) => {
      const from = t.meta && t.meta.z_from;
      if (from !== pass) return;
      const src = pass === "grid" ? grid : byRole[pass];
      t.x = src.x;
      t.y = src.y;
      t.z = src.z;
    });
  }
  return fig;
}
