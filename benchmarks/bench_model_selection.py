"""What the Generalisation and Kernels pages cost: a cross-validation grid at the work cap
(svm_engine/model_selection.py: MAX_WORK), and the Kernels page's engine calls (the Gram
matrix's eigenvalues, the dual on a non-kernel by cvxopt and by SMO from several starts).

A script, not a test: it prints seconds per grid and per call, to check that the cap keeps a
request within the classroom's 2 s budget (the grid stops starting fits at
model_selection.BUDGET_S = 1.5 s; a stopped grid is reported as such below).

    .venv/bin/python benchmarks/bench_model_selection.py
    .venv/bin/python benchmarks/bench_model_selection.py --page [--busy]

``--page`` times only the Generalisation page's default request (its default points and
grid, both kernel families: ``ui.generalisation.compute.cv_run``, what its fit worker runs)
seven times each, wall time and CPU time, against the grid's own stop
(``compute.CV_BUDGET_S``); ``--busy`` keeps one core busy meanwhile (a plain Python loop in
another process), as a loaded classroom server would.
"""

from __future__ import annotations

import os
import sys
import time
import warnings
from pathlib import Path

# as in the app's fit workers (ui/serving/fit_pool.py THREAD_ENV): one BLAS thread
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
#: the Generalisation page's default grid before 2026-11-28 (5 × 5 cells, 5 folds): it ran
#: past the grid's 1.2 s stop under load
FORMER_CS, FORMER_SIGMAS = (0.1, 1.0, 10.0, 100.0, 1000.0), (0.05, 0.2, 0.5, 1.0, 2.0)


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


def _busy(seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass


def page_rows(repeats: int = 7):
    """The Generalisation page's default grid, as its worker runs it (wall and CPU time)."""
    from ui.generalisation import compute as GC

    d = datasets.moons(n=200, noise=0.3, seed=0)     # the page's default points
    requests = (("gaussian", GC.DEFAULT_CS, GC.DEFAULT_SIGMAS, GC.DEFAULT_K),
                ("polynomial", GC.DEFAULT_CS, GC.DEFAULT_DEGREES, GC.DEFAULT_K),
                ("gaussian", FORMER_CS, FORMER_SIGMAS, 5))    # the default before 2026-11-28
    for family, Cs, values, k in requests:
        wall, cpu = [], []
        for _ in range(repeats):
            t, c = time.perf_counter(), time.process_time()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                out = GC.cv_run(d.X, d.y, family, Cs, values, k, 0, budget_s=600)
            wall.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
        g = out.grid
        yield (f"{family:10s} {len(g.Cs)} × {len(g.values)} cells, k = {g.k} ({g.fits} fits): "
               f"wall median {np.median(wall):.2f} s, max {max(wall):.2f} s; CPU median "
               f"{np.median(cpu):.2f} s (the grid stops at {GC.CV_BUDGET_S:g} s)")


def main():
    if "--page" in sys.argv:
        import multiprocessing

        busy = None
        if "--busy" in sys.argv:
            busy = multiprocessing.Process(target=_busy, args=(600,), daemon=True)
            busy.start()
        d = datasets.moons(n=40, noise=0.2, seed=0)
        se.fit(d.X, d.y, kernel=se.Gaussian(1.0))    # compiled code loaded before timing
        print("the Generalisation page's default request" + (" (one core kept busy)"
                                                            if busy else ""))
        try:
            for row in page_rows():
                print(" ", row)
        finally:
            if busy is not None:
                busy.terminate()
        print(f"load average now {os.getloadavg()[0]:.1f} ({os.cpu_count()} cores)")
        return
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
