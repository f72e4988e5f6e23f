"""Kernel values as compiled code: every number of the engine's kernel matrices comes from here.

LIBSVM's layers (svm.cpp: Kernel → QMatrix → Solver): this module is the Kernel,
`kernel_cache.py` the cache of kernel columns, the solvers come on top. The problem builder
(`problem.py`: K and Q), the compiled SMO (`solvers/smo_fast.py`: columns on demand),
`finalize`, the warm start and the certificate all take their kernel values from the same
two routines, `kernel_column` and `kernel_value` (one column, one pair: the same operations),
so a lazy solver and a solver on the materialised Q see the same numbers to the last bit.

A kernel reaches compiled code as `KernelNumbers` (made by `problem.KernelSpec.numbers`):

| field       | meaning                                                           |
|-------------|-------------------------------------------------------------------|
| `code`      | LINEAR (xᵀz), POLYNOMIAL ((coef0 + xᵀz)^degree), GAUSSIAN          |
| `degree`    | q of the polynomial kernel                                         |
| `coef0`     | c of the polynomial kernel                                         |
| `neg_gamma` | −γ of the Gaussian kernel exp(−γ‖x − z‖²), γ = 1/(2σ²)             |
| `augmented` | + 1 on every value (the book's augmented bias x′ = (x, 1), slide 30) |
| `diag`      | + 1/(2C) on the diagonal (quadratic loss, slide 27), else 0       |

The Gaussian kernel forms ‖x − z‖² from the differences (exact far from the origin, where
‖x‖² + ‖z‖² − 2xᵀz cancels) and uses its own exp (`exp_nonpositive`), written so that the
column loop vectorises. Predicting and drawing take their values from here too: the
kernels' K(X, Z) (`kernels.py`) is `kernel_cross`, one `kernel_column` per point, so a
boundary drawn or predicted and the one trained on are the same numbers to the last bit.
Without a compiler (numba absent, NUMBA_DISABLE_JIT=1) the routines run as the Python they
are written in, and `kernel_cross` as `kernel_block_array`: the same operations on numpy
arrays, the same bits (tests/test_kernels.py).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .jit import JIT, njit

LINEAR, POLYNOMIAL, GAUSSIAN = 0, 1, 2   # KernelNumbers.code


class KernelNumbers(NamedTuple):
    """Every number the compiled code needs about the kernel (table in the module docstring)."""

    code: int
    degree: int
    coef0: float
    neg_gamma: float
    augmented: bool
    diag: float


def kernel_numbers(code, degree, coef0, gamma, augmented, diag) -> KernelNumbers:
    """The numbers with their types fixed (one compiled version of each routine)."""
    return KernelNumbers(int(code), int(degree), float(coef0), -float(gamma), bool(augmented),
                         float(diag))


# -- exp without libm ------------------------------------------------------------------------
# Why: a loop that calls libm's exp does not vectorise. A Gaussian column of 1,000 points is
# 3.0× faster with it than with math.exp in the same compiled loop (1.56 against 4.66 µs;
# 3.6× under load), and it is within 1.00 ulp of numpy's exp over 250,001 arguments in
# [−708, 0] (benchmarks/bench_numerics.py --only exp;
# tests/test_kernels.py::test_compiled_exp_is_within_an_ulp_of_libm).

LN2_HI = 6.93147180369123816490e-01     # fdlibm's split of ln 2
LN2_LO = 1.90821492927058770002e-10
LOG2E = 1.44269504088896338700e00
ROUND = 6755399441055744.0               # 1.5·2⁵²: (x + ROUND) − ROUND rounds x to an integer
EXP_MIN = -708.0                         # exp(x) < 3.3e-308 below: returned as 0

if JIT:
    from numba import types
    from numba.extending import intrinsic

    @intrinsic
    def bits_as_float(typingctx, v):
        """Reinterpret an int64 bit pattern as a float64 (no conversion)."""
        sig = types.float64(types.int64)

        def codegen(context, builder, signature, args):
            return builder.bitcast(args[0], context.get_value_type(types.float64))

        return sig, codegen
else:
    def bits_as_float(v):
        """Reinterpret an int64 bit pattern as a float64 (no conversion), in Python."""
        return float(np.array(v, dtype=np.int64).view(np.float64))


@njit(inline="always")
def exp_reduced(x):
    """(k, p) with exp(x) = p·2^k for EXP_MIN ≤ x ≤ 0: Cody–Waite reduction x = k·ln 2 + r,
    then exp(r) by its Taylor polynomial of degree 13. Arithmetic only, so it also runs on
    numpy arrays, element by element with the same operations (`exp_nonpositive_array`)."""
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
    return k, 1.0 + (r + r2 * u)


@njit(inline="always")
def exp_nonpositive(x):
    """exp(x) for x ≤ 0 without a libm call, so that loops over it vectorise (`exp_reduced`);
    0 below EXP_MIN."""
    x0 = x
    x = x if x > EXP_MIN else EXP_MIN
    k, p = exp_reduced(x)
    scale = bits_as_float((np.int64(k) + 1023) << 52)    # 2^k
    return p * scale if x0 >= EXP_MIN else 0.0


@njit(inline="always")
def poly_power(s, coef0, degree):
    """(coef0 + s)^degree by repeated products: the same operations wherever a polynomial
    kernel value is made."""
    b = coef0 + s
    r = b
    for _ in range(1, degree):
        r = r * b
    return r


# -- kernel values ---------------------------------------------------------------------------
# The two routines below compute the same value with the same operations, one vectorised
# over a column and one for a single pair.

@njit(cache=True, nogil=True)
def kernel_column(kp, XT, na, xc, out):
    """out[p] = K(x_p, x_c) for the first na columns p of XT (features × points), + 1 if
    augmented; without the diagonal term (the caller adds it)."""
    d = XT.shape[0]
    for p in range(na):
        out[p] = 0.0
    if kp.code == GAUSSIAN:
        for k in range(d):
            row = XT[k]
            v = xc[k]
            for p in range(na):
                z = row[p] - v
                out[p] += z * z
        for p in range(na):
            out[p] = exp_nonpositive(kp.neg_gamma * out[p])
    else:
        for k in range(d):
            row = XT[k]
            v = xc[k]
            for p in range(na):
                out[p] += row[p] * v
        _of_dots(kp, na, out)
    if kp.augmented:
        for p in range(na):
            out[p] = out[p] + 1.0


@njit(cache=True, nogil=True, inline="always")
def _of_dots(kp, na, out):
    """The linear or polynomial kernel's values from the dot products in out[:na]."""
    if kp.code == POLYNOMIAL:
        for p in range(na):
            out[p] = poly_power(out[p], kp.coef0, kp.degree)


