"""What the pages say of a fit (ui/shared/fit_words.py), from the engine's typed diagnostics:
"not converged: what failed — try …", the duality gap as shown, the hard margin refused by
type (NotSeparableError), and the catch-alls that log an engine bug before the page's words.
(The engine's side, the stop reasons and the certificate's failures: test_engine_certify.py.)
"""

from __future__ import annotations

import logging
import math
import warnings
from types import SimpleNamespace

import numpy as np
import pytest

import svm_engine as se
from svm_engine import datasets as ds
from svm_engine.diagnostics import FitDiagnostics
from svm_engine.problem import build_problem
from svm_engine.solvers.result import StopReason
from tests.exact_gap import ITEM9_X, ITEM9_Y
from ui.shared import fit_words


def fit(X, y, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", se.ConvergenceWarning)
        return se.fit(X, y, **kw)


# -- "not converged: what failed — try …" --------------------------------------------------

def test_newton_far_from_the_optimum_says_what_to_try():
    d = ds.d1()
    raw = fit(d.X, d.y, kernel=se.Polynomial(degree=8, coef0=1.0), C=7000.0, loss="quadratic",
              bias="augmented", solver="newton", polish=False)
    text = fit_words.status_text(raw)
    assert not raw.converged and text.startswith("not converged: ") and " try " in text


def test_a_gap_of_0_4_percent_names_the_gap_and_what_to_try():
    """An α 0.2 % off QP's (issue 16: a 0.4 % gap at n = 2,000): its words name what failed,
    another solver and fewer points (a QP run that stopped by its rule, on 2,000 points)."""
    from svm_engine.certify import certify, expansion
    d = ds.d2()
    ref = fit(d.X, d.y, C=1.0, solver="qp", tol=1e-10)
    problem = build_problem(d.X, np.where(d.y > 0, 1.0, -1.0), se.Linear(), 1.0, "hinge",
                            "free")
    alpha = ref.alpha * 0.998
    cert = certify(problem, alpha, ref.b, expansion(problem, alpha))
    diag = FitDiagnostics(certificate=cert, stop=StopReason.CONVERGED,
                          solver_status="cvxopt status: optimal")
    model = SimpleNamespace(diagnostics=diag, solver="qp", kernel=se.Linear(), C=1.0,
                            y=np.ones(2000), bias="free", status="")
    text = fit_words.status_text(model)
    assert text.startswith("not converged: ") and text.endswith(" — try SMO or fewer points")
    assert fit_words.failure_text(cert.failure) in text


STOPPED_EARLY = [
    ({"solver": "smo", "max_iter": 3}, "SMO stopped at its limit of max_iter = 3 iterations"),
    ({"solver": "qp", "max_iter": 1},
     "the QP solver (cvxopt) stopped before meeting its tolerance (cvxopt status: unknown)"),
    ({"solver": "sga", "bias": "augmented", "max_iter": 2},
     "SVM-Dual (SGA) stopped at its limit of max_iter = 2 iterations"),
    ({"solver": "newton", "bias": "augmented", "loss": "quadratic", "max_iter": 1,
      "kernel": se.Gaussian(sigma=0.5)},
     "SVM-Primal (Newton) stopped at its limit of max_iter = 1 iterations"),
]


@pytest.mark.parametrize(("kw", "words"), STOPPED_EARLY)
def test_a_run_stopped_early_is_not_converged_in_plain_words(kw, words):
    """max_iter comes from the stop reason and the run's numbers (never from the solver's
    sentence): the same words as before."""
    d = ds.moons(n=60, noise=0.3, seed=0)
    m = fit(d.X, d.y, C=10.0, tol=1e-12, **kw)
    text = fit_words.status_text(m)
    assert text.startswith(f"not converged: {words}") and " — try " in text, text
    assert fit_words.warning_text(m) == f"{m.solver}: {text}"


def test_a_time_budget_stop_quotes_the_solver_and_what_to_try():
    d = ds.moons(n=400, noise=0.3, seed=0)
    m = fit(d.X, d.y, C=1e4, kernel=se.Gaussian(sigma=0.05), tol=1e-12, time_budget=1e-4)
    if m.diagnostics.stop is not StopReason.TIME_BUDGET:
        pytest.skip("the fit finished within the budget on this machine")
    text = fit_words.status_text(m)
    assert "SMO stopped before meeting its tolerance (stopped at the time budget" in text


def test_item9_rounding_is_said_in_words():
    m = fit(ITEM9_X, ITEM9_Y, kernel=se.Polynomial(3, 59.119), C=547155.35, solver="smo")
    text = fit_words.status_text(m)
    assert text.startswith("not converged: ") and "double precision" in text, text


def test_a_kkt_failure_names_the_point_as_the_pages_number_it():
    from svm_engine.certify import Failure, FailureKind
    f = Failure(FailureKind.KKT, worst=4, alpha=0.0, r=-3e-7, at_zero=True)
    assert fit_words.failure_text(f) == ("x5 has α = 0 but y·h(x) = 0.9999997 < 1: it should "
                                         "be a support vector")
    free = Failure(FailureKind.KKT, worst=0, alpha=0.5, r=0.25)
    assert fit_words.failure_text(free) == ("x1 is a free support vector (0 < α < C) but "
                                            "y·h(x) = 1.25, not 1")


def test_a_gap_failure_says_by_how_much_and_which_way():
    from svm_engine.certify import Failure, FailureKind
    gap = Failure(FailureKind.GAP, primal=1.0, dual=0.996, gap_rel=0.004)
    assert fit_words.failure_text(gap) == "primal and dual differ by 0.4 %"
    neg = Failure(FailureKind.GAP, primal=1.0, dual=1.0 + 3e-6, gap_rel=-3e-6)
    assert fit_words.failure_text(neg) == ("the dual exceeds the primal by 3·10⁻⁶ (relative): "
                                           "α is not feasible")
    inf = Failure(FailureKind.GAP, primal=math.inf, dual=1.0, gap_rel=math.inf)
    assert fit_words.failure_text(inf) == "primal objective ∞: some point violates the hard margin"


def test_every_failure_kind_has_words():
    from svm_engine.certify import Failure, FailureKind
    for kind in FailureKind:
        assert fit_words.failure_text(Failure(kind)), kind
    assert fit_words.failure_text(None) == ""


def test_a_converged_fit_reads_the_certificates_summary():
    d = ds.d1()
    m = fit(d.X, d.y, C=math.inf)
    assert fit_words.status_text(m) == m.status == se.certify.summary(m.diagnostics.certificate)


def test_a_model_without_diagnostics_keeps_its_own_status():
    m = SimpleNamespace(diagnostics=None, status="loaded")
    assert fit_words.status_text(m) == "loaded"


# -- the duality gap as shown -------------------------------------------------------------

def test_a_tiny_negative_gap_is_shown_as_0_with_its_tolerance():
    d = ds.d1()
    m = fit(d.X, d.y, C=math.inf, solver="qp", tol=1e-10)
    m.primal_objective = m.dual_objective * (1 - 1e-12)    # rounding: primal a hair below
    assert m.duality_gap < 0
    shown, note = fit_words.displayed_gap(m)
    assert shown == 0.0 and "1·10⁻⁶" in note
    far = fit(d.X, d.y, C=1.0, solver="sga", bias="augmented", tol=1e-2, polish=False)
    assert not far.converged and fit_words.displayed_gap(far)[0] == far.duality_gap > 0


def test_the_gaps_of_every_solver_on_d1_are_never_shown_negative():
    d = ds.d1()
    for kw in ({"solver": "smo"}, {"solver": "qp"}, {"solver": "qp", "qp_form": "primal"},
               {"solver": "sga", "bias": "augmented"}, {"solver": "qp", "bias": "augmented"}):
        m = fit(d.X, d.y, C=math.inf, **kw)
        assert m.converged and fit_words.displayed_gap(m)[0] == 0.0, (kw, m.duality_gap)


# -- warnings ------------------------------------------------------------------------------

def test_a_convergence_warning_carries_its_model_and_is_worded_from_it():
    d = ds.moons(n=60, noise=0.3, seed=0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", se.ConvergenceWarning)
        m = se.fit(d.X, d.y, C=10.0, max_iter=3)
    assert caught[0].message.model is m
    assert fit_words.warning_note(caught) == fit_words.warning_text(m)
    assert str(caught[0].message) == f"smo: {m.status}"    # the library's own message
    other = [SimpleNamespace(category=se.ConvergenceWarning,
                             message=se.ConvergenceWarning("from elsewhere"))]
    assert fit_words.warning_note(other) == "from elsewhere"
    assert fit_words.warning_note([]) is None


# -- not separable, by type ----------------------------------------------------------------

def test_the_hard_margin_on_d2_raises_not_separable_error():
    d = ds.d2()
    with pytest.raises(se.NotSeparableError, match=se.NOT_SEPARABLE):
        se.fit(d.X, d.y, C=math.inf)
    assert issubclass(se.NotSeparableError, ValueError)


def test_the_pages_recognise_not_separable_by_type(monkeypatch):
    """fit_points reads the exception's type: another ValueError naming the same words is a
    plain failure."""
    from ui.shared import fitting
    from ui.shared.settings import Settings

    d = ds.d2()
    hard = Settings.parse({"hard_margin": True})
    assert fitting.fit_points(d.X, d.y, hard).kind == "not_separable"

    def refuse(*a, **k):
        raise ValueError(f"something else, though {se.NOT_SEPARABLE} is in the words")

    monkeypatch.setattr(se, "fit", refuse)
    assert fitting.fit_points(d.X, d.y, hard).kind == "failed"


# -- catch-alls log the traceback ----------------------------------------------------------

class _Records(logging.Handler):
    def __init__(self):
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record):
        self.records.append(record)


@pytest.fixture
def logged():
    """ERROR records of the ui loggers (pytest runs with -p no:logging: no caplog)."""
    handler = _Records()
    root = logging.getLogger("ui")
    root.addHandler(handler)
    yield handler.records
    root.removeHandler(handler)


def _boom(*a, **k):
    raise ZeroDivisionError("an engine bug")


def _assert_logged(records, name):
    assert len(records) == 1 and records[0].name == name
    assert records[0].exc_info and records[0].exc_info[0] is ZeroDivisionError


def test_fit_points_logs_an_engine_bug_and_shows_its_message(monkeypatch, logged):
    from ui.shared import fitting
    from ui.shared.settings import Settings

    d = ds.d1()
    monkeypatch.setattr(se, "fit", _boom)
    out = fitting.fit_points(d.X, d.y, Settings.parse({}))
    assert out.model is None and out.kind == "failed"
    assert out.error == "The solver failed (ZeroDivisionError: an engine bug)."
    _assert_logged(logged, "ui.shared.fitting")


def test_a_step_through_run_logs_an_engine_bug_and_shows_its_message(monkeypatch, logged):
    from ui.shared.settings import Settings
    from ui.step_through import record

    d = ds.d1()
    monkeypatch.setattr(record, "build_run", _boom)
    run, message = record.run_or_message(d.X, d.y, Settings.parse({}), "smo")
    assert run is None and message == "The solver failed (ZeroDivisionError: an engine bug)."
    _assert_logged(logged, "ui.step_through.record")


def test_a_compare_row_logs_an_engine_bug_and_shows_its_message(monkeypatch, logged):
    from ui.compare import comparison as cmp

    d = ds.d1()
    monkeypatch.setattr(se, "fit", _boom)
    run = cmp.fit_row(d.X, d.y, se.Linear(), 1.0, cmp.RowSpec("smo", "hinge", "free"),
                      tol=None, max_iter=None)
    assert run.model is None and run.error == "the solver failed (ZeroDivisionError: an engine bug)"
    _assert_logged(logged, "ui.compare.comparison")


def test_checking_an_answer_logs_a_bug_and_the_class_goes_on(monkeypatch, logged):
    from ui.classroom import exercises
    from ui.classroom.model import Task

    monkeypatch.setattr(exercises.number, "check", _boom)
    task = Task(kind="number", form="number", prompt="?", slide="slide 16")
    fb = exercises.check(task, {"value": 1.0})
    assert fb.status == "invalid" and "ZeroDivisionError" in fb.message
    _assert_logged(logged, "ui.classroom.exercises")
