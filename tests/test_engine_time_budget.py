"""Issue 33 item 11: the engine's own time budget. `se.fit` and `se.SVC` stop SMO after a few
seconds by default (the loop reads the clock, the compiled one too), and the result says so:
not converged, why, what to try. Whether the clock stopped the loop is read from n_iter (below
max_iter, not optimal), never from a measured time."""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest

import svm_engine as se
from svm_engine.api import DEFAULT_TIME_BUDGET


def hard_problem(n: int, seed: int = 1):
    """Points at scale 1e6, quadratic loss, C = 1.08e6: SMO crawls (the audit's 9 points ran
    10 million iterations, 6-11 s)."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, (n, 2)) * 1e6
    y = np.where(rng.random(n) < 0.5, -1, 1)
    y[:2] = (-1, 1)
    return X, y


def test_fit_and_svc_have_a_default_time_budget_of_a_few_seconds():
    assert 0 < DEFAULT_TIME_BUDGET <= 10
    assert inspect.signature(se.fit).parameters["time_budget"].default == DEFAULT_TIME_BUDGET
    assert se.SVC().time_budget == DEFAULT_TIME_BUDGET


@pytest.mark.parametrize("trace", [False, True])   # the compiled loop, and the readable one
def test_the_time_budget_stops_smo_and_the_status_says_so(trace):
    X, y = hard_problem(4, seed=4) if trace else hard_problem(9)   # 4 points: ~5 min before
    with pytest.warns(se.ConvergenceWarning):
        m = se.fit(X, y, loss="quadratic", C=1.08e6, trace=trace, time_budget=0.3)
    assert not m.converged
    assert m.n_iter < 10_000_000          # the clock stopped it, not max_iter
    assert m.status.startswith("not converged: ")
    assert "time budget (0.3 s" in m.status and "larger time_budget" in m.status


def test_a_warm_refit_keeps_to_the_budget_too():
    X, y = hard_problem(9)
    with pytest.warns(se.ConvergenceWarning):
        first = se.fit(X, y, loss="quadratic", C=1.08e6, time_budget=0.3)
    X2 = X.copy()
    X2[0] += 1.0                              # one point moved: a warm refit (a click)
    with pytest.warns(se.ConvergenceWarning):
        m = se.fit(X2, y, loss="quadratic", C=1.08e6, time_budget=0.3, warm_start=first)
    assert not m.converged and m.n_iter < 10_000_000
    assert "time budget (0.3 s" in m.status


def test_svc_passes_its_time_budget_on():
    X, y = hard_problem(9)
    with pytest.warns(se.ConvergenceWarning):
        clf = se.SVC(kernel="linear", loss="quadratic", C=1.08e6, time_budget=0.3).fit(X, y)
    assert not clf.model_.converged and "time budget" in clf.model_.status


def test_an_easy_fit_is_untouched_by_the_budget():
    with warnings.catch_warnings():
        warnings.simplefilter("error", se.ConvergenceWarning)
        m = se.fit([[0, 0], [1, 1], [2, 0]], [1, -1, 1], time_budget=0.3)
    assert m.converged and "time budget" not in m.status


@pytest.mark.parametrize("bad", [0, -1.0, float("nan"), "5", True])
def test_a_bad_time_budget_is_a_value_error_naming_it(bad):
    with pytest.raises(ValueError, match="time_budget"):
        se.fit([[0, 0], [1, 1]], [1, -1], time_budget=bad)


def test_sga_keeps_to_the_budget_too():
    X, y = hard_problem(200)                  # SGA crawls at C = 1e6 on 200 points
    with pytest.warns(se.ConvergenceWarning):
        m = se.fit(X / 1e6, y, C=1e6, solver="sga", bias="augmented", tol=1e-12,
                   max_iter=10**9, time_budget=0.3)
    assert not m.converged and m.n_iter < 10**9
    assert "time budget (0.3 s" in m.status and "larger time_budget" in m.status
