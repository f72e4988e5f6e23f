// contours.js: the one marching squares (the Playground's refit layer and the step player).
import assert from "node:assert/strict";
import { test } from "node:test";

import { isolines } from "../../ui/browser/contours.js";

function grid(xs, ys, f) {
  const z = new Float64Array(xs.length * ys.length);
  ys.forEach((y, r) => xs.forEach((x, c) => (z[r * xs.length + c] = f(x, y))));
  return z;
}

const range = (a, b, n) => Array.from({ length: n }, (_, i) => a + ((b - a) * i) / (n - 1));

function lcg(seed) {
  let s = seed;
  return () => (s = (s * 16807) % 2147483647) / 2147483647;
}

function crossings(z, xs, ys, level) {
  // every grid edge whose ends lie on either side of the level, and the point where the
  // linear interpolation along it meets the level: where a contour must cross, once
  const nx = xs.length;
  const out = [];
  for (let r = 0; r < ys.length; r++) {
    for (let c = 0; c < nx; c++) {
      const a = z[r * nx + c];
      if (c + 1 < nx) {
        const b = z[r * nx + c + 1];
        if (a > level !== b > level) out.push([xs[c] + ((level - a) / (b - a)) * (xs[c + 1] - xs[c]), ys[r]]);
      }
      if (r + 1 < ys.length) {
        const b = z[(r + 1) * nx + c];
        if (a > level !== b > level) out.push([xs[c], ys[r] + ((level - a) / (b - a)) * (ys[r + 1] - ys[r])]);
      }
    }
  }
  return out;
}

const key = ([x, y]) => `${x.toPrecision(12)},${y.toPrecision(12)}`;
const closed = (line) => key(line[0]) === key(line[line.length - 1]);

test("a plane gives one straight line across the grid", () => {
  const xs = range(0, 1, 11);
  const ys = range(-1, 1, 7);
  const lines = isolines(grid(xs, ys, (x) => x), xs, ys, 0.55);
  assert.equal(lines.length, 1);
  const [line] = lines;
  assert.equal(line.length, ys.length); // one point per row: every cell's segment stitched
  for (const [x] of line) assert.ok(Math.abs(x - 0.55) < 1e-12);
  const y = line.map((p) => p[1]);
  assert.deepEqual([Math.min(...y), Math.max(...y)], [-1, 1]);
  const monotone = y.every((v, i) => i === 0 || v > y[i - 1]) || y.every((v, i) => i === 0 || v < y[i - 1]);
  assert.ok(monotone, "the points follow the line in order");
});

test("a circle is one closed polyline on the circle", () => {
  const xs = range(-2, 2, 41);
  const ys = range(-2, 2, 41);
  const lines = isolines(grid(xs, ys, (x, y) => x * x + y * y), xs, ys, 1);
  assert.equal(lines.length, 1);
  assert.ok(closed(lines[0]), "it ends where it starts");
  assert.ok(lines[0].length > 30);
  for (const [x, y] of lines[0]) assert.ok(Math.abs(Math.hypot(x, y) - 1) < 0.01, `${x}, ${y}`);
});

test("two bumps give two closed lines, a level outside the range none", () => {
  const xs = range(-3, 3, 61);
  const ys = range(-2, 2, 41);
  const f = (x, y) => Math.exp(-((x - 1.5) ** 2 + y * y)) + Math.exp(-((x + 1.5) ** 2 + y * y));
  const z = grid(xs, ys, f);
  const lines = isolines(z, xs, ys, 0.5);
  assert.equal(lines.length, 2);
  assert.ok(lines.every(closed));
  assert.deepEqual(isolines(z, xs, ys, 5), []);
  assert.deepEqual(isolines(z, xs, ys, -1), []);
});

test("the lines pass through every crossed edge once, at the interpolated point", () => {
  const rnd = lcg(7);
  for (let trial = 0; trial < 200; trial++) {
    const xs = range(-1, 2, 2 + Math.floor(rnd() * 25));
    const ys = range(0, 1, 2 + Math.floor(rnd() * 25));
    const [a, b, c] = [rnd() * 6, rnd() * 6, rnd()];
    // values on a coarse lattice on some trials: corners exactly at the level
    const snap = trial % 3 === 0 ? (v) => Math.round(v * 2) / 2 : (v) => v;
    const z = grid(xs, ys, (x, y) => snap(Math.sin(a * x + c) * Math.cos(b * y)));
    for (const level of [-0.5, 0, 0.3]) {
      const got = [];
      for (const line of isolines(z, xs, ys, level)) {
        got.push(...(closed(line) && line.length > 2 ? line.slice(0, -1) : line).map(key));
      }
      const want = crossings(z, xs, ys, level).map(key);
      if (trial % 3 === 0) {
        // corners on the level: two edges may meet the level at one corner, so the points
        // are compared as a set (a line may also touch its own start there)
        assert.deepEqual([...new Set(got)].sort(), [...new Set(want)].sort(), `trial ${trial}`);
      } else {
        assert.deepEqual(got.slice().sort(), want.slice().sort(), `trial ${trial}, level ${level}`);
      }
    }
  }
});

test("a saddle cell is decided by its centre value", () => {
  const xs = [0, 1];
  const ys = [0, 1];
  // high corners (0, 0) and (1, 1); the centre low: each high corner is cut off on its own
  let lines = isolines(Float64Array.from([1, -1.5, -1.5, 1]), xs, ys, 0);
  assert.equal(lines.length, 2);
  const near = (line, [cx, cy]) => line.every(([x, y]) => Math.hypot(x - cx, y - cy) < 0.71);
  assert.ok(lines.some((l) => near(l, [0, 0])) && lines.some((l) => near(l, [1, 1])));
  // the centre high: the low corners (1, 0) and (0, 1) are cut off instead
  lines = isolines(Float64Array.from([1.5, -1, -1, 1.5]), xs, ys, 0);
  assert.equal(lines.length, 2);
  assert.ok(lines.some((l) => near(l, [1, 0])) && lines.some((l) => near(l, [0, 1])));
});

test("float32 grids (the fit endpoint's) give the same lines as float64", () => {
  const xs = range(-2, 2, 30);
  const ys = range(-1, 1, 20);
  const z32 = Float32Array.from(grid(xs, ys, (x, y) => x * x - y));
  const z64 = Float64Array.from(z32);
  assert.deepEqual(isolines(z32, xs, ys, 0.25), isolines(z64, xs, ys, 0.25));
});
