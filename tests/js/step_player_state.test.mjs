// step_player_state.js: the step player's recorded run and its state after step k, on a
// made-up run (the state does not care whether the steps are SMO's; that the browser's α is
// the solver's is tests/test_step_player.py's).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import {
  CHECK_EVERY, alphaAt, decode, expNonpositive, goTo, gridBefore, makeKernel, nextEvent,
  pointState, prepareRun, recompute, STEP_LIMIT, stepRecord,
} from "../../ui/browser/step_player_state.js";

function typed(values, dtype) {
  // ui/step_through/player.py typed: little-endian bytes, base64
  const Type = { f8: Float64Array, f4: Float32Array, i4: Int32Array, u2: Uint16Array,
    i1: Int8Array, u1: Uint8Array }[dtype]; // prettier-ignore
  const a = Type.from(values);
  return { dtype, bdata: Buffer.from(a.buffer).toString("base64") };
}

function lcg(seed) {
  let s = seed;
  return () => (s = (s * 16807) % 2147483647) / 2147483647;
}

// svm_engine.bounds.browser_rules(), as the payload brings them (written by tests/js/step_cases.py)
const { rules } = JSON.parse(readFileSync(new URL("./step_cases.json", import.meta.url), "utf8"));
const C = 1;

function makeRun({ T = 600, n = 7, seed = 3, kernel = { name: "gaussian", sigma: 1.3 } } = {}) {
  // a run of T steps on n points: step t sets α of a random pair to random values in [0, C]
  const rnd = lcg(seed);
  const X = Array.from({ length: 2 * n }, () => rnd() * 4 - 2);
  const y = Array.from({ length: n }, (_, q) => (q % 2 ? -1 : 1));
  const I = [];
  const J = [];
  const anew = [];
  const flags = [];
  for (let t = 0; t < T; t++) {
    const i = Math.floor(rnd() * n);
    const j = (i + 1 + Math.floor(rnd() * (n - 1))) % n;
    I.push(i);
    J.push(j);
    anew.push(rnd() < 0.2 ? 0 : rnd() * C, rnd() < 0.2 ? C : rnd() * C);
    flags.push((rnd() < 0.3 ? 1 : 0) | (rnd() < 0.1 ? 2 : 0));
  }
  const f4 = (k) => typed(Array.from({ length: k }, () => rnd()), "f4");
  const payload = {
    v: 1, run: "r1", solver: "smo", n, T, C_box: C, ring_scale: null, quad_C: null,
    kkt_tol: 1e-3, rules, kernel, X: typed(X, "f8"), y: typed(y, "i1"),
    alpha0: typed(new Array(n).fill(0), "f8"),
    grid: { xs: typed([-2, -1, 0, 1, 2], "f8"), ys: typed([-2, 0, 2, 3], "f8"), regions: {} },
    steps: { i: typed(I, "u1"), j: typed(J, "u1"), a_new: typed(anew, "f8"), aj_unc: f4(T),
      L: f4(T), H: f4(T), eta: f4(T), Ei: f4(T), Ej: f4(T), flags: typed(flags, "u1") },
    curve: { b: typed(Array.from({ length: T + 1 }, () => rnd() - 0.5), "f8"), dual: f4(T + 1),
      primal: f4(T + 1), kkt: f4(T + 1) },
    frame: '{"data": [], "layout": {}}', curves: '{"data": [], "layout": {}}', text: {},
  }; // prettier-ignore
  return { payload, X, y, I, J, anew, flags };
}

function replay(m, k) {
  // α after step k, step by step from the records
  const a = new Array(m.payload.n).fill(0);
  for (let t = 0; t < k; t++) {
    a[m.I[t]] = m.anew[2 * t];
    a[m.J[t]] = m.anew[2 * t + 1];
  }
  return a;
}

function direct(R, alpha, px, py) {
  // Σ_p α_p y_p K(x_p, (px, py)), summed afresh
  let s = 0;
  for (let p = 0; p < R.n; p++) s += alpha[p] * R.y[p] * R.K(R.X[2 * p], R.X[2 * p + 1], px, py);
  return s;
}

function assertState(st, m, k) {
  const R = st.R;
  assert.equal(st.k, k);
  assert.deepEqual([...st.alpha], replay(m, k), `α after step ${k}, bit for bit`);
  for (let q = 0; q < R.n; q++) {
    assert.ok(Math.abs(st.u[q] - direct(R, st.alpha, R.X[2 * q], R.X[2 * q + 1])) < 1e-12, `u[${q}]`);
  }
  for (let m2 = 0; m2 < st.g.length; m2++) {
    assert.ok(Math.abs(st.g[m2] - direct(R, st.alpha, R.gx[m2], R.gy[m2])) < 1e-12, `g[${m2}]`);
  }
}

