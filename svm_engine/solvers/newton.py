"""SVM-Primal: the book's Newton method on the primal with quadratic loss (slides 36–41).

Problem (bias folded into w, x′ = (x, 1), slide 30):

    min_w J(w) = ½‖w‖² + C Σᵢ max(0, 1 − yᵢwᵀxᵢ)²

Linear kernel (SVM-Primal, slide 39), with the violators yᵢwᵀxᵢ < 1:
    v = Σ yᵢxᵢ,  S = Σ xᵢxᵢᵀ,  ∇ = (I + 2CS)w − 2Cv,  H = I + 2CS,  w ← w − ηH⁻¹∇
Any kernel (SVM-Primal-Kernel, slide 41), h(xᵢ) = Kᵢᵀβ:
    v = Σ yᵢKᵢ,  S = Σ KᵢKᵢᵀ,   ∇ = (K + 2CS)β − 2Cv,  H = K + 2CS,  β ← β − ηH⁻¹∇

Safeguard (not on the slide): the step η starts at 1 and is halved until J decreases
(Armijo; `safeguard`, shared by both forms). J is piecewise quadratic, so once the violator
set settles the full step is exact.

The kernel form's H⁻¹∇ without H (`_kernel_direction`): with uᵢ = 2C(hᵢ − yᵢ) on V, 0 off V,
    ∇ = K(β + u),   H = K + 2C·K I_V K = K(I + 2C·I_V K),
so β′ = β − H⁻¹∇ solves (I + 2C·I_V K)β′ = 2C·I_V y: β′ is 0 off V and
    (K_VV + I/(2C)) β′_V = y_V,
a |V| × |V| symmetric positive definite system (eigenvalues ≥ 1/(2C)), solved by Cholesky
(LAPACK, scipy.linalg.cho_factor): |V|³/3 flops, plus n² for ∇ and for J, where forming
S = Σ KᵢKᵢᵀ and solving the n × n H by least squares took tens of n³ (the loop at n = 1,000:
1.4 s against 0.04 s, one BLAS thread; benchmarks/bench_newton_kernel.py). When K is
invertible H⁻¹∇ is unique and this is it; when K is singular (rank < n) H is too, and this
is one solution of H·d = ∇ — any two differ by a null vector of K (zᵀHz = zᵀKz +
2C‖I_V Kz‖² = 0 ⇒ Kz = 0), so h = Kβ and J are the same. Then β is not unique (β + any null
vector of K gives the same h): the kernel form measures the step as the linear form does, on
w′ = Σβᵢφ′(xᵢ) in feature space: ‖w′_t − w′_{t−1}‖ = √(Δβᵀ K Δβ). (The linear form's
H = I + 2CS has eigenvalues ≥ 1: `newton_linear` solves it by Cholesky, unless C is so large
that H is singular to rounding; then it drops what lstsq drops.)

Second stopping rule (not on the slide): a full step (η = 1) that leaves the violator set V
unchanged ends at the exact minimiser of J. The step minimises the quadratic
J_V(w) = ½‖w‖² + C Σ_{i∈V}(1 − yᵢwᵀxᵢ)², and where the violators are V, ∇J = ∇J_V = 0.
Without it, ill-conditioned problems (H⁻¹ amplifying rounding, steps ~1e-7 for ever) would
end at max_iter with a warning although w is optimal to rounding.

| symbol | code      | meaning                                                |
|--------|-----------|--------------------------------------------------------|
| w, β   | `w`       | weights in R^{d+1} (linear) or coefficients in R^n     |
| v, S   | `v`, `S`  | sums over the current violators                        |
| yᵢhᵢ   | `m`       | margins at w (linear form: kept, to see who enters V)  |
| ∇, H   | `grad`, `H` | gradient and Hessian of J                            |
| η      | `eta`     | step size (1, halved until J decreases)               |
| ε      | `tol`     | stop when ‖w_t − w_{t−1}‖ ≤ ε (kernel form: √(ΔβᵀKΔβ)) |
"""

from __future__ import annotations

import math

import numpy as np

from ..jit import njit
from .result import SolverResult, StopReason


def _objective(F, y, C, reg):
    """J for outputs F = h(xᵢ) and the regulariser ½‖w‖² (or ½βᵀKβ)."""
    xi = np.maximum(0.0, 1.0 - y * F)
    return reg + C * float(xi @ xi)


#: `safeguard`'s verdicts on a trial step η
ACCEPT, HALVE, STALLED = 0, 1, 2
ETA_MIN = 1e-10        # the smallest η tried


