"""Where SGA (the book's SVM-Dual, slide 33) reaches the optimum within its budget, and where
it does not (a script, not a test: it measures, and its table is quoted in
svm_engine/solvers/sga.py and ui/compare/solver_docs.py).

For each dataset, kernel, loss and C, SGA runs as the Playground runs it (ε = 1e-4, at most
100,000 sweeps, and at most BUDGET_S seconds of wall time — the budget of a fit) and cvxopt's
QP solves the same problem (augmented bias) as the reference. A row says what SGA reported
and how far its dual objective is from the QP's:

* "optimum":   stopped by ‖α_t − α_t−1‖ ≤ ε, dual within 1e-6 (relative) of the QP's;
* "ε, off":    stopped by ‖α_t − α_t−1‖ ≤ ε, dual further than 1e-6 from the QP's (the
               book's rule is met, the optimum is not);
* "sweep cap": stopped at 100,000 sweeps;
* "budget":    more than BUDGET_S seconds (the page would stop it).

    .venv/bin/python benchmarks/bench_sga_limits.py           # the table (~1–3 min)
    .venv/bin/python benchmarks/bench_sga_limits.py --quick   # fewer C values
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import svm_engine as se  # noqa: E402
from svm_engine import datasets as ds  # noqa: E402

BUDGET_S = 2.0
SWEEPS = 100_000
CS = (0.01, 1.0, 100.0, 1e4)
KERNELS = {"linear": se.Linear(), "poly q=2 c=1": se.Polynomial(degree=2, coef0=1.0),
           "gaussian σ=1": se.Gaussian(sigma=1.0)}


def datasets():
    out = {"D2 (book)": ds.d2(), "Iris setosa (book)": ds.iris_setosa()}
    for name, noise in (("blobs", 1.0), ("moons", 0.2)):
        d = ds.load(name, n=100, noise=noise, seed=0)
        X = (d.X - d.X.mean(axis=0)) / d.X.std(axis=0)
        out[f"{name} n=100 (standardised)"] = (X, d.y)
    return {k: (v.X, v.y) if hasattr(v, "X") else v for k, v in out.items()}


def sga_row(X, y, kernel, loss, C):
    """(verdict, sweeps, relative dual error, seconds) of one SGA fit against the QP."""
    kw = {"kernel": kernel, "C": C, "loss": loss, "bias": "augmented"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", se.ConvergenceWarning)
        ref = se.fit(X, y, solver="qp", tol=1e-10, **kw)
        t0 = time.perf_counter()
        m = se.fit(X, y, solver="sga", tol=1e-4, max_iter=SWEEPS, **kw)
        t = time.perf_counter() - t0
    rel = (ref.dual_objective - m.dual_objective) / max(abs(ref.dual_objective), 1e-300)
    if t > BUDGET_S:
        verdict = "budget"
    elif not m.converged:
        verdict = "sweep cap"
    elif rel <= 1e-6:
        verdict = "optimum"
    else:
        verdict = "ε, off"
    return verdict, m.n_iter, rel, t


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="C ∈ {1, 1e4} only")
    args = ap.parse_args(argv)
    Cs = (1.0, 1e4) if args.quick else CS
    X, y = ds.d1().X, ds.d1().y
    se.fit(X, y, solver="sga", bias="augmented")               # compile before timing
    print(f"SGA (ε = 1e-4, ≤ {SWEEPS:,} sweeps, ≤ {BUDGET_S:g} s) against cvxopt, "
          "augmented bias; rel = (QP dual − SGA dual) / |QP dual|")
    print(f"{'data':30s} {'kernel':14s} {'loss':9s} {'C':>7s} {'verdict':>10s} "
          f"{'sweeps':>8s} {'rel':>9s} {'s':>6s}")
    for dname, (X, y) in datasets().items():
        for kname, kernel in KERNELS.items():
            for loss in ("hinge", "quadratic"):
                for C in Cs:
                    verdict, sweeps, rel, t = sga_row(X, y, kernel, loss, C)
                    print(f"{dname:30s} {kname:14s} {loss:9s} {C:7g} {verdict:>10s} "
                          f"{sweeps:8d} {rel:9.1e} {t:6.2f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

