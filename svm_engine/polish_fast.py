"""`polish._rounds`, compiled: the same active-set steps in one call, for free sets up to
`polish.MAX_FREE` (800).

A warm refit's polish (n = 1,000, 25–31 free SVs, 2–7 rounds) spent its time in the Python
around each round (~25 numpy calls over n, each a few µs), not in the solves: 2.0–5.2 ms of
a 4.7–8.0 ms refit (moons, Gaussian, C = 1, bench_speed.py --only warm; process time, issue
31). Here a round is a few compiled passes over n and |F| kernel columns.

The KKT system is solved by a Cholesky factor of the scaled free block plus the bias row's
outer product (positive definite when the system is regular) and the Schur complement of
the bias row (`_solve_f`), not by LDLᵀ with a condition estimate or least squares. The
factor follows the free set: a point that leaves it is deleted (Givens rotations), one that
joins is appended (one forward sweep), O(m²) a round where a fresh factor is O(m³)
(`_follow`); a fresh factor when an appended pivot is small, the residual fails, or more
points changed than an update saves. Each difference from `polish._rounds` is handed back
to it (FALLBACK: it starts again from the same α): a pivot of a fresh factor below
PIVOT_MIN (the block nearly singular, e.g. more free points on the margin than the feature
space has dimensions), a residual above `_solve`'s bound, or sums whose rounding bound is
above ROUND_OK (`polish.py`).

`_rounds` sums g afresh once when the start's rounding is above STRICT (its stale case,
meant for a start with huge terms); here the sums are kept while their bound stays within
ROUND_OK, half of what the certificate allows: the start's sums were just computed from X
and each round's update is inside the bound, so a fresh sum would be as exact (moons, RBF,
C = 100, n = 5,000: rounding 7.4e-8 at the start, 7.3e-8 tracked at the end, 7.3e-8
afresh; a start above it, or sums grown above it, go to `_rounds`). That fresh sum over the
960 SVs was 17 of the 59 ms of that polish, and the stale start sent it, 26 rounds, to
`_rounds`; compiled it is 7 ms (issue 31). The certificate (`certify.py`) checks whatever
comes out, as it checks `_rounds`'.

The moves of α (each round's, on F and the few αᵢ of W still off their bound) reach g only
where all of g is read, a round at its target (`_flush_g`); a round the box blocks reads
F's residuals alone, those moves added there from the free block (F's rows). mag, the
bound of g's rounding, gains each αᵢ's |Δαᵢ| summed over the rounds times its column's
bound, once, at DONE (`_flush_mag`): the same terms as a round at a time, summed in
another order. Until then the rounds test against a smaller rounding bound, so they only
ask more (a residual, a KKT condition within it holds within the full one); the stale
start's test at DONE is made with the full mag. At n = 1,000 (Gaussian, C = 1, 18–31 free)
the rounds after a warm refit took 42–75 µs against 53–130 with every pass over n a round
(a pass over n for each αᵢ moved, twice, and ~15 others; issue 31)."""

from __future__ import annotations

import math

import numpy as np

from . import kernel_values as kv
from .bounds import threshold_of
from .certify import bound_column, column_and_bound
from .jit import njit

#: a pivot of the unit-diagonal block below this: nearly singular, `_rounds` decides
PIVOT_MIN = 1e-10

DONE, GAVE_UP, FALLBACK = 0, 1, 2


@njit(cache=True, nogil=True)
def _rounding(alpha, mag, b, unit_base, equality, rnd):
    """`certify.rounding` into rnd."""
    n_sv, mag_sv = 0, 0.0
    for i in range(len(alpha)):
        if alpha[i] > 0.0:
            n_sv += 1
            mag_sv = max(mag_sv, mag[i])
    unit = np.finfo(np.float64).eps * (unit_base + 2.0 * n_sv)
    b_rnd = unit * mag_sv if equality else 0.0
    for i in range(len(alpha)):
        rnd[i] = unit * (mag[i] + abs(b) + 1.0) + b_rnd


