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

| symbol | code       | meaning                                                    |
|--------|------------|------------------------------------------------------------|
| α₀     | `alpha0`   | the start: previous α on kept points, 0 on new points      |
| G      | `gradient` | ∇f(α) = Qα − 1 of the dual (the model keeps it)            |
| Δ_s    | `coef`     | change of αₛyₛ at source z_s                               |
"""

from __future__ import annotations

import numpy as np

from .jit import njit
from .solvers import smo_fast as _fast
from .solvers.smo import feasible_start

#: More changed rows than this and a cold start is as good (the update's cost grows with them).
MAX_CHANGES = 8


@njit(cache=True, nogil=True)
def _common_ends(old_X, old_y, new_X, new_y):
    """(p, s): the first p rows and the last s rows are equal in both (p + s ≤ both lengths)."""
    n, m, d = old_X.shape[0], new_X.shape[0], old_X.shape[1]
    k = min(n, m)
    p = 0
    while p < k and old_y[p] == new_y[p] and _same_row(old_X[p], new_X[p], d):
        p += 1
    s = 0
    while (s < k - p and old_y[n - 1 - s] == new_y[m - 1 - s]
           and _same_row(old_X[n - 1 - s], new_X[m - 1 - s], d)):
        s += 1
    return p, s


@njit(cache=True, nogil=True)
def _same_row(a, b, d):
    for c in range(d):
        if a[c] != b[c]:
            return False
    return True


def match_rows(old_X, old_y, new_X, new_y, max_changes: int = MAX_CHANGES):
    """(p, s) — the first p and the last s rows are kept, the rows between were removed
    (old) and added (new) — or None when more than max_changes rows differ."""
    p, s = _common_ends(old_X, np.asarray(old_y, dtype=float), new_X,
                        np.asarray(new_y, dtype=float))
    if max(len(old_y), len(new_y)) - p - s > max_changes:
        return None
    return p, s


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
    if spec != problem.spec:
        return f"its kernel {model.kernel!r} is another kernel"
    return None


def warm_state(problem, model, max_changes: int = MAX_CHANGES):
    """(alpha0, G0) for `problem` from `model`, fit on the points before the edit, or None
    when more than max_changes rows changed (then a cold start)."""
    match = match_rows(model.X, model.y, problem.X, problem.y, max_changes)
    if match is None:
        return None
    p, s = match
    n_old, n = len(model.y), problem.n
    X, y, spec = problem.X, problem.y, problem.spec
    removed, added = np.arange(p, n_old - s), np.arange(p, n - s)
    mapped = np.zeros(n)                                                  # step 1
    mapped[:p], mapped[n - s:] = model.alpha[:p], model.alpha[n_old - s:]
    alpha0 = feasible_start(mapped, y, problem.C_box)                     # step 2
    G0 = np.empty(n)                                                      # step 3
    G0[:p], G0[n - s:] = model.gradient[:p], model.gradient[n_old - s:]
    lowered = np.flatnonzero(alpha0 != mapped)
    gone = removed[model.alpha[removed] != 0.0]
    if len(lowered) or len(gone):
        coef = np.concatenate((-model.alpha[gone] * model.y[gone],
                               (alpha0[lowered] - mapped[lowered]) * y[lowered]))
        Z = np.concatenate((model.X[gone], X[lowered]))
        corr = np.zeros(n)
        kept_new = np.concatenate((np.arange(p), np.arange(n - s, n)))
        _fast.kernel_sources_dot(spec.numbers(), np.ascontiguousarray(X.T), Z, coef, corr)
        G0[kept_new] += y[kept_new] * corr[kept_new]
        G0[lowered] += (alpha0[lowered] - mapped[lowered]) * spec.diag     # K_eff's δ term
    if len(added):
        sv = np.flatnonzero(alpha0)
        g = np.zeros(len(added))
        _fast.kernel_rows_dot(spec.numbers(), np.ascontiguousarray(X[sv].T), X[added],
                              alpha0[sv] * y[sv], g)
        G0[added] = y[added] * g - 1.0 + alpha0[added] * spec.diag
    return alpha0, G0
