"""Fast SMO: the algorithm of `smo.py`, compiled with numba, plus LIBSVM's engineering.

Same steps as the readable solver (`smo.py`, which the step trace uses):
* the same working-set rules — i = argmax_{I_up} −yᵢGᵢ, then j by WSS 2 (Fan, Chen & Lin 2005,
  eq. 15) or by the maximal violating pair —, the same τ, the same Platt update with L/H
  clipping (`smo.clip_pair`, compiled) and the same stopping rule m(α) − M(α) ≤ tol;
* the same Newton steps on the free set, after the first 5,000 iterations and then every
  `face.period(n)` (`face.py`: the same compiled `face_step`, on Q_FF built from the cached
  columns; with shrinking, on the active set: see the loop);
* the same floating-point operations in the same order, so that without shrinking the two
  take identical steps (same i, j, α bit for bit; tests/test_smo_fast.py checks it).

What LIBSVM adds, and this file too (Chang & Lin 2011, §4–5; Fan, Chen & Lin 2005):
* kernel columns are computed when a step needs them (`kernel_values.py`) and kept in a
  bounded LRU column cache (`kernel_cache.py`; default 200 MB, as scikit-learn's SVC), never
  as a full n × n matrix;
* shrinking: every min(n, 1000) iterations, bounded αₜ that cannot enter a violating pair
  are removed from the active set; the first time m − M ≤ 10·tol (and again at the end) the
  gradient of the removed ones is rebuilt from Ḡ = Σ_{αⱼ = C} C·Q[:, j] and the free αⱼ, and
  the stopping rule is checked again on all n points;
* warm start: G = Qα − 1 from the columns of the αⱼ ≠ 0 only.

Implementation notes (why it is fast, and still exact):
* the solver keeps F = −y∘G (the quantity both rules compare) and kernel columns K_eff[:, c]
  instead of Q[:, c] = y∘y_c∘K_eff[:, c]; since y = ±1 these are sign changes only, which are
  exact in floating point, so F is bit-identical to −y∘G of `smo.py`;
* the active set is stored compactly (`kernel_cache.Layout`: positions 0..na−1, in
  increasing index order, so ties break as in `smo.py`), which keeps the loops over it
  contiguous.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..jit import njit
from ..kernel_cache import (
    DEFAULT_CACHE_MB,
    NO_COLUMNS,
    Layout,
    PreviousColumns,
    SavedColumns,
    caches_columns,
    column_slots,
    fetch,
    fetch_full,
    kept_columns,
    lru_front,
    lru_unlink,
    new_cache,
    on_active,
)
from ..kernel_values import KernelNumbers, kernel_column, kernel_diag, kernel_eff_column
from . import face as _face
from .clock import past
from .smo import TAU, clip_pair, default_max_iter, smo_result

UP, LOW = 1, 2                           # status bits: t ∈ I_up, t ∈ I_low


# -- what `smo_loop` takes and returns (named tuples: numba passes and builds them as one) --


class LoopProblem(NamedTuple):
    """The dual `smo_loop` solves: min ½αᵀQα − Σα, 0 ≤ α ≤ C, yᵀα = 0, Q = (yyᵀ)∘K_eff."""

    X: np.ndarray           # n × d points (contiguous)
    XT: np.ndarray          # their features × points (contiguous columns of K_eff)
    y: np.ndarray           # labels ±1, as floats
    QD: np.ndarray          # diag Q = K_eff(xᵢ, xᵢ) (`kernel_diag`)
    kp: KernelNumbers       # the kernel
    C: float                # the box (the problem's C_box)


class LoopSettings(NamedTuple):
    """How `smo_loop` runs."""

    tol: float              # stop when m(α) − M(α) ≤ tol
    max_iter: int           # or after this many steps
    mvp: bool               # j by the maximal violating pair (else WSS 2)
    shrinking: bool         # LIBSVM's shrinking (needs Fbar)
    n_slots: int            # kernel columns the cache holds (0: no cache)
    base: int               # iterations between two Newton steps (`face.period`; 0: none)
    first: int              # the first Newton step's (`face.first`)
    deadline: float         # a time.perf_counter() value to stop at (inf: none)


class LoopState(NamedTuple):
    """Where `smo_loop` starts; alpha, F and Fbar are updated in place."""

    alpha: np.ndarray       # α
    F: np.ndarray           # F = −y∘G (or G = Qα − 1 itself when given_G)
    Fbar: np.ndarray        # F̄ = −Σ_{αⱼ=C} C yⱼK_eff[:, j] (empty without shrinking)
    given_G: bool           # F holds G at alpha (a warm start's; shrinking must be off)
    previous: PreviousColumns   # the column cache of the fit before an edit (or NO_COLUMNS)


class LoopResult(NamedTuple):
    """What `smo_loop` returns."""

    n_iter: int             # steps taken
    converged: bool         # m(α) − M(α) ≤ tol on all points
    gap: float              # the last m(α) − M(α)
    G: np.ndarray           # G = Qα − 1 = −y∘F at the end
    columns: SavedColumns   # the column cache, for the next warm start


# -- the two passes of an iteration ------------------------------------------------------


@njit(cache=True, nogil=True)
def _select_up(Fa, sta, na):
    """Line 1 of smo.py: i = first argmax of F = −yG over I_up. Returns (position, m)."""
    best = -np.inf
    pi = -1
    for p in range(na):
        v = Fa[p] if sta[p] & UP else -np.inf
        if v > best:
            best = v
            pi = p
    return pi, best


@njit(cache=True, nogil=True)
def _update(Fa, Ki, Kj, ci, cj, na):
    """Line 8 of smo.py, G ← G + Q[:, i]Δαᵢ + Q[:, j]Δαⱼ, as F. A loop of its own, not
    fused with the next step's line 1: alone it vectorises, and the two passes take ~40 %
    of the fused one's time at n = 1,000."""
    for p in range(na):
        Fa[p] = Fa[p] + (Ki[p] * ci + Kj[p] * cj)


