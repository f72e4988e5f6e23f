"""Warm start after an edit (`svm_engine/warmstart.py`, `fit(..., warm_start=model)`).

Checked against recomputation from scratch: the matched rows, the start α₀ (feasible), the
updated gradient G₀ = Qα₀ − 1 (against the materialised Q), and the refit's optimum (the
cold fit's dual objective, and the KKT conditions checked independently by tests/kkt.py).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import svm_engine as se
from svm_engine import api
from svm_engine import warmstart as W
from svm_engine.bounds import at_C_mask, free_mask
from svm_engine.certify import Columns, _columns, certify, expansion
from svm_engine.checked import carried_checked, checked
from svm_engine.finalize import finalize
from svm_engine.problem import build_problem
from svm_engine.solvers import smo_fast as fast
from svm_engine.solvers.smo import feasible_start
from tests.kkt import assert_kkt
from tests.random_problems import problems
from tests.test_engine_random import quick, same_objective

TOL = 1e-8
EDITS = ("add", "insert", "move", "delete", "move_sv", "delete_sv", "relabel")


def edit(X, y, alpha, kind, rng):
    """(X′, y′) after one edit of the kind (the *_sv kinds touch the point of largest α)."""
    n = len(y)
    i = int(np.argmax(alpha)) if kind.endswith("_sv") else int(rng.integers(n))
    if kind == "add":
        return np.vstack([X, rng.normal(size=(1, 2))]), np.append(y, rng.choice([-1.0, 1.0]))
    if kind == "insert":
        return np.insert(X, i, rng.normal(size=2), axis=0), np.insert(y, i, 1.0)
    if kind in ("move", "move_sv"):
        X2 = X.copy()
        X2[i] += rng.normal(scale=0.5, size=2)
        return X2, y.copy()
    if kind in ("delete", "delete_sv"):
        keep = np.arange(n) != i
        return X[keep], y[keep]
    y2 = y.copy()
    y2[i] = -y2[i]
    return X.copy(), y2


def test_match_rows_finds_the_one_changed_stretch():
    X = np.arange(20.0).reshape(10, 2)
    y = np.array([1.0, -1.0] * 5)
    assert W.match_rows(X, y, X, y) == (10, 0)
    assert W.match_rows(X, y, np.vstack([X, [[99, 99]]]), np.append(y, 1)) == (10, 0)
    assert W.match_rows(X, y, np.delete(X, 3, 0), np.delete(y, 3)) == (3, 6)
    moved = X.copy()
    moved[4] += 0.5
    assert W.match_rows(X, y, moved, y) == (4, 5)
    relabelled = y.copy()
    relabelled[7] = -relabelled[7]
    assert W.match_rows(X, y, X, relabelled) == (7, 2)
    # a shuffle changes every row: no warm start
    assert W.match_rows(X, y, X[::-1].copy(), y[::-1].copy()) is None
    assert W.match_rows(X, y, X[:1], y[:1], max_changes=8) is None


def test_feasible_start_lowers_as_few_alphas_as_it_can():
    y = np.array([1.0, 1.0, 1.0, -1.0, -1.0])
    a = feasible_start(np.array([3.0, 1.0, 2.0, 0.5, 0.5]), y, 10.0)
    # Σαy was 5: the largest +1 α (3) goes to 0, the next (2) loses the remaining 2
    np.testing.assert_array_equal(a, [0.0, 1.0, 0.0, 0.5, 0.5])
    a = feasible_start(np.array([0.0, 0.0, 0.5, 2.0, 0.0]), y, 1.0)
    assert a @ y == 0.0 and (a >= 0).all() and (a <= 1.0).all()
    np.testing.assert_array_equal(a, [0.0, 0.0, 0.5, 0.5, 0.0])


@pytest.mark.parametrize("kernel", [se.Linear(), se.Gaussian(sigma=0.8),
                                    se.Polynomial(degree=2, coef0=1.0)])
@pytest.mark.parametrize("loss", ["hinge", "quadratic"])
@pytest.mark.parametrize("kind", EDITS)
def test_the_updated_gradient_is_the_recomputed_one(kernel, loss, kind):
    d = se.datasets.moons(n=120, noise=0.25, seed=3)
    X = (d.X - d.X.mean(axis=0)) / d.X.std(axis=0)
    y = np.where(d.y > 0, 1.0, -1.0)
    before = se.fit(X, y, kernel=kernel, C=2.0, loss=loss, tol=1e-6)
    X2, y2 = edit(X, y, before.alpha, kind, np.random.default_rng(5))
    problem = build_problem(X2, y2, kernel, 2.0, loss, "free", materialize=True)
    alpha0, G0, _ = W.warm_state(problem, before)
    C_box = problem.C_box
    assert (alpha0 >= 0).all() and (alpha0 <= C_box).all()
    assert abs(alpha0 @ y2) <= 1e-12 * max(1.0, alpha0.max())
    np.testing.assert_allclose(G0, problem.Q @ alpha0 - 1.0, rtol=0, atol=1e-12)


@pytest.mark.parametrize("kind", EDITS)
@pytest.mark.parametrize("kernel", [se.Linear(), se.Gaussian(sigma=0.7)])
def test_a_warm_refit_ends_at_the_cold_optimum(kind, kernel):
    d = se.datasets.moons(n=300, noise=0.2, seed=1)
    X = (d.X - d.X.mean(axis=0)) / d.X.std(axis=0)
    before = se.fit(X, d.y, kernel=kernel, C=1.0, tol=TOL)
    X2, y2 = edit(X, np.asarray(d.y, dtype=float), before.alpha, kind,
                  np.random.default_rng(11))
    warm = se.fit(X2, y2, kernel=kernel, C=1.0, tol=TOL, warm_start=before)
    cold = se.fit(X2, y2, kernel=kernel, C=1.0, tol=TOL)
    assert warm.converged and warm.kkt_violation <= TOL
    assert same_objective(warm.dual_objective, cold.dual_objective, rel=1e-9)
    assert_kkt(warm, 1e-6)


@pytest.mark.parametrize("kernel", [se.Linear(), se.Gaussian(sigma=0.7)])
def test_warm_refits_take_fewer_steps_over_a_series_of_edits(kernel):
    """What the Playground sees (its tol 1e-5): over 20 edits, warm refits take far fewer
    SMO steps than cold ones (one edit can cost more: a moved point may undo much)."""
    d = se.datasets.moons(n=300, noise=0.2, seed=1)
    X, y = (d.X - d.X.mean(axis=0)) / d.X.std(axis=0), np.asarray(d.y, dtype=float)
    rng = np.random.default_rng(2)
    model = se.fit(X, y, kernel=kernel, C=1.0, tol=1e-5)
    warm_steps = cold_steps = 0
    for k in range(20):
        X, y = edit(X, y, model.alpha, EDITS[k % len(EDITS)], rng)
        model = se.fit(X, y, kernel=kernel, C=1.0, tol=1e-5, warm_start=model)
        warm_steps += model.n_iter - (model.diagnostics.refined_iter or 0)   # steps to tol
        cold_steps += se.fit(X, y, kernel=kernel, C=1.0, tol=1e-5).n_iter
    assert warm_steps < 0.5 * cold_steps, (warm_steps, cold_steps)


@quick(20)
@given(p=problems(n=(8, 40)), loss=st.sampled_from(["hinge", "quadratic"]),
       kind=st.sampled_from(EDITS), seed=st.integers(0, 2**16))
def test_warm_refits_agree_with_cold_fits_on_random_problems(p, loss, kind, seed):
    before = p.fit(loss=loss, tol=TOL)
    X2, y2 = edit(p.X, np.where(p.y > 0, 1.0, -1.0), before.alpha, kind,
                  np.random.default_rng(seed))
    if len(np.unique(y2)) < 2:
        return
    warm = se.fit(X2, y2, kernel=p.kernel, C=p.C, loss=loss, tol=TOL, warm_start=before)
    cold = se.fit(X2, y2, kernel=p.kernel, C=p.C, loss=loss, tol=TOL)
    assert warm.converged and cold.converged
    assert same_objective(warm.dual_objective, cold.dual_objective)
    assert_kkt(warm, 1e-6)


@quick(20)
@given(p=problems(n=(8, 40)), loss=st.sampled_from(["hinge", "quadratic"]),
       kind=st.sampled_from(EDITS), seed=st.integers(0, 2**16))
def test_refit_is_warm_state_then_solve_then_finalize(p, loss, kind, seed):
    """`refit` (what fit runs) fuses warm_state and the solve into compiled calls: its α is
    theirs, bit for bit. The model's numbers are then derived once, from the certificate's
    carried expansion (`checked.carried_checked`), no longer also from the solver's G (the
    same numbers twice: issue 31): they agree with `finalize` from G far beyond the digits a
    page prints, the expansion is the one recomputed from X to its rounding bound, and a
    converged run's α passes the certificate."""
    before = p.fit(loss=loss, tol=TOL)
    X2, y2 = edit(p.X, np.where(p.y > 0, 1.0, -1.0), before.alpha, kind,
                  np.random.default_rng(seed))
    if len(np.unique(y2)) < 2:
        return
    problem = build_problem(X2, y2, p.kernel, p.C, loss, "free", materialize=False)
    state = W.warm_state(problem, before)
    done = W.refit(problem, before, tol=TOL, max_iter=None, wss="second_order")
    assert (state is None) == (done is None)
    if state is None:
        return
    alpha0, G0, columns = state
    ref = fast.solve(problem, tol=TOL, alpha0=alpha0, G0=G0, columns=columns)
    ref_sol = finalize(problem, ref.alpha, G=ref.G)
    run = done.run
    np.testing.assert_array_equal(run.alpha0, alpha0)
    for key in ("n_iter", "converged", "status"):
        assert getattr(run, key) == getattr(ref, key), key
    assert (run.columns is None) == (ref.columns is None)
    np.testing.assert_array_equal(done.alpha, ref_sol["alpha"])
    assert (done.p, done.s) == W.match_rows(before.X, before.y, problem.X, problem.y)
    sol, cert, ex = carried_checked(problem, done.alpha, before, done.p, done.s)
    assert sol.keys() == ref_sol.keys()
    np.testing.assert_array_equal(sol["support"], ref_sol["support"])
    scale = 1.0 + np.abs(ref_sol["h_train"]).max() + abs(ref_sol["b"])
    for key in ("b", "h_train", "xi", "gradient"):
        np.testing.assert_allclose(sol[key], ref_sol[key], rtol=0, atol=1e-9 * scale,
                                   err_msg=key)
    for key in ("primal_objective", "dual_objective"):
        assert sol[key] == pytest.approx(ref_sol[key], rel=1e-9, abs=1e-12), key
    again = expansion(problem, done.alpha)
    assert np.all(np.abs(ex.g - again.g) <= 1e-9 * (1.0 + again.mag))
    assert cert.passed or not run.converged, cert.failure


