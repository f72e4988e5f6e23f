"""SMO: sequential minimal optimisation of the SVM dual, two multipliers at a time.

Problem (dual with free bias, slides 20 and 27; Q = (yyᵀ)∘K_eff built by `problem.py`):

    min_α  f(α) = ½ αᵀQα − Σᵢ αᵢ      s.t.  0 ≤ αᵢ ≤ C,   Σᵢ αᵢyᵢ = 0

(max of the book's L_dual = −f). For quadratic loss the builder passes C = ∞ and
K_eff = K + δ/(2C).

Sources: Platt (1998), "Sequential Minimal Optimization" — the analytic two-variable update
with L/H clipping (seed 004); Keerthi et al. (2001) — the maximal violating pair;
Fan, Chen & Lin (JMLR 2005) — LIBSVM's second-order working-set selection (WSS 2).

| symbol | code         | seed 004 | meaning                                                |
|--------|--------------|----------|--------------------------------------------------------|
| α      | `alpha`      | λ        | Lagrange multipliers                                   |
| αᵢ, αⱼ | `a_i`, `a_j` | λ₁, λ₂   | the pair of a step: αⱼ is moved, αᵢ follows            |
| C      | `C`          | C        | box bound (∞ for the hard margin and quadratic loss)   |
| G      | `G`          |          | ∇f(α) = Qα − 1; note yᵢGᵢ = Eᵢ − b                     |
| E      | `E_i`, `E_j` | E(i)     | Platt's error Eᵢ = h(xᵢ) − yᵢ                          |
| η      | `eta`        | −η       | Kᵢᵢ + Kⱼⱼ − 2Kᵢⱼ ≥ 0, the curvature along the line     |
| L, H   | `L`, `H`     | U, V     | ends of the feasible segment for αⱼ (box ∩ line)       |
| I_up   | `I_up`       |          | {t: αₜ < C, yₜ = +1} ∪ {t: αₜ > 0, yₜ = −1}: yₜαₜ may grow   |
| I_low  | `I_low`      |          | {t: αₜ < C, yₜ = −1} ∪ {t: αₜ > 0, yₜ = +1}: yₜαₜ may shrink |
| m, M   | `m`, `M`     |          | max over I_up, min over I_low of −yₜGₜ; stop at m − M ≤ tol |

Seed 004 writes the same update with λ for α and U, V for L, H, and with η of the opposite
sign: η = −K₁₁ − K₂₂ + 2K₁₂ ≤ 0, so its λ₂ + y₂(E₂ − E₁)/η is line 4 (`take_step`).

One iteration (the numbered comments below point to these lines):
  1. i ← argmax_{t ∈ I_up} −yₜGₜ                                   (the most violating "up" index)
  2. j ← argmin_{t ∈ I_low} −yₜGₜ   (max violating pair) or
     j ← argmax_{t ∈ I_low, −yₜGₜ < m} bₜ²/aₜ, bₜ = m + yₜGₜ, aₜ = Kᵢᵢ + Kₜₜ − 2Kᵢₜ  (WSS 2)
  3. η ← Kᵢᵢ + Kⱼⱼ − 2Kᵢⱼ (τ = 1e-12 if η ≤ 0)           (the seed's η is −η: see above)
  4. αⱼ_unc ← αⱼ + yⱼ(Eᵢ − Eⱼ)/η                                   (Platt eq. 16)
  5. L, H ← max(0, αⱼ − αᵢ), min(C, C + αⱼ − αᵢ)   if yᵢ ≠ yⱼ
            max(0, αᵢ + αⱼ − C), min(C, αᵢ + αⱼ)   if yᵢ = yⱼ       (Platt eqs. 13–14)
  6. αⱼ_new ← clip(αⱼ_unc, L, H)                                   (Platt eq. 17)
  7. αᵢ_new ← αᵢ + yᵢyⱼ(αⱼ − αⱼ_new)                               (Platt eq. 18)
     (lines 5–7 are `clip_pair` below, compiled, which both solvers call; when αⱼ stops at
     an end set by αᵢ's bound, αᵢ is put on that bound exactly)
  8. G ← G + Q[:, i]Δαᵢ + Q[:, j]Δαⱼ

Newton steps on the free set (`face.py`, not Platt's): pair steps crawl when C·K is large
(with quadratic loss at C = 10⁴ on D2, 2.5 million of them; LIBSVM needs as many). So after
5,000 iterations that have not stopped (TRACE_CAP: every step a trace keeps is a pair step),
and then every `face.period(n)` = max(100, n), one iteration minimises f over the free αₜ
(0 < αₜ < C, and the bound ones whose gradient points into the box) at once — conjugate
gradients on Σαₜyₜ = const, kept in the box — and the pair steps go on from there
(`newton_step`; skipped when it would not lower f, then that iteration is a pair step). The
next one comes `face.period(n)` iterations later, or twice as late as the last when that one
lowered f less than the pair steps before it (`face.next_period`). A trace would record them
as {"kind": "newton", ...} (`replay` applies both kinds); with TRACE_CAP = 5,000 it never
does.

Limits: at the Playground's tolerance and cap (1e-5, 100,000 + 100n steps), on standardised
blobs and moons with n = 200, 500 and 2,000, the linear and the Gaussian (σ = 0.5) kernel,
both losses and C = 1, 100, 10⁴, SMO converges in 66 of 72 runs (48 without the Newton
steps; benchmarks/bench_smo_newton.py): every run with C ≤ 100, and every one with the
linear kernel and quadratic loss. It stops at the cap, and says so, in 6 runs, all at
C = 10⁴ on 500 points or more (the Gaussian kernel, and the hinge loss on overlapping
moons). Over the Playground's whole range (tests/test_smo_large_c.py) it stops at the cap
where C·max K(x, x) is huge (≳ 10¹⁰: the linear kernel on data of scale ≳ 10⁴ with C ≳ 10,
polynomial kernels of high degree on data that are not standardised). What to try then:
standardised data, a smaller C, or solver qp.
"""