@njit(cache=True, nogil=True)
def _select_low(Fa, sta, QDa, Ki, pi, m, na, mvp):
    """Line 2 of smo.py. Returns (position of j or −1, M = min of F over I_low)."""
    M = np.inf
    pj = -1
    if mvp:
        for p in range(na):
            v = Fa[p] if sta[p] & LOW else np.inf
            if v < M:
                M = v
                pj = p
        return pj, M
    QDi = QDa[pi]
    best = -np.inf
    for p in range(na):
        if sta[p] & LOW:
            f = Fa[p]
            if f < M:
                M = f
            if f < m:
                b = m - f
                a = QDi + QDa[p] - 2.0 * Ki[p]          # Kᵢᵢ + Kₜₜ − 2Kᵢₜ
                if not a > 0:
                    a = TAU
                g = b * b / a
                if g > best:
                    best = g
                    pj = p
    return pj, M


@njit(cache=True, nogil=True)
def _status(a, yt, C):
    s = 0
    if yt > 0:
        if a < C:
            s |= UP
        if a > 0:
            s |= LOW
    else:
        if a > 0:
            s |= UP
        if a < C:
            s |= LOW
    return s


# -- shrinking ---------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def _set_layout(keep, F, y, alpha, QD, XT, C, lay, Fa, sta, QDa, ya):
    """Make `keep` (sorted original indices) the active set: compact copies of F, status,
    diag Q, y and the features; the complement (sorted) becomes the inactive list."""
    act, XTa, inact, XTi = lay.active, lay.XT_active, lay.inactive, lay.XT_inactive
    n, d = len(F), XT.shape[0]
    na = len(keep)
    is_act = np.zeros(n, dtype=np.bool_)
    for p in range(na):
        t = keep[p]
        is_act[t] = True
        act[p] = t
        Fa[p] = F[t]
        sta[p] = _status(alpha[t], y[t], C)
        QDa[p] = QD[t]
        ya[p] = y[t]
        for k in range(d):
            XTa[k, p] = XT[k, t]
    q = 0
    for t in range(n):
        if not is_act[t]:
            inact[q] = t
            for k in range(d):
                XTi[k, q] = XT[k, t]
            q += 1
    return Layout(act, na, XTa, inact, XTi)


