"""The Regression page's numbers (pure, no streamlit): one ε-SVR fit (`svm_engine.svr`) and
what the page shows of it — the fitted function on a grid, the tube, ξ and ξ̂ per point.

`run` is what the page sends to a fit worker (`ui.serving.budget.run`): SMO stops itself at
`SMO_BUDGET_S` (before the worker's kill at the budget), so a slow problem comes back as a
model that says "not converged" and what to change; the QP is quick at `MAX_POINTS`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

import svm_engine as se
from svm_engine.datasets_regression import FUNCTIONS, curve
from ui.serving.costs import BUDGET_S
from ui.shared.labels import SOLVER_NAMES
from ui.shared.numbers import fmt_num, fmt_setting
from ui.shared.settings import check_numbers

#: the page's cap: SMO keeps the n × n kernel matrix; cvxopt's 2n-variable QP (which cannot be
#: stopped) takes ~0.2 s at 300 points (benchmarks/bench_svr.py)
MAX_POINTS = 300
SMO_BUDGET_S = 0.6 * BUDGET_S  # SMO's own stop: the answer, its check and the curve in time
CURVE_POINTS = 400
#: The largest |x| and |t| the page takes: every point on one plot, and SMO's tolerance (which
#: grows with the largest |t|, svm_engine/svr.py) still small beside the others' targets
MAX_ABS = 1000.0
KERNELS = ("linear", "polynomial", "gaussian")
SOLVERS = {s: SOLVER_NAMES[s] for s in se.svr.SOLVERS}  # every page's names
DEFAULTS: dict[str, Any] = {"kernel": "gaussian", "degree": 3, "coef0": 1.0, "sigma": 1.0,
                            "C": 10.0, "epsilon": 0.2, "solver": "smo"}


@dataclass(frozen=True)
class Answer:
    """What the page draws: the model, the fitted curve and the true function on a grid."""

    model: se.SVRModel
    grid: np.ndarray          # x values of the curve
    fitted: np.ndarray        # y(x) on the grid
    truth: np.ndarray | None  # the generating function on the grid (generated data only)

    @property
    def time_cut(self) -> bool:
        """SMO stopped by its time limit: the answer depends on the load (never cached)."""
        return self.model.timed_out


def check_settings(s: dict) -> dict:
    """The settings with defaults filled in; ValueError naming a bad value."""
    out = {**DEFAULTS, **s}
    if out["kernel"] not in KERNELS:
        raise ValueError(f"kernel must be one of {KERNELS}, got {out['kernel']!r}")
    if out["solver"] not in SOLVERS:
        raise ValueError(f"solver must be one of {tuple(SOLVERS)}, got {out['solver']!r}")
    check_numbers(out, (("C", 1e-4, 1e6), ("epsilon", 0.0, 1e3), ("sigma", 1e-3, 1e3),
                        ("coef0", 0.0, 1e3), ("degree", 1, 10)))
    return out


def kernel_of(s: dict):
    return se.make_kernel(s["kernel"], degree=int(s["degree"]), coef0=float(s["coef0"]),
                          sigma=float(s["sigma"]))


def refusal(n: int, s: dict) -> str | None:
    """Why these points and settings are not fitted (a message that says what to change)."""
    if n < 2:
        return "Place or generate at least 2 points to fit a function."
    if n > MAX_POINTS:
        return (f"{n} points are more than this page fits within its {fmt_setting(BUDGET_S)} s "
                "budget "
                f"(at most {MAX_POINTS}): generate fewer points.")
    return None


def point_refusal(x, t) -> str | None:
    """Why these points are not fitted: the first coordinate beyond ±MAX_ABS, named (the
    points are kept; the message says how to remove it)."""
    for name, v in (("x", np.asarray(x, dtype=float)), ("t", np.asarray(t, dtype=float))):
        bad = np.flatnonzero(~(np.abs(v) <= MAX_ABS))
        if len(bad):
            i = int(bad[0])
            return (f"Point {i + 1} has {name} = {fmt_num(v[i])}: this page takes |x| and |t| "
                    f"up to {fmt_num(MAX_ABS)}, so that every point fits on one plot. Remove "
                    "it with “Undo last point” or “Clear my points” in the sidebar.")
    return None


def run(x: np.ndarray, t: np.ndarray, settings: dict, function: str | None = None,
        time_budget: float = SMO_BUDGET_S) -> Answer:
    """Fit and evaluate (runs in a fit worker). function: the generator's, for the truth;
    time_budget: SMO's own stop (seconds)."""
    s = check_settings(settings)
    why = refusal(len(x), s) or point_refusal(x, t)
    if why:
        raise ValueError(why)
    model = se.fit_svr(np.asarray(x, dtype=float), np.asarray(t, dtype=float), kernel_of(s),
                       C=float(s["C"]), epsilon=float(s["epsilon"]), solver=s["solver"],
                       time_budget=time_budget, trace=s["solver"] == "smo")
    lo, hi = float(np.min(x)), float(np.max(x))
    pad = 0.05 * (hi - lo) if hi > lo else 1.0
    grid = np.linspace(lo - pad, hi + pad, CURVE_POINTS)
    truth = FUNCTIONS[function][1](grid) if function in FUNCTIONS else None
    return Answer(model=model, grid=grid, fitted=model.predict(grid), truth=truth)


def count(n: int, noun: str) -> str:
    """"1 point", "3 points"."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def generated(function: str, n: int, noise: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    d = curve(function, n=n, noise=noise, seed=seed)
    return np.array(d.x), np.array(d.t)


WHERE = {"inside": "inside the tube", "edge": "on the tube's edge (SV)",
         "outside": "outside the tube (SV, at C)"}


def point_rows(m: se.SVRModel) -> list[dict]:
    """One row per point: xᵢ, tᵢ, y(xᵢ), rᵢ = tᵢ − y(xᵢ), aᵢ, âᵢ, ξᵢ, ξ̂ᵢ, where it lies."""
    cat = m.category
    return [{"i": i + 1, "x": float(m.X[i, 0]), "t": float(m.t[i]), "y(x)": float(m.f_train[i]),
             "t − y(x)": float(m.t[i] - m.f_train[i]), "a": float(m.a[i]),
             "â": float(m.a_hat[i]), "ξ": float(m.xi[i]), "ξ̂": float(m.xi_hat[i]),
             "where": WHERE[cat[i]]} for i in range(len(m.t))]


def summary(m: se.SVRModel) -> dict:
    """The numbers beside the formulas."""
    cat = m.category
    return {"b": m.b, "support vectors": len(m.support), "on the edge": int((cat == "edge").sum()),
            "outside": int((cat == "outside").sum()), "Σξ + Σξ̂": float(m.xi.sum() + m.xi_hat.sum()),
            "Σ(a − â)": float(m.beta.sum()), "primal": m.primal_objective,
            "dual L̃": m.dual_objective, "gap": m.duality_gap,
            "KKT violation": m.kkt_violation, "iterations": m.n_iter, "time_s": m.time_s}


def warm() -> None:
    """Compile SMO's steps (numba, cached on disk) before the first student needs them: the
    fit workers' fork server calls this (ui/fit_worker_boot.py)."""
    se.fit_svr([0.0, 1.0, 2.0], [0.0, 1.0, 0.0], C=1.0, epsilon=0.1)
