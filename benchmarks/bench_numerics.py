"""The engine's hand-written numerics against numpy / scipy (a script, not a test).

Issue 17: every hand-written numeric routine of svm_engine/ carries its measured reason beside
it, or is replaced by the library. This measures each against its library alternative, in
the setting the engine uses it in, and prints the figures the comments beside the code cite:

  exp        the Gaussian kernel column (compiled, n = 1,000 points, 2-D) with the engine's
             own exp against math.exp in the same loop; and its largest error in ulp
  solve      SVM-Primal's Newton system H⁻¹g (H = I + 2CS, p = d + 1): the former
             hand-written Cholesky / Jacobi pair against numba's np.linalg.solve and
             np.linalg.lstsq (LAPACK), per call and per Newton fit
  validation check_data on float64 input (n = 200, the Playground; n = 100,000): the former
             compiled passes against the numpy ones that replaced them
  matvec     face.py's H·v (the Newton step on the free set, CG) against numpy's H @ v
             (BLAS) compiled, k = 50, 500, 1,000, 2,000
  kernel     drawing the Playground's 80 × 80 grid against 200 support vectors, h = K(grid,
             SV)·coef: the kernels' expansion (kernel_sources_dot: compiled, no matrix) and
             K(X, Z) @ coef (kernel_cross: compiled) against the numpy formulas they replaced
             (scipy's cdist + np.exp, numpy's ** and BLAS), and the numpy copy used without
             numba (kernel_sources_dot_array); with the largest gap of the former values
  matrix     kernel_values.kernel_matrix (compiled) against the numpy formulas (X Xᵀ,
             (c + X Xᵀ)^q, exp(−γ cdist²)), n = 200, 1,000, 2,000 (moons), three kernels; and
             how many entries of each differ from the lazy columns (`kernel_column`)
  expansion  certify.expansion (g and mag from the support vectors' compiled kernel
             columns) against cdist + np.exp + BLAS, Gaussian σ = 1, n = 200, 2,000 (moons)
  sums       certify._sums (compiled, two passes) against the same sums in numpy, on a fit's
             α, g and mag: n = 200 (the Playground), 2,000; and a whole fit for scale
  cg         face._cg (projected CG, compiled) against LAPACK's solve of the face's KKT
             system (np.linalg.solve, compiled) and scipy.sparse.linalg.cg on the projected
             operator: faces of k = 50 … 2,000 points, linear (rank 2) and Gaussian kernels,
             quadratic loss, C = 10⁴, at most MAX_CG iterations
  bounds     the rounding bound's columns of the linear kernel, |X| |X_idx|ᵀ, in the numpy
             path (`certify._abs_columns`: BLAS) against `certify.bound_column` looped over
             the columns (compiled), d = 2, 50, 100; and their largest relative difference
  sga        SVM-Dual's sweeps (sga._sweeps, compiled whole) against the Python loop around
             the compiled sweep it replaced (numpy's copy and norm per sweep), Iris setosa,
             C = 10 and 1000, and the largest difference of their α

    .venv/bin/python benchmarks/bench_numerics.py \
        [--only exp,solve,validation,matvec,kernel,matrix,expansion,sums,bounds,cg,sga]

Run under load it is noisy: each figure is the best of several repeats.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import timeit
from pathlib import Path

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")       # as the fit workers (ui/serving/fit_pool.py)

import numpy as np  # noqa: E402
from numba import njit  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import svm_engine as se  # noqa: E402
from svm_engine import certify as _cf  # noqa: E402
from svm_engine import datasets as ds  # noqa: E402
from svm_engine import kernel_values as kv  # noqa: E402
from svm_engine.bounds import at_C_mask, outside_masks  # noqa: E402
from svm_engine.kernel_values import exp_nonpositive  # noqa: E402
from svm_engine.problem import build_problem  # noqa: E402
from svm_engine.solvers import sga  # noqa: E402


def best(f, number: int, repeat: int = 7) -> float:
    """Seconds per call, the best of `repeat` runs of `number` calls."""
    f()
    return min(timeit.repeat(f, number=number, repeat=repeat)) / number


# -- exp ---------------------------------------------------------------------------------------

@njit(cache=True)
def _gauss_columns_own(XT, ngamma, cols, out):
    d, n = XT.shape
    for c in range(cols):
        for p in range(n):
            out[p] = 0.0
        for k in range(d):
            v = XT[k, c]
            for p in range(n):
                z = XT[k, p] - v
                out[p] += z * z
        for p in range(n):
            out[p] = exp_nonpositive(ngamma * out[p])


@njit(cache=True)
def _gauss_columns_libm(XT, ngamma, cols, out):
    d, n = XT.shape
    for c in range(cols):
        for p in range(n):
            out[p] = 0.0
        for k in range(d):
            v = XT[k, c]
            for p in range(n):
                z = XT[k, p] - v
                out[p] += z * z
        for p in range(n):
            out[p] = math.exp(ngamma * out[p])


@njit(cache=True)
def _exp_all(t, out):
    for p in range(len(t)):
        out[p] = exp_nonpositive(t[p])


def bench_exp() -> None:
    X = np.random.default_rng(0).normal(size=(1000, 2))
    XT, out = np.ascontiguousarray(X.T), np.empty(1000)
    own = best(lambda: _gauss_columns_own(XT, -0.5, 100, out), 20)
    libm = best(lambda: _gauss_columns_libm(XT, -0.5, 100, out), 20)
    t = -np.concatenate([np.linspace(0.0, 50.0, 200001), np.geomspace(1e-12, 708.0, 50000)])
    got = np.empty(len(t))
    _exp_all(t, got)
    ref = np.exp(t)
    ulps = float((np.abs(got - ref) / np.spacing(ref)).max())
    print(f"exp: a Gaussian column of 1,000 points: own exp {1e6 * own / 100:.2f} µs, "
          f"math.exp {1e6 * libm / 100:.2f} µs: {libm / own:.1f}× faster; "
          f"largest error {ulps:.2f} ulp over {len(t):,} arguments in [−708, 0]")


# -- SVM-Primal's Newton solve -------------------------------------------------------------------
# The hand-written pair that newton.py used until issue 17, kept here to be compared.

EPS = float(np.finfo(float).eps)


@njit(cache=True)
def _cholesky_solve(H, g):
    p = H.shape[0]
    L = np.zeros((p, p))
    x = np.zeros(p)
    for j in range(p):
        s = H[j, j]
        for k in range(j):
            s -= L[j, k] * L[j, k]
        if not s > 0.0:
            return x, False
        L[j, j] = math.sqrt(s)
        for i in range(j + 1, p):
            s = H[i, j]
            for k in range(j):
                s -= L[i, k] * L[j, k]
            L[i, j] = s / L[j, j]
    for i in range(p):
        s = g[i]
        for k in range(i):
            s -= L[i, k] * x[k]
        x[i] = s / L[i, i]
    for i in range(p - 1, -1, -1):
        s = x[i]
        for k in range(i + 1, p):
            s -= L[k, i] * x[k]
        x[i] = s / L[i, i]
    return x, True


@njit(cache=True)
def _lstsq_jacobi(H, g):
    p = H.shape[0]
    A = H.copy()
    Q = np.eye(p)
    total = (H * H).sum()
    for _sweep in range(64):
        off = 0.0
        for a in range(p):
            for b in range(p):
                if a != b:
                    off += A[a, b] * A[a, b]
        if off <= 1e-36 * total:
            break
        for a in range(p - 1):
            for b in range(a + 1, p):
                if A[a, b] == 0.0:
                    continue
                theta = (A[b, b] - A[a, a]) / (2.0 * A[a, b])
                t = 1.0 / (abs(theta) + math.sqrt(theta * theta + 1.0))
                if abs(theta) > 1e150:
                    t = 0.5 / abs(theta)
                if theta < 0.0:
                    t = -t
                c = 1.0 / math.sqrt(t * t + 1.0)
                s = t * c
                for k in range(p):
                    ka, kb = A[k, a], A[k, b]
                    A[k, a], A[k, b] = c * ka - s * kb, s * ka + c * kb
                    qa, qb = Q[k, a], Q[k, b]
                    Q[k, a], Q[k, b] = c * qa - s * qb, s * qa + c * qb
                for k in range(p):
                    ak, bk = A[a, k], A[b, k]
                    A[a, k], A[b, k] = c * ak - s * bk, s * ak + c * bk
                A[a, b] = A[b, a] = 0.0
    top = 0.0
    for k in range(p):
        top = max(top, abs(A[k, k]))
    x = np.zeros(p)
    for k in range(p):
        if abs(A[k, k]) > p * EPS * top:
            qg = 0.0
            for a in range(p):
                qg += Q[a, k] * g[a]
            for a in range(p):
                x[a] += qg / A[k, k] * Q[a, k]
    return x


@njit(cache=True)
def _hand(H, g, calls):
    acc = 0.0
    for _ in range(calls):
        x, ok = _cholesky_solve(H, g)
        acc += x[0]
    return acc


@njit(cache=True)
def _lapack(H, g, calls):
    acc = 0.0
    for _ in range(calls):
        x = np.linalg.solve(H, g)
        acc += x[0]
    return acc


@njit(cache=True)
def _hand_lstsq(H, g, calls):
    acc = 0.0
    for _ in range(calls):
        acc += _lstsq_jacobi(H, g)[0]
    return acc


@njit(cache=True)
def _lapack_lstsq(H, g, calls):
    acc = 0.0
    p = H.shape[0]
    for _ in range(calls):
        acc += np.linalg.lstsq(H, g, rcond=p * EPS)[0][0]
    return acc


def bench_solve() -> None:
    rng = np.random.default_rng(1)
    for p in (3, 11, 51):
        B = rng.normal(size=(p, p))
        H, g = np.eye(p) + 2.0 * (B @ B.T), rng.normal(size=p)
        calls = 2000 if p < 20 else 200
        rows = [(name, best(lambda f=f, H=H, g=g, calls=calls: f(H, g, calls), 1) / calls)
                for name, f in (("Cholesky, hand-written", _hand),
                                ("np.linalg.solve (LAPACK)", _lapack),
                                ("Jacobi, hand-written", _hand_lstsq),
                                ("np.linalg.lstsq (LAPACK)", _lapack_lstsq))]
        print(f"solve p = {p:2d}: " + ", ".join(f"{n} {1e6 * t:.2f} µs" for n, t in rows))
    for n in (200, 100_000):
        d = ds.blobs(n=n, seed=2) if hasattr(ds, "blobs") else ds.moons(n=n, seed=2)
        X, y = d.X, np.where(d.y == d.y.max(), 1.0, -1.0)
        fit = best(lambda X=X, y=y: se.fit(X, y, C=1.0, loss="quadratic", bias="augmented",
                                           solver="newton"), 1 if n > 1000 else 20, 5)
        m = se.fit(X, y, C=1.0, loss="quadratic", bias="augmented", solver="newton")
        print(f"solve: a Newton fit (linear kernel, n = {n:,}): {1e3 * fit:.2f} ms, "
              f"{m.n_iter} Newton iterations (one p = 3 solve each)")


# -- validation --------------------------------------------------------------------------------
# The compiled fast path of check_data until issue 17 (max ‖xᵢ‖² and the two labels in one
# pass), kept here to be compared with the numpy one that replaced it.

@njit(cache=True)
def _scan(X, Y, y_pm):
    n, d = X.shape
    m, good = 0.0, True
    for t in range(n):
        a = 0.0
        for k in range(d):
            a += X[t, k] * X[t, k]
        good &= a < np.inf
        m = a if a > m else m
    lo, hi = np.inf, -np.inf
    for t in range(n):
        v = Y[t]
        lo, hi = (v if v < lo else lo), (v if v > hi else hi)
    others = 0
    for t in range(n):
        v = Y[t]
        y_pm[t] = 1.0 if v == hi else -1.0
        others += (v != hi) & (v != lo)
    return good and -np.inf < lo and lo < hi and hi < np.inf and others == 0, m, lo, hi


def bench_validation() -> None:
    from svm_engine.validation import check_data

    for n in (200, 100_000):
        d = ds.moons(n=n, seed=2)
        X, y = np.ascontiguousarray(d.X), d.y.astype(float)
        now = best(lambda X=X, y=y: check_data(X, y), 2000 if n < 1000 else 20)

        def compiled(X=X, y=y):
            y_pm = np.empty(len(y))
            _scan(X, y, y_pm)
            return np.array(X, order="C"), y_pm

        before = best(compiled, 2000 if n < 1000 else 20)
        print(f"validation n = {n:,}: check_data (numpy) {1e6 * now:.1f} µs, the former "
              f"compiled pass {1e6 * before:.1f} µs (+ {1e6 * (now - before):.1f} µs)")


# -- H·v in face.py ----------------------------------------------------------------------------

@njit(cache=True)
def _blas(H, v, out, calls):
    for _ in range(calls):
        out[:] = H @ v


def bench_matvec() -> None:
    from svm_engine.solvers.face import _matvec

    @njit(cache=False)
    def hand(H, v, out, calls):
        for _ in range(calls):
            _matvec(H, v, out)

    rng = np.random.default_rng(3)
    for k in (50, 500, 1000, 2000):
        B = rng.normal(size=(k, 3))
        H, v, out = B @ B.T + np.eye(k), rng.normal(size=k), np.empty(k)
        calls = max(1, 200_000 // k)
        args = (H, v, out, calls)
        t_hand = best(lambda args=args: hand(*args), 1, 5) / calls
        t_blas = best(lambda args=args: _blas(*args), 1, 5) / calls
        print(f"matvec k = {k:4d}: hand-written {1e6 * t_hand:8.2f} µs, H @ v (BLAS) "
              f"{1e6 * t_blas:8.2f} µs: ratio {t_blas / t_hand:.2f}")


# -- the kernels' K(X, Z): drawing and predicting -----------------------------------------------

def _former(k, G, S):
    """The numpy formulas kernels.py used for K(X, Z) until issue 18."""
    from scipy.spatial.distance import cdist

    if k.name == "gaussian":
        sq = cdist(G, S, "sqeuclidean")
        sq *= -k.gamma
        return np.exp(sq, out=sq)
    if k.name == "polynomial":
        return (k.coef0 + G @ S.T) ** k.degree
    return G @ S.T


def bench_kernel() -> None:
    rng = np.random.default_rng(0)
    xs = np.linspace(-2.0, 2.0, 80)
    G = np.array([(a, b) for b in xs for a in xs])
    S, coef = rng.normal(size=(200, 2)), rng.normal(size=200)
    GT = np.ascontiguousarray(G.T)
    for k in (se.Gaussian(sigma=1.0), se.Polynomial(degree=3, coef0=1.0), se.Linear()):
        kp = k.as_numbers

        t = {"expansion": best(lambda k=k: k.expansion(G, S, coef), 10),
             "K(X, Z) @ coef": best(lambda k=k: k(G, S) @ coef, 10),
             "former numpy": best(lambda k=k: _former(k, G, S) @ coef, 10),
             "numpy copy (no numba)": best(
                 lambda kp=kp: kv.kernel_sources_dot_array(kp, GT, S, coef, np.zeros(len(G))),
                 3, 3)}
        K = k(G, S)
        gap = np.abs(_former(k, G, S) - K).max() / (np.finfo(float).eps * np.abs(K).max())
        same = bool((kv.kernel_block_array(kp, GT, S).T == K).all())
        print(f"kernel {k.name:10s} 6,400 × 200: " + ", ".join(
            f"{name} {1e3 * v:.2f} ms" for name, v in t.items())
            + f"; former/expansion {t['former numpy'] / t['expansion']:.2f}; former "
            f"off by {gap:.1f} ε·max|K|; numpy copy bit-equal: {same}")


# -- the kernel matrix -------------------------------------------------------------------------

def numpy_kernel_matrix(kernel, X):
    """K(X, X) by numpy's formulas (what `kernels.*.__call__` computes)."""
    from scipy.spatial.distance import cdist

    if isinstance(kernel, se.Gaussian):
        return np.exp(-kernel.gamma * cdist(X, X, "sqeuclidean"))
    G = X @ X.T
    if isinstance(kernel, se.Polynomial):
        return (kernel.coef0 + G) ** kernel.degree
    return G


