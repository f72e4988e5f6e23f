"""se.SVC, the scikit-learn estimator over se.fit (issue 2: cross_val_score works on it;
issue 30: scikit-learn's names, defaults and shapes, test_estimator_sklearn_parity.py)."""

import math
import pickle
import warnings

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.exceptions import DataConversionWarning, NotFittedError
from sklearn.model_selection import GridSearchCV, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import svm_engine as se
from svm_engine import datasets as ds

PARAMS = ("kernel", "C", "degree", "coef0", "gamma", "loss", "bias", "solver", "tol",
          "max_iter", "wss", "time_budget")


def moons(n=80, seed=0):
    d = ds.moons(n=n, noise=0.25, seed=seed)
    return d.X, np.where(d.y > 0, "upper", "lower")


def test_fit_returns_self_and_sets_fitted_attributes():
    X, y = moons()
    clf = se.SVC(kernel="rbf", gamma=2.0, C=10.0)   # σ = 1/√(2γ) = 0.5
    assert not [a for a in vars(clf) if a.endswith("_")]   # nothing fitted before fit
    assert clf.fit(X, y) is clf
    fitted = sorted(a for a in vars(clf) if a.endswith("_") and not a.startswith("_"))
    assert {"classes_", "alpha_", "dual_coef_", "support_", "support_vectors_", "intercept_",
            "n_support_", "n_iter_", "fit_status_", "converged_", "n_features_in_",
            "shape_fit_", "model_"} <= set(fitted)
    assert list(clf.classes_) == ["lower", "upper"]
    assert clf.n_features_in_ == 2 and clf.converged_ and clf.fit_status_ == 0
    assert clf.n_iter_.shape == (1,) and clf.n_iter_[0] > 0
    # the attributes are those of the engine's model for the same call
    m = se.fit(X, y, kernel=se.Gaussian(sigma=0.5), C=10.0)
    np.testing.assert_array_equal(clf.alpha_, m.alpha)
    # scikit-learn's order: the support vectors of classes_[0] ("lower"), then of classes_[1]
    sv = np.concatenate([m.support[m.y[m.support] < 0], m.support[m.y[m.support] > 0]])
    np.testing.assert_array_equal(clf.support_, sv)
    np.testing.assert_array_equal(clf.n_support_, [np.sum(m.y[sv] < 0), np.sum(m.y[sv] > 0)])
    np.testing.assert_array_equal(clf.support_vectors_, X[sv])
    np.testing.assert_array_equal(clf.dual_coef_, [(m.alpha * m.y)[sv]])
    np.testing.assert_array_equal(clf.intercept_, [m.b])
    assert not hasattr(clf, "coef_")                          # no w for the Gaussian kernel
    np.testing.assert_array_equal(clf.decision_function(X), m.decision_function(X))
    np.testing.assert_array_equal(clf.predict(X), m.predict(X))
    assert clf.score(X, y) == pytest.approx(np.mean(m.predict(X) == y))


def test_linear_kernel_exposes_w_as_coef():
    d = ds.d1()
    clf = se.SVC(kernel="linear", C=math.inf, tol=1e-9).fit(d.X, d.y)
    np.testing.assert_allclose(clf.coef_, [[5 / 6, 1 / 3]], atol=1e-6)
    np.testing.assert_allclose(clf.intercept_, [-10 / 3], atol=1e-6)


def test_get_params_lists_every_constructor_argument():
    clf = se.SVC(kernel="poly", degree=3, coef0=0.0, C=2.5, solver="qp", tol=1e-6)
    params = clf.get_params()
    assert sorted(params) == sorted(PARAMS)
    assert params["kernel"] == "poly" and params["degree"] == 3 and params["coef0"] == 0.0
    assert params["C"] == 2.5 and params["solver"] == "qp" and params["tol"] == 1e-6
    assert clf.get_params(deep=False) == params
    assert repr(clf).startswith("SVC(") and "kernel='poly'" in repr(clf)


def test_set_params_returns_self_and_changes_the_fit():
    X, y = moons()
    clf = se.SVC(kernel="linear", C=1.0)
    assert clf.set_params(kernel="rbf", gamma=5.0, C=100.0) is clf
    assert clf.get_params()["gamma"] == 5.0
    clf.fit(X, y)
    assert isinstance(clf.model_.kernel, se.Gaussian) and clf.model_.C == 100.0
    assert clf.score(X, y) > se.SVC(kernel="linear").fit(X, y).score(X, y)


