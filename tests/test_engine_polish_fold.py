"""Issue 31: the warm refit's compiled call runs the polish too (`checked.refit_checked`,
`_polish_checked`) when its α fails the KKT conditions and `fit` would polish it; `fit` then
judges that polish instead of running `polish.polish` and `checked`. The model must be bit for
bit the one of the Python path, which `checked.JIT = False` switches back on (the polish of
`polish._rounds` without its compiled rounds is the numpy one: the fold runs only with them)."""

from __future__ import annotations

import dataclasses
import math
import struct
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import svm_engine as se
from svm_engine import checked as CK
from svm_engine import polish as P
from svm_engine.certify import Columns
from svm_engine.jit import JIT
from svm_engine.kernel_cache import SavedColumns
from svm_engine.problem import build_problem
from tests.random_problems import problems
from tests.test_engine_random import quick
from tests.test_engine_warmstart import EDITS, edit

compiled_only = pytest.mark.skipif(not JIT, reason="the fold runs only with numba")


def _moons(n=300):
    d = se.datasets.moons(n=n, noise=0.25, seed=4)
    return (d.X - d.X.mean(axis=0)) / d.X.std(axis=0), np.asarray(d.y, dtype=float)


def _same(a, b, where="model") -> None:
    """a and b hold the same values bit for bit (arrays, floats, dataclasses, tuples)."""
    if isinstance(a, np.ndarray):
        assert isinstance(b, np.ndarray) and a.dtype == b.dtype and a.shape == b.shape, where
        assert a.tobytes() == b.tobytes(), where
    elif isinstance(a, SavedColumns):             # the SMO's column cache: its slots in use
        _same(a.col_slot, b.col_slot, f"{where}.col_slot")   # (the others are np.empty's)
        _same(a.slot_full, b.slot_full, f"{where}.slot_full")
        used = np.flatnonzero(a.slot_full == 1)
        _same(a.rows[used], b.rows[used], f"{where}.rows")
    elif dataclasses.is_dataclass(a) and not isinstance(a, type):
        assert type(a) is type(b), where
        for f in dataclasses.fields(a):
            if f.name != "time_s":
                _same(getattr(a, f.name), getattr(b, f.name), f"{where}.{f.name}")
    elif isinstance(a, tuple):
        assert type(a) is type(b) and len(a) == len(b), where
        for i, (u, v) in enumerate(zip(a, b, strict=True)):
            _same(u, v, f"{where}[{i}]")
    elif isinstance(a, float):
        assert isinstance(b, float), where
        assert struct.pack("d", a) == struct.pack("d", b) or (math.isnan(a) and math.isnan(b)), \
            where
    else:
        assert a == b, where


def _both(monkeypatch, X, y, kernel, C, loss, before):
    """(the folded fit, the Python path's fit, polish.polish calls in each)."""
    calls = []
    real = P.polish
    monkeypatch.setattr(P, "polish", lambda *a, **k: calls.append(1) or real(*a, **k))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", se.ConvergenceWarning)
        folded = se.fit(X, y, kernel=kernel, C=C, loss=loss, warm_start=before)
        n_folded = len(calls)
        with monkeypatch.context() as mp:
            mp.setattr(CK, "JIT", False)
            python = se.fit(X, y, kernel=kernel, C=C, loss=loss, warm_start=before)
    return folded, python, n_folded, len(calls) - n_folded


@compiled_only
@pytest.mark.parametrize(("kernel", "C", "loss"), [
    (se.Gaussian(sigma=0.7), 1.0, "hinge"),
    (se.Gaussian(sigma=0.7), 10.0, "quadratic"),
    (se.Polynomial(degree=3, coef0=1.0), 1.0, "hinge"),
    (se.Linear(), 10.0, "hinge"),            # 4 free points in the plane: FALLBACK
])
def test_the_folded_polish_gives_the_python_paths_model(monkeypatch, kernel, C, loss):
    """Every edit: the same model (α, b, the certificate, polished, the expansion and its age,
    ...). The Gaussian and polynomial edits are polished by the fold (no `polish.polish`);
    a linear one whose free block is singular would be handed back to it (FALLBACK) and
    polished there; these get to refine_tol on the working set (`warm_working_set.py`, its
    Newton steps) and need no polish (with the code before it, 5 of them were handed back;
    the forced FALLBACK below covers the hand-back)."""
    X, y = _moons()
    before = se.fit(X, y, kernel=kernel, C=C, loss=loss)
    folded_polished = handed_back = 0
    for kind in EDITS:
        X2, y2 = edit(X, y, before.alpha, kind, np.random.default_rng(6))
        folded, python, n_folded, n_python = _both(monkeypatch, X2, y2, kernel, C, loss, before)
        _same(folded, python)
        assert folded.diagnostics.expansion_age == before.diagnostics.expansion_age + 1
        if folded.diagnostics.polished:
            assert n_python == 1                 # the Python path polishes in polish.polish
            folded_polished += n_folded == 0
            handed_back += n_folded == 1
    if isinstance(kernel, se.Linear):
        assert folded_polished == 0
    else:
        assert folded_polished >= 5 and handed_back == 0


@compiled_only
@quick(30)
@given(p=problems(n=(60, 200)), loss=st.sampled_from(["hinge", "quadratic"]),
       kind=st.sampled_from(EDITS), seed=st.integers(0, 2**16))
