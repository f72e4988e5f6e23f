"""The certificate of a fit: is the α a model reports really the optimum of its problem?

`fit` asks this after every solver, and `model.converged` is True only when the solver says it
stopped *and* the certificate passes. It trusts nothing the solver computed: from X, y, α and
b alone it recomputes gᵢ = Σⱼ αⱼyⱼk(xⱼ, xᵢ) with the kernel (`expansion`), then checks

* feasibility: 0 ≤ αᵢ ≤ C, Σαᵢyᵢ = 0 (free bias) or b = Σαᵢyᵢ (augmented bias, slide 30);
* the KKT conditions, with rᵢ = yᵢh(xᵢ) − 1 (+ αᵢ/(2C) for quadratic loss, slide 27):
  αᵢ = 0 ⇒ rᵢ ≥ −TOL,  0 < αᵢ < C ⇒ |rᵢ| ≤ TOL,  αᵢ = C ⇒ rᵢ ≤ TOL  (TOL in units of the
  margin: yᵢh(xᵢ) = 1 on it);
* strong duality: the primal ½‖w‖² + C Σξᵢᵏ and the dual Σα − ½αᵀQα of this α agree,
  |P − D| ≤ GAP_RTOL · max(|P|, |D|).

Scale: every test allows, on top of its tolerance, the rounding of the sums it recomputes
(`round_unit` times the size of their terms, Σⱼ αⱼk(|xⱼ|, |xᵢ|)), so kernel values of 1e20
(polynomial degree 10) or coordinates of 1e6 are judged by what double precision can say. The
gap is relative to the objectives themselves, not to max(1, ·): with polynomial degree 10 the
objectives are ~1e-15 and a floor of 1 would accept any α.

TOL is the one tolerance of the engine: the same number decides the categories (a point with
ξᵢ ≤ TOL is on or beyond its margin, `finalize`), the hard margin's primal (finite when every
ξᵢ ≤ TOL) and what a certified model reports as 0 (ξ, the duality gap: `displayed_gap`).

psvm solves another problem (the proximal SVM: one strongly convex least-squares objective,
no inequalities). Its certificate is its own optimality (`certify_proximal`): the gradient of
its objective (the linear system's residual) is 0 relative to the terms it balances, and its
primal equals its dual.
"""

from __future__ import annotations

import enum
import math
from collections import namedtuple
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from . import kernel_values as kv
from .bounds import is_above_C, is_at_C
from .jit import njit

TOL = 1e-6          # KKT conditions, categories, hard-margin slack, what is shown as 0
GAP_RTOL = 1e-6     # |primal − dual| ≤ GAP_RTOL · max(|primal|, |dual|)
EPS = float(np.finfo(float).eps)
PSVM_RTOL = 1e-9    # psvm: |∇ objective| relative to the terms it balances
EQ_RTOL = 1e-10     # |Σαᵢyᵢ| ≤ EQ_RTOL · Σαᵢ (SMO keeps it to rounding, step after step)
#: The Gaussian kernel's rounding bound |k| + GAUSSIAN_ABS_MARGIN: computing
#: k = exp(−γ‖x − z‖²) rounds by at most K·(1 + γ‖x − z‖²)·ε ≤ (K + 0.4)·ε, as t·e⁻ᵗ ≤ 1/e
GAUSSIAN_ABS_MARGIN = 0.4


# -- the kernel expansion, recomputed --------------------------------------------------------

@dataclass
class Expansion:
    """gᵢ = Σⱼ αⱼyⱼk(xⱼ, xᵢ) on every point (k the kernel alone: no +1 of the augmented bias,
    no δ/(2C) of quadratic loss) and magᵢ = Σⱼ αⱼ|k(xⱼ, xᵢ)|, the size of its terms."""

    g: np.ndarray
    mag: np.ndarray


