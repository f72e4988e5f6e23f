"""Fuzz se.fit (issue 33): random problems, seeded, bounded in time; prints the counts.

Problems: 2–14 points (duplicates, all-equal points, collinear ones), scales 1e-6 … 1e6,
every kernel (polynomial degree 1–10, c 0 … 100; Gaussian σ 1e-2 … 1e2), loss, bias, solver
and C (1e-3 … 1e7, ∞). Counted: crashes (an exception that is not a ValueError), bare numpy
errors (LinAlgError, or a ValueError whose message is numpy's), and "converged" claims whose
exact gap (fractions: linear and polynomial kernels) exceeds 3 × GAP_RTOL of the objectives.

    .venv/bin/python benchmarks/fuzz_engine.py --cases 10000 --seed 0 --budget 3000
"""

from __future__ import annotations

import argparse
import math
import sys
import time
import traceback
import warnings
from collections import Counter
from fractions import Fraction
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import svm_engine as se  # noqa: E402
from tests.test_engine_issue33 import exact_gap  # noqa: E402

NUMPY_WORDS = ("Singular matrix", "LinAlgError", "SVD did not converge", "array must not contain")


def case(rng):
    n = int(rng.integers(2, 15))
    X = rng.normal(size=(n, 2))
    kind = rng.integers(0, 4)
    if kind == 1:                                   # duplicates
        X[n // 2:] = X[: n - n // 2]
    elif kind == 2:                                 # all equal
        X[:] = X[0]
    elif kind == 3:                                 # collinear
        X[:, 1] = 2 * X[:, 0]
    X *= 10.0 ** rng.uniform(-6, 6)
    y = np.where(rng.random(n) < 0.5, -1, 1)
    y[:2] = (-1, 1)
    name = rng.choice(["linear", "polynomial", "gaussian"])
    c = float(rng.choice([0.0, 1.0, 10.0 ** rng.uniform(-1, 2)]))
    kernel = (se.Linear() if name == "linear" else
              se.Polynomial(int(rng.integers(1, 11)), c) if name == "polynomial"
              else se.Gaussian(10.0 ** rng.uniform(-2, 2)))
    solver = str(rng.choice(se.SOLVERS))
    C = math.inf if rng.random() < 0.1 else 10.0 ** rng.uniform(-3, 7)
    loss = str(rng.choice(["hinge", "quadratic"]))
    bias = str(rng.choice(["free", "augmented"]))
    return X, y, {"kernel": kernel, "C": C, "loss": loss, "bias": bias, "solver": solver}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--budget", type=float, default=600.0, help="seconds for the whole run")
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    counts: Counter = Counter()
    t0 = time.perf_counter()
    for k in range(a.cases):
        if time.perf_counter() - t0 > a.budget:
            counts["not run (budget)"] = a.cases - k
            break
        X, y, kw = case(rng)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                m = se.fit(X, y, **kw)
        except ValueError as exc:
            bare = any(w in str(exc) for w in NUMPY_WORDS)
            counts["bare numpy error" if bare else "refused (ValueError)"] += 1
            continue
        except Exception:   # noqa: BLE001 - what the fuzz counts
            counts["crash"] += 1
            print(f"case {k}: crash\n{traceback.format_exc()}", file=sys.stderr)
            continue
        counts["converged" if m.converged else "not converged"] += 1
        if m.converged and kw["solver"] != "psvm" and kw["kernel"].name != "gaussian" \
                and math.isfinite(kw["C"]):
            gap, scale = exact_gap(m)
            if abs(gap) > 3 * Fraction(se.certify.GAP_RTOL) * scale:
                counts["false converged claim (exact gap)"] += 1
                print(f"case {k}: exact gap {float(gap / scale):.3g} relative", file=sys.stderr)
            else:
                counts["claims checked exactly"] += 1
    for key in ("crash", "bare numpy error", "false converged claim (exact gap)"):
        counts.setdefault(key, 0)
    print(f"{a.cases} cases, seed {a.seed}, {time.perf_counter() - t0:.0f} s: {dict(counts)}")


if __name__ == "__main__":
    main()