@njit(cache=True, nogil=True)
def safeguard(J_new, J, eta):
    """The line search's verdict on the step η that gives J_new from J (both forms of
    SVM-Primal use it): ACCEPT when J does not rise (up to rounding, 1e-12 relative), else
    HALVE η, or STALLED when η < ETA_MIN already: no η lowers J, so H⁻¹∇ is rounding noise
    (H too ill-conditioned)."""
    if J_new <= J + 1e-12 * max(1.0, abs(J)):
        return ACCEPT
    return STALLED if eta < ETA_MIN else HALVE


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
        if kernel_form:                                    # lines 7–11 (slide 41), no S or H
            grad, d = _kernel_direction(A, y, C, w, F, viol)
        else:
            Av = A[viol]
            v = Av.T @ y[viol]                             # line 6: v = Σ yᵢxᵢ
            S = Av.T @ Av                                  # line 7: S = Σ xᵢxᵢᵀ
            grad = (R + 2.0 * C * S) @ w - 2.0 * C * v     # line 8: ∇
            H = R + 2.0 * C * S                            # line 10: H
            d = np.linalg.lstsq(H, grad, rcond=None)[0]    # H⁻¹∇
        eta, verdict = 2.0, HALVE
        while verdict == HALVE:                            # safeguard: halve η until J falls
            eta *= 0.5                                     # (η = 1 first)
            w_new = w - eta * d                            # line 12: Newton update
            F_new = A @ w_new
            J_new = _objective(F_new, y, C, 0.5 * w_new @ (R @ w_new))
            verdict = safeguard(J_new, J, eta)
        if verdict == STALLED:
            stalled = True
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
    return _result(alpha, t, max_iter, step_norm, tol, converged, stalled, records, w)


def _kernel_direction(K, y, C, beta, F, viol):
    """(∇, H⁻¹∇) of slide 41 at β (F = Kβ, V = viol) without S or H (module docstring):
    H⁻¹∇ = β − β′ with β′ = 0 off V and (K_VV + I/(2C))β′_V = y_V."""
    u = np.where(viol, 2.0 * C * (F - y), 0.0)
    grad = K @ (beta + u)                                  # line 9: (K + 2CS)β − 2Cv
    target = np.zeros(len(y))                              # β′, the Newton point
    V = np.flatnonzero(viol)
    if len(V):
        M = K[np.ix_(V, V)]
        M[np.diag_indices_from(M)] += 1.0 / (2.0 * C)
        target[V] = _spd_solve(M, y[V])
    return grad, beta - target


def _spd_solve(M, b):
    """M⁻¹b for a symmetric positive definite M, by LAPACK's Cholesky; by least squares when
    M is not positive definite to rounding (a kernel with entries so large that 1/(2C)
    vanishes beside them)."""
    import scipy.linalg as sl  # loaded already: numba imports it

    try:
        return sl.cho_solve(sl.cho_factor(M, lower=True, check_finite=False), b,
                            check_finite=False)
    except (sl.LinAlgError, ValueError):
        return sl.lstsq(M, b, check_finite=False)[0]


def _result(alpha, t, max_iter, step_norm, tol, converged, stalled, records, w) -> SolverResult:
    """A run of either form as a `SolverResult` (w: the primal solution w′ = (w, b))."""
    stop = (StopReason.CONVERGED if converged else StopReason.STALLED if stalled
            else StopReason.MAX_ITER)
    return SolverResult(alpha=alpha, n_iter=t, max_iter=max_iter, stop=stop, trace=records,
                        status=_status(t, max_iter, step_norm, tol, converged, stalled),
                        w_primal=w)


def _status(t, max_iter, step_norm, tol, converged, stalled) -> str:
    if stalled:
        return (f"stopped after {t} iterations: no step size η ≥ {ETA_MIN:g} lowers J along the "
                "Newton direction (the Hessian is too ill-conditioned, e.g. C too large)")
    if not converged:
        return f"stopped at max_iter = {max_iter} with ‖w_t − w_t−1‖ = {step_norm:.3g}"
    if step_norm <= tol:
        return f"‖w_t − w_t−1‖ = {step_norm:.3g} ≤ ε"
    return ("exact: a full Newton step kept the violator set, so w minimises J "
            f"(‖w_t − w_t−1‖ = {step_norm:.3g})")


# -- SVM-Primal with the linear kernel, compiled -------------------------------------------
# The same iteration as `newton(A, ...)` on A = X′ = (X, 1), without forming X′, as one
# compiled loop (`_newton_linear_run`; `newton_linear` is its Python face):
#  * one pass over the data per evaluation of J (`_pass`): at the trial w_new it gives the
#    loss Σ max(0, 1 − yᵢhᵢ)² and lines 6–7 there, so an accepted step (η = 1, as a rule)
#    already holds the next iteration's v and S, and whether V changed (second stopping rule).
#    v and S are not summed afresh: the margins yᵢhᵢ at the current w are kept (`m`), and the
#    pass adds (subtracts) the terms of the points that entered (left) V. After the first
#    steps few points cross the margin: a pass costs ~3 ns a point (0.3 ms for n = 100,000
#    in 2-D) plus ~10–30 ns a point that crossed, against ~2 ms of numpy temporaries
#    (X′, X′[viol], X′w) per iteration.
#  * H⁻¹∇ by LAPACK (`_solve`): H = I + 2CS is symmetric with eigenvalues ≥ 1 (but for a
#    huge C·tr S, where H is singular to rounding and lstsq's cutoff is applied instead).
#  * α = 2Cξ from the kept margins. The trace is data: the loop fills per-iteration rows that
#    `newton_linear` turns into the records of `newton`, so traced and untraced runs take the
#    same steps.