from __future__ import annotations

import math
import time

import numpy as np

from ..finalize import bias_from_gradient, kkt_violation
from ..jit import njit
from ..tape import make_tape
from . import face
from .result import SolverResult, stop_reason

TAU = 1e-12  # LIBSVM's replacement for a non-positive η
TRACE_CAP = face.PAIR_ONLY   # records kept when trace=True (the run itself goes on): all of
                             # them pair steps, as the Newton steps come after them
TOP_CANDIDATES = 5   # second-order gains listed per step in the trace


def working_sets(alpha, y, C):
    can_up, can_down = alpha < C, alpha > 0
    I_up = (can_up & (y > 0)) | (can_down & (y < 0))
    I_low = (can_up & (y < 0)) | (can_down & (y > 0))
    return I_up, I_low


def select_pair(Q, y, alpha, G, C, wss, QD, explain=True):
    """Lines 1–2. Returns (i, j, m, M, why, candidates); j = −1 when there is no violating pair.
    explain=False: the same pair, without the sentence and the candidates list (a step the
    trace does not keep: they were a sixth of the readable solver's time)."""
    I_up, I_low = working_sets(alpha, y, C)
    minus_yG = -y * G
    if not I_up.any() or not I_low.any():
        return -1, -1, 0.0, 0.0, "no feasible direction", []
    up_idx = np.flatnonzero(I_up)
    i = int(up_idx[np.argmax(minus_yG[up_idx])])
    m = float(minus_yG[i])
    low_idx = np.flatnonzero(I_low)
    M = float(minus_yG[low_idx].min())
    if wss == "max_violating_pair":
        j = int(low_idx[np.argmin(minus_yG[low_idx])])
        if not explain:
            return i, j, m, M, "", []
        why = (f"max violating pair: i = {i} has the largest −y∇f over I_up ({m:.4g}), "
               f"j = {j} the smallest over I_low ({M:.4g}); gap m − M = {m - M:.4g}")
        return i, j, m, M, why, []
    # WSS 2 (Fan, Chen & Lin 2005, eq. (15)): the pair with the largest second-order decrease.
    cand = low_idx[minus_yG[low_idx] < m]
    if len(cand) == 0:
        return i, -1, m, M, "no violating j", []
    b_t = m - minus_yG[cand]                                  # > 0
    a_t = QD[i] + QD[cand] - 2.0 * y[i] * y[cand] * Q[i, cand]  # Kᵢᵢ + Kₜₜ − 2Kᵢₜ
    a_t = np.where(a_t > 0, a_t, TAU)
    gain = b_t * b_t / a_t
    best = int(np.argmax(gain))
    j = int(cand[best])
    if not explain:
        return i, j, m, M, "", []
    top = np.argsort(-gain)[:TOP_CANDIDATES]
    candidates = [(int(cand[t]), float(gain[t])) for t in top]
    why = (f"second order: i = {i} has the largest −y∇f over I_up ({m:.4g}); among I_low, "
           f"j = {j} gives the largest gain b²/a = {gain[best]:.4g} (m − M = {m - M:.4g})")
    return i, j, m, M, why, candidates