test("the payload's typed arrays decode to what was sent", () => {
  for (const dtype of ["f8", "f4", "i4", "i1"]) {
    assert.deepEqual([...decode(typed([0, 1, -2, 127], dtype))], [0, 1, -2, 127], dtype);
  }
  for (const dtype of ["u2", "u1"]) assert.deepEqual([...decode(typed([0, 1, 200], dtype))], [0, 1, 200]);
  assert.deepEqual([...decode(typed([0.1, -3.5], "f8"))], [0.1, -3.5]);
  assert.deepEqual([...decode(typed([0.1], "f4"))], [Math.fround(0.1)]);
});

test("the kernels are svm_engine/kernels.py's", () => {
  const lin = makeKernel({ name: "linear" });
  assert.equal(lin(1, 2, 3, -4), 3 - 8);
  const poly = makeKernel({ name: "polynomial", coef0: 1, degree: 3 });
  assert.equal(poly(1, 2, 3, -4), (1 + 3 - 8) ** 3);
  const rbf = makeKernel({ name: "gaussian", sigma: 2 });
  assert.ok(Math.abs(rbf(1, 2, 3, -4) - Math.exp(-(4 + 36) / 8)) < 1e-15);
  assert.equal(rbf(1, 2, 1, 2), 1);
  assert.throws(() => makeKernel({ name: "sigmoid" }), /unknown kernel sigmoid/);
});

test("expNonpositive (the engine's exp) is within an ulp of Math.exp, 0 below −708", () => {
  // the same bits as Python's: tests/test_step_player_kernel.py
  let worst = 0;
  for (let i = 0; i <= 200000; i++) {
    const x = -708 * (i / 200000) ** 2;
    const ref = Math.exp(x);
    const ulp = 2 ** (Math.floor(Math.log2(ref)) - 52);
    worst = Math.max(worst, Math.abs(expNonpositive(x) - ref) / ulp);
  }
  assert.ok(worst <= 1, `${worst} ulp`);
  assert.equal(expNonpositive(0), 1);
  assert.equal(expNonpositive(-0), 1);
  assert.equal(expNonpositive(-708.5), 0);
  assert.equal(expNonpositive(-Infinity), 0);
});

test("prepareRun reads the run: points, grid, α before each step, the bound changes", () => {
  const m = makeRun();
  const R = prepareRun(m.payload);
  assert.equal(R.id, "r1");
  assert.deepEqual([...R.X], m.X);
  assert.deepEqual([...R.y], m.y);
  assert.equal(R.Cbox, C);
  assert.equal(R.gx.length, 5 * 4);
  assert.deepEqual([R.gx[13], R.gy[13]], [1, 2]); // row 2 (ys[2] = 2), column 3 (xs[3] = 1)
  for (let t = 1; t <= m.payload.T; t++) {
    const before = replay(m, t - 1);
    assert.equal(R.aold[2 * t - 2], before[m.I[t - 1]]);
    assert.equal(R.aold[2 * t - 1], before[m.J[t - 1]]);
  }
  assert.deepEqual(R.events, m.flags.flatMap((f, t) => (f & 2 ? [t + 1] : [])));
  assert.ok(R.events.length > 10);
  assert.equal(R.checkpoints.length, 1 + Math.floor(m.payload.T / CHECK_EVERY));
  // C = ∞ (hard margin) comes as null
  assert.equal(prepareRun({ ...m.payload, C_box: null }).Cbox, Infinity);
});

test("alphaAt replays α from the checkpoints", () => {
  const m = makeRun();
  const R = prepareRun(m.payload);
  for (const k of [0, 1, CHECK_EVERY - 1, CHECK_EVERY, CHECK_EVERY + 1, 2 * CHECK_EVERY, 600]) {
    assert.deepEqual([...alphaAt(R, k)], replay(m, k), `k = ${k}`);
  }
});

test("goTo: small moves step u and g incrementally, long ones recompute; both are exact", () => {
  const m = makeRun();
  const st = { R: prepareRun(m.payload) };
  recompute(st, 0);
  assertState(st, m, 0);
  const rnd = lcg(11);
  for (let move = 0; move < 60; move++) {
    const far = rnd() < 0.25;
    const target = far ? Math.floor(rnd() * 601) : st.k + Math.floor(rnd() * 2 * STEP_LIMIT) - STEP_LIMIT;
    const before = st.nInc;
    const from = st.k;
    goTo(st, target);
    const k = Math.max(0, Math.min(600, target));
    assertState(st, m, k);
    if (Math.abs(k - from) > STEP_LIMIT) assert.equal(st.nInc, 0, "a jump recomputes");
    else assert.equal(st.nInc, before + Math.abs(k - from), "a short move steps");
  }
  goTo(st, 10.4);
  assert.equal(st.k, 10);
  goTo(st, -5);
  assert.equal(st.k, 0);
  goTo(st, 1e9);
  assert.equal(st.k, 600);
});

