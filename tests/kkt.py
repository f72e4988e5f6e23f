"""An independent KKT check of a fitted model (does not use the engine's own finalize).

Everything is recomputed from m.X, m.y, m.alpha and the kernel's own numpy formula: h(xᵢ),
ξᵢ, both objectives. The conditions, for the problem the model says it solved:

* hinge (box 0 ≤ α ≤ C): αᵢ = 0 ⇒ yᵢh(xᵢ) ≥ 1;  0 < αᵢ < C ⇒ yᵢh(xᵢ) = 1;  αᵢ = C ⇒ yᵢh(xᵢ) ≤ 1;
* quadratic loss (α ≥ 0): αᵢ = 2Cξᵢ with ξᵢ = max(0, 1 − yᵢh(xᵢ));
* free bias: Σαᵢyᵢ = 0; augmented bias: b = Σαᵢyᵢ (slide 30, x′ = (x, 1));
* the model's reported h, ξ, primal and dual objectives are the recomputed ones (a converged
  model reports ξᵢ ≤ 1e-6 as 0).

When an αᵢ is at C, or above the box, is the app's one definition (svm_engine.bounds): a
definition, not a result of the fit.
"""

import math

import numpy as np

from svm_engine.bounds import at_C_mask, outside_masks


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
    # a converged model reports ξᵢ within its stated tolerance 1e-6 as 0 (docs/engine.md, "What
    # 'converged' means"): 1e-6 is the contract, written here, not read from the engine
    shown = np.where((m.xi == 0.0) & (xi <= 1e-6) & m.converged, 0.0, xi)
    np.testing.assert_allclose(m.xi, shown, rtol=1e-7, atol=1e-7 * hscale)
    assert (a >= 0).all(), "α ≥ 0"
    C = m.C
    if m.loss == "hinge":
        if math.isfinite(C):
            assert not outside_masks(a, C)[1].any(), "α ≤ C"
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


# -- "converged means it" (issue 16): the contract, checked from scratch --------------------
# docs/engine.md states it: KKT conditions within TOL = 1e-6 (margin units) and
# |primal − dual| ≤ 1e-6 · max(|primal|, |dual|), each plus the rounding of the sums it is
# computed from, about (4(q + d) + 2·#SV + 16)·ε per unit of Σ|terms| (q the polynomial degree,
# d the dimension). Written here again from that statement, with numpy's kernel formulas;
# nothing is read from the engine.
CONTRACT_TOL = 1e-6
EPS = float(np.finfo(float).eps)


def _abs_kernel(m, X):
    """k(|x|, |z|) for the polynomial and linear kernels (what rounding scales with), |k| + 0.4
    for the Gaussian (its error: K·(1 + γ‖x − z‖²)·ε ≤ (K + 0.4)·ε)."""
    name = m.kernel.name
    A = np.abs(X)
    if name == "linear":
        return A @ A.T
    if name == "polynomial":
        return (abs(m.kernel.coef0) + A @ A.T) ** m.kernel.degree
    return np.abs(m.kernel(X, X)) + 0.4


