"""Fast SMO: the algorithm of `smo.py`, compiled with numba, plus LIBSVM's engineering.

Same steps as the readable solver (`smo.py`, which the step trace uses):
* the same working-set rules — i = argmax_{I_up} −yᵢGᵢ, then j by WSS 2 (Fan, Chen & Lin 2005,
  eq. 15) or by the maximal violating pair —, the same τ, the same Platt update with L/H
  clipping and the same stopping rule m(α) − M(α) ≤ tol;
* the same Newton steps on the free set, after the first 5,000 iterations and then every
  `face.period(n)` (`face.py`: the same compiled `face_step`, on Q_FF built from the cached
  columns; with shrinking, every point is made active again for it);
* the same floating-point operations in the same order, so that without shrinking the two
  take identical steps (same i, j, α bit for bit; tests/test_smo_fast.py checks it).

What LIBSVM adds, and this file too (Chang & Lin 2011, §4–5; Fan, Chen & Lin 2005):
* kernel columns are computed when a step needs them and kept in a bounded LRU column cache
  (default 200 MB, as scikit-learn's SVC), never as a full n × n matrix;
* shrinking: every min(n, 1000) iterations, bounded αₜ that cannot enter a violating pair
  are removed from the active set; the first time m − M ≤ 10·tol (and again at the end) the
  gradient of the removed ones is rebuilt from Ḡ = Σ_{αⱼ = C} C·Q[:, j] and the free αⱼ, and
  the stopping rule is checked again on all n points;
* warm start: G = Qα − 1 from the columns of the αⱼ ≠ 0 only.

Implementation notes (why it is fast, and still exact):
* the solver keeps F = −y∘G (the quantity both rules compare) and kernel columns K_eff[:, c]
  instead of Q[:, c] = y∘y_c∘K_eff[:, c]; since y = ±1 these are sign changes only, which are
  exact in floating point, so F is bit-identical to −y∘G of `smo.py`;
* the active set is stored compactly (positions 0..na−1, in increasing index order, so ties
  break as in `smo.py`), which keeps the loops over it contiguous;
* the Gaussian kernel uses its own exp (Cody–Waite reduction and a degree-13 polynomial,
  within 1 ulp of libm), written so that the column loop vectorises. Every kernel value of
  the engine's matrices (`problem.build_problem`) comes from the same code, so the
  materialised Q of the traced solver and the columns computed here agree to the last bit.
"""

from __future__ import annotations

import numpy as np

from . import face as _face
from .pair import TAU, clip_pair

try:
    from numba import njit, types
    from numba.extending import intrinsic

    NUMBA = True
except ImportError:  # pragma: no cover - numba is in requirements.txt
    NUMBA = False

LINEAR, POLYNOMIAL, GAUSSIAN = 0, 1, 2   # kernel codes (problem.KernelSpec.code)
UP, LOW = 1, 2                           # status bits: t ∈ I_up, t ∈ I_low
DEFAULT_CACHE_MB = 200.0                 # scikit-learn's SVC(cache_size=200)
MAX_DENSE_N = 5000                       # beyond this no n × n matrix is ever formed
KEEP_COLUMNS_MB = 8.0                    # a fit hands on its column cache up to this size

LN2_HI = 6.93147180369123816490e-01     # fdlibm's split of ln 2
LN2_LO = 1.90821492927058770002e-10
LOG2E = 1.44269504088896338700e00
ROUND = 6755399441055744.0               # 1.5·2⁵²: (x + ROUND) − ROUND rounds x to an integer
EXP_MIN = -708.0                         # exp(x) < 3.3e-308 below: returned as 0


