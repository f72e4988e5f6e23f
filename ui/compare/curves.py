"""Compare solvers' convergence curves: the dual, primal, gap and KKT violation along a traced
run, every quantity from the engine's one ``finalize`` as in the table (pure: model → Curve)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

import svm_engine as se
from svm_engine.finalize import finalize
from svm_engine.problem import build_problem
from ui.shared.labels import SOLVER_STEPS

MAX_CURVE_POINTS = 120


@dataclass(frozen=True)
class Curve:
    """Iterates of one run, every quantity from ``finalize`` as in the table."""

    iterations: tuple[int, ...]
    dual: tuple[float, ...]
    primal: tuple[float, ...]
    gap: tuple[float, ...]
    kkt: tuple[float, ...]
    unit: str  # "step", "sweep" or "iteration"
    truncated: bool = False


def snapshot_steps(T: int, k: int = MAX_CURVE_POINTS) -> np.ndarray:
    """≤ k iteration numbers in 1..T, log-spaced (the x axis is logarithmic), T included."""
    if T < 1:
        return np.zeros(0, dtype=int)
    return np.unique(np.round(np.geomspace(1, T, min(k, T))).astype(int))


def trace_alphas(model, problem, steps: np.ndarray) -> list[np.ndarray]:
    """α after each of ``steps`` (1-based), rebuilt from the model's trace:
    SMO replays (αᵢ, αⱼ) pairs; SGA records α per sweep; Newton's α = 2Cξ of w_t (slide 39)."""
    trace = model.trace
    n = len(model.y)
    want = set(int(s) for s in steps)
    out: list[np.ndarray] = []
    if model.solver == "smo":
        alpha = np.zeros(n) if model.alpha0 is None else np.array(model.alpha0, dtype=float)
        for t, rec in enumerate(trace, start=1):
            alpha[rec["i"]], alpha[rec["j"]] = rec["ai_new"], rec["aj_new"]
            if t in want:
                out.append(alpha.copy())
        return out
    if model.solver == "newton":
        y = np.asarray(model.y, dtype=float)
        for t in steps:
            w = np.asarray(trace[t - 1]["w"], dtype=float)
            if len(w) == model.X.shape[1] + 1 and isinstance(model.kernel, se.Linear):
                F = model.X @ w[:-1] + w[-1]          # x′ = (x, 1)
            else:
                F = problem.K @ w                     # h(xᵢ) = Kᵢᵀβ (slide 41)
            out.append(2.0 * model.C * np.maximum(0.0, 1.0 - y * F))
        return out
    return [np.asarray(trace[t - 1]["alpha"], dtype=float) for t in steps]


def convergence_curve(model, max_points: int = MAX_CURVE_POINTS) -> Curve | None:
    """Dual, primal, gap and KKT violation along a traced run (None without a usable trace)."""
    trace = model.trace
    if not trace or not (model.solver in ("smo", "newton") or "alpha" in trace[0]):
        return None
    problem = build_problem(model.X, model.y, model.kernel, model.C, model.loss, model.bias)
    steps = snapshot_steps(len(trace), max_points)
    D, P, G, V = [], [], [], []
    for a in trace_alphas(model, problem, steps):
        f = finalize(problem, a)
        d, p = float(f["dual_objective"]), float(f["primal_objective"])
        D.append(d)
        P.append(p)
        G.append(p - d if math.isfinite(p) else math.nan)
        V.append(float(f["kkt_violation"]))
    unit = SOLVER_STEPS.get(model.solver, "iteration")
    return Curve(tuple(int(s) for s in steps), tuple(D), tuple(P), tuple(G), tuple(V), unit,
                 bool(model.trace_truncated))
