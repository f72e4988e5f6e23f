"""Issue 7's speed goals, each against its reference measured in the same run (a script).

1. se.fit (smo, with the certificate and the polish) vs scikit-learn's SVC (LIBSVM), same
   kernel, C and tol = 1e-3, on the 8 problems {blobs, moons} × {linear, RBF γ = 1 on
   standardised data} × {C = 1, C = 100}, at n = 2,000 and n = 5,000 separately, timed
   interleaved: the 8 time ratios, their median and worst (issue 31: median ≤ 0.7, worst
   ≤ 1.0, in process time: the machine is shared), the polish's cost per fit and per round,
   and the relative difference of the dual objectives (goal ≤ 1e-3).
2. Warm start: in an n = 1,000 problem add, move or delete one point (20 edits), refit with
   `fit(..., warm_start=previous_model)` (α and gradient carried over, `svm_engine/warmstart.py`;
   the time includes matching the rows), time ÷ a LIBSVM cold fit of the new problem
   (goal ≤ 0.1). The two are timed in alternating blocks (medians of 21 calls each): this
   VM's speed drifts by up to 2× within seconds. Beside each cpu ratio, the warm refit's one
   compiled call alone ÷ the same LIBSVM fit: the floor of a refit with no Python around it.
3. Memory: peak of one smo fit at n = 20,000 (RBF moons) in a fresh process, and the largest
   single array allocated, against an n × n float64 matrix (goal: none beyond n = 5,000).
4. Primal Newton (linear kernel, quadratic loss, augmented bias) vs
   LinearSVC(loss="squared_hinge", dual=False), the same primal, at n = 5,000 and 100,000
   (goal ≤ 0.5).
5. Cold start: in fresh processes, `import svm_engine` and the first fit (the Playground's
   D1; numba's on-disk cache included) (goal: first fit ≤ 0.5 s).
6. What a cold cache costs a warm refit (issue 31's cpu ratio times each refit right after a
   LIBSVM fit): two edits' refits timed hot, after an 8 MB data eviction, after LIBSVM's C
   fit alone, after scikit-learn's Python checks alone, and after the whole SVC fit; each ÷
   the hot time.

    .venv/bin/python benchmarks/bench_speed.py            # everything (~3 min)
    .venv/bin/python benchmarks/bench_speed.py --only newton,cold
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_solvers as bs  # noqa: E402

import svm_engine as se  # noqa: E402

PARTS = ("smo", "warm", "memory", "newton", "cold", "caches")


def verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"


# -- 1. smo vs LIBSVM ----------------------------------------------------------------------

def load() -> str:
    """The 1-minute load average (`uptime`): this 2-core machine is shared, and every figure
    is printed beside it."""
    return f"load {os.getloadavg()[0]:.1f}"


class PolishMeter:
    """The polish's share of se.fit: process time inside `polish.polish` and its rounds
    (`polish._solve` calls, and the systems the compiled rounds solved, `polish._compiled`'s
    last value), counted by wrapping them while the meter is on."""

    def __init__(self):
        from svm_engine import polish as P

        self.P, self.seconds, self.rounds, self.calls = P, 0.0, 0, 0
        self._polish, self._solve, self._compiled = P.polish, P._solve, P._compiled

    def __enter__(self):
        def polish(*a, **k):
            t = time.process_time()
            try:
                return self._polish(*a, **k)
            finally:
                self.seconds += time.process_time() - t
                self.calls += 1

        def solve(*a, **k):
            self.rounds += 1
            return self._solve(*a, **k)

        def compiled(*a, **k):
            out = self._compiled(*a, **k)
            self.rounds += int(out[-1])
            return out

        self.P.polish, self.P._solve, self.P._compiled = polish, solve, compiled
        return self

    def __exit__(self, *exc):
        self.P.polish, self.P._solve, self.P._compiled = self._polish, self._solve, self._compiled


class CompiledMeter:
    """Process time inside the warm refit's one compiled call (`checked._refit_check`: warm
    start, SMO's steps, the carried certificate's sums, the polish's rounds), per call, by
    wrapping it while the meter is on: what a refit would cost with no Python around it."""

    def __init__(self):
        from svm_engine import checked

        self.checked, self.calls = checked, []
        self._call = checked._refit_check

    def __enter__(self):
        def call(*a):
            t = time.process_time()
            try:
                return self._call(*a)
            finally:
                self.calls.append(time.process_time() - t)

        self.checked._refit_check = call
        return self

    def __exit__(self, *exc):
        self.checked._refit_check = self._call


def _cpu(f):
    """f as a call that returns its process time (BLAS may use both cores: both count)."""
    def timed():
        t = time.process_time()
        f()
        return time.process_time() - t
    return timed


def smo_vs_libsvm(sizes, repeats):
    print(f"\n1. se.fit (smo, certificate and polish) / LIBSVM, tol 1e-3, interleaved "
          f"(medians of {repeats} each); wall and process (cpu) time; objectives at tol 1e-3")
    ok = True
    for n in sizes:
        wall, cpu, gaps, per_fit, per_round = [], [], [], [], []
        for p in bs.make_problems(sizes=(n,)):
            def fit(p=p):
                # no time budget: moons linear C = 100 at n = 5,000 takes more than the 5 s
                return se.fit(p.X, p.y, kernel=p.engine_kernel, C=p.C, solver="smo", tol=1e-3,
                              time_budget=None)

            lib = _libsvm_cold(p)
            t_se, t_lib = interleaved(fit, lib, blocks=repeats, per_block=1)
            c_se, c_lib = interleaved_cpu(fit, lib, blocks=repeats)
            with PolishMeter() as meter:
                m = fit()
            svc = lib()
            alpha = np.zeros(p.n)
            alpha[svc.support_] = np.abs(svc.dual_coef_[0])
            gap = bs.relative_gap(bs.dual_objective(p, m.alpha), bs.dual_objective(p, alpha))
            w, c = statistics.median(t_se) / statistics.median(t_lib), c_se / c_lib
            wall.append(w)
            cpu.append(c)
            gaps.append(gap)
            per_fit.append(meter.seconds)
            if meter.rounds:
                per_round.append(meter.seconds / meter.rounds)
            print(f"  {p.label}  se.fit {1e3 * statistics.median(t_se):7.1f} ms  LIBSVM "
                  f"{1e3 * statistics.median(t_lib):7.1f} ms  wall {w:5.2f}  cpu {c:5.2f}  "
                  f"polish {1e3 * meter.seconds:5.1f} ms cpu, {meter.rounds:2d} rounds  "
                  f"converged {m.converged}  dual rel diff {gap:.1e}  ({load()})", flush=True)
        good = (statistics.median(cpu) <= 0.7 and max(cpu) <= 1.0 and max(gaps) <= 1e-3)
        ok &= good
        rnd = f"{1e3 * statistics.median(per_round):.2f} ms" if per_round else "-"
        print(f"  n = {n}: cpu ratios {' '.join(f'{r:.2f}' for r in cpu)}  median "
              f"{statistics.median(cpu):.2f}, worst {max(cpu):.2f} (goal ≤ 0.7, ≤ 1.0); wall "
              f"median {statistics.median(wall):.2f}, worst {max(wall):.2f}; max dual rel "
              f"diff {max(gaps):.1e} (goal ≤ 1e-3)  {verdict(good)}")
        print(f"  n = {n}: polish per fit median {1e3 * statistics.median(per_fit):.2f} ms, "
              f"worst {1e3 * max(per_fit):.2f} ms; per round median {rnd} (cpu)")
    return ok


# -- 2. warm start -------------------------------------------------------------------------

def _edits(X, y, rng, model=None):
    """(name, X′, y′): one point added, moved, deleted; a second point added near the
    boundary; a support vector moved (when model is given)."""
    n = len(y)
    i = int(rng.integers(n))
    add = (np.vstack([X, rng.normal(size=(1, 2))]), np.append(y, 1.0))
    moved = X.copy()
    moved[i] += rng.normal(scale=0.3, size=2)
    keep = np.arange(n) != i
    out = [("add", *add), ("move", moved, y.copy()), ("delete", X[keep], y[keep])]
    if model is not None:
        sv = np.flatnonzero(model.alpha > 0)
        j = int(sv[rng.integers(len(sv))])
        near = (np.vstack([X, X[j] + rng.normal(scale=0.1, size=2)]), np.append(y, -y[j]))
        sv_moved = X.copy()
        sv_moved[j] += rng.normal(scale=0.3, size=2)
        out += [("add-sv", *near), ("move-sv", sv_moved, y.copy())]
    return out


def _libsvm_cold(q):
    """A LIBSVM cold fit of problem q, as `bench_solvers.measure_libsvm` makes it."""
    from sklearn.svm import SVC

    kw = {"kernel": "linear"} if q.kernel == "linear" else {"kernel": "rbf",
                                                              "gamma": bs.RBF_GAMMA}
    return lambda: SVC(C=q.C, tol=1e-3, cache_size=200, shrinking=True, **kw).fit(q.X, q.y)


def interleaved(fa, fb, blocks=7, per_block=3):
    """Times of fa and fb in alternating blocks (fa ×3, fb ×3, fa ×3, …): this VM's speed
    drifts by up to 2× over seconds, and a ratio of medians measured minutes apart, or
    even one after the other, carries that drift. Each block's first call runs with the
    other's data in the CPU caches, as a refit after a page redraw does."""
    ta, tb = [], []
    for _ in range(blocks):
        for f, times in ((fa, ta), (fb, tb)):
            for _ in range(per_block):
                t0 = time.perf_counter()
                f()
                times.append(time.perf_counter() - t0)
    return ta, tb


