"""Newton steps on the free set: what both SMO solvers add when C is large.

Why. SMO moves two multipliers per step, along a direction eᵢ − yᵢyⱼeⱼ whose curvature is
η = Kᵢᵢ + Kⱼⱼ − 2Kᵢⱼ = ‖φ(xᵢ) − φ(xⱼ)‖². With quadratic loss the dual's Hessian is
Q = (yyᵀ)∘(K + I/(2C)): on a low-rank K (the linear kernel in 2-D has rank 2) it has many
eigenvalues equal to 1/(2C), and the optimum αᵢ = 2Cξᵢ lies O(C) away along those flat
directions — which take ≥ d + 2 multipliers at once to follow. Every pair direction has
η ≈ ‖xᵢ − xⱼ‖², so a step moves α by O(1): on D2 (18 points, linear kernel) at C = 10⁴,
SMO needs 2.5 million steps to reach m(α) − M(α) ≤ 1e-5, and LIBSVM (scikit-learn's SVC on
the same matrix) 1.1–2.4 million: it is the method, not a bug. The hinge loss does the same
when C·K is large (data of scale 10⁴: K ~ 10⁸): bounded αᵢ must travel to C. The Playground
caps SMO at 100,000 + 100n steps, so it stopped there with a wrong line (issue 16, item 4).

What. After 5,000 iterations that have not stopped (`first`; the steps a trace records,
smo.TRACE_CAP, are all Platt's), and then every `period(n)` = max(100, n), one iteration is a
Newton step on a face instead of a pair step: the free multipliers F = {t: 0 < αₜ < C}, and
the ones at a bound whose gradient points into the box (`select_face`), move together, the
others held fixed:

    min_d  ½ dᵀQ_FF d + G_Fᵀd     s.t.  y_Fᵀd = 0,   0 ≤ α_F + d ≤ C

Conjugate gradients projected on y_Fᵀd = 0 (P v = v − y_F(y_Fᵀv)/|F|; Nocedal & Wright,
*Numerical Optimization*, §16.3) solve the face with the box ignored, in few iterations where
Q_FF is a low-rank matrix plus 1/(2C) (the case above). Then, as in a primal–dual active-set
method (Hintermüller, Ito & Kunisch 2002): the αₜ that land outside the box go to the bound
they crossed and leave the face, and the smaller face is solved again (`_rounds`), so that
hundreds of multipliers can leave in one step. The point found is taken if it lowers f
(checked: f(x) − f(a) = (G + ½Q_FF d)ᵀd, exact for a quadratic); if not, or when the face
has no minimum with the box ignored (CG meets a direction of no curvature: a linear kernel's
face with more free points than dimensions, where f falls along it until a bound), the careful
active-set way (`_descent`): CG on the face from α_F, and when a step would leave the box,
α_F moves to the first bound on its way, that αₜ is set exactly on it and leaves the face,
and CG restarts on the smaller face (Moré & Toraldo 1991) — every step lowers f. CG stops
when the projected gradient is below tol/10 on the face (its αₜ then agree to ≪ tol, as
SMO's stopping rule wants). A step that does not lower f is not taken (that iteration is a
pair step). SMO's pair steps then release what should leave a bound, and the next Newton
step solves the new face.

What it may cost: a CG iteration is a |F| × |F| product. `cg_budget` allows about as many as
the pair steps between two Newton steps cost, and the next Newton step comes `period(n)`
iterations later — or twice as late as the last when that one lowered f less than the pair
steps of the period before it did (`next_period`: it cost about as much as they did, so
pair steps do the work better there). A face is at most `MAX_FREE` multipliers (Q_FF is
formed: 32 MB at 2,000).

On D2 at C = 10⁴ this reaches the optimum in 5,201 iterations (5,000 pair steps, then 3 Newton
steps) instead of 2.5 million; benchmarks/bench_smo_newton.py compares the two on generated
data. Problems that SMO solves in fewer than 5,000 steps (the book's examples, and most at
moderate C) are untouched: their steps are Platt's, as before.

`select_face` and `face_step` are compiled once and called by both solvers, `smo.py` (on Q)
and `smo_fast.py` (on kernel columns, the same numbers): both take the same Newton steps to
the last bit. (numba's cache does not notice that this file changed under smo_fast's and
warmstart's compiled code: after editing it, `make clean` (docs/development.md).)

| symbol | code     | meaning                                                       |
|--------|----------|---------------------------------------------------------------|
| F      | (caller) | the face: positions from `select_face`, in increasing order   |
| H      | `H`      | Q_FF = (y_F y_Fᵀ)∘K_eff[F, F]                                 |
| g      | `g`      | G_F = (Qα − 1)_F, the gradient on F                           |
| x      | `x`      | α_F as the step moves it (returned)                           |
| r, p   | `r`, `p` | projected gradient (CG residual) and CG direction             |
"""