def test_the_traced_solver_starts_from_the_same_alpha():
    d = se.datasets.d2()
    before = se.fit(d.X, d.y, C=1.0, tol=1e-6)
    X2 = np.vstack([d.X, [[3.0, 3.0]]])
    y2 = np.append(d.y, d.classes[1] if hasattr(d, "classes") else 1)
    traced = se.fit(X2, y2, C=1.0, tol=1e-6, warm_start=before, trace=True)
    fast = se.fit(X2, y2, C=1.0, tol=1e-6, warm_start=before)
    np.testing.assert_array_equal(traced.alpha0, fast.alpha0)
    np.testing.assert_array_equal(se.replay_smo(traced), traced.alpha)
    assert same_objective(traced.dual_objective, fast.dual_objective)


def test_warm_start_misuse_is_a_clear_value_error():
    d = se.datasets.d2()
    m = se.fit(d.X, d.y, C=1.0)
    with pytest.raises(ValueError, match="alpha0 or warm_start, not both"):
        se.fit(d.X, d.y, C=1.0, warm_start=m, alpha0=m.alpha)
    with pytest.raises(ValueError, match="works with solver 'smo', got solver 'qp'"):
        se.fit(d.X, d.y, C=1.0, solver="qp", warm_start=m)
    with pytest.raises(ValueError, match="must be a model returned by fit, got dict"):
        se.fit(d.X, d.y, C=1.0, warm_start={"alpha": 1})
    with pytest.raises(ValueError, match=r"C=1\.0; this fit .*C=2\.0"):
        se.fit(d.X, d.y, C=2.0, warm_start=m)
    with pytest.raises(ValueError, match="another kernel"):
        se.fit(d.X, d.y, C=1.0, kernel=se.Gaussian(sigma=1.0), warm_start=m)
    with pytest.raises(ValueError, match="classes"):
        se.fit(d.X, np.where(d.y == d.y.max(), 7, 5), C=1.0, warm_start=m)
    qp = se.fit(d.X, d.y, C=1.0, solver="psvm", loss="quadratic", bias="augmented")
    with pytest.raises(ValueError, match="no gradient"):
        se.fit(d.X, d.y, C=1.0, loss="quadratic", warm_start=qp)


