"""A warm refit's SMO steps on the points that can move (the linear kernel): LIBSVM's
shrinking, decided once at the start from the previous optimum, with the rest updated from Δw.

After one edit, only the points near the margin take part in SMO's steps: a point far
outside it (αᵢ = 0, yᵢh(xᵢ) well above 1) or far inside it (αᵢ = C, well below 1) stays on
its bound. `working_set` keeps the free points, the added ones and every point within BAND of
the margin; SMO then runs on those (`subset_run`: a step is O(|A|), not O(n)) with the others'
α fixed, so Σαᵢyᵢ stays as it was. With the linear kernel the others' gradient follows in one
pass, Gₜ += yₜ xₜ·Δw with Δw = Σⱼ Δⱼyⱼxⱼ over the points that moved,
and the gap m(α) − M(α) is then taken over all n points: SMO's "converged" means the same as
on a full run. When a point outside the set became a violator, the caller
(`warmstart._solve_warm`) goes on from there on all points.

Why: after an edit near the boundary SMO's pair steps zigzag among a few points (blobs,
linear, n = 1,000: 72 steps among 8 points, 5 of which changed), each step a pass over all n
points; on the ~70–140 points of the working set a step costs a tenth of that.

| symbol | code    | meaning                                                        |
|--------|---------|----------------------------------------------------------------|
| A      | `idx`   | the working set (indices, increasing)                          |
| G      | `G`     | ∇f(α) = Qα − 1 (smo.py's G; F = −y∘G in smo_fast)              |
| b      | `b`     | the bias the previous optimum implies: F of its free points    |
| Δw     | `dw`    | w's change, Σⱼ Δαⱼyⱼxⱼ over A                                   |
"""

from __future__ import annotations

import numpy as np

from .bounds import is_at_C
from .jit import njit
from .kernel_cache import PreviousColumns
from .kernel_values import LINEAR, kernel_diag
from .solvers.smo_fast import LoopProblem, LoopSettings, LoopState, _m_and_M, _statuses, smo_loop

#: A bound point stays out when its margin yᵢh(xᵢ) is at least BAND beyond 1 on its side.
#: (The 20 edits of bench_speed.py's warm part, linear: 0.5 kept 67–150 of 1,000 points on
#: blobs and the gap held on all points after all but one edit; see tests.)
BAND = 0.5
#: Used only when the working set holds at most this share of the points (else all points).
MAX_SHARE = 0.5
#: Nor below this many points: a pass over all of them is as cheap as the gathering.
MIN_N = 200
#: The refinement past tol on the working set: at most this many point-steps (|A| × steps),
#: 8× a run on all points' (`warmstart.REFINE_WORK`), at most 1,024 steps. When it fails, the
#: polish follows, and a linear kernel's polish with more free points on the margin than the
#: plane has dimensions is `polish._rounds` in numpy: 2.4 ms where the working set's 640
#: steps took ~0.5 ms (moons, linear, C = 1, n = 1,000, a support vector moved: a start
#: where SMO zigzags; the other 9 linear edits of bench_speed.py's warm part needed 0–26).
REFINE_WORK = 256_000
MAX_REFINE = 1024
#: Newton steps on the free set (`face.py`) every NEWTON_EVERY steps on the working set, the
#: first after as many (a cold fit's first comes after 5,000 pair steps, so that a trace shows
#: Platt's steps; a warm run keeps no trace). The pair steps zigzag on a linear kernel's
#: degenerate face. Every 20 steps, the bench's 10 linear edits at n = 1,000 took 0–81 steps
#: to tol and 0–21 more to refine_tol (one: 621 more, moons, a support vector moved, where the
#: face step landed short of the box: `face._cg`); every 10, with REFINE_FIRST and that face
#: step mended, 0–31 in all. On 90 edits (n = 500, 1,000, 2,000, bench_speed's edits with 3
#: seeds): 3,283 → 1,957 steps, the worst 521 → 254, the median 21 → 11 (issue 31).
NEWTON_EVERY = 10
#: The refinement past tol takes its first Newton step at once: at tol the free set is as a
#: rule the optimum's, and the step lands there (the bench's linear edits: 0–1 steps where
#: the pair steps took 5–21).
REFINE_FIRST = 0


@njit(cache=True, nogil=True)
def applies(kp, n_slots, n) -> bool:
    """The working set is for the linear kernel without a column cache (the others' gradient
    needs Δw) and the free bias (SMO's), from MIN_N points."""
    return kp.code == LINEAR and not kp.augmented and n_slots == 0 and n >= MIN_N


