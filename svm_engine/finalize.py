"""One bookkeeping step shared by every solver: α ↦ b, w, ξ, support vectors, objectives.

Because every solver's answer goes through `finalize`, two solvers that return the same α
report the same b, w, ξ and objectives: they cannot disagree on bookkeeping. The one
exception is psvm, which solves another problem (least squares; α of either sign): its
bookkeeping is `finalize_proximal` at the end of this file.

Formulas (Zaki & Meira ch. 21):
* g(xᵢ) = Σⱼ αⱼyⱼ K_eff(xⱼ, xᵢ) and h(x) = g(x) + b                          (slide 28)
* free bias: b = avg over free αᵢ (0 < αᵢ < C) of bᵢ = yᵢ − g(xᵢ)               (slide 13);
  with no free αᵢ, the midpoint of the interval the KKT conditions allow (as LIBSVM).
* augmented bias: b = w_{d+1} = Σ αᵢyᵢ (x′ = (x, 1), slide 30).
* ξᵢ = max(0, 1 − yᵢh(xᵢ))                                                       (slide 36)
* primal ½‖w‖² + C Σ ξᵢᵏ (‖w‖² includes b² for the augmented bias);  dual Σα − ½αᵀQα
  (`objectives.py`, the one home of both formulas).

Everything above needs only Qα and K(α∘y). For a materialised problem they are two
matrix-vector products. A lazy problem (no n × n matrix, `problem.py`) gets them from the
solver's gradient G = Qα − 1 when the solver returns it (SMO), else from w for the linear
kernel, else from the kernel columns of the support vectors only, one at a time.
"""

from __future__ import annotations

import math

import numpy as np

from .bounds import is_at_C, is_free, support_threshold, without_residues  # noqa: F401 (re-exported)
from .bounds import without_residues_jit as _without_residues
from .certify import TOL
from .jit import njit
from .kernel_values import LINEAR, kernel_axpy, kernel_sources_dot
from .objectives import dual_value, primal_value
from .problem import Problem

CATEGORIES = np.array(["non-SV", "margin SV", "bound SV", "inside margin", "misclassified"])


# The formulas below are compiled (numba): `finalize` runs after every fit, the Playground
# refits on every click, and a dozen numpy passes over α cost more than a warm-started SMO.
# Each is written once, as a loop, and used by every caller (the traced SMO, the step-through
# and `finalize`), so that they cannot disagree.

@njit(cache=True, nogil=True)
def _bias(yG, alpha, y, C_box, eps):
    n = len(alpha)
    total, count = 0.0, 0
    for i in range(n):
        if is_free(alpha[i], C_box, eps):
            total += yG[i]
            count += 1
    if count > 0:
        return -(total / count)                      # b = avg(bᵢ), bᵢ = −yᵢGᵢ
    lo, hi = -math.inf, math.inf
    for i in range(n):
        at_zero = alpha[i] <= eps
        if at_zero == (y[i] > 0):                    # αᵢ = 0, yᵢ = +1 or αᵢ = C, yᵢ = −1
            lo = max(lo, -yG[i])
        else:                                        # αᵢ = 0, yᵢ = −1 or αᵢ = C, yᵢ = +1
            hi = min(hi, -yG[i])
    if lo == -math.inf and hi == math.inf:
        return 0.0
    if lo == -math.inf:
        return hi
    if hi == math.inf:
        return lo
    return 0.5 * (lo + hi)


@njit(cache=True, nogil=True)
def _kkt(G, alpha, y, C_box, equality, eps):
    m, M, worst = -math.inf, math.inf, 0.0
    for i in range(len(alpha)):
        m, M, worst = _kkt_step(G[i], alpha[i], y[i], C_box, equality, eps, m, M, worst)
    return _kkt_value(m, M, worst, equality)


@njit(cache=True, nogil=True, inline="always")
def _kkt_step(g, a, yi, C_box, equality, eps, m, M, worst):
    """`_kkt`'s running (m, M, worst) after point i (gradient g, αᵢ = a, label yi)."""
    can_up = not is_at_C(a, C_box)                  # αᵢ may grow
    can_down = a > eps                              # αᵢ may shrink
    if equality:
        f = -yi * g
        if (can_up and yi > 0) or (can_down and yi < 0):        # i ∈ I_up
            if f > m:
                m = f
        if (can_up and yi < 0) or (can_down and yi > 0):        # i ∈ I_low
            if f < M:
                M = f
    else:
        if can_up and -g > worst:
            worst = -g
        if can_down and g > worst:
            worst = g
    return m, M, worst


@njit(cache=True, nogil=True, inline="always")
def _kkt_value(m, M, worst, equality):
    if not equality:
        return worst
    if m == -math.inf or M == math.inf:
        return 0.0
    return max(0.0, m - M)