def default_max_iter(n: int) -> int:
    return max(10_000_000, 100 * n)            # LIBSVM's default


def interactive_max_iter(n: int) -> int:
    """The iteration cap of every fit a page makes (and of ``precomputed.fit_gram``'s): the
    default above would freeze a page if SMO crawls; this still leaves room for
    ill-conditioned book examples (slide 29's (1 + xᵀz)² on unscaled data needs ~11,000 steps
    for 30 points), and a step of the compiled solver costs microseconds, so the worst case
    is ~1 s at n = 2,000. Beyond it the page shows the "did not converge" warning."""
    return 100_000 + 100 * int(n)


def status_text(converged: bool, max_iter: int, gap: float, it: int = 0,
                time_budget: float | None = None) -> str:
    """The solver's own status. A stop before max_iter that is not optimal is the time
    budget's (`fit(time_budget=...)`): said so, with what to try."""
    if converged:
        return "optimal: m(α) − M(α) ≤ tol"
    if time_budget is not None and it < max_iter:
        return (f"stopped at the time budget ({time_budget:g} s, after {it:,} iterations) "
                f"with m(α) − M(α) = {gap:.3g} > tol; try a smaller C, rescaled data, or "
                "a larger time_budget")
    return f"stopped at max_iter = {max_iter} with m(α) − M(α) = {gap:.3g} > tol"


def smo_result(alpha, it, converged, gap, max_iter, time_budget=None, status=None,
               **fields) -> SolverResult:
    """An SMO run (this file's, `smo_fast`'s or a warm start's) as a `SolverResult`: why it
    stopped and its own status from (converged, iterations, m(α) − M(α)), unless the caller
    words it (status: a warm run stopped for the polish, `warmstart.refit_of`)."""
    # (the first five by position: every warm refit makes one, issue 31)
    return SolverResult(alpha, int(it), stop_reason(bool(converged), it, max_iter, time_budget),
                        status or status_text(converged, max_iter, gap, it, time_budget),
                        int(max_iter), **fields)


@njit(cache=True, nogil=True)
def clip_pair(a_i, a_j, aj_unc, y_i, y_j, C):
    """Lines 5–7: L, H, then αⱼ ← clip(αⱼ_unc, L, H) and αᵢ ← αᵢ + yᵢyⱼ(αⱼ − αⱼ_new).
    Returns (L, H, αᵢ_new, αⱼ_new).

    When αⱼ stops at an end of [L, H] that comes from αᵢ's own bound (L > 0 or H < C: the
    line leaves the box where αᵢ reaches 0 or C), αᵢ is set to that bound exactly (as LIBSVM
    does): computed as αᵢ + yᵢyⱼ(αⱼ − αⱼ_new) it can miss 0 by a rounding residue like
    3e-18, and a residue keeps αᵢ in the working set with a step of zero length, so SMO
    would pick the same pair for ever. Plain float arithmetic: `take_step` runs it as
    Python, `smo_fast` compiled, so the readable and the fast solver clip identically."""
    if y_i != y_j:                                       # line 5, αᵢ − αⱼ = const
        L, H = max(0.0, a_j - a_i), min(C, C + a_j - a_i)
        ai_at_L, ai_at_H = 0.0, C                        # αᵢ where αⱼ = L > 0, = H < C
    else:                                                # αᵢ + αⱼ = const
        L, H = max(0.0, a_i + a_j - C), min(C, a_i + a_j)
        ai_at_L, ai_at_H = C, 0.0
    aj_new = min(max(aj_unc, L), H)                      # line 6
    if aj_new == L and L > 0.0:
        ai_new = ai_at_L                                 # αᵢ lands exactly on its bound
    elif aj_new == H and H < C:
        ai_new = ai_at_H
    else:
        ai_new = a_i + y_i * y_j * (a_j - aj_new)        # line 7 (Platt eq. 18)
        ai_new = min(max(ai_new, 0.0), C)                # guard the box against rounding
    return L, H, ai_new, aj_new


