"""The warm refit's working set (`svm_engine/warm_working_set.py`): which points it keeps,
that the gradient it hands back is Qα − 1 recomputed from scratch, that its gap is taken over
all points (so a violator left outside is seen), and that refits through it end at the cold
optimum."""

from __future__ import annotations

import numpy as np
import pytest

import svm_engine as se
from svm_engine import warm_working_set as ws
from svm_engine import warmstart as W
from svm_engine.bounds import at_C_mask
from svm_engine.problem import build_problem
from svm_engine.solvers.smo_fast import LoopSettings
from tests.kkt import assert_kkt
from tests.test_engine_random import same_objective
from tests.test_engine_warmstart import EDITS, edit


def _data(n=400, seed=1):
    d = se.datasets.moons(n=n, noise=0.2, seed=seed)
    return (d.X - d.X.mean(axis=0)) / d.X.std(axis=0), np.asarray(d.y, dtype=float)


def _start(kernel, kind, C=1.0, seed=3):
    """(problem, α₀, G₀, p, s) after one edit of a fit at tol 1e-3, as a warm refit begins."""
    X, y = _data()
    before = se.fit(X, y, kernel=kernel, C=C)
    X2, y2 = edit(X, y, before.alpha, kind, np.random.default_rng(seed))
    problem = build_problem(X2, y2, kernel, C, "hinge", "free", materialize=True)
    ok, p, s, alpha0, G0 = W._warm_start(
        problem.spec.numbers(), problem.XT, problem.X, problem.y, float(problem.C_box),
        before.X, np.asarray(before.y, dtype=float), before.alpha, before.gradient, 8)
    assert ok
    return problem, alpha0, G0, p, s


def _gap(alpha, G, y, C):
    F = -y * G
    up = ((alpha < C) & (y > 0)) | ((alpha > 0) & (y < 0))
    low = ((alpha < C) & (y < 0)) | ((alpha > 0) & (y > 0))
    return F[up].max() - F[low].min()


def _settings(tol=1e-3, max_iter=100_000):
    return LoopSettings(tol, max_iter, False, False, 0, 1000, 5000, np.inf)


@pytest.mark.parametrize("kind", ["add", "move_sv", "delete_sv"])
def test_the_working_set_keeps_free_added_and_near_points_only(kind):
    problem, alpha, G, p, s = _start(se.Linear(), kind)
    y, C, n = problem.y, float(problem.C_box), len(problem.y)
    idx = ws.working_set(alpha, G, y, C, p, s)
    inside = np.zeros(n, dtype=bool)
    inside[idx] = True
    atC = at_C_mask(alpha, C)
    free = (alpha > 0) & ~atC
    assert inside[free].all()
    assert inside[p:n - s].all()
    b = np.mean(-y[free] * G[free])
    margin = G + y * b                      # yₜh(xₜ) − 1
    out = ~inside
    assert (margin[out & (alpha == 0)] >= ws.BAND).all()
    assert (margin[out & atC] <= -ws.BAND).all()
    assert 0 < len(idx) < ws.MAX_SHARE * n          # it is worth it on this data


@pytest.mark.parametrize("kind", ["add", "move_sv", "delete_sv", "relabel"])
def test_the_run_on_the_working_set_hands_back_the_recomputed_gradient(kind):
    problem, alpha, G, p, s = _start(se.Linear(), kind)
    y, C = problem.y, float(problem.C_box)
    total = float(alpha @ y)
    idx = ws.working_set(alpha, G, y, C, p, s)
    kept = np.setdiff1d(np.arange(len(y)), idx)
    before = alpha[kept].copy()
    steps, gap, converged = ws.subset_run(problem.spec.numbers(), problem.X, y, C, alpha, G,
                                          idx, _settings())
    assert converged and (steps > 0 or kind == "add")
    np.testing.assert_array_equal(alpha[kept], before)         # the others stay where they were
    assert abs(alpha @ y - total) <= 1e-12 * max(1.0, alpha.sum())
    np.testing.assert_allclose(G, problem.Q @ alpha - 1.0, rtol=0, atol=1e-11)
    assert gap == pytest.approx(_gap(alpha, problem.Q @ alpha - 1.0, y, C), abs=1e-11)
    assert (alpha >= 0).all() and (alpha <= C).all()


