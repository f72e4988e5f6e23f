"""ui.shared.fitting: the cached engine call never raises and reports what happened."""

import numpy as np
import pytest

import svm_engine as se
from svm_engine import datasets
from ui.shared import fitting
from ui.shared.settings import Settings


def _settings(**kw):
    return Settings.parse(kw)


def test_d1_hard_margin_matches_the_book():
    d = datasets.d1()
    out = fitting.fit_points(d.X, d.y, Settings.from_dataset(d.settings))
    assert out.ok and out.kind == "ok" and out.error is None
    np.testing.assert_allclose(out.model.w, [5 / 6, 1 / 3], atol=5e-3)
    assert out.model.b == pytest.approx(-10 / 3, abs=1e-2)


def test_d2_hard_margin_is_reported_not_raised():
    d = datasets.d2()
    out = fitting.fit_points(d.X, d.y, _settings(hard_margin=True))
    assert not out.ok and out.kind == "not_separable"
    assert "not linearly separable in this feature space" in out.error


def test_unsupported_combination_names_the_reason():
    d = datasets.d1()
    out = fitting.fit_points(d.X, d.y, _settings(solver="newton", loss="hinge"))
    assert not out.ok and out.kind == "unsupported"
    # a sentence for a student (issue 16 item 12), not the engine's "supports loss ('quadratic',)"
    assert out.error == "Newton (SVM-Primal) solves the quadratic loss (k = 2) only: choose " \
        "it under Loss" and "(" + "'" not in out.error


def test_one_class_asks_for_both():
    out = fitting.fit_points(np.array([[0.0, 0.0], [1.0, 1.0]]), np.array([1, 1]), _settings())
    assert out.kind == "need_two_classes" and "each class" in out.error
    assert fitting.fit_points(np.zeros((0, 2)), np.zeros(0), _settings()).kind == (
        "need_two_classes"
    )


def test_engine_bugs_become_messages(monkeypatch):
    def boom(*a, **k):
        raise ZeroDivisionError("oops")

    monkeypatch.setattr(se, "fit", boom)
    d = datasets.d1()
    out = fitting.fit_points(d.X, d.y, _settings())
    assert out.kind == "failed" and "ZeroDivisionError" in out.error


def test_non_convergence_is_a_warning_with_a_model(monkeypatch):
    monkeypatch.setattr(fitting, "smo_max_iter", lambda n: 1)
    d = datasets.moons(60, 0.3, 0)
    out = fitting.fit_points(d.X, d.y, _settings(kernel="gaussian"))
    assert out.ok and out.warning and not out.model.converged


def test_warm_start_is_passed_only_to_solvers_that_take_it(monkeypatch):
    seen = {}
    real = se.fit

    def spy(*a, **k):
        seen["alpha0"] = k.get("alpha0")
        return real(*a, **k)

    monkeypatch.setattr(se, "fit", spy)
    d = datasets.d2()
    a0 = np.zeros(len(d.y))
    fitting.fit_points(d.X, d.y, _settings(solver="smo"), a0)
    assert seen["alpha0"] is a0
    fitting.fit_points(d.X, d.y, _settings(solver="qp"), a0)
    assert seen["alpha0"] is None


def test_solver_availability_agrees_with_the_engine():
    s = _settings(loss="hinge", bias="free")
    avail = fitting.solver_availability(s)
    assert avail["smo"] is None and avail["qp"] is None
    assert avail["newton"] and avail["sga"]  # newton: quadratic only; sga: augmented only
    for solver, why in avail.items():
        if why is None:
            se.check_combination(se.Linear(), "hinge", "free", solver, 1.0)
        else:
            with pytest.raises(ValueError):
                se.check_combination(se.Linear(), "hinge", "free", solver, 1.0)


def test_decision_grid_orientation_and_square_cells():
    d = datasets.d1()
    m = fitting.fit_points(d.X, d.y, Settings.from_dataset(d.settings)).model
    xs, ys, H = fitting.decision_grid(m, (0, 8), (0, 4), 50)
    assert len(xs) == 50 and len(ys) == 25 and H.shape == (25, 50) and H.dtype == np.float32
    i, j = 7, 20
    assert H[i, j] == pytest.approx(float(m.decision_function([[xs[j], ys[i]]])[0]), rel=1e-5)


@pytest.mark.parametrize("offset", [0.0, 1e6, 1.7e9])
def test_the_drawing_agrees_with_the_numbers_far_from_the_origin(offset):
    """Issue 16 item 10: D1 shifted by 1.7e9 put 6 of 14 training points on the wrong side of
    the drawn Gaussian boundary while the panel said 100 %. The grid the figure draws
    (``decision_grid``, first node exactly at each point) gives every point the sign of
    the h the numbers come from."""
    d = datasets.d1()
    X = d.X + offset
    out = fitting.fit_points(X, d.y, _settings(kernel="gaussian", sigma=1.0, C=10.0))
    m = out.model
    assert m.training_accuracy == 1.0
    for (x1, x2), h in zip(X, m.h_train, strict=True):
        _, _, H = fitting.decision_grid(m, (x1, x1 + 1.0), (x2, x2 + 1.0), resolution=2)
        assert np.sign(H[0, 0]) == np.sign(h) and abs(H[0, 0] - h) <= 1e-5 * max(1, abs(h))
