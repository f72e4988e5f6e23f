"""Solver speed against scikit-learn in the same run (a script, not a test).

For 2-D blobs and moons (standardised), n ∈ {200, 1000, 2000, 5000}, the linear kernel and
the RBF kernel with γ = 1 (se.Gaussian(sigma=1/√2)), C ∈ {1, 100}, tol = 1e-3:

* smo (se.fit, solver="smo") against scikit-learn's SVC (LIBSVM, shrinking, 200 MB cache):
  median wall time of `repeats` fits each, their ratio, iterations, and the dual objectives
  of both answers computed with the same kernel matrix (LIBSVM's α = |dual_coef_|);
* qp (cvxopt) for n ≤ 1000, with its dual objective;
* newton (linear kernel, quadratic loss, augmented bias) against
  LinearSVC(loss="squared_hinge", dual=False), which minimises the same primal
  ½(‖w‖² + b²) + C Σ max(0, 1 − yᵢ(wᵀxᵢ + b))² (intercept_scaling = 1 regularises b).

Prints the tables and the median smo/LIBSVM ratio (overall and per n). Speed goals are not
checked here (issue 7 adds them); each measurement is one function so that they can be.

    .venv/bin/python benchmarks/bench_solvers.py                  # the full run
    .venv/bin/python benchmarks/bench_solvers.py --quick          # n ∈ {200, 1000}, 3 repeats
    .venv/bin/python benchmarks/bench_solvers.py --sizes 2000 --repeats 7 --tol 1e-6
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import svm_engine as se  # noqa: E402
from svm_engine import datasets as ds  # noqa: E402

SIZES = (200, 1000, 2000, 5000)
DATASETS = ("blobs", "moons")
KERNELS = ("linear", "rbf")
CS = (1.0, 100.0)
NOISE = {"blobs": 1.0, "moons": 0.3}
RBF_GAMMA = 1.0
QP_MAX_N = 1000


@dataclass(frozen=True)
class Problem:
    data: str
    n: int
    kernel: str      # "linear" | "rbf"
    C: float
    X: np.ndarray    # standardised
    y: np.ndarray    # ±1

    @property
    def engine_kernel(self):
        if self.kernel == "linear":
            return se.Linear()
        return se.Gaussian(sigma=1.0 / math.sqrt(2.0 * RBF_GAMMA))   # γ = 1/(2σ²)

    @property
    def label(self) -> str:
        return f"{self.data:5s} {self.n:5d} {self.kernel:6s} C={self.C:<4g}"


def make_problems(sizes=SIZES, datasets=DATASETS, kernels=KERNELS, Cs=CS, seed=0):
    out = []
    for n in sizes:
        for name in datasets:
            d = ds.load(name, n=n, noise=NOISE[name], seed=seed)
            X = (d.X - d.X.mean(axis=0)) / d.X.std(axis=0)
            y = np.where(d.y > 0, 1.0, -1.0)
            for kernel in kernels:
                for C in Cs:
                    out.append(Problem(name, n, kernel, C, X, y))
    return out


def median_time(fn, repeats):
    """(median seconds over `repeats` calls, the last call's result)."""
    times, result = [], None
    for _ in range(repeats):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), result


def dual_objective(p: Problem, alpha: np.ndarray) -> float:
    """Σα − ½ Σᵢⱼ αᵢαⱼyᵢyⱼK(xᵢ, xⱼ) over the support vectors, with the engine's numpy kernel."""
    sv = np.flatnonzero(alpha > 0)
    ay = alpha[sv] * p.y[sv]
    K = p.engine_kernel(p.X[sv], p.X[sv])
    return float(alpha.sum() - 0.5 * ay @ K @ ay)


def relative_gap(a: float, b: float) -> float:
    return abs(a - b) / max(abs(b), 1e-300)


# -- one function per measurement --------------------------------------------------------

def measure_smo(p: Problem, tol: float, repeats: int) -> dict:
    def fit():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", se.ConvergenceWarning)
            return se.fit(p.X, p.y, kernel=p.engine_kernel, C=p.C, solver="smo", tol=tol)

    t, m = median_time(fit, repeats)
    return {"time": t, "n_iter": m.n_iter, "dual": dual_objective(p, m.alpha),
            "converged": m.converged}


