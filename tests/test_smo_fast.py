"""The compiled SMO (svm_engine/solvers/smo_fast.py) against the readable one (solvers/smo.py).

smo_fast's docstring claims: without shrinking, the two take identical steps (same i, j, α bit
for bit); with shrinking, the same optimum; the column cache and the lazy problem (no n × n
matrix) change nothing but speed. Each claim is checked here on random problems and on the
app's generators, at sizes where shrinking and cache eviction really happen.
"""

import math
import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import svm_engine as se
from svm_engine import datasets as ds
from svm_engine.finalize import finalize
from svm_engine.jit import JIT
from svm_engine.kernel_cache import cache_slots
from svm_engine.problem import build_problem
from svm_engine.solvers import smo as readable
from svm_engine.solvers import smo_fast as fast
from tests.random_problems import problems

FACTOR = int(os.environ.get("SVMLAB_EXAMPLES_FACTOR", "1"))   # as in test_engine_random.py
LOSSES = st.sampled_from(["hinge", "quadratic"])
WSS = st.sampled_from(se.WSS_RULES)


def test_numba_is_available():
    """Without numba the engine falls back to the readable solver: the claims below would be
    vacuous, so make the dependency visible."""
    assert JIT


def pair(p, loss, C=None):
    """(materialised problem, lazy problem) of a random problem."""
    C = p.C if C is None else C
    mat = build_problem(p.X, p.y, p.kernel, C, loss, "free", materialize=True)
    lazy = build_problem(p.X, p.y, p.kernel, C, loss, "free", materialize=False)
    assert mat.materialized and not lazy.materialized and lazy.Q is None
    return mat, lazy


def run_readable(mat, **kw):
    return readable.smo(mat.Q, mat.y, mat.C_box, **kw)


@settings(max_examples=40 * FACTOR, deadline=None)
@given(p=problems(), loss=LOSSES, wss=WSS, tol=st.sampled_from([1e-3, 1e-8]))
def test_without_shrinking_the_steps_are_identical(p, loss, wss, tol):
    mat, lazy = pair(p, loss)
    ref = run_readable(mat, tol=tol, wss=wss)
    got = fast.solve(lazy, tol=tol, wss=wss, shrinking=False)
    assert got.n_iter == ref.n_iter
    assert got.converged == ref.converged
    np.testing.assert_array_equal(got.alpha, ref.alpha)


@settings(max_examples=25 * FACTOR, deadline=None)
@given(p=problems(), loss=LOSSES, wss=WSS, fraction=st.floats(0.0, 1.0))
def test_every_prefix_of_the_run_is_identical(p, loss, wss, fraction):
    """Stopped after k steps (max_iter = k), both solvers hold the same α: step by step."""
    mat, lazy = pair(p, loss)
    total = run_readable(mat, tol=1e-8, wss=wss).n_iter
    k = max(1, int(fraction * total))
    ref = run_readable(mat, tol=1e-8, wss=wss, max_iter=k)
    got = fast.solve(lazy, tol=1e-8, wss=wss, shrinking=False, max_iter=k)
    assert got.n_iter == ref.n_iter == min(k, total)
    np.testing.assert_array_equal(got.alpha, ref.alpha)
    # the returned gradient G = Qα − 1 is the readable solver's, recomputed
    np.testing.assert_allclose(got.G, mat.Q @ ref.alpha - 1.0, rtol=1e-9,
                               atol=1e-9 * max(1.0, float(np.abs(mat.Q).max()) * p.C))


@settings(max_examples=25 * FACTOR, deadline=None)
@given(p=problems(), loss=LOSSES, wss=WSS, seed=st.integers(0, 2**16))
def test_warm_started_steps_are_identical(p, loss, wss, seed):
    mat, lazy = pair(p, loss)
    a0 = np.random.default_rng(seed).uniform(0, 2 * p.C, len(p.y))
    a0 = readable.feasible_start(a0, mat.y, mat.C_box)
    ref = run_readable(mat, tol=1e-8, wss=wss, alpha0=a0)
    got = fast.solve(lazy, tol=1e-8, wss=wss, shrinking=False, alpha0=a0)
    assert got.n_iter == ref.n_iter
    np.testing.assert_array_equal(got.alpha, ref.alpha)


def larger_problems():
    """The app's generators at n = 150..400, where SMO runs thousands of steps: shrinking
    starts after min(n, 1000) of them and the gradient is rebuilt."""
    kernels = [se.Linear(), se.Gaussian(sigma=0.5), se.Polynomial(degree=3, coef0=1.0)]
    out = []
    for name, n in (("moons", 300), ("blobs", 400), ("circles", 250), ("xor", 150)):
        d = ds.load(name, n=n, noise=0.3, seed=1)
        X = (d.X - d.X.mean(0)) / d.X.std(0)
        for k in kernels:
            for C in (1.0, 10.0):
                out.append(pytest.param(X, d.y, k, C, id=f"{name}-{k.name}-C{C:g}"))
    return out


