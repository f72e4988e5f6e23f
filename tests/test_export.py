"""svm_engine.export: the JSON round trip is exact, and the generated scikit-learn code runs
and gives our h(x) to 1e-4 (relative to max |h|, LIBSVM's kernel cache is single precision)
on a grid around the data."""

import ast
import contextlib
import io
import json
import math
import warnings

import numpy as np
import pytest

import svm_engine as se
from svm_engine import datasets as ds
from svm_engine import export as E


def grid(X, k=25):
    lo, hi = X.min(0) - 1.0, X.max(0) + 1.0
    g = np.meshgrid(np.linspace(lo[0], hi[0], k), np.linspace(lo[1], hi[1], k))
    return np.column_stack([a.ravel() for a in g])


# (dataset, fit kwargs, the scikit-learn estimator the code must use)
CASES = {
    "linear": ("d2", dict(C=1.0), "SVC"),
    "gaussian": ("d2", dict(kernel=se.Gaussian(0.8), C=2.0), "SVC"),
    "poly_inhom": ("d2", dict(kernel=se.Polynomial(2, 1.0), C=0.5), "SVC"),
    "poly_cubic": ("d2", dict(kernel=se.Polynomial(3, 0.0), C=1.0), "SVC"),
    "hard": ("d1", dict(C=math.inf), "SVC"),
    "hard_gauss": ("nonlinear", dict(kernel=se.Gaussian(1.0), C=math.inf), "SVC"),
    "aug_hinge": ("iris_setosa", dict(C=10.0, bias="augmented", solver="sga"), "LinearSVC"),
    "aug_quad": ("d2", dict(C=1.0, loss="quadratic", bias="augmented", solver="newton"),
                 "LinearSVC"),
    "aug_hard": ("d1", dict(C=math.inf, bias="augmented", solver="qp"), "LinearSVC"),
    "psvm_linear": ("d2", dict(C=1.0, loss="quadratic", bias="augmented", solver="psvm"),
                    "RidgeClassifier"),
    "quad_free": ("d2", dict(C=1.0, loss="quadratic"), "none"),
    "quad_free_linear": ("d2", dict(C=1.0, loss="quadratic", solver="qp"), "none"),
    "aug_gauss": ("d2", dict(kernel=se.Gaussian(1.0), C=1.0, bias="augmented", solver="qp"),
                  "none"),
    "psvm_gauss": ("d2", dict(kernel=se.Gaussian(1.0), C=1.0, loss="quadratic",
                              bias="augmented", solver="psvm"), "none"),
}


def model(case):
    name, kw, _ = CASES[case]
    d = ds.load(name)
    return se.fit(d.X, d.y, **kw)


def run(code):
    """Run generated code (our own, from a model we fitted) in a fresh namespace."""
    ns, out = {}, io.StringIO()
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("error")                 # e.g. LinearSVC not converging
        exec(compile(code, "<sklearn_code>", "exec"), ns)
    return ns, out.getvalue()


@pytest.mark.parametrize("case", list(CASES))
def test_json_round_trip_is_exact(case):
    m = model(case)
    text = E.to_json(m)
    json.loads(text, parse_constant=lambda c: pytest.fail(f"non-standard JSON constant {c}"))
    back = E.from_json(text)
    G = grid(m.X)
    np.testing.assert_array_equal(back.decision_function(G), m.decision_function(G))
    np.testing.assert_array_equal(back.predict(G), m.predict(G))
    np.testing.assert_array_equal(back.alpha, m.alpha)
    np.testing.assert_array_equal(back.X, m.X)
    np.testing.assert_array_equal(back.support_vectors, m.X[m.support])
    assert back.b == m.b and back.converged == m.converged and back.status == m.status
    assert back.kernel == m.kernel
    s = back.settings
    assert (s["loss"], s["bias"], s["solver"]) == (m.loss, m.bias, m.solver)
    assert s["hard_margin"] == math.isinf(m.C) and (s["C"] is None) == math.isinf(m.C)
    if m.w is not None:
        np.testing.assert_array_equal(back.w, m.w)


