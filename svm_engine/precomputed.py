"""The SVM dual on a given Gram matrix K, by cvxopt's QP or by SMO: what a non-kernel does.

`svm_engine.fit` takes points and a kernel object (linear, polynomial, Gaussian), never a
matrix; this is the smallest path from a matrix: Q = (yyᵀ)∘K built here, then cvxopt's
`solvers.qp` (called directly, so that its own error reaches the user) and the engine's
readable SMO `solvers.smo.smo(Q, y, C, ...)` — the solvers themselves are untouched.

    max_α Σαᵢ − ½ αᵀQα   s.t.  0 ≤ αᵢ ≤ C,  Σαᵢyᵢ = 0        (slide 27, hinge loss, free b)

With a kernel (K PSD) this is a convex QP with one optimum, the same as `fit`'s. With a
matrix that is not PSD on Σαᵢyᵢ = 0 (`gram.conditional_eigenvalues` < 0) it is not:

* cvxopt's interior-point method needs a convex problem: its KKT factorisation fails, and it
  stops with an error (on the chapter's examples, "Rank(A) < p or Rank([P; A; G]) < n");
* SMO still runs: along a pair's line the objective's curvature is η = Kᵢᵢ + Kⱼⱼ − 2Kᵢⱼ, and
  where η ≤ 0 Platt's step αⱼ + yⱼ(Eᵢ − Eⱼ)/η is meaningless; LIBSVM's rule (η replaced by
  τ = 1e-12) then jumps to an end of the segment [L, H]. It stops at a KKT point, a point
  where no pair improves, which depends on where it started: `smo_starts` shows it.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from .solvers import qp as _qp_solver
from .solvers import smo as _smo
from .validation import check_integer, check_number, check_y

SOLVERS = ("smo", "qp")


@dataclass(frozen=True)
class GramFit:
    """One solver's answer on a Gram matrix (α, b are None when the solver gave none)."""

    solver: str
    alpha: np.ndarray | None
    b: float | None
    dual: float | None          # Σα − ½αᵀQα at alpha
    kkt_gap: float | None       # m(α) − M(α): ≤ tol at a KKT point
    n_iter: int
    converged: bool
    message: str                # what the solver said, in words
    eta_nonpositive: int | None = None   # SMO with a trace: recorded steps with η ≤ 0
    steps_recorded: int | None = None    # SMO with a trace: its steps (≤ smo.TRACE_CAP)

    def decision(self, K_new, y) -> np.ndarray:
        """h(z) = Σ αᵢyᵢK(xᵢ, z) + b, from the rows K_new[m, i] = K(z_m, xᵢ)."""
        if self.alpha is None:
            raise ValueError(f"{self.solver} gave no solution: {self.message}")
        return np.asarray(K_new, float) @ (self.alpha * check_y(y, np.size(y))[0]) + self.b


def _check(K, y, C) -> tuple[np.ndarray, np.ndarray, float]:
    K = np.asarray(K, dtype=float)
    if K.ndim != 2 or K.shape[0] != K.shape[1]:
        raise ValueError(f"K must be a square matrix, got shape {K.shape}")
    if not np.isfinite(K).all():
        raise ValueError("K holds a value that is not a finite number")
    if np.size(y) != len(K):
        raise ValueError(f"y has {np.size(y)} labels for a {len(K)} × {len(K)} matrix K")
    y_pm, _ = check_y(y, len(K))
    return K, y_pm, check_number("C", C, 0)


def _gap_and_b(Q, y, alpha, C) -> tuple[float, float]:
    """m(α) − M(α) and b, from G = Qα − 1 (on a free αᵢ, yᵢh(xᵢ) = 1 gives b = −yᵢGᵢ; with
    none, the middle of [M, m], as LIBSVM)."""
    G = Q @ alpha - 1.0
    I_up, I_low = _smo.working_sets(alpha, y, C)
    v = -y * G
    m = float(v[I_up].max()) if I_up.any() else -math.inf
    M = float(v[I_low].min()) if I_low.any() else math.inf
    free = (alpha > 0) & (alpha < C)
    if free.any():
        b = float(np.mean(v[free]))
    else:
        b = 0.5 * (m + M) if math.isfinite(m) and math.isfinite(M) else 0.0
    return max(m - M, 0.0), b


def _dual(Q, alpha) -> float:
    return float(alpha.sum() - 0.5 * alpha @ (Q @ alpha))