@njit(cache=True, nogil=True)
def _pass(X, y, w_new, m, v, S, m_new, v_new, S_new):
    """J's loss at w_new and lines 6–7 there. m holds the margins yᵢhᵢ at the current w and
    v, S the sums over its violators V (yᵢhᵢ < 1). Fills m_new with the margins at w_new, and
    v_new, S_new with the sums over V at w_new: v, S plus yᵢx′ᵢ, x′ᵢx′ᵢᵀ for each point that
    entered V, minus them for each point that left it.
    Returns (Σᵢ max(0, 1 − yᵢhᵢ)² at w_new, |V at w_new|, number of points that entered or left)."""
    n, d = X.shape
    for a in range(d + 1):
        v_new[a] = v[a]
        for b in range(d + 1):
            S_new[a, b] = S[a, b]
    loss = 0.0
    n_viol = 0
    n_moved = 0
    for i in range(n):
        h = w_new[d]                                       # hᵢ = wᵀxᵢ + w_{d+1} at w_new
        for a in range(d):
            h += X[i, a] * w_new[a]
        m_new[i] = y[i] * h
        r = 1.0 - m_new[i]
        inside = r > 0.0                                   # i ∈ V at w_new
        xi = max(r, 0.0)
        loss += xi * xi
        n_viol += inside
        if inside != (1.0 - m[i] > 0.0):                  # i entered (+) or left (−) V
            n_moved += 1
            s = 1.0 if inside else -1.0
            for a in range(d):
                sx = s * X[i, a]
                v_new[a] += sx * y[i]                      # line 6: v = Σ_V yᵢx′ᵢ
                for b in range(a, d):
                    S_new[a, b] += sx * X[i, b]            # line 7: S = Σ_V x′ᵢx′ᵢᵀ
                S_new[a, d] += sx
            v_new[d] += s * y[i]
    S_new[d, d] = n_viol
    for a in range(d):                                     # S is symmetric: lower from upper
        for b in range(a + 1, d + 1):
            S_new[b, a] = S_new[a, b]
    return loss, n_viol, n_moved


EPS = float(np.finfo(float).eps)


@njit(cache=True, nogil=True)
def _solve(H, g):
    """H⁻¹g for H = I + 2CS, as `np.linalg.lstsq(H, g, rcond=None)` in `newton` computes it.
    H's eigenvalues lie in [1, tr H]: while tr H < 0.01/(p·ε), none falls under lstsq's cutoff
    (singular values ≤ p·ε·σ_max count as 0) and an LU solve (LAPACK's gesv) is as exact.
    Beyond that (C·tr S ≳ 1e13 with nearly collinear points), H is singular to rounding:
    least squares with lstsq's cutoff (LAPACK's gelsd, as numpy's).
    (LAPACK, not the hand-written Cholesky and Jacobi this replaced: +0.16 µs per solve at
    p = 3 (0.10 → 0.26 µs), ~1.3 µs on a 100 µs fit of 200 points; the least squares are
    slower at p = 3 (0.6 → 2.4 µs) and faster from p = 11 on (1.3 → 0.24 ms at p = 51);
    benchmarks/bench_numerics.py --only solve.)"""
    p = H.shape[0]
    trace = 0.0
    for a in range(p):
        trace += H[a, a]
    if trace < 0.01 / (p * EPS):
        return np.linalg.solve(H, g)
    return np.linalg.lstsq(H, g, rcond=p * EPS)[0]