def test_a_violator_left_outside_shows_in_the_gap_on_all_points():
    """The gap is over all points, not the working set's: run on the free points only, without
    the relabelled point (a violator), and the gap on all points still fails tol
    (`warmstart._solve_warm` then goes on on all)."""
    problem, alpha, G, p, s = _start(se.Linear(), "relabel")
    y, C = problem.y, float(problem.C_box)
    assert _gap(alpha, G, y, C) > 1e-3
    free = np.flatnonzero((alpha > 0) & ~at_C_mask(alpha, C))
    steps, gap, converged = ws.subset_run(problem.spec.numbers(), problem.X, y, C, alpha, G,
                                          free, _settings())
    assert converged                      # on the free points
    assert gap > 1e-3                     # but not on all points
    assert gap == pytest.approx(_gap(alpha, problem.Q @ alpha - 1.0, y, C), abs=1e-11)


def test_the_refinement_budget_is_in_point_steps():
    assert ws.refine_budget(100) == min(ws.MAX_REFINE, ws.REFINE_WORK // 100)
    assert ws.refine_budget(10**6) == 32
    assert ws.refine_budget(10) == ws.MAX_REFINE


@pytest.mark.slow_without_jit     # (without numba, fit takes the readable solver, not this path)
@pytest.mark.parametrize("C", [1.0, 100.0])
@pytest.mark.parametrize("kind", EDITS)
def test_refits_through_the_working_set_end_at_the_cold_optimum(kind, C):
    X, y = _data()
    before = se.fit(X, y, kernel=se.Linear(), C=C)
    X2, y2 = edit(X, y, before.alpha, kind, np.random.default_rng(5))
    warm = se.fit(X2, y2, kernel=se.Linear(), C=C, warm_start=before)
    cold = se.fit(X2, y2, kernel=se.Linear(), C=C)
    assert warm.converged == cold.converged
    if warm.converged:
        assert same_objective(warm.dual_objective, cold.dual_objective, rel=1e-9)
        assert_kkt(warm, 1e-6)


@pytest.mark.parametrize("kind", EDITS)
def test_the_refinement_starts_with_a_newton_step(kind):
    """REFINE_FIRST: from tol 1e-3 to 1e-7, a Newton step on the free set at once lands at the
    optimum when the free set is already the optimum's; pair steps alone take several."""
    problem, alpha, G, p, s = _start(se.Linear(), kind)
    y, C = problem.y, float(problem.C_box)
    idx = ws.working_set(alpha, G, y, C, p, s)
    _, gap, ok = ws.subset_run(problem.spec.numbers(), problem.X, y, C, alpha, G, idx,
                               ws.subset_settings(_settings(), 1e-3, 100_000))
    assert ok
    if gap > 1e-3:      # a violator left outside: the caller goes on on all points (above)
        _, gap, ok = ws.subset_run(problem.spec.numbers(), problem.X, y, C, alpha, G,
                                   np.arange(len(y)), ws.subset_settings(_settings(), 1e-3,
                                                                         100_000))
        assert ok and gap <= 1e-3
        idx = ws.working_set(alpha, G, y, C, p, s)
    steps = {}
    for first in (ws.REFINE_FIRST, ws.NEWTON_EVERY):
        a, g = alpha.copy(), G.copy()
        steps[first], gap, ok = ws.subset_run(
            problem.spec.numbers(), problem.X, y, C, a, g, idx,
            ws.subset_settings(_settings(), 1e-7, 100_000, first))
        assert ok and gap <= 1e-7
        assert g == pytest.approx(problem.Q @ a - 1.0, abs=1e-11)
    assert steps[ws.REFINE_FIRST] <= steps[ws.NEWTON_EVERY]
    assert steps[ws.REFINE_FIRST] <= 1        # this face is not degenerate (3 free points)