def bench_matrix() -> None:
    from svm_engine import kernel_values as kv
    from svm_engine.problem import KernelSpec

    for kernel in (se.Linear(), se.Polynomial(3, 1.0), se.Gaussian(1.0)):
        for n in (200, 1000, 2000):
            X = np.ascontiguousarray(ds.moons(n=n, seed=2).X)
            XT = np.ascontiguousarray(X.T)
            kp = KernelSpec.of(kernel, 1.0, "hinge", "free").numbers()
            number = 20 if n <= 200 else 2
            own = best(lambda X=X, XT=XT, kp=kp: kv.kernel_matrix(kp, X, XT), number, 5)
            lib = best(lambda X=X, k=kernel: numpy_kernel_matrix(k, X), number, 5)
            K, R = kv.kernel_matrix(kp, X, XT), numpy_kernel_matrix(kernel, X)
            col = np.empty(n)
            own_off = lib_off = 0
            for c in range(n):
                kv.kernel_column(kp, XT, n, X[c], col)
                own_off += int((K[c] != col).sum())
                lib_off += int((R[c] != col).sum())
            ulp = float((np.abs(R - K) / np.spacing(np.maximum(np.abs(K), 1e-300))).max())
            print(f"matrix {kernel.name:10s} n = {n:5,}: compiled {1e3 * own:7.2f} ms, numpy "
                  f"{1e3 * lib:7.2f} ms (numpy ÷ compiled {lib / own:5.2f}); entries ≠ the lazy "
                  f"columns: compiled {own_off}, numpy {100 * lib_off / n / n:.0f} % (up to "
                  f"{ulp:.0f} ulp); numpy's symmetric: {bool((R == R.T).all())}")