def measure_libsvm(p: Problem, tol: float, repeats: int) -> dict:
    from sklearn.svm import SVC

    def fit():
        kw = {"kernel": "linear"} if p.kernel == "linear" else {"kernel": "rbf",
                                                                  "gamma": RBF_GAMMA}
        return SVC(C=p.C, tol=tol, cache_size=200, shrinking=True, **kw).fit(p.X, p.y)

    t, svc = median_time(fit, repeats)
    alpha = np.zeros(p.n)
    alpha[svc.support_] = np.abs(svc.dual_coef_[0])      # dual_coef_ = yᵢαᵢ
    return {"time": t, "n_iter": int(np.ravel(svc.n_iter_)[0]),
            "dual": dual_objective(p, alpha)}


def measure_qp(p: Problem, repeats: int) -> dict:
    def fit():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", se.ConvergenceWarning)
            return se.fit(p.X, p.y, kernel=p.engine_kernel, C=p.C, solver="qp")

    t, m = median_time(fit, repeats)
    return {"time": t, "n_iter": m.n_iter, "dual": dual_objective(p, m.alpha),
            "converged": m.converged}


def squared_hinge_primal(p: Problem, w: np.ndarray, b: float) -> float:
    """½(‖w‖² + b²) + C Σ max(0, 1 − yᵢ(wᵀxᵢ + b))²: newton's and LinearSVC's objective."""
    xi = np.maximum(0.0, 1.0 - p.y * (p.X @ w + b))
    return float(0.5 * (w @ w + b * b) + p.C * xi @ xi)


def measure_newton(p: Problem, repeats: int) -> dict:
    def fit():
        return se.fit(p.X, p.y, kernel=se.Linear(), C=p.C, loss="quadratic", bias="augmented",
                      solver="newton")

    t, m = median_time(fit, repeats)
    return {"time": t, "n_iter": m.n_iter, "primal": squared_hinge_primal(p, m.w, m.b),
            "converged": m.converged}


def measure_linearsvc(p: Problem, repeats: int) -> dict:
    from sklearn.svm import LinearSVC

    def fit():
        return LinearSVC(loss="squared_hinge", dual=False, C=p.C).fit(p.X, p.y)

    t, clf = median_time(fit, repeats)
    return {"time": t, "n_iter": int(clf.n_iter_),
            "primal": squared_hinge_primal(p, clf.coef_[0], float(clf.intercept_[0]))}


def warm_up():
    """Load numba's compiled code and cvxopt before timing (the first fit pays for it)."""
    d = ds.moons(n=50, noise=0.3, seed=1)
    for k in (se.Linear(), se.Gaussian(sigma=0.7)):
        se.fit(d.X, d.y, kernel=k, solver="smo")
        se.fit(d.X, d.y, kernel=k, solver="qp")
    se.fit(d.X, d.y, loss="quadratic", bias="augmented", solver="newton")


# -- the tables ----------------------------------------------------------------------------

def smo_rows(problems, tol, repeats, qp_max_n, log=print):
    rows = []
    for p in problems:
        row = {"problem": p, "smo": measure_smo(p, tol, repeats),
               "libsvm": measure_libsvm(p, tol, repeats)}
        if p.n <= qp_max_n:
            row["qp"] = measure_qp(p, repeats)
        rows.append(row)
        log(format_smo_row(row), flush=True)
    return rows


def newton_rows(problems, repeats, log=print):
    rows = []
    for p in problems:
        if p.kernel != "linear":
            continue
        row = {"problem": p, "newton": measure_newton(p, repeats),
               "linearsvc": measure_linearsvc(p, repeats)}
        rows.append(row)
        log(format_newton_row(row), flush=True)
    return rows


SMO_HEADER = (f"{'data':5s} {'n':>5s} {'kernel':6s} {'C':6s} | {'smo ms':>8s} {'LIBSVM ms':>9s} "
              f"{'ratio':>6s} | {'smo it':>7s} {'LIBSVM it':>9s} | {'dual rel diff':>13s} | "
              f"{'qp ms':>8s} {'qp rel diff':>11s}")


def format_smo_row(r) -> str:
    s, lib = r["smo"], r["libsvm"]
    qp = r.get("qp")
    qp_cols = (f"{qp['time'] * 1e3:8.1f} {relative_gap(qp['dual'], lib['dual']):11.1e}" if qp
               else f"{'–':>8s} {'–':>11s}")
    flag = "" if s["converged"] else "  (smo not converged)"
    return (f"{r['problem'].label} | {s['time'] * 1e3:8.1f} {lib['time'] * 1e3:9.1f} "
            f"{s['time'] / lib['time']:6.2f} | {s['n_iter']:7d} {lib['n_iter']:9d} | "
            f"{relative_gap(s['dual'], lib['dual']):13.1e} | {qp_cols}{flag}")