def interleaved_cpu(fa, fb, blocks=7, per_block=1):
    """(median process time of fa, of fb), alternating as `interleaved`: with 8 other
    workers on 2 cores, wall time is mostly waiting for a core; process time is the work."""
    ta, tb = [], []
    for _ in range(blocks):
        for f, times in ((_cpu(fa), ta), (_cpu(fb), tb)):
            for _ in range(per_block):
                times.append(f())
    return statistics.median(ta), statistics.median(tb)


def warm_start(repeats, n=1000):
    print(f"\n2. warm start after one edit, n = {n}, 20 edits: warm se.fit (certificate "
          f"included) ÷ LIBSVM cold fit (medians of {7 * 3} each, alternating blocks; wall "
          f"and process time)")
    rng = np.random.default_rng(7)
    ratios, cpu_ratios, floor_ratios = [], [], []
    for p in bs.make_problems(sizes=(n,), Cs=(1.0,)):
        base = se.fit(p.X, p.y, kernel=p.engine_kernel, C=p.C, solver="smo")
        for name, X2, y2 in _edits(p.X, p.y, rng, base):
            q = bs.Problem(p.data, len(y2), p.kernel, p.C, X2, y2)

            def warm(q=q):       # timed: matching the rows, α₀ and G₀ included
                return se.fit(q.X, q.y, kernel=q.engine_kernel, C=q.C, solver="smo",
                              warm_start=base)  # noqa: B023 (used before base changes)

            t_warm, t_lib = interleaved(warm, _libsvm_cold(q))
            with CompiledMeter() as compiled:
                c_warm, c_lib = interleaved_cpu(warm, _libsvm_cold(q))
            t_warm, t_cold = statistics.median(t_warm), statistics.median(t_lib)
            with PolishMeter() as meter:
                m = warm()
            ratios.append(t_warm / t_cold)
            cpu_ratios.append(c_warm / c_lib)
            floor_ratios.append(statistics.median(compiled.calls) / c_lib)
            # a warm refit polishes inside its compiled call (`checked.refit_checked`): the
            # meter times only the polishes handed back to `polish.polish`
            polished = "polished" if m.diagnostics.polished else "        "
            print(f"  {p.label} {name:7s}  warm {1e3 * t_warm:7.2f} ms ({m.n_iter:4d} it, "
                  f"{polished}, polish.polish {1e3 * meter.seconds:5.2f} ms cpu)  "
                  f"LIBSVM cold {1e3 * t_cold:7.1f} "
                  f"ms  wall {t_warm / t_cold:.3f}  cpu {c_warm / c_lib:.3f} (compiled "
                  f"call {floor_ratios[-1]:.3f})  converged {m.converged}  ({load()})",
                  flush=True)
    good = max(cpu_ratios) <= 0.1
    print(f"  warm-start ratio over {len(ratios)} edits: cpu median "
          f"{statistics.median(cpu_ratios):.3f}, worst {max(cpu_ratios):.3f} (goal ≤ 0.1); "
          f"wall median {statistics.median(ratios):.3f}, worst {max(ratios):.3f}  "
          f"{verdict(good)}")
    # the floor: the compiled call alone (no validation, no model, no Python between), each
    # right after a LIBSVM fit as the cpu ratio's refits; above 0.1 no Python path can meet it
    print(f"  the compiled call alone ÷ LIBSVM cold (cpu): median "
          f"{statistics.median(floor_ratios):.3f}, worst {max(floor_ratios):.3f}; edits where "
          f"it alone exceeds 0.1: {sum(r > 0.1 for r in floor_ratios)} of {len(floor_ratios)}")
    return good


