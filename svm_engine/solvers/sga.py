"""SVM-Dual: the book's stochastic gradient ascent on the dual (slide 33).

Problem (bias folded into w, x′ = (x, 1), slide 30 — no equality constraint):

    max_α  J(α) = Σᵢ αᵢ − ½ Σᵢ Σⱼ αᵢαⱼyᵢyⱼK(xᵢ, xⱼ)     s.t.  0 ≤ αᵢ ≤ C

with K = K′ + 1 (the builder's augmented kernel) and, for quadratic loss, K + δᵢⱼ/(2C)
(slide 33, lines 4–5) and no upper bound: the quadratic-loss dual has only αᵢ ≥ 0 (slides 20,
27). Slide 33's lines 13–14 clip at C for both losses; this code clips at C_box (∞ for
quadratic loss), so a literal coding of slide 33 gives another answer for k = 2.

| symbol | code        | meaning                                           |
|--------|-------------|---------------------------------------------------|
| α      | `alpha`     | multipliers; α_t is α after sweep t               |
| K      | `K`         | the (augmented, loss-adjusted) kernel matrix      |
| η_k    | `eta`       | step size 1/K(x_k, x_k)  (slide 32: the optimal step) |
| C      | `C`         | box bound (∞ for quadratic loss)                  |
| ε      | `eps`       | stop when ‖α_t − α_{t−1}‖ ≤ ε (default 1e-4)      |

Each sweep is lines 10–16; `g` holds Σᵢ αᵢyᵢK(xᵢ, x_k) for every k and is updated after
each coordinate move, so a sweep costs O(n²) like the slide's double loop.

Limits: one coordinate at a time, a move of α_k is at most |∂J/∂α_k|/K(x_k, x_k). When C·K is
large and the classes overlap, the optimum is O(C) away along directions that need many
coordinates at once, and SGA crawls: within its budget (100,000 sweeps, and the 2 s of a fit
on the pages) it stops at the sweep cap, far from the optimum (D2, linear kernel, C = 10⁴:
dual 39 % (hinge) and 64 % (quadratic loss) below it; moons n = 100 standardised, linear and
(1 + xᵀz)² kernels at C = 10⁴, and (1 + xᵀz)² with quadratic loss at C = 100). And the book's
rule ‖α_t − α_{t−1}‖ ≤ ε is not an optimality test: where K(x, x) is large (data not
standardised, polynomial kernels) each move is small, and SGA stops by ε with the dual
1e-6 to 3.5e-2 (relative) below the optimum (Iris setosa with (1 + xᵀz)²; D2 with quadratic
loss: 2e-6). It reaches the optimum to 1e-6 on standardised data for C ≤ 100 with the linear
kernel, and for every C tried with the Gaussian kernel (σ = 1). Measured by
benchmarks/bench_sga_limits.py (cvxopt's QP as the reference). What to try when it stops:
a smaller C, standardised data, or a solver for this setting (smo, qp; newton with quadratic
loss).
"""

from __future__ import annotations

import math
import time

import numpy as np

from ..jit import njit
from .clock import now
from .result import SolverResult, stop_reason

#: What a stop at the sweep cap means, and what to try (module docstring, "Limits").
CRAWL = ("coordinate ascent crawls when C·K(x, x) is large and the classes overlap; try a "
         "smaller C, standardised data, or solver smo or qp (newton for quadratic loss)")


@njit(cache=True, nogil=True)
def _sweep(K, y, alpha, g, eta, C):
    """Lines 11–14 for k = 1..n; α and g updated in place."""
    n = len(y)
    for k in range(n):
        a_old = alpha[k]
        a_new = a_old + eta[k] * (1.0 - y[k] * g[k])   # line 12: αk + ηk ∂J/∂αk
        if a_new < 0.0:                                  # line 13
            a_new = 0.0
        if a_new > C:                                    # line 14
            a_new = C
        d = a_new - a_old
        if d != 0.0:
            alpha[k] = a_new
            dy = d * y[k]
            for i in range(n):                           # keep g = K (α∘y) current
                g[i] += dy * K[i, k]


@njit(cache=True, nogil=True)
def _change(alpha, alpha_prev):
    """‖α_t − α_{t−1}‖ (line 17), summed in order: the same number with and without a trace."""
    s = 0.0
    for i in range(len(alpha)):
        d = alpha[i] - alpha_prev[i]
        s += d * d
    return math.sqrt(s)


