"""SVM-Dual: the book's stochastic gradient ascent on the dual (slide 33).

Problem (bias folded into w, x′ = (x, 1), slide 30 — no equality constraint):

    max_α  J(α) = Σᵢ αᵢ − ½ Σᵢ Σⱼ αᵢαⱼyᵢyⱼK(xᵢ, xⱼ)     s.t.  0 ≤ αᵢ ≤ C

with K = K′ + 1 (the builder's augmented kernel) and, for quadratic loss, K + δᵢⱼ/(2C)
and no upper bound (slide 33, lines 2–5).

| symbol | code        | meaning                                           |
|--------|-------------|---------------------------------------------------|
| α      | `alpha`     | multipliers; α_t is α after sweep t               |
| K      | `K`         | the (augmented, loss-adjusted) kernel matrix      |
| η_k    | `eta`       | step size 1/K(x_k, x_k)  (slide 32: the optimal step) |
| C      | `C`         | box bound (∞ for quadratic loss)                  |
| ε      | `eps`       | stop when ‖α_t − α_{t−1}‖ ≤ ε (default 1e-4)      |

Each sweep is lines 10–16; `g` holds Σᵢ αᵢyᵢK(xᵢ, x_k) for every k and is updated after
each coordinate move, so a sweep costs O(n²) like the slide's double loop.
"""

from __future__ import annotations

import numpy as np

try:
    from numba import njit
except ImportError:  # pragma: no cover - numba is in requirements; plain Python still works
    def njit(*a, **k):
        return (lambda f: f) if not (a and callable(a[0])) else a[0]


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


def sga(K, y, C, *, tol=1e-4, max_iter=None, alpha0=None, trace=False, trace_cap=5000):
    """Run SVM-Dual; returns dict(alpha, n_iter, converged, trace, status)."""
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
    while t < max_iter:                                  # line 9: repeat
        alpha_prev = alpha.copy()                        # line 10
        _sweep(K, y, alpha, g, eta, float(C))
        t += 1                                           # lines 15–16
        delta = float(np.linalg.norm(alpha - alpha_prev))
        if trace and len(records) < trace_cap:
            records.append({"it": t, "alpha": alpha.copy(), "delta_norm": delta,
                            "dual": float(alpha.sum() - 0.5 * (alpha * y) @ g)})
        if delta <= tol:                                 # line 17: until ‖α_t − α_{t−1}‖ ≤ ε
            converged = True
            break
    status = (f"‖α_t − α_t−1‖ = {delta:.3g} ≤ ε = {tol:g}" if converged
              else f"stopped at max_iter = {max_iter} sweeps with ‖α_t − α_t−1‖ = {delta:.3g}")
    return {"alpha": alpha, "n_iter": t, "converged": converged, "trace": records,
            "trace_truncated": bool(trace and t > trace_cap), "status": status}


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