@njit(cache=True, nogil=True)
def _codes(alpha, xi, C_box, eps):
    code = np.empty(len(alpha), dtype=np.int8)
    for i in range(len(alpha)):
        code[i] = _code(alpha[i], xi[i], C_box, eps)
    return code


@njit(cache=True, nogil=True, inline="always")
def _code(a, x, C_box, eps):
    """The category of a point with αᵢ = a and ξᵢ = x (an index into CATEGORIES). ξᵢ ≤ TOL
    (certify.py: the tolerance of the certificate) is on or beyond the margin: a point with
    yᵢh(xᵢ) = 1 to the digits a certified fit guarantees is a margin SV, not "inside"."""
    tol = TOL
    if x > 1.0 + tol:
        return 4                                     # misclassified
    if x > tol:
        return 3                                     # inside the margin
    if a > eps:
        return 2 if is_at_C(a, C_box) else 1
    return 0


def bias_from_gradient(yG: np.ndarray, alpha: np.ndarray, y: np.ndarray, C_box: float) -> float:
    """b from the KKT conditions, given yᵢGᵢ = g(xᵢ) − yᵢ = −bᵢ (G = Qα − 1).

    Free αᵢ satisfy yᵢh(xᵢ) = 1 exactly, so b = avg(bᵢ); otherwise b lies in an interval
    whose ends come from points at a bound (αᵢ = 0 needs yᵢh ≥ 1, αᵢ = C needs yᵢh ≤ 1), and
    we take its midpoint (LIBSVM, Fan et al. 2005).
    """
    alpha = np.asarray(alpha, dtype=float)
    return float(_bias(np.asarray(yG, dtype=float), alpha, np.asarray(y, dtype=float),
                       float(C_box), support_threshold(alpha)))


def kkt_violation(G: np.ndarray, alpha: np.ndarray, y: np.ndarray, C_box: float,
                  equality: bool) -> float:
    """Maximal KKT violation of the dual (minimise f = ½αᵀQα − Σα, G = ∇f).

    With Σαᵢyᵢ = 0 this is LIBSVM's m(α) − M(α) (Keerthi et al. 2001, Fan et al. 2005);
    without it, the largest projected-gradient component.
    """
    alpha = np.asarray(alpha, dtype=float)
    return float(_kkt(np.asarray(G, dtype=float), alpha, np.asarray(y, dtype=float),
                      float(C_box), bool(equality), support_threshold(alpha)))


def categorise(alpha: np.ndarray, xi: np.ndarray, C_box: float) -> np.ndarray:
    """Per point: non-SV / margin SV / bound SV / inside margin / misclassified (slide 17)."""
    return CATEGORIES[category_codes(alpha, xi, C_box)]


def category_codes(alpha: np.ndarray, xi: np.ndarray, C_box: float) -> np.ndarray:
    """`categorise` as indices into CATEGORIES (int8: a model keeps these, and turns them into
    strings only when asked; 100,000 strings cost more than a Newton fit)."""
    alpha = np.asarray(alpha, dtype=float)
    return _codes(alpha, np.asarray(xi, dtype=float), float(C_box), support_threshold(alpha))


def _lazy_products(problem: Problem, alpha: np.ndarray):
    """(Qα, K_in(α∘y)) without the n × n matrix and without the solver's G (K_in is K without
    the augmented +1): from w for the linear kernel, else from the support vectors' kernel
    columns only."""
    spec, X, y = problem.spec, problem.X, problem.y
    ay = alpha * y
    if spec.code == LINEAR:
        Kay = X @ (X.T @ ay) + (ay.sum() if spec.augmented else 0.0)
    else:
        sv = np.flatnonzero(alpha)
        Kay = np.zeros(len(y))
        kernel_sources_dot(spec.numbers(), problem.XT, np.ascontiguousarray(X[sv]),
                                 ay[sv], Kay)
    Qa = y * (Kay + spec.diag * ay)
    if spec.augmented:
        Kay = Kay - ay.sum()
    return Qa, Kay