# -- 3. memory -----------------------------------------------------------------------------

_MEMORY_CHILD = r"""
import json, resource, sys, time, tracemalloc
sys.path.insert(0, sys.argv[1])
import numpy as np
import svm_engine as se
from svm_engine import datasets as ds
n = int(sys.argv[2])
d = ds.moons(n=n, noise=0.2, seed=0)
X = (d.X - d.X.mean(axis=0)) / d.X.std(axis=0)
se.fit(X[:200], d.y[:200], kernel=se.Gaussian(sigma=0.7071), C=1.0)     # load compiled code
rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
tracemalloc.start()
t = time.perf_counter()
m = se.fit(X, d.y, kernel=se.Gaussian(sigma=0.7071), C=1.0, solver="smo")
t = time.perf_counter() - t
_, peak = tracemalloc.get_traced_memory()
snap = tracemalloc.take_snapshot()
tracemalloc.stop()
largest = max((s.size for s in snap.statistics("traceback")), default=0)
rss1 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"n": n, "seconds": t, "peak": peak, "rss_before": rss0 * 1024,
                  "rss_after": rss1 * 1024, "n_iter": m.n_iter, "converged": m.converged}))
"""


def memory(n=20_000):
    print(f"\n3. memory of one smo fit (RBF moons, C = 1) at n = {n:,} in a fresh process")
    out = subprocess.run([sys.executable, "-c", _MEMORY_CHILD, str(ROOT), str(n)],
                         capture_output=True, text=True, check=True)
    r = json.loads(out.stdout.strip().splitlines()[-1])
    full = 8 * n * n
    good = r["peak"] < full / 10
    print(f"  fit {r['seconds']:.1f} s, {r['n_iter']:,} iterations, converged {r['converged']}")
    print(f"  peak Python/numpy allocation during the fit {r['peak'] / 2**20:,.0f} MiB; "
          f"process peak RSS {r['rss_after'] / 2**20:,.0f} MiB "
          f"(before the fit {r['rss_before'] / 2**20:,.0f} MiB)")
    print(f"  a full n × n float64 kernel matrix would be {full / 2**30:.1f} GiB  "
          f"{verdict(good)} (peak < a tenth of it: a bounded column cache)")
    return good