@njit(cache=True, nogil=True)
def _statuses(y, alpha, C, sta):
    """The status bits of every point (the identity layout's part of `_set_layout`). A
    function of its own: inlined into `_smo`, its loop cost two atomic reference counts
    per point."""
    for t in range(len(y)):
        sta[t] = _status(alpha[t], y[t], C)


@njit(cache=True, nogil=True)
def _m_and_M(Fa, sta, na):
    """m = max of F over I_up and M = min over I_low, on the active positions."""
    mm, MM = -np.inf, np.inf
    for p in range(na):
        if sta[p] & UP and Fa[p] > mm:
            mm = Fa[p]
        if sta[p] & LOW and Fa[p] < MM:
            MM = Fa[p]
    return mm, MM


@njit(cache=True, nogil=True)
def _shrink(mm, MM, F, y, alpha, QD, XT, C, lay, Fa, sta, QDa, ya):
    """LIBSVM's be_shrunk: the layout without the active points at a bound that cannot
    enter a violating pair while m ≥ mm and M ≤ MM (F of the active set is in F too)."""
    na = lay.na
    keep = np.empty(na, np.int64)
    nk = 0
    for p in range(na):
        s, f = sta[p], Fa[p]
        if s == UP:
            gone = f < MM             # only in I_up: can it still be i?
        elif s == LOW:
            gone = f > mm             # only in I_low: can it still be j?
        else:
            gone = False
        if not gone:
            keep[nk] = lay.active[p]
            nk += 1
    if nk == na:
        return lay
    return _set_layout(keep[:nk].copy(), F, y, alpha, QD, XT, C, lay, Fa, sta, QDa, ya)


@njit(cache=True, nogil=True)
def _reconstruct(F, Fbar, y, alpha, C, lay, kp, X, XT, cache, use_cache, epoch, buf):
    """F of the inactive points from F̄ and the free α (LIBSVM's reconstruct_gradient):
    Fₜ = F̄ₜ + yₜ − Σ_{0<αⱼ<C} αⱼyⱼK_eff(xₜ, xⱼ). Every free αⱼ is active."""
    act, na, inact, XTi = lay.active, lay.na, lay.inactive, lay.XT_inactive
    n = len(F)
    ni = n - na
    if ni == 0:
        return
    for q in range(ni):
        t = inact[q]
        F[t] = Fbar[t] + y[t]
    for p in range(na):
        j = act[p]
        a = alpha[j]
        if a > 0 and a < C:
            coef = -a * y[j]
            if use_cache:
                col = fetch_full(j, buf, lay, kp, X, XT, cache, use_cache, epoch)
                for q in range(ni):
                    t = inact[q]
                    F[t] += coef * col[t]
            else:
                kernel_column(kp, XTi, ni, X[j], buf)
                for q in range(ni):
                    F[inact[q]] += coef * buf[q]


@njit(cache=True, nogil=True)
def _unshrink(F, Fa, Fbar, y, alpha, C, lay, kp, X, XT, cache, use_cache, epoch, buf, QD,
              sta, QDa, ya):
    """Every point active again: F of the active points written back, F of the shrunk
    ones rebuilt (`_reconstruct`), the layout of all n. The caller bumps the cache epoch."""
    act, na = lay.active, lay.na
    for p in range(na):
        F[act[p]] = Fa[p]
    _reconstruct(F, Fbar, y, alpha, C, lay, kp, X, XT, cache, use_cache, epoch, buf)
    return _set_layout(np.arange(len(F)), F, y, alpha, QD, XT, C, lay, Fa, sta, QDa, ya)