@njit(cache=True, nogil=True)
def _sweeps(K, y, alpha, g, eta, C, tol, t, max_iter, deadline):
    """Lines 9–17 from sweep t on, without a trace: returns (t, ‖α_t − α_{t−1}‖, converged).
    (Compiled whole: a Python loop around `_sweep`, with numpy's copy and norm per sweep, took
    5.0–5.7× as long for the same α to the bit: Iris setosa, C = 10 and 1000, 5,568 and 39,600
    sweeps, 8.9 against 44.9 ms and 52 against 296 ms; benchmarks/bench_numerics.py
    --only sga, under load.)"""
    alpha_prev = np.empty_like(alpha)
    delta = np.inf
    while t < max_iter:                                  # line 9: repeat
        alpha_prev[:] = alpha                            # line 10
        _sweep(K, y, alpha, g, eta, C)
        t += 1                                           # lines 15–16
        delta = _change(alpha, alpha_prev)
        if delta <= tol:                                 # line 17
            return t, delta, True
        if now() > deadline:                             # a sweep costs O(n²): read each time
            break
    return t, delta, False


def sga(K, y, C, *, tol=1e-4, max_iter=None, alpha0=None, trace=False, trace_cap=5000,
        deadline=np.inf, time_budget=None):
    """Run SVM-Dual; returns a `SolverResult` (alpha, n_iter, stop, trace, status). deadline: the
    time.perf_counter() value at which to stop (time_budget: its length, for the status)."""
    K = np.ascontiguousarray(K, dtype=float)
    y = np.ascontiguousarray(y, dtype=float)
    n = len(y)
    eta = 1.0 / np.diag(K)                               # line 6: ηk = 1/K(xk, xk)
    alpha = np.zeros(n) if alpha0 is None else np.array(alpha0, dtype=float)  # line 8
    g = K @ (alpha * y)
    max_iter = 100_000 if max_iter is None else max_iter
    records = [] if trace else None
    converged = False
    t = 0
    delta = np.inf
    while trace and t < min(max_iter, trace_cap):        # the traced sweeps, one at a time
        alpha_prev = alpha.copy()                        # line 10
        _sweep(K, y, alpha, g, eta, float(C))
        t += 1                                           # lines 15–16
        delta = float(_change(alpha, alpha_prev))
        records.append({"it": t, "alpha": alpha.copy(), "delta_norm": delta,
                        "dual": float(alpha.sum() - 0.5 * (alpha * y) @ g)})
        if delta <= tol:                                 # line 17: until ‖α_t − α_{t−1}‖ ≤ ε
            converged = True
            break
        if time.perf_counter() > deadline:
            break
    if not converged and t < max_iter and time.perf_counter() <= deadline:   # the rest
        t, delta, converged = _sweeps(K, y, alpha, g, eta, float(C), float(tol), t, max_iter,
                                      float(deadline))
        t, delta, converged = int(t), float(delta), bool(converged)
    status = (f"‖α_t − α_t−1‖ = {delta:.3g} ≤ ε = {tol:g}" if converged
              else f"stopped at the time budget ({time_budget:g} s, after {t:,} sweeps) with "
                   f"‖α_t − α_t−1‖ = {delta:.3g} > ε = {tol:g}; try a smaller C, rescaled "
                   "data, or a larger time_budget" if time_budget is not None and t < max_iter
              else f"stopped at max_iter = {max_iter} sweeps with ‖α_t − α_t−1‖ = {delta:.3g} "
                   f"> ε = {tol:g}: {CRAWL}")
    return SolverResult(alpha=alpha, n_iter=t, max_iter=max_iter, status=status,
                        stop=stop_reason(converged, t, max_iter, time_budget), trace=records,
                        trace_truncated=bool(trace and t > trace_cap))


def coordinate_step(K, y, alpha, g, eta, C, k):
    """One α_k update of slide 33 (lines 12–14) for the step-through page; returns a record."""
    a_old = float(alpha[k])
    grad = 1.0 - y[k] * g[k]
    a_unc = a_old + eta[k] * grad
    a_new = min(max(a_unc, 0.0), C)
    d = a_new - a_old
    alpha[k] = a_new
    g += d * y[k] * K[:, k]
    return {"k": int(k), "a_old": a_old, "grad": float(grad), "eta": float(eta[k]),
            "a_unclipped": float(a_unc), "a_new": float(a_new), "clipped": a_new != a_unc}
