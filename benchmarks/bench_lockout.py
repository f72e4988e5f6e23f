"""Can heavy students lock a fifth one out of the click lane? (issue 33 item 1; a script,
not a test.)

N "heavy" students (0, 2, 4, 8) each click again and again on the link of the issue,
``/?v=1&d=moons&n=2000&noise=0.3&seed=0&k=linear&l=hinge&C=1000000&b=free&sv=smo``: a fit
predicted at ~0.02 s (so it takes the click lane) that runs for seconds. Meanwhile a fifth
student clicks a 200-point fit (SMO, Gaussian) every ``--gap`` ms. Every fit goes through
``ui.serving.budget.fit_outcome``, as the Playground's do (real lanes, queue limit, budget);
prints the fifth student's click latency (p50, p95, max) and how many of the clicks got "The
server is busy", per N, with N = 0 as the reference measured in the same run.

    .venv/bin/python benchmarks/bench_lockout.py                       # this code (~1 min)
    git archive main ui svm_engine | tar -x -C /tmp/old                # the code before
    .venv/bin/python benchmarks/bench_lockout.py --root /tmp/old       # run against it
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import threading
import time
from pathlib import Path

import numpy as np

ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
ap.add_argument("--root", default=str(Path(__file__).resolve().parents[1]),
                help="the checkout whose ui/ and svm_engine/ are measured")
ap.add_argument("--heavy", default="0,2,4,8", help="numbers of heavy students")
ap.add_argument("--seconds", type=float, default=8.0, help="per number of heavy students")
ap.add_argument("--gap", type=float, default=100.0, help="ms between the fifth's clicks")
ARGS = ap.parse_args()
sys.path.insert(0, ARGS.root)

from svm_engine import datasets  # noqa: E402
from ui.serving import budget, fit_pool  # noqa: E402
from ui.shared.settings import Settings  # noqa: E402


def data(name: str, n: int, noise: float):
    d = datasets.load(name, n=n, noise=noise, seed=0)
    return np.asarray(d.X, float), np.asarray(d.y)


HEAVY = (*data("moons", 2000, 0.3), Settings.parse(
    {"kernel": "linear", "loss": "hinge", "C": 1e6, "bias": "free", "solver": "smo"}))
CLICK = (*data("moons", 200, 0.2), Settings.parse(
    {"kernel": "gaussian", "sigma": 1.0, "C": 1.0}))


def scenario(n_heavy: int) -> tuple[list[float], int, int]:
    """The fifth student's click latencies, busy answers, and the heavy fits that ended."""
    fit_pool.shutdown_pool()  # a fresh pool: nothing remembered from the last scenario
    fit_pool.get_pool().start(wait=True)
    budget.fit_outcome(*CLICK)  # warm
    stop = threading.Event()
    heavy_done = []

    def heavy_student():
        while not stop.is_set():
            try:
                budget.fit_outcome(*HEAVY)
            except budget.Stopped:
                pass
            heavy_done.append(1)

    threads = [threading.Thread(target=heavy_student) for _ in range(n_heavy)]
    for t in threads:
        t.start()
    time.sleep(0.2)
    lat, busy = [], 0
    end = time.monotonic() + ARGS.seconds
    while time.monotonic() < end:
        t0 = time.perf_counter()
        try:
            budget.fit_outcome(*CLICK)
        except budget.Stopped:
            busy += 1
        lat.append(time.perf_counter() - t0)
        time.sleep(ARGS.gap / 1e3)
    stop.set()
    for t in threads:
        t.join()
    return lat, busy, len(heavy_done)


def main() -> None:
    print(f"code measured: {ARGS.root}")
    print(f"The fifth student's 200-point clicks (every {ARGS.gap:.0f} ms for "
          f"{ARGS.seconds:.0f} s) beside N students clicking the moons n=2000, C=1e6 link:")
    ref = None
    for n in (int(v) for v in ARGS.heavy.split(",")):
        lat, busy, done = scenario(n)
        v = sorted(lat)
        p95 = v[min(len(v) - 1, math.ceil(0.95 * len(v)) - 1)]
        ref = p95 if ref is None else ref
        print(f"  N={n}:  clicks {len(v):3d}  busy {busy:3d}  p50 "
              f"{1e3 * statistics.median(v):7.1f} ms  p95 {1e3 * p95:7.1f} ms "
              f"({p95 / ref:5.1f}x N={ARGS.heavy.split(',')[0]})  max {1e3 * v[-1]:7.1f} ms"
              f"  (heavy fits ended: {done})")
    fit_pool.shutdown_pool()


if __name__ == "__main__":
    main()