@njit(cache=True, nogil=True)
def _chol_solve(L, m, rhs, out):
    """out = (LLᵀ)⁻¹ rhs for the leading m × m block of L. (Two triangular sweeps written
    out: numba compiles no triangular solve, and np.linalg.solve would factor L again.)"""
    for i in range(m):
        acc = rhs[i]
        for k in range(i):
            acc -= L[i, k] * out[k]
        out[i] = acc / L[i, i]
    for i in range(m - 1, -1, -1):
        acc = out[i]
        for k in range(i + 1, m):
            acc -= L[k, i] * out[k]
        out[i] = acc / L[i, i]


@njit(cache=True, nogil=True)
def _entry(H, pos, y, fo, Dv, cv, aug, diag, q, p):
    """B[q, p], B = A + ccᵀ (`_solve_f`), for the factor's points fo[q], fo[p]."""
    i, j = fo[q], fo[p]
    v = Dv[q] * Dv[p] * y[i] * y[j] * (H[pos[i], j] + (1.0 if aug else 0.0))
    if q == p:
        v += diag * Dv[q] * Dv[q]
    return v + cv[q] * cv[p]


@njit(cache=True, nogil=True)
def _fresh(L, m, H, pos, y, fo, Dv, cv, aug, diag):
    """L[:m, :m] = the Cholesky factor of B for fo[:m] (LAPACK's dpotrf, numba's
    np.linalg.cholesky: 5.1 against 6.4 µs for a hand loop at m = 32, 100 against 284 µs at
    128); False when B is not safely positive definite (a pivot below PIVOT_MIN)."""
    B = np.empty((m, m))
    for q in range(m):
        for p in range(q + 1):
            B[q, p] = B[p, q] = _entry(H, pos, y, fo, Dv, cv, aug, diag, q, p)
    try:
        Lm = np.linalg.cholesky(B) if m else np.zeros((0, 0))
    except Exception:                            # not positive definite: `_rounds` decides
        return False
    for q in range(m):
        if not Lm[q, q] * Lm[q, q] > PIVOT_MIN:  # the pivot: nearly singular
            return False
        for p in range(q + 1):
            L[q, p] = Lm[q, p]
    return True


@njit(cache=True, nogil=True)
def _append(L, m, H, pos, y, fo, Dv, cv, aug, diag):
    """The factor of fo[:m + 1] from that of fo[:m] (the new point last): its row by one
    forward sweep, O(m²); False when its pivot is below PIVOT_MIN."""
    row = np.empty(m)
    j = fo[m]
    hj, sj, one = pos[j], Dv[m] * y[j], 1.0 if aug else 0.0
    for k in range(m):                           # B's new column (the entries written out:
        i = fo[k]                                # a call an entry cost a third of a round)
        row[k] = sj * Dv[k] * y[i] * (H[hj, i] + one) + cv[m] * cv[k]
    for k in range(m):
        acc = row[k]
        for p in range(k):
            acc -= L[k, p] * row[p]
        row[k] = acc / L[k, k]
    piv = _entry(H, pos, y, fo, Dv, cv, aug, diag, m, m)
    for k in range(m):
        piv -= row[k] * row[k]
        L[m, k] = row[k]
    if not piv > PIVOT_MIN:
        return False
    L[m, m] = math.sqrt(piv)
    return True


@njit(cache=True, nogil=True)
def _delete(L, m, p):
    """The factor of the m − 1 points left when the p-th leaves: its row removed, then the
    rows below made triangular again by Givens rotations of columns (k, k + 1), O((m − p)²);
    orthogonal, so stable, and no pivot shrinks."""
    for i in range(p, m - 1):
        for k in range(i + 2):
            L[i, k] = L[i + 1, k]
    for k in range(p, m - 1):
        x, z = L[k, k], L[k, k + 1]
        h = math.hypot(x, z)
        cs, sn = (x / h, z / h) if h > 0.0 else (1.0, 0.0)
        for i in range(k, m - 1):
            u, w = L[i, k], L[i, k + 1]
            L[i, k] = cs * u + sn * w
            L[i, k + 1] = cs * w - sn * u
        L[k, k + 1] = 0.0


