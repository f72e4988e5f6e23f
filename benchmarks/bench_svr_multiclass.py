"""Times of the ε-SVR solvers and of the k-class machines, the figures behind the pages'
caps (ui/regression/compute.py MAX_POINTS, ui/multiclass/compute.py MAX_POINTS and
QP_MAX_WORK).

    .venv/bin/python benchmarks/bench_svr_multiclass.py [--quick]

SVR: SMO (svm_engine/svr.py, its time budget lifted to 10 s) and the cvxopt QP on the
Regression page's generated data, n up to the page's cap; each row also gives how far the two
fitted functions are apart and scikit-learn's SVR time (LIBSVM, tol 1e-10) on the same
problem. Multiclass: one-vs-rest and one-vs-one with SMO and the QP on k blobs, with the QP's
work units Σ(points per machine)² and the seconds per million units.
Times are wall-clock medians of 3 runs (1 with --quick), after one warm-up fit.
"""

from __future__ import annotations

import statistics
import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import svm_engine as se  # noqa: E402
from ui.multiclass import compute as M  # noqa: E402
from ui.regression import compute as R  # noqa: E402

SMO_BUDGET_S = 10.0   # SMO's own stop here (the page's: ui/regression/compute.SMO_BUDGET_S)


def timed(repeat: int, fn, *args, **kwargs):
    """(fn's result, the median wall-clock seconds of `repeat` calls)."""
    out, times = None, []
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn(*args, **kwargs)
        times.append(time.perf_counter() - t0)
    return out, statistics.median(times)


def svr_rows(repeat: int) -> None:
    from sklearn.svm import SVR

    print("ε-SVR (sine + noise 0.2, ε = 0.1): SMO vs QP vs scikit-learn")
    print(f"{'kernel':<12}{'C':>6}{'n':>5}{'smo ms':>9}{'iters':>12}{'conv':>6}{'qp ms':>9}"
          f"{'conv':>6}{'max|Δf|':>10}{'sklearn ms':>11}")
    kernels = [("linear", se.Linear(), {"kernel": "linear"}),
               ("gauss σ=0.5", se.Gaussian(sigma=0.5), {"kernel": "rbf", "gamma": 2.0}),
               ("poly q=3", se.Polynomial(degree=3, coef0=1.0),
                {"kernel": "poly", "degree": 3, "gamma": 1.0, "coef0": 1.0})]
    se.fit_svr([0.0, 1.0, 2.0], [0.0, 1.0, 0.0])          # compile / load SMO's steps
    for name, k, skp in kernels:
        for C in (1.0, 10.0, 100.0):
            for n in (50, 100, 200, R.MAX_POINTS):
                x, t = R.generated("sine", n, 0.2, 0)
                smo, ts = timed(repeat, se.fit_svr, x, t, k, C=C, epsilon=0.1,
                                time_budget=SMO_BUDGET_S)
                qp, tq = timed(repeat, se.fit_svr, x, t, k, C=C, epsilon=0.1, solver="qp")
                _, tk = timed(repeat, SVR(C=C, epsilon=0.1, tol=1e-10, **skp).fit,
                              x[:, None], t)
                df = float(np.abs(smo.f_train - qp.f_train).max())
                print(f"{name:<12}{C:>6g}{n:>5}{1e3 * ts:>9.1f}{smo.n_iter:>12,}"
                      f"{'yes' if smo.converged else 'NO':>6}{1e3 * tq:>9.1f}"
                      f"{'yes' if qp.converged else 'NO':>6}{df:>10.1e}{1e3 * tk:>11.1f}")


def multiclass_rows(repeat: int) -> None:
    print("\nk-class machines on k blobs (noise 1): seconds, and the QP's work units")
    print(f"{'k':>3}{'n':>5}{'strategy':>9}{'kernel':>10}{'smo s':>8}{'qp s':>8}"
          f"{'units':>11}{'qp s/M units':>14}")
    for k in (3, 5, 8):
        for n in (100, 200, M.MAX_POINTS):
            X, labels, _ = M.blobs(k, n, 1.0, 0)
            for strategy in ("ovr", "ovo"):
                for kern in ("linear", "gaussian"):
                    s = {"strategy": strategy, "kernel": kern, "C": 10.0}
                    _, t_smo = timed(repeat, M.run, X, labels, {**s, "solver": "smo"})
                    work = M.qp_work(labels, strategy)
                    _, t_qp = timed(repeat, se.fit_multiclass, X, labels, strategy,
                                    kernel=se.make_kernel(kern), C=10.0, solver="qp")
                    print(f"{k:>3}{n:>5}{strategy:>9}{kern:>10}{t_smo:>8.2f}{t_qp:>8.2f}"
                          f"{work:>11,}{t_qp / work * 1e6:>14.2f}")


if __name__ == "__main__":
    quick = "--quick" in sys.argv
    warnings.simplefilter("ignore", se.ConvergenceWarning)
    svr_rows(1 if quick else 3)
    multiclass_rows(1 if quick else 3)