# -- 4. newton vs LinearSVC ----------------------------------------------------------------

def newton_vs_linearsvc(repeats, sizes=(5_000, 100_000)):
    print(f"\n4. newton / LinearSVC(squared_hinge, dual=False) time (median of {repeats})")
    ok = True
    for n in sizes:
        ratios = []
        for p in bs.make_problems(sizes=(n,), kernels=("linear",)):
            nt = bs.measure_newton(p, repeats)
            lt = bs.measure_linearsvc(p, repeats)
            rel = bs.relative_gap(nt["primal"], lt["primal"])
            ratios.append(nt["time"] / lt["time"])
            print(f"  {p.label}  newton {1e3 * nt['time']:7.2f} ms ({nt['n_iter']} it)  "
                  f"LinearSVC {1e3 * lt['time']:7.2f} ms  ratio {ratios[-1]:.2f}  "
                  f"primal rel diff {rel:.1e}", flush=True)
        med = statistics.median(ratios)
        good = med <= 0.5
        ok &= good
        print(f"  n = {n:,}: median ratio {med:.2f}, worst {max(ratios):.2f} (goal ≤ 0.5)  "
              f"{verdict(good)}")
    return ok


# -- 5. cold start -------------------------------------------------------------------------

_COLD_CHILD = r"""
import json, sys, time
t0 = time.perf_counter()
sys.path.insert(0, sys.argv[1])
import svm_engine as se
from svm_engine import datasets as ds
t1 = time.perf_counter()
d = ds.d1()
se.fit(d.X, d.y, C=float("inf"), solver="smo", tol=1e-5)
t2 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "first_fit": t2 - t1}))
"""


def cold_start(runs=5):
    print(f"\n5. cold start in {runs} fresh processes (numba's on-disk cache warm)")
    subprocess.run([sys.executable, "-c", _COLD_CHILD, str(ROOT)], check=True,
                   capture_output=True)                 # fills numba's cache if it is empty
    imports, fits = [], []
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", _COLD_CHILD, str(ROOT)], check=True,
                             capture_output=True, text=True)
        r = json.loads(out.stdout.strip().splitlines()[-1])
        imports.append(r["import"])
        fits.append(r["first_fit"])
    imp, fit = statistics.median(imports), statistics.median(fits)
    good = fit <= 0.5
    print(f"  import svm_engine {imp:.2f} s; first fit (D1) {fit:.2f} s median "
          f"(runs: {' '.join(f'{f:.2f}' for f in fits)}) (goal ≤ 0.5 s)  {verdict(good)}")
    return good