@njit(cache=True, nogil=True)
def _solve_f(L, m, H, pos, y, fo, Dv, cv, aug, diag, rhs, eq, e, dF):
    """`polish._solve` from the factor L of B = A + ccᵀ (module docstring): A = D M D the
    free block scaled to a unit diagonal, c = t·D·y the bias row (t: its largest entry 1).
    (ok, β) with ΔF = D·u in dF (factor order), Δb = t·β; ok False when the residual is
    above `_solve`'s bound. B has the same solutions as A with the bias row (cᵀu = e fixes
    the difference, moved into β) and is positive definite whenever the bordered system is
    regular, as when three free points of a linear kernel in the plane make A singular."""
    z = np.empty(m)
    for q in range(m):
        z[q] = rhs[q] * Dv[q]
    u = np.empty(m)
    _chol_solve(L, m, z, u)
    beta = 0.0
    if eq:   # (A + ccᵀ)u + c(β − e) = z with cᵀu = e: the Schur complement of the bias row
        v = np.empty(m)
        _chol_solve(L, m, cv, v)
        cu = cvv = 0.0
        for q in range(m):
            cu += cv[q] * u[q]
            cvv += cv[q] * v[q]
        if not cvv > 0.0:
            return False, 0.0
        shifted = (cu - e) / cvv
        for q in range(m):
            u[q] -= shifted * v[q]
        beta = shifted + e
    # the residual of the system itself, as `_solve` tests dsysv's answer
    scale = abs(e)
    for q in range(m):
        scale = max(scale, abs(z[q]))
    bound = 1e-9 * max(1.0, scale)
    res_eq = -e
    w = np.empty(m)                              # A u = D y ∘ (K_FF + aug) (D y ∘ u) + diag D² u
    for p in range(m):
        w[p] = Dv[p] * y[fo[p]] * u[p]
    one = 1.0 if aug else 0.0
    for q in range(m):
        hq = pos[fo[q]]
        acc = 0.0
        for p in range(m):
            acc += (H[hq, fo[p]] + one) * w[p]
        acc = Dv[q] * y[fo[q]] * acc + diag * Dv[q] * Dv[q] * u[q] + cv[q] * beta - z[q]
        if not abs(acc) <= bound:
            return False, 0.0
        res_eq += cv[q] * u[q]
    if eq and not abs(res_eq) <= bound:
        return False, 0.0
    for q in range(m):
        dF[q] = Dv[q] * u[q]
        if not math.isfinite(dF[q]):
            return False, 0.0
    return True, beta


@njit(cache=True, nogil=True)
def _scales(H, pos, fo, m, Dv, aug, diag):
    """Dv = the unit-diagonal scaling of fo[:m]'s block; returns t, 1 / max D (the bias
    row's largest entry 1: kernel values of 1e20 and b of 1 in one matrix would lose b)."""
    top = 0.0
    for q in range(m):
        Dv[q] = _unit(H, pos, fo[q], aug, diag)
        top = max(top, Dv[q])
    return 1.0 / top if m else 1.0


@njit(cache=True, nogil=True)
def _unit(H, pos, j, aug, diag):
    """1/√Mⱼⱼ, Mⱼⱼ = k(xⱼ, xⱼ) (+ 1) (+ diag); 1 when it is not positive."""
    d = H[pos[j], j] + (1.0 if aug else 0.0) + diag
    return 1.0 / math.sqrt(d) if d > 0.0 else 1.0