def test_too_many_changes_fall_back_to_a_cold_start():
    d = se.datasets.moons(n=60, noise=0.2, seed=0)
    m = se.fit(d.X, d.y, kernel=se.Gaussian(sigma=0.5), C=1.0)
    shuffled = np.random.default_rng(0).permutation(len(d.y))
    warm = se.fit(d.X[shuffled], d.y[shuffled], kernel=se.Gaussian(sigma=0.5), C=1.0,
                  warm_start=m)
    cold = se.fit(d.X[shuffled], d.y[shuffled], kernel=se.Gaussian(sigma=0.5), C=1.0)
    assert warm.alpha0 is None and warm.n_iter == cold.n_iter
    assert math.isclose(warm.dual_objective, cold.dual_objective, rel_tol=1e-12)


@pytest.mark.parametrize("kernel", [se.Gaussian(sigma=0.7), se.Polynomial(degree=3, coef0=1.0)])
@pytest.mark.parametrize("loss", ["hinge", "quadratic"])
@pytest.mark.parametrize("kind", EDITS)
def test_columns_copied_from_the_previous_fit_change_no_step(kernel, loss, kind):
    """A warm refit copies the kernel columns the previous fit computed (kept points) and
    computes only the added points' entries: the same numbers bit for bit, so the same steps
    and the same α as a warm refit that computes every column afresh."""
    d = se.datasets.moons(n=200, noise=0.25, seed=3)
    X, y = (d.X - d.X.mean(axis=0)) / d.X.std(axis=0), np.asarray(d.y, dtype=float)
    before = se.fit(X, y, kernel=kernel, C=1.0, loss=loss, tol=1e-6)
    assert before.columns is not None
    X2, y2 = edit(X, y, before.alpha, kind, np.random.default_rng(5))
    copied = se.fit(X2, y2, kernel=kernel, C=1.0, loss=loss, tol=1e-6, warm_start=before)
    before.columns = None                                   # every column computed afresh
    fresh = se.fit(X2, y2, kernel=kernel, C=1.0, loss=loss, tol=1e-6, warm_start=before)
    assert copied.n_iter == fresh.n_iter
    np.testing.assert_array_equal(copied.alpha, fresh.alpha)
    np.testing.assert_array_equal(copied.gradient, fresh.gradient)