NEWTON_HEADER = (f"{'data':5s} {'n':>5s} {'kernel':6s} {'C':6s} | {'newton ms':>9s} "
                 f"{'LinearSVC ms':>12s} {'ratio':>6s} | {'newton it':>9s} {'LinSVC it':>9s} | "
                 f"{'primal rel diff':>15s}")


def format_newton_row(r) -> str:
    nw, lin = r["newton"], r["linearsvc"]
    return (f"{r['problem'].label} | {nw['time'] * 1e3:9.1f} {lin['time'] * 1e3:12.1f} "
            f"{nw['time'] / lin['time']:6.2f} | {nw['n_iter']:9d} {lin['n_iter']:9d} | "
            f"{relative_gap(nw['primal'], lin['primal']):15.1e}")


def smo_summary(rows) -> list[str]:
    lines = []
    for n in sorted({r["problem"].n for r in rows}):
        ratios = [r["smo"]["time"] / r["libsvm"]["time"] for r in rows if r["problem"].n == n]
        lines.append(f"  n = {n:5d}: median smo/LIBSVM time ratio {statistics.median(ratios):.2f}"
                     f" over {len(ratios)} problems")
    ratios = [r["smo"]["time"] / r["libsvm"]["time"] for r in rows]
    gaps = [relative_gap(r["smo"]["dual"], r["libsvm"]["dual"]) for r in rows]
    lines.append(f"  all    : median smo/LIBSVM time ratio {statistics.median(ratios):.2f} "
                 f"over {len(ratios)} problems; largest dual rel diff {max(gaps):.1e}")
    return lines


def newton_summary(rows) -> list[str]:
    if not rows:
        return []
    ratios = [r["newton"]["time"] / r["linearsvc"]["time"] for r in rows]
    gaps = [relative_gap(r["newton"]["primal"], r["linearsvc"]["primal"]) for r in rows]
    return [f"  median newton/LinearSVC time ratio {statistics.median(ratios):.2f} over "
            f"{len(ratios)} problems; largest primal rel diff {max(gaps):.1e}"]


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="n ∈ {200, 1000}, 3 repeats")
    ap.add_argument("--sizes", type=int, nargs="+", help=f"sample sizes (default {SIZES})")
    ap.add_argument("--repeats", type=int, help="fits per median (default 5; --quick 3)")
    ap.add_argument("--tol", type=float, default=1e-3, help="smo and LIBSVM tol (1e-3)")
    ap.add_argument("--datasets", nargs="+", default=list(DATASETS), choices=DATASETS)
    ap.add_argument("--kernels", nargs="+", default=list(KERNELS), choices=KERNELS)
    ap.add_argument("--C", type=float, nargs="+", default=list(CS), dest="Cs")
    ap.add_argument("--qp-max-n", type=int, default=QP_MAX_N, help="cvxopt only up to this n")
    ap.add_argument("--no-newton", action="store_true", help="skip newton vs LinearSVC")
    args = ap.parse_args(argv)
    args.sizes = args.sizes or ([200, 1000] if args.quick else list(SIZES))
    args.repeats = args.repeats or (3 if args.quick else 5)
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    import sklearn

    print(f"bench_solvers: sizes {args.sizes}, datasets {args.datasets}, kernels {args.kernels} "
          f"(RBF γ = {RBF_GAMMA:g}), C {args.Cs}, tol {args.tol:g}, median of {args.repeats}; "
          f"scikit-learn {sklearn.__version__}")
    warm_up()
    problems = make_problems(args.sizes, args.datasets, args.kernels, args.Cs)
    print("\nsmo vs scikit-learn SVC (LIBSVM); qp = cvxopt (dual rel diff vs LIBSVM's dual)")
    print(SMO_HEADER)
    rows = smo_rows(problems, args.tol, args.repeats, args.qp_max_n)
    print("\n".join(smo_summary(rows)))
    if not args.no_newton:
        print("\nnewton (linear, quadratic loss, augmented bias) vs "
              "LinearSVC(loss='squared_hinge', dual=False)")
        print(NEWTON_HEADER)
        nrows = newton_rows(problems, args.repeats)
        print("\n".join(newton_summary(nrows)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
