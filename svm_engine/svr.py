"""ε-SVR: support vector regression in the dual of seed 002 (Odobez, "the regression case").

Problem (seed 002; Smola & Schölkopf, "A tutorial on support vector regression", 2004):

    primal   min_{w,b,ξ,ξ̂}  ½‖w‖² + C Σᵢ (ξᵢ + ξ̂ᵢ)
             s.t. tᵢ ≤ y(xᵢ) + ε + ξᵢ,   tᵢ ≥ y(xᵢ) − ε − ξ̂ᵢ,   ξᵢ, ξ̂ᵢ ≥ 0
    dual     max_{a,â}  L̃(a, â) = Σᵢ (aᵢ − âᵢ)tᵢ − ½ Σᵢ Σₗ (aᵢ − âᵢ)(aₗ − âₗ)k(xᵢ, xₗ)
                                 − ε Σᵢ (aᵢ + âᵢ)
             s.t. Σᵢ (aᵢ − âᵢ) = 0,   0 ≤ aᵢ, âᵢ ≤ C
    fit      y(x) = Σᵢ (aᵢ − âᵢ) k(x, xᵢ) + b,    w = Σᵢ (aᵢ − âᵢ) φ(xᵢ)

The ε-insensitive loss E_ε(r) = max(0, |r| − ε) costs nothing inside the tube |t − y(x)| ≤ ε.
aᵢ > 0 only for a point on or above the tube's upper edge (tᵢ − y(xᵢ) ≥ ε), âᵢ > 0 only on or
below the lower edge; a point strictly outside has aᵢ = C (or âᵢ = C) and ξᵢ > 0 (or ξ̂ᵢ > 0).

| seed 002 | code          | meaning                                                     |
|----------|---------------|-------------------------------------------------------------|
| tᵢ       | `t`           | target of point i                                           |
| y(x)     | `predict`     | the fitted function; `f_train` = y(xᵢ)                      |
| aᵢ, âᵢ   | `a`, `a_hat`  | multipliers of the upper / lower tube constraints            |
| ξᵢ, ξ̂ᵢ   | `xi`, `xi_hat`| distance above the upper edge / below the lower edge         |
| ε        | `epsilon`     | half-width of the tube                                      |
| C        | `C`           | box bound: the price of one unit of ξ                       |
| k        | `kernel`      | se.Linear, se.Polynomial, se.Gaussian                       |
| b        | `b`           | bias                                                        |
| L̃        | `dual_objective`; `primal_objective` = ½‖w‖² + CΣ(ξ + ξ̂)    |

Solvers (`solver=`):

* "smo" — LIBSVM's formulation (Chang & Lin 2011, §2.4) of the same dual as a problem in 2n
  variables α = (a, â), z = (+1,…, −1,…): min ½αᵀQα + pᵀα, zᵀα = 0, 0 ≤ α ≤ C, with
  Q_st = z_s z_t k(x_p(s), x_p(t)) (p(s) = s mod n) and p = (ε − t, ε + t); f(α) = −L̃.
  Gradient G = Qα + p = (u + ε − t, −u + ε + t) with u = Kβ, β = a − â (only u is kept).
  Pairs by Fan, Chen & Lin's second-order rule (WSS 2) and LIBSVM's clipped update; it stops
  at m(α) − M(α) ≤ tol (m = max_{I_up} −z_sG_s, M = min_{I_low} −z_sG_s), at max_iter, or at
  the time budget (seconds) — then it says so and `converged` is False.
* "qp" — the reference: the same 2n-variable QP handed to cvxopt, its interior point put on
  its active set (bounds by complementarity, free multipliers from the KKT equations; kept
  only when that point passes the certificate, else cvxopt's α and its multiplier b).

b: on the returned α, from u = Kβ recomputed with the kernel: the mean of −z_sG_s over the
free multipliers (0 < α_s < C: their points are on the tube's edge, y(xᵢ) = tᵢ ∓ ε), else the
middle of [m, M] (as LIBSVM). The certificate (`certify`) trusts nothing the solver computed:
from X, t, a, â and b it recomputes y(xᵢ) and checks feasibility, the KKT conditions
(aᵢ = 0 ⇒ rᵢ ≤ ε, 0 < aᵢ < C ⇒ rᵢ = ε, aᵢ = C ⇒ rᵢ ≥ ε with rᵢ = tᵢ − y(xᵢ); mirrored for
âᵢ) within KKT_TOL·max(1, max|tᵢ|), and |primal − dual| ≤ GAP_RTOL·max(|primal|, |dual|).
`converged` = the solver stopped by its own rule and the certificate passed.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from .bounds import AT_C_REL, on_bounds, outside_masks
from .jit import njit
from .kernels import Gaussian, Linear, Polynomial
from .solvers.result import SolverResult, StopReason, stop_reason
from .validation import check_integer, check_kernel_range, check_number

SOLVERS = ("smo", "qp")
KKT_TOL = 1e-6        # KKT conditions in units of t (times max(1, max|tᵢ|)); categories too
GAP_RTOL = 1e-6       # |primal − dual| ≤ GAP_RTOL · max(|primal|, |dual|) (+ rounding floor)
SMO_TOL = 1e-8        # default m(α) − M(α) for smo, times max(1, max|tᵢ|)
TAU = 1e-12           # curvature used when a pair's η ≤ 0 (LIBSVM's TAU)
TIME_BUDGET = 2.0     # seconds: smo stops there (and says so)
MAX_ITER = 10_000_000  # smo's default cap: the time budget is the real limit
MAX_QP_N = 400        # cvxopt cannot be stopped mid-run: the QP refuses larger problems
MAX_N = 5_000         # both keep the n × n kernel matrix (200 MB at 5,000 points)
TRACE_CAP = 20_000    # iterations recorded by smo's trace
CATEGORIES = ("inside", "edge", "outside")   # non-SV in the tube, SV on its edge, SV outside


@dataclass(frozen=True, eq=False)
class SVRCertificate:
    """`certify`'s checks: y(xᵢ) = f recomputed from X, t, α and b, the slacks, the
    objectives and whether α passes (module docstring)."""

    f: np.ndarray             # y(xᵢ) on the training points
    xi: np.ndarray            # ξᵢ: above the upper edge
    xi_hat: np.ndarray        # ξ̂ᵢ: below the lower edge
    primal: float
    dual: float
    gap: float                # primal − dual
    gap_allowed: float        # the gap rounding and on_bounds may leave
    kkt: float                # the largest KKT violation
    kkt_tol: float            # KKT_TOL · max(1, max|tᵢ|)
    feasible: bool            # 0 ≤ α ≤ C and Σ(aᵢ − âᵢ) = 0
    passed: bool


@dataclass(frozen=True, eq=False)
class SVRTrace:
    """SMO's steps (up to TRACE_CAP): the pair (i, j) of multipliers (index s < n is aₛ,
    s ≥ n is â_{s−n}), m(α) − M(α) before the step and L̃ after it."""

    i: np.ndarray
    j: np.ndarray
    gap: np.ndarray
    dual: np.ndarray
    truncated: bool           # the run took more steps than were recorded


@dataclass(eq=False)
class SVRModel:
    """An ε-SVR fit (see the module docstring for the symbols)."""

    X: np.ndarray
    t: np.ndarray
    kernel: object
    C: float
    epsilon: float
    solver: str
    tol: float
    a: np.ndarray
    a_hat: np.ndarray
    b: float
    f_train: np.ndarray
    xi: np.ndarray
    xi_hat: np.ndarray
    primal_objective: float
    dual_objective: float
    kkt_violation: float
    n_iter: int
    converged: bool
    status: str
    solver_converged: bool
    time_s: float
    polished: bool = False
    trace: SVRTrace | None = None
    stop: StopReason = StopReason.CONVERGED     # why the solver stopped
    solver_status: str = ""                     # the solver's own words
    certificate: SVRCertificate | None = None

    @property
    def timed_out(self) -> bool:
        """smo was stopped by the time budget: the result depends on the machine's load."""
        return self.stop is StopReason.TIME_BUDGET

    @property
    def beta(self) -> np.ndarray:
        """βᵢ = aᵢ − âᵢ, the coefficient of k(x, xᵢ) in y(x)."""
        return self.a - self.a_hat

    @property
    def duality_gap(self) -> float:
        return self.primal_objective - self.dual_objective

    @property
    def support(self) -> np.ndarray:
        """Indices of the support vectors: aᵢ > 0 or âᵢ > 0."""
        return np.flatnonzero((self.a > 0) | (self.a_hat > 0))

    @property
    def category(self) -> np.ndarray:
        """Per point: "inside" (not a support vector: in the tube), "edge" (a support vector on
        the tube's edge, ξ = ξ̂ = 0 within the tolerance) or "outside" (ξ or ξ̂ > 0, α = C)."""
        tol = KKT_TOL * max(1.0, float(np.abs(self.t).max(initial=0.0)))
        sv = (self.a > 0) | (self.a_hat > 0)
        out = (self.xi > tol) | (self.xi_hat > tol)
        code = np.where(out, 2, np.where(sv, 1, 0))
        return np.array(CATEGORIES, dtype=object)[code]

    @property
    def on_edge(self) -> np.ndarray:
        return np.flatnonzero(self.category == "edge")

    @property
    def outside(self) -> np.ndarray:
        return np.flatnonzero(self.category == "outside")

    @property
    def w(self) -> np.ndarray | None:
        """w = Σ βᵢ xᵢ for the linear kernel, else None (w lives in feature space)."""
        return self.X.T @ self.beta if isinstance(self.kernel, Linear) else None

    def predict(self, Z) -> np.ndarray:
        """y(z) = Σᵢ (aᵢ − âᵢ) k(z, xᵢ) + b."""
        Z = _as_points(Z, "Z")
        if Z.shape[1] != self.X.shape[1]:
            raise ValueError(f"Z must have {self.X.shape[1]} feature(s), got shape {Z.shape}")
        sv = self.support
        if len(sv) == 0:
            return np.full(len(Z), self.b)
        return self.kernel.expansion(Z, self.X[sv], self.beta[sv]) + self.b