@njit(cache=True, nogil=True)
def _follow(L, mf, F, m, at0, atC, H, pos, y, fo, Dv, cv, infac, t_b, eq, aug, diag):
    """The factor of fo[:mf] brought to the free set F: the points that left deleted, those
    that joined appended; the new size, or −1 when a fresh factor is due (a pivot below
    PIVOT_MIN, a new point whose bias entry would exceed 1, or more changes than a fresh
    factor costs)."""
    changes = 0
    for q in range(mf):
        if at0[fo[q]] or atC[fo[q]]:
            changes += 1
    for q in range(m):
        if infac[F[q]] < 0:
            changes += 1
    if 3 * changes > m:                          # ~m² each: a fresh m³/3 is as cheap
        for q in range(mf):
            infac[fo[q]] = -1
        return -1
    q = 0
    while q < mf:
        j = fo[q]
        if at0[j] or atC[j]:
            _delete(L, mf, q)
            infac[j] = -1
            for p in range(q, mf - 1):
                fo[p], Dv[p], cv[p] = fo[p + 1], Dv[p + 1], cv[p + 1]
                infac[fo[p]] = p
            mf -= 1
        else:
            q += 1
    for q in range(m):
        j = F[q]
        if infac[j] >= 0:
            continue
        fo[mf] = j
        Dv[mf] = _unit(H, pos, j, aug, diag)
        cv[mf] = t_b * Dv[mf] * y[j] if eq else 0.0
        if abs(cv[mf]) > 1.0 or not _append(L, mf, H, pos, y, fo, Dv, cv, aug, diag):
            for p in range(mf):
                infac[fo[p]] = -1
            return -1
        infac[j] = mf
        mf += 1
    return mf


@njit(cache=True, nogil=True)
def _flush_g(g, pend, touched, n_touched, H, pos, y):
    """g += the kept moves pend of the touched αᵢ (their columns in H), pend then 0."""
    for p in range(n_touched):
        i = touched[p]
        c = pend[i] * y[i]
        if c != 0.0:
            hp = pos[i]
            for u in range(len(g)):
                g[u] += c * H[hp, u]
            pend[i] = 0.0


@njit(cache=True, nogil=True)
def _flush_mag(mag, moved, touched, n_touched, H, pos, kp, kp_abs, XT, X, col_abs):
    """mag += each touched αᵢ's total |Δαᵢ| (moved) times its column's rounding bound
    (`certify.bound_column`, from its column kept in H): the sum of the terms each round's
    move adds, added once."""
    n = len(mag)
    for p in range(n_touched):
        i = touched[p]
        w = moved[i]
        if w == 0.0:
            continue
        bound_column(kp, kp_abs, XT, X[i], H[pos[i]], col_abs)
        for u in range(n):
            mag[u] += w * col_abs[u]
        moved[i] = 0.0


