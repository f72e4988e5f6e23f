// SVM Lab step player: the recorded run and the state after step k (no DOM).
//
// The payload's typed arrays, the kernels (svm_engine/kernels.py), α replayed from the
// records, u = K(α∘y) on the training points and g = K(α∘y) on the shading grid kept up to
// date step by step (Δg = Δαᵢyᵢ K(xᵢ, ·) + Δαⱼyⱼ K(xⱼ, ·)), and the per-point KKT state.
// step_player_draw.js draws it, step_player.js moves it.

export const CHECK_EVERY = 256; // α checkpoints for jumps
export const STEP_LIMIT = 48; // a move of at most this many steps is applied incrementally
const FULL_EVERY = 4096; // incremental updates before u, g are recomputed (bounds round-off)
const MIN_SLACK = 0.005; // ξ below this is round-off (ui/shared/figures.py)

// ------------------------------------------------------------------------ the payload

const TYPES = {
  f8: Float64Array,
  f4: Float32Array,
  i4: Int32Array,
  u2: Uint16Array,
  i1: Int8Array,
  u1: Uint8Array,
};

export function decode(spec) {
  const bin = atob(spec.bdata);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return new TYPES[spec.dtype](bytes.buffer);
}

// The kernel values are the engine's to the last bit: the operations of
// svm_engine/kernel_values.py (kernel_column, poly_power, exp_nonpositive) in their order.
// JavaScript rounds every +, −, × to the nearest double as the compiled code does (no fused
// multiply-add), and 2^k is built from its bits; Math.exp and Math.pow are not used: they
// may differ from the engine's exp in the last ulp (tests/test_step_player_kernel.py runs
// this in node against Python). u and g are sums kept up to date step by step, in another
// order than Python's, so h and ξ here may differ from the server's in the last bits; α, b,
// the objectives, m − M and every step's numbers shown are the recorded ones (Python's).

const LN2_HI = 6.93147180369123816490e-1; // kernel_values.py: fdlibm's split of ln 2
const LN2_LO = 1.90821492927058770002e-10;
const LOG2E = 1.442695040888963387;
const ROUND = 6755399441055744.0; // 1.5·2⁵²: (x + ROUND) − ROUND rounds x to an integer
const EXP_MIN = -708.0;
const bits = new DataView(new ArrayBuffer(8));

export function expNonpositive(x) {
  // kernel_values.exp_nonpositive: exp(x) for x ≤ 0, 0 below EXP_MIN
  const x0 = x;
  x = x > EXP_MIN ? x : EXP_MIN;
  const k = x * LOG2E + ROUND - ROUND;
  const r = x - k * LN2_HI - k * LN2_LO;
  const r2 = r * r;
  const r4 = r2 * r2;
  const u01 = 1.0 / 2.0 + r * (1.0 / 6.0) + r2 * (1.0 / 24.0 + r * (1.0 / 120.0));
  const u23 = 1.0 / 720.0 + r * (1.0 / 5040.0) + r2 * (1.0 / 40320.0 + r * (1.0 / 362880.0));
  const u45 =
    1.0 / 3628800.0 + r * (1.0 / 39916800.0) + r2 * (1.0 / 479001600.0 + r * (1.0 / 6227020800.0));
  const u = u01 + r4 * (u23 + r4 * u45);
  const p = 1.0 + (r + r2 * u);
  bits.setUint32(0, (k + 1023) * 1048576); // 2^k: exponent bits k + 1023, mantissa 0
  bits.setUint32(4, 0);
  return x0 >= EXP_MIN ? p * bits.getFloat64(0) : 0.0;
}

export function makeKernel(k) {
  // svm_engine/kernels.py, with kernel_values.py's operations (its sums start from 0)
  if (k.name === "linear") return (ax, ay, bx, by) => 0.0 + ax * bx + ay * by;
  if (k.name === "polynomial") {
    const c = k.coef0;
    const q = k.degree;
    return (ax, ay, bx, by) => {
      const b = c + (0.0 + ax * bx + ay * by);
      let r = b;
      for (let i = 1; i < q; i++) r *= b; // poly_power: repeated products
      return r;
    };
  }
  if (k.name === "gaussian") {
    const ng = -(1.0 / (2.0 * k.sigma * k.sigma)); // −γ, γ = 1/(2σ²) as kernels.Gaussian
    return (ax, ay, bx, by) => {
      const dx = ax - bx;
      const dy = ay - by;
      return expNonpositive(ng * (0.0 + dx * dx + dy * dy));
    };
  }
  throw new Error("unknown kernel " + k.name);
}

// The payload's per-step and per-state records, field by field (payload key: R's name): the
// fields of ui/step_through/step_schema.py's StepArrays and CurveArrays, and no others
// (tests/js/step_schema.test.mjs holds this list to the schema).
export const STEP_FIELDS = { i: "I", j: "J", a_new: "anew", aj_unc: "ajUnc", L: "L", H: "H",
  eta: "eta", Ei: "Ei", Ej: "Ej", flags: "flags" }; // prettier-ignore