@njit(cache=True, nogil=True)
def _newton(Fa, sta, ya, alpha, C, tol, every, lay, kp, X, XT, cache, use_cache, epoch,
            buf, shrinking, Fbar, bufF):
    """`smo.newton_step` on the active set (every free αₜ is active): the face
    (`face.select_face`), Q_FF from its columns, `face.face_step`, then line 8 one column
    at a time in index order. Returns (whether the step was taken, whether there was a
    face to solve, f's change (0 when not taken))."""
    act, na = lay.active, lay.na
    gA = np.empty(na)
    aA = np.empty(na)
    for p in range(na):
        gA[p] = -ya[p] * Fa[p]                       # G = −y∘F
        aA[p] = alpha[act[p]]
    pos = _face.select_face(gA, ya[:na], aA, C, tol)
    k = len(pos)
    if k == 0:
        return False, False, 0.0
    H = np.empty((k, k))
    g = np.empty(k)
    yF = np.empty(k)
    old = np.empty(k)
    for b in range(k):
        pb = pos[b]
        yF[b] = ya[pb]
        g[b] = -ya[pb] * Fa[pb]                      # G = −y∘F
        old[b] = alpha[act[pb]]
        col = fetch(act[pb], pb, buf, lay, kp, X, cache, use_cache, epoch)
        for a in range(k):   # Q = (yyᵀ)∘K_eff, row b for column b: the kernels are
            H[b, a] = (ya[pos[a]] * ya[pb]) * col[pos[a]]   # symmetric to the last bit
    budget = _face.cg_budget(X.shape[0], k, every)
    x, cg, dropped, taken, df = _face.face_step(H, g, yF, old, C, tol, budget)
    if not taken:
        return False, True, 0.0
    for b in range(k):
        d = x[b] - old[b]
        if d == 0.0:
            continue
        pb = pos[b]
        t = act[pb]
        alpha[t] = x[b]
        sta[pb] = _status(x[b], yF[b], C)
        col = fetch(t, pb, buf, lay, kp, X, cache, use_cache, epoch)
        c = -yF[b] * d
        for p in range(na):
            Fa[p] = Fa[p] + col[p] * c
        if shrinking and (not x[b] < C) != (not old[b] < C):   # reached or left C:
            full = fetch_full(t, bufF, lay, kp, X, XT, cache, use_cache, epoch)  # F̄
            cb = -C * yF[b] if not x[b] < C else C * yF[b]               # follows
            for s in range(len(Fbar)):
                Fbar[s] += full[s] * cb
    return True, True, df