@njit(cache=True, nogil=True)
def abs_kernel_column(kp, XT, na, xc, out):
    """out[p] = K(|x_p|, |x_c|) for the linear or polynomial kernel kp, not augmented (its
    coef0 as given: the certificate passes |c|): `kernel_column` of |X|ᵀ and |x_c|, bit for
    bit, the absolute values taken as XT is read (no |X| array per call)."""
    out[:na] = 0.0
    for k in range(XT.shape[0]):
        row, v = XT[k], abs(xc[k])
        for p in range(na):
            out[p] += abs(row[p]) * v
    _of_dots(kp, na, out)


@njit(cache=True, nogil=True)
def kernel_eff_column(kp, XT, na, xc, pc, out):
    """out[p] = K_eff(x_p, x_c) for the first na columns p of XT, where x_c is at position pc
    (< 0: not among them): `kernel_column` plus the diagonal term at pc."""
    kernel_column(kp, XT, na, xc, out)
    if kp.diag != 0.0 and pc >= 0:
        out[pc] = out[pc] + kp.diag


@njit(cache=True, nogil=True, inline="always")
def kernel_value(kp, A, t, B, c):
    """K(A[t], B[c]) (+ 1 if augmented) for one pair of rows: the same operations as
    `kernel_column` (rows by index, not slices: no array views in a loop over n points)."""
    acc = 0.0
    if kp.code == GAUSSIAN:
        for k in range(A.shape[1]):
            z = A[t, k] - B[c, k]
            acc += z * z
        acc = exp_nonpositive(kp.neg_gamma * acc)
    else:
        for k in range(A.shape[1]):
            acc += A[t, k] * B[c, k]
        if kp.code == POLYNOMIAL:
            acc = poly_power(acc, kp.coef0, kp.degree)
    if kp.augmented:
        acc = acc + 1.0
    return acc