from __future__ import annotations

import numpy as np

from ..jit import njit

#: Faces larger than this are not solved (Q_FF would exceed 32 MB); SMO's pair steps go on.
MAX_FREE = 2000
#: The fewest pair steps between two Newton steps.
MIN_PERIOD = 100
#: The first iterations are pair steps only (= smo.TRACE_CAP): every step a trace keeps is
#: Platt's, and the Step-through, which draws pair steps, replays the Playground's run.
PAIR_ONLY = 5000
#: CG iterations of one Newton step (over all its restarts): at most, at least.
MAX_CG = 200
MIN_CG = 4


def period(n: int) -> int:
    """Iterations between two Newton steps on the free set: max(100, n)."""
    return max(MIN_PERIOD, int(n))


def first(n: int) -> int:
    """The iteration of the first Newton step: after PAIR_ONLY pair steps (and at least one
    period). A problem that needs fewer (the book's, at moderate C) never takes one."""
    return max(PAIR_ONLY, period(n))


@njit(cache=True, nogil=True)
def cg_budget(n, k, every):
    """Products with Q_FF for a Newton step on a face of k of n points, taken `every`
    iterations after the last: about what the pair steps between two cost (a product is k²
    multiply-adds, a pair step a few passes over n points: ~3n here, measured), within
    [MIN_CG, MAX_CG]."""
    return max(MIN_CG, min(MAX_CG, (3 * every * n) // (k * k)))


@njit(cache=True, nogil=True)
def select_face(g, y, a, C, tol):
    """The positions of the face, in increasing order: every free αₜ (0 < αₜ < C), and every
    αₜ at a bound that the projected gradient moves into the box by more than tol (at 0:
    rₜ < −tol; at C: rₜ > tol, with rₜ = gₜ − yₜ·(Σ_free y g)/|free|, the gradient step's
    own direction): those αₜ join the free ones at once, where SMO would free them one pair
    step at a time. Empty when fewer than 2 are free, or when more than MAX_FREE are."""
    n = len(a)
    k = 0
    s = 0.0
    for t in range(n):
        if 0.0 < a[t] < C:
            k += 1
            s += y[t] * g[t]
    if k < 2 or k > MAX_FREE:
        return np.empty(0, np.int64)
    s /= k
    out = np.empty(n, np.int64)
    m = 0
    extra = 0
    for t in range(n):
        if 0.0 < a[t] < C:
            out[m] = t
            m += 1
        elif k + extra < MAX_FREE:
            r = g[t] - y[t] * s
            if (a[t] == 0.0 and r < -tol) or (a[t] == C and r > tol):
                out[m] = t
                m += 1
                extra += 1
    return out[:m].copy()


@njit(cache=True, nogil=True)
def _project(v, y, act, m, out):
    """out = P v on the active coordinates (0 elsewhere), P v = v − y (yᵀv)/m."""
    s = 0.0
    for a in range(len(v)):
        if act[a]:
            s += y[a] * v[a]
    s /= m
    for a in range(len(v)):
        out[a] = v[a] - y[a] * s if act[a] else 0.0


@njit(cache=True, nogil=True)
def _matvec(H, v, out):
    """out = H v, column by column (H is symmetric; zero entries of v are skipped): a loop
    without a reduction, so that it vectorises, and the same sums in the same order on every
    call, in every process (BLAS's order may follow its threads), so that a fit in a worker
    and the same fit in the server take the same Newton steps to the bit. Kept for that: numpy's
    H @ v (BLAS, compiled) is only 6–23 % faster at k = 50 … 2,000 (0.78× at 50, 0.94× at
    1,000, 0.91× at 2,000), and 0.6–1.15× under load; benchmarks/bench_numerics.py --only
    matvec."""
    k = len(v)
    for c in range(k):
        out[c] = 0.0
    for e in range(k):
        ve = v[e]
        if ve != 0.0:
            for c in range(k):
                out[c] += H[e, c] * ve


@njit(cache=True, nogil=True, inline="always")
def _residual(g, y, act, m, r, p):
    """CG's start on the face: r = the projected gradient g, p = −r; returns (rᵀr, max |rᵢ|)."""
    _project(g, y, act, m, r)
    rr = 0.0
    big = 0.0
    for c in range(len(r)):
        rr += r[c] * r[c]
        big = max(big, abs(r[c]))
        p[c] = -r[c]
    return rr, big


@njit(cache=True, nogil=True, inline="always")
def _curvature(p, Hp, act):
    """pᵀHp on the face."""
    kap = 0.0
    for c in range(len(p)):
        if act[c]:
            kap += p[c] * Hp[c]
    return kap


@njit(cache=True, nogil=True, inline="always")
def _advance(Hp, y, act, m, t, r, Pv):
    """r += t·P(Hp) after a step t along p; returns the new (rᵀr, max |rᵢ|)."""
    _project(Hp, y, act, m, Pv)
    rr = 0.0
    big = 0.0
    for c in range(len(r)):
        r[c] += t * Pv[c]
        rr += r[c] * r[c]
        big = max(big, abs(r[c]))
    return rr, big


@njit(cache=True, nogil=True, inline="always")
def _conjugate(r, p, beta):
    """p = −r + βp, the next conjugate direction."""
    for c in range(len(p)):
        p[c] = -r[c] + beta * p[c]


@njit(cache=True, nogil=True)
def _cg(H, gr, y, act, m, stop, budget, d, Hd, r, p, Hp, Pv):
    """Projected CG on the face `act` from d = 0, box ignored: d ≈ argmin ½dᵀHd + grᵀd with
    yᵀd = 0. Fills d and Hd; returns (the iterations used (≤ budget), whether it stopped on a
    direction of no curvature with the residual above stop: along it f falls without end, the
    face has no minimum with the box ignored — more free points than a linear kernel's face
    has dimensions — and the box decides, `_descent`).
    (Written here: it runs inside the compiled SMO loop, where scipy's cg cannot be called,
    and stops at the step's budget of products (`cg_budget`). On the faces it is for (low rank
    plus I/(2C): linear kernel, C = 10⁴) it takes 3 iterations: 3–40× faster than LAPACK's
    exact solve of the face's KKT system (k = 50: 8 against 23 µs; k = 2,000: 9.9 against
    400 ms) and 1.6–13× faster than scipy.sparse.linalg.cg. On a dense Gaussian face it
    reaches MAX_CG unconverged, where the exact solve is faster at k ≤ 200 (23 against 209 µs
    at k = 50); there the budget bounds CG's cost, which LAPACK's k³/3 would not: a step's 12
    products (n = 2k) take 13 µs … 20 ms at k = 50 … 2,000, the exact solve 24 µs … 0.25–0.5 s.
    benchmarks/bench_numerics.py --only cg, under load.)"""
    k = len(gr)
    for c in range(k):
        d[c] = 0.0
        Hd[c] = 0.0
    rr, big = _residual(gr, y, act, m, r, p)
    used = 0
    while big > stop and used < budget:
        used += 1
        _matvec(H, p, Hp)
        kap = _curvature(p, Hp, act)
        if not kap > 0.0:                    # no curvature left along p: stop here
            return used, True
        t = rr / kap
        for c in range(k):
            d[c] += t * p[c]
            Hd[c] += t * Hp[c]
        rr_new, big = _advance(Hp, y, act, m, t, r, Pv)
        _conjugate(r, p, rr_new / rr)
        rr = rr_new
    return used, False


@njit(cache=True, nogil=True)
def _rounds(H, g, y, a, C, stop, budget, w):
    """The bulk part of the step (a primal–dual active-set method, Hintermüller, Ito &
    Kunisch 2002): solve the face with the box ignored (`_cg`); the αₜ that land outside the
    box are put on the bound they crossed and leave the face; solve the smaller face again.
    Returns (the point found, inside the box, or None; products used)."""
    k = len(a)
    d, Hd, r, p, Hp, Pv, x, gr = w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]
    act = np.ones(k, dtype=np.bool_)
    m = k
    c0 = 0.0
    for c in range(k):
        c0 += y[c] * a[c]
        x[c] = a[c]
    used = 0
    for _ in range(8):
        e = c0                               # Σ yₜxₜ = Σ yₜaₜ again: shift the face along y
        for c in range(k):
            e -= y[c] * x[c]
        for c in range(k):
            if act[c]:
                x[c] += y[c] * e / m
        for c in range(k):
            d[c] = x[c] - a[c]
        _matvec(H, d, Hp)
        used += 1
        for c in range(k):
            gr[c] = g[c] + Hp[c]
        more, flat = _cg(H, gr, y, act, m, stop, budget - used, d, Hd, r, p, Hp, Pv)
        used += more
        if flat:                             # no minimum on the face: `_descent` follows
            break                            # that direction to the box
        out = 0
        for c in range(k):
            if act[c]:
                x[c] += d[c]
                if x[c] < 0.0 or x[c] > C:
                    x[c] = 0.0 if x[c] < 0.0 else C
                    act[c] = False
                    out += 1
        m -= out
        if out == 0:
            return True, used
        if m < 1 or used >= budget:
            break
    return False, used


@njit(cache=True, nogil=True)
def _descent(H, g, y, a, C, stop, budget, w):
    """The careful part: CG on the face from a, and when a step would leave the box, α moves
    to the first bound on its way, that αₜ is set exactly on it and leaves the face, and CG
    restarts on the smaller face. Every step lowers f (in exact arithmetic). Fills x = w[6]
    and the gradient there gr = w[7]; returns (products used, αₜ put on a bound)."""
    k = len(a)
    r, p, Hp, Pv, x, gr = w[2], w[3], w[4], w[5], w[6], w[7]
    for c in range(k):
        x[c] = a[c]
        gr[c] = g[c]
    act = np.ones(k, dtype=np.bool_)
    m = k
    used = 0
    dropped = 0
    while m >= 2 and used < budget:
        rr, big = _residual(gr, y, act, m, r, p)
        if big <= stop:
            break
        blocked = -1
        while used < budget:
            used += 1
            _matvec(H, p, Hp)
            kap = _curvature(p, Hp, act)
            tmax = np.inf                    # the longest step that stays in the box
            for c in range(k):
                if act[c] and p[c] != 0.0:
                    tb = -x[c] / p[c] if p[c] < 0.0 else (C - x[c]) / p[c]
                    if tb < tmax:
                        tmax = tb
                        blocked = c
            t = rr / kap if kap > 0.0 else np.inf
            if t < tmax:
                blocked = -1
            else:
                t = tmax
            if t == np.inf:                  # no curvature and no bound: nothing to do
                return used, dropped
            for c in range(k):
                if act[c]:
                    x[c] = min(max(x[c] + t * p[c], 0.0), C)
                gr[c] += t * Hp[c]
            if blocked >= 0:
                break
            rr_new, big = _advance(Hp, y, act, m, t, r, Pv)
            if big <= stop:
                break
            _conjugate(r, p, rr_new / rr)
            rr = rr_new
        if blocked < 0:
            break
        x[blocked] = 0.0 if p[blocked] < 0.0 else C   # exactly on its bound, off the face
        act[blocked] = False
        m -= 1
        dropped += 1
    return used, dropped


@njit(cache=True, nogil=True)
def _change(H, g, a, x, Hd):
    """f(x) − f(a) = (g + ½H(x − a))ᵀ(x − a), and whether x ≠ a; Hd is scratch."""
    k = len(a)
    d = np.empty(k)
    moved = False
    for c in range(k):
        d[c] = x[c] - a[c]
        moved = moved or d[c] != 0.0
    _matvec(H, d, Hd)
    df = 0.0
    for c in range(k):
        df += (g[c] + 0.5 * Hd[c]) * d[c]
    return df, moved


@njit(cache=True, nogil=True)
def _restore_sum(x, a, y, C):
    """Σ yₜxₜ = Σ yₜaₜ again, to rounding: CG's sums and the αₜ put on bounds leave a residue
    (relative ~1e-11 when Q_FF's entries span decades). It is spread over the αₜ strictly
    inside the box (as `_rounds` does)."""
    k = len(x)
    e = 0.0
    m = 0
    for c in range(k):
        e += y[c] * (a[c] - x[c])
        if 0.0 < x[c] < C:
            m += 1
    if m == 0 or e == 0.0:
        return
    for c in range(k):
        if 0.0 < x[c] < C:
            x[c] = min(max(x[c] + y[c] * e / m, 0.0), C)


@njit(cache=True, nogil=True)
def face_step(H, g, y, a, C, tol, max_cg):
    """The Newton step on the face (module docstring) from α_F = a, gradient g, within
    max_cg products with H: `_rounds` (many αₜ leave the face at once), kept if it lowers f;
    else `_descent` (one at a time, always lowering f). Returns (x, products used, αₜ put on
    a bound, whether the step was taken, f(x) − f(a)); x = a (and 0) when it was not."""
    k = len(a)
    w = np.empty((8, k))
    stop = 0.1 * tol
    inside, used = _rounds(H, g, y, a, C, stop, max_cg, w)
    if inside:
        _restore_sum(w[6], a, y, C)
        df, moved = _change(H, g, a, w[6], w[0])
        if moved and df < 0.0:
            bounded = 0
            for c in range(k):
                if w[6, c] == 0.0 or w[6, c] == C:
                    bounded += 1
            return w[6].copy(), used + 1, bounded, True, df
    used2, dropped = _descent(H, g, y, a, C, stop, max(max_cg - used, MIN_CG), w)
    _restore_sum(w[6], a, y, C)
    df, moved = _change(H, g, a, w[6], w[0])
    if not moved or not df < 0.0:
        return a.copy(), used + used2, dropped, False, 0.0
    return w[6].copy(), used + used2, dropped, True, df


@njit(cache=True, nogil=True)
def pair_change(g_i, g_j, q_ii, q_jj, q_ij, d_i, d_j):
    """The change of f made by a pair step (dᵢ, dⱼ) from a point with gradient (gᵢ, gⱼ)
    (exact for a quadratic): both solvers add these up between two Newton steps, to see
    whether the next Newton step did more than the pair steps before it."""
    return g_i * d_i + g_j * d_j + 0.5 * (q_ii * d_i * d_i + q_jj * d_j * d_j) + q_ij * d_i * d_j


@njit(cache=True, nogil=True)
def next_period(base, every, had_face, df, gain):
    """Iterations to the Newton step after this one: `base` again when it did at least as
    much as the `every` pair steps before it (df ≤ gain, both changes of f, ≤ 0) or when
    there was no face to solve (it cost nothing); twice as many as the last time otherwise
    (it cost about what they cost, and did less: pair steps do the work)."""
    if not had_face or (df < 0.0 and df <= gain):
        return base
    return 2 * every
