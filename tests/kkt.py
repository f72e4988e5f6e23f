"""An independent KKT check of a fitted model (does not use the engine's own finalize).

Everything is recomputed from m.X, m.y, m.alpha and the kernel's own numpy formula: h(xᵢ),
ξᵢ, both objectives. The conditions, for the problem the model says it solved:

* hinge (box 0 ≤ α ≤ C): αᵢ = 0 ⇒ yᵢh(xᵢ) ≥ 1;  0 < αᵢ < C ⇒ yᵢh(xᵢ) = 1;  αᵢ = C ⇒ yᵢh(xᵢ) ≤ 1;
* quadratic loss (α ≥ 0): αᵢ = 2Cξᵢ with ξᵢ = max(0, 1 − yᵢh(xᵢ));
* free bias: Σαᵢyᵢ = 0; augmented bias: b = Σαᵢyᵢ (slide 30, x′ = (x, 1));
* the model's reported h, ξ, primal and dual objectives are the recomputed ones (a converged
  model reports ξᵢ ≤ 1e-6 as 0).
"""

import math

import numpy as np


def assert_kkt(m, tol):
    """Check the KKT conditions of the soft-margin problem that `m` solved, from scratch.

    tol bounds the violation of yᵢh(xᵢ) (hinge) or of αᵢ − 2Cξᵢ relative to max(1, 2C)
    (quadratic loss); αᵢ within tol·max α of a bound count as on it (relative to α's own
    scale: with C = 0.01 every αᵢ is ≤ 0.01, so an absolute threshold would call them all 0)."""
    X, y, a = m.X, m.y, m.alpha
    aug = m.bias == "augmented"
    K = m.kernel(X, X) + (1.0 if aug else 0.0)
    h = K @ (a * y) + (0.0 if aug else m.b)
    if aug:
        assert math.isclose(m.b, float(a @ y), rel_tol=1e-9, abs_tol=1e-9), "b = Σαᵢyᵢ"
    # h(xᵢ) as reported by the model agrees with the kernel expansion
    hscale = max(1.0, float(np.abs(h).max()))
    np.testing.assert_allclose(m.decision_function(X), h, rtol=1e-7, atol=1e-7 * hscale)
    np.testing.assert_allclose(m.h_train, h, rtol=1e-7, atol=1e-7 * hscale)
    yh = y * h
    xi = np.maximum(0.0, 1.0 - yh)
    # a converged model reports ξᵢ within its stated tolerance 1e-6 as 0 (README, "What
    # 'converged' means"): 1e-6 is the contract, written here, not read from the engine
    shown = np.where((m.xi == 0.0) & (xi <= 1e-6) & m.converged, 0.0, xi)
    np.testing.assert_allclose(m.xi, shown, rtol=1e-7, atol=1e-7 * hscale)
    assert (a >= 0).all(), "α ≥ 0"
    C = m.C
    if m.loss == "hinge":
        if math.isfinite(C):
            assert (a <= C * (1 + 1e-12)).all(), "α ≤ C"
        scale = tol * float(np.max(a, initial=0.0))
        zero = a <= scale
        assert (yh[zero] >= 1 - tol).all(), f"non-SVs inside the margin: {yh[zero].min()}"
        at_C = a >= C - scale if math.isfinite(C) else np.zeros_like(zero)
        free = ~zero & ~at_C
        np.testing.assert_allclose(yh[free], 1.0, atol=tol, err_msg="free SVs on the margin")
        assert (yh[at_C] <= 1 + tol).all(), f"bound SVs outside the margin: {yh[at_C].max()}"
    else:
        np.testing.assert_allclose(a, 2 * C * xi, atol=tol * max(1.0, 2 * C),
                                   err_msg="αᵢ = 2Cξᵢ")
    if m.bias == "free":
        assert abs(float(a @ y)) <= 1e-7 * max(1.0, float(a.sum())), "Σαᵢyᵢ = 0"
    # the objectives the model reports (slides 20, 27): primal ½‖w‖² + C Σξᵢᵏ, dual Σα − ½αᵀQα
    K_eff = K + (np.eye(len(y)) / (2 * C) if m.loss == "quadratic" else 0.0)
    ay = a * y
    dual = float(a.sum() - 0.5 * ay @ K_eff @ ay)
    reg = float(ay @ K @ ay) - (float(ay.sum()) ** 2 if aug else 0.0) + (m.b**2 if aug else 0.0)
    k = 2 if m.loss == "quadratic" else 1
    primal = 0.5 * reg + (C * float(np.sum(xi**k)) if math.isfinite(C) else 0.0)
    oscale = max(1.0, abs(dual))
    assert math.isclose(m.dual_objective, dual, rel_tol=1e-7, abs_tol=1e-9 * oscale), (
        f"dual objective {m.dual_objective} ≠ {dual}")
    if math.isfinite(m.primal_objective):
        assert math.isclose(m.primal_objective, primal, rel_tol=1e-7, abs_tol=1e-9 * oscale), (
            f"primal objective {m.primal_objective} ≠ {primal}")