@njit(cache=True, nogil=True)
def kernel_matrix(kp, X, XT):
    """The n × n matrix of `kernel_column`s (without +1 and diagonal term: problem.py adds
    them). Symmetric to the last bit: each formula is symmetric in its two arguments.
    (Compiled from the column routine, not numpy's formulas, so that the materialised K of the
    readable solvers is the lazy columns of smo_fast bit for bit
    (tests/test_kernels.py::test_lazy_kernel_columns_equal_the_materialised_matrix): numpy's
    X Xᵀ, (c + X Xᵀ)³ and exp(−γ cdist²) differ from them in 19 %, 31 % and 11 % of the
    entries, and are no faster: numpy ÷ compiled 1.5–3.1 (linear), 7.8–9.7 (cubic), 1.0–2.8
    (Gaussian) at n = 200 … 2,000; benchmarks/bench_numerics.py --only matrix,
    under load.)"""
    n = X.shape[0]
    K = np.empty((n, n))
    plain = KernelNumbers(kp.code, kp.degree, kp.coef0, kp.neg_gamma, False, 0.0)
    for c in range(n):
        kernel_column(plain, XT, n, X[c], K[c])
    return K


@njit(cache=True, nogil=True)
def kernel_diag(kp, X):
    """K_eff(x_t, x_t) for every t, diagonal term included (= diag Q): `kernel_value`'s
    operations in `kernel_column`'s loop order (one feature at a time over all points), so
    that the loops vectorise. The Gaussian's is the same number for every t
    (‖x − x‖² = 0): computed once."""
    n, d = X.shape
    out = np.zeros(n)
    if n and kp.code == GAUSSIAN:
        out[:] = kernel_value(kp, X, 0, X, 0) + kp.diag
        return out
    for k in range(d):
        for t in range(n):
            out[t] += X[t, k] * X[t, k]
    if kp.code == POLYNOMIAL:
        for t in range(n):
            out[t] = poly_power(out[t], kp.coef0, kp.degree)
    for t in range(n):
        out[t] = (out[t] + 1.0 if kp.augmented else out[t]) + kp.diag
    return out


@njit(cache=True, nogil=True)
def kernel_axpy(kp, XT, z, c, col, out):
    """out[t] += c · K(x_t, z) over all points x_t = columns of XT (+1 if augmented, no
    diagonal term); col is scratch space for the column."""
    kernel_column(kp, XT, XT.shape[1], z, col)
    for t in range(XT.shape[1]):
        out[t] += c * col[t]


@njit(cache=True, nogil=True)
def kernel_sources_dot(kp, XT, Z, coef, out):
    """out[t] += Σ_s coef_s · K(x_t, z_s) over all points x_t = columns of XT, one column
    per source z_s (a row of Z; it need not be among the points); +1 if augmented, no
    diagonal term. Memory O(n), time O(n · len(Z))."""
    col = np.empty(XT.shape[1])
    for q in range(Z.shape[0]):
        kernel_axpy(kp, XT, Z[q], coef[q], col, out)


# -- K(X, Z) between two sets of points: predicting, drawing, SVR's K, the Gram study --------
# `kernels.Linear/Polynomial/Gaussian` come here (K(X, Z): `kernel_cross`; a model's
# Σₛ cₛK(z, sₛ): `kernel_expansion`), so a prediction, a drawn boundary and the solver's kernel
# column hold the same numbers, to the last bit (tests/test_kernels.py). Each value is
# `kernel_column`'s operations in its order; the formulas are symmetric to the bit
# ((a − b)² = (b − a)², a·b = b·a), so the loop may run over either set.
# Why the expansion without the matrix: drawing the Playground's 80 × 80 grid against 200
# support vectors (benchmarks/bench_numerics.py --only kernel, 3 runs, under load:
# load average 7–8, ratios within a run) the Gaussian's is 1.03–1.21× faster than the formula
# it replaced (scipy's cdist + numpy's exp: 1 ulp off the solver's values), where
# K(X, Z) @ coef is 0.90–1.07×; the polynomial's is 15–21× faster than numpy's (c + XZᵀ)^q.
# Without numba the numpy copy takes ~20× the compiled time (0.2 s for that grid under load).

@njit(cache=True, nogil=True)
def kernel_block(kp, AT, B):
    """out[c, p] = K(a_p, b_c) (+ 1 if augmented): one `kernel_column` per row b_c of B, over
    the columns a_p of AT (features × points)."""
    m = AT.shape[1]
    out = np.empty((B.shape[0], m))
    for c in range(B.shape[0]):
        kernel_column(kp, AT, m, B[c], out[c])
    return out


def _python(f):
    """The Python a compiled function was written in (itself when nothing compiles)."""
    return getattr(f, "py_func", f)