def fit_gram(K, y, C: float = 1.0, solver: str = "smo", *, tol: float = 1e-3,
             max_iter: int | None = None, alpha0=None, trace: bool = True) -> GramFit:
    """The hinge-loss, free-bias dual on the matrix K (module docstring). SMO with trace=True
    counts its steps with η ≤ 0 (the first smo.TRACE_CAP steps: steps_recorded)."""
    K, y_pm, C = _check(K, y, C)
    if solver not in SOLVERS:
        raise ValueError(f"unknown solver {solver!r}; expected one of {SOLVERS}")
    Q = (y_pm[:, None] * y_pm[None, :]) * (0.5 * (K + K.T))
    if solver == "qp":
        return _qp(Q, y_pm, C)
    n = len(y_pm)
    if max_iter is None:
        max_iter = _smo.interactive_max_iter(n)
    a0 = None if alpha0 is None else _smo.feasible_start(np.asarray(alpha0, float), y_pm, C)
    run = _smo.smo(Q, y_pm, C, tol=tol, max_iter=max_iter, alpha0=a0, trace=trace,
                   newton_steps=False)
    alpha = run.alpha
    gap, b = _gap_and_b(Q, y_pm, alpha, C)
    steps = [r for r in run.trace if "eta" in r] if trace else None
    return GramFit(solver="smo", alpha=alpha, b=b, dual=_dual(Q, alpha), kkt_gap=gap,
                   n_iter=run.n_iter, converged=run.converged,
                   message=run.status,
                   eta_nonpositive=None if steps is None else sum(r["eta"] <= 0 for r in steps),
                   steps_recorded=None if steps is None else len(steps))


def _qp(Q, y, C) -> GramFit:
    """cvxopt at its default tolerances (tighter ones break down on PSD but ill-conditioned
    matrices, which would be mistaken here for a non-kernel)."""
    from cvxopt import matrix, solvers  # imported here: cvxopt is slow to import

    n = len(y)
    P, q = matrix(Q), matrix(-np.ones((n, 1)))
    G = matrix(np.vstack([-np.eye(n), np.eye(n)]))
    h = matrix(np.vstack([np.zeros((n, 1)), np.full((n, 1), C)]))
    A, b0 = matrix(y.reshape(1, -1)), matrix(np.zeros((1, 1)))
    try:
        sol = solvers.qp(P, q, G, h, A, b0, options={"show_progress": False})
    except (ArithmeticError, ValueError) as exc:
        return GramFit(solver="qp", alpha=None, b=None, dual=None, kkt_gap=None, n_iter=0,
                       converged=False, message=f"cvxopt stopped: {type(exc).__name__}: {exc}")
    # an interior point never reaches a bound (qp.DEFAULT_RESIDUE_REL says how near is on it)
    alpha = _qp_solver.on_bounds_within(np.clip(np.array(sol["x"]).ravel(), 0.0, C), C,
                                        _qp_solver.DEFAULT_RESIDUE_REL * C)
    gap, b = _gap_and_b(Q, y, alpha, C)
    return GramFit(solver="qp", alpha=alpha, b=b, dual=_dual(Q, alpha), kkt_gap=gap,
                   n_iter=int(sol["iterations"]), converged=sol["status"] == "optimal",
                   message=f"cvxopt status: {sol['status']}")


def smo_starts(K, y, C: float = 1.0, *, starts: int = 6, seed: int = 0, tol: float = 1e-3,
               max_iter: int | None = None, budget_s: float | None = None,
               clock=time.perf_counter) -> list[GramFit]:
    """SMO from α = 0 and from `starts` − 1 random feasible α (seeded): with a kernel every
    run reaches the same dual objective; without one, often several. Only the first run keeps
    its trace (its η ≤ 0 steps are counted; the others' eta_nonpositive is None: a trace costs
    about half the run). With `budget_s`, no run starts after that many seconds: the list is
    then shorter than `starts`."""
    K, y_pm, C = _check(K, y, C)
    check_integer("starts", starts, 1)
    rng = np.random.default_rng(seed)
    t0 = clock()
    out = [fit_gram(K, y_pm, C, "smo", tol=tol, max_iter=max_iter)]
    for _ in range(int(starts) - 1):
        a0 = rng.uniform(0.0, C, len(y_pm))
        if budget_s is not None and clock() - t0 > budget_s:
            break
        out.append(fit_gram(K, y_pm, C, "smo", tol=tol, max_iter=max_iter, alpha0=a0,
                            trace=False))
    return out
