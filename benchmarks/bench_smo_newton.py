"""SMO with and without its Newton steps on the free set, in one run (a script, not a test).

`svm_engine/solvers/face.py` adds a Newton step on the free multipliers to SMO every
max(100, n) iterations (doubling the interval after one that did not pay); `newton_steps=False`
is the plain pair-step SMO as before. For blobs (noise 1) and moons (noise 0.3), standardised,
the linear and the Gaussian (σ = 0.5) kernel, both losses and C ∈ {1, 100, 10⁴}, at the
Playground's tolerance (1e-5) and iteration cap (100,000 + 100n), it prints the time,
the iterations and whether each run converged, and the time ratio with/without.

    .venv/bin/python benchmarks/bench_smo_newton.py              # n = 200, 500, 2000
    .venv/bin/python benchmarks/bench_smo_newton.py --sizes 2000
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import svm_engine as se  # noqa: E402
from svm_engine import datasets as ds  # noqa: E402
from svm_engine.problem import build_problem  # noqa: E402
from svm_engine.solvers import smo_fast  # noqa: E402
from svm_engine.solvers.smo import interactive_max_iter  # noqa: E402

TOL = 1e-5                       # ui.shared.fitting.SMO_TOL
NOISE = {"blobs": 1.0, "moons": 0.3}


def cap(n: int) -> int:
    return interactive_max_iter(n)     # every page's cap


def run(problem, n: int, newton_steps: bool):
    t0 = time.perf_counter()
    r = smo_fast.solve(problem, tol=TOL, max_iter=cap(n), newton_steps=newton_steps)
    return time.perf_counter() - t0, r.n_iter, r.converged


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[200, 500, 2000])
    args = ap.parse_args(argv)
    d = ds.d2()
    run(build_problem(d.X, d.y.astype(float), se.Linear(), 1e4, "quadratic", "free",
                      materialize=False), len(d.y), True)          # compile before timing
    print(f"tol {TOL:g}, cap 100,000 + 100n; 'plain' = newton_steps=False (pair steps only)")
    print(f"{'data':6s} {'n':>5s} {'kernel':9s} {'loss':9s} {'C':>6s} | {'plain s':>8s} "
          f"{'iters':>7s} {'conv':5s} | {'newton s':>8s} {'iters':>7s} {'conv':5s} | ratio")
    for n in args.sizes:
        for name in ("blobs", "moons"):
            data = ds.load(name, n=n, noise=NOISE[name], seed=0)
            X = (data.X - data.X.mean(axis=0)) / data.X.std(axis=0)
            y = np.where(data.y > 0, 1.0, -1.0)
            for kernel in (se.Linear(), se.Gaussian(sigma=0.5)):
                for loss in ("hinge", "quadratic"):
                    for C in (1.0, 100.0, 1e4):
                        p = build_problem(X, y, kernel, C, loss, "free", materialize=False)
                        a = run(p, n, False)
                        b = run(p, n, True)
                        print(f"{name:6s} {n:5d} {kernel.name:9s} {loss:9s} {C:6g} | "
                              f"{a[0]:8.3f} {a[1]:7d} {a[2]!s:5s} | {b[0]:8.3f} {b[1]:7d} "
                              f"{b[2]!s:5s} | {b[0] / max(a[0], 1e-9):5.2f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