# -- the certificate's expansion ----------------------------------------------------------------

def _fitted(n: int, kernel):
    """(X, y, α) of SMO at the pages' tol on n moons."""
    import warnings

    d = ds.moons(n=n, seed=2)
    X, y = np.ascontiguousarray(d.X), np.where(d.y > 0, 1.0, -1.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m = se.fit(X, y, kernel=kernel, C=1.0, tol=1e-5)
    return X, y, np.ascontiguousarray(m.alpha)


def bench_expansion() -> None:
    from scipy.spatial.distance import cdist

    from svm_engine import certify as cf

    kernel = se.Gaussian(1.0)
    for n in (200, 2000):
        X, y, a = _fitted(n, kernel)
        problem = build_problem(X, y, kernel, 1.0, "hinge", "free", materialize=False)

        def lib(X=X, y=y, a=a):
            sv = np.flatnonzero(a)
            Ks = np.exp(-kernel.gamma * cdist(X, X[sv], "sqeuclidean"))
            return Ks @ (a[sv] * y[sv]), (Ks + 0.4) @ a[sv]

        number = 200 if n <= 200 else 10
        own = best(lambda problem=problem, a=a: cf.expansion(problem, a), number)
        t_lib = best(lib, number)
        print(f"expansion n = {n:5,} ({int((a > 0).sum())} SVs): compiled {1e6 * own:7.1f} µs, "
              f"cdist + exp + BLAS {1e6 * t_lib:7.1f} µs (numpy ÷ compiled {t_lib / own:.2f})")


# -- the certificate's sums ---------------------------------------------------------------------

def numpy_sums(y, alpha, g, mag, b, C_box, diag, quad, equality, unit_base):
    """certify._sums in numpy (the same results, up to the order of the sums)."""
    eps = float(np.finfo(float).eps)
    finite_C = C_box < math.inf
    bad = not bool(((alpha >= 0.0) & (alpha < math.inf)).all())
    above = finite_C and bool(outside_masks(alpha, C_box)[1].any())
    ay = alpha * y
    sv = alpha > 0.0
    unit = eps * (unit_base + 2.0 * int(sv.sum()))
    b_rnd = unit * float(mag[sv].max(initial=0.0)) if equality else 0.0
    yh = y * (g + b)
    rnd = unit * (mag + abs(b) + 1.0) + b_rnd
    r = yh - 1.0 + diag * alpha
    at_C = at_C_mask(alpha, C_box)
    v = np.maximum(np.where(alpha == 0.0, -r, np.where(at_C, r, np.abs(r))) - rnd, 0.0)
    worst = int(np.argmax(v)) if len(v) else -1
    xi = np.maximum(0.0, 1.0 - yh)
    xi[xi <= rnd] = 0.0
    on = xi > 0.0
    return (float(alpha.sum()), float(ay.sum()), float(ay @ g), float(alpha @ alpha),
            float(v[worst]) if len(v) else 0.0, worst,
            float(xi @ xi) if quad else float(xi.sum()),
            float(rnd[on] @ (2.0 * xi[on])) if quad else float(rnd[on].sum()),
            float(alpha @ rnd), float(rnd.max(initial=0.0)), float(xi.max(initial=0.0)), bad,
            above, float(yh[worst] - 1.0) if len(v) else 0.0)


def bench_sums() -> None:
    from svm_engine import certify as cf

    kernel = se.Gaussian(1.0)
    for n in (200, 2000):
        X, y, a = _fitted(n, kernel)
        problem = build_problem(X, y, kernel, 1.0, "hinge", "free", materialize=False)
        ex = cf.expansion(problem, a)
        b = float(se.fit(X, y, kernel=kernel, C=1.0, tol=1e-5).b)
        args = (y, a, ex.g, ex.mag, b, 1.0, 0.0, False, True, 4.0 * (1 + 2) + 16.0)
        got, ref = cf._sums(*args), numpy_sums(*args)
        assert (got.worst, got.bad, got.above) == (ref[5], ref[11], ref[12]), (got, ref)
        number = 2000 if n <= 200 else 200
        own = best(lambda args=args: cf._sums(*args), number)
        lib = best(lambda args=args: numpy_sums(*args), number)
        fit = best(lambda X=X, y=y: se.fit(X, y, kernel=kernel, C=1.0, tol=1e-5), 5, 3)
        print(f"sums n = {n:5,}: compiled {1e6 * own:6.1f} µs, numpy {1e6 * lib:6.1f} µs "
              f"(+{1e6 * (lib - own):.1f} µs, {lib / own:.0f}×); a whole fit {1e3 * fit:.2f} ms")


# -- the rounding bound's columns ---------------------------------------------------------------

@njit(cache=True)
def _bound_columns(kp, kp_abs, XT, X, idx):
    """`certify.bound_column` for each of idx (the linear kernel: k's column is not read)."""
    n = XT.shape[1]
    from_k = np.empty(0)
    out, col_abs = np.empty((n, len(idx))), np.empty(n)
    for q in range(len(idx)):
        _cf.bound_column(kp, kp_abs, XT, X[idx[q]], from_k, col_abs)
        out[:, q] = col_abs
    return out


def bench_bounds() -> None:
    rng = np.random.default_rng(0)
    for n, d, m in ((2000, 2, 800), (2000, 50, 500), (5000, 100, 800)):
        X, y = rng.normal(size=(n, d)), np.where(rng.normal(size=n) > 0, 1.0, -1.0)
        problem = build_problem(X, y, se.Linear(), 1.0, "hinge", "free", materialize=False)
        idx = np.sort(rng.choice(n, m, replace=False)).astype(np.int64)
        kp, kp_abs = _cf._kernel_numbers(problem), _cf._abs_numbers(problem)
        a, b = _cf._abs_columns(problem, idx), _bound_columns(kp, kp_abs, problem.XT, X, idx)
        lib = best(lambda problem=problem, idx=idx: _cf._abs_columns(problem, idx), 3, 5)
        own = best(lambda kp=kp, kp_abs=kp_abs, problem=problem, X=X, idx=idx:
                   _bound_columns(kp, kp_abs, problem.XT, X, idx), 3, 5)
        print(f"bounds n = {n:5,}, d = {d:3}, {m} columns: BLAS {1e3 * lib:6.1f} ms, "
              f"compiled {1e3 * own:6.1f} ms (compiled ÷ BLAS {own / lib:.2f}); largest "
              f"relative difference {np.max(np.abs(a - b) / a):.1e}")


# -- CG on a face -------------------------------------------------------------------------------

@njit(cache=True)
def _kkt_solve(H, g, y):
    """The face's minimiser with the box ignored, exactly: [H y; yᵀ 0][d; μ] = [−g; 0]."""
    k = len(g)
    A = np.zeros((k + 1, k + 1))
    A[:k, :k] = H
    A[:k, k] = y
    A[k, :k] = y
    b = np.zeros(k + 1)
    b[:k] = -g
    return np.linalg.solve(A, b)[:k]


def _cg_case(name: str, k: int, rng) -> str:
    import scipy.sparse.linalg as sla

    from svm_engine.solvers.face import MAX_CG, _cg, cg_budget, period

    C, stop = 1e4, 0.1 * 1e-5              # the pages' SMO tol 1e-5: CG stops at tol/10
    X = rng.normal(size=(k, 2))
    y = np.where(rng.random(k) < 0.5, 1.0, -1.0)
    K = X @ X.T if name == "linear" else np.exp(-0.5 * ((X[:, None] - X[None]) ** 2).sum(-1))
    H = (y[:, None] * y[None, :]) * (K + np.eye(k) / (2.0 * C))
    g = rng.normal(size=k)
    act, w = np.ones(k, dtype=np.bool_), np.empty((6, k))

    def proj(v):
        return v - y * (y @ v) / k

    op = sla.LinearOperator((k, k), matvec=lambda v: proj(H @ proj(v)))
    rhs = -proj(g)

    def own():
        return _cg(H, g, y, act, k, stop, MAX_CG, *w)

    def scipy_cg():
        return sla.cg(op, rhs, rtol=0.0, atol=stop / math.sqrt(k), maxiter=MAX_CG)[0]

    def off(d):
        return float(np.abs(proj(H @ d + g)).max())

    number = 5 if k > 500 else 50
    its = own()
    d_own = w[0].copy()
    t_own = best(own, number, 5)
    n = 2 * k                              # a face of half the points: a step's own budget
    budget = cg_budget(n, k, period(n))
    t_budget = best(lambda: _cg(H, g, y, act, k, stop, budget, *w), number, 5)
    t_lapack = best(lambda: _kkt_solve(H, g, y), max(1, number // 5), 3)
    t_scipy = best(scipy_cg, number, 5)
    return (f"cg {name:8s} k = {k:4d}: _cg {its:3d} iterations {1e6 * t_own:9.1f} µs "
            f"(|P∇| {off(d_own):.0e}; within a step's budget at n = {n}, {budget} products: "
            f"{1e6 * t_budget:.1f} µs), LAPACK {1e6 * t_lapack:9.1f} µs "
            f"(|P∇| {off(_kkt_solve(H, g, y)):.0e}), scipy cg {1e6 * t_scipy:9.1f} µs "
            f"(|P∇| {off(scipy_cg()):.0e})")


def bench_cg() -> None:
    rng = np.random.default_rng(4)
    for name in ("linear", "gaussian"):
        for k in (50, 200, 1000, 2000):
            print(_cg_case(name, k, rng))


# -- sga -------------------------------------------------------------------------------------

def _sga_python_loop(K, y, C, tol, max_iter=100_000):
    """SVM-Dual's sweeps as sga.sga ran them before: a Python loop around the compiled
    sweep, with numpy's copy and norm per sweep."""
    eta = 1.0 / np.diag(K)
    alpha = np.zeros(len(y))
    g = K @ (alpha * y)
    t = 0
    while t < max_iter:
        alpha_prev = alpha.copy()
        sga._sweep(K, y, alpha, g, eta, float(C))
        t += 1
        if float(np.linalg.norm(alpha - alpha_prev)) <= tol:
            break
    return alpha, t


def bench_sga() -> None:
    d = ds.iris_setosa()
    y = d.y.astype(float)
    for C in (10.0, 1000.0):
        p = build_problem(d.X, y, se.Linear(), C, "hinge", "augmented")
        K = np.ascontiguousarray(p.K_eff)
        a_old, t_old = _sga_python_loop(K, y, C, 1e-4)
        out = sga.sga(K, y, C, tol=1e-4)
        old = best(lambda K=K, C=C: _sga_python_loop(K, y, C, 1e-4), 1, 5)
        new = best(lambda K=K, C=C: sga.sga(K, y, C, tol=1e-4), 1, 5)
        gap = float(np.max(np.abs(out.alpha - a_old)))
        print(f"sga Iris setosa C = {C:g}: {out.n_iter:,} sweeps (Python loop {t_old:,}): "
              f"compiled loop {1e3 * new:.1f} ms, Python loop {1e3 * old:.1f} ms "
              f"({old / new:.1f}×), largest α difference {gap:.1e}")


SECTIONS = {"exp": bench_exp, "solve": bench_solve, "validation": bench_validation,
            "matvec": bench_matvec, "matrix": bench_matrix, "expansion": bench_expansion,
            "sums": bench_sums, "bounds": bench_bounds, "cg": bench_cg, "kernel": bench_kernel,
            "sga": bench_sga}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default=",".join(SECTIONS))
    args = ap.parse_args()
    for name in args.only.split(","):
        SECTIONS[name]()


if __name__ == "__main__":
    main()