def take_step(Q, y, alpha, G, C, i, j, QD):
    """Lines 3–8 on α and G in place. Returns the step's record (Platt's quantities)."""
    y_i, y_j = y[i], y[j]
    a_i, a_j = alpha[i], alpha[j]
    # line 3: η = Kᵢᵢ + Kⱼⱼ − 2Kᵢⱼ = ‖φ(xᵢ) − φ(xⱼ)‖² ≥ 0, the curvature along the line.
    # Seed 004 defines η = −K₁₁ − K₂₂ + 2K₁₂ ≤ 0, the opposite sign: its update
    # λ₂ + y₂(E₂ − E₁)/η is line 4's αⱼ + yⱼ(Eᵢ − Eⱼ)/η with both signs flipped.
    eta = QD[i] + QD[j] - 2.0 * y_i * y_j * Q[i, j]
    eta_used = eta if eta > 0 else TAU
    E_i, E_j = y_i * G[i], y_j * G[j]                           # Eₜ − b (b cancels in Eᵢ − Eⱼ)
    aj_unc = a_j + y_j * (E_i - E_j) / eta_used                 # line 4
    L, H, ai_new, aj_new = clip_pair(a_i, a_j, aj_unc, y_i, y_j, C)  # lines 5–7
    d_i, d_j = ai_new - a_i, aj_new - a_j
    df = face.pair_change(G[i], G[j], QD[i], QD[j], Q[i, j], d_i, d_j)   # f's change
    alpha[i], alpha[j] = ai_new, aj_new
    G += Q[:, i] * d_i + Q[:, j] * d_j                          # line 8
    return {"i": i, "j": j, "yi": float(y_i), "yj": float(y_j),
            "ai_old": float(a_i), "aj_old": float(a_j), "aj_unclipped": float(aj_unc),
            "ai_new": float(ai_new), "aj_new": float(aj_new), "L": float(L), "H": float(H),
            "eta": float(eta), "Ei": float(E_i), "Ej": float(E_j),
            "clipped": bool(aj_new != aj_unc), "df": float(df)}


def newton_step(Q, y, alpha, G, C, tol, every):
    """One Newton step on the free set (`face.py`: the free αₜ and the bound ones that should
    join them), α and G updated in place. Returns (its record, or None when it was not taken;
    whether there was a face to solve; f's change, 0 when not taken)."""
    F = face.select_face(G, y, alpha, float(C), float(tol))
    if len(F) == 0:
        return None, False, 0.0
    old = alpha[F].copy()
    budget = face.cg_budget(len(y), len(F), every)
    x, cg, dropped, taken, df = face.face_step(Q[np.ix_(F, F)], G[F], y[F], old, float(C),
                                               float(tol), budget)
    if not taken:
        return None, True, 0.0
    for f, a_new in zip(F, x):          # line 8 one column at a time, in index order (as
        d = a_new - alpha[f]            # smo_fast: the same bits)
        if d != 0.0:
            alpha[f] = a_new
            G += Q[:, f] * d
    return {"kind": "newton", "free": F, "alpha_old": old, "alpha_new": x.copy(),
            "cg": int(cg), "dropped": int(dropped), "df": float(df)}, True, df


