"""Polish: from a solver's α, the exact optimum on its support vectors (every solver but psvm).

A solver stops near the optimum (SMO at m(α) − M(α) ≤ tol, SGA at ‖α_t − α_t−1‖ ≤ ε, ...):
its α is right to a few digits, but b, ξ and the objectives carry its tolerance, and two
solvers (or two pages at two tolerances) print different digits. Near the optimum the solver
has, as a rule, already found *which* points are support vectors and which of them are at C.
On that active set the KKT conditions are linear equations, solved here exactly:

    free SVs F (0 < αᵢ < C):  Σⱼ Qᵢⱼαⱼ + yᵢb = 1   (yᵢh(xᵢ) = 1; + αᵢ/(2C) for quadratic loss)
    Σᵢ αᵢyᵢ = 0 (free bias; the augmented bias has no b here: it is Σαᵢyᵢ, inside Q)
    αᵢ = C on the bound SVs B, αᵢ = 0 elsewhere.

Solved as a correction of the solver's α (least squares when the system is singular, e.g. more
points on the margin than the feature space has dimensions: D1, where α is not unique, keeps
the solver's α as far as it can). When the guess was wrong, a primal active-set method
(`_rounds`) moves the working set one index at a time from there. The answer is accepted only
when it is feasible and every point meets its KKT condition to rounding; otherwise the
solver's α is kept. Either way `fit` recomputes everything from X for the certificate
(`certify.py`), which has the last word.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
import scipy.linalg.lapack as _lapack

from . import polish_fast as _fast
from .bounds import at_C_mask
from .certify import (
    EPS,
    EQ_RTOL,
    GAUSSIAN_ABS_MARGIN,
    TOL,
    Columns,
    Expansion,
    _abs_numbers,
    _kernel_numbers,
    expansion,
    round_base,
    rounding,
)
from .finalize import support_threshold
from .jit import JIT
from .kernel_values import GAUSSIAN

STEPS = 40              # working-set changes (one index each) before giving up
MAX_FREE = 800          # larger active sets: SMO goes on instead (`api.fit`)
MAX_FREE_QUADRATIC = 300  # quadratic loss (K + I/(2C): SMO converges fast): SMO beyond this
MAX_WORK = 5e8          # Σ (|F| + 1)³ over the steps: ~0.1 s of solves at most
STRICT = 1e-3 * TOL     # a polished α meets every KKT condition this closely (plus rounding)
NEAR = 1e-3             # the second try: αᵢ ≤ NEAR·max α at 0, αᵢ ≥ (1 − NEAR)·C at C
LSTSQ_MAX = 64          # up to this size: tested for singularity (then least squares)
ROUND_OK = 0.5 * TOL    # the compiled rounds keep sums whose rounding bound stays within it


class Polished(NamedTuple):
    """The exact KKT point `polish` found: its α, b and kernel expansion (g, mag)."""

    alpha: np.ndarray
    b: float
    expansion: Expansion


def polish(problem, alpha: np.ndarray, b: float, ex: Expansion,
           columns: Columns) -> Polished | None:
    """The exact KKT point from the solver's active set (`Polished`: α, b, Expansion), or
    None. Tried twice: with the active set α says, then (if that fails) with the αᵢ within
    NEAR of a bound put on it (a solver stopped at tol 1e-3 can leave an αᵢ of 1e-3·max α
    that belongs at 0)."""
    C = float(problem.C_box)
    at0 = alpha == 0.0
    atC = at_C_mask(alpha, C)
    done = _rounds(problem, alpha, b, ex, columns, at0, atC)
    if done is None:
        top = float(alpha.max(initial=0.0))
        near0, nearC = alpha <= NEAR * top, (alpha >= C * (1 - NEAR)) & ~at0
        if (near0 & ~at0).any() or (nearC & ~atC).any():
            done = _rounds(problem, alpha, b, ex, columns, near0, nearC)
    return done


def _rounds(problem, alpha, b, ex, columns, at0, atC):
    """A primal active-set method from α (Nocedal & Wright, Algorithm 16.3) on the dual,
    minimise ½αᵀQα − Σα over 0 ≤ α ≤ C (and Σαᵢyᵢ = 0). The working set W (at0, atC) holds
    the αᵢ fixed on a bound; each step solves the KKT equations with W fixed (the target);
    if the target leaves the box, α moves towards it as far as the box allows and the αᵢ
    that blocks joins W; at the target, the αᵢ of W whose point violates its condition (at 0
    inside its margin, at C beyond it) that violates it most leaves W. α stays feasible; W
    changes by one index a step, so it cannot cycle as a wholesale swap can. Compiled
    (`polish_fast.rounds`, its factor updated as F changes) up to MAX_FREE; from
    the start again here when it hands the problem back (a singular block, a failed
    residual)."""
    if JIT:
        free = np.flatnonzero(~at0 & ~atC)
        if len(free) <= MAX_FREE:
            code, a, bb, g, mag, _ = _compiled(problem, alpha, b, ex, columns, at0, atC, free)
            if code == _fast.DONE:
                return Polished(a, bb, Expansion(g, mag))
            if code == _fast.GAVE_UP:
                return None
    y, n = problem.y, problem.n
    C = float(problem.C_box)
    finite = math.isfinite(C)
    aug, eq = problem.bias == "augmented", problem.equality
    diag = float(problem.spec.diag)
    a, g, mag = alpha.astype(float).copy(), ex.g.copy(), ex.mag.copy()
    bb = float(b) if eq else 0.0
    at0, atC = at0.copy(), atC.copy()
    stale = bool((rounding(problem, a, mag, bb) > STRICT).any())
    last_off, work = math.inf, 0.0
    max_free = MAX_FREE_QUADRATIC if problem.loss == "quadratic" else MAX_FREE
    gaussian = problem.spec.code == GAUSSIAN
    held = _Block(columns, n)
    for _ in range(STEPS):
        F = np.flatnonzero(~at0 & ~atC)
        work += (len(F) + 1.0) ** 3
        if len(F) > max_free or (len(F) == 0 and not eq) or work > MAX_WORK:
            return None
        # the target: αᵢ on its bound for i in W, the KKT equations for F
        known = np.zeros(n)
        known[at0] = -a[at0]
        if finite:
            known[atC] = C - a[atC]
        K_idx = np.flatnonzero(known)
        s = float(a @ y)
        r = y * (g + (s if aug else 0.0) + bb) + diag * a - 1.0      # current rᵢ
        rhs = -r[F]
        if len(K_idx):
            kc = known[K_idx] * y[K_idx]
            kF = columns.get(K_idx)[F] @ kc + (kc.sum() if aug else 0.0)
            rhs -= y[F] * kF
        pF = held.positions(F)
        M = (y[F, None] * y[None, F]) * (held.data[np.ix_(F, pF)] + (1.0 if aug else 0.0))
        M.flat[::len(F) + 1] += diag
        step = _solve(M, rhs, y[F], -(s + float(known @ y)) if eq else None)
        if step is None:
            return None
        dF, db, null = step
        d = known
        d[F] += dF
        # as far towards the target as the box allows (the ratio test)
        t, block, block_C = 1.0, -1, False
        aF, dFv = a[F], d[F]
        # a step below rounding is none (α's scale: its own, or 1/Qᵢᵢ when α is still all 0)
        tiny = 64 * EPS * max(float(np.abs(a + d).max(initial=0.0)), float(a.max(initial=0.0)),
                              1.0 / max(float(M.diagonal().max(initial=0.0)), 1e-300))
        down = dFv < 0
        low = down & (aF + dFv < -tiny)
        if low.any():
            ratios = aF[low] / -dFv[low]
            q = int(np.argmin(ratios))
            t, block = float(ratios[q]), int(F[np.flatnonzero(low)[q]])
        if finite:
            high = ~down & (aF + dFv > C + tiny)
            if high.any():
                ratios = (C - aF[high]) / dFv[high]
                q = int(np.argmin(ratios))
                if ratios[q] < t:
                    t, block, block_C = float(ratios[q]), int(F[np.flatnonzero(high)[q]]), True
        a_new = a + t * d
        if block >= 0:
            a_new[block] = C if block_C else 0.0
            (atC if block_C else at0)[block] = True
        else:
            a_new[F] = np.clip(a_new[F], 0.0, C)
            a_new[a_new <= support_threshold(a_new)] = 0.0    # as `finalize` reports it
        delta = a_new - a
        g, mag = _moved(g, mag, delta, F, pF, held, y, columns, gaussian)
        a, bb = a_new, bb + t * db
        if block >= 0:
            continue
        if stale:    # g was updated from a start with huge terms: its rounding stays in it
            # recomputed in one compiled pass, columns not kept: gathering the n × |SV|
            # columns through `Columns` took 45 of the 55 ms of a fit's polish (moons, linear,
            # C = 100, n = 2,000, 704 SVs: cProfile, process time, issue 31)
            ex_new = expansion(problem, a)
            g, mag = ex_new.g, ex_new.mag
            stale = False
        s = float(a @ y)
        r = y * (g + (s if aug else 0.0) + bb) + diag * a - 1.0
        rnd = rounding(problem, a, mag, bb if eq else s) + STRICT
        off = float(np.max(np.abs(r[F]) / rnd[F], initial=0.0))
        if off > 1.0 and null is not None:
            # no KKT point with this working set (e.g. more free points on the margin than
            # the feature space allows): move along the null direction, downhill, until an
            # αᵢ reaches its bound; it joins W (the textbook step for a singular subproblem)
            moved = _ray(problem, a, bb, r, F, null, columns)
            if moved is None:
                return None
            a, bb, g_mag, block, block_C = moved
            g, mag = g + g_mag[0], mag + g_mag[1]
            (atC if block_C else at0)[block] = True
            last_off = math.inf
            continue
        if off > 1.0:                    # refine: solve again for what is left, unless the
            if off > 0.5 * last_off:     # last refinement did not halve it (the equations
                return None              # have no solution on this working set)
            last_off = off
            continue
        last_off = math.inf
        # at the target: does an αᵢ of W want to leave its bound?
        want = np.where(at0, -r, 0.0) + (np.where(atC, r, 0.0) if finite else 0.0)
        want = want - rnd
        i = int(np.argmax(want))
        if want[i] <= 0.0:
            if eq and abs(s) > EQ_RTOL * max(float(a.sum()), 1e-300):
                return None
            return Polished(a, bb if eq else s, Expansion(g, mag))
        at0[i] = atC[i] = False
    return None


def _compiled(problem, alpha, b, ex, columns, at0, atC, free):
    """`polish_fast.rounds` on this problem: (code, α, b, g, mag, rounds). The free SVs'
    columns `certify.expansion` kept are passed; the others are computed there, not through
    `Columns` (its gather and copy were 0.36 of a warm refit's 0.84 ms of polish: moons,
    Gaussian, C = 1, n = 1,000; cProfile, issue 31)."""
    spec = problem.spec
    return _fast.rounds(
        _kernel_numbers(problem), _abs_numbers(problem), problem.XT, problem.X,
        problem.y, np.ascontiguousarray(alpha, dtype=float), float(b), ex.g, ex.mag,
        at0, atC, float(problem.C_box), problem.bias == "augmented", bool(problem.equality),
        float(spec.diag), round_base(problem), *limits(problem), *columns.held(free))


def limits(problem) -> tuple:
    """`polish_fast.rounds`' limits for this problem: (max_free, STEPS, MAX_WORK, STRICT,
    EQ_RTOL, ROUND_OK), as `_compiled` passes them and the warm refit's compiled call, which
    runs the same rounds (`checked.refit_checked`)."""
    return (MAX_FREE_QUADRATIC if problem.loss == "quadratic" else MAX_FREE, STEPS, MAX_WORK,
            STRICT, EQ_RTOL, ROUND_OK)


class _Block:
    """The columns of the free sets of one `_rounds`, n × slots: an index's column is
    gathered from `Columns` once, when it first joins F (the sets of two rounds differ by
    one index). Gathering F's n × |F| columns afresh each round was a third of the polish
    (moons, Gaussian, C = 100, n = 5,000, 26 rounds: cProfile, issue 31)."""

    def __init__(self, columns, n: int):
        self.columns, self.used = columns, 0
        self.data = np.empty((n, 0))
        self.pos = np.full(n, -1, dtype=np.int64)

    def positions(self, idx: np.ndarray) -> np.ndarray:
        """The slots of idx (their columns gathered first when new)."""
        new = idx[self.pos[idx] < 0]
        if len(new) and not self.used:           # the first: `Columns.get`'s own copy
            self.data, self.used = self.columns.get(new), len(new)
            self.pos[new] = np.arange(len(new))
        elif len(new):
            end = self.used + len(new)
            if end > self.data.shape[1]:          # room for twice as many
                grown = np.empty((self.data.shape[0], 2 * end))
                grown[:, :self.used] = self.data[:, :self.used]
                self.data = grown
            self.data[:, self.used:end] = self.columns.get(new)
            self.pos[new] = np.arange(self.used, end)
            self.used = end
        return self.pos[idx]

    def times(self, pos: np.ndarray, v: np.ndarray) -> np.ndarray:
        """Σ columns[pos]·v, as one product over the slots in use (no gathered copy)."""
        w = np.zeros(self.used)
        w[pos] = v
        return self.data[:, :self.used] @ w


def _moved(g, mag, delta, F, pF, held, y, columns, gaussian):
    """(g, mag) after α moved by delta: F's columns from the round's `_Block`; only the
    other αᵢ that moved (a W index off its bound) are gathered. mag is a rounding bound: for
    the Gaussian kernel (k > 0) its columns are k + 0.4 (`certify.GAUSSIAN_ABS_MARGIN`), so the
    held block serves it too (a second gather and an |K| copy were half of a warm refit's
    polish round: moons, Gaussian, C = 1, n = 1,000, a point added; cProfile, issue 31)."""
    dF = delta[F]
    g = g + held.times(pF, dF * y[F])
    adF = np.abs(dF)
    if gaussian:
        mag = mag + (held.times(pF, adF) + GAUSSIAN_ABS_MARGIN * float(adF.sum()))
    else:
        mag = mag + columns.get_abs(F) @ adF
    off = delta.copy()
    off[F] = 0.0
    rest = np.flatnonzero(off)
    if len(rest):
        g = g + columns.get(rest) @ (off[rest] * y[rest])
        mag = mag + columns.get_abs(rest) @ np.abs(off[rest])
    return g, mag


def _ray(problem, a, bb, r, F, null, columns):
    """Along the null direction p (zero curvature), downhill for the dual (the sign that
    makes ∇f·p = r_F·p < 0), as far as the box allows: (α, b, (Δg, Δmag), the blocking
    index, at C?), or None when nothing blocks or the slope is nil."""
    y, C = problem.y, float(problem.C_box)
    p, pb = null
    slope = float(r[F] @ p)
    if not slope or not np.isfinite(slope):
        return None
    if slope > 0:
        p, pb = -p, -pb
    aF = a[F]
    with np.errstate(divide="ignore", invalid="ignore"):
        to0 = np.where(p < 0, aF / -p, np.inf)
        toC = np.where(p > 0, (C - aF) / p, np.inf) if math.isfinite(C) else np.full(len(F),
                                                                                     np.inf)
    q0, qC = int(np.argmin(to0)), int(np.argmin(toC))
    t = min(float(to0[q0]), float(toC[qC]))
    if not math.isfinite(t):
        return None
    block_C = float(toC[qC]) < float(to0[q0])
    block = int(F[qC if block_C else q0])
    a_new = a.copy()
    a_new[F] = np.clip(aF + t * p, 0.0, C)
    a_new[block] = C if block_C else 0.0
    delta = a_new[F] - aF
    dg = columns.get(F) @ (delta * y[F])
    dmag = columns.get_abs(F) @ np.abs(delta)
    return a_new, bb + t * pb, (dg, dmag), block, block_C


def _solve(M, rhs, yF, eq_rhs):
    """(ΔF, Δb, null) from [M y; yᵀ 0][ΔF; Δb] = [rhs; eq_rhs] (no Δb row or column when
    eq_rhs is None), scaled to a unit diagonal first (kernel values of 1e20 and b of 1 in one
    matrix would lose b to the solver's cut-off). The least-squares step is the smallest one,
    so a singular system keeps the solver's α where the equations do not fix it. null: when
    they have no solution, a direction (Δα_F, Δb) of the null space, else None."""
    m = len(rhs)
    d = np.diag(M).copy()
    d[~(d > 0)] = 1.0
    D = 1.0 / np.sqrt(d)
    A = M * D[:, None] * D[None, :]
    z_rhs = rhs * D
    if eq_rhs is not None:
        t = 1.0 / float(D.max()) if m else 1.0       # the Δb column's largest entry: 1
        B = np.zeros((m + 1, m + 1))
        B[:m, :m] = A
        B[:m, m] = B[m, :m] = t * D * yF
        A = B
        z_rhs = np.append(z_rhs, t * eq_rhs)
    if not np.isfinite(A).all() or not np.isfinite(z_rhs).all():
        return None
    # LDLᵀ (Bunch–Kaufman, LAPACK's dsysv) when A is not singular: it keeps the small
    # components of z, which a least-squares solve would only get to ε·‖z‖; least squares
    # when it is. The singularity test is made once, on that factor (dsycon's estimate of
    # 1/cond₁(A)), not by an SVD: with scipy.linalg.solve's checks around it, the SVD and the
    # solve were 3.0 of a warm refit's 7.2 ms of polish (moons RBF, n = 1,000, a point added
    # beside a support vector: cProfile, process time, issue 31); the bare LAPACK calls take
    # microseconds. (numpy's LU took 60× longer at n = 446 on a loaded 2-core VM: its threads
    # wait on each other.)
    z = _ldl_solve(A, z_rhs, len(z_rhs) <= LSTSQ_MAX)
    if z is not None and not (np.isfinite(z).all() and np.abs(A @ z - z_rhs).max()
                              <= 1e-9 * max(1.0, float(np.abs(z_rhs).max()))):
        z = None
    null = None
    if z is None:
        z = np.linalg.lstsq(A, z_rhs, rcond=1e-12)[0]
        # no solution: what is left of the right-hand side lies in A's null space (A is
        # symmetric), a direction of zero curvature along which the dual keeps improving
        res = z_rhs - A @ z
        if np.abs(res).max(initial=0.0) > 1e-9 * max(1.0, float(np.abs(z_rhs).max())):
            null = (D * res[:m], t * float(res[m]) if eq_rhs is not None else 0.0)
    if not np.isfinite(z).all():
        return None
    dF = D * z[:m]
    db = t * float(z[m]) if eq_rhs is not None else 0.0
    return dF, db, null


def _ldl_solve(A, rhs, test: bool):
    """z with Az = rhs from A's LDLᵀ factor, or None when A is singular: exactly (a zero
    pivot), or, if test, by condition number (dsycon's estimate of cond₁(A) beyond 1e12,
    the SVD's σ₁/σₙ test it replaces: the two agree within a factor of A's size)."""
    if len(rhs) == 0:
        return np.zeros(0)
    A = np.array(A, dtype=float, order="F")          # dsysv overwrites its own copy
    try:
        ldl, ipiv, z, info = _lapack.dsysv(A, rhs)
    except ValueError:
        return None
    if info != 0:
        return None
    if test:
        rcond, info = _lapack.dsycon(ldl, ipiv, float(np.abs(A).sum(axis=0).max()))
        if info != 0 or not rcond > 1e-12:
            return None
    return z