def exp_nonpositive_array(x: np.ndarray) -> np.ndarray:
    """`exp_nonpositive` on a numpy array: the same operations on every element (numpy's
    +, −, × round as the compiled code's do), so the same bits."""
    x0 = x
    x = np.where(x > EXP_MIN, x, EXP_MIN)
    k, p = _python(exp_reduced)(x)
    scale = ((k.astype(np.int64) + 1023) << 52).view(np.float64)     # 2^k
    return np.where(x0 >= EXP_MIN, p * scale, 0.0)


def kernel_block_array(kp, AT, B) -> np.ndarray:
    """`kernel_block` in numpy, for when nothing compiles (numba absent or
    NUMBA_DISABLE_JIT=1): `kernel_column`'s operations, in its order, on whole arrays, so
    the same bits as the Python loop the solvers then run, ~100× faster."""
    out = np.zeros((B.shape[0], AT.shape[1]))
    with np.errstate(all="ignore"):         # inf and NaN as the compiled code: silently
        for k in range(AT.shape[0]):
            if kp.code == GAUSSIAN:
                z = AT[k][None, :] - B[:, k][:, None]
                out += z * z
            else:
                out += AT[k][None, :] * B[:, k][:, None]
        if kp.code == GAUSSIAN:
            out = exp_nonpositive_array(kp.neg_gamma * out)
        elif kp.code == POLYNOMIAL:
            out = _python(poly_power)(out, kp.coef0, kp.degree)
        return out + 1.0 if kp.augmented else out


def _points(X, Z) -> tuple[np.ndarray, np.ndarray]:
    X = np.ascontiguousarray(X, dtype=float)
    Z = np.ascontiguousarray(Z, dtype=float)
    if X.ndim != 2 or Z.ndim != 2 or X.shape[1] != Z.shape[1]:
        raise ValueError(f"K(X, Z) needs two 2-D arrays with as many columns, got shapes "
                         f"{X.shape} and {Z.shape}")
    return X, Z


def kernel_cross(kp, X, Z) -> np.ndarray:
    """The m × n matrix K(X[i], Z[j]) of two sets of points (rows), + 1 if augmented, no
    diagonal term: compiled (`kernel_block`), or `kernel_block_array` when nothing
    compiles. Vectorised over the larger set."""
    X, Z = _points(X, Z)
    block = kernel_block if JIT else kernel_block_array
    if len(X) >= len(Z):
        return block(kp, np.ascontiguousarray(X.T), Z).T
    return block(kp, np.ascontiguousarray(Z.T), X)


def kernel_expansion(kp, Z, S, coef) -> np.ndarray:
    """h[i] = Σ_s coef_s·K(Z[i], S[s]) (+ 1 per term if augmented), summed in the order of S:
    the decision values of a model with support vectors S, without the m × n matrix:
    `kernel_sources_dot`, or `kernel_sources_dot_array` when nothing compiles."""
    Z, S = _points(Z, S)
    coef = np.ascontiguousarray(coef, dtype=float).reshape(-1)
    if len(coef) != len(S):
        raise ValueError(f"coef must have one number per point of S ({len(S)}), got {len(coef)}")
    out = np.zeros(len(Z))
    dot = kernel_sources_dot if JIT else kernel_sources_dot_array
    dot(kp, np.ascontiguousarray(Z.T), S, coef, out)
    return out


def kernel_sources_dot_array(kp, XT, Z, coef, out) -> None:
    """`kernel_sources_dot` in numpy, for when nothing compiles: the same sum of
    `kernel_block_array`'s rows, a block of sources at a time (~8 MB), so the same bits."""
    step = max(1, (1 << 20) // max(1, XT.shape[1]))
    for lo in range(0, len(Z), step):
        block = kernel_block_array(kp, XT, Z[lo:lo + step])
        with np.errstate(all="ignore"):
            for q in range(len(block)):
                out += coef[lo + q] * block[q]          # kernel_axpy's out[t] += c · col[t]


__all__ = ["GAUSSIAN", "LINEAR", "POLYNOMIAL", "KernelNumbers", "abs_kernel_column",
           "bits_as_float", "exp_nonpositive", "exp_nonpositive_array", "exp_reduced",
           "kernel_axpy", "kernel_block", "kernel_block_array", "kernel_column", "kernel_cross",
           "kernel_diag", "kernel_eff_column", "kernel_expansion", "kernel_matrix",
           "kernel_numbers", "kernel_sources_dot", "kernel_sources_dot_array", "kernel_value",
           "poly_power"]