@njit(cache=True, nogil=True)
def smo_loop(problem, settings, state):
    """The SMO loop on `problem` (`LoopProblem`), run as `settings` say (`LoopSettings`), from
    `state` (`LoopState`: alpha, F and Fbar are updated in place; with given_G, F holds
    G = Qα − 1 on entry, a warm start's updated gradient; previous: the column cache of the
    fit before an edit, `kernel_cache.PreviousColumns`). Newton steps on the free set every
    `base` iterations (0: none; doubled after one that did less than the pair steps before
    it, `face.next_period`), the first after `first`, as in smo.py. Returns a `LoopResult`."""
    X, XT, y, QD, kp, C = problem
    tol, max_iter, mvp, shrinking, n_slots, base, first, deadline = settings
    alpha, F, Fbar, given_G, previous = state
    n, d = X.shape
    use_cache = n_slots > 0
    cache = new_cache(n, n_slots, previous)
    data, col_slot, slot_full, slot_epoch, prv, nxt = (
        cache.rows, cache.col_slot, cache.slot_full, cache.slot_epoch, cache.prv, cache.nxt)
    bufI, bufJ, bufF, bufN = np.empty(n), np.empty(n), np.empty(n), np.empty(n)
    sta = np.empty(n, np.uint8)
    epoch = 0
    if shrinking:
        Fa, QDa, ya = np.empty(n), np.empty(n), np.empty(n)
        lay = Layout(np.empty(n, np.int64), n, np.empty((d, n)), np.empty(n, np.int64),
                     np.empty((d, n)))
        lay = _set_layout(np.arange(n), F, y, alpha, QD, XT, C, lay, Fa, sta, QDa, ya)
    else:   # the identity layout throughout: F, diag Q, y and the features themselves
        Fa, QDa, ya = F, QD, y
        lay = Layout(np.arange(n), n, XT, np.empty(0, np.int64), np.empty((d, 0)))
        _statuses(y, alpha, C, sta)

    # warm start: F = y − Σ_{αⱼ≠0} αⱼyⱼK_eff[:, j] and F̄ = −Σ_{αⱼ=C} C yⱼK_eff[:, j]
    if given_G:
        for t in range(n):
            F[t] = -y[t] * F[t]
    for j in range(0 if given_G else n):
        if alpha[j] != 0.0:
            col = fetch_full(j, bufF, lay, kp, X, XT, cache, use_cache, epoch)
            coef = -alpha[j] * y[j]
            for t in range(n):
                F[t] += col[t] * coef
            if shrinking and not alpha[j] < C:
                cb = -C * y[j]
                for t in range(n):
                    Fbar[t] += col[t] * cb
    if shrinking:
        for t in range(n):
            Fa[t] = F[t]

    it = 0
    every, due = base, first
    gain = 0.0                               # f's change by the pair steps before it
    converged = False
    unshrunk = False
    counter = min(n, 1000) + 1
    gap = np.inf
    pi, m = _select_up(Fa, sta, lay.na)
    while True:
        na = lay.na
        if shrinking:
            counter -= 1
            if counter == 0:
                counter = min(n, 1000)
                # LIBSVM's do_shrinking, with m and M of the current active set
                mm, MM = _m_and_M(Fa, sta, na)
                for p in range(na):
                    F[lay.active[p]] = Fa[p]
                if not unshrunk and mm - MM <= 10.0 * tol:
                    unshrunk = True
                    lay = _unshrink(F, Fa, Fbar, y, alpha, C, lay, kp, X, XT, cache,
                                    use_cache, epoch, bufF, QD, sta, QDa, ya)
                    epoch += 1
                    na = n
                lay = _shrink(mm, MM, F, y, alpha, QD, XT, C, lay, Fa, sta, QDa, ya)
                na = lay.na
                pi, m = _select_up(Fa, sta, na)
        act = lay.active
        pj, M = -1, np.inf
        if pi >= 0:
            # the common cases here, not in a call: passing the cache to `fetch` costs an
            # atomic reference count per array (~30), more than a linear column, and with
            # shrinking (na < n) about as much as gathering a cached column
            c = act[pi]
            s = col_slot[c] if use_cache else -1
            if s >= 0 and (slot_full[s] or slot_epoch[s] == epoch):   # a cached column,
                lru_unlink(s, prv, nxt)                               # to the LRU front
                lru_front(s, prv, nxt)
                # (the row itself without a call: returning it from on_active made the loop
                # 0.42 → 0.55 s on moons RBF C = 100, n = 5,000)
                Ki = data[s] if na == n else on_active(data[s], act, na, bufI)
            elif not use_cache:                         # no cache: the column computed
                kernel_eff_column(kp, lay.XT_active, na, X[c], pi, bufI)
                Ki = bufI
            else:
                Ki = fetch(c, pi, bufI, lay, kp, X, cache, use_cache, epoch)
            pj, M = _select_low(Fa, sta, QDa, Ki, pi, m, na, mvp)
        gap = m - M
        if pj < 0 or gap <= tol:
            if na == n:
                converged = True
                break
            # optimal on the active set: rebuild F on all points and check again
            lay = _unshrink(F, Fa, Fbar, y, alpha, C, lay, kp, X, XT, cache, use_cache,
                            epoch, bufF, QD, sta, QDa, ya)
            epoch += 1
            pi, m = _select_up(Fa, sta, n)
            # check again on all points at the top of the loop (which takes the step if
            # not optimal), and shrink again right after that step, as LIBSVM does
            counter = 2
            continue
        if it >= max_iter or past(it, deadline):   # deadline: time.perf_counter() value
            break
        if base > 0 and it >= due:           # a Newton step on the free set (smo.py)
            # on the active set only (every free αₜ is in it): the shrunk points are at a
            # bound that pair steps would not move; if they should join the face, or the step
            # makes one violate the KKT conditions, the check on all points at the end (the
            # `_unshrink` above) finds it and the loop goes on. Making every point active
            # again for it cost more than the step itself (moons RBF C = 100, n = 5,000: 4
            # steps, the loop 0.66 s against 0.49 s)
            taken, had_face, df = _newton(Fa, sta, ya, alpha, C, tol, every, lay, kp,
                                          X, XT, cache, use_cache, epoch, bufN,
                                          shrinking, Fbar, bufF)
            every = _face.next_period(base, every, had_face, df, gain)
            due = it + every
            gain = 0.0
            if taken:
                it += 1
                pi, m = _select_up(Fa, sta, na)
                continue
        c = act[pj]
        s = col_slot[c] if use_cache else -1
        if s >= 0 and (slot_full[s] or slot_epoch[s] == epoch):   # as for Ki above
            lru_unlink(s, prv, nxt)
            lru_front(s, prv, nxt)
            Kj = data[s] if na == n else on_active(data[s], act, na, bufJ)
        elif not use_cache:
            kernel_eff_column(kp, lay.XT_active, na, X[c], pj, bufJ)
            Kj = bufJ
        else:
            Kj = fetch(c, pj, bufJ, lay, kp, X, cache, use_cache, epoch)
        # lines 3–7 of smo.py (take_step), in F = −yG: Eᵢ − Eⱼ = Fⱼ − Fᵢ
        i, j = act[pi], act[pj]
        y_i, y_j = ya[pi], ya[pj]
        a_i, a_j = alpha[i], alpha[j]
        # η = Kᵢᵢ + Kⱼⱼ − 2Kᵢⱼ ≥ 0 as in smo.take_step: seed 004's η = 2K₁₂ − K₁₁ − K₂₂ ≤ 0
        # has the opposite sign (its update λ₂ + y₂(E₂ − E₁)/η is line 4 with both flipped)
        eta = QDa[pi] + QDa[pj] - 2.0 * Ki[pj]
        eta_used = eta if eta > 0 else TAU
        E_i, E_j = -Fa[pi], -Fa[pj]
        aj_unc = a_j + y_j * (E_i - E_j) / eta_used
        L, H, ai_new, aj_new = clip_pair(a_i, a_j, aj_unc, y_i, y_j, C)
        d_i, d_j = ai_new - a_i, aj_new - a_j
        if base > 0 and it >= due - every:       # f's change, as smo.take_step
            gain += _face.pair_change(-y_i * Fa[pi], -y_j * Fa[pj], QDa[pi], QDa[pj],
                                      (y_i * y_j) * Ki[pj], d_i, d_j)
        alpha[i], alpha[j] = ai_new, aj_new
        sta[pi] = _status(ai_new, y_i, C)
        sta[pj] = _status(aj_new, y_j, C)
        if shrinking:
            # F̄ follows the αₜ that reach or leave C (LIBSVM's G_bar)
            for t, a_old, a_new in ((i, a_i, ai_new), (j, a_j, aj_new)):
                was, now = not a_old < C, not a_new < C
                if was != now:
                    col = fetch_full(t, bufF, lay, kp, X, XT, cache, use_cache, epoch)
                    cb = -C * y[t] if now else C * y[t]
                    for s in range(n):
                        Fbar[s] += col[s] * cb
        it += 1
        # line 8, then line 1 of the next iteration
        _update(Fa, Ki, Kj, -y_i * d_i, -y_j * d_j, na)
        pi, m = _select_up(Fa, sta, na)

    act, na = lay.active, lay.na
    for p in range(na):
        F[act[p]] = Fa[p]
    if na < n:
        _reconstruct(F, Fbar, y, alpha, C, lay, kp, X, XT, cache, use_cache, epoch, bufF)
    return LoopResult(it, converged, gap, -y * F,
                      SavedColumns(cache.rows, cache.col_slot, cache.slot_full))



