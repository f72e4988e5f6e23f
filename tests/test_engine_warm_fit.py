"""`fit`'s warm path gives, field by field and bit for bit, the model of the un-fused route.

After an edit `fit(..., warm_start=model)` runs `checked.refit_checked` (the refit and the
certificate of its α in one compiled call) with its Python trimmed for issue 31: the labels
scanned by compiled code (float64 and int64), the kernel's and n's numbers made once
(`checked._kernel_args`, `warmstart._sizes`), the polish's columns kept only when the
certificate fails, ξ zeroed in place. The route it fuses is `warmstart.refit`, then
`checked.carried_checked` and the polish (`api._checked`), from `check_X` and `check_y`:
the model must be that route's, with float, int64 and string labels, every kernel, and
with other losses, biases, C and settings (the compiled call's numbers are made once per
problem shape and settings, `checked._numbers`: a stale one would show here).
"""

from __future__ import annotations

import dataclasses
import inspect

import numpy as np
import pytest

import svm_engine as se
from svm_engine import api
from svm_engine import checked as CK
from svm_engine import kernel_cache as kc
from svm_engine import validation as v
from svm_engine import warmstart as W
from svm_engine.certify import (
    TOL,
    Certificate,
    _abs_numbers,
    _kernel_numbers,
    engine_status,
    round_base,
)
from svm_engine.checked import _kernel_args
from svm_engine.problem import Problem, build_problem
from svm_engine.solvers.smo import default_max_iter
from svm_engine.solvers.smo_fast import newton_period
from tests.test_engine_warmstart import EDITS, edit

KERNELS = {"linear": se.Linear(), "gaussian": se.Gaussian(sigma=0.7),
           "polynomial": se.Polynomial(degree=3, coef0=1.0)}
LABELS = {"float": lambda y: y,
          "int64": lambda y: np.where(y > 0, 1, -1).astype(np.int64),
          "str": lambda y: np.where(y > 0, "b", "a")}
FIELDS = ("alpha", "b", "xi", "h_train", "support", "w_norm", "primal_objective",
          "dual_objective", "kkt_violation", "category_code", "gradient")


def same(a, b, what):
    """Equal bit for bit, dtype included (NaN equal to NaN)."""
    a, b = np.asarray(a), np.asarray(b)
    assert a.dtype == b.dtype and a.shape == b.shape, what
    if a.dtype.kind in "fc":
        assert a.tobytes() == b.tobytes(), what
    else:
        np.testing.assert_array_equal(a, b, err_msg=what)


def unfused(X, y, kernel, before, C=1.0, loss="hinge", bias="free", tol=1e-3,
            max_iter=None):
    """(the problem, classes, the refit, _checked's (sol, cert, polished, ex, age)) of the
    route `fit` fuses."""
    Xc = v.check_X(X)
    y_pm, classes = v.check_y(y, len(Xc))
    problem = build_problem(Xc, y_pm, kernel, C, loss, bias, materialize=False)
    done = W.refit(problem, before, tol=tol, max_iter=max_iter, wss="second_order",
                   time_budget=api.DEFAULT_TIME_BUDGET, refine_tol=api.REFINE_TOL)
    return problem, classes, done, api._checked(problem, done.alpha, done.run.converged,
                                                (before, done.p, done.s))


def same_model(model, X, y, kernel, before, **settings):
    """model (fit with warm_start=before) is, field by field, the un-fused route's."""
    problem, classes, done, (sol, cert, polished, ex, age) = unfused(X, y, kernel, before,
                                                                     **settings)
    # the rare case the route leaves to SMO's refinement is not one of these
    assert cert.passed or not done.run.converged
    same(model.classes, classes, "classes")
    same(model.y, problem.y, "y")
    same(model.X, problem.X, "X")
    converged = done.run.converged and cert.passed
    if converged:
        sol["xi"] = np.where(sol["xi"] <= TOL, 0.0, sol["xi"])
    # the objectives as the certificate recomputed them (`fit` reports those)
    sol["primal_objective"], sol["dual_objective"] = cert.primal, cert.dual
    for key in FIELDS:
        same(getattr(model, key), sol[key], key)
    assert (model.n_iter, model.converged, model.status) == (
        done.run.n_iter, converged, engine_status(cert, done.run))
    same(model.alpha0, done.run.alpha0, "alpha0")
    diag = model.diagnostics
    assert diag.certificate == cert
    assert (diag.polished, diag.expansion_age, diag.stop, diag.solver_status,
            diag.max_iter) == (polished, age, done.run.stop, done.run.status,
                               done.run.max_iter)
    assert diag.refined_iter == (done.run.refined_iter or None)
    same(diag.solver_alpha, done.alpha, "solver_alpha")
    same(diag.expansion.g, ex.g, "expansion.g")
    same(diag.expansion.mag, ex.mag, "expansion.mag")
    return polished