class Columns:
    """Kernel columns k(·, xⱼ) on all n points, computed on demand and kept: from the
    materialised K when it holds them exactly, else with the compiled kernel code (the numbers
    every matrix of the engine is made of), or X·xⱼ for the linear kernel; and the columns of
    the kernel of absolute values (`_abs_columns`), which bound their rounding."""

    def __init__(self, problem):
        self.problem = problem
        self._plain = _Store(problem.n)
        self._abs = _Store(problem.n)

    def get(self, idx) -> np.ndarray:
        """The columns of idx as an n × len(idx) array."""
        return self._plain.get(idx, lambda miss: _columns(self.problem, miss))

    def get_abs(self, idx) -> np.ndarray:
        """The rounding bounds' columns of idx, n × len(idx)."""
        if self.problem.spec.code == kv.GAUSSIAN:        # |k| + 0.4, from k's own columns
            return np.abs(self.get(idx)) + GAUSSIAN_ABS_MARGIN
        return self._abs.get(idx, lambda miss: _abs_columns(self.problem, miss))

    def keep(self, idx, block: np.ndarray) -> None:
        self._plain.put(np.asarray(idx, dtype=np.int64), block)

    def held(self, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(the indices of idx whose columns are kept, their n × len columns): nothing
        is computed. When they are all the kept ones, in their order, the store itself is
        lent (read only): the copy of n × |F| values was ~0.05 ms of a warm refit's polish
        at n = 1,000, cache-cold (issue 31)."""
        slot = self._plain.slots()
        have = idx[slot[idx] >= 0]
        slots, data = slot[have], self._plain.data
        if len(slots) == data.shape[1] and (slots == np.arange(len(slots))).all():
            return have, data
        return have, data[:, slots]


class _Store:
    """Columns by point index in one growing n × slots array, made when first asked for (a
    warm refit whose α passes asks for none: the two stores of its `Columns` were ~5 % of
    it at n = 1,000, issue 31)."""

    def __init__(self, n: int):
        self.n, self.data, self.slot = n, None, None

    def slots(self) -> np.ndarray:
        """Point → its column's place in data (−1: not kept)."""
        if self.slot is None:
            self.data = np.empty((self.n, 0))
            self.slot = np.full(self.n, -1, dtype=np.int64)
        return self.slot

    def put(self, idx: np.ndarray, block: np.ndarray) -> None:
        if len(idx) == 0:
            return
        self.slots()
        used = self.data.shape[1]
        # the first block is kept as it is (the expansion's kept columns, or a polish's
        # first): a copy was a third of a warm refit's polish before its rounds were
        # compiled (issue 31)
        self.data = block if not used else np.concatenate([self.data, block], axis=1)
        self.slot[idx] = np.arange(used, used + len(idx))

    def get(self, idx, make) -> np.ndarray:
        idx = np.asarray(idx, dtype=np.int64)
        missing = np.unique(idx[self.slots()[idx] < 0])
        if len(missing):
            self.put(missing, make(missing))
        return self.data[:, self.slot[idx]]


def _kernel_numbers(problem) -> kv.KernelNumbers:
    """The compiled kernel's numbers without the +1 and the diagonal term: k alone."""
    return _plain_numbers(problem.spec)


def _abs_numbers(problem) -> kv.KernelNumbers:
    """The numbers of k's rounding bound's kernel (`column_and_bound`): the linear or
    polynomial kernel of |x|, |z| with |c| (its value bounds the rounding of k(x, z),
    cancellation in xᵀz included); the Gaussian's bound is made from k itself (these numbers
    are not read)."""
    return _abs_of(problem.spec)


# made once per kernel (specs are frozen, hashable): a refit asks for them after every click
@lru_cache(maxsize=256)
def _plain_numbers(s) -> kv.KernelNumbers:
    return kv.kernel_numbers(s.code, s.degree, s.coef0, s.gamma, False, 0.0)


@lru_cache(maxsize=256)
def _abs_of(s) -> kv.KernelNumbers:
    if s.code == kv.POLYNOMIAL:
        return kv.kernel_numbers(s.code, s.degree, abs(s.coef0), 0.0, False, 0.0)
    return _plain_numbers(s)


def _columns(problem, idx: np.ndarray) -> np.ndarray:
    X = problem.X
    if problem.spec.code == kv.LINEAR:
        return X @ X[idx].T
    if problem.K is not None and problem.bias != "augmented":
        return np.array(problem.K[:, idx])       # exact kernel values (no +1 to take off)
    return _compiled_columns(_kernel_numbers(problem), problem.XT, X, idx)


def _abs_columns(problem, idx: np.ndarray) -> np.ndarray:
    """abs_kernel(xₜ, xⱼ): |xₜ|ᵀ|xⱼ| (linear), (|c| + |xₜ|ᵀ|xⱼ|)^q (polynomial), |k| + 0.4
    (Gaussian: `GAUSSIAN_ABS_MARGIN`): `bound_column`'s rule for the numpy path (`Columns`,
    the polish's fallback), its linear columns by BLAS: 3.2–4.7× as fast as `bound_column`
    looped over the columns (one BLAS thread, as the fit workers; n = 2,000 with d = 2 and
    50, n = 5,000 with d = 100), ≤ 1e-15 relative apart (`bench_numerics.py --only bounds`,
    2026-11-30)."""
    X = problem.X
    code = problem.spec.code
    if code == kv.LINEAR:
        A = np.abs(X)
        return A @ A[idx].T
    if code == kv.GAUSSIAN:
        return np.abs(_columns(problem, idx)) + GAUSSIAN_ABS_MARGIN
    A = np.abs(X)
    return _compiled_columns(_abs_numbers(problem), np.ascontiguousarray(A.T), A, idx)


@njit(cache=True, nogil=True)
def _compiled_columns(kp, XT, X, idx):
    n = XT.shape[1]
    out = np.empty((n, len(idx)))
    col = np.empty(n)
    for q in range(len(idx)):
        kv.kernel_column(kp, XT, n, X[idx[q]], col)
        for t in range(n):
            out[t, q] = col[t]
    return out


@njit(cache=True, nogil=True, inline="always")
def gaussian_abs(k):
    """The Gaussian kernel's rounding bound's entry for a value k (`_abs_columns`)."""
    return abs(k) + GAUSSIAN_ABS_MARGIN


@njit(cache=True, nogil=True, inline="always")
def bound_column(kp, kp_abs, XT, x, col, col_abs):
    """The rounding bound's column of k(·, x) into col_abs, as `_abs_columns` makes it, given
    k's column col: |k| + 0.4 for the Gaussian, else kp_abs (`_abs_numbers`) on |X| and |x|.
    The one place the compiled code makes that bound (the carry, the expansion, the polish's
    rounds: `polish_fast`)."""
    n = XT.shape[1]
    if kp.code == kv.GAUSSIAN:
        for t in range(n):
            col_abs[t] = gaussian_abs(col[t])
    else:
        kv.abs_kernel_column(kp_abs, XT, n, x, col_abs)


@njit(cache=True, nogil=True, inline="always")
def column_and_bound(kp, kp_abs, XT, x, col, col_abs):
    """k(·, x) into col and its rounding bound's column into col_abs (`bound_column`)."""
    kv.kernel_column(kp, XT, XT.shape[1], x, col)
    bound_column(kp, kp_abs, XT, x, col, col_abs)


@njit(cache=True, nogil=True)
def _compiled_expansion(kp, kp_abs, XT, X, alpha, y, keep):
    """(g, mag, the columns of the points where keep is True) from one pass over the
    support vectors' columns. (Compiled, with the solvers' kernel values: 2.0× faster than
    cdist + np.exp + BLAS on the same columns, Gaussian, n = 200 and 2,000: 44 against 88 µs,
    1.8 against 3.5 ms; numpy's polynomial kernel is 7.8–9.7× slower than the compiled one
    (--only matrix); benchmarks/bench_numerics.py --only expansion, under load.)"""
    n = XT.shape[1]
    g, mag, col, col_abs = np.zeros(n), np.zeros(n), np.empty(n), np.empty(n)
    n_keep = 0
    for j in range(n):
        n_keep += keep[j]
    kept = np.empty((n, n_keep))
    q = 0
    for j in range(n):
        a = alpha[j]
        if a == 0.0:
            continue
        column_and_bound(kp, kp_abs, XT, X[j], col, col_abs)
        c = a * y[j]
        for t in range(n):
            g[t] += c * col[t]
            mag[t] += a * col_abs[t]
        if keep[j]:
            for t in range(n):
                kept[t, q] = col[t]
            q += 1
    return g, mag, kept


def expansion(problem, alpha: np.ndarray, columns: Columns | None = None,
              keep: np.ndarray | None = None) -> Expansion:
    """g and mag for α ≥ 0, from X (never from a solver's gradient). keep: a boolean mask of
    the points whose columns `columns` should keep (the polish's free support vectors)."""
    X, y = problem.X, problem.y
    if problem.spec.code == kv.LINEAR:
        absX = np.abs(X)
        g = X @ (X.T @ (alpha * y))
        mag = absX @ (absX.T @ np.abs(alpha))   # Σⱼ αⱼ|xᵢ|ᵀ|xⱼ|, in one pass
        return Expansion(g, mag)
    keep_mask = np.zeros(len(y), dtype=np.bool_) if keep is None else keep & (alpha != 0)
    g, mag, kept = _compiled_expansion(_kernel_numbers(problem), _abs_numbers(problem),
                                       problem.XT, X, np.ascontiguousarray(alpha), y, keep_mask)
    if columns is not None:
        columns.keep(np.flatnonzero(keep_mask), kept)
    return Expansion(g, mag)


#: A carried expansion (`_carry`, `checked.py`) is recomputed from scratch after this many edits
#: (its rounding bound, mag, only grows along the way).
MAX_CARRIED = 64


@njit(cache=True, nogil=True)
def _carry(kp, kp_abs, XT, X, y, old_X, old_y, old_alpha, old_g, old_mag, alpha, p, s, keep):
    """The expansion of α after an edit, from the previous model's (old_g, old_mag), as the
    warm start carries the gradient (svm_engine/warmstart.py): the first p and last s points
    are the model's, the rows between were removed and added. Kept rows: their g plus one
    kernel column per source that changed (a removed point, an αⱼ that moved, an added
    point); added rows: in full. O(n · changes) kernel values, never the solver's gradient;
    mag gains every change's terms (a bound on the rounding they left: `column_and_bound`). keep: a
    mask of the points whose columns to keep, of those this computes (for the polish, as
    `expansion`'s).
    Returns (g, mag, the kept columns n × m, their m indices)."""
    n, n_old = X.shape[0], old_X.shape[0]
    g, mag = np.empty(n), np.empty(n)
    kept = np.zeros(n, dtype=np.bool_)
    mapped = np.zeros(n)
    for t in range(n):
        src = t if t < p else (t - n + n_old if t >= n - s else -1)
        if src >= 0:
            kept[t] = True
            g[t], mag[t], mapped[t] = old_g[src], old_mag[src], old_alpha[src]
        else:
            g[t], mag[t] = 0.0, 0.0
    pos = np.full(n, -1, dtype=np.int64)      # the kept columns' places, by index: a
    n_keep = 0                                # block in index order is lent as it is
    for j in range(n):                        # (`Columns.held`)
        if keep[j] and alpha[j] != 0.0 and (not kept[j] or alpha[j] != mapped[j]):
            pos[j] = n_keep
            n_keep += 1
    block, idx = np.empty((n, n_keep)), np.empty(n_keep, dtype=np.int64)
    col, col_abs = np.empty(n), np.empty(n)
    for r in range(p, n_old - s):                       # removed points
        if old_alpha[r] != 0.0:
            column_and_bound(kp, kp_abs, XT, old_X[r], col, col_abs)
            c = -old_alpha[r] * old_y[r]
            for t in range(n):
                if kept[t]:
                    g[t] += c * col[t]
                    mag[t] += old_alpha[r] * col_abs[t]
    for j in range(n):                                  # kept points whose α moved
        d = alpha[j] - mapped[j]
        if kept[j] and d != 0.0:
            column_and_bound(kp, kp_abs, XT, X[j], col, col_abs)
            for t in range(n):
                if kept[t]:
                    g[t] += d * y[j] * col[t]
                    mag[t] += abs(d) * col_abs[t]
            if pos[j] >= 0:
                block[:, pos[j]] = col
                idx[pos[j]] = j
    for j in range(p, n - s):                           # added points: row and source
        column_and_bound(kp, kp_abs, XT, X[j], col, col_abs)
        acc, acc_abs = 0.0, 0.0
        for t in range(n):
            if alpha[t] != 0.0:
                acc += alpha[t] * y[t] * col[t]
                acc_abs += alpha[t] * col_abs[t]
        g[j], mag[j] = acc, acc_abs
        if alpha[j] != 0.0:
            for t in range(n):
                if kept[t]:
                    g[t] += alpha[j] * y[j] * col[t]
                    mag[t] += alpha[j] * col_abs[t]
            if pos[j] >= 0:
                block[:, pos[j]] = col
                idx[pos[j]] = j
    return g, mag, block, idx


# -- the certificate -------------------------------------------------------------------------

class FailureKind(enum.Enum):
    """Which test of the certificate failed (the first, in the order `certify` runs them)."""

    NEGATIVE = "negative"                # some αᵢ are negative or not finite
    ABOVE_C = "above_C"                  # some αᵢ > C
    EQUALITY = "equality"                # Σαᵢyᵢ ≠ 0 (free bias)
    BIAS = "bias"                        # b ≠ Σαᵢyᵢ (augmented bias)
    ROUNDING = "rounding"                # h(x) cannot be checked to TOL in double precision
    KKT = "kkt"                          # a KKT condition fails at `worst`
    GAP = "gap"                          # primal ≠ dual
    OBJECTIVE_ROUNDING = "objective_rounding"   # the objectives are below their rounding
    GRADIENT = "gradient"                # psvm: its objective's gradient is not 0


@dataclass(frozen=True)
class Failure:
    """What failed, with its numbers (the fields its kind uses; the rest stay NaN/False).
    KKT: the point `worst` (0-based), its α and r = yᵢh(xᵢ) − 1, and which condition it is
    held to (at_zero, at_C, quadratic). ABOVE_C: C. EQUALITY: sum_ay = Σαᵢyᵢ; BIAS: b and
    sum_ay. ROUNDING: size = the largest magᵢ (Σⱼ αⱼ|k(xⱼ, xᵢ)|), kernel_max = the largest
    |k|. OBJECTIVE_ROUNDING: size = the objectives' scale, rounding = theirs. GAP: primal,
    dual and gap_rel (relative). GRADIENT: value = |∇| relative to its terms."""

    kind: FailureKind
    worst: int = -1
    alpha: float = math.nan
    r: float = math.nan
    at_zero: bool = False
    at_C: bool = False
    quadratic: bool = False
    C: float = math.nan
    sum_ay: float = math.nan
    b: float = math.nan
    size: float = math.nan
    kernel_max: float = math.nan
    rounding: float = math.nan
    primal: float = math.nan
    dual: float = math.nan
    gap_rel: float = math.nan
    value: float = math.nan


@dataclass(frozen=True)
class Certificate:
    """What the independent check found. passed: every test below within its tolerance;
    failure: the first that did not (None when passed)."""

    kkt: float            # largest KKT violation beyond rounding (margin units)
    gap: float            # primal − dual, recomputed
    gap_rel: float        # gap / max(|primal|, |dual|)
    gap_allowed: float    # GAP_RTOL · max(|primal|, |dual|) + rounding: |gap| below is 0
    primal: float
    dual: float
    failure: Failure | None = None
    worst: int = -1       # the point of the largest KKT violation (0-based), or −1
    proximal: bool = False    # PSVM's own problem (`certify_proximal`), not the SVM's

    def __init__(self, kkt, gap, gap_rel, gap_allowed, primal, dual, failure=None, worst=-1,
                 proximal=False):
        # the fields above, set at once: frozen dataclasses set each through
        # object.__setattr__, ~1 µs of every warm refit's verdict (issue 31)
        self.__dict__.update(kkt=kkt, gap=gap, gap_rel=gap_rel, gap_allowed=gap_allowed,
                             primal=primal, dual=dual, failure=failure, worst=worst,
                             proximal=proximal)

    @property
    def passed(self) -> bool:
        return self.failure is None


def round_unit(problem, n_terms: int) -> float:
    """Relative rounding of a sum of n_terms kernel values: each value is a product of
    ~(degree + d) roundings (the bound on a sum of k terms is k·ε; generous twice over)."""
    return EPS * (round_base(problem) + 2.0 * n_terms)


def round_base(problem) -> float:
    """`round_unit`'s part that does not depend on the number of terms, in units of ε (the
    compiled loops add 2 per term themselves)."""
    return round_base_of(problem.spec, problem.X.shape[1])


def round_base_of(s, d: int) -> float:
    """`round_base` of the kernel spec s on d features."""
    q = s.degree if s.code == kv.POLYNOMIAL else 1
    return 4.0 * (q + d) + 16.0


def rounding(problem, alpha: np.ndarray, mag: np.ndarray, b: float) -> np.ndarray:
    """How far rounding may move each recomputed yᵢh(xᵢ): `round_unit` of its terms (magᵢ,
    b, the 1), and for the free bias the rounding of b itself, an average of the free SVs'
    yⱼ − gⱼ (so of their magⱼ)."""
    sv = alpha > 0
    unit = round_unit(problem, int(sv.sum()))
    b_rnd = unit * float(mag[sv].max(initial=0.0)) if problem.equality else 0.0
    return unit * (mag + abs(b) + 1.0) + b_rnd


def certify(problem, alpha: np.ndarray, b: float, ex: Expansion) -> Certificate:
    """The checks of the module docstring for an SVM α (every solver but psvm)."""
    alpha = np.ascontiguousarray(alpha, dtype=float)
    t = _sums(problem.y, alpha, ex.g, ex.mag, float(b), float(problem.C_box),
              float(problem.spec.diag), problem.loss == "quadratic", problem.equality,
              round_base(problem))
    return judge(problem, alpha, b, ex, t)


def judge(problem, alpha: np.ndarray, b: float, ex: Expansion, t: Sums) -> Certificate:
    """`certify`'s verdict from `_sums`'s t (computed by `certify`, or by a compiled caller
    with the same arguments: `checked.py`). (t read in one unpacking, the problem's fields
    once: every Playground click runs this, issue 31.)"""
    (asum, s, w2, a2, kkt, worst, slack, slack_rnd, a_rnd, rnd_max, xi_max, bad, above,
     r_worst) = t
    C, C_box = float(problem.C), float(problem.C_box)
    aug = problem.bias == "augmented"
    n = len(problem.y)
    failure = None
    if bad:
        failure = Failure(FailureKind.NEGATIVE)
    elif above:
        failure = Failure(FailureKind.ABOVE_C, C=C_box)
    elif problem.equality and abs(s) > EQ_RTOL * max(asum, 1e-300):
        failure = Failure(FailureKind.EQUALITY, sum_ay=s)
    elif aug and abs(b - s) > 1e-9 * max(abs(b), abs(s)) + EPS * n * asum:
        failure = Failure(FailureKind.BIAS, b=float(b), sum_ay=s)
    # objectives of this α (slides 20, 27, 30): P = ½(‖w‖² [+ b²]) + C Σξᵏ, D = Σα − ½αᵀQα
    reg = w2 + (b * b if aug else 0.0)
    dual = asum - 0.5 * (w2 + (s * s if aug else 0.0) + problem.spec.diag * a2)
    if math.isfinite(C):
        primal = 0.5 * reg + C * slack
        slack_rnd *= C
    else:
        primal = 0.5 * reg if xi_max <= TOL else math.inf
        slack_rnd = 0.0
    scale = max(abs(primal), abs(dual)) if math.isfinite(primal) else math.inf
    obj_rnd = 2.0 * a_rnd + slack_rnd + round_unit(problem, n) * (asum + abs(w2))
    allowed = GAP_RTOL * scale + obj_rnd
    gap = primal - dual
    gap_rel = gap / scale if 0 < scale < math.inf else (0.0 if gap == 0 else math.inf)
    if failure is None:
        if rnd_max > TOL:
            failure = Failure(FailureKind.ROUNDING, size=float(ex.mag.max()),
                              kernel_max=_kmax(problem))
        elif kkt > TOL:
            a = float(alpha[worst])
            failure = Failure(FailureKind.KKT, worst=int(worst), alpha=a, r=float(r_worst),
                              at_zero=a == 0.0, at_C=bool(is_at_C(a, C_box)),
                              quadratic=problem.loss == "quadratic")
        elif not abs(gap) <= allowed:
            failure = Failure(FailureKind.GAP, primal=primal, dual=dual, gap_rel=gap_rel)
        elif not obj_rnd <= GAP_RTOL * scale:    # rounding would decide
            failure = Failure(FailureKind.OBJECTIVE_ROUNDING, size=scale, rounding=obj_rnd)
    return Certificate(kkt, gap, gap_rel, allowed, primal, dual, failure, int(worst))


#: `_sums`'s results, by name (a namedtuple: numba builds and returns it as one)
Sums = namedtuple("Sums", ["asum", "sum_ay", "w2", "a2", "kkt", "worst", "slack", "slack_rnd",
                           "a_rnd", "rnd_max", "xi_max", "bad", "above", "r_worst"])


@njit(cache=True, nogil=True)
def _sums(y, alpha, g, mag, b, C_box, diag, quad, equality, unit_base):
    """`certify`'s loops, in two passes: the sums of α, then per point h = g + b, its
    rounding (`rounding`), the KKT violation beyond it (r = yh − 1 + diag·α: α = 0 needs
    r ≥ 0, 0 < α < C r = 0, α = C r ≤ 0) and the slack (0 within rounding: C·noise must not
    weigh in the primal). (Compiled, as it runs after every Playground click: the same sums in
    numpy take 8× as long at n = 200 (60 against 7.5 µs; 4× at 2,000), and with them a click's
    engine time grew 13–22 % (bench_click_engine.py against a copy with numpy sums: 867 against
    770 µs Gaussian, 812 against 668 µs linear, medians of 4 × 600 clicks); bench_numerics.py
    --only sums, under load.)"""
    n = len(y)
    asum = s = w2 = a2 = 0.0
    n_sv, mag_sv, bad, above = 0, 0.0, False, False
    for i in range(n):
        a = alpha[i]
        bad = bad or not (a >= 0.0) or not (a < math.inf)
        above = above or is_above_C(a, C_box)
        asum += a
        s += a * y[i]
        w2 += a * y[i] * g[i]
        a2 += a * a
        if a > 0.0:
            n_sv += 1
            mag_sv = max(mag_sv, mag[i])
    unit = EPS * (unit_base + 2.0 * n_sv)
    b_rnd = unit * mag_sv if equality else 0.0
    kkt, worst, r_worst = 0.0, -1, 0.0
    slack = slack_rnd = a_rnd = rnd_max = xi_max = 0.0
    for i in range(n):
        a = alpha[i]
        yh = y[i] * (g[i] + b)
        rnd = unit * (mag[i] + abs(b) + 1.0) + b_rnd
        r = yh - 1.0 + diag * a
        if a == 0.0:
            v = -r
        elif is_at_C(a, C_box):
            v = r
        else:
            v = abs(r)
        v = max(v - rnd, 0.0)
        if worst < 0 or v > kkt:
            kkt, worst, r_worst = v, i, yh - 1.0
        xi = max(0.0, 1.0 - yh)
        if xi <= rnd:
            # zeroed as rounding, but a true ξ of up to ~rnd may hide here (a point on the
            # margin): C times it is in the primal, so it counts towards what rounding
            # could decide (C = 5e5 and rnd = 1e-10 is 5e-5 of an objective)
            if 1.0 - yh > -rnd:
                slack_rnd += rnd * rnd if quad else rnd
            xi = 0.0
        xi_max = max(xi_max, xi)
        slack += xi * xi if quad else xi
        if xi > 0.0:
            slack_rnd += rnd * (2.0 * xi if quad else 1.0)
        a_rnd += a * rnd
        rnd_max = max(rnd_max, rnd)
    return Sums(asum, s, w2, a2, kkt, worst, slack, slack_rnd, a_rnd, rnd_max, xi_max, bad,
                above, r_worst)


def _kmax(problem) -> float:
    """The largest |k(xᵢ, xⱼ)| bound (Cauchy–Schwarz; 1 for the Gaussian)."""
    s = problem.spec
    if s.code == kv.GAUSSIAN:
        return 1.0
    m = float(np.max(np.einsum("ij,ij->i", problem.X, problem.X), initial=0.0))
    return (abs(s.coef0) + m) ** s.degree if s.code == kv.POLYNOMIAL else m


# -- psvm ------------------------------------------------------------------------------------

def certify_proximal(problem, sol: dict) -> Certificate:
    """PSVM's optimality, recomputed from X, y, α and b: the gradient of its objective,
    (θ − Φᵀ(β∘y), b − Σβᵢyᵢ) with β = 2C·r (`finalize_proximal`), is 0 relative to the terms
    it is the difference of (the linear system's residual), and primal = dual to GAP_RTOL."""
    y, X, C = problem.y, problem.X, float(problem.C)
    alpha, b = np.asarray(sol["alpha"], dtype=float), float(sol["b"])
    ay = alpha * y
    if problem.spec.code == kv.LINEAR:
        Phi, theta = X, X.T @ ay                  # w = Σ αᵢyᵢxᵢ
    else:
        Phi, theta = problem.K - 1.0, ay          # K without the augmented +1; θ = ū
    h = Phi @ theta + b
    beta = 2.0 * C * (1.0 - y * h)
    by = beta * y
    v = Phi.T @ by
    grad = max(float(np.max(np.abs(theta - v), initial=0.0)), abs(b - float(by.sum())))
    # the terms the gradient is the difference of: θ and 2C·Φᵀ(y − Φθ − b)y, whose parts
    # 2C·|Φ|ᵀ(|Φ||θ| + |b| + 1) cancel (the residual of the linear system, relative)
    absPhi = np.abs(Phi)
    inner = 2.0 * C * (absPhi @ np.abs(theta) + abs(b) + 1.0)
    terms = max(float(np.max(absPhi.T @ inner, initial=0.0)), float(inner.sum()),
                float(np.max(np.abs(theta), initial=0.0)), abs(b), 1e-300)
    kkt = grad / terms
    primal, dual = float(sol["primal_objective"]), float(sol["dual_objective"])
    oscale = max(abs(primal), abs(dual))
    gap = primal - dual
    allowed = GAP_RTOL * oscale + round_unit(problem, len(y)) * oscale
    gap_rel = gap / oscale if oscale > 0 else 0.0
    failure = None
    if not (math.isfinite(kkt) and kkt <= PSVM_RTOL):
        failure = Failure(FailureKind.GRADIENT, value=kkt)
    elif not abs(gap) <= allowed:
        failure = Failure(FailureKind.GAP, primal=primal, dual=dual, gap_rel=gap_rel)
    return Certificate(kkt, gap, gap_rel, allowed, primal, dual, failure, proximal=True)


# -- the engine's status --------------------------------------------------------------------

# (formatted once: every fit, so every Playground click, says one of them)
_PASSED = (f"optimal: KKT conditions hold to {TOL:g} and primal = dual to {GAP_RTOL:g} "
           "(relative)")
_PASSED_PROXIMAL = (f"optimal for PSVM's own problem (the proximal SVM): its linear system is "
                    f"solved to {PSVM_RTOL:g} (relative) and primal = dual to {GAP_RTOL:g}")


def summary(cert: Certificate) -> str:
    """What a passed certificate guarantees."""
    return _PASSED_PROXIMAL if cert.proximal else _PASSED


def engine_status(cert: Certificate, run) -> str:
    """model.status for a library user: the certificate's summary, or "not converged: " with
    the solver's own status when it did not stop by its rule and the failed test by name
    (the pages word it for students from the same fields: ui/shared/fit_words.py)."""
    if cert.passed and run.converged:
        return summary(cert)
    parts = [] if run.converged else [run.status]
    f = cert.failure
    if f is not None:
        where = f" at x{f.worst + 1}" if f.kind is FailureKind.KKT else ""
        parts.append(f"the certificate's {f.kind.value} test fails{where}")
    return "not converged: " + "; ".join(parts)