if NUMBA:
    _clip_pair = njit(cache=True, nogil=True)(clip_pair)

    @intrinsic
    def _bits_as_float(typingctx, v):
        """Reinterpret an int64 bit pattern as a float64 (no conversion)."""
        sig = types.float64(types.int64)

        def codegen(context, builder, signature, args):
            return builder.bitcast(args[0], context.get_value_type(types.float64))

        return sig, codegen

    @njit(inline="always")
    def _exp(x):
        """exp(x) for x ≤ 0 without a libm call, so that loops over it vectorise."""
        x0 = x
        x = x if x > EXP_MIN else EXP_MIN
        k = (x * LOG2E + ROUND) - ROUND                      # nearest integer to x / ln 2
        r = (x - k * LN2_HI) - k * LN2_LO                    # |r| ≤ ln2 / 2
        # exp(r) = 1 + r + r²·u, u = Σ_{i=2..13} rⁱ⁻²/i! (Taylor) by Estrin's scheme: its
        # products are independent, where Horner's 13 steps wait on each other
        r2 = r * r
        r4 = r2 * r2
        u01 = (1.0 / 2.0 + r * (1.0 / 6.0)) + r2 * (1.0 / 24.0 + r * (1.0 / 120.0))
        u23 = (1.0 / 720.0 + r * (1.0 / 5040.0)) + r2 * (1.0 / 40320.0 + r * (1.0 / 362880.0))
        u45 = ((1.0 / 3628800.0 + r * (1.0 / 39916800.0))
               + r2 * (1.0 / 479001600.0 + r * (1.0 / 6227020800.0)))
        u = u01 + r4 * (u23 + r4 * u45)
        p = 1.0 + (r + r2 * u)
        scale = _bits_as_float((np.int64(k) + 1023) << 52)  # 2^k
        return p * scale if x0 >= EXP_MIN else 0.0

    @njit(inline="always")
    def _poly(s, coef0, degree):
        """(coef0 + s)^degree by repeated products: the same operations wherever a
        polynomial kernel value is made."""
        b = coef0 + s
        r = b
        for _ in range(1, degree):
            r = r * b
        return r

    # -- kernel values ---------------------------------------------------------------------
    # kp = (code, degree, coef0, −γ, augmented, diag): every number the solver needs about
    # the kernel (problem.KernelSpec.numbers()). The two routines below compute the same
    # value with the same operations, one vectorised over a column and one for a single pair.

    @njit(cache=True, nogil=True)
    def _column(kp, XT, na, xc, out):
        """out[p] = K(x_p, x_c) for the first na columns p of XT (features × points), + 1 if
        augmented; without the diagonal term (the caller adds it)."""
        code, degree, coef0, ngamma, aug = kp[0], kp[1], kp[2], kp[3], kp[4]
        d = XT.shape[0]
        for p in range(na):
            out[p] = 0.0
        if code == GAUSSIAN:
            for k in range(d):
                row = XT[k]
                v = xc[k]
                for p in range(na):
                    z = row[p] - v
                    out[p] += z * z
            for p in range(na):
                out[p] = _exp(ngamma * out[p])
        else:
            for k in range(d):
                row = XT[k]
                v = xc[k]
                for p in range(na):
                    out[p] += row[p] * v
            if code == POLYNOMIAL:
                for p in range(na):
                    out[p] = _poly(out[p], coef0, degree)
        if aug:
            for p in range(na):
                out[p] = out[p] + 1.0

    @njit(cache=True, nogil=True, inline="always")
    def _value(kp, A, t, B, c):
        """K(A[t], B[c]) (+ 1 if augmented) for one pair of rows: the same operations as
        `_column` (rows by index, not slices: no array views in a loop over n points)."""
        code, degree, coef0, ngamma, aug = kp[0], kp[1], kp[2], kp[3], kp[4]
        acc = 0.0
        if code == GAUSSIAN:
            for k in range(A.shape[1]):
                z = A[t, k] - B[c, k]
                acc += z * z
            acc = _exp(ngamma * acc)
        else:
            for k in range(A.shape[1]):
                acc += A[t, k] * B[c, k]
            if code == POLYNOMIAL:
                acc = _poly(acc, coef0, degree)
        if aug:
            acc = acc + 1.0
        return acc

    @njit(cache=True, nogil=True)
    def kernel_matrix(kp, X, XT):
        """The n × n matrix of `_column`s (without +1 and diagonal term: problem.py adds them).
        Symmetric to the last bit: each formula is symmetric in its two arguments."""
        n = X.shape[0]
        K = np.empty((n, n))
        kp0 = (kp[0], kp[1], kp[2], kp[3], False, 0.0)
        for c in range(n):
            _column(kp0, XT, n, X[c], K[c])
        return K

    @njit(cache=True, nogil=True)
    def kernel_diag(kp, X):
        """K_eff(x_t, x_t) for every t, diagonal term included (= diag Q): `_value`'s
        operations in `_column`'s loop order (one feature at a time over all points), so
        that the loops vectorise. The Gaussian's is the same number for every t
        (‖x − x‖² = 0): computed once."""
        code, degree, coef0, aug = kp[0], kp[1], kp[2], kp[4]
        n, d = X.shape
        out = np.zeros(n)
        if n and code == GAUSSIAN:
            out[:] = _value(kp, X, 0, X, 0) + kp[5]
            return out
        for k in range(d):
            for t in range(n):
                out[t] += X[t, k] * X[t, k]
        if code == POLYNOMIAL:
            for t in range(n):
                out[t] = _poly(out[t], coef0, degree)
        for t in range(n):
            out[t] = (out[t] + 1.0 if aug else out[t]) + kp[5]
        return out

    @njit(cache=True, nogil=True)
    def kernel_sources_dot(kp, XT, Z, coef, out):
        """out[t] += Σ_s coef_s · K(x_t, z_s) over all points x_t = columns of XT, one column
        per source z_s (a row of Z; it need not be among the points); +1 if augmented, no
        diagonal term. Memory O(n), time O(n · len(Z))."""
        col = np.empty(XT.shape[1])
        for q in range(Z.shape[0]):
            kernel_axpy(kp, XT, Z[q], coef[q], col, out)

    @njit(cache=True, nogil=True)
    def kernel_axpy(kp, XT, z, c, col, out):
        """out[t] += c · K(x_t, z) over all points x_t = columns of XT (+1 if augmented, no
        diagonal term); col is scratch space for the column."""
        _column(kp, XT, XT.shape[1], z, col)
        for t in range(XT.shape[1]):
            out[t] += c * col[t]

    @njit(cache=True, nogil=True)
    def kernel_column(kp, XT, xc, out):
        """out[t] = K(x_t, x_c) over all points x_t = columns of XT (+1 if augmented, no
        diagonal term): `_column` on every point, for the other modules."""
        _column(kp, XT, XT.shape[1], xc, out)

    # -- the column cache -------------------------------------------------------------------
    # Slots hold columns in original index order. A slot is valid on all n points ("full"),
    # or on the active set of the shrinking epoch it was computed in ("partial"): within an
    # epoch the active set only shrinks, so a partial column stays valid until the next
    # gradient reconstruction starts a new epoch. LRU order is a doubly linked list over the
    # slots with a sentinel node (index S).

    @njit(cache=True, nogil=True)
    def _lru_unlink(s, prv, nxt):
        nxt[prv[s]] = nxt[s]
        prv[nxt[s]] = prv[s]

    @njit(cache=True, nogil=True)
    def _lru_front(s, prv, nxt):
        h = len(nxt) - 1
        nxt[s] = nxt[h]
        prv[s] = h
        prv[nxt[h]] = s
        nxt[h] = s

    @njit(cache=True, nogil=True)
    def _slot_for(c, cache):
        """The slot of column c, allocated (evicting the least recently used) if needed;
        returns (slot, hit)."""
        data, slot_col, col_slot, slot_epoch = cache[0], cache[1], cache[2], cache[3]
        slot_full, prv, nxt, meta = cache[4], cache[5], cache[6], cache[7]
        s = col_slot[c]
        if s >= 0:
            _lru_unlink(s, prv, nxt)
            _lru_front(s, prv, nxt)
            return s, True
        S = data.shape[0]
        if meta[0] < S:
            s = meta[0]
            meta[0] += 1
        else:
            s = prv[S]                        # least recently used
            _lru_unlink(s, prv, nxt)
            col_slot[slot_col[s]] = -1
        slot_col[s] = c
        col_slot[c] = s
        slot_full[s] = 0
        slot_epoch[s] = -1
        _lru_front(s, prv, nxt)
        return s, False

    @njit(cache=True, nogil=True)
    def _full_column(c, row, kp, X, XT, cache):
        """row = K_eff[:, c] on all n points, diagonal term included. After an edit
        (warm start) the previous fit's cache (cache[8:11], its first p and last s points
        kept) may hold the column of the same point: then its kept entries are copied — the
        same numbers, computed by the same code — and only the added points' are computed."""
        n = X.shape[0]
        old_data, old_slot, old_full, ends = cache[8], cache[9], cache[10], cache[11]
        p, s, n_old = ends[0], ends[1], len(old_slot)
        c_old = c if c < p else (c - n + n_old if c >= n - s else -1)
        if c_old >= 0 and old_slot[c_old] >= 0 and old_full[old_slot[c_old]]:
            src = old_data[old_slot[c_old]]
            for t in range(p):
                row[t] = src[t]
            for t in range(n - s, n):
                row[t] = src[t - n + n_old]
            for t in range(p, n - s):          # added points (never c: c is kept)
                row[t] = _value(kp, X, t, X, c)
            return
        _column(kp, XT, n, X[c], row)
        if kp[5] != 0.0:
            row[c] = row[c] + kp[5]

    @njit(cache=True, nogil=True)
    def _fetch(c, pc, buf, lay, kp, X, cache, use_cache, epoch):
        """K_eff[:, c] on the active positions 0..na−1 (c is active, at position pc).
        Returns a cache row when the layout is the identity, else `buf`."""
        act, na, XTa = lay[0], lay[1], lay[2]
        n = X.shape[0]
        if use_cache:
            data, slot_full, slot_epoch = cache[0], cache[4], cache[3]
            s, hit = _slot_for(c, cache)
            row = data[s]
            if hit and (slot_full[s] or slot_epoch[s] == epoch):
                if na == n:
                    return row
                for p in range(na):
                    buf[p] = row[act[p]]
                return buf
            if na == n:
                _full_column(c, row, kp, X, XTa, cache)
                slot_full[s] = 1
                return row
            _column(kp, XTa, na, X[c], buf)
            if kp[5] != 0.0:
                buf[pc] = buf[pc] + kp[5]
            for p in range(na):
                row[act[p]] = buf[p]
            slot_full[s] = 0
            slot_epoch[s] = epoch
            return buf
        _column(kp, XTa, na, X[c], buf)
        if kp[5] != 0.0:
            buf[pc] = buf[pc] + kp[5]
        return buf

    @njit(cache=True, nogil=True)
    def _fetch_full(c, buf, lay, kp, X, XT, cache, use_cache, epoch):
        """K_eff[:, c] on all n points (original order): a cache row or `buf`."""
        na, inact, XTi = lay[1], lay[4], lay[5]
        n = X.shape[0]
        ni = n - na
        if use_cache:
            data, slot_full, slot_epoch = cache[0], cache[4], cache[3]
            s, hit = _slot_for(c, cache)
            row = data[s]
            if hit and slot_full[s]:
                return row
            if hit and slot_epoch[s] == epoch:
                # valid on the active set: compute the inactive points only
                _column(kp, XTi, ni, X[c], buf)
                for q in range(ni):
                    row[inact[q]] = buf[q]
            else:
                _full_column(c, row, kp, X, XT, cache)
            slot_full[s] = 1
            return row
        _column(kp, XT, n, X[c], buf)
        if kp[5] != 0.0:
            buf[c] = buf[c] + kp[5]
        return buf

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
        act, XTa, inact, XTi = lay[0], lay[2], lay[4], lay[5]
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
        return (act, na, XTa, lay[3], inact, XTi)

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
        na = lay[1]
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
                keep[nk] = lay[0][p]
                nk += 1
        if nk == na:
            return lay
        return _set_layout(keep[:nk].copy(), F, y, alpha, QD, XT, C, lay, Fa, sta, QDa, ya)

    @njit(cache=True, nogil=True)
    def _reconstruct(F, Fbar, y, alpha, C, lay, kp, X, XT, cache, use_cache, epoch, buf):
        """F of the inactive points from F̄ and the free α (LIBSVM's reconstruct_gradient):
        Fₜ = F̄ₜ + yₜ − Σ_{0<αⱼ<C} αⱼyⱼK_eff(xₜ, xⱼ). Every free αⱼ is active."""
        act, na, inact, XTi = lay[0], lay[1], lay[4], lay[5]
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
                    col = _fetch_full(j, buf, lay, kp, X, XT, cache, use_cache, epoch)
                    for q in range(ni):
                        t = inact[q]
                        F[t] += coef * col[t]
                else:
                    _column(kp, XTi, ni, X[j], buf)
                    for q in range(ni):
                        F[inact[q]] += coef * buf[q]

    @njit(cache=True, nogil=True)
    def _unshrink(F, Fa, Fbar, y, alpha, C, lay, kp, X, XT, cache, use_cache, epoch, buf, QD,
                  sta, QDa, ya):
        """Every point active again: F of the active points written back, F of the shrunk
        ones rebuilt (`_reconstruct`), the layout of all n. The caller bumps the cache epoch."""
        act, na = lay[0], lay[1]
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
        act, na = lay[0], lay[1]
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
            col = _fetch(act[pb], pb, buf, lay, kp, X, cache, use_cache, epoch)
            for a in range(k):
                H[a, b] = (ya[pos[a]] * ya[pb]) * col[pos[a]]   # Q = (yyᵀ)∘K_eff
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
            col = _fetch(t, pb, buf, lay, kp, X, cache, use_cache, epoch)
            c = -yF[b] * d
            for p in range(na):
                Fa[p] = Fa[p] + col[p] * c
            if shrinking and (not x[b] < C) != (not old[b] < C):   # reached or left C:
                full = _fetch_full(t, bufF, lay, kp, X, XT, cache, use_cache, epoch)  # F̄
                cb = -C * yF[b] if not x[b] < C else C * yF[b]               # follows
                for s in range(len(Fbar)):
                    Fbar[s] += full[s] * cb
        return True, True, df

    @njit(cache=True, nogil=True)
    def _smo(X, XT, y, alpha, F, Fbar, QD, kp, C, tol, max_iter, mvp, shrinking, n_slots,
             given_G, previous, base, first):
        """The SMO loop. alpha, F (= −y∘G) and Fbar (empty without shrinking) are updated in
        place; given_G: F holds G = Qα − 1 at alpha on entry (a warm start's updated gradient;
        then shrinking must be off); previous: the column cache of the fit before an edit
        (see `_full_column`); base, first: iterations between two Newton steps on the free
        set (`face.period`; 0: none; doubled after one that did less than the pair steps
        before it, `face.next_period`), and the first one's (`face.first`), as in smo.py.
        Returns (iterations, converged, final m − M, G = −y∘F at the end, (cache rows,
        column → slot, slot full, slots used))."""
        n, d = X.shape
        use_cache = n_slots > 0
        S = max(n_slots, 2) if use_cache else 1
        cache = (np.empty((S, n if use_cache else 1)), np.full(S, -1, np.int64),
                 np.full(n, -1, np.int64), np.full(S, -1, np.int64), np.zeros(S, np.uint8),
                 np.zeros(S + 1, np.int64), np.zeros(S + 1, np.int64), np.zeros(1, np.int64),
                 previous[0], previous[1], previous[2], previous[3])
        data, col_slot, slot_full, prv, nxt = cache[0], cache[2], cache[4], cache[5], cache[6]
        prv[S] = S
        nxt[S] = S
        bufI, bufJ, bufF, bufN = np.empty(n), np.empty(n), np.empty(n), np.empty(n)
        sta = np.empty(n, np.uint8)
        epoch = 0
        if shrinking:
            Fa, QDa, ya = np.empty(n), np.empty(n), np.empty(n)
            lay = (np.empty(n, np.int64), n, np.empty((d, n)), 0, np.empty(n, np.int64),
                   np.empty((d, n)))
            lay = _set_layout(np.arange(n), F, y, alpha, QD, XT, C, lay, Fa, sta, QDa, ya)
        else:   # the identity layout throughout: F, diag Q, y and the features themselves
            Fa, QDa, ya = F, QD, y
            lay = (np.arange(n), n, XT, 0, np.empty(0, np.int64), np.empty((d, 0)))
            _statuses(y, alpha, C, sta)

        # warm start: F = y − Σ_{αⱼ≠0} αⱼyⱼK_eff[:, j] and F̄ = −Σ_{αⱼ=C} C yⱼK_eff[:, j]
        if given_G:
            for t in range(n):
                F[t] = -y[t] * F[t]
        for j in range(0 if given_G else n):
            if alpha[j] != 0.0:
                col = _fetch_full(j, bufF, lay, kp, X, XT, cache, use_cache, epoch)
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
        pi, m = _select_up(Fa, sta, lay[1])
        while True:
            na = lay[1]
            if shrinking:
                counter -= 1
                if counter == 0:
                    counter = min(n, 1000)
                    # LIBSVM's do_shrinking, with m and M of the current active set
                    mm, MM = _m_and_M(Fa, sta, na)
                    for p in range(na):
                        F[lay[0][p]] = Fa[p]
                    if not unshrunk and mm - MM <= 10.0 * tol:
                        unshrunk = True
                        lay = _unshrink(F, Fa, Fbar, y, alpha, C, lay, kp, X, XT, cache,
                                        use_cache, epoch, bufF, QD, sta, QDa, ya)
                        epoch += 1
                        na = n
                    lay = _shrink(mm, MM, F, y, alpha, QD, XT, C, lay, Fa, sta, QDa, ya)
                    na = lay[1]
                    pi, m = _select_up(Fa, sta, na)
            act = lay[0]
            pj, M = -1, np.inf
            if pi >= 0:
                # the two common cases here, not in a call: passing the cache to `_fetch` costs an
                # atomic reference count per array (~30), more than a linear column
                c = act[pi]
                s = col_slot[c] if use_cache and na == n else -1
                if s >= 0 and slot_full[s]:             # a full cached column, to the LRU front
                    _lru_unlink(s, prv, nxt)
                    _lru_front(s, prv, nxt)
                    Ki = data[s]
                elif not use_cache and na == n:             # no cache: the column on all points
                    _column(kp, XT, n, X[c], bufI)
                    if kp[5] != 0.0:
                        bufI[c] = bufI[c] + kp[5]
                    Ki = bufI
                else:
                    Ki = _fetch(c, pi, bufI, lay, kp, X, cache, use_cache, epoch)
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
            if it >= max_iter:
                break
            if base > 0 and it >= due:           # a Newton step on the free set (smo.py)
                relaid = shrinking and na < n
                if relaid:
                    # on all points: the face needs the shrunk ones that should join it,
                    # and after the step (it moves many αₜ) a shrunk point may violate the
                    # KKT conditions (LIBSVM's shrinking assumes pair steps)
                    lay = _unshrink(F, Fa, Fbar, y, alpha, C, lay, kp, X, XT, cache,
                                    use_cache, epoch, bufF, QD, sta, QDa, ya)
                    epoch += 1
                    na = n
                    act = lay[0]
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
                if relaid:                       # not taken: the pair step's i and j
                    pi, m = _select_up(Fa, sta, na)   # again, on all points
                    continue
            c = act[pj]
            s = col_slot[c] if use_cache and na == n else -1
            if s >= 0 and slot_full[s]:                 # as for Ki above
                _lru_unlink(s, prv, nxt)
                _lru_front(s, prv, nxt)
                Kj = data[s]
            elif not use_cache and na == n:
                _column(kp, XT, n, X[c], bufJ)
                if kp[5] != 0.0:
                    bufJ[c] = bufJ[c] + kp[5]
                Kj = bufJ
            else:
                Kj = _fetch(c, pj, bufJ, lay, kp, X, cache, use_cache, epoch)
            # lines 3–7 of smo.py (take_step), in F = −yG: Eᵢ − Eⱼ = Fⱼ − Fᵢ
            i, j = act[pi], act[pj]
            y_i, y_j = ya[pi], ya[pj]
            a_i, a_j = alpha[i], alpha[j]
            eta = QDa[pi] + QDa[pj] - 2.0 * Ki[pj]
            eta_used = eta if eta > 0 else TAU
            E_i, E_j = -Fa[pi], -Fa[pj]
            aj_unc = a_j + y_j * (E_i - E_j) / eta_used
            L, H, ai_new, aj_new = _clip_pair(a_i, a_j, aj_unc, y_i, y_j, C)
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
                        col = _fetch_full(t, bufF, lay, kp, X, XT, cache, use_cache, epoch)
                        cb = -C * y[t] if now else C * y[t]
                        for s in range(n):
                            Fbar[s] += col[s] * cb
            it += 1
            # line 8, then line 1 of the next iteration
            _update(Fa, Ki, Kj, -y_i * d_i, -y_j * d_j, na)
            pi, m = _select_up(Fa, sta, na)

        act, na = lay[0], lay[1]
        for p in range(na):
            F[act[p]] = Fa[p]
        if na < n:
            _reconstruct(F, Fbar, y, alpha, C, lay, kp, X, XT, cache, use_cache, epoch, bufF)
        return it, converged, gap, -y * F, (cache[0], cache[2], cache[4], cache[7][0])