def test_set_params_rejects_unknown_names():
    with pytest.raises(ValueError, match=r"Invalid parameter 'gama' for estimator SVC"):
        se.SVC().set_params(gama=1.0)


def test_sklearn_clone_copies_params_not_the_fit():
    X, y = moons()
    clf = se.SVC(kernel="rbf", gamma=1.0, C=3.0, loss="quadratic").fit(X, y)
    twin = clone(clf)
    assert twin is not clf and twin.get_params() == clf.get_params()
    assert not hasattr(twin, "model_")
    with pytest.raises(NotFittedError, match=r"not fitted yet"):
        twin.predict(X)


def test_cross_val_score_runs_and_scores_like_a_manual_loop():
    X, y = moons(n=120, seed=3)
    clf = se.SVC(kernel="rbf", gamma=2.0, C=10.0)
    scores = cross_val_score(clf, X, y, cv=4)
    assert scores.shape == (4,) and (scores > 0.7).all()
    # the same folds by hand: cross_val_score did fit a clone per fold
    from sklearn.model_selection import StratifiedKFold

    manual = [se.SVC(kernel="rbf", gamma=2.0, C=10.0).fit(X[tr], y[tr]).score(X[te], y[te])
              for tr, te in StratifiedKFold(4).split(X, y)]
    np.testing.assert_allclose(scores, manual)


def test_grid_search_and_pipeline():
    X, y = moons(n=100, seed=4)
    pipe = make_pipeline(StandardScaler(), se.SVC(kernel="rbf"))
    grid = GridSearchCV(pipe, {"svc__C": [0.1, 10.0], "svc__gamma": [0.05, 5.0]}, cv=3)
    grid.fit(X, y)
    assert set(grid.best_params_) == {"svc__C", "svc__gamma"}
    assert grid.score(X, y) > 0.8


@pytest.mark.parametrize("solver, kw", [("qp", {}), ("sga", {"bias": "augmented"}),
                                        ("newton", {"bias": "augmented", "loss": "quadratic"})])
def test_every_solver_through_the_facade(solver, kw):
    X, y = moons()
    clf = se.SVC(kernel="linear", C=1.0, solver=solver, tol=None, **kw).fit(X, y)
    m = se.fit(X, y, C=1.0, solver=solver, **kw)              # tol=None: the solver's own
    np.testing.assert_allclose(clf.coef_, [m.w])
    assert clf.model_.solver == solver


def test_non_convergence_is_a_warning_not_an_error():
    X, y = moons()
    clf = se.SVC(kernel="rbf", gamma=2.0, C=10.0, tol=1e-12, max_iter=2)
    with pytest.warns(se.ConvergenceWarning, match=r"max_iter = 2"):
        assert clf.fit(X, y) is clf
    assert clf.converged_ is False and clf.n_iter_[0] == 2 and clf.fit_status_ == 1
    assert clf.predict(X).shape == (len(X),)


def test_bad_parameters_fail_at_fit_with_value_error():
    X, y = moons()
    for kw, what in (({"C": -1.0}, r"C must be > 0"),
                     ({"kernel": "cosine"}, r"kernel must be one of \('linear', 'poly', 'rbf'\)"),
                     ({"kernel": "poly", "degree": 0}, r"degree must be an integer ≥ 1"),
                     ({"kernel": "poly", "coef0": -1.0}, r"c = -1.0 < 0 is not a kernel"),
                     ({"solver": "smo", "bias": "augmented"}, r"solver 'smo' supports bias")):
        with pytest.raises(ValueError, match=what):
            se.SVC(**kw).fit(X, y)


def test_fitted_facade_pickles():
    X, y = moons()
    clf = se.SVC(kernel="rbf", gamma=2.0).fit(X, y)
    back = pickle.loads(pickle.dumps(clf))
    np.testing.assert_array_equal(back.decision_function(X), clf.decision_function(X))


def test_converged_fit_through_cross_val_score_does_not_warn():
    X, y = moons()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cross_val_score(se.SVC(kernel="linear", C=1.0), X, y, cv=3)


# -- issue 18: scikit-learn's conventions (the whole suite: test_estimator_checks.py) -------


