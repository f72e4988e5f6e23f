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
`refit_checked` runs the warm refit (`warmstart.refit`) and then `carried_checked` on its α in
one compiled call, for the same reason; and when its α cannot pass (a KKT violation above
TOL) and `fit` would polish it, the polish's compiled rounds (`polish_fast.rounds`) and
`checked` of their α too, ahead of the verdict: at n = 1,000 the Python of `polish.polish`
and of the `checked` after it were 0.1–0.13 ms of a 0.6–0.75 ms refit (blobs, RBF, a support
vector added or moved; issue 31). `polished_checked` hands `fit` that polish, or runs
`polish.polish` when the rounds did not finish (its second, NEAR try included).

Nothing here reads the solver's gradient: the certificate stays independent of the solver
(`refit_checked` hands the check only the run's α, as `fit` would).
"""

from __future__ import annotations

from functools import lru_cache, partial

import numpy as np

from . import polish as _polish
from . import polish_fast as _fast
from . import warmstart as _warm
from .bounds import is_at_C
from .certify import (
    TOL,
    Columns,
    Expansion,
    _abs_numbers,
    _abs_of,
    _carry,
    _kernel_numbers,
    _plain_numbers,
    _sums,
    judge,
    round_base,
    round_base_of,
)
from .finalize import derive_from_expansion, loss_power, solution
from .jit import JIT, njit
from .kernel_values import KernelNumbers
from .warmstart import _warm_refit


def carried_checked(problem, alpha: np.ndarray, model, p: int, s: int,
                    columns: Columns | None = None):
    """(finalize's fields, the certificate, the expansion) of α for `problem`, whose first
    p and last s rows are `model`'s (the rows between were removed and added): the
    expansion carried from `model.diagnostics.expansion` (`certify._carry`), finalize's
    fields from it, and the certificate of them. columns: where to keep the columns of the
    free support vectors that the carry computed (the polish's, as `certify.expansion`
    keeps them on a cold fit; each a Gaussian column of n exponentials), when the
    certificate fails (the polish runs only then)."""
    (kp, kp_abs, old_X, old_y, old_alpha, old_g, old_mag), tail = _carry_args(problem, model)
    out = _carried_check(kp, kp_abs, problem.XT, problem.X, problem.y, old_X, old_y, old_alpha,
                         old_g, old_mag, np.ascontiguousarray(alpha, dtype=float), int(p),
                         int(s), *tail, columns is not None)
    return _checked_of(problem, out, columns)


def refit_checked(problem, model, columns: Columns | None, *, polish: bool, tol: float,
                  max_iter: int | None, wss: str, deadline: float = np.inf,
                  time_budget: float | None = None, refine_tol: float | None = None):
    """`warmstart.refit` and then `carried_checked` of its α, in one compiled call (the
    Playground refits on every click: the second call, its arguments and the Python between
    them were ~10 % of a warm refit at n = 1,000, issue 31): (Refit, first, the polish), or
    None when `refit` would be; first() makes (finalize's fields, the certificate, the
    expansion) of the run's α (`fit` asks for them only when there is no polish or its
    certificate fails: a polish's α is certified instead; the run's solution and certificate,
    made first, were ~10 % of a polished refit at n = 1,000, cold caches). columns: as
    `carried_checked`'s, given the free support vectors' columns when polish and the run
    converged (`fit` polishes then). The polish: for `polished_checked`, what the compiled
    rounds made of α when `fit` would polish it and its KKT violation is above TOL (then the
    certificate fails it, whatever else it finds), else None."""
    keep_free = polish and columns is not None
    warm, check, use_cache = _numbers(problem, tol, max_iter, wss, refine_tol, keep_free)
    saved = _warm.saved_columns(model, use_cache)
    prev = model.diagnostics.expansion
    run, out, folded = _refit_check(
        problem.XT, problem.X, problem.y, np.ascontiguousarray(model.X, dtype=float),
        np.asarray(model.y, dtype=float), model.alpha, model.gradient, saved.rows,
        saved.col_slot, saved.slot_full, float(deadline), prev.g, prev.mag, warm, check,
        (TOL, _polish.MAX_FREE, *_polish.limits(problem)))   # (read each time: tests vary them)
    max_iter = warm[4]
    done = _warm.refit_of(run, use_cache, max_iter, time_budget, tol)
    if done is None:
        return None
    keep = columns if polish and done.run.converged else None
    return done, partial(_checked_of, problem, out, keep), folded if keep is not None else None


def polished_checked(problem, sol: dict, ex: Expansion, columns: Columns, folded=None):
    """(finalize's fields, the certificate, the expansion) of the polish of sol's α
    (`polish.polish`, then `checked`), or None when it found none. folded: the same polish
    made by the warm refit's compiled call (`refit_checked`, `_polish_checked`), or None
    (not made, or its rounds did not finish: then `polish.polish` runs, its NEAR try too).
    A folded polish is what `polish.polish` returns from the same arguments (its first try's
    compiled rounds, DONE: it tries no other), so the verdict on it is final."""
    if folded is not None:
        return _checked_of(problem, folded, None)
    done = _polish.polish(problem, sol["alpha"], sol["b"], ex, columns)
    if done is None:
        return None
    return (*checked(problem, done.alpha, done.expansion), done.expansion)


#: `_numbers`' tuples by problem shape and fit settings (a few per session: one per kernel,
#: C, n and d the pages fit)
_NUMBERS: dict = {}


def _numbers(problem, tol, max_iter, wss, refine_tol, keep_free: bool) -> tuple:
    """(`_refit_check`'s warm and check tuples, use the column cache?): its
    arguments that are numbers, the deadline and the polish's limits aside, the same on every
    refit of one problem's shape (kernel, C, loss, bias, n, d) with one fit's settings. Made
    once: on every click they were ~10 µs of Python, and numba's dispatch checks each
    argument's type (~0.1 µs each, more cache-cold): 16 arguments now, 40 before (issue 31).
    warm: `_warm_refit`'s (`warmstart.refit_numbers`); check: `_carried_check`'s and
    `_polish_checked`'s (the kernels' numbers, C, the loss and bias's, keep_free, fold; JIT is
    read on each call, as `polish.limits` are: tests switch them). The kernels' numbers as
    plain tuples: numba reads a namedtuple argument's types in Python, ~1.6 µs each per call,
    a plain tuple's in C (~0.2)."""
    key = (problem.spec, problem.C, problem.loss, problem.bias, problem.X.shape, tol, max_iter,
           wss, refine_tol, keep_free, JIT)
    hit = _NUMBERS.get(key)
    if hit is None:
        if len(_NUMBERS) >= 256:
            _NUMBERS.clear()
        warm, use_cache = _warm.refit_numbers(problem, tol, max_iter, wss, _warm.MAX_CHANGES,
                                              refine_tol)
        kt, kt_plain, kt_abs, diag, unit_base = _kernel_args(problem.spec, problem.X.shape[1])
        check = (kt_plain, kt_abs, float(problem.C), problem.equality,
                 problem.bias == "augmented", loss_power(problem), diag, unit_base, keep_free,
                 keep_free and JIT)
        hit = _NUMBERS[key] = ((kt, *warm[1:]), check, use_cache)
    return hit


@lru_cache(maxsize=256)
def _kernel_args(spec, d: int) -> tuple:
    """`refit_checked`'s numbers of the kernel spec on d features, made once per kernel (specs
    are frozen, hashable; ~3 µs of Python on every click, issue 31): K_eff's, k's and its
    rounding bound's numbers (`certify._abs_of`) as plain tuples, K_eff's diagonal term and
    `certify.round_base`."""
    return (tuple(spec.numbers()), tuple(_plain_numbers(spec)), tuple(_abs_of(spec)),
            float(spec.diag), round_base_of(spec, d))


def _carry_args(problem, model) -> tuple[tuple, tuple]:
    """`_carried_check`'s arguments: (the kernels' numbers, the model's X, y and α, its
    expansion's g and mag) and (C, C_box, the loss and bias's numbers) — the others are the
    problem's X and y and (α, p, s, keep_free)."""
    prev = model.diagnostics.expansion
    head = (_kernel_numbers(problem), _abs_numbers(problem),
            np.ascontiguousarray(model.X, dtype=float), np.asarray(model.y, dtype=float),
            np.asarray(model.alpha, dtype=float), prev.g, prev.mag)
    tail = (float(problem.C), float(problem.C_box), problem.equality,
            problem.bias == "augmented", loss_power(problem), float(problem.spec.diag),
            round_base(problem))
    return head, tail


def _checked_of(problem, out, columns: Columns | None):
    """(finalize's fields, the certificate, the expansion) from `_carried_check`'s out
    (or `_polish_checked`'s, its first five), keeping its columns in columns (unless None)
    when the certificate fails."""
    g, mag, alpha, derived, t = out[:5]
    ex = Expansion(g, mag)
    sol = solution(alpha, *derived)
    cert = judge(problem, alpha, sol["b"], ex, t)
    if columns is not None and not cert.passed:   # (the polish's, which runs only then: a
        columns.keep(out[6], out[5])              # passed refit saves the store, ~3 µs)
    return sol, cert, ex


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
    """(α, `finalize._derive`'s tuple, `certify._sums`'s): `finalize(problem, α, g=g)`
    (`finalize.derive_from_expansion`), then `_sums` with the b derived."""
    out = derive_from_expansion(alpha_raw, g, y, C, C_box, equality, augmented, k, diag)
    alpha, derived = out[0], out[1:]
    t = _sums(y, alpha, g, mag, derived[0], C_box, diag, k == 2, equality, unit_base)
    return alpha, derived, t


@njit(cache=True, nogil=True)
def _carried_check(kp, kp_abs, XT, X, y, old_X, old_y, old_alpha, old_g, old_mag, alpha_raw,
                   p, s, C, C_box, equality, augmented, k, diag, unit_base, keep_free):
    """(g, mag, α, `finalize._derive`'s tuple, `certify._sums`'s, kept columns, their
    indices) as `carried_checked` says: `_carry` (keeping the columns of free αⱼ when
    keep_free), then `_derive_and_sums`."""
    keep = np.zeros(len(alpha_raw), dtype=np.bool_)
    if keep_free:                    # the polish's free set: α ≠ 0 and not at C
        for j in range(len(alpha_raw)):
            keep[j] = alpha_raw[j] != 0.0 and not is_at_C(alpha_raw[j], C_box)
    g, mag, block, idx = _carry(kp, kp_abs, XT, X, y, old_X, old_y, old_alpha, old_g, old_mag,
                                alpha_raw, p, s, keep)
    alpha, derived, t = _derive_and_sums(alpha_raw, g, mag, y, C, C_box, equality, augmented,
                                         k, diag, unit_base)
    return g, mag, alpha, derived, t, block, idx


@njit(cache=True, nogil=True)
def _refit_check(XT, X, y, old_X, old_y, old_alpha, old_G, rows, col_slot, slot_full, deadline,
                 old_g, old_mag, warm, check, limits):
    """(`warmstart._warm_refit`'s out, its column cache None without one; `_carried_check`'s
    of its α; `_polish_checked`'s of that): `refit_checked`. The arguments are theirs in
    turn, each once; their numbers in two tuples made once (`_numbers`): warm, `_warm_refit`'s
    (the kernel's numbers as a plain tuple); check, the others (the kernels' numbers
    `KernelNumbers` as plain tuples; keep_free: polish and the run converged; fold: the polish
    too, where `polish._rounds` runs the compiled rounds, JIT); limits: `_polish_checked`'s.
    When the rows do not match, the check is of no points."""
    (kt, C_box, max_changes, tol, max_iter, mvp, n_slots, base, first, refine_tol,
     refine_steps) = warm
    kt_plain, kt_abs, C, equality, augmented, k, diag, unit_base, polish, fold = check
    kp, kp_plain, kp_abs = KernelNumbers(*kt), KernelNumbers(*kt_plain), KernelNumbers(*kt_abs)
    run = _warm_refit(kp, XT, X, y, C_box, old_X, old_y, old_alpha, old_G, max_changes, rows,
                      col_slot, slot_full, tol, max_iter, mvp, n_slots, base, first, deadline,
                      refine_tol, refine_steps)
    # its column cache only when it has one (n_slots > 0: `kernel_cache.kept_columns` hands on
    # none without): boxing the three arrays was ~2 µs of a linear refit (issue 31)
    run = run[:8] + (run[8] if n_slots > 0 else None,) + run[9:]
    ok, p, s, converged, alpha = run[0], run[1], run[2], run[6], run[9]
    if not ok:
        e = np.zeros(0)
        alpha_e, derived, t = _derive_and_sums(e, e, e, e, C, C_box, equality, augmented, k,
                                               diag, unit_base)
        return (run, (e, e, alpha_e, derived, t, np.empty((0, 0)), np.empty(0, dtype=np.int64)),
                None)
    out = _carried_check(kp_plain, kp_abs, XT, X, y, old_X, old_y, old_alpha, old_g, old_mag,
                         alpha, p, s, C, C_box, equality, augmented, k, diag, unit_base,
                         polish and converged)
    if not (polish and converged and fold):
        return run, out, None
    return run, out, _polish_checked(kp_plain, kp_abs, XT, X, y, out, C, C_box, equality,
                                     augmented, k, diag, unit_base, limits)


@njit(cache=True, nogil=True)
def _polish_checked(kp, kp_abs, XT, X, y, out, C, C_box, equality, augmented, k, diag,
                    unit_base, limits):
    """What `fit` makes of `_carried_check`'s out when its α fails the certificate: the polish
    (`polish.polish`'s first try, `polish._compiled`: the rounds from the active set α says,
    with the columns the carry kept of the free αⱼ) and `_derive_and_sums` of its α, as
    `polished_checked` reads it; None when α's KKT violation is within TOL (the certificate
    may pass it: its verdict comes first), when `polish._rounds` would not run the compiled
    rounds (more free αᵢ than MAX_FREE), or when they did not finish (GAVE_UP, FALLBACK:
    `polish.polish` runs). limits: (TOL, MAX_FREE, `polish.limits`)."""
    g, mag, alpha, derived, t, block, idx = out
    tol, max_free_gate = limits[0], limits[1]
    if not t.kkt > tol:
        return None
    n = len(alpha)
    at0, atC = np.empty(n, dtype=np.bool_), np.empty(n, dtype=np.bool_)
    m = 0
    for i in range(n):
        at0[i], atC[i] = alpha[i] == 0.0, is_at_C(alpha[i], C_box)
        if not at0[i] and not atC[i]:
            m += 1
    if m > max_free_gate:
        return None
    held = 0                      # the kept columns of free αⱼ (`Columns.held`)
    for q in range(len(idx)):
        if not at0[idx[q]] and not atC[idx[q]]:
            held += 1
    idx0, block0 = idx, block
    if held < len(idx):
        idx0, block0 = np.empty(held, dtype=np.int64), np.empty((n, held))
        p = 0
        for q in range(len(idx)):
            if not at0[idx[q]] and not atC[idx[q]]:
                idx0[p] = idx[q]
                block0[:, p] = block[:, q]
                p += 1
    code, a, _, g1, mag1, _ = _fast.rounds(
        kp, kp_abs, XT, X, y, alpha, derived[0], g, mag, at0, atC,
        C_box, augmented, equality, diag, unit_base, limits[2], limits[3], limits[4],
        limits[5], limits[6], limits[7], idx0, block0)
    if code != _fast.DONE:
        return None
    alpha1, derived1, t1 = _derive_and_sums(a, g1, mag1, y, C, C_box, equality, augmented, k,
                                            diag, unit_base)
    return g1, mag1, alpha1, derived1, t1
