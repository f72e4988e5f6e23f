"""SVM-Primal-Kernel (newton, kernel form) against its previous implementation, in one run
(a script, not a test).

The previous code solved every Newton step as the slide writes it: S = Σ_V KᵢKᵢᵀ (an
n × |V| × n product) and H⁻¹∇ by least squares on the n × n H = K + 2CS (LAPACK's SVD).
The current code (`svm_engine/solvers/newton.py`, `_kernel_direction`) solves the
|V| × |V| system (K_VV + I/(2C))β′_V = y_V by Cholesky instead: the same Newton point
(the module docstring derives it). `old_newton_kernel` below is the previous loop, kept
here only so that both are timed on the same data in the same run.

Data: moons (noise 0.2, seed 0), standardised; Gaussian kernel σ = 0.5; quadratic loss,
augmented bias (the only form newton solves); C = 10 by default.

    .venv/bin/python benchmarks/bench_newton_kernel.py                 # n = 250, 500, 1000
    .venv/bin/python benchmarks/bench_newton_kernel.py --old-max-n 500 # old code up to 500
    .venv/bin/python benchmarks/bench_newton_kernel.py --sizes 1000 2000 --C 100

Prints, per n: the time of se.fit (kernel matrix, Newton, finalize), the Newton loop alone
for both implementations, their iterations, the primal objectives and the old/new ratio.
BLAS runs on one thread, as in the app's fit workers (ui/serving/fit_pool.py THREAD_ENV); set
OPENBLAS_NUM_THREADS yourself to measure another count.
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from functools import partial
from pathlib import Path

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")   # before numpy loads BLAS: as the fit workers run

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_solvers import median_time  # noqa: E402  (this folder: sys.path[0])

import svm_engine as se  # noqa: E402
from svm_engine import datasets as ds  # noqa: E402
from svm_engine.problem import build_problem  # noqa: E402
from svm_engine.solvers.newton import newton  # noqa: E402

SIGMA = 0.5


def old_newton_kernel(K, y, C, tol=1e-8, max_iter=100):
    """The kernel form of `newton` before this change (S formed, H solved by lstsq)."""
    n = len(y)
    w = np.zeros(n)
    F = K @ w
    J = float(np.maximum(0.0, 1.0 - y * F) @ np.maximum(0.0, 1.0 - y * F))
    t = 0
    while t < max_iter:
        viol = y * F < 1.0
        Av = K[viol]
        v = Av.T @ y[viol]
        S = Av.T @ Av
        grad = (K + 2.0 * C * S) @ w - 2.0 * C * v
        H = K + 2.0 * C * S
        d = np.linalg.lstsq(H, grad, rcond=None)[0]
        eta = 1.0
        while True:
            w_new = w - eta * d
            F_new = K @ w_new
            xi = np.maximum(0.0, 1.0 - y * F_new)
            J_new = 0.5 * w_new @ (K @ w_new) + C * float(xi @ xi)
            if J_new <= J + 1e-12 * max(1.0, abs(J)) or eta < 1e-10:
                break
            eta *= 0.5
        if not J_new <= J + 1e-12 * max(1.0, abs(J)):
            break
        dw = w_new - w
        step = float(np.sqrt(max(dw @ (K @ dw), 0.0)))
        w, F, J = w_new, F_new, J_new
        t += 1
        if step <= tol or (eta == 1.0 and np.array_equal(y * F < 1.0, viol)):
            break
    return {"n_iter": t, "primal": J}


def data(n: int):
    d = ds.moons(n=n, noise=0.2, seed=0)
    X = (d.X - d.X.mean(axis=0)) / d.X.std(axis=0)
    return X, np.where(d.y > 0, 1.0, -1.0)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[250, 500, 1000])
    ap.add_argument("--C", type=float, default=10.0)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--old-max-n", type=int, default=1000,
                    help="time the old code only up to this n (it takes ~20 s at 1,000)")
    args = ap.parse_args(argv)
    kernel = se.Gaussian(sigma=SIGMA)
    X, y = data(50)
    se.fit(X, y, kernel=kernel, C=args.C, loss="quadratic", bias="augmented", solver="newton")
    print(f"moons (noise 0.2), Gaussian σ = {SIGMA}, C = {args.C:g}, quadratic loss, "
          f"augmented bias; median of {args.repeats} (old code: 1 run)")
    print(f"{'n':>5} {'fit s':>8} {'newton s':>9} {'iters':>5} {'primal':>14} "
          f"{'old s':>8} {'iters':>5} {'old primal':>14} {'old/new':>8}")
    for n in args.sizes:
        X, y = data(n)
        kw = {"kernel": kernel, "C": args.C, "loss": "quadratic", "bias": "augmented",
              "solver": "newton"}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", se.ConvergenceWarning)
            t_fit, m = median_time(partial(se.fit, X, y, **kw), args.repeats)
        K = build_problem(X, y, kernel, args.C, "quadratic", "augmented").K
        t_new, r = median_time(partial(newton, K, y, args.C, kernel_form=True), args.repeats)
        line = (f"{n:5d} {t_fit:8.3f} {t_new:9.4f} {r['n_iter']:5d} "
                f"{m.primal_objective:14.8g}")
        if n <= args.old_max_n:
            t_old, o = median_time(partial(old_newton_kernel, K, y, args.C), 1)
            line += f" {t_old:8.3f} {o['n_iter']:5d} {o['primal']:14.8g} {t_old / t_new:8.0f}"
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