@njit(cache=True, nogil=True)
def refine_budget(na):
    """Steps of the refinement past tol on a working set of na points (REFINE_WORK)."""
    return min(MAX_REFINE, max(32, REFINE_WORK // max(na, 1)))


@njit(cache=True, nogil=True)
def working_set(alpha, G, y, C, p, s):
    """A: the free points, the added ones (rows p … n − s − 1) and the bound points within BAND
    of the margin, yᵢh(xᵢ) − 1 = yᵢ(b − Fᵢ) with F = −y∘G and b the mean F of the free points
    (the midpoint of m and M when none is free)."""
    n = len(alpha)
    total, count = 0.0, 0
    for t in range(n):
        if alpha[t] > 0.0 and not is_at_C(alpha[t], C):
            total += -y[t] * G[t]
            count += 1
    if count > 0:
        b = total / count
    else:
        mm, MM = _m_and_M_all(alpha, G, y, C)
        b = 0.5 * (mm + MM)
    keep = np.empty(n, dtype=np.int64)
    na = 0
    for t in range(n):
        a = alpha[t]
        v = y[t] * (b + y[t] * G[t])          # yₜh(xₜ) − 1 = yₜ(b − Fₜ)
        if p <= t < n - s:
            take = True
        elif a <= 0.0:
            take = v < BAND
        elif is_at_C(a, C):
            take = v > -BAND
        else:
            take = True
        if take:
            keep[na] = t
            na += 1
    return keep[:na]


@njit(cache=True, nogil=True)
def subset_run(kp, X, y, C, alpha, G, idx, settings):
    """SMO (`smo_loop`, settings as given) on the points idx from (α, G), the others' α
    fixed; then G on the others from Δw and the gap over all points. α and G are updated in
    place (G: all of it, G = Qα − 1 at the new α). Returns (steps, the gap m − M on all
    points, the run on idx converged)."""
    n, d = X.shape
    na = len(idx)
    XA = np.empty((na, d))
    yA, aA, GA = np.empty(na), np.empty(na), np.empty(na)
    for k in range(na):
        t = idx[k]
        for c in range(d):
            XA[k, c] = X[t, c]
        yA[k], aA[k], GA[k] = y[t], alpha[t], G[t]
    XTA = np.ascontiguousarray(XA.T)
    none = PreviousColumns(np.empty((0, 0)), np.empty(0, np.int64), np.empty(0, np.uint8),
                           np.zeros(2, np.int64))
    run = smo_loop(LoopProblem(XA, XTA, yA, kernel_diag(kp, XA), kp, C), settings,
                   LoopState(aA, GA, np.zeros(0), True, none))
    dw = np.zeros(d)
    inside = np.zeros(n, dtype=np.bool_)
    for k in range(na):
        t = idx[k]
        inside[t] = True
        delta = aA[k] - alpha[t]
        if delta != 0.0:
            c_t = delta * y[t]
            for c in range(d):
                dw[c] += c_t * X[t, c]
        alpha[t] = aA[k]
        G[t] = run.G[k]
    for t in range(n):
        if not inside[t]:                   # Gₜ += yₜ Σⱼ Δⱼyⱼ K_eff(xₜ, xⱼ), tⱼ ≠ t
            acc = 0.0
            for c in range(d):
                acc += X[t, c] * dw[c]
            G[t] += y[t] * acc
    mm, MM = _m_and_M_all(alpha, G, y, C)
    return run.n_iter, mm - MM, run.converged


@njit(cache=True, nogil=True)
def _m_and_M_all(alpha, G, y, C):
    """SMO's m and M (`smo_fast._m_and_M`, its statuses `_statuses`) over all points."""
    n = len(y)
    sta = np.empty(n, np.uint8)
    _statuses(y, alpha, C, sta)
    return _m_and_M(-y * G, sta, n)


@njit(cache=True, nogil=True)
def subset_settings(settings, tol, max_iter, first=NEWTON_EVERY) -> LoopSettings:
    """settings for `subset_run` with this tol and max_iter (no cache, no shrinking, Newton
    steps every NEWTON_EVERY, the first after `first` steps)."""
    s = settings
    return LoopSettings(tol, max_iter, s.mvp, False, 0, NEWTON_EVERY, first, s.deadline)


__all__ = ["BAND", "MAX_REFINE", "MAX_SHARE", "MIN_N", "NEWTON_EVERY", "REFINE_FIRST",
           "REFINE_WORK", "applies", "refine_budget", "subset_run", "subset_settings",
           "working_set"]
