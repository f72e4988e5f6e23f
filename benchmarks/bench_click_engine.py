"""The engine's share of a Playground click, against another checkout (a script, not a test).

A click is a warm refit after one edit (`se.fit(..., warm_start=previous)`): this times it on
the Playground's 200-point problem (moons, SMO at the pages' tol 1e-5, C = 1), a Gaussian
(σ = 1) and a linear kernel, cycling through "add a point", "move it", "delete it". Each
checkout runs in its own fresh process, alternately (A B A B …), so that the machine's drift
falls on both; it prints the median per click of each and their ratio.

    .venv/bin/python benchmarks/bench_click_engine.py --other /work/main [--rounds 6]
    (--this <checkout> measures another one than this; each needs its numba cache filled)

(Made for the engine's layers of issue 17: named tuples instead of positional ones through
the compiled code must not slow a click.)
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]

CHILD = r"""
import json, os, statistics, sys, time, warnings
sys.path.insert(0, sys.argv[1])
for v in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(v, "1")
import numpy as np
import svm_engine as se
from svm_engine import datasets as ds

clicks = int(sys.argv[2])
out = {}
d = ds.moons(n=200, noise=0.25, seed=3)
for name, kernel in (("gaussian", se.Gaussian(sigma=1.0)), ("linear", se.Linear())):
    kw = {"kernel": kernel, "C": 1.0, "tol": 1e-5}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", se.ConvergenceWarning)
        m = se.fit(d.X, d.y, **kw)
        rng = np.random.default_rng(0)
        times = []
        for c in range(clicks + 20):              # the first 20 warm the compiled code
            p = rng.normal(size=2)
            if c % 3 == 0:                        # add a point
                X, y = np.vstack([m.X, p]), np.append(m.y, 1.0 if p[0] > 0 else -1.0)
            elif c % 3 == 1:                      # move the last one
                X, y = m.X.copy(), m.y.copy()
                X[-1] = p
            else:                                 # delete it
                X, y = m.X[:-1].copy(), m.y[:-1].copy()
            t0 = time.perf_counter()
            m = se.fit(X, y, warm_start=m, **kw)
            dt = time.perf_counter() - t0
            if c >= 20:
                times.append(dt)
    out[name] = statistics.median(times)
print(json.dumps(out))
"""


def run(root: str, clicks: int) -> dict:
    done = subprocess.run([sys.executable, "-c", CHILD, root, str(clicks)], check=True,
                          capture_output=True, text=True, cwd=root, env=dict(os.environ))
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--other", required=True, help="the checkout to compare with (e.g. main)")
    ap.add_argument("--this", default=str(HERE), help="the checkout measured (default: this)")
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--clicks", type=int, default=600)
    args = ap.parse_args()
    roots = {"this": str(Path(args.this).resolve()), "other": str(Path(args.other).resolve())}
    for root in roots.values():                   # compile each once (numba's cache)
        run(root, 3)
    got = {k: [] for k in roots}
    for _ in range(args.rounds):
        for key, root in roots.items():
            got[key].append(run(root, args.clicks))
    print(f"median per click in each process; the median and the best of {args.rounds} "
          f"processes × {args.clicks} clicks (the best is the least disturbed by a loaded "
          "machine)")
    for kernel in ("gaussian", "linear"):
        for how, pick in (("median", statistics.median), ("best", min)):
            v = {k: pick(r[kernel] for r in got[k]) for k in roots}
            print(f"{kernel:9s} {how:6s} this {1e6 * v['this']:7.1f} µs   other "
                  f"{1e6 * v['other']:7.1f} µs   ratio {v['this'] / v['other']:.3f}")


if __name__ == "__main__":
    main()