@njit(cache=True, nogil=True)
def derive_from_gradient(alpha_raw, G, y, kp, X, XT, C, C_box, equality, k):
    """`finalize` for a lazy problem with the solver's G = Qα − 1 at alpha_raw, in one
    compiled call (it runs after every Playground click): Qα = G + 1, less the columns of the
    rounding residues set to 0, and K_in(α∘y) = y∘Qα − δ·α∘y (less Σαᵢyᵢ, the augmented +1).
    Returns (α, then what `_derive` returns)."""
    n, diag, augmented = len(y), kp.diag, kp.augmented
    alpha, eps, zeroed = _without_residues(alpha_raw)
    Qa = G + 1.0
    if zeroed:
        corr, col = np.zeros(n), np.empty(n)
        for q in range(n):
            dz = alpha_raw[q] - alpha[q]
            if dz != 0.0:
                kernel_axpy(kp, XT, X[q], dz * y[q], col, corr)
                corr[q] += diag * (dz * y[q])       # K_eff's δ term
        for t in range(n):
            Qa[t] -= y[t] * corr[t]
    bsum = _sum_ay(alpha, y) if augmented else 0.0
    Kay = np.empty(n)
    for t in range(n):
        Kay[t] = y[t] * Qa[t] - diag * (alpha[t] * y[t]) - bsum
    return (alpha,) + _derive(alpha, Qa, Kay, y, C, C_box, equality, augmented, k, eps)


@njit(cache=True, nogil=True)
def derive_from_expansion(alpha_raw, g, y, C, C_box, equality, augmented, k, diag):
    """`finalize` from the kernel expansion g = K_in(α∘y) recomputed from X
    (`certify.expansion`, or carried: `checked.py`), in one compiled call: α without its
    rounding residues, Qα = y∘(g [+ Σαᵢyᵢ, the augmented +1]) + δ·α. Returns (α, then what
    `_derive` returns)."""
    alpha, eps, _ = _without_residues(alpha_raw)
    bsum = _sum_ay(alpha, y) if augmented else 0.0
    Qa = np.empty(len(alpha))
    for i in range(len(alpha)):
        Qa[i] = y[i] * (g[i] + bsum) + diag * alpha[i]
    return (alpha,) + _derive(alpha, Qa, g, y, C, C_box, equality, augmented, k, eps)


@njit(cache=True, nogil=True)
def _sum_ay(alpha, y):
    """Σαᵢyᵢ in index order (the augmented bias's term of Qα: one order, so that every
    derivation gives the same bits)."""
    s = 0.0
    for i in range(len(alpha)):
        s += alpha[i] * y[i]
    return s


@njit(cache=True, nogil=True)
def _derive(alpha, Qa, Kay, y, C, C_box, equality, augmented, k, eps):
    """The formulas of the module docstring from Qα and Kay = K_in(α∘y), in three passes
    (G and the KKT measure; b; h, ξ, the sums and the categories). Returns (b, h, ξ, G,
    codes, support indices, ‖w‖², primal, dual, KKT violation)."""
    n = len(alpha)
    G, yG = np.empty(n), np.empty(n)
    m, M, worst = -math.inf, math.inf, 0.0
    for i in range(n):
        G[i] = Qa[i] - 1.0                          # ∇ of f(α) = ½αᵀQα − Σα
        yG[i] = y[i] * G[i]                         # yG = g(xᵢ) − yᵢ, g over K_eff
        m, M, worst = _kkt_step(G[i], alpha[i], y[i], C_box, equality, eps, m, M, worst)
    if equality:
        b = _bias(yG, alpha, y, C_box, eps)
    else:
        b = 0.0
        for i in range(n):
            b += alpha[i] * y[i]                    # w_{d+1} = Σ αᵢyᵢ (slide 30)
    h, xi, codes = np.empty(n), np.empty(n), np.empty(n, dtype=np.int8)
    w_norm2, loss, asum, aQa, slack, n_sv = 0.0, 0.0, 0.0, 0.0, False, 0
    for i in range(n):
        h[i] = Kay[i] + b
        n_sv += alpha[i] != 0.0
        xi[i] = max(0.0, 1.0 - y[i] * h[i])
        w_norm2 += alpha[i] * y[i] * Kay[i]         # ‖w‖² in feature space, bias excluded
        loss += xi[i] if k == 1 else xi[i] * xi[i]
        slack = slack or xi[i] > TOL                # hard margin: violated beyond TOL
        asum += alpha[i]
        aQa += alpha[i] * Qa[i]
        codes[i] = _code(alpha[i], xi[i], C_box, eps)
    reg = w_norm2 + (b * b if augmented else 0.0)
    primal = primal_value(reg, loss, C, slack)
    dual = dual_value(asum, aQa)
    support = np.empty(n_sv, dtype=np.int64)
    q = 0
    for i in range(n):
        if alpha[i] != 0.0:
            support[q] = i
            q += 1
    return (b, h, xi, G, codes, support, w_norm2, primal, dual,
            _kkt_value(m, M, worst, equality))


