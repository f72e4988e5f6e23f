"""SVM-Primal: the book's Newton method on the primal with quadratic loss (slides 36–41).

Problem (bias folded into w, x′ = (x, 1), slide 30):

    min_w J(w) = ½‖w‖² + C Σᵢ max(0, 1 − yᵢwᵀxᵢ)²

Linear kernel (SVM-Primal, slide 39), with the violators yᵢwᵀxᵢ < 1:
    v = Σ yᵢxᵢ,  S = Σ xᵢxᵢᵀ,  ∇ = (I + 2CS)w − 2Cv,  H = I + 2CS,  w ← w − ηH⁻¹∇
Any kernel (SVM-Primal-Kernel, slide 41), h(xᵢ) = Kᵢᵀβ:
    v = Σ yᵢKᵢ,  S = Σ KᵢKᵢᵀ,   ∇ = (K + 2CS)β − 2Cv,  H = K + 2CS,  β ← β − ηH⁻¹∇

Safeguard (not on the slide): the step η starts at 1 and is halved until J decreases
(Armijo). J is piecewise quadratic, so once the violator set settles the full step is exact.
H may be singular in the kernel form (K of rank < n); we solve it by least squares, which
moves β only where K can see it. Then β is not unique (β + any null vector of K gives the same
h), and rounding noise in those directions never dies out: the slide's ‖β_t − β_{t−1}‖ ≤ ε
could fail for ever at the optimum. So the kernel form measures the step as the linear form
does, on w′ = Σβᵢφ′(xᵢ) in feature space: ‖w′_t − w′_{t−1}‖ = √(Δβᵀ K Δβ).

Second stopping rule (not on the slide): a full step (η = 1) that leaves the violator set V
unchanged ends at the exact minimiser of J. The step minimises the quadratic
J_V(w) = ½‖w‖² + C Σ_{i∈V}(1 − yᵢwᵀxᵢ)², and where the violators are V, ∇J = ∇J_V = 0.
Without it, ill-conditioned problems (H⁻¹ amplifying rounding, steps ~1e-7 for ever) would
end at max_iter with a warning although w is optimal to rounding.

| symbol | code      | meaning                                                |
|--------|-----------|--------------------------------------------------------|
| w, β   | `w`       | weights in R^{d+1} (linear) or coefficients in R^n     |
| v, S   | `v`, `S`  | sums over the current violators                        |
| ∇, H   | `grad`, `H` | gradient and Hessian of J                            |
| η      | `eta`     | step size (1, halved until J decreases)               |
| ε      | `tol`     | stop when ‖w_t − w_{t−1}‖ ≤ ε (kernel form: √(ΔβᵀKΔβ)) |
"""

from __future__ import annotations

import math

import numpy as np


def _objective(F, y, C, reg):
    """J for outputs F = h(xᵢ) and the regulariser ½‖w‖² (or ½βᵀKβ)."""
    xi = np.maximum(0.0, 1.0 - y * F)
    return reg + C * float(xi @ xi)


def newton(A, y, C, *, kernel_form, tol=1e-8, max_iter=None, trace=False):
    """A = X′ (n × (d+1), linear) or K′ (n × n, kernel form). Returns α = 2Cξ and the run."""
    n, p = A.shape
    w = np.zeros(p)                                        # line 4 (β₀ = 0 in the kernel form)
    R = A if kernel_form else np.eye(p)                    # the regulariser's matrix: K or I
    max_iter = 100 if max_iter is None else max_iter
    records = [] if trace else None
    converged = stalled = False
    t = 0
    step_norm = np.inf
    F = A @ w
    J = _objective(F, y, C, 0.5 * w @ (R @ w))
    while t < max_iter:                                    # line 5: repeat
        viol = y * F < 1.0
        Av = A[viol]
        v = Av.T @ y[viol]                                 # line 6: v = Σ yᵢxᵢ
        S = Av.T @ Av                                      # line 7: S = Σ xᵢxᵢᵀ
        grad = (R + 2.0 * C * S) @ w - 2.0 * C * v         # line 8: ∇
        H = R + 2.0 * C * S                                # line 10: H
        d = np.linalg.lstsq(H, grad, rcond=None)[0]        # H⁻¹∇
        eta = 1.0
        while True:                                        # safeguard: halve η until J falls
            w_new = w - eta * d                            # line 12: Newton update
            F_new = A @ w_new
            J_new = _objective(F_new, y, C, 0.5 * w_new @ (R @ w_new))
            if J_new <= J + 1e-12 * max(1.0, abs(J)) or eta < 1e-10:
                break
            eta *= 0.5
        if not J_new <= J + 1e-12 * max(1.0, abs(J)):    # no η lowers J: H⁻¹∇ is rounding
            stalled = True                                 # noise (H too ill-conditioned)
            break
        dw = w_new - w
        step_norm = math.sqrt(max(float(dw @ (R @ dw)), 0.0))   # ‖Δw′‖ (R = I or K)
        w, F, J = w_new, F_new, J_new
        t += 1
        if trace:
            records.append({"it": t, "w": w.copy(), "n_violators": int(viol.sum()),
                            "grad_norm": float(np.linalg.norm(grad)), "step": eta,
                            "step_norm": step_norm, "primal": J})
        settled = eta == 1.0 and np.array_equal(y * F < 1.0, viol)
        if step_norm <= tol or settled:                    # line 13: until ‖w_t − w_{t−1}‖ ≤ ε
            converged = True
            break
    xi = np.maximum(0.0, 1.0 - y * F)
    alpha = 2.0 * C * xi                                   # KKT: w = Σ 2Cξᵢ yᵢ xᵢ
    if stalled:
        status = (f"stopped after {t} iterations: no step size η ≥ 1e-10 lowers J along the "
                  "Newton direction (the Hessian is too ill-conditioned, e.g. C too large)")
    elif not converged:
        status = f"stopped at max_iter = {max_iter} with ‖w_t − w_t−1‖ = {step_norm:.3g}"
    elif step_norm <= tol:
        status = f"‖w_t − w_t−1‖ = {step_norm:.3g} ≤ ε"
    else:
        status = ("exact: a full Newton step kept the violator set, so w minimises J "
                  f"(‖w_t − w_t−1‖ = {step_norm:.3g})")
    return {"alpha": alpha, "n_iter": t, "converged": converged, "trace": records,
            "status": status, "w_primal": w}