@njit(cache=True, nogil=True)
def rounds(kp, kp_abs, XT, X, y, alpha, b, g0, mag0, at0_in, atC_in,
           C, aug, eq, diag, unit_base, max_free, steps, max_work, strict, eq_rtol,
           round_ok, idx0, block0):
    """`polish._rounds` (its docstring) from α, b and the expansion (g0, mag0) with the
    working set (at0_in, atC_in): (code, α, b, g, mag, rounds), code DONE (α, b, g, mag the polished
    point), GAVE_UP (`_rounds` would return None) or FALLBACK (module docstring), and the
    number of systems solved (rounds; bench_speed.py's polish meter counts them). idx0,
    block0: the columns (n × len(idx0)) already at hand, e.g. the free SVs' kept by
    `certify.expansion`. round_ok: the largest rounding bound of the sums kept from the
    start to the end (module docstring)."""
    n = len(y)
    eps = np.finfo(np.float64).eps
    finite = C < math.inf
    a, g, mag = alpha.copy(), g0.copy(), mag0.copy()
    at0, atC = at0_in.copy(), atC_in.copy()
    bb = b if eq else 0.0
    rnd = np.empty(n)
    _rounding(a, mag, bb, unit_base, eq, rnd)
    stale = False
    for i in range(n):
        if rnd[i] > round_ok:
            return FALLBACK, a, bb, g, mag, 0
        stale = stale or rnd[i] > strict
    # the free sets' columns (rows: slots), gathered once per index: the first free set's
    # and one a round at most
    m0 = 0
    for i in range(n):
        if not at0[i] and not atC[i]:
            m0 += 1
    cap = max(1, min(n, min(m0, max_free) + steps))   # the factor: cap² floats
    H = np.empty((cap, n))
    pos = np.full(n, -1, dtype=np.int64)
    used = 0
    used = min(len(idx0), cap)
    for q in range(used):
        pos[idx0[q]] = q
    # by block0's rows, each read once and in order (H's `used` lines being written stay
    # cached): 6 against 15 µs at 16 columns of n = 1,000, 0.44 against 0.57 ms at 298 of
    # 2,000, than by tiles of 64 rows a column at a time
    for t in range(n):
        for q in range(used):
            H[q, t] = block0[t, q]
    col, col_abs = np.empty(n), np.empty(n)
    # the factor of the free block (`_solve_f`), in its own order fo: points that leave F
    # are deleted from it, points that join appended (O(m²) a round, not a fresh O(m³))
    L = np.zeros((cap, cap))
    fo, Dv, cv = np.empty(cap, dtype=np.int64), np.empty(cap), np.zeros(cap)
    infac = np.full(n, -1, dtype=np.int64)
    mf, t_b = -1, 1.0                            # mf < 0: no factor
    rhs_f, dF_f = np.empty(cap), np.empty(cap)
    d = np.zeros(n)                              # the step: nonzero on F and K only
    F, kidx = np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64)
    rhs, v = np.empty(cap), np.empty(n)
    # moves of αᵢ with a column in H, not yet in g (pend) and in mag (moved): g is brought
    # up to date where the whole of it is read (a round that reaches its target), mag once,
    # at DONE (`_flush_g`, `_flush_mag`)
    pend, moved = np.zeros(n), np.zeros(n)
    touched = np.empty(n, dtype=np.int64)
    listed = np.zeros(n, dtype=np.bool_)
    n_touched = 0
    last_off, work, solved = math.inf, 0.0, 0
    for _ in range(steps):
        # one pass: F (not in W), K (the αᵢ of W off their bound: few, if any, known their
        # move there), Σαᵢyᵢ and the largest αᵢ outside F and K (those stay where they are)
        m, n_known, s, ksum, top_out = 0, 0, 0.0, 0.0, 0.0
        for i in range(n):
            s += a[i] * y[i]
            k = 0.0
            if at0[i]:
                k = -a[i]
            elif atC[i]:
                if finite:
                    k = C - a[i]
            else:
                F[m] = i
                m += 1
                continue
            if k != 0.0:
                d[i] = k
                kidx[n_known] = i
                n_known += 1
                ksum += k * y[i]
            else:
                top_out = max(top_out, a[i])
        # `_rounds`' budget counts a fresh solve a round, (m + 1)³; a round on the updated
        # factor is a few sweeps, ~8 (m + 1)² (the first round is always fresh)
        work += (m + 1.0) ** 3 if mf < 0 else 8.0 * (m + 1.0) ** 2
        if m > max_free or (m == 0 and not eq) or work > max_work:
            return GAVE_UP, a, bb, g, mag, solved
        if m > cap:                  # beyond the factor's room: `_rounds`
            return FALLBACK, a, bb, g, mag, solved
        for q in range(m):                       # columns of new free indices
            j = F[q]
            if pos[j] < 0:
                if used >= cap:
                    return FALLBACK, a, bb, g, mag, solved
                kv.kernel_column(kp, XT, n, X[j], H[used])   # (its bound: `_flush_mag`)
                pos[j] = used
                used += 1
        # the target: αᵢ on its bound for i in W, the KKT equations for F (their residuals
        # r with the moves g has not had yet)
        eq_rhs = -ksum - s
        top_M = 0.0
        for q in range(m):
            j = F[q]
            hj = pos[j]
            acc = 0.0
            for p in range(n_touched):
                i = touched[p]
                acc += pend[i] * y[i] * H[pos[i], j]
            r_j = y[j] * (g[j] + acc + (s if aug else 0.0) + bb) + diag * a[j] - 1.0
            acc = ksum if aug else 0.0
            for p in range(n_known):             # Σ_K k(x_j, x_i)·known_i·y_i (symmetry)
                i = kidx[p]
                acc += H[hj, i] * d[i] * y[i]
            rhs[q] = -r_j - y[j] * acc
            top_M = max(top_M, H[hj, j] + (1.0 if aug else 0.0) + diag)
        if mf >= 0:
            mf = _follow(L, mf, F, m, at0, atC, H, pos, y, fo, Dv, cv, infac, t_b, eq, aug,
                         diag)
            if mf != m:                          # (cannot happen: F is what is not in W)
                mf = -1
        ok, db, fresh = False, 0.0, False
        for _attempt in range(2):                # the updated factor, else a fresh one
            if fresh:
                break
            if mf < 0 or _attempt == 1:
                fresh = True
                for q in range(m):
                    fo[q] = F[q]
                    infac[F[q]] = q
                t_b = _scales(H, pos, fo, m, Dv, aug, diag)
                for q in range(m):
                    cv[q] = t_b * Dv[q] * y[fo[q]] if eq else 0.0
                mf = m if _fresh(L, m, H, pos, y, fo, Dv, cv, aug, diag) else -1
                if mf < 0:
                    return FALLBACK, a, bb, g, mag, solved
            for q in range(m):
                rhs_f[infac[F[q]]] = rhs[q]
            ok, beta = _solve_f(L, m, H, pos, y, fo, Dv, cv, aug, diag, rhs_f, eq,
                                t_b * eq_rhs, dF_f)
            if ok:
                db = t_b * beta
                break
        solved += 1
        if not ok:
            return FALLBACK, a, bb, g, mag, solved
        for q in range(m):
            d[F[q]] = dF_f[infac[F[q]]]
        # as far towards the target as the box allows (the ratio test); a + d is a outside
        # F and K, so the largest |αᵢ + dᵢ| is that of F, K or top_out
        top_ad = top_out
        for q in range(m):
            top_ad = max(top_ad, abs(a[F[q]] + d[F[q]]), a[F[q]])
        for p in range(n_known):
            i = kidx[p]
            top_ad = max(top_ad, abs(a[i] + d[i]), a[i])
        tiny = 64 * eps * max(top_ad, 1.0 / max(top_M, 1e-300))
        t, block, block_C = 1.0, -1, False
        for q in range(m):
            j = F[q]
            if d[j] < 0 and a[j] + d[j] < -tiny:
                ratio = a[j] / -d[j]
                if block < 0 or ratio < t:
                    t, block = ratio, j
        if finite:
            best, best_j = math.inf, -1
            for q in range(m):
                j = F[q]
                if not d[j] < 0 and a[j] + d[j] > C + tiny:
                    ratio = (C - a[j]) / d[j]
                    if ratio < best:
                        best, best_j = ratio, j
            if best_j >= 0 and best < t:
                t, block, block_C = best, best_j, True
        # α + t·d on F and K (v); outside them α stays on its bound (0, or C: never below
        # the support threshold)
        top_new = top_out
        for q in range(m):
            j = F[q]
            v[j] = a[j] + t * d[j]
        for p in range(n_known):
            i = kidx[p]
            v[i] = a[i] + t * d[i]
        if block >= 0:
            v[block] = C if block_C else 0.0
            if block_C:
                atC[block] = True
            else:
                at0[block] = True
        else:
            for q in range(m):
                j = F[q]
                v[j] = min(max(v[j], 0.0), C)
            for q in range(m):
                top_new = max(top_new, v[F[q]])
            for p in range(n_known):
                top_new = max(top_new, v[kidx[p]])
            thr = threshold_of(top_new)
            for q in range(m):
                if v[F[q]] <= thr:
                    v[F[q]] = 0.0
            for p in range(n_known):
                if v[kidx[p]] <= thr:
                    v[kidx[p]] = 0.0
        # g and mag after α moved (`polish._moved`): the moves of αᵢ with a column in H are
        # kept (`_flush_g`, `_flush_mag`); the others' columns are computed and added now
        for p in range(m + n_known):
            i = F[p] if p < m else kidx[p - m]
            d[i] = 0.0
            dlt = v[i] - a[i]
            if dlt == 0.0:
                continue
            a[i] = v[i]
            if pos[i] >= 0:
                if not listed[i]:
                    listed[i] = True
                    touched[n_touched] = i
                    n_touched += 1
                pend[i] += dlt
                moved[i] += abs(dlt)
            else:
                column_and_bound(kp, kp_abs, XT, X[i], col, col_abs)
                for u in range(n):
                    g[u] += dlt * y[i] * col[u]
                    mag[u] += abs(dlt) * col_abs[u]
        bb += t * db
        if block >= 0:
            continue
        _flush_g(g, pend, touched, n_touched, H, pos, y)
        # `_rounding`'s numbers (rnd = unit·(mag + |b| + 1) + b_rnd), Σαᵢyᵢ and Σαᵢ
        s, asum, n_sv, mag_sv = 0.0, 0.0, 0, 0.0
        for i in range(n):
            s += a[i] * y[i]
            asum += a[i]
            if a[i] > 0.0:
                n_sv += 1
                mag_sv = max(mag_sv, mag[i])
        unit = eps * (unit_base + 2.0 * n_sv)
        b_rnd = unit * mag_sv if eq else 0.0
        b_abs = abs(bb if eq else s)
        off = 0.0
        for q in range(m):
            j = F[q]
            r_j = y[j] * (g[j] + (s if aug else 0.0) + bb) + diag * a[j] - 1.0
            off = max(off, abs(r_j) / (unit * (mag[j] + b_abs + 1.0) + b_rnd + strict))
        if off > 1.0:                            # refine, unless the last did not halve it
            if off > 0.5 * last_off:
                return GAVE_UP, a, bb, g, mag, solved
            last_off = off
            continue
        last_off = math.inf
        # at the target: does an αᵢ of W want to leave its bound?
        best, best_i = -math.inf, -1
        for i in range(n):
            w = -(unit * (mag[i] + b_abs + 1.0) + b_rnd + strict)
            if at0[i] or atC[i]:
                r_i = y[i] * (g[i] + (s if aug else 0.0) + bb) + diag * a[i] - 1.0
                if at0[i]:
                    w -= r_i
                if atC[i] and finite:
                    w += r_i
            if w > best:
                best, best_i = w, i
        if best <= 0.0:
            if eq and abs(s) > eq_rtol * max(asum, 1e-300):
                return GAVE_UP, a, bb, g, mag, solved
            _flush_mag(mag, moved, touched, n_touched, H, pos, kp, kp_abs, XT, X, col_abs)
            if stale:
                _rounding(a, mag, bb if eq else s, unit_base, eq, rnd)
                for i in range(n):
                    # grown beyond ROUND_OK, or by more than a quarter of the start's terms
                    # (the fresh sum, at least mag0 − that, could then be less than half as
                    # large as the bound kept, and h less exact than reported): `_rounds`
                    # sums afresh
                    if rnd[i] > round_ok or mag[i] - mag0[i] > 0.25 * mag0[i]:
                        return FALLBACK, a, bb, g, mag, solved
            return DONE, a, bb if eq else s, g, mag, solved
        at0[best_i] = False
        atC[best_i] = False
    return GAVE_UP, a, bb, g, mag, solved
