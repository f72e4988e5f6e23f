"""Warm start after an edit: the previous fit's α and gradient carried over to the new points.

When a point is added, moved or deleted, the previous optimum is a few SMO steps from the new
one. `fit(..., warm_start=previous_model)` starts there:

1. match rows: the new points are the old ones with one stretch of rows replaced (the p rows
   before it and the s rows after it unchanged and in order — what adding, moving or
   deleting a point does);
2. α₀: a kept point keeps its αᵢ, a new point starts at 0; `smo.feasible_start` clips α to
   the box and restores Σαᵢyᵢ = 0 by lowering as few αᵢ as it can;
3. G₀ = Qα₀ − 1 is updated, not rebuilt. For a kept point t,
       Gₜ = Gₜ(before) + yₜ Σ_s Δ_s K_eff(xₜ, z_s),
   summed over the few sources that changed: a removed point z_s = its old x with
   Δ_s = −αₛyₛ, a kept point whose αₛ `feasible_start` lowered with Δ_s = (αₛ′ − αₛ)yₛ (and
   K_eff's diagonal term for t = s). A new point gets Gₜ = yₜ Σⱼ αⱼyⱼK_eff(xₜ, xⱼ) − 1 from the
   support vectors. That is O(n · changes + #SV · new points) kernel values, where computing
   G from α costs O(n · #SV) — most of a refit after one click.
4. the SMO steps need kernel columns; the previous fit's cache holds many of them, equal
   on the kept points: a column is copied from it and only the added points' entries are
   computed (`kernel_cache.full_column`);
5. with the linear kernel (from 200 points), SMO's steps are first taken on the points near
   the margin only, and the others' gradient follows from Δw (`warm_working_set.py`): after
   an edit its pair steps zigzag among a few points, each a pass over all n.

`refit` is what `fit` runs: steps 1–3 (`warm_state`) and `smo_fast.solve` from there, in
one compiled call, `_warm_refit` (the model's numbers are then derived once, from the
certificate's expansion: `checked.py`). The Playground refits on every click, and at n = 1,000
the Python between those steps cost as much as the SMO steps after an added point.

| symbol | code       | meaning                                                    |
|--------|------------|------------------------------------------------------------|
| α₀     | `alpha0`   | the start: previous α on kept points, 0 on new points      |
| G      | `gradient` | ∇f(α) = Qα − 1 of the dual (the model keeps it)            |
| Δ_s    | `coef`     | change of αₛyₛ at source z_s                               |
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np

from . import kernel_cache as kc
from . import warm_working_set as _ws
from .bounds import is_free, threshold
from .bounds import without_residues_jit as _without_residues
from .jit import njit
from .kernel_cache import PreviousColumns, SavedColumns
from .kernel_values import kernel_axpy, kernel_column, kernel_diag
from .solvers.smo import default_max_iter, feasible_start, smo_result
from .solvers.smo_fast import LoopProblem, LoopSettings, LoopState, newton_period, smo_loop

#: More changed rows than this and a cold start is as good (the update's cost grows with them).
MAX_CHANGES = 8
#: `refit`: steps past tol towards refine_tol before the polish is left to do it, as
#: point-steps (n × steps: a step is O(n), the compiled polish a fixed ~0.1 ms plus
#: O(n·|F|)), at least 32 and at most 256 steps. At n = 1,000 the polish of a warm refit
#: costs 0.17–0.57 ms, about 40 pair steps (~4 µs each); the linear kernel got there in 5–28
#: more steps, the Gaussian (C = 1) in 96–121 (blobs) or not within 256 (moons: those steps
#: were lost, 1 ms). 32 steps against 256: moons Gaussian's refits 1.7–1.9 ms against
#: 3.2–5.8, blobs Gaussian's (then polished) 1.0–1.1 against 1.1–1.5 (bench_speed.py --only
#: warm, process time, issue 31).
REFINE_WORK = 32_000


#: `refit` refines only when its steps (`refine_steps`) are at least this many per free α:
#: from tol 1e-3 to refine_tol it took 5–9 steps per free α on the edits of bench_speed.py's
#: warm part (Gaussian C = 1, n = 200: 58–157 steps for 13–19 free; linear, 3 free: 5–28),
#: and at n = 1,000 (32 steps) the Gaussian's 18–31 free never got there: 32 steps lost on
#: every edit, 0.2–0.5 ms of a 1–2 ms refit (issue 31). Then the polish does it.
REFINE_PER_FREE = 8


#: `refit` with the polish after it (refine_tol given; not the linear kernel's working set):
#: SMO stops at m(α) − M(α) ≤ this, not tol, unless the refinement would run (few free α:
#: then on to tol and refine_tol as before); the polish (`polish.py`) makes the tail's
#: steps, and the certificate judges its α (when it fails, `fit` runs SMO on to
#: REFINE_TOL). Gaussian, C = 1, n = 1,000 (bench_speed.py's warm edits, issue 31): SMO's
#: steps 99–129 → 7–16 on moons, 24 / 20 → 8 / 6 on blobs (add-sv, move-sv), each ~3.5 µs;
#: the polish's rounds 2–4 → 3–8 on moons (~15 µs each), 1 on blobs. At 1e-2 the rounds
#: were the same with 18–21 and 10–11 steps; at 5e-2, 6–13 rounds on moons.
POLISH_GAP = 2e-2


def refine_steps(n: int) -> int:
    """`refit`'s steps past tol at n points (REFINE_WORK)."""
    return min(256, max(32, REFINE_WORK // max(n, 1)))


@njit(cache=True, nogil=True)
def _common_ends(old_X, old_y, new_X, new_y):
    """(p, s): the first p rows and the last s rows are equal in both (p + s ≤ both lengths).
    (Written out as flat loops: a helper per row compare made this 4× slower.)"""
    n, m, d = old_X.shape[0], new_X.shape[0], old_X.shape[1]
    k = min(n, m)
    p = 0
    while p < k and old_y[p] == new_y[p]:
        same = True
        for c in range(d):
            if old_X[p, c] != new_X[p, c]:
                same = False
                break
        if not same:
            break
        p += 1
    s = 0
    while s < k - p and old_y[n - 1 - s] == new_y[m - 1 - s]:
        same = True
        for c in range(d):
            if old_X[n - 1 - s, c] != new_X[m - 1 - s, c]:
                same = False
                break
        if not same:
            break
        s += 1
    return p, s


def match_rows(old_X, old_y, new_X, new_y, max_changes: int = MAX_CHANGES):
    """(p, s) — the first p and the last s rows are kept, the rows between were removed
    (old) and added (new) — or None when more than max_changes rows differ."""
    ok, p, s = _match(old_X, np.asarray(old_y, dtype=float), new_X,
                      np.asarray(new_y, dtype=float), max_changes)
    return (p, s) if ok else None


@njit(cache=True, nogil=True)
def _match(old_X, old_y, new_X, new_y, max_changes):
    """(ok, p, s): `_common_ends`, ok when at most max_changes rows differ."""
    p, s = _common_ends(old_X, old_y, new_X, new_y)
    return max(old_X.shape[0], new_X.shape[0]) - p - s <= max_changes, p, s


@njit(cache=True, nogil=True)
def _updated_gradient(kp, XT, X, y, old_X, old_y, old_alpha, old_G, mapped, alpha0, p, s):
    """Step 3 of the module docstring: G₀ = Qα₀ − 1 from the previous G, one kernel column
    per changed source (a removed support vector, an α lowered by `feasible_start`) and per
    added point."""
    n, n_old, diag = X.shape[0], old_X.shape[0], kp.diag
    G0 = np.empty(n)
    for t in range(p):
        G0[t] = old_G[t]
    for t in range(n - s, n):
        G0[t] = old_G[t - n + n_old]
    col, corr = np.empty(n), np.zeros(n)
    for q in range(p, n_old - s):                 # removed points: Δ = −αₛyₛ at their old x
        if old_alpha[q] != 0.0:
            kernel_axpy(kp, XT, old_X[q], -old_alpha[q] * old_y[q], col, corr)
    for q in range(n):                            # lowered αₛ: Δ = (αₛ′ − αₛ)yₛ
        if alpha0[q] != mapped[q]:
            kernel_axpy(kp, XT, X[q], (alpha0[q] - mapped[q]) * y[q], col, corr)
    for t in range(n):
        if t < p or t >= n - s:                   # kept: Gₜ += yₜ Σ Δ_s K_eff(xₜ, z_s)
            G0[t] += y[t] * corr[t]
            if alpha0[t] != mapped[t]:
                G0[t] += (alpha0[t] - mapped[t]) * diag       # K_eff's δ term
    for t in range(p, n - s):                     # added: Gₜ = yₜ Σⱼ αⱼyⱼK_eff(xₜ, xⱼ) − 1
        kernel_column(kp, XT, n, X[t], col)
        acc = 0.0
        for j in range(n):
            if alpha0[j] != 0.0:
                acc += alpha0[j] * y[j] * col[j]
        G0[t] = y[t] * acc - 1.0 + alpha0[t] * diag
    return G0


def compatible(problem, model) -> str | None:
    """None if `model` solved the same kind of problem as `problem` (kernel, C, loss, bias,
    features), else what differs."""
    if model.gradient is None:
        return f"it has no gradient (solver {model.solver!r})"
    if model.X.shape[1] != problem.X.shape[1]:
        return f"it has {model.X.shape[1]} features, X has {problem.X.shape[1]}"
    if (model.loss, model.bias, model.C) != (problem.loss, problem.bias, problem.C):
        return (f"it has loss={model.loss!r}, bias={model.bias!r}, C={model.C!r}; this fit "
                f"loss={problem.loss!r}, bias={problem.bias!r}, C={problem.C!r}")
    spec = problem.spec.of(model.kernel, model.C, model.loss, model.bias)
    if spec is not problem.spec and spec != problem.spec:   # (specs are made once: `is` first)
        return f"its kernel {model.kernel!r} is another kernel"
    return None


class WarmState(NamedTuple):
    """Where a warm start begins (`warm_state`)."""

    alpha0: np.ndarray                  # α₀, feasible for the edited problem
    G0: np.ndarray                      # the gradient Qα₀ − 1 at α₀
    columns: kc.PreviousColumns | None  # the model's kernel columns, rows matched (or None)


def warm_state(problem, model, max_changes: int = MAX_CHANGES) -> WarmState | None:
    """`WarmState` (alpha0, G0, columns) for `problem` from `model`, fit on the points
    before the edit, or None when more than max_changes rows changed (then a cold start).
    columns: the model's kernel column cache with (p, s) (`kernel_cache.PreviousColumns`),
    for `smo_fast.solve` to copy from (or None)."""
    ok, p, s, alpha0, G0 = _warm_start(
        problem.spec.numbers(), problem.XT, problem.X, problem.y, float(problem.C_box),
        model.X, np.asarray(model.y, dtype=float), model.alpha, model.gradient, max_changes)
    if not ok:
        return None
    columns = None if model.columns is None else kc.previous_columns(model.columns, p, s)
    return WarmState(alpha0, G0, columns)


@njit(cache=True, nogil=True)
def _warm_start(kp, XT, X, y, C_box, old_X, old_y, old_alpha, old_G, max_changes):
    """Steps 1–3 in one compiled call (the Playground makes it on every click):
    (ok, p, s, α₀, G₀), ok False when more than max_changes rows changed."""
    n, n_old = X.shape[0], old_X.shape[0]
    ok, p, s = _match(old_X, old_y, X, y, max_changes)
    if not ok:
        return False, p, s, np.empty(0), np.empty(0)
    mapped = np.zeros(n)                                                  # step 1
    mapped[:p] = old_alpha[:p]
    mapped[n - s:] = old_alpha[n_old - s:]
    alpha0 = feasible_start(mapped, y, C_box)                             # step 2
    G0 = _updated_gradient(kp, XT, X, y, old_X, old_y, old_alpha, old_G,  # step 3
                           mapped, alpha0, p, s)
    return True, p, s, alpha0, G0


class Refit(NamedTuple):
    """What `refit` returns."""

    run: object          # the run's fields of the model (a `SolverResult`)
    alpha: np.ndarray    # the solver's α, rounding residues set to 0 (`bounds.without_residues`)
    p: int               # the rows matched (`match_rows`): the first p and the last s are
    s: int               # the previous model's


def refit(problem, model, *, tol: float, max_iter: int | None, wss: str,
          max_changes: int = MAX_CHANGES, deadline: float = np.inf,
          time_budget: float | None = None, refine_tol: float | None = None) -> Refit | None:
    """`Refit` (run, α, p, s) for `problem` from `model`, or None when more than max_changes
    rows changed (then a cold start). α is `smo_fast.solve(problem, alpha0=α₀, G0=G₀,
    columns=columns)`'s from `warm_state` (the same compiled steps, the same numbers) without
    its rounding residues; run holds the run's fields of the model (n_iter, converged, status,
    columns, alpha0 = α₀). deadline, time_budget: as `smo_fast.solve`'s. Nothing is derived
    from the solver's gradient here: `fit` derives the model's numbers once, from the
    certificate's expansion (`checked.py`).

    refine_tol: once the run meets tol, with REFINE_PER_FREE steps per free α, it goes on to
    refine_tol for at most `refine_steps(n)` more steps (from a copy: when it does not get
    there, the run at tol is kept, and so are its n_iter and columns; when it does, n_iter
    counts them and run.refined_iter says how many). At refine_tol the α passes the
    certificate as it is, and the polish (`polish.py`), which a warm refit's α at tol 1e-3
    needed after most edits, is not run (`fit` passes api.REFINE_TOL when it would polish).
    With refine_tol given and too many free α to refine, the run stops at POLISH_GAP instead
    of tol: the polish after it makes the tail's steps (its converged: m(α) − M(α) ≤
    POLISH_GAP; `fit`'s model is converged only when the certificate passes its α)."""
    args, use_cache, max_iter = refit_args(problem, model, tol, max_iter, wss, max_changes,
                                           deadline, refine_tol)
    return refit_of(_warm_refit(*args), use_cache, max_iter, time_budget, tol)


def refit_args(problem, model, tol, max_iter, wss, max_changes, deadline, refine_tol):
    """(`_warm_refit`'s arguments, use the column cache?, max_iter) for `refit`'s arguments."""
    numbers, use_cache = refit_numbers(problem, tol, max_iter, wss, max_changes, refine_tol)
    kp, C_box, max_changes, tol, max_iter, mvp, slots, base, first, refine_tol, steps = numbers
    saved = saved_columns(model, use_cache)
    args = (kp, problem.XT, problem.X, problem.y, C_box, model.X, np.asarray(model.y, dtype=float),
            model.alpha, model.gradient, max_changes, saved.rows, saved.col_slot,
            saved.slot_full, tol, max_iter, mvp, slots, base, first, float(deadline), refine_tol,
            steps)
    return args, use_cache, max_iter


def refit_numbers(problem, tol, max_iter, wss, max_changes, refine_tol) -> tuple[tuple, bool]:
    """(`_warm_refit`'s arguments that are numbers, the deadline aside — the kernel's, C_box,
    max_changes, tol, max_iter, mvp, the column slots, `newton_period`'s (base, first),
    refine_tol, `refine_steps` — use the column cache?): the same on every refit of one
    problem's shape with one fit's settings (`checked.refit_checked` makes them once)."""
    use_cache = kc.caches_columns(problem)
    default, slots, base, first, steps = _sizes(len(problem.y), use_cache)
    return (problem.spec.numbers(), float(problem.C_box), max_changes, float(tol),
            int(default if max_iter is None else max_iter), wss == "max_violating_pair", slots,
            base, first, -1.0 if refine_tol is None else float(refine_tol), steps), use_cache


def saved_columns(model, use_cache: bool):
    """The model's kernel columns for the refit to copy from (`kernel_cache.SavedColumns`),
    or none."""
    return model.columns if use_cache and model.columns is not None else kc.NO_COLUMNS


@lru_cache(maxsize=64)
def _sizes(n: int, use_cache: bool) -> tuple[int, int, int, int, int]:
    """`refit_numbers`' numbers that depend on n alone (and the cache's use): the default
    max_iter, the column slots, `newton_period`'s (base, first) and `refine_steps` — made
    once per n (~3.5 µs of Python on every click, issue 31)."""
    return (default_max_iter(n), int(kc.column_slots(n, use_cache, warm=True)),
            *newton_period(n), refine_steps(n))


def refit_of(out, use_cache: bool, max_iter: int, time_budget, tol: float) -> Refit | None:
    """`refit`'s answer from `_warm_refit`'s out (None when it matched no rows). A run that
    stopped at POLISH_GAP, above tol, says so in its status."""
    ok, p, s, alpha0, it, refined, converged, gap, cache, alpha = out
    if not ok:
        return None
    status = (f"stopped at m(α) − M(α) = {gap:.3g} ≤ {POLISH_GAP:g} for the polish (its "
              "exact rounds take the rest; tol not met by SMO)") if converged and gap > tol \
        else None
    run = smo_result(alpha, it, converged, gap, max_iter, time_budget, status,
                     columns=kc.kept_columns(cache, use_cache), alpha0=alpha0,
                     refined_iter=int(refined))
    return Refit(run, alpha, int(p), int(s))


@njit(cache=True, nogil=True)
def _warm_refit(kp, XT, X, y, C_box, old_X, old_y, old_alpha, old_G, max_changes, rows,
                col_slot, slot_full, tol, max_iter, mvp, n_slots, base, first, deadline,
                refine_tol, refine_steps):
    """`refit`'s compiled part in one call (the Playground refits on every click: a second
    call, its arguments and results, cost ~10 % of a warm refit at n = 1,000, issue 31):
    `_warm_start`, then `_solve_warm` from there with `smo_fast.LoopSettings` (tol, max_iter,
    mvp, no shrinking, n_slots, base, first, deadline) and the previous fit's columns (rows,
    col_slot, slot_full: `kernel_cache.PreviousColumns` with ends (p, s); none when empty).
    (ok, p, s, α₀, iterations, refined, converged, gap, columns, α); ok False as
    `_warm_start`'s (the rest is then not a run)."""
    ok, p, s, alpha0, G0 = _warm_start(kp, XT, X, y, C_box, old_X, old_y, old_alpha, old_G,
                                       max_changes)
    ends = np.zeros(2, dtype=np.int64)
    if len(col_slot):                 # with no columns, ends (0, 0) map no point to one
        ends[0], ends[1] = p, s
    if not ok:
        return (False, p, s, alpha0, 0, 0, False, 0.0, SavedColumns(rows, col_slot, slot_full),
                alpha0)
    settings = LoopSettings(tol, max_iter, mvp, False, n_slots, base, first, deadline)
    it, refined, converged, gap, cache, alpha = _solve_warm(
        kp, XT, X, y, C_box, alpha0, G0, PreviousColumns(rows, col_slot, slot_full, ends),
        settings, refine_tol, refine_steps, p, s)
    return True, p, s, alpha0, it, refined, converged, gap, cache, alpha


@njit(cache=True, nogil=True)
def _n_free(alpha, C_box):
    """How many αᵢ are free (`bounds.is_free`)."""
    eps = threshold(alpha)
    count = 0
    for a in alpha:
        count += is_free(a, C_box, eps)
    return count


@njit(cache=True, nogil=True)
def _solve_warm(kp, XT, X, y, C_box, alpha0, G0, previous, settings, refine_tol,
                refine_steps, head, tail):
    """`smo_fast.solve`'s warm run as `settings` say (`smo_fast.LoopSettings`; no shrinking:
    see there; Newton steps on the free set as a cold fit's, `smo_fast.newton_period`) from
    (α₀, G₀), then (refine_tol > 0, REFINE_PER_FREE steps per free α) on to refine_tol from
    a copy, kept if it gets there within refine_steps (`refit`), in one call; α returned
    without its rounding residues (`bounds.without_residues`). G0 is overwritten. head,
    tail: the rows kept from the fit before (`_common_ends`' p and s). The linear kernel's
    steps are first made on the points near the margin (`warm_working_set.py`, the
    refinement's too, with its budget in point-steps); where the gap then fails on all
    points, they go on on all. With refine_tol > 0 (the polish follows) the run on all points
    stops at POLISH_GAP, and goes on to tol only when the refinement would run."""
    alpha = alpha0.copy()
    n = X.shape[0]
    s = settings
    G = G0
    cache = SavedColumns(previous.rows, previous.col_slot, previous.slot_full)
    it, gap, converged = 0, np.inf, False
    subset = _ws.applies(kp, s.n_slots, n)
    if subset:
        idx = _ws.working_set(alpha, G, y, C_box, head, tail)
        if len(idx) <= _ws.MAX_SHARE * n:
            it, gap, ok = _ws.subset_run(kp, X, y, C_box, alpha, G, idx,
                                         _ws.subset_settings(s, s.tol, s.max_iter))
            converged = ok and gap <= s.tol
    problem = LoopProblem(X, XT, y, kernel_diag(kp, X), kp, C_box)
    # polished (refine_tol > 0) and not the working set's: to POLISH_GAP first (below)
    loose = refine_tol > 0.0 and not subset and s.tol < POLISH_GAP
    if not converged:                   # on all points, from where the working set got to
        more = LoopSettings(POLISH_GAP if loose else s.tol, s.max_iter - it, s.mvp,
                            s.shrinking, s.n_slots, s.base, s.first, s.deadline)
        run = smo_loop(problem, more, LoopState(alpha, G, np.zeros(0), True, previous))
        it, gap, G, cache, converged = it + run.n_iter, run.gap, run.G, run.columns, \
            run.converged
    if (loose and converged and gap > s.tol and it < s.max_iter
            and REFINE_PER_FREE * _n_free(alpha, C_box) <= refine_steps):
        # few free α: the refinement below may reach refine_tol, from tol as before
        own = PreviousColumns(cache.rows, cache.col_slot, cache.slot_full,
                              np.array([n, 0], dtype=np.int64))
        more = LoopSettings(s.tol, s.max_iter - it, s.mvp, s.shrinking, s.n_slots, s.base,
                            s.first, s.deadline)
        run = smo_loop(problem, more, LoopState(alpha, G, np.zeros(0), True, own))
        it, gap, G, cache, converged = it + run.n_iter, run.gap, run.G, run.columns, \
            run.converged
    refined = 0
    if (converged and refine_tol > 0.0 and gap > refine_tol and it < s.max_iter
            and REFINE_PER_FREE * _n_free(alpha, C_box) <= refine_steps):
        done = False
        if subset:
            more, G2 = alpha.copy(), G.copy()
            idx = _ws.working_set(more, G2, y, C_box, head, tail)
            if len(idx) <= _ws.MAX_SHARE * n:
                it2, gap2, ok = _ws.subset_run(
                    kp, X, y, C_box, more, G2, idx,
                    _ws.subset_settings(s, refine_tol,
                                        min(_ws.refine_budget(len(idx)), s.max_iter - it),
                                        _ws.REFINE_FIRST))
                if ok and gap2 <= refine_tol:
                    alpha, gap, it, refined, done = more, gap2, it + it2, it2, True
        if not done:
            more = alpha.copy()
            own = PreviousColumns(cache.rows, cache.col_slot, cache.slot_full,
                                  np.array([X.shape[0], 0], dtype=np.int64))
            further = LoopSettings(refine_tol, min(refine_steps, s.max_iter - it), s.mvp,
                                   s.shrinking, s.n_slots, s.base, s.first, s.deadline)
            run2 = smo_loop(problem, further, LoopState(more, G.copy(), np.zeros(0), True,
                                                        own))
            if run2.converged:
                alpha, cache, gap = more, run2.columns, run2.gap
                it, refined = it + run2.n_iter, run2.n_iter
    return it, refined, converged, gap, cache, _without_residues(alpha)[0]