def smo(Q, y, C, *, tol=1e-3, max_iter=None, wss="second_order", alpha0=None, trace=False,
        newton_steps=True, deadline=math.inf, time_budget=None):
    """Solve the dual by SMO. Returns a `SolverResult` (alpha, n_iter, stop, trace, status).
    newton_steps: take the Newton steps on the free set (after TRACE_CAP pair steps).
    deadline: time.perf_counter() value at which to stop (time_budget: its length, for the
    status)."""
    n = len(y)
    base = face.period(n) if newton_steps else 0
    every, due = base, face.first(n)    # Newton steps: iterations between two, the next one,
    gain = 0.0                          # and f's change by the pair steps since the last
    QD = np.ascontiguousarray(np.diag(Q)).copy()
    alpha = np.zeros(n) if alpha0 is None else np.array(alpha0, dtype=float)
    G = np.full(n, -1.0)
    for j in np.flatnonzero(alpha):     # G = Qα − 1, summed column by column in index order
        G += Q[:, j] * alpha[j]         # as smo_fast does: the same bits, so the same steps
    if max_iter is None:
        max_iter = default_max_iter(n)
    records = [] if trace else None
    truncated = False
    it = 0
    converged = False
    while True:
        explain = trace and len(records) < TRACE_CAP     # this step's record is kept
        i, j, m, M, why, candidates = select_pair(Q, y, alpha, G, C, wss, QD, explain)
        if j < 0 or m - M <= tol:
            converged = True
            break
        if it >= max_iter or time.perf_counter() > deadline:   # a step here costs far more
            break
        rec = None
        if base and it >= due:
            rec, had_face, df = newton_step(Q, y, alpha, G, C, tol, every)
            every = face.next_period(base, every, had_face, df, gain)
            due = it + every
            gain = 0.0
            if rec is not None:
                why = (f"Newton step on the {len(rec['free'])} free αₜ ({rec['cg']} CG "
                       f"iterations, {rec['dropped']} reached a bound); m − M = {m - M:.4g}")
        if rec is None:
            rec = take_step(Q, y, alpha, G, C, i, j, QD)
            if it >= due - every:       # the pair steps of the last period before a Newton step
                gain += rec["df"]
        it += 1
        if trace:
            if len(records) < TRACE_CAP:
                b = bias_from_gradient(y * G, alpha, y, C)
                rec.update(it=it, why=why, rule=wss, C=float(C), gap_before=m - M, b=b,
                           dual=float(0.5 * alpha.sum() - 0.5 * alpha @ G),
                           kkt_violation=kkt_violation(G, alpha, y, C, True))
                if "kind" not in rec:                         # a pair step
                    rec.update(candidates=candidates,
                               Ei=rec["Ei"] + b, Ej=rec["Ej"] + b)  # Platt's Eₜ = h(xₜ) − yₜ
                records.append(rec)
            else:
                truncated = True
    return smo_result(alpha, it, converged, m - M, max_iter, time_budget, trace=records,
                      trace_truncated=truncated)


def trace_changes(trace):
    """Each step's (indices, new values) of α: the pair's (αᵢ_new, αⱼ_new), or a Newton step's
    new α on its free set."""
    for rec in trace:
        if rec.get("kind") == "newton":
            yield rec["free"], rec["alpha_new"]
        else:
            yield (rec["i"], rec["j"]), (rec["ai_new"], rec["aj_new"])


def replay(trace, n, alpha0=None):
    """Rebuild α from an SMO trace (`tape.make_tape`: the one replay)."""
    alpha0 = np.zeros(n) if alpha0 is None else np.array(alpha0, dtype=float)
    return make_tape(alpha0, trace_changes(trace)).alpha_at(len(trace))


@njit(cache=True, nogil=True)
def feasible_start(alpha0, y, C):
    """Make a warm-start α feasible: clip to [0, C], then restore Σαᵢyᵢ = 0 by lowering the
    largest αᵢ of the heavier class, largest first, until the sums balance. Lowering few αᵢ
    (after one edit, e.g. a deleted support vector, one or two) keeps the start close to the
    previous optimum and lets `svm_engine.warmstart` update G instead of rebuilding it.
    Compiled: the Playground calls it on every click. Each lowered αᵢ costs a pass over α.
    alpha0 and y: float arrays; C: a float."""
    n = len(alpha0)
    a = np.empty(n)
    s, top = 0.0, 0.0
    for t in range(n):
        a[t] = min(max(alpha0[t], 0.0), C)
        s += a[t] * y[t]
        top = max(top, a[t])
    if abs(s) <= 1e-12 * max(1.0, top):       # rounding only (SMO's own steps keep
        return a                              # Σαᵢyᵢ = 0 to rounding too)
    side = 1.0 if s > 0 else -1.0             # the heavier class
    need, before = abs(s), 0.0                # before: what the larger ones removed
    done = np.zeros(n, dtype=np.bool_)
    while True:
        j, best = -1, -1.0                    # the largest αⱼ not yet lowered (first on ties)
        for t in range(n):
            if y[t] == side and not done[t] and a[t] > best:
                j, best = t, a[t]
        if j < 0:                             # not enough: all of that class are now 0
            return a
        done[j] = True
        if before + a[j] >= need:             # this one absorbs the rest
            a[j] -= need - before
            return a
        before += a[j]
        a[j] = 0.0