def solve(problem, *, tol=1e-3, max_iter=None, wss="second_order", alpha0=None, G0=None,
          columns=None, shrinking=True, cache_mb=DEFAULT_CACHE_MB, use_cache=None,
          newton_steps=True, deadline=np.inf, time_budget=None):
    """SMO on a problem from `build_problem` (lazy or not: only X, y, C and the kernel's
    numbers are used). Returns dict(alpha, n_iter, converged, status, trace=None, G) where
    G = Qα − 1 at the returned α (for `finalize`, so that no n × n product is needed).

    G0: the gradient Qα₀ − 1 at alpha0 when the caller has it (`warmstart.warm_state` updates
    the previous fit's G after an edit): the start then costs O(n), not O(n · #SV) kernel
    values. Shrinking is off then (it needs Ḡ, which would cost the columns again; and a
    warm start is a few steps from the optimum, where shrinking cost more than it saved:
    measured after one edit at n = 1,000, both kernels).

    columns: with G0, the previous fit's kernel columns (`kernel_cache.PreviousColumns`, from
    `warmstart.warm_state`). A column the previous fit computed is then copied, not
    recomputed (most of a warm refit's time with a Gaussian kernel). The result's "columns"
    holds this fit's cache for the next edit (`kernel_cache.SavedColumns`), or None without a
    cache or when it is larger than KEEP_COLUMNS_MB (a warm start's cache is never larger: a
    model holds at most that much; a cold fit's for n ≤ 1,024).

    shrinking=False takes exactly the steps of `smo.smo` (with the same newton_steps: the
    Newton steps on the free set, `face.py`); use_cache=None caches columns unless they are
    cheaper to compute than to copy (linear kernel, few features)."""
    X = np.ascontiguousarray(problem.X, dtype=float)
    XT = problem.XT
    y = np.ascontiguousarray(problem.y, dtype=float)
    n = X.shape[0]
    kp = problem.spec.numbers()
    C = float(problem.C_box)
    alpha = np.zeros(n) if alpha0 is None else np.array(alpha0, dtype=float)
    max_iter = default_max_iter(n) if max_iter is None else max_iter
    if use_cache is None:
        use_cache = caches_columns(problem)
    n_slots = column_slots(n, use_cache, G0 is not None, cache_mb)
    if G0 is None:
        F = y.copy()                           # F = −y∘G, G = Q·0 − 1
    else:
        if alpha0 is None or np.shape(G0) != (n,):
            raise ValueError(f"G0 needs alpha0 and must have shape ({n},)")
        F = np.array(G0, dtype=float)          # smo_loop turns it into −y∘G
        shrinking = False
    warm = G0 is not None and use_cache and columns is not None
    previous = columns if warm else NO_COLUMNS
    Fbar = np.zeros(n if shrinking else 0)    # F̄ is kept only with shrinking
    settings = LoopSettings(float(tol), int(max_iter), wss == "max_violating_pair",
                            bool(shrinking), int(n_slots), *newton_period(n, newton_steps),
                            float(deadline))
    r = smo_loop(LoopProblem(X, XT, y, kernel_diag(kp, X), kp, C), settings,
                 LoopState(alpha, F, Fbar, G0 is not None, previous))
    return smo_result(alpha, r.n_iter, r.converged, r.gap, max_iter, time_budget, G=r.G,
                      columns=kept_columns(r.columns, use_cache))


def newton_period(n: int, newton_steps: bool = True) -> tuple[int, int]:
    """`LoopSettings`' (base, first): iterations between two Newton steps on the free set (0:
    none), and the first one's."""
    return (_face.period(n) if newton_steps else 0), _face.first(n)


__all__ = ["LoopProblem", "LoopResult", "LoopSettings", "LoopState", "newton_period",
           "smo_loop", "solve"]