@njit(cache=True, nogil=True)
def _newton_linear_run(X, y, C, tol, max_iter, v, S, trace):
    """Slide 39 from w₀ = 0, given v, S there (every point is a violator at w₀).
    Returns (w, α = 2Cξ, t, converged, stalled, last ‖w_t − w_{t−1}‖, W, stats): when `trace`,
    row k < t of W is w_{k+1} and row k of stats its (|V|, ‖∇‖, η, ‖w_{k+1} − w_k‖, J).
    (Loops rather than numpy array expressions: they compile in a fraction of the time.)"""
    n, d = X.shape
    p = d + 1
    w = np.zeros(p)                                        # line 4
    w_new = np.empty(p)
    J = C * n                                              # J(0) = C Σ 1²
    n_viol = n
    m = np.zeros(n)                                        # margins yᵢhᵢ at w₀ = 0
    m_new = np.empty(n)
    v_new = np.empty(p)
    S_new = np.empty((p, p))
    H = np.empty((p, p))
    grad = np.empty(p)
    rows = 8 if trace else 0                               # trace rows, doubled as needed
    W = np.empty((rows, p))
    stats = np.empty((rows, 5))
    converged = stalled = False
    t = 0
    step_norm = np.inf
    while t < max_iter:                                    # line 5: repeat
        for a in range(p):
            for b in range(p):
                H[a, b] = 2.0 * C * S[a, b]                # line 10: H = I + 2CS
            H[a, a] += 1.0
        for a in range(p):                                 # line 8: ∇ = (I + 2CS)w − 2Cv
            grad[a] = -2.0 * C * v[a]
            for b in range(p):
                grad[a] += H[a, b] * w[b]
        step = _solve(H, grad)                             # H⁻¹∇
        eta, verdict = 2.0, HALVE
        while verdict == HALVE:                            # safeguard: halve η until J falls
            eta *= 0.5                                     # (η = 1 first)
            ww = 0.0
            for a in range(p):
                w_new[a] = w[a] - eta * step[a]            # line 12: Newton update
                ww += w_new[a] * w_new[a]
            loss, n_viol_new, n_moved = _pass(X, y, w_new, m, v, S, m_new, v_new, S_new)
            J_new = 0.5 * ww + C * loss
            verdict = safeguard(J_new, J, eta)
        if verdict == STALLED:
            stalled = True
            break
        dw2 = 0.0
        for a in range(p):
            dw2 += (w_new[a] - w[a]) ** 2
        step_norm = math.sqrt(dw2)                         # ‖w_t − w_{t−1}‖
        if trace:
            if t == W.shape[0]:
                W = np.concatenate((W, np.empty_like(W)))       # twice the rows
                stats = np.concatenate((stats, np.empty_like(stats)))
            gg = 0.0
            for a in range(p):
                W[t, a] = w_new[a]
                gg += grad[a] * grad[a]
            stats[t, 0] = n_viol
            stats[t, 1] = math.sqrt(gg)
            stats[t, 2] = eta
            stats[t, 3] = step_norm
            stats[t, 4] = J_new
        w, w_new = w_new, w                                # accept: w_t, J(w_t), and the
        m, m_new = m_new, m                                # accepted pass's margins and
        v, v_new = v_new, v                                # lines 6–7 at w_t
        S, S_new = S_new, S
        J, n_viol = J_new, n_viol_new
        t += 1
        settled = eta == 1.0 and n_moved == 0              # full step, V unchanged: exact
        if step_norm <= tol or settled:                    # line 13: until ‖w_t − w_{t−1}‖ ≤ ε
            converged = True
            break
    alpha = np.empty(n)
    for i in range(n):                                     # KKT: w = Σ 2Cξᵢ yᵢ x′ᵢ
        alpha[i] = 2.0 * C * max(0.0, 1.0 - m[i])
    return w, alpha, t, converged, stalled, step_norm, W, stats


def newton_linear(X, y, C, *, tol=1e-8, max_iter=None, trace=False):
    """SVM-Primal (slide 39) on x′ = (x, 1) without forming X′; the same steps, stopping rules
    and records as `newton(np.hstack([X, 1]), y, C, kernel_form=False)`."""
    X = np.ascontiguousarray(X, dtype=float)
    y = np.ascontiguousarray(y, dtype=float)
    n, d = X.shape
    max_iter = 100 if max_iter is None else max_iter
    # lines 6–7 at w₀ = 0, where every point is a violator (yᵢh(xᵢ) = 0 < 1): sums over all
    v = np.empty(d + 1)
    v[:d], v[d] = X.T @ y, y.sum()
    S = np.empty((d + 1, d + 1))
    S[:d, :d] = X.T @ X
    S[:d, d] = S[d, :d] = np.ones(n) @ X                 # Σ xᵢ: 33× faster than X.sum(0)
    # at n = 100,000 in 2-D (45 µs against 1.5 ms; timeit, under load)
    S[d, d] = n
    w, alpha, t, converged, stalled, step_norm, W, stats = _newton_linear_run(
        X, y, float(C), float(tol), int(max_iter), v, S, bool(trace))
    records = None
    if trace:
        records = [{"it": k + 1, "w": W[k].copy(), "n_violators": int(n_viol),
                    "grad_norm": float(grad_norm), "step": float(eta),
                    "step_norm": float(step), "primal": float(J)}
                   for k, (n_viol, grad_norm, eta, step, J) in enumerate(stats[:t])]
    return _result(alpha, int(t), max_iter, float(step_norm), tol, bool(converged),
                   bool(stalled), records, w)