#: `_smo`'s `previous` when there is no earlier fit to copy columns from.
_NO_COLUMNS = (np.empty((0, 0)), np.empty(0, np.int64), np.empty(0, np.uint8),
               np.zeros(2, np.int64))


def cache_slots(n: int, cache_mb: float) -> int:
    """How many kernel columns of n float64 fit in cache_mb megabytes (≥ 2, ≤ n)."""
    return int(min(n, max(2, (cache_mb * 2**20) // (8 * n))))


def solve(problem, *, tol=1e-3, max_iter=None, wss="second_order", alpha0=None, G0=None,
          columns=None, shrinking=True, cache_mb=DEFAULT_CACHE_MB, use_cache=None,
          newton_steps=True):
    """SMO on a problem from `build_problem` (lazy or not: only X, y, C and the kernel's
    numbers are used). Returns dict(alpha, n_iter, converged, status, trace=None, G) where
    G = Qα − 1 at the returned α (for `finalize`, so that no n × n product is needed).

    G0: the gradient Qα₀ − 1 at alpha0 when the caller has it (`warmstart.warm_state` updates
    the previous fit's G after an edit): the start then costs O(n), not O(n · #SV) kernel
    values. Shrinking is off then (it needs Ḡ, which would cost the columns again; and a
    warm start is a few steps from the optimum, where shrinking cost more than it saved:
    measured after one edit at n = 1,000, both kernels).

    columns: with G0, the previous fit's kernel columns (its result's "columns" plus (p, s):
    its first p and last s points are this problem's first p and last s). A column the
    previous fit computed is then copied, not recomputed (most of a warm refit's time with a
    Gaussian kernel). The result's "columns" holds this fit's cache for the next edit, or
    None without a cache or when it is larger than KEEP_COLUMNS_MB (a warm start's cache is
    never larger: a model holds at most that much; a cold fit's for n ≤ 1,024).

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
        F = np.array(G0, dtype=float)          # _smo turns it into −y∘G
        shrinking = False
    previous = previous_columns(columns if G0 is not None and use_cache else None)
    Fbar = np.zeros(n if shrinking else 0)    # F̄ is kept only with shrinking
    it, converged, gap, G, cache = _smo(X, XT, y, alpha, F, Fbar, kernel_diag(kp, X), kp, C,
                                     float(tol), int(max_iter), wss == "max_violating_pair",
                                     bool(shrinking), int(n_slots), G0 is not None, previous,
                                     *newton_period(n, newton_steps))
    return {"alpha": alpha, "n_iter": int(it), "converged": bool(converged), "trace": None,
            "trace_truncated": False, "status": status_text(converged, max_iter, gap), "G": G,
            "columns": kept_columns(cache, use_cache)}


# -- pieces of `solve` that `warmstart.refit` shares --------------------------------------

def newton_period(n: int, newton_steps: bool = True) -> tuple[int, int]:
    """`_smo`'s (base, first): iterations between two Newton steps on the free set (0: none),
    and the first one's."""
    return (_face.period(n) if newton_steps else 0), _face.first(n)


def default_max_iter(n: int) -> int:
    return max(10_000_000, 100 * n)            # LIBSVM's default, as smo.py


def caches_columns(problem) -> bool:
    """Cache kernel columns unless they are cheaper to compute than to copy (linear kernel,
    few features)."""
    return problem.spec.code != LINEAR or problem.X.shape[1] > 16


def column_slots(n: int, use_cache: bool, warm: bool, cache_mb=DEFAULT_CACHE_MB) -> int:
    """Slots of `_smo`'s column cache: cache_mb worth, 0 without a cache. A warm start needs
    few columns: its cache stays small enough to hand on (KEEP_COLUMNS_MB)."""
    if not use_cache:
        return 0
    return cache_slots(n, min(cache_mb, KEEP_COLUMNS_MB) if warm else cache_mb)


def previous_columns(columns) -> tuple:
    """`_smo`'s `previous` from `solve`'s columns argument (rows, column → slot, slot full,
    p, s), or none."""
    if columns is None:
        return _NO_COLUMNS
    rows, col_slot, slot_full, p, s = columns
    return rows, col_slot, slot_full, np.array([p, s], dtype=np.int64)


def kept_columns(cache, use_cache: bool):
    """The column cache a result hands on (see `solve`), or None."""
    rows, col_slot, slot_full, _ = cache
    if use_cache and rows.nbytes <= KEEP_COLUMNS_MB * 2**20:
        return rows, col_slot, slot_full
    return None


def status_text(converged: bool, max_iter: int, gap: float) -> str:
    return ("optimal: m(α) − M(α) ≤ tol" if converged
            else f"stopped at max_iter = {max_iter} with m(α) − M(α) = {gap:.3g} > tol")


def kernel_spec_numbers(code, degree, coef0, gamma, augmented, diag):
    """The tuple the compiled routines take (see problem.KernelSpec.numbers)."""
    return (int(code), int(degree), float(coef0), -float(gamma), bool(augmented), float(diag))


__all__ = ["GAUSSIAN", "LINEAR", "MAX_DENSE_N", "NUMBA", "POLYNOMIAL", "cache_slots",
           "kernel_axpy", "kernel_column", "kernel_diag", "kernel_matrix", "kernel_sources_dot",
           "kernel_spec_numbers", "solve"]
