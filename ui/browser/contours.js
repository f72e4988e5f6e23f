// Contour lines of a function sampled on a grid (marching squares), for the Playground's
// refit layer (canvas_layer.js) and the step player's decision panel (step_player_draw.js):
// h = 0 and h = ±1 drawn on a canvas where Plotly would need a full redraw. No DOM.

export function isolines(z, xs, ys, level) {
  // The polylines [[x, y], …] where z = level; z[r * nx + c] is the value at (xs[c], ys[r]).
  // A segment per cell between its crossed edges (linear interpolation along the edge),
  // stitched end to end into polylines so that dashes run on across cells. A saddle cell
  // (two opposite corners above) is decided by its centre value.
  // Edge ids: r * nx + c for the horizontal edge (r, c)–(r, c + 1), nx * ny + r * nx + c
  // for the vertical edge (r, c)–(r + 1, c).
  const nx = xs.length;
  const ny = ys.length;
  const V = nx * ny;
  const segA = [];
  const segB = [];
  const ends = new Map(); // edge id → the segments that end on it
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
      const B = r * nx + c; // bottom
      const Rt = V + r * nx + c + 1; // right
      const T = (r + 1) * nx + c; // top
      const L = V + r * nx + c; // left
      if (code === 5 || code === 10) {
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
    // from segment s, entered through edge `entry`, along the chain: the exit edges
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
