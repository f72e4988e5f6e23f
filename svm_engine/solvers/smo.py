"""SMO: sequential minimal optimisation of the SVM dual, two multipliers at a time.

Problem (dual with free bias, slides 20 and 27; Q = (yyᵀ)∘K_eff built by `problem.py`):

    min_α  f(α) = ½ αᵀQα − Σᵢ αᵢ      s.t.  0 ≤ αᵢ ≤ C,   Σᵢ αᵢyᵢ = 0

(max of the book's L_dual = −f). For quadratic loss the builder passes C = ∞ and
K_eff = K + δ/(2C).

Sources: Platt (1998), "Sequential Minimal Optimization" — the analytic two-variable update
with L/H clipping (seed 004); Keerthi et al. (2001) — the maximal violating pair;
Fan, Chen & Lin (JMLR 2005) — LIBSVM's second-order working-set selection (WSS 2).

| symbol | code            | meaning                                                       |
|--------|-----------------|---------------------------------------------------------------|
| α      | `alpha`         | Lagrange multipliers                                          |
| C      | `C`             | box bound (∞ for the hard margin and for quadratic loss)      |
| G      | `G`             | ∇f(α) = Qα − 1; note yᵢGᵢ = Eᵢ − b                            |
| E      | `E_i`, `E_j`    | Platt's error Eᵢ = h(xᵢ) − yᵢ                                 |
| η      | `eta`           | Kᵢᵢ + Kⱼⱼ − 2Kᵢⱼ, curvature along the constraint line        |
| L, H   | `L`, `H`        | ends of the feasible segment for αⱼ (the box ∩ the line)      |
| I_up   | `I_up`          | {t: αₜ < C, yₜ = +1} ∪ {t: αₜ > 0, yₜ = −1}: yₜαₜ may grow   |
| I_low  | `I_low`         | {t: αₜ < C, yₜ = −1} ∪ {t: αₜ > 0, yₜ = +1}: yₜαₜ may shrink |
| m, M   | `m`, `M`        | max over I_up and min over I_low of −yₜGₜ; stop at m − M ≤ tol |

One iteration (the numbered comments below point to these lines):
  1. i ← argmax_{t ∈ I_up} −yₜGₜ                                   (the most violating "up" index)
  2. j ← argmin_{t ∈ I_low} −yₜGₜ   (max violating pair) or
     j ← argmax_{t ∈ I_low, −yₜGₜ < m} bₜ²/aₜ, bₜ = m + yₜGₜ, aₜ = Kᵢᵢ + Kₜₜ − 2Kᵢₜ  (WSS 2)
  3. η ← Kᵢᵢ + Kⱼⱼ − 2Kᵢⱼ (τ = 1e-12 if η ≤ 0)
  4. αⱼ_unc ← αⱼ + yⱼ(Eᵢ − Eⱼ)/η                                   (Platt eq. 16)
  5. L, H ← max(0, αⱼ − αᵢ), min(C, C + αⱼ − αᵢ)   if yᵢ ≠ yⱼ
            max(0, αᵢ + αⱼ − C), min(C, αᵢ + αⱼ)   if yᵢ = yⱼ       (Platt eqs. 13–14)
  6. αⱼ_new ← clip(αⱼ_unc, L, H)                                   (Platt eq. 17)
  7. αᵢ_new ← αᵢ + yᵢyⱼ(αⱼ − αⱼ_new)                               (Platt eq. 18)
     (lines 5–7 are `pair.clip_pair`, shared with the compiled solver; when αⱼ stops at an
     end set by αᵢ's bound, αᵢ is put on that bound exactly)
  8. G ← G + Q[:, i]Δαᵢ + Q[:, j]Δαⱼ
"""

from __future__ import annotations

import numpy as np

from ..finalize import bias_from_gradient, kkt_violation
from ..jit import njit
from .pair import TAU, clip_pair

TRACE_CAP = 5000     # records kept when trace=True (the run itself goes on)
TOP_CANDIDATES = 5   # second-order gains listed per step in the trace


def working_sets(alpha, y, C):
    can_up, can_down = alpha < C, alpha > 0
    I_up = (can_up & (y > 0)) | (can_down & (y < 0))
    I_low = (can_up & (y < 0)) | (can_down & (y > 0))
    return I_up, I_low


def select_pair(Q, y, alpha, G, C, wss, QD):
    """Lines 1–2. Returns (i, j, m, M, why, candidates); j = −1 when there is no violating pair."""
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
    top = np.argsort(-gain)[:TOP_CANDIDATES]
    candidates = [(int(cand[t]), float(gain[t])) for t in top]
    why = (f"second order: i = {i} has the largest −y∇f over I_up ({m:.4g}); among I_low, "
           f"j = {j} gives the largest gain b²/a = {gain[best]:.4g} (m − M = {m - M:.4g})")
    return i, j, m, M, why, candidates


