"""PSVM: Fung & Mangasarian's proximal support vector machine (KDD 2001; seed document 001).

The standard SVM's inequality constraints become equalities and the bias is regularised with
w. The points are no longer kept *outside* two bounding planes but *clustered around* them
(the "proximal" planes xᵀw = γ ± 1), and the classifier comes from one linear system.

Linear PSVM (the seed's "Linear PSVM"):

    min_{w,γ}  ν/2 ‖e − D(Aw − eγ)‖²  +  ½‖(w, γ)‖²

Setting the gradient to zero gives a nonsingular system of size (d + 1):

    (I/ν + HᵀH) [w; γ] = HᵀDe,   H = [A  −e],        classifier sign(xᵀw − γ).

Nonlinear PSVM (the seed's "Nonlinear PSVM"): by "QP duality" w = AᵀDu; the margin is then
maximised in the "dual space" (‖u‖ instead of ‖w‖) and AAᵀ replaced by a kernel:

    min_{u,γ}  ν/2 ‖e − D(K(A, Aᵀ)Du − eγ)‖²  +  ½‖(u, γ)‖²

With ū = Du (‖ū‖ = ‖u‖) the same formula holds with H = [K(A, Aᵀ)  −e], a system of size
(n + 1); classifier sign(K(xᵀ, Aᵀ)ū − γ). Note the regulariser is ½‖u‖², not the feature-space
½‖w‖²: with the linear kernel this is *not* the linear PSVM, so `fit(kernel=Linear())` runs the
linear PSVM and every other kernel the nonlinear one.

In the engine's notation h(x) = wᵀx + b (b = −γ) and ν = 2C, so the error term is
C Σᵢ rᵢ² as in the book's quadratic loss C Σ ξᵢ² (slide 19, k = 2) — but over *every* point
and with rᵢ of either sign (an equality, not ξᵢ ≥ 0). Hence `fit(..., solver="psvm")` needs
loss="quadratic" and bias="augmented" (b is regularised like w, as with x′ = (x, 1), slide 30).

| paper     | engine            | meaning                                                      |
|-----------|-------------------|--------------------------------------------------------------|
| A (m × n) | X (n × d)         | the points, one per row                                       |
| D         | diag(y)           | labels ±1 on the diagonal                                     |
| e         | 1                 | a vector of ones                                              |
| ν         | 2C                | weight of the squared errors (ν/2 = C)                        |
| w, γ      | w, −b             | proximal planes xᵀw = γ ± 1, i.e. h(x) = ±1 with b = −γ        |
| y (error) | r                 | rᵢ = 1 − yᵢh(xᵢ), either sign (ξᵢ = max(0, rᵢ) as for the SVM) |
| u         | α                 | linear: multipliers α = νr, w = Σαᵢyᵢxᵢ, b = Σαᵢyᵢ (may be < 0) |
| ū = Du    | α∘y               | nonlinear: coefficients, h(x) = Σαᵢyᵢ K(xᵢ, x) + b (any sign) |
| H         | `H`               | [A −e] (linear) or [K −e] (nonlinear)                         |

What the fitted model's fields mean for psvm (bookkeeping: `finalize.finalize_proximal`):
α as in the table (never clipped at 0; every point with α ≠ 0 is in `support`: PSVM is not
sparse); ξ = max(0, r), the SVM's slack of the same h; `primal_objective` is the PSVM
objective ½(‖θ‖² + b²) + C Σ rᵢ² (θ = w linear, θ = ū nonlinear); `dual_objective` is its
Lagrange dual at β = νr, equal to the primal at the optimum; `kkt_violation` is the largest
component of the objective's gradient (0 at the optimum, which is unique: the objective is
strongly convex).
"""

from __future__ import annotations

import numpy as np

from .result import SolverResult, StopReason


def proximal_system(Phi: np.ndarray, y: np.ndarray, nu: float) -> tuple[np.ndarray, np.ndarray]:
    """(I/ν + HᵀH, HᵀDe) with H = [Φ  −e]: the seed's "Solve" line, Φ = A or K."""
    H = np.hstack([Phi, -np.ones((len(y), 1))])
    M = H.T @ H
    M[np.diag_indices_from(M)] += 1.0 / nu
    return M, H.T @ y  # De = y


def _solve(Phi: np.ndarray, y: np.ndarray, C: float) -> tuple[np.ndarray, float, str, bool]:
    """[θ; γ] from the linear system (symmetric positive definite: I/ν + HᵀH)."""
    nu = 2.0 * C
    M, v = proximal_system(Phi, y, nu)
    how = "solved"
    try:
        z = np.linalg.solve(M, v)
    except np.linalg.LinAlgError:
        # I/ν + HᵀH is positive definite, but where HᵀH's entries dwarf 1/ν (a high-degree
        # kernel, a large scale) the I/ν is lost to rounding and LAPACK finds the matrix
        # singular: least squares still gives the best z double precision can hold, and the
        # certificate judges it like any other answer
        z = np.linalg.lstsq(M, v, rcond=None)[0]
        how = "numerically singular (its 1/ν lost to rounding), solved by least squares"
    ok = bool(np.isfinite(z).all())
    res = float(np.max(np.abs(M @ z - v))) if ok else float("nan")
    status = (f"one linear system of size {len(z)} × {len(z)} {how} "
              f"(residual {res:.1e})" if ok else "the linear system gave non-finite values")
    return z[:-1], float(z[-1]), status, ok


def psvm_linear(X: np.ndarray, y: np.ndarray, C: float) -> SolverResult:
    """Linear PSVM on the points X (n × d). α = νr are the equality constraints' multipliers."""
    w, gamma, status, ok = _solve(X, y, C)
    b = -gamma
    r = 1.0 - y * (X @ w + b)            # the paper's error vector y = e − D(Aw − eγ)
    alpha = 2.0 * C * r                  # u = νy: w = AᵀDu, γ = −eᵀDu
    return _result(alpha, b, ok, status, w_primal=w, b_primal=b)


def psvm_kernel(K: np.ndarray, y: np.ndarray, C: float) -> SolverResult:
    """Nonlinear PSVM on the kernel matrix K (n × n, no +1). α = Dū, so αᵢyᵢ = ūᵢ."""
    u_bar, gamma, status, ok = _solve(K, y, C)
    return _result(y * u_bar, -gamma, ok, status)


def _result(alpha, b, ok, status, **primal) -> SolverResult:
    """One linear system solved (ok: its numbers are finite)."""
    return SolverResult(alpha=alpha, b=b, n_iter=1, status=status,
                        stop=StopReason.CONVERGED if ok else StopReason.FAILED, **primal)