export const CURVE_FIELDS = { b: "b", dual: "dual", primal: "primal", kkt: "kkt" };

export function prepareRun(p) {
  const R = {
    id: p.run,
    n: p.n,
    T: p.T,
    X: decode(p.X),
    y: decode(p.y),
    alpha0: decode(p.alpha0),
    K: makeKernel(p.kernel),
    Cbox: p.C_box === null ? Infinity : p.C_box,
    ringScale: p.ring_scale,
    quadC: p.quad_C,
    kktTol: p.kkt_tol,
    rules: p.rules, // svm_engine.bounds.browser_rules(): when α counts as 0 or as C
    xs: decode(p.grid.xs),
    ys: decode(p.grid.ys),
    regions: p.grid.regions,
    frame: JSON.parse(p.frame),
    curves: JSON.parse(p.curves),
    text: p.text,
  };
  for (const [key, name] of Object.entries(STEP_FIELDS)) R[name] = decode(p.steps[key]);
  for (const [key, name] of Object.entries(CURVE_FIELDS)) R[name] = decode(p.curve[key]);
  const { n, T } = R;
  // the grid's points, row by row (row r is ys[r], bottom first)
  const mx = R.xs.length;
  const my = R.ys.length;
  R.mx = mx;
  R.my = my;
  R.gx = new Float64Array(mx * my);
  R.gy = new Float64Array(mx * my);
  for (let r = 0; r < my; r++) {
    for (let c = 0; c < mx; c++) {
      R.gx[r * mx + c] = R.xs[c];
      R.gy[r * mx + c] = R.ys[r];
    }
  }
  // replay once: α before each step (stepping back, the box's old point) and checkpoints
  const a = Float64Array.from(R.alpha0);
  R.aold = new Float64Array(2 * T);
  R.checkpoints = [Float64Array.from(a)];
  R.events = [];
  for (let t = 1; t <= T; t++) {
    const i = R.I[t - 1];
    const j = R.J[t - 1];
    R.aold[2 * t - 2] = a[i];
    a[i] = R.anew[2 * t - 2];
    R.aold[2 * t - 1] = a[j];
    a[j] = R.anew[2 * t - 1];
    if (t % CHECK_EVERY === 0) R.checkpoints.push(Float64Array.from(a));
    if (R.flags[t - 1] & 2) R.events.push(t);
  }
  let span = 0;
  for (let d = 0; d < 2; d++) {
    let lo = Infinity;
    let hi = -Infinity;
    for (let q = 0; q < n; q++) {
      lo = Math.min(lo, R.X[2 * q + d]);
      hi = Math.max(hi, R.X[2 * q + d]);
    }
    span = Math.max(span, hi - lo);
  }
  R.span = n > 1 && span > 0 ? span : 1;
  return R;
}

export function alphaAt(R, k) {
  const c = Math.floor(k / CHECK_EVERY);
  const a = Float64Array.from(R.checkpoints[c]);
  for (let t = c * CHECK_EVERY + 1; t <= k; t++) {
    a[R.I[t - 1]] = R.anew[2 * t - 2];
    a[R.J[t - 1]] = R.anew[2 * t - 1];
  }
  return a;
}

export function stepRecord(R, k) {
  // the numbers of step k (k ≥ 1), as ui.step_through.snapshot.step_record names them
  const t = k - 1;
  const i = R.I[t];
  const j = R.J[t];
  const yi = R.y[i];
  const yj = R.y[j];
  const rec = {
    it: k,
    i,
    j,
    yi,
    yj,
    C: R.Cbox,
    ai_old: R.aold[2 * t],
    aj_old: R.aold[2 * t + 1],
    ai_new: R.anew[2 * t],
    aj_new: R.anew[2 * t + 1],
    aj_unclipped: R.ajUnc[t],
    L: R.L[t],
    H: R.H[t],
    eta: R.eta[t],
    Ei: R.Ei[t],
    Ej: R.Ej[t],
    clipped: (R.flags[t] & 1) !== 0,
  };
  rec.ai_unclipped = rec.ai_old + yi * yj * (rec.aj_old - rec.aj_unclipped);
  return rec;
}

// ---------------------------------------------------------------- α, u, g at step k

function addColumn(st, p, c) {
  // u += c·K(X, x_p) and g += c·K(grid, x_p)
  const R = st.R;
  const K = R.K;
  const X = R.X;
  const px = X[2 * p];
  const py = X[2 * p + 1];
  const u = st.u;
  for (let q = 0; q < R.n; q++) u[q] += c * K(X[2 * q], X[2 * q + 1], px, py);
  const g = st.g;
  const gx = R.gx;
  const gy = R.gy;
  for (let m = 0; m < g.length; m++) g[m] += c * K(gx[m], gy[m], px, py);
}

