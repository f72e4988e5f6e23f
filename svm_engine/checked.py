"""finalize's fields and the certificate of an α, in one compiled call (`checked`); after an
edit, with the expansion carried from the previous model (`carried_checked`).

`checked(problem, α, expansion)` is `finalize(problem, α, g=expansion.g)` then
`certify(problem, α, b, expansion)`: the same formulas (`finalize._derive`, `certify._sums`,
`certify.judge`) with the same arguments, without the Python and numpy between them. After
an edit `fit` carries the certificate's expansion from the previous model
(`certify._carry`: g and mag of the kept rows updated by the columns of what changed), derives
the model's numbers from it (`finalize`'s formulas, `finalize._derive`) and certifies them
(`certify._sums`, then `certify.judge`). Those are the same three steps, with the same
arguments, that `finalize(problem, α, g=g)` and `certify(problem, α, b, expansion)` run; made
as one compiled call because the Playground refits on every click, and at n = 1,000 their
Python (array preparation, dispatch, dicts) cost ~0.15 ms of a 0.3 ms refit (issue 31).

Nothing here reads the solver's gradient: the certificate stays independent of the solver.
"""

from __future__ import annotations

import numpy as np

from .bounds import is_at_C
from .bounds import without_residues_jit as _without_residues
from .certify import (
    Columns,
    Expansion,
    _abs_numbers,
    _carry,
    _kernel_numbers,
    _sums,
    judge,
    round_base,
)
from .finalize import _derive, loss_power, solution
from .jit import njit


def carried_checked(problem, alpha: np.ndarray, model, p: int, s: int,
                    columns: Columns | None = None):
    """(finalize's fields, the certificate, the expansion) of α for `problem`, whose first
    p and last s rows are `model`'s (the rows between were removed and added): the
    expansion carried from `model.diagnostics.expansion` (`certify._carry`), finalize's
    fields from it, and the certificate of them. columns: where to keep the columns of the
    free support vectors that the carry computed (the polish's, as `certify.expansion`
    keeps them on a cold fit; each a Gaussian column of n exponentials)."""
    prev = model.diagnostics.expansion
    X, XT = problem.X, problem.XT
    old_X = np.ascontiguousarray(model.X, dtype=float)
    kp_abs, use_abs = _abs_numbers(problem)
    if use_abs:
        absX, old_absX = np.abs(X), np.abs(old_X)
        absXT = np.ascontiguousarray(absX.T)
    else:                    # not read (`certify._both`): |k| + 0.4 comes from k's columns
        absX, absXT, old_absX = X, XT, old_X
    g, mag, alpha, derived, t, block, idx = _carried_check(
        _kernel_numbers(problem), kp_abs, use_abs, XT, X, absXT, absX, problem.y, old_X,
        old_absX, np.asarray(model.y, dtype=float), np.asarray(model.alpha, dtype=float),
        prev.g, prev.mag, np.ascontiguousarray(alpha, dtype=float), int(p), int(s),
        float(problem.C), float(problem.C_box), problem.equality,
        problem.bias == "augmented", loss_power(problem), float(problem.spec.diag),
        round_base(problem), columns is not None)
    if columns is not None:
        columns.keep(idx, block)
    ex = Expansion(g, mag)
    sol = solution(alpha, *derived)
    return sol, judge(problem, alpha, sol["b"], ex, t), ex


def checked(problem, alpha: np.ndarray, ex: Expansion):
    """(finalize's fields, the certificate) of α with its expansion ex (`certify.expansion`,
    or a polish's), as `finalize(problem, α, g=ex.g)` and `certify` give them."""
    alpha, derived, t = _derive_and_sums(
        np.ascontiguousarray(alpha, dtype=float), ex.g, ex.mag, problem.y, float(problem.C),
        float(problem.C_box), problem.equality, problem.bias == "augmented",
        loss_power(problem), float(problem.spec.diag), round_base(problem))
    sol = solution(alpha, *derived)
    return sol, judge(problem, alpha, sol["b"], ex, t)


@njit(cache=True, nogil=True)
def _derive_and_sums(alpha_raw, g, mag, y, C, C_box, equality, augmented, k, diag,
                     unit_base):
    """(α, `finalize._derive`'s tuple, `certify._sums`'s): `finalize(problem, α, g=g)`'s
    steps (α without its rounding residues; Qα = y∘(g [+ Σαᵢyᵢ]) + δ·α), then `_sums` with
    the b derived."""
    alpha, eps, _ = _without_residues(alpha_raw)
    n = len(alpha)
    bsum = 0.0
    if augmented:
        for i in range(n):
            bsum += alpha[i] * y[i]
    Qa = np.empty(n)
    for i in range(n):
        Qa[i] = y[i] * (g[i] + bsum) + diag * alpha[i]
    derived = _derive(alpha, Qa, g, y, C, C_box, equality, augmented, k, eps)
    t = _sums(y, alpha, g, mag, derived[0], C_box, diag, k == 2, equality, unit_base)
    return alpha, derived, t


@njit(cache=True, nogil=True)
def _carried_check(kp, kp_abs, use_abs, XT, X, absXT, absX, y, old_X, old_absX, old_y,
                   old_alpha, old_g, old_mag, alpha_raw, p, s, C, C_box, equality, augmented,
                   k, diag, unit_base, keep_free):
    """(g, mag, α, `finalize._derive`'s tuple, `certify._sums`'s, kept columns, their
    indices) as `carried_checked` says: `_carry` (keeping the columns of free αⱼ when
    keep_free), then `_derive_and_sums`."""
    keep = np.zeros(len(alpha_raw), dtype=np.bool_)
    if keep_free:                    # the polish's free set: α ≠ 0 and not at C
        for j in range(len(alpha_raw)):
            keep[j] = alpha_raw[j] != 0.0 and not is_at_C(alpha_raw[j], C_box)
    g, mag, block, idx = _carry(kp, kp_abs, use_abs, XT, X, absXT, absX, y, old_X, old_absX,
                                old_y, old_alpha, old_g, old_mag, alpha_raw, p, s, keep)
    alpha, derived, t = _derive_and_sums(alpha_raw, g, mag, y, C, C_box, equality, augmented,
                                         k, diag, unit_base)
    return g, mag, alpha, derived, t, block, idx