# -- validation --------------------------------------------------------------------------------

def _as_points(X, name: str) -> np.ndarray:
    try:
        A = np.asarray(X, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be numbers, got {type(X).__name__} ({exc})") from None
    if A.ndim == 1:
        A = A.reshape(-1, 1)            # 1-D data: one feature
    if A.ndim != 2 or A.shape[1] == 0:
        raise ValueError(f"{name} must have shape (n,) or (n, d), got shape {A.shape}")
    if not np.isfinite(A).all():
        r = np.argwhere(~np.isfinite(A))[0]
        raise ValueError(f"{name} contains a non-finite value {float(A[tuple(r)])!r} at row "
                         f"{r[0]}; expected finite numbers")
    return A


def check_inputs(X, t, kernel, C, epsilon, solver):
    """(X as (n, d), t, kernel, C, ε, solver) or ValueError naming the bad value."""
    X = _as_points(X, "X")
    try:
        T = np.array(t, dtype=float)     # a copy: writable (one compiled signature)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"t must be numbers, got {type(t).__name__} ({exc})") from None
    if T.ndim != 1:
        raise ValueError(f"t must be 1-D (one target per point), got shape {T.shape}")
    if len(T) != len(X):
        raise ValueError(f"len(t) = {len(T)} but len(X) = {len(X)}; expected one target per point")
    if not np.isfinite(T).all():
        i = int(np.flatnonzero(~np.isfinite(T))[0])
        raise ValueError(f"t contains a non-finite value {float(T[i])!r} at row {i}")
    if len(X) < 2:
        raise ValueError(f"SVR needs at least 2 points, got {len(X)}")
    if len(X) > MAX_N:
        raise ValueError(f"n = {len(X)} points is more than this SVR keeps in memory "
                         f"({MAX_N}); use fewer points")
    kernel = Linear() if kernel is None else kernel
    if not isinstance(kernel, Linear | Polynomial | Gaussian):
        raise ValueError(f"kernel must be se.Linear(), se.Polynomial(...) or se.Gaussian(...), "
                         f"got {kernel!r}")
    C = check_number("C", C, 0)
    epsilon = check_number("epsilon", epsilon, 0, closed=True)
    if solver not in SOLVERS:
        raise ValueError(f"unknown solver {solver!r}; expected one of {SOLVERS}")
    return X, T, kernel, C, epsilon, solver


# -- the fit --------------------------------------------------------------------------------------

def fit_svr(X, t, kernel=None, C=1.0, epsilon=0.1, solver="smo", tol=None, max_iter=None,
            time_budget=TIME_BUDGET, trace=False) -> SVRModel:
    """ε-SVR of seed 002 on points X ((n,) or (n, d)) with targets t; see the module docstring.

    tol: smo's m(α) − M(α) (default SMO_TOL·max(1, max|t|)); qp: cvxopt's abstol = reltol
    (default 1e-10). max_iter: smo's iterations (default MAX_ITER) or cvxopt's.
    time_budget: seconds after which smo stops (not converged; ``timed_out`` then says so: a
    result that depends on the machine's load). trace (smo): the steps as an `SVRTrace`."""
    X, T, kernel, C, eps, solver = check_inputs(X, t, kernel, C, epsilon, solver)
    if tol is not None:
        tol = check_number("tol", tol, 0)
    if max_iter is not None:
        check_integer("max_iter", max_iter, 1)
    time_budget = check_number("time_budget", time_budget, 0)
    n = len(X)
    scale = max(1.0, float(np.abs(T).max()))
    check_kernel_range(kernel, X, C, "hinge")     # names max |xᵢₖ| when K would overflow
    K = kernel(X, X)
    if not np.isfinite(K).all():
        raise ValueError(f"X is too large for this kernel ({kernel.label}): kernel values "
                         "overflow; scale the data")
    t0 = time.perf_counter()
    polished = False
    if solver == "smo":
        tol = SMO_TOL * scale if tol is None else tol
        run, steps = _smo(K, T, C, eps, tol, max_iter or MAX_ITER, t0 + time_budget, trace)
        alpha = on_bounds(run.alpha, C)
        b = bias(K, T, alpha, C, eps)
    else:
        if n > MAX_QP_N:
            raise ValueError(f"solver 'qp' takes at most {MAX_QP_N} points (cvxopt cannot be "
                             f"stopped within the time budget), got n = {n}; use solver='smo'")
        tol = 1e-10 if tol is None else tol
        run, at_0, at_C = _qp(K, T, C, eps, tol, max_iter)
        alpha, b, steps = on_bounds(run.alpha, C), run.b, None
        done = _polish(K, T, C, eps, alpha, at_0, at_C)
        if done is not None and certify(K, T, done[0], done[1], C, eps).passed:
            (alpha, b), polished = done, True
    a, a_hat = alpha[:n], alpha[n:]
    cert = certify(K, T, alpha, b, C, eps)
    elapsed = time.perf_counter() - t0
    converged = run.converged and cert.passed
    if converged:       # ξ within the check's tolerance is 0: the point is on the tube's edge
        for v in (cert.xi, cert.xi_hat):
            v[v <= cert.kkt_tol] = 0.0
    if converged:
        status = (f"converged: KKT conditions hold within {cert.kkt_tol:.0e}, duality gap "
                  f"{cert.gap:.1e}")
    elif not run.converged:
        status = f"not converged: {run.status}"
    else:
        status = (f"not converged: the solver stopped ({run.status}) but the check fails "
                  f"(KKT violation {cert.kkt:.1e} > {cert.kkt_tol:.0e} or duality gap "
                  f"{cert.gap:.1e} > {cert.gap_allowed:.1e}) — try solver='qp' or a "
                  "smaller tol")
    return SVRModel(
        X=X, t=T, kernel=kernel, C=C, epsilon=eps, solver=solver, tol=tol, a=a, a_hat=a_hat,
        b=float(b), f_train=cert.f, xi=cert.xi, xi_hat=cert.xi_hat,
        primal_objective=cert.primal, dual_objective=cert.dual, kkt_violation=cert.kkt,
        n_iter=run.n_iter, converged=converged, status=status,
        solver_converged=run.converged, time_s=elapsed, polished=polished,
        trace=steps, stop=run.stop, solver_status=run.status, certificate=cert)


def gradient(K, t, alpha, eps) -> np.ndarray:
    """G = Qα + p of the 2n-variable problem, from u = Kβ recomputed."""
    n = len(t)
    u = K @ (alpha[:n] - alpha[n:])
    return np.concatenate([u + eps - t, -u + eps + t])


def _up_low(alpha, C):
    n = len(alpha) // 2
    z_pos = np.arange(2 * n) < n
    up = np.where(z_pos, alpha < C, alpha > 0)      # z_sα_s may grow
    low = np.where(z_pos, alpha > 0, alpha < C)     # z_sα_s may shrink
    return z_pos, up, low


def bias(K, t, alpha, C, eps) -> float:
    """b from the KKT conditions: mean of −z_sG_s over free α_s, else the middle of [m, M]."""
    n = len(t)
    G = gradient(K, t, alpha, eps)
    z = np.concatenate([np.ones(n), -np.ones(n)])
    free = (alpha > 0) & (alpha < C)
    if free.any():
        return float(np.mean(-z[free] * G[free]))
    _, up, low = _up_low(alpha, C)
    m, M = float(np.max(-z[up] * G[up])), float(np.min(-z[low] * G[low]))
    return 0.5 * (m + M)


# -- the certificate ------------------------------------------------------------------------------

def certify(K, t, alpha, b, C, eps) -> SVRCertificate:
    """Check α = (a, â) and b from K, t alone (module docstring)."""
    n = len(t)
    a, ah = alpha[:n], alpha[n:]
    beta = a - ah
    u = K @ beta
    f = u + b
    r = t - f
    xi, xi_hat = np.maximum(0.0, r - eps), np.maximum(0.0, -r - eps)
    wKw = max(0.0, float(beta @ u))
    primal = 0.5 * wKw + C * float(xi.sum() + xi_hat.sum())
    dual = float(t @ beta) - 0.5 * wKw - eps * float(a.sum() + ah.sum())
    scale = max(1.0, float(np.abs(t).max()))
    kkt_tol = KKT_TOL * scale
    # rounding of the recomputed sums: uᵢ is a sum of n terms of size |βⱼ||Kᵢⱼ|
    rounding = 2.2e-16 * n * (float((np.abs(K) @ np.abs(beta)).max()) + abs(b))
    viol = np.concatenate([
        np.where(a < C, np.maximum(r - eps, 0.0), 0.0),        # a < C: not above the tube
        np.where(a > 0, np.maximum(eps - r, 0.0), 0.0),        # a > 0: on or above its edge
        np.where(ah < C, np.maximum(-r - eps, 0.0), 0.0),      # mirrored for â
        np.where(ah > 0, np.maximum(eps + r, 0.0), 0.0),
    ])
    kkt = float(viol.max(initial=0.0))
    ok_box = bool(((alpha >= 0) & (alpha <= C)).all())
    ok_sum = abs(float(beta.sum())) <= 1e-10 * float(alpha.sum()) + 1e-300
    gap = primal - dual
    # + what putting α on its bounds (`bounds.on_bounds`: ≤ AT_C_REL·C an αᵢ) moves the dual by
    gap_allowed = (GAP_RTOL * max(abs(primal), abs(dual))
                   + AT_C_REL * C * float(np.abs(t).sum() + n * eps) + n * rounding * C)
    passed = ok_box and ok_sum and kkt <= kkt_tol + rounding and abs(gap) <= gap_allowed
    return SVRCertificate(f=f, xi=xi, xi_hat=xi_hat, primal=primal, dual=dual, gap=gap,
                          gap_allowed=gap_allowed, kkt=kkt, kkt_tol=kkt_tol,
                          feasible=ok_box and ok_sum, passed=bool(passed))


# -- SMO ---------------------------------------------------------------------------------------

def _smo(K, t, C, eps, tol, max_iter, deadline, trace) -> tuple[SolverResult, SVRTrace | None]:
    """LIBSVM's SMO with WSS 2 on the 2n-variable problem, from α = 0 (module docstring): the
    compiled steps (`_smo_steps`) run in chunks of ~10 ms; between chunks the time budget is
    checked, so a run stops within a chunk of it. Returns the run and, with `trace`, its
    steps."""
    n = len(t)
    alpha, u = np.zeros(2 * n), np.zeros(n)
    cap = min(TRACE_CAP, max_iter) if trace else 0
    tr_i, tr_j = np.zeros(cap, dtype=np.int64), np.zeros(cap, dtype=np.int64)
    tr_gap, tr_dual = np.zeros(cap), np.zeros(cap)
    chunk = max(64, 4_000_000 // n)
    it, f_val, converged = 0, 0.0, False
    while it < max_iter:
        done, code, f_val = _smo_steps(K, t, C, eps, tol, alpha, u, f_val,
                                       min(chunk, max_iter - it), it, tr_i, tr_j, tr_gap,
                                       tr_dual)
        it += done
        if code == 1:
            converged = True
            break
        if time.perf_counter() > deadline:
            break
    G = gradient(K, t, alpha, eps)
    z = np.concatenate([np.ones(n), -np.ones(n)])
    _, up, low = _up_low(alpha, C)
    gap = float(np.max(-z[up] * G[up]) - np.min(-z[low] * G[low]))
    # a stop before max_iter that is not converged is the clock's (the deadline is always set)
    stop = stop_reason(converged, it, max_iter, time_budget=deadline)
    if converged:
        status = f"m(α) − M(α) ≤ tol = {tol:.0e}"
    elif stop is StopReason.MAX_ITER:
        status = (f"stopped at max_iter = {max_iter} iterations with m(α) − M(α) = {gap:.1e}"
                  f" > tol = {tol:.0e} — try a smaller C, a larger ε or the QP solver")
    else:
        status = (f"stopped at the time budget after {it:,} iterations with m(α) − M(α) = "
                  f"{gap:.1e} — try a smaller C, a larger ε, fewer points or the QP solver")
    run = SolverResult(alpha=alpha, n_iter=it, max_iter=max_iter, stop=stop, status=status)
    if not trace:
        return run, None
    k = min(it, cap)
    return run, SVRTrace(tr_i[:k], tr_j[:k], tr_gap[:k], tr_dual[:k], truncated=it > cap)


@njit(cache=True, nogil=True)
def _smo_steps(K, t, C, eps, tol, alpha, u, f_val, steps, offset, tr_i, tr_j, tr_gap,
               tr_dual):
    """Up to `steps` SMO iterations, in place on α and u = Kβ. Returns (iterations done,
    1 if m(α) − M(α) ≤ tol was met else 0, f(α) = −L̃). Multiplier s < n is aₛ (z = +1),
    s ≥ n is â_{s−n} (z = −1); Gₛ = zₛuₚ + pₛ with p = (ε − t, ε + t)."""
    n = t.shape[0]
    for step in range(steps):
        # 1. i = argmax_{I_up} −zₛGₛ (= m);  M = min_{I_low} −zₛGₛ
        m, M, i = -np.inf, np.inf, -1
        for s in range(2 * n):
            if s < n:
                v = t[s] - eps - u[s]                # −Gₛ
                up, low = alpha[s] < C, alpha[s] > 0
            else:
                v = eps + t[s - n] - u[s - n]        # +Gₛ
                up, low = alpha[s] > 0, alpha[s] < C
            if up and v > m:
                m, i = v, s
            if low and v < M:
                M = v
        gap = m - M
        if gap <= tol:
            return step, 1, f_val
        # 2. WSS 2: j maximises b²/a over I_low with −zⱼGⱼ < m
        pi = i if i < n else i - n
        best, j = -np.inf, -1
        for s in range(2 * n):
            p = s if s < n else s - n
            if s < n:
                v, low = t[p] - eps - u[p], alpha[s] > 0
            else:
                v, low = eps + t[p] - u[p], alpha[s] < C
            if low and v < m:
                a_t = K[pi, pi] + K[p, p] - 2.0 * K[pi, p]
                if a_t <= 0:
                    a_t = TAU
                g = (m - v) * (m - v) / a_t
                if g > best:
                    best, j = g, s
        pj = j if j < n else j - n
        zi = 1.0 if i < n else -1.0
        zj = 1.0 if j < n else -1.0
        Gi = zi * u[pi] + (eps - t[pi] if i < n else eps + t[pi])
        Gj = zj * u[pj] + (eps - t[pj] if j < n else eps + t[pj])
        ai, aj = alpha[i], alpha[j]
        Qij = zi * zj * K[pi, pj]
        # 3. LIBSVM's update of the pair, clipped to the box on the line zᵢαᵢ + zⱼαⱼ = const
        if zi != zj:
            quad = K[pi, pi] + K[pj, pj] + 2.0 * Qij
            if quad <= 0:
                quad = TAU
            delta = (-Gi - Gj) / quad
            diff = ai - aj
            ni, nj = ai + delta, aj + delta
            if diff > 0:
                if nj < 0:
                    nj, ni = 0.0, diff
            elif ni < 0:
                ni, nj = 0.0, -diff
            if diff > 0:
                if ni > C:
                    ni, nj = C, C - diff
            elif nj > C:
                nj, ni = C, C + diff
        else:
            quad = K[pi, pi] + K[pj, pj] - 2.0 * Qij
            if quad <= 0:
                quad = TAU
            delta = (Gi - Gj) / quad
            s2 = ai + aj
            ni, nj = ai - delta, aj + delta
            if s2 > C:
                if ni > C:
                    ni, nj = C, s2 - C
            elif nj < 0:
                nj, ni = 0.0, s2
            if s2 > C:
                if nj > C:
                    nj, ni = C, s2 - C
            elif ni < 0:
                ni, nj = 0.0, s2
        dai, daj = ni - ai, nj - aj
        alpha[i], alpha[j] = ni, nj
        # 4. f changes by GᵀΔ + ½ΔᵀQΔ; u = Kβ with βₚ changed by zₛΔαₛ
        f_val += Gi * dai + Gj * daj + 0.5 * (K[pi, pi] * dai * dai + K[pj, pj] * daj * daj
                                              + 2.0 * Qij * dai * daj)
        ci, cj = zi * dai, zj * daj
        for p in range(n):
            u[p] += K[p, pi] * ci + K[p, pj] * cj
        k = offset + step
        if k < tr_i.shape[0]:
            tr_i[k], tr_j[k], tr_gap[k], tr_dual[k] = i, j, gap, -f_val
    return steps, 0, f_val


# -- the QP reference --------------------------------------------------------------------------

def qp_matrices(K, t, C, eps):
    """cvxopt's P, q, G, h, A, b for min ½αᵀQα + pᵀα, 0 ≤ α ≤ C, zᵀα = 0 (2n variables)."""
    n = len(t)
    P = np.block([[K, -K], [-K, K]])
    q = np.concatenate([eps - t, eps + t]).reshape(-1, 1)
    G = np.vstack([-np.eye(2 * n), np.eye(2 * n)])
    h = np.concatenate([np.zeros(2 * n), np.full(2 * n, C)]).reshape(-1, 1)
    A = np.concatenate([np.ones(n), -np.ones(n)]).reshape(1, -1)
    return P, q, G, h, A, np.zeros((1, 1))


def _qp(K, t, C, eps, tol, max_iter) -> tuple[SolverResult, np.ndarray, np.ndarray]:
    """cvxopt on the 2n-variable QP: the run (with cvxopt's multiplier b) and the active set
    its interior point suggests (at_0, at_C: the multipliers complementarity puts on 0 or
    C, for `_polish`)."""
    from cvxopt import matrix, solvers  # imported here: cvxopt is slow to import

    n = len(t)
    P, q, G, h, A, b = qp_matrices(K, t, C, eps)
    opts = {"show_progress": False, "maxiters": int(max_iter or 200),
            "abstol": tol, "reltol": tol, "feastol": min(tol, 1e-7)}
    try:
        sol = solvers.qp(matrix(P), matrix(q), matrix(G), matrix(h), matrix(A), matrix(b),
                         options=opts)
    except (ArithmeticError, ValueError) as exc:
        raise ValueError(f"cvxopt could not solve this problem at tol = {tol:g} "
                         f"({type(exc).__name__}: {exc}); use solver='smo' or a larger tol"
                         ) from None
    alpha = np.array(sol["x"]).ravel()
    s, zmul = np.array(sol["s"]).ravel(), np.array(sol["z"]).ravel()
    active = s < zmul                                   # complementarity decides the bounds
    optimal = sol["status"] == "optimal"
    run = SolverResult(alpha=alpha, b=float(np.array(sol["y"]).ravel()[0]),
                       n_iter=int(sol["iterations"]), max_iter=int(max_iter or 200),
                       stop=StopReason.CONVERGED if optimal else StopReason.NOT_OPTIMAL,
                       status=f"cvxopt status: {sol['status']}")
    return run, active[:2 * n], active[2 * n:] & ~active[:2 * n]


def _polish(K, t, C, eps, alpha, at_0, at_C, rounds=10):
    """The interior point on its active set: bounded multipliers fixed at 0 or C, the free ones
    F and b solve Q_FF α_F + b z_F = −p_F − Q_FB α_B, z_Fᵀα_F = −z_Bᵀα_B (the edge conditions
    y(xᵢ) = tᵢ ∓ ε); a multiplier that leaves the box goes on the bound it crossed. Returns
    (α, b) or None."""
    n = len(t)
    zs = np.concatenate([np.ones(n), -np.ones(n)])
    idx = np.concatenate([np.arange(n), np.arange(n)])
    pvec = np.concatenate([eps - t, eps + t])
    at_0, at_C = at_0.copy(), at_C.copy()
    for _ in range(rounds):
        a = alpha.copy()
        a[at_0], a[at_C] = 0.0, C
        F, B = np.flatnonzero(~(at_0 | at_C)), np.flatnonzero(at_0 | at_C)
        Q_F = zs[F, None] * zs[None, :] * K[np.ix_(idx[F], idx)]
        M = np.block([[Q_F[:, F], zs[F, None]], [zs[None, F], np.zeros((1, 1))]])
        rhs = np.append(-pvec[F] - Q_F[:, B] @ a[B], -(zs[B] @ a[B]))
        start = np.append(a[F], 0.0)
        step = np.linalg.lstsq(M, rhs - M @ start, rcond=None)[0]
        a[F] += step[:len(F)]
        low, high = outside_masks(a, C)
        if low.any() or high.any():
            at_0 |= low
            at_C |= high
            continue
        a = on_bounds(a, C)
        return a, bias(K, t, a, C, eps)
    return None