@pytest.mark.parametrize("case", list(CASES))
def test_sklearn_code_runs_and_agrees(case):
    m = model(case)
    kind, why = E.sklearn_plan(m)
    assert kind == CASES[case][2] and why
    code = E.sklearn_code(m, title=f"test {case}")
    assert code.startswith(f"# test {case}\n")
    ns, out = run(code)
    G = np.vstack([grid(m.X), m.X])
    h = m.decision_function(G)
    got = ns["h"](G)
    assert np.abs(got - h).max() <= 1e-4 * max(1.0, np.abs(h).max()), case
    np.testing.assert_array_equal(ns["predict"](m.X[np.abs(m.h_train) > 1e-3]),
                                  m.predict(m.X[np.abs(m.h_train) > 1e-3]))
    assert "largest |h − h_SVM Lab| on the training points" in out
    if kind == "none":
        assert "from sklearn" not in code and "import sklearn" not in code
        assert "scikit-learn cannot refit this model" in code
        np.testing.assert_allclose(got, h, rtol=0, atol=1e-12 * max(1.0, np.abs(h).max()))
    else:
        assert f"from sklearn.{'linear_model' if kind == 'RidgeClassifier' else 'svm'} " \
               f"import {kind}" in code


def test_gaussian_code_uses_gamma_of_sigma():
    m = model("gaussian")
    code = E.sklearn_code(m)
    assert f"gamma={1 / (2 * 0.8**2)!r}" in code and "σ = 0.8" in code


def test_hard_margin_code_explains_its_finite_C():
    m = model("hard")
    code = E.sklearn_code(m)
    assert "C = ∞" in code and f"C={10 * float(m.alpha.max())!r}" in code


def test_labels_that_are_not_pm1_keep_their_names():
    d = ds.d2()
    m = se.fit(d.X, np.where(d.y > 0, 7, 3), C=1.0)
    ns, _ = run(E.sklearn_code(m))
    assert ns["predict"](d.X).tolist() == m.predict(d.X).tolist()
    assert set(ns["predict"](d.X).tolist()) == {3, 7}
    back = E.from_json(E.to_json(m))
    assert back.predict(d.X).tolist() == m.predict(d.X).tolist()


def test_not_converged_is_said_in_both():
    d = ds.iris_setosa()
    with pytest.warns(se.ConvergenceWarning):
        m = se.fit(d.X, d.y, C=1000.0, bias="augmented", solver="sga", max_iter=3)
    assert not m.converged
    assert "NOT converged" in E.sklearn_code(m)
    assert json.loads(E.to_json(m))["converged"] is False


@pytest.mark.parametrize("edit,match", [
    (lambda d: d.update(format="other"), "not an SVM Lab model"),
    (lambda d: d.update(version=2), "version 2"),
    (lambda d: d.pop("b"), "'b'"),
    (lambda d: d.update(support_alpha=[1.0]), "'support_alpha' has shape"),
    (lambda d: d.update(support_labels=[2] * len(d["support_labels"])), "support_labels"),
    (lambda d: d["points"].update(X="abc"), "'X' must be a list of numbers"),
    (lambda d: d["settings"]["kernel"].update(name="sigmoid"), "unknown kernel"),
    (lambda d: d["settings"]["kernel"].update(sigma=-1.0), "sigma"),
    (lambda d: d.update(classes=[1]), "two labels"),
])
def test_loader_names_what_is_wrong(edit, match):
    m = model("gaussian")
    data = json.loads(E.to_json(m))
    edit(data)
    with pytest.raises(ValueError, match=match):
        E.from_dict(data)


def test_loader_rejects_non_json_and_non_finite():
    with pytest.raises(ValueError, match="not valid JSON"):
        E.from_json("{")
    text = E.to_json(model("linear")).replace('"b": ', '"b": NaN, "b_old": ', 1)
    with pytest.raises(ValueError, match="'b' must be a finite number"):
        E.from_json(text)


@pytest.mark.parametrize("sep", ["\n", "\r", "\u2028", "\x0c", "\x85"])
def test_a_title_cannot_inject_code(sep):
    """A title (a teacher link's, a file's name) only ever lands in a comment."""
    m = model("linear")
    code = E.sklearn_code(m, title=f"D2{sep}import os{sep}os.system('echo hacked')")
    tree = ast.parse(code)
    names = {a.name for node in ast.walk(tree) if isinstance(node, ast.Import | ast.ImportFrom)
             for a in node.names}
    assert names == {"numpy", "SVC"}
    assert not any("os.system" in ln for ln in code.splitlines() if not ln.startswith("#"))