test("gridBefore gives g before the step shown and leaves the state alone", () => {
  const m = makeRun();
  const R = prepareRun(m.payload);
  const st = { R };
  recompute(st, 0);
  assert.equal(gridBefore(st), null);
  for (const k of [1, 2, 57, 300]) {
    goTo(st, k);
    const g = Float64Array.from(st.g);
    const u = Float64Array.from(st.u);
    const prev = Float64Array.from(gridBefore(st));
    assert.deepEqual([...st.g], [...g]);
    assert.deepEqual([...st.u], [...u]);
    const ref = { R };
    recompute(ref, k - 1);
    prev.forEach((v, i) => assert.ok(Math.abs(v - ref.g[i]) < 1e-12));
  }
});

test("stepRecord names step k's numbers as ui/step_through/snapshot.py step_record does", () => {
  const m = makeRun();
  const R = prepareRun(m.payload);
  const k = 42;
  const rec = stepRecord(R, k);
  const before = replay(m, k - 1);
  const i = m.I[k - 1];
  const j = m.J[k - 1];
  assert.deepEqual([rec.it, rec.i, rec.j, rec.yi, rec.yj, rec.C], [k, i, j, m.y[i], m.y[j], C]);
  assert.deepEqual([rec.ai_old, rec.aj_old], [before[i], before[j]]);
  assert.deepEqual([rec.ai_new, rec.aj_new], [m.anew[2 * k - 2], m.anew[2 * k - 1]]);
  assert.equal(rec.clipped, (m.flags[k - 1] & 1) === 1);
  // αᵢ moves opposite to yᵢyⱼ Δαⱼ (Σ αₜ yₜ stays put)
  assert.equal(rec.ai_unclipped, rec.ai_old + m.y[i] * m.y[j] * (rec.aj_old - rec.aj_unclipped));
});

test("pointState: h, ξ, the KKT violators and the support vectors of a known state", () => {
  // linear kernel, x₁ = (1, 0) of class +1, x₂ = (−1, 0) of class −1, x₃ = (3, 0) of class +1;
  // one step sets α₁ = α₂ = ½: h(x) = x₁ + b
  const run = makeRun({ T: 1, n: 3, kernel: { name: "linear" } }).payload;
  const payload = { ...run, X: typed([1, 0, -1, 0, 3, 0], "f8"), y: typed([1, -1, 1], "i1"),
    steps: { ...run.steps, i: typed([0], "u1"), j: typed([1], "u1"), a_new: typed([0.5, 0.5], "f8") },
  }; // prettier-ignore
  const at = (b) => {
    const st = { R: prepareRun({ ...payload, curve: { ...run.curve, b: typed([0, b], "f8") } }) };
    recompute(st, 1);
    return pointState(st);
  };
  let P = at(0); // x₁, x₂ on their margins, x₃ beyond: no violator
  assert.deepEqual([...P.h], [1, -1, 3]);
  assert.deepEqual([...P.xi], [0, 0, 0]);
  assert.deepEqual([P.violators, P.free, P.bound, P.misclassified, P.slack], [[], [0, 1], [], [], []]);
  assert.equal(P.amax, 0.5);
  P = at(0.5); // h = x₁ + ½: x₂ inside its margin (ξ = ½), both free points off their margins
  assert.deepEqual([...P.h], [1.5, -0.5, 3.5]);
  assert.deepEqual([...P.xi], [0, 0.5, 0]);
  assert.deepEqual([P.violators, P.slack, P.misclassified], [[0, 1], [1], []]);
  P = at(2.5); // x₂ on the wrong side: misclassified (ξ > 1)
  assert.deepEqual([P.misclassified, P.slack], [[1], [1]]);
  assert.ok(P.violators.includes(1) && !P.violators.includes(2));
});

test("nextEvent finds the first bound change after k", () => {
  const m = makeRun();
  const R = prepareRun(m.payload);
  for (let k = 0; k <= m.payload.T; k++) {
    const want = R.events.find((t) => t > k);
    assert.equal(nextEvent(R, k), want === undefined ? null : want, `k = ${k}`);
  }
});