def finalize(problem: Problem, alpha: np.ndarray, G: np.ndarray | None = None,
             g: np.ndarray | None = None) -> dict:
    """Everything derived from α, for the model object. G = Qα − 1 from the solver (optional;
    used only for lazy problems). g = Σⱼ αⱼyⱼk(xⱼ, ·) on the points, recomputed from X
    (`certify.expansion`: the kernel alone, no +1, no δ/(2C)) for an α without residues:
    then nothing is computed again."""
    y = np.asarray(problem.y, dtype=float)
    alpha_raw = np.asarray(alpha, dtype=float)
    C, C_box, k = float(problem.C), float(problem.C_box), loss_power(problem)
    if g is not None:
        return solution(*derive_from_expansion(
            alpha_raw, np.ascontiguousarray(g, dtype=float), y, C, C_box, problem.equality,
            problem.bias == "augmented", k, float(problem.spec.diag)))
    if problem.Q is None and G is not None:
        return solution(*derive_from_gradient(
            alpha_raw, np.asarray(G, dtype=float), y, problem.spec.numbers(), problem.X,
            problem.XT, C, C_box, problem.equality, k))
    alpha, eps, _ = _without_residues(alpha_raw)
    if problem.Q is not None:
        Qa = problem.Q @ alpha
        # h(xᵢ) on the training points uses K (not K_eff): δ/(2C) is not a kernel value.
        K_in = problem.K - 1.0 if problem.bias == "augmented" else problem.K
        Kay = K_in @ (alpha * y)
    else:
        Qa, Kay = _lazy_products(problem, alpha)
    return solution(alpha, *_derive(alpha, Qa, Kay, y, C, C_box, problem.equality,
                                    problem.bias == "augmented", k, eps))


def loss_power(problem: Problem) -> int:
    """k of the loss C Σ ξᵢᵏ: 1 hinge, 2 quadratic."""
    return 2 if problem.loss == "quadratic" else 1


def solution(alpha, b, h, xi, G, codes, support, w_norm2, primal, dual, kkt) -> dict:
    """What `_derive` returns, as the model's fields."""
    return {
        "alpha": alpha,
        "b": float(b),
        "h_train": h,
        "xi": xi,
        "support": support,
        "w_norm": math.sqrt(max(w_norm2, 0.0)),
        "primal_objective": float(primal),
        "dual_objective": float(dual),
        "kkt_violation": float(kkt),
        "category_code": codes,
        "gradient": G,
    }


def finalize_proximal(problem: Problem, alpha: np.ndarray, b: float) -> dict:
    """The same fields for psvm (solvers/psvm.py), whose problem is not the SVM's dual.

    Kept apart from `finalize` on purpose: psvm's α may be negative (never zeroed here), every
    point with α ≠ 0 is in `support`, b comes from the solver (the nonlinear PSVM's b is not
    Σαᵢyᵢ), and the objectives are PSVM's: with features Φ (X for the linear kernel, K for
    the nonlinear PSVM), θ its weights and β = 2C·r the multipliers (rᵢ = 1 − yᵢh(xᵢ)),
        primal ½‖θ‖² + ½b² + C Σrᵢ²,   dual Σβ − ½‖Φᵀ(β∘y)‖² − ½(Σβᵢyᵢ)² − ‖β‖²/(4C),
    and kkt_violation = max |∇primal| = max(|θ − Φᵀ(β∘y)|, |b − Σβᵢyᵢ|).
    Categories are geometric only (non-SV = on or beyond its margin, PSVM has no SVs)."""
    y, X, C = problem.y, problem.X, problem.C
    alpha = np.asarray(alpha, dtype=float).copy()
    ay = alpha * y
    if problem.spec.code == LINEAR:
        Phi, theta = X, X.T @ ay          # w = Σ αᵢyᵢxᵢ
        f = Phi @ theta
        w_norm2 = float(theta @ theta)
    else:
        Phi, theta = problem.K - 1.0, ay  # K without the augmented +1; θ = ū = Dα
        f = Phi @ theta
        w_norm2 = float(theta @ f)        # ‖w‖² in feature space: ūᵀKū
    h = f + b
    r = 1.0 - y * h
    beta = 2.0 * C * r
    by = beta * y
    v = Phi.T @ by
    grad = np.append(theta - v, b - by.sum())
    xi = np.maximum(0.0, r)
    return {
        "alpha": alpha,
        "b": float(b),
        "h_train": h,
        "xi": xi,
        "support": np.flatnonzero(alpha != 0.0),
        "w_norm": math.sqrt(max(w_norm2, 0.0)),
        "primal_objective": float(0.5 * theta @ theta + 0.5 * b * b + C * r @ r),
        "dual_objective": float(beta.sum() - 0.5 * v @ v - 0.5 * by.sum() ** 2
                                - beta @ beta / (4.0 * C)),
        "kkt_violation": float(np.max(np.abs(grad))),
        "category_code": category_codes(np.zeros_like(alpha), xi, math.inf),
        "gradient": None,                 # not the SVM dual's: no warm start from it
    }