def test_the_folded_polish_gives_the_python_paths_model_on_random_problems(p, loss, kind,
                                                                           seed):
    """Random problems, kernels, C and edits (SMO at its tol 1e-3: the refits that polish):
    the folded and the Python path give the same model."""
    before = p.fit(loss=loss)
    X2, y2 = edit(p.X, np.where(p.y > 0, 1.0, -1.0), before.alpha, kind,
                  np.random.default_rng(seed))
    if len(np.unique(y2)) < 2:
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", se.ConvergenceWarning)
        folded = se.fit(X2, y2, kernel=p.kernel, C=p.C, loss=loss, time_budget=None,
                        warm_start=before)
        CK.JIT = False                       # (no monkeypatch: hypothesis runs many draws)
        try:
            python = se.fit(X2, y2, kernel=p.kernel, C=p.C, loss=loss, time_budget=None,
                            warm_start=before)
        finally:
            CK.JIT = JIT
    _same(folded, python)


@compiled_only
@pytest.mark.parametrize(("name", "value"), [("ROUND_OK", 0.0), ("MAX_WORK", 0.0)])
def test_rounds_that_do_not_finish_go_to_polish_polish(monkeypatch, name, value):
    """Rounds that hand the polish back (FALLBACK: no rounding allowed, the numpy rounds
    polish) or give up (GAVE_UP: no work allowed; `polish.polish` then tries the αᵢ NEAR a
    bound, and SMO goes on) leave it to `polish.polish`, as before: the same model."""
    monkeypatch.setattr(P, name, value)       # read by both paths (`polish.limits`)
    X, y = _moons()
    kernel = se.Gaussian(sigma=0.7)
    before = se.fit(X, y, kernel=kernel, C=1.0)
    handed_back = 0
    for kind in EDITS:
        X2, y2 = edit(X, y, before.alpha, kind, np.random.default_rng(6))
        folded, python, n_folded, n_python = _both(monkeypatch, X2, y2, kernel, 1.0, "hinge",
                                                   before)
        _same(folded, python)
        assert n_folded == n_python
        handed_back += n_folded
    assert handed_back == len(EDITS)


def test_the_fold_runs_only_where_the_certificate_must_fail():
    """`refit_checked` returns a polish only when fit would polish (polish on, the run
    converged) the α it cannot certify (KKT violation above TOL), and only with the compiled
    rounds (numba): none for an α that passes or with polish off."""
    X, y = _moons()
    kernel = se.Gaussian(sigma=0.7)
    before = se.fit(X, y, kernel=kernel, C=1.0)
    X2, y2 = edit(X, y, before.alpha, "move_sv", np.random.default_rng(6))
    problem = build_problem(X2, y2, kernel, 1.0, "hinge", "free", materialize=False)
    how = dict(tol=1e-3, max_iter=None, wss="second_order", refine_tol=1e-7)
    done, first, folded = CK.refit_checked(problem, before, Columns(problem), polish=True,
                                           **how)
    sol, cert, ex = first()
    assert done.run.converged and done.run.n_iter > 0 and not cert.passed
    assert (folded is not None) == JIT
    if JIT:
        sol1, cert1, ex1 = CK.polished_checked(problem, sol, ex, Columns(problem), folded)
        assert cert1.passed and not np.array_equal(sol1["alpha"], sol["alpha"])
    *_, off = CK.refit_checked(problem, before, Columns(problem), polish=False, **how)
    assert off is None
    same = build_problem(X, y, kernel, 1.0, "hinge", "free", materialize=False)
    done, first, folded = CK.refit_checked(same, before, Columns(same), polish=True, **how)
    cert = first()[1]
    assert done.run.n_iter == 0 and cert.passed and folded is None


@compiled_only
def test_a_passing_fold_makes_no_certificate_of_the_runs_alpha(monkeypatch):
    """The run's α fails the certificate whenever there is a fold (its KKT violation is above
    TOL): `fit` judges the polish's α only, and the run's is judged only when the polish's
    certificate fails too (its solution and certificate were ~10 % of a polished refit)."""
    X, y = _moons()
    kernel = se.Gaussian(sigma=0.7)
    before = se.fit(X, y, kernel=kernel, C=1.0)
    X2, y2 = edit(X, y, before.alpha, "move_sv", np.random.default_rng(6))
    judged = []
    real = CK._checked_of

    def counted(problem, out, columns):
        judged.append(out)
        return real(problem, out, columns)

    monkeypatch.setattr(CK, "_checked_of", counted)
    model = se.fit(X2, y2, kernel=kernel, C=1.0, warm_start=before)
    assert model.converged and model.diagnostics.polished
    assert len(judged) == 1 and len(judged[0]) == 5   # the polish's out, not the carry's (7)
    judged.clear()

    class Failed:           # the polish's certificate, made to fail
        def __init__(self, cert):
            self.cert, self.passed = cert, False

        def __getattr__(self, name):
            return getattr(self.cert, name)

    def polish_fails(problem, out, columns):
        sol, cert, ex = counted(problem, out, columns)
        return (sol, Failed(cert), ex) if len(out) == 5 else (sol, cert, ex)

    monkeypatch.setattr(CK, "_checked_of", polish_fails)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", se.ConvergenceWarning)
        again = se.fit(X2, y2, kernel=kernel, C=1.0, warm_start=before)
    assert [len(out) for out in judged] == [5, 7]   # the polish's, then the run's α
    assert not again.diagnostics.polished