# -- 6. what a cold cache costs -----------------------------------------------------------

def caches(repeats, n=1000, edits=(("blobs", "linear", "move"), ("blobs", "rbf", "move-sv"))):
    """A warm refit's process time after each of five things run before it (medians of 101
    each, in turn, `repeats` rounds): which part of "cold" is the data and which the code."""
    from sklearn.svm import _libsvm
    from sklearn.utils.validation import check_X_y

    _libsvm.set_verbosity_wrap(0)
    print(f"\n6. a warm refit (n = {n}) after: nothing (hot), an 8 MB data eviction, LIBSVM's C "
          f"fit alone, scikit-learn's Python checks alone, the whole SVC fit (process time, "
          f"medians of 101, {repeats} rounds)")
    buf = np.ones(1 << 20)                              # 8 MB: four times this VM's L2
    rng = np.random.default_rng(7)
    for p in bs.make_problems(sizes=(n,), Cs=(1.0,)):
        base = se.fit(p.X, p.y, kernel=p.engine_kernel, C=p.C, solver="smo")
        for name, X2, y2 in _edits(p.X, p.y, rng, base):
            if (p.data, p.kernel, name) not in edits:
                continue
            q = bs.Problem(p.data, len(y2), p.kernel, p.C, X2, y2)
            kernel, yf = q.engine_kernel, np.ascontiguousarray(q.y, dtype=float)
            gamma = bs.RBF_GAMMA if q.kernel == "rbf" else 0.0

            def evict():
                buf[:] += 1.0

            def libsvm_c(q=q, yf=yf, gamma=gamma):
                _libsvm.fit(q.X, yf, svm_type=0, kernel=q.kernel, C=q.C, tol=1e-3,
                            gamma=gamma, cache_size=200.0)

            def checks(q=q):                  # what SVC.fit runs in Python around LIBSVM
                check_X_y(q.X, q.y)
                np.unique(q.y, return_inverse=True)

            def refit(q=q, kernel=kernel):
                se.fit(q.X, q.y, kernel=kernel, C=q.C, solver="smo", warm_start=base)  # noqa: B023

            before = {"hot": lambda: None, "8 MB eviction": evict, "LIBSVM's C fit": libsvm_c,
                      "sklearn's checks": checks, "whole SVC fit": _libsvm_cold(q)}
            times = {k: [] for k in before}
            for _ in range(repeats):
                for label, pre in before.items():
                    ts = []
                    for _ in range(101):
                        pre()
                        t = time.process_time()
                        refit()
                        ts.append(time.process_time() - t)
                    times[label].append(statistics.median(ts))
            hot = statistics.median(times["hot"])
            print(f"  {p.label} {name:7s}  " + "  ".join(
                f"{k} {1e6 * statistics.median(v):4.0f} µs ({statistics.median(v) / hot:.2f}×)"
                for k, v in times.items()) + f"  ({load()})", flush=True)
    return None                                         # a measurement: no goal


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", default=",".join(PARTS), help=f"comma list of {PARTS}")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--sizes", default="2000,5000", help="n for part 1")
    args = ap.parse_args(argv)
    parts = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = set(parts) - set(PARTS)
    if unknown:
        ap.error(f"unknown part(s) {sorted(unknown)}; expected some of {PARTS}")
    warnings.simplefilter("ignore", se.ConvergenceWarning)
    bs.warm_up()
    results = {}
    if "smo" in parts:
        results["smo"] = smo_vs_libsvm([int(s) for s in args.sizes.split(",")], args.repeats)
    if "warm" in parts:
        results["warm"] = warm_start(args.repeats)
    if "memory" in parts:
        results["memory"] = memory()
    if "newton" in parts:
        results["newton"] = newton_vs_linearsvc(args.repeats)
    if "cold" in parts:
        results["cold"] = cold_start()
    if "caches" in parts:
        results["caches"] = caches(args.repeats)
    print("\nsummary: " + ", ".join(f"{k} {'measured' if v is None else verdict(v)}"
                                     for k, v in results.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