def assert_certified(m):
    """A model that says converged=True is the optimum of its SVM problem (every solver but
    psvm): feasible α, the KKT conditions within the contract's tolerance, primal = dual."""
    X, y, a = m.X, m.y, np.asarray(m.alpha, dtype=float)
    aug, quad = m.bias == "augmented", m.loss == "quadratic"
    C = m.C
    C_box = math.inf if quad else C
    assert (a >= 0).all() and np.isfinite(a).all(), "α ≥ 0"
    if math.isfinite(C_box):
        assert not outside_masks(a, C_box)[1].any(), "α ≤ C"
    s = float(a @ y)
    if m.bias == "free":
        assert abs(s) <= 1e-9 * max(float(a.sum()), 1e-300), f"Σαᵢyᵢ = {s}"
    else:
        assert math.isclose(m.b, s, rel_tol=1e-9, abs_tol=1e-12 * max(float(a.sum()), 1e-300))
    K = m.kernel(X, X)
    g = K @ (a * y)
    mag = _abs_kernel(m, X) @ a
    sv = a > 0
    q = m.kernel.degree if m.kernel.name == "polynomial" else 1
    unit = EPS * (4.0 * (q + X.shape[1]) + 2.0 * int(sv.sum()) + 16.0)
    b = float(m.b)
    rnd = unit * (mag + abs(b) + 1.0) + (unit * float(mag[sv].max(initial=0.0))
                                         if m.bias == "free" else 0.0)
    allow = 2.0 * rnd                  # the engine's rounding and ours
    h = g + b
    hscale = np.maximum(1.0, np.abs(h))
    assert (np.abs(m.h_train - h) <= allow + 1e-9 * hscale).all(), "h(xᵢ) as reported"
    # KKT, r = yh − 1 (+ α/(2C)): α = 0 ⇒ r ≥ 0; 0 < α < C ⇒ r = 0; α = C ⇒ r ≤ 0
    r = y * h - 1.0 + (a / (2.0 * C) if quad else 0.0)
    at_C = at_C_mask(a, C_box)
    zero = a == 0
    v = np.where(zero, -r, np.where(at_C, r, np.abs(r)))
    worst = int(np.argmax(v - allow))
    assert v[worst] <= CONTRACT_TOL + allow[worst], (
        f"KKT violated at x{worst + 1}: α = {a[worst]:.3g}, r = {r[worst]:.3g}")
    # primal = dual, both recomputed (slack within rounding of 0 is 0)
    xi_raw = np.maximum(0.0, 1.0 - y * h)
    xi = np.where(xi_raw <= allow, 0.0, xi_raw)
    w2 = float((a * y) @ g)
    reg = w2 + (b * b if aug else 0.0)
    dual = float(a.sum()) - 0.5 * (w2 + (s * s if aug else 0.0)
                                   + (float(a @ a) / (2.0 * C) if quad else 0.0))
    if math.isfinite(C):
        primal = 0.5 * reg + C * float(np.sum(xi ** (2 if quad else 1)))
        slack_rnd = C * float(np.sum(allow * (2.0 * xi if quad else (xi > 0))))
    else:
        assert (xi <= CONTRACT_TOL).all(), f"hard margin violated: max ξ = {xi.max():.3g}"
        primal, slack_rnd = 0.5 * reg, 0.0
    scale = max(abs(primal), abs(dual))
    rounding = 2.0 * (2.0 * float(a @ allow) + slack_rnd + EPS * (
        4.0 * (q + X.shape[1]) + 2.0 * len(a) + 16.0) * (float(a.sum()) + abs(w2)))
    assert abs(primal - dual) <= CONTRACT_TOL * scale + rounding, (
        f"primal {primal:.6g} and dual {dual:.6g} differ by {abs(primal - dual):.3g}")
    # as reported: the engine zeroes the slack within its own rounding, which may differ from
    # ours, so the reported primal lies between the values with and without that slack
    k = 2 if quad else 1
    low = primal if math.isfinite(C) else 0.5 * reg
    high = (0.5 * reg + C * float(np.sum(xi_raw ** k))) if math.isfinite(C) else low
    shown = m.primal_objective
    assert low - 1e-9 * scale - rounding <= shown <= high + 1e-9 * scale + rounding, (
        f"primal objective {shown} ≠ {primal}")
    assert abs(m.dual_objective - dual) <= 1e-9 * scale + rounding, (
        f"dual objective {m.dual_objective} ≠ {dual}")


def assert_proximal_certified(m):
    """psvm (the proximal SVM, another problem): its objective's gradient is 0 relative to
    the terms it is the difference of, and its primal = its dual."""
    X, y, a, b, C = m.X, m.y, np.asarray(m.alpha, dtype=float), float(m.b), m.C
    if m.kernel.name == "linear":
        Phi, theta = X, X.T @ (a * y)
    else:
        Phi, theta = m.kernel(X, X), a * y
    h = Phi @ theta + b
    np.testing.assert_allclose(m.h_train, h, rtol=1e-7, atol=1e-7 * max(1.0, np.abs(h).max()))
    beta = 2.0 * C * (1.0 - y * h)
    grad = max(float(np.abs(theta - Phi.T @ (beta * y)).max()), abs(b - float(beta @ y)))
    absPhi = np.abs(Phi)
    inner = 2.0 * C * (absPhi @ np.abs(theta) + abs(b) + 1.0)
    terms = max(float((absPhi.T @ inner).max()), float(inner.sum()), float(np.abs(theta).max()),
                abs(b))
    assert grad <= 1e-8 * terms, f"PSVM's gradient {grad:.3g} of terms {terms:.3g}"
    r = 1.0 - y * h
    primal = 0.5 * float(theta @ theta) + 0.5 * b * b + C * float(r @ r)
    scale = max(abs(primal), abs(m.dual_objective))
    assert abs(m.primal_objective - primal) <= 1e-6 * scale
    assert abs(m.primal_objective - m.dual_objective) <= 2e-6 * scale