export function recompute(st, k) {
  const R = st.R;
  st.alpha = alphaAt(R, k);
  st.u = new Float64Array(R.n);
  st.g = new Float64Array(R.mx * R.my);
  for (let p = 0; p < R.n; p++) {
    if (st.alpha[p] !== 0) addColumn(st, p, st.alpha[p] * R.y[p]);
  }
  st.k = k;
  st.nInc = 0;
}

function forward(st) {
  const R = st.R;
  const t = st.k + 1;
  const pts = [R.I[t - 1], R.J[t - 1]];
  for (let s = 0; s < 2; s++) {
    const p = pts[s];
    const v = R.anew[2 * t - 2 + s];
    const d = v - st.alpha[p];
    st.alpha[p] = v; // the recorded number itself: α is the solver's, bit for bit
    if (d !== 0) addColumn(st, p, d * R.y[p]);
  }
  st.k = t;
  st.nInc += 1;
}

function backward(st) {
  const R = st.R;
  const t = st.k;
  const pts = [R.I[t - 1], R.J[t - 1]];
  for (let s = 1; s >= 0; s--) {
    const p = pts[s];
    const v = R.aold[2 * t - 2 + s];
    const d = v - st.alpha[p];
    st.alpha[p] = v;
    if (d !== 0) addColumn(st, p, d * R.y[p]);
  }
  st.k = t - 1;
  st.nInc += 1;
}

export function goTo(st, k) {
  const R = st.R;
  k = Math.max(0, Math.min(R.T, Math.round(k)));
  if (k === st.k) return;
  const dist = Math.abs(k - st.k);
  if (dist <= STEP_LIMIT && st.nInc + dist < FULL_EVERY) {
    while (st.k < k) forward(st);
    while (st.k > k) backward(st);
  } else {
    recompute(st, k);
  }
}

export function gridBefore(st) {
  // g after step k − 1: undo step k's change on a copy
  const R = st.R;
  const k = st.k;
  if (k <= 0) return null;
  const save = st.g;
  st.gPrev = st.gPrev && st.gPrev.length === save.length ? st.gPrev : new Float64Array(save.length);
  st.gPrev.set(save);
  const uSave = st.u;
  st.g = st.gPrev;
  st.u = st.uScratch || (st.uScratch = new Float64Array(R.n));
  const pts = [R.I[k - 1], R.J[k - 1]];
  for (let s = 1; s >= 0; s--) {
    const d = R.aold[2 * k - 2 + s] - R.anew[2 * k - 2 + s];
    if (d !== 0) addColumn(st, pts[s], d * R.y[pts[s]]);
  }
  st.g = save;
  st.u = uSave;
  return st.gPrev;
}

// When αᵢ counts as 0 or as C: svm_engine/bounds.py's rules, with the numbers the payload
// brings (rules = bounds.browser_rules()); no copy of them here.
export function isZero(v, amax, rules) {
  return v <= rules.supportRel * amax; // bounds.support_threshold: relative to max α
}

export function isAtC(v, C, rules) {
  return Number.isFinite(C) && v >= C * (1 - rules.atCRel); // bounds.at_C_mask
}

export function pointState(st) {
  // per point: h, ξ, the KKT violation (ui.step_through.snapshot.kkt_point_violation), SV sets
  const R = st.R;
  const { n, y, rules } = R;
  const a = st.alpha;
  const b = R.b[st.k];
  let amax = 0;
  for (let q = 0; q < n; q++) amax = Math.max(amax, a[q]);
  const out = { h: new Float64Array(n), xi: new Float64Array(n), violators: [], free: [],
    bound: [], misclassified: [], slack: [], amax, b }; // prettier-ignore
  for (let q = 0; q < n; q++) {
    const h = st.u[q] + b;
    out.h[q] = h;
    const xi = Math.max(0, 1 - y[q] * h);
    out.xi[q] = xi;
    let r = y[q] * h - 1;
    if (R.quadC !== null) r += a[q] / (2 * R.quadC);
    const at0 = isZero(a[q], amax, rules);
    const atC = isAtC(a[q], R.Cbox, rules);
    let v = Math.abs(r);
    if (at0) v = Math.max(0, -r);
    else if (atC) v = Math.max(0, r);
    if (v > R.kktTol) out.violators.push(q);
    if (atC) out.bound.push(q);
    else if (!at0) out.free.push(q);
    if (xi > 1 + 1e-6) out.misclassified.push(q);
    if (xi > MIN_SLACK) out.slack.push(q);
  }
  return out;
}

export function nextEvent(R, k) {
  // the first step after k where an α hits 0 or C (a bound change), or null
  const ev = R.events;
  let lo = 0;
  let hi = ev.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ev[mid] <= k) lo = mid + 1;
    else hi = mid;
  }
  return lo < ev.length ? ev[lo] : null;
}