def test_the_copied_columns_are_the_recomputed_ones():
    """Guard against a vacuous test above: after adding a point, the refit's cached columns
    (most of them copied) equal K_eff's columns of the new problem exactly."""
    d = se.datasets.moons(n=150, noise=0.25, seed=4)
    X, y = d.X, np.asarray(d.y, dtype=float)
    k = se.Gaussian(sigma=0.5)
    before = se.fit(X, y, kernel=k, C=1.0)
    X2, y2 = np.vstack([X, [[0.5, 0.25]]]), np.append(y, 1.0)
    after = se.fit(X2, y2, kernel=k, C=1.0, warm_start=before)
    assert after.n_iter > 0
    rows, col_slot, full = after.columns
    K = build_problem(X2, np.where(y2 > 0, 1.0, -1.0), k, 1.0, "hinge", "free").K_eff
    cached = [c for c in range(len(y2)) if col_slot[c] >= 0 and full[col_slot[c]]]
    old_slot, old_full = before.columns[1], before.columns[2]
    reused = [c for c in cached if c < len(y) and old_slot[c] >= 0 and old_full[old_slot[c]]]
    assert len(reused) >= 2
    for c in cached:
        np.testing.assert_array_equal(rows[col_slot[c]], K[:, c])


def test_a_pickled_model_drops_its_column_cache():
    import pickle

    d = se.datasets.moons(n=100, noise=0.2, seed=0)
    m = se.fit(d.X, d.y, kernel=se.Gaussian(sigma=0.5), C=1.0)
    assert m.columns is not None
    back = pickle.loads(pickle.dumps(m))
    assert back.columns is None and m.columns is not None
    np.testing.assert_array_equal(back.alpha, m.alpha)
    X2, y2 = np.vstack([d.X, [[0.0, 0.0]]]), np.append(d.y, d.y[0])
    warm = se.fit(X2, y2, kernel=se.Gaussian(sigma=0.5), C=1.0, warm_start=back)
    assert warm.converged