def take_step(Q, y, alpha, G, C, i, j, QD):
    """Lines 3–8 on α and G in place. Returns the step's record (Platt's quantities)."""
    y_i, y_j = y[i], y[j]
    a_i, a_j = alpha[i], alpha[j]
    eta = QD[i] + QD[j] - 2.0 * y_i * y_j * Q[i, j]             # line 3: Kᵢᵢ + Kⱼⱼ − 2Kᵢⱼ
    eta_used = eta if eta > 0 else TAU
    E_i, E_j = y_i * G[i], y_j * G[j]                           # Eₜ − b (b cancels in Eᵢ − Eⱼ)
    aj_unc = a_j + y_j * (E_i - E_j) / eta_used                 # line 4
    L, H, ai_new, aj_new = clip_pair(a_i, a_j, aj_unc, y_i, y_j, C)  # lines 5–7
    d_i, d_j = ai_new - a_i, aj_new - a_j
    alpha[i], alpha[j] = ai_new, aj_new
    G += Q[:, i] * d_i + Q[:, j] * d_j                          # line 8
    return {"i": i, "j": j, "yi": float(y_i), "yj": float(y_j),
            "ai_old": float(a_i), "aj_old": float(a_j), "aj_unclipped": float(aj_unc),
            "ai_new": float(ai_new), "aj_new": float(aj_new), "L": float(L), "H": float(H),
            "eta": float(eta), "Ei": float(E_i), "Ej": float(E_j),
            "clipped": bool(aj_new != aj_unc)}


def smo(Q, y, C, *, tol=1e-3, max_iter=None, wss="second_order", alpha0=None, trace=False):
    """Solve the dual by SMO. Returns dict(alpha, n_iter, converged, trace, status)."""
    n = len(y)
    QD = np.ascontiguousarray(np.diag(Q)).copy()
    alpha = np.zeros(n) if alpha0 is None else np.array(alpha0, dtype=float)
    G = np.full(n, -1.0)
    for j in np.flatnonzero(alpha):     # G = Qα − 1, summed column by column in index order
        G += Q[:, j] * alpha[j]         # as smo_fast does: the same bits, so the same steps
    if max_iter is None:
        max_iter = max(10_000_000, 100 * n)   # LIBSVM's default
    records = [] if trace else None
    truncated = False
    it = 0
    converged = False
    while True:
        i, j, m, M, why, candidates = select_pair(Q, y, alpha, G, C, wss, QD)
        if j < 0 or m - M <= tol:
            converged = True
            break
        if it >= max_iter:
            break
        rec = take_step(Q, y, alpha, G, C, i, j, QD)
        it += 1
        if trace:
            if len(records) < TRACE_CAP:
                b = bias_from_gradient(y * G, alpha, y, C)
                rec.update(it=it, why=why, rule=wss, C=float(C), gap_before=m - M,
                           candidates=candidates, b=b,
                           Ei=rec["Ei"] + b, Ej=rec["Ej"] + b,   # show Platt's Eₜ = h(xₜ) − yₜ
                           dual=float(0.5 * alpha.sum() - 0.5 * alpha @ G),
                           kkt_violation=kkt_violation(G, alpha, y, C, True))
                records.append(rec)
            else:
                truncated = True
    status = ("optimal: m(α) − M(α) ≤ tol" if converged
              else f"stopped at max_iter = {max_iter} with m(α) − M(α) = {m - M:.3g} > tol")
    return {"alpha": alpha, "n_iter": it, "converged": converged, "trace": records,
            "trace_truncated": truncated, "status": status}


def replay(trace, n, alpha0=None):
    """Rebuild α from an SMO trace: apply each step's (αᵢ_new, αⱼ_new) in order."""
    alpha = np.zeros(n) if alpha0 is None else np.array(alpha0, dtype=float)
    for rec in trace:
        alpha[rec["i"]] = rec["ai_new"]
        alpha[rec["j"]] = rec["aj_new"]
    return alpha


def feasible_start(alpha0, y, C):
    """Make a warm-start α feasible: clip to [0, C], then restore Σαᵢyᵢ = 0 by lowering the
    largest αᵢ of the heavier class, largest first, until the sums balance. Lowering few αᵢ
    (after one edit, e.g. a deleted support vector, one or two) keeps the start close to the
    previous optimum and lets `svm_engine.warmstart` update G instead of rebuilding it.
    Compiled: the Playground calls it on every click. Each lowered αᵢ costs a pass over α."""
    return _feasible(np.asarray(alpha0, dtype=float), np.asarray(y, dtype=float), float(C))


@njit(cache=True, nogil=True)
def _feasible(alpha0, y, C):
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