@pytest.mark.parametrize("labels", sorted(LABELS))
@pytest.mark.parametrize("kernel", sorted(KERNELS))
@pytest.mark.parametrize("kind", EDITS)
def test_the_warm_path_is_the_unfused_route(kind, kernel, labels):
    d = se.datasets.moons(n=150, noise=0.25, seed=4)
    X, y = (d.X - d.X.mean(axis=0)) / d.X.std(axis=0), np.where(d.y > 0, 1.0, -1.0)
    k, lab = KERNELS[kernel], LABELS[labels]
    before = se.fit(X, lab(y), kernel=k, C=1.0)
    X2, y2 = edit(X, y, before.alpha, kind, np.random.default_rng(6))
    model = se.fit(X2, lab(y2), kernel=k, C=1.0, warm_start=before)
    same_model(model, X2, lab(y2), k, before)


SETTINGS = [dict(C=10.0), dict(C=0.3, loss="quadratic"), dict(C=100.0),
            dict(C=1.0, tol=1e-2), dict(C=5.0, max_iter=40)]


@pytest.mark.parametrize("kernel", sorted(KERNELS))
def test_other_problems_and_settings_in_turn(kernel):
    """One session of clicks through another loss, other C and fit settings, back and
    forth (the numbers made once per problem shape and settings must be this fit's), each
    refit the un-fused route's; at least one of them polished."""
    d = se.datasets.blobs(n=120, seed=3)
    X, y = (d.X - d.X.mean(axis=0)) / d.X.std(axis=0), np.where(d.y > 0, 1.0, -1.0)
    k, rng, polished = KERNELS[kernel], np.random.default_rng(11), 0
    for settings in SETTINGS + SETTINGS[::-1]:
        before = se.fit(X, y, kernel=k, **settings)
        X2, y2 = edit(X, y, before.alpha, "move_sv", rng)
        model = se.fit(X2, y2, kernel=k, warm_start=before, **settings)
        polished += same_model(model, X2, y2, k, before, **settings)
        X, y = X2, y2
    assert polished


def test_the_numbers_made_once_are_this_problems():
    """`checked._numbers`' tuples, made once per problem shape and settings, are those made
    from the problem at hand: `warmstart.refit_numbers`, `_kernel_args` and the rest."""
    rng = np.random.default_rng(2)
    for n, d in [(30, 2), (31, 2), (30, 3)]:
        X, y = rng.normal(size=(n, d)), np.where(rng.normal(size=n) > 0, 1.0, -1.0)
        for kernel in KERNELS.values():
            for C, loss, bias in [(1.0, "hinge", "free"), (2.0, "hinge", "free"),
                                  (2.0, "quadratic", "free"), (2.0, "hinge", "augmented")]:
                problem = build_problem(X, y, kernel, C, loss, bias, materialize=False)
                for tol, max_iter, keep in [(1e-3, None, True), (1e-2, 50, False)]:
                    warm, check, use_cache = CK._numbers(
                        problem, tol, max_iter, "second_order", api.REFINE_TOL, keep)
                    numbers, use = W.refit_numbers(problem, tol, max_iter, "second_order",
                                                   W.MAX_CHANGES, api.REFINE_TOL)
                    kt, kt_plain, kt_abs, diag, unit = _kernel_args(problem.spec, d)
                    assert use_cache == use
                    assert warm == (kt, *numbers[1:])
                    assert check[:8] == (kt_plain, kt_abs, C, bias == "free",
                                         bias == "augmented", 2 if loss == "quadratic" else 1,
                                         diag, unit)
                    assert check[8:] == (keep, keep and CK.JIT)


@pytest.mark.parametrize("cls", [Certificate, Problem])
def test_the_frozen_dataclasses_set_at_once_are_made_of_their_fields(cls):
    """`Certificate`'s and `Problem`'s own __init__ (their fields set at once, for speed)
    take their fields, in order, with their defaults, and they stay frozen."""
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    fields = dataclasses.fields(cls)
    assert [(p.name, p.default) for p in params] == [
        (f.name, inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default)
        for f in fields]
    made = cls(*range(len(fields)))
    assert [getattr(made, f.name) for f in fields] == list(range(len(fields)))
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.C = 1.0


def test_xi_within_tol_is_zeroed_as_numpys_mask():
    xi = np.array([0.0, 1e-7, TOL, 2e-6, np.nan, np.inf, 0.5])
    want = xi.copy()
    want[want <= TOL] = 0.0
    api._zero_within(xi, TOL)
    same(xi, want, "xi")


@pytest.mark.parametrize("kernel", sorted(KERNELS))
@pytest.mark.parametrize("n", [10, 1000, 5000])
def test_the_numbers_made_once_are_the_ones_made_each_time(kernel, n):
    """`warmstart._sizes` and `checked._kernel_args` (made once per n, once per kernel) are
    the numbers `refit_args` and `_carry_args` made on every refit."""
    rng = np.random.default_rng(n)
    X, y = rng.normal(size=(n, 3)), np.where(rng.normal(size=n) > 0, 1.0, -1.0)
    for loss in ("hinge", "quadratic"):
        problem = build_problem(X, y, KERNELS[kernel], 2.0, loss, "free", materialize=False)
        use = kc.caches_columns(problem)
        assert W._sizes(n, use) == (default_max_iter(n), kc.column_slots(n, use, warm=True),
                                    *newton_period(n), W.refine_steps(n))
        assert _kernel_args(problem.spec, 3) == (
            tuple(problem.spec.numbers()), tuple(_kernel_numbers(problem)),
            tuple(_abs_numbers(problem)), float(problem.spec.diag), round_base(problem))