def test_a_model_holds_at_most_keep_columns_mb_of_columns():
    from svm_engine.kernel_cache import KEEP_COLUMNS_MB

    d = se.datasets.moons(n=1500, noise=0.25, seed=2)
    k = se.Gaussian(sigma=0.5)
    cold = se.fit(d.X, d.y, kernel=k, C=1.0)
    assert cold.columns is None                   # 1,500² float64 > 8 MB: not handed on
    X2, y2 = np.vstack([d.X, [[0.5, 0.0]]]), np.append(d.y, d.y[0])
    warm = se.fit(X2, y2, kernel=k, C=1.0, warm_start=cold)
    assert warm.columns is not None
    assert warm.columns.rows.nbytes <= KEEP_COLUMNS_MB * 2**20


@pytest.mark.parametrize("kind", EDITS)
def test_the_carried_certificate_keeps_the_free_svs_exact_columns(kind):
    """`checked.carried_checked` hands the polish the columns it computed of the free
    support vectors (issue 31): each is k(·, xⱼ) of the new points, bit for bit what the
    certificate computes afresh, only free αⱼ are kept, and keeping them changes no number.
    They are kept only when the certificate fails (the polish runs only then)."""
    d = se.datasets.moons(n=150, noise=0.25, seed=4)
    X, y = (d.X - d.X.mean(axis=0)) / d.X.std(axis=0), np.asarray(d.y, dtype=float)
    kernel = se.Gaussian(sigma=0.7)
    before = se.fit(X, y, kernel=kernel, C=1.0)
    X2, y2 = edit(X, y, before.alpha, kind, np.random.default_rng(6))
    problem = build_problem(X2, y2, kernel, 1.0, "hinge", "free", materialize=False)
    done = W.refit(problem, before, tol=1e-3, max_iter=None, wss="second_order")
    cols = Columns(problem)
    sol, cert, ex = carried_checked(problem, done.alpha, before, done.p, done.s, cols)
    free = np.flatnonzero((done.alpha > 0) & ~at_C_mask(done.alpha, problem.C_box))
    idx, block = cols.held(np.arange(problem.n))
    assert set(idx) <= set(free)
    if cert.passed:
        assert len(idx) == 0
    else:
        assert len(idx) > 0 or done.run.n_iter == 0
    np.testing.assert_array_equal(block, _columns(problem, idx))
    sol0, cert0, ex0 = carried_checked(problem, done.alpha, before, done.p, done.s)
    np.testing.assert_array_equal(ex.g, ex0.g)
    np.testing.assert_array_equal(ex.mag, ex0.mag)
    assert sol["b"] == sol0["b"] and cert == cert0


@quick(20)
@given(p=problems(n=(8, 40)), loss=st.sampled_from(["hinge", "quadratic"]),
       bias=st.sampled_from(["free", "augmented"]))
def test_checked_is_finalize_then_certify(p, loss, bias):
    """`checked.checked` (what fit runs after a cold fit and after a polish) is
    `finalize(problem, α, g=ex.g)` then `certify`: the same fields and the same verdict, bit
    for bit (both derive through `finalize.derive_from_expansion`)."""
    model = p.fit(loss=loss, bias=bias, solver="smo" if bias == "free" else "qp")
    problem = build_problem(model.X, model.y, p.kernel, p.C, loss, bias, materialize=False)
    ex = expansion(problem, model.diagnostics.solver_alpha)
    ref = finalize(problem, model.diagnostics.solver_alpha, g=ex.g)
    ref_cert = certify(problem, ref["alpha"], ref["b"], ex)
    sol, cert = checked(problem, model.diagnostics.solver_alpha, ex)
    assert sol.keys() == ref.keys()
    for key, value in ref.items():
        np.testing.assert_array_equal(sol[key], value, err_msg=key)
    assert cert == ref_cert


