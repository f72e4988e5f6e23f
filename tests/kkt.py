"""An independent KKT check of a fitted model (does not use the engine's own finalize)."""

import math

import numpy as np


def assert_kkt(m, tol):
    """Check the KKT conditions of the soft-margin problem that `m` solved, from scratch."""
    X, y, a = m.X, m.y, m.alpha
    K = m.kernel(X, X) + (1.0 if m.bias == "augmented" else 0.0)
    h = K @ (a * y) + (0.0 if m.bias == "augmented" else m.b)
    if m.bias == "augmented":
        h = h + 0.0
        assert math.isclose(m.b, float(a @ y), rel_tol=1e-9, abs_tol=1e-9)
    # h(xᵢ) as reported by the model agrees with the kernel expansion
    np.testing.assert_allclose(m.decision_function(X), h, rtol=1e-7, atol=1e-7)
    yh = y * h
    assert (a >= 0).all(), "α ≥ 0"
    if m.loss == "hinge":
        C = m.C
        if math.isfinite(C):
            assert (a <= C * (1 + 1e-12)).all(), "α ≤ C"
        scale = tol * max(1.0, float(np.max(a, initial=0.0)))
        # αᵢ = 0 ⇒ yᵢh(xᵢ) ≥ 1 ; 0 < αᵢ < C ⇒ yᵢh(xᵢ) = 1 ; αᵢ = C ⇒ yᵢh(xᵢ) ≤ 1
        zero = a <= scale
        assert (yh[zero] >= 1 - tol).all(), f"non-SVs inside the margin: {yh[zero].min()}"
        at_C = a >= C - scale if math.isfinite(C) else np.zeros_like(zero)
        free = ~zero & ~at_C
        np.testing.assert_allclose(yh[free], 1.0, atol=tol)
        assert (yh[at_C] <= 1 + tol).all()
    else:
        # quadratic loss: αᵢ = 2Cξᵢ, ξᵢ = max(0, 1 − yᵢh(xᵢ))
        xi = np.maximum(0.0, 1 - yh)
        np.testing.assert_allclose(a, 2 * m.C * xi, atol=tol * max(1.0, 2 * m.C))
    if m.bias == "free":
        assert abs(float(a @ y)) <= 1e-7 * max(1.0, float(a.sum())), "Σαᵢyᵢ = 0"