@pytest.mark.parametrize("gamma", [0.5, 2.0, 12.5])
def test_gamma_is_the_engines_sigma(gamma):
    X, y = moons()
    by_gamma = se.SVC(kernel="rbf", gamma=gamma, C=10.0).fit(X, y)
    sigma = 1.0 / math.sqrt(2.0 * gamma)                      # γ = 1/(2σ²)
    by_sigma = se.fit(X, y, kernel=se.Gaussian(sigma=sigma), C=10.0)
    assert by_gamma.model_.kernel.sigma == sigma
    np.testing.assert_array_equal(by_gamma.decision_function(X), by_sigma.decision_function(X))


@pytest.mark.parametrize("gamma", ["scale", "auto", 0.8])
def test_gamma_gives_scikit_learns_rbf_boundary(gamma):
    from sklearn.svm import SVC as SkSVC

    X, y = moons(n=60, seed=2)
    X = X * [3.0, 0.5]                    # 'scale' differs from 'auto' when Var(X) ≠ 1
    ours = se.SVC(kernel="rbf", gamma=gamma, C=2.0, tol=1e-8).fit(X, y)
    theirs = SkSVC(kernel="rbf", gamma=gamma, C=2.0, tol=1e-8).fit(X, y)
    Z = np.random.default_rng(0).uniform(X.min(0), X.max(0), size=(200, 2))
    np.testing.assert_allclose(ours.decision_function(Z), theirs.decision_function(Z),
                               atol=1e-5)
    assert list(ours.classes_) == list(theirs.classes_)


@pytest.mark.parametrize("kw, what", [
    ({"kernel": "rbf", "gamma": 0.0}, r"gamma must be a number > 0"),
    ({"kernel": "rbf", "gamma": "wide"}, r"gamma must be a number > 0, 'scale' or 'auto'"),
    ({"kernel": "rbf", "gamma": float("nan")}, r"gamma must be"),
    ({"kernel": "poly", "gamma": -1.0}, r"gamma must be a number > 0"),
    ({"kernel": "linear", "gamma": True}, r"gamma must be"),   # checked as scikit-learn does
])
def test_bad_gamma_is_a_value_error(kw, what):
    X, y = moons()
    with pytest.raises(ValueError, match=what):
        se.SVC(**kw).fit(X, y)


def test_unfitted_use_raises_not_fitted_error():
    for method in ("predict", "decision_function"):
        with pytest.raises(NotFittedError):
            getattr(se.SVC(), method)(np.zeros((2, 2)))


def test_feature_names_and_count_follow_the_training_frame():
    pd = pytest.importorskip("pandas")
    X, y = moons()
    frame = pd.DataFrame(X, columns=["length", "width"])
    clf = se.SVC().fit(frame, y)
    assert clf.n_features_in_ == 2 and list(clf.feature_names_in_) == ["length", "width"]
    with pytest.warns(UserWarning, match="X does not have valid feature names"):
        np.testing.assert_array_equal(clf.predict(X), clf.predict(frame))
    with pytest.raises(ValueError, match="feature names should match"):
        clf.predict(frame.rename(columns={"width": "height"}))
    with (pytest.warns(UserWarning, match="valid feature names"),
          pytest.raises(ValueError, match="X has 3 features, but SVC is expecting 2")):
        clf.predict(np.zeros((4, 3)))
    assert not hasattr(se.SVC().fit(X, y), "feature_names_in_")   # plain arrays have none


def test_input_that_scikit_learn_refuses_is_refused():
    import scipy.sparse as sp

    X, y = moons()
    with pytest.raises(ValueError, match="Expected 2D array, got 1D array"):
        se.SVC().fit(X[:, 0], y)
    with pytest.warns(DataConversionWarning, match="column-vector y"):
        col = se.SVC().fit(X, y.reshape(-1, 1))
    np.testing.assert_array_equal(col.predict(X), se.SVC().fit(X, y).predict(X))
    with pytest.raises(ValueError, match="Complex data not supported"):
        se.SVC().fit(X + 1j, y)
    with pytest.raises(ValueError, match="could not convert string to float"):
        se.SVC().fit(np.array([["a", "b"]] * len(X), dtype=object), y)
    with pytest.raises(TypeError, match="dense data is required"):
        se.SVC().fit(sp.csr_matrix(X), y)
    with pytest.raises(ValueError, match="Only binary classification is supported"):
        se.SVC().fit(X, np.arange(len(X)) % 3)
    with pytest.raises(ValueError, match="Unknown label type"):
        se.SVC().fit(X, np.linspace(0, 1, len(X)))