def test_the_refinement_counts_free_alphas_as_the_bounds_rules_do():
    """`refit` refines only with REFINE_PER_FREE steps per free α (`warmstart._n_free`):
    the count is bounds.py's free mask, residues and α at C excluded."""
    rng = np.random.default_rng(11)
    for C in (1.0, math.inf):
        alpha = rng.choice([0.0, 1e-14, 0.3, 0.7, 1.0], size=200) * rng.uniform(0.5, 1, 200)
        alpha[rng.integers(200, size=20)] = 1.0 if math.isfinite(C) else 2.0
        expected = int(free_mask(alpha, C).sum())
        assert W._n_free(alpha, C) == expected
        assert 0 < expected < 200


@pytest.mark.parametrize("kind", ["move_sv", "delete_sv", "relabel"])
def test_a_polished_refit_leaves_the_tail_to_the_polish(kind):
    """With the polish after it (refine_tol given) and too many free α to refine, `refit`'s
    SMO stops at POLISH_GAP, in fewer steps than to tol; `fit` polishes that α to the
    certified optimum, the one a cold fit certifies."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(300, 2))
    y = np.where(X[:, 0] * X[:, 1] > 0, 1.0, -1.0)          # xor: many free SVs
    kernel = se.Gaussian(sigma=0.7)
    before = se.fit(X, y, kernel=kernel, C=1.0)
    X2, y2 = edit(X, y, before.alpha, kind, rng)
    problem = build_problem(X2, y2, kernel, 1.0, "hinge", "free", materialize=False)
    how = dict(tol=1e-3, max_iter=None, wss="second_order")
    loose = W.refit(problem, before, refine_tol=api.REFINE_TOL, **how)
    full = W.refit(problem, before, refine_tol=None, **how)
    assert W.REFINE_PER_FREE * W._n_free(loose.alpha, 1.0) > W.refine_steps(300)
    assert loose.run.converged and full.run.converged
    assert 0 < loose.run.n_iter < full.run.n_iter
    # SMO's own status says where it stopped (above tol, for the polish), never "≤ tol"
    if loose.run.status != full.run.status:
        assert "for the polish" in loose.run.status and "tol not met" in loose.run.status
    assert full.run.status == "optimal: m(α) − M(α) ≤ tol"
    warm = se.fit(X2, y2, kernel=kernel, C=1.0, warm_start=before)
    cold = se.fit(X2, y2, kernel=kernel, C=1.0)
    assert warm.converged and warm.diagnostics.polished
    np.testing.assert_allclose(warm.alpha, cold.alpha, atol=1e-6)


@pytest.mark.parametrize("kernel, scale", [(se.Linear(), 30.0),
                                           (se.Polynomial(degree=2, coef0=1.0), 3.0),
                                           (se.Gaussian(sigma=30.0), 30.0)],
                         ids=["linear", "polynomial", "gaussian"])
@pytest.mark.parametrize("kind", ["add", "move_sv", "delete_sv"])
def test_a_carried_rounding_bound_is_never_below_the_one_made_afresh(kernel, scale, kind):
    """The expansion a warm refit carries (`certify._carry`) bounds its sums' rounding by mag,
    which the certificate reads: each change adds its column's bound, so the carried mag is
    at least Σⱼ αⱼ·bound(xⱼ, xᵢ) of the new α made from scratch (`certify.expansion`). With
    the linear kernel that bound is |xᵢ|ᵀ|xⱼ|, not the Gaussian's |xᵢᵀxⱼ| + 0.4, which the
    carry used before: on these points of norm ~40 its mag fell to 0.85 of the fresh one
    (a point added) and 0.97 (a support vector moved)."""
    rng = np.random.default_rng(11)
    X = rng.normal(scale=scale, size=(80, 2))
    y = np.where(X[:, 0] + 0.3 * X[:, 1] + rng.normal(scale=scale / 3, size=80) > 0, 1.0, -1.0)
    before = se.fit(X, y, kernel=kernel, C=1.0)
    X2, y2 = edit(X, y, before.alpha, kind, np.random.default_rng(3))
    if kind == "add":
        X2[-1] *= 3.0                        # an added row: its bound is made in full
    after = se.fit(X2, y2, kernel=kernel, C=1.0, warm_start=before)
    assert after.diagnostics.expansion_age == 1      # carried, not made afresh
    problem = build_problem(X2, y2, kernel, 1.0, "hinge", "free", materialize=False)
    fresh = expansion(problem, after.alpha)
    carried = after.diagnostics.expansion.mag
    assert np.all(carried >= fresh.mag * (1.0 - 1e-12)), np.min(carried / fresh.mag)
