"""What the Generalisation and Kernels pages cost: a cross-validation grid at the work cap
(svm_engine/model_selection.py: MAX_WORK), and the Kernels page's engine calls (the Gram
matrix's eigenvalues, the dual on a non-kernel by cvxopt and by SMO from several starts).

A script, not a test: it prints seconds per grid and per call, to check that the cap keeps a
request within the classroom's 2 s budget (the grid stops starting fits at
model_selection.BUDGET_S = 1.5 s; a stopped grid is reported as such below).

    .venv/bin/python benchmarks/bench_model_selection.py
"""

from __future__ import annotations

import os
import sys
import time
import warnings
from pathlib import Path

# as in the app's fit workers (ui/fit_pool.py THREAD_ENV): one BLAS thread
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

import svm_engine as se  # noqa: E402
from svm_engine import datasets, gram  # noqa: E402
from svm_engine import model_selection as ms  # noqa: E402
from svm_engine import precomputed as pc  # noqa: E402

CS = (0.1, 1.0, 10.0, 100.0, 1000.0)
GRIDS = {"gaussian": (0.05, 0.2, 0.5, 1.0, 3.0), "polynomial": (1, 2, 3, 4, 5)}


def _standardised(d):
    return (d.X - d.X.mean(0)) / d.X.std(0), d.y


def grid_rows():
    for name in ("moons", "circles", "xor", "blobs"):
        for n in (100, 200, 400):
            X, y = _standardised(datasets.load(name, n=n, noise=0.3, seed=0))
            for kernel, values in GRIDS.items():
                if ms.check_work(n, len(CS) * len(values), 5) is not None:
                    continue
                t = time.perf_counter()
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    r = ms.cross_validate(X, y, kernel, CS, values, budget_s=600)
                dt = time.perf_counter() - t
                yield (f"{name:8s} n={n:4d} {kernel:10s} {r.fits:4d} fits {dt:6.2f} s "
                       f"({1000 * dt / r.fits:5.1f} ms/fit), capped fits {r.unconverged.sum()}, "
                       f"best {r.best_params}")


def kernels_rows():
    for n in (50, 150, 300):
        d = datasets.circles(n=n, noise=0.1, seed=0)
        for f in (se.Gaussian(0.5), gram.Sigmoid(1.0, -1.0), se.Polynomial(2, -1.0)):
            t = time.perf_counter()
            K = gram.gram_matrix(f, d.X)
            gram.mercer_check(K)
            gram.conditional_eigenvalues(K)
            t_eig = time.perf_counter() - t
            t = time.perf_counter()
            pc.fit_gram(K, d.y, 1.0, "qp")
            t_qp = time.perf_counter() - t
            t = time.perf_counter()
            pc.smo_starts(K, d.y, 1.0, starts=6)
            t_smo = time.perf_counter() - t
            yield (f"n={n:4d} {f.label[:34]:34s} Gram+eig {t_eig:6.3f} s  qp {t_qp:6.3f} s  "
                   f"smo×6 {t_smo:6.3f} s")


def main():
    d = datasets.moons(n=40, noise=0.2, seed=0)
    se.fit(d.X, d.y, kernel=se.Gaussian(1.0))        # compiled code loaded before timing
    pc.fit_gram(gram.gram_matrix(se.Linear(), d.X), d.y, 1.0, "qp")   # cvxopt imported
    print(f"cross-validation, 5 folds, C in {CS}, work cap {ms.MAX_WORK:,}")
    for row in grid_rows():
        print(" ", row)
    print("kernels page: Gram matrix, eigenvalues, the dual by cvxopt and SMO (6 starts)")
    for row in kernels_rows():
        print(" ", row)
    print(f"numpy {np.__version__}; times on this machine now (under load if others run)")


if __name__ == "__main__":
    main()
