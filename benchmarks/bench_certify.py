"""What the certificate (and, when needed, the polish) adds to a fit (a script, not a test).

Every `fit` recomputes h(xᵢ) from X and checks the KKT conditions and the duality gap
(svm_engine/certify.py); when the solver's α fails, it solves the KKT equations on its support
vectors (svm_engine/polish.py). This prints, for the Playground's 200-point Gaussian problem
(moons, σ = 1, C = 1, SMO at the pages' tol 1e-5: a cold fit and a click, i.e. a warm refit
after one added point) and for SMO at n = 2,000 (the same, and two settings with hundreds of
free support vectors, too many to polish: there SMO goes on to m(α) − M(α) ≤ 1e-7, which is
in the fit time, not in the check's), the median wall time of the whole fit and of the check
alone (`api._checked`, timed in place), with how often the polish ran.

    .venv/bin/python benchmarks/bench_certify.py [--repeat 15]

SVMLAB_ROOT=<another checkout> runs that checkout's engine (e.g. main, before the certificate).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import warnings
from pathlib import Path

# as in the app's fit workers (ui/serving/fit_pool.py THREAD_ENV): one BLAS thread (on a loaded
# 2-core
# VM, OpenBLAS's threads made one 446 × 446 solve take 15–170 ms instead of 3)
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

sys.path.insert(0, os.environ.get("SVMLAB_ROOT", str(Path(__file__).resolve().parents[1])))

import svm_engine as se  # noqa: E402
from svm_engine import api  # noqa: E402
from svm_engine import datasets as ds  # noqa: E402

SMO_TOL = 1e-5       # ui/shared/fitting.py SMO_TOL: the pages' tolerance
CHECK = hasattr(api, "_checked")
spent: list[float] = []

if CHECK:
    _inner = api._checked

    def _timed(*a, **k):
        t0 = time.perf_counter()
        out = _inner(*a, **k)
        spent.append(time.perf_counter() - t0)
        return out

    api._checked = _timed


def fit(X, y, **kw):
    kw = {"kernel": se.Gaussian(sigma=1.0), "C": 1.0, "tol": SMO_TOL, **kw}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", se.ConvergenceWarning)
        return se.fit(X, y, **kw)


def measure(label: str, run, repeat: int) -> None:
    run()                                     # compile / warm the caches
    total, check, polished, certified, refined = [], [], 0, 0, 0
    for _ in range(repeat):
        spent.clear()
        t0 = time.perf_counter()
        m = run()
        total.append(time.perf_counter() - t0)
        check.append(sum(spent))
        polished += m.diagnostics.polished
        refined += m.diagnostics.refined_iter is not None
        certified += bool(m.converged)
    tot, chk = statistics.median(total) * 1e3, statistics.median(check) * 1e3
    line = f"{label:44s} fit {tot:8.2f} ms"
    if CHECK:
        line += (f"   certificate (+ polish) {chk:7.2f} ms = {100 * chk / tot:4.1f} %"
                 f"   polished {polished}/{repeat}, SMO went on {refined}/{repeat}, "
                 f"converged {certified}/{repeat}")
    print(line)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=15)
    args = ap.parse_args()
    print(f"svm_engine from {Path(se.__file__).parent}; certificate: {CHECK}")
    d = ds.moons(n=200, noise=0.2, seed=0)
    X, y = np.asarray(d.X, float), np.asarray(d.y, float)
    measure("moons n=200, Gaussian σ=1, C=1, cold", lambda: fit(X, y), args.repeat)
    before = fit(X, y)
    X2, y2 = np.vstack([X, [[0.5, 0.25]]]), np.append(y, 1.0)
    measure("  the same + one click (warm start)",
            lambda: fit(X2, y2, warm_start=before), args.repeat)
    big = ds.moons(n=2000, noise=0.2, seed=0)
    Xb, yb = np.asarray(big.X, float), np.asarray(big.y, float)
    few = max(3, args.repeat // 3)
    measure("moons n=2000, Gaussian σ=1, C=1, cold", lambda: fit(Xb, yb), few)
    Xb2, yb2 = np.vstack([Xb, [[0.5, 0.25]]]), np.append(yb, 1.0)
    before = fit(Xb, yb)
    measure("  the same + one click (warm start)", lambda: fit(Xb2, yb2, warm_start=before), few)
    measure("moons n=2000, quadratic loss (all SVs free)", lambda: fit(Xb, yb, loss="quadratic"),
            few)
    measure("moons n=2000, σ=0.1, C=10 (444 free SVs)",
            lambda: fit(Xb, yb, kernel=se.Gaussian(sigma=0.1), C=10.0), few)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