@pytest.mark.parametrize("X, y, kernel, C", larger_problems())
def test_shrinking_reaches_the_same_optimum(X, y, kernel, C):
    y = np.where(y == np.unique(y)[1], 1.0, -1.0)
    for loss in ("hinge", "quadratic"):
        mat = build_problem(X, y, kernel, C, loss, "free")
        lazy = build_problem(X, y, kernel, C, loss, "free", materialize=False)
        plain = fast.solve(lazy, tol=1e-8, shrinking=False)
        shrunk = fast.solve(lazy, tol=1e-8, shrinking=True)
        assert plain.converged and shrunk.converged
        a, b = finalize(mat, plain.alpha), finalize(mat, shrunk.alpha)
        assert b["dual_objective"] == pytest.approx(a["dual_objective"], rel=1e-9)
        assert b["kkt_violation"] <= 1e-8
        # the gradient handed to finalize is the true Qα − 1 on every point (rebuilt after
        # shrinking), not only on the last active set
        scale = max(1.0, float(np.abs(shrunk.G).max()))
        np.testing.assert_allclose(shrunk.G, mat.Q @ shrunk.alpha - 1.0,
                                   atol=1e-9 * scale)


def test_shrinking_really_happens_on_these_problems():
    """Guard against a vacuous test above: on moons, n = 300, C = 100 the run is longer than
    the shrinking period, and the gradient of the shrunk points was rebuilt from Ḡ (a sum in
    another order: the same numbers to ~1e-13, not the same bits), while the steps agree."""
    d = ds.moons(n=300, noise=0.3, seed=1)
    lazy = build_problem(d.X, np.where(d.y > 0, 1.0, -1.0), se.Gaussian(sigma=0.5), 100.0,
                         "hinge", "free", materialize=False)
    plain = fast.solve(lazy, tol=1e-8, shrinking=False)
    shrunk = fast.solve(lazy, tol=1e-8, shrinking=True)
    assert plain.n_iter > 2 * 300
    assert not np.array_equal(shrunk.G, plain.G)
    np.testing.assert_allclose(shrunk.G, plain.G, atol=1e-10)


@pytest.mark.parametrize("X, y, kernel, C", larger_problems()[::3])
@pytest.mark.parametrize("shrinking", [False, True])
def test_the_column_cache_changes_nothing(X, y, kernel, C, shrinking):
    """Cached, uncached, and a 2-column cache that evicts on nearly every fetch: the same
    kernel numbers, so the same steps bit for bit."""
    y = np.where(y == np.unique(y)[1], 1.0, -1.0)
    lazy = build_problem(X, y, kernel, C, "hinge", "free", materialize=False)
    runs = [fast.solve(lazy, tol=1e-6, shrinking=shrinking, use_cache=False),
            fast.solve(lazy, tol=1e-6, shrinking=shrinking, use_cache=True),
            fast.solve(lazy, tol=1e-6, shrinking=shrinking, use_cache=True, cache_mb=1e-9)]
    assert cache_slots(len(y), 1e-9) == 2
    for r in runs[1:]:
        assert r.n_iter == runs[0].n_iter
        np.testing.assert_array_equal(r.alpha, runs[0].alpha)
        np.testing.assert_array_equal(r.G, runs[0].G)


@settings(max_examples=30 * FACTOR, deadline=None)
@given(p=problems(), loss=LOSSES)
def test_lazy_and_materialised_finalize_agree(p, loss):
    """finalize on the lazy problem (solver's G, no n × n matrix) equals finalize on Q."""
    mat, lazy = pair(p, loss)
    run = fast.solve(lazy, tol=1e-8)
    a = finalize(mat, run.alpha)
    for G in (run.G, None):            # from the solver's gradient, and from columns
        b = finalize(lazy, run.alpha, G=G)
        np.testing.assert_array_equal(b["alpha"], a["alpha"])
        np.testing.assert_array_equal(b["support"], a["support"])
        scale = max(1.0, float(np.abs(a["h_train"]).max()))
        assert b["b"] == pytest.approx(a["b"], abs=1e-9 * scale)
        np.testing.assert_allclose(b["h_train"], a["h_train"], atol=1e-9 * scale)
        np.testing.assert_allclose(b["xi"], a["xi"], atol=1e-9 * scale)
        for key in ("dual_objective", "primal_objective"):
            assert b[key] == pytest.approx(a[key], rel=1e-9, abs=1e-12), key
        # ‖w‖² from other sums (‖w‖ = √‖w‖² would magnify a rounding 1e-17 to 4e-9)
        obj = max(1.0, abs(a["dual_objective"]))
        assert b["w_norm"] ** 2 == pytest.approx(a["w_norm"] ** 2, rel=1e-9, abs=1e-12 * obj)
        assert b["kkt_violation"] == pytest.approx(a["kkt_violation"], abs=1e-9 * scale)
        np.testing.assert_array_equal(b["category_code"], a["category_code"])


@settings(max_examples=20 * FACTOR, deadline=None)
@given(p=problems(log_C=(-2.0, 1.0)), loss=LOSSES)
def test_public_fit_fast_and_traced_paths_agree(p, loss):
    """se.fit(trace=False) runs smo_fast on the lazy problem, trace=True the readable
    solver on Q: the reported models agree (shrinking may change the path, not the optimum)."""
    quick = p.fit(loss=loss, solver="smo", tol=1e-8)
    traced = p.fit(loss=loss, solver="smo", tol=1e-8, trace=True)
    assert quick.trace is None and traced.trace is not None
    assert quick.converged and traced.converged
    assert quick.dual_objective == pytest.approx(traced.dual_objective, rel=1e-7)
    scale = max(1.0, float(np.abs(traced.h_train).max()))
    np.testing.assert_allclose(quick.h_train, traced.h_train, atol=1e-5 * scale)
    assert math.isclose(quick.primal_objective, traced.primal_objective, rel_tol=1e-6)
