"""Train/test split and k-fold cross-validation over C × σ / C × degree on the engine's solvers
(svm_engine/model_selection.py), against scikit-learn's GridSearchCV(SVC) on the same folds."""

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import svm_engine as se
from svm_engine import datasets
from svm_engine import model_selection as ms
from tests.sklearn_params import sk_params

labels = st.lists(st.sampled_from([-1, 1]), min_size=6, max_size=60).filter(
    lambda y: min(y.count(1), y.count(-1)) >= 5)


# --------------------------------------------------------------------------- splits


@settings(derandomize=True, max_examples=80, deadline=None)
@given(labels, st.floats(0.1, 0.9), st.integers(0, 1000))
def test_split_is_a_stratified_partition(y, frac, seed):
    y = np.array(y)
    train, test = ms.train_test_split(y, frac, seed)
    assert np.intersect1d(train, test).size == 0
    np.testing.assert_array_equal(np.sort(np.concatenate([train, test])), np.arange(len(y)))
    for c in (-1, 1):
        n_c = int(np.sum(y == c))
        want = min(max(round(frac * n_c), 1), n_c - 1)
        assert np.sum(y[test] == c) == want
    again = ms.train_test_split(y, frac, seed)
    np.testing.assert_array_equal(again[1], test)


def test_split_depends_on_the_seed():
    y = np.repeat([0, 1], 50)
    assert not np.array_equal(ms.train_test_split(y, 0.3, 0)[1], ms.train_test_split(y, 0.3, 1)[1])


@settings(derandomize=True, max_examples=80, deadline=None)
@given(labels, st.integers(2, 5), st.integers(0, 1000))
def test_folds_partition_the_points_evenly(y, k, seed):
    y = np.array(y)
    folds = ms.stratified_folds(y, k, seed)
    assert len(folds) == k
    tests = np.concatenate([te for _, te in folds])
    np.testing.assert_array_equal(np.sort(tests), np.arange(len(y)))
    for tr, te in folds:
        np.testing.assert_array_equal(np.sort(np.concatenate([tr, te])), np.arange(len(y)))
    sizes = [len(te) for _, te in folds]
    assert max(sizes) - min(sizes) <= 1
    for c in (-1, 1):
        per = [int(np.sum(y[te] == c)) for _, te in folds]
        assert max(per) - min(per) <= 1


def test_split_and_fit_accuracies():
    d = datasets.moons(n=120, noise=0.25, seed=2)
    r = ms.split_and_fit(d.X, d.y, se.Gaussian(0.5), 1.0, test_fraction=0.25, seed=3)
    assert len(r.test) == 30 and len(r.train) == 90
    assert r.train_accuracy == np.mean(r.model.predict(d.X[r.train]) == d.y[r.train])
    assert r.test_accuracy == np.mean(r.model.predict(d.X[r.test]) == d.y[r.test])


def test_overfitting_shows_on_the_test_set():
    """A tiny σ with a large C fits every training point and does worse on new ones."""
    d = datasets.moons(n=150, noise=0.35, seed=0)
    over = ms.split_and_fit(d.X, d.y, se.Gaussian(0.02), 1000.0, seed=0)
    fine = ms.split_and_fit(d.X, d.y, se.Gaussian(0.5), 1.0, seed=0)
    assert over.train_accuracy == 1.0
    assert over.test_accuracy < fine.test_accuracy - 0.1


# --------------------------------------------------------------------------- against scikit-learn


def _sklearn_scores(X, y, folds, kernel, Cs, values, coef0=1.0):
    from sklearn.model_selection import GridSearchCV
    from sklearn.svm import SVC

    if kernel == "gaussian":
        est = SVC(kernel="rbf", tol=1e-8)
        grid = {"C": list(Cs), "gamma": [1.0 / (2 * s * s) for s in values]}
    else:
        est = SVC(kernel="poly", gamma=1.0, coef0=coef0, tol=1e-8, max_iter=10_000_000)
        grid = {"C": list(Cs), "degree": list(values)}
    gs = GridSearchCV(est, grid, cv=folds, scoring="accuracy", refit=False).fit(X, y)
    res = gs.cv_results_
    out = np.empty((len(Cs), len(values), len(folds)))
    key = "param_gamma" if kernel == "gaussian" else "param_degree"
    vals = [1.0 / (2 * s * s) for s in values] if kernel == "gaussian" else list(values)
    for r in range(len(res["params"])):
        i = list(Cs).index(res["param_C"][r])
        j = vals.index(res[key][r])
        out[i, j] = [res[f"split{f}_test_score"][r] for f in range(len(folds))]
    return out


def _disagreements_are_ties(X, y, folds, kernel, C, v, f, coef0=1.0):
    """Where one fold's accuracies differ, every point the two models label differently lies
    on the boundary to within the solvers' accuracy (|h| ≤ 1e-3)."""
    from sklearn.svm import SVC

    tr, te = folds[f]
    kern = ms.grid_kernel(kernel, v, coef0)
    ours = se.fit(X[tr], y[tr], kernel=kern, C=C)
    ref = SVC(C=C, tol=1e-8, **sk_params(kern)).fit(X[tr], y[tr])
    differ = ours.predict(X[te]) != ref.predict(X[te])
    return bool(np.all(np.abs(ref.decision_function(X[te])[differ]) <= 1e-3))


@pytest.mark.parametrize("kernel, Cs, values", [
    ("gaussian", (0.1, 1.0, 10.0, 100.0), (0.1, 0.3, 1.0, 3.0)),
    ("polynomial", (0.1, 1.0, 10.0), (1, 2, 3)),
])
def test_cross_validation_matches_gridsearchcv(kernel, Cs, values):
    d = datasets.moons(n=80, noise=0.3, seed=5)
    X = (d.X - d.X.mean(0)) / d.X.std(0)       # standardised: every polynomial fit converges
    folds = ms.stratified_folds(d.y, 5, seed=1)
    with warnings.catch_warnings():
        warnings.simplefilter("error", se.ConvergenceWarning)
        got = ms.cross_validate(X, d.y, kernel, Cs, values, folds=folds, budget_s=600)
    assert got.done.all() and not got.stopped and got.fits == len(Cs) * len(values) * 5
    ref = _sklearn_scores(X, d.y, folds, kernel, Cs, values)
    mismatch = np.argwhere(got.fold_accuracy != ref)
    assert len(mismatch) <= 0.05 * ref.size
    for i, j, f in mismatch:
        assert _disagreements_are_ties(X, d.y, folds, kernel, Cs[i], values[j], f)
    # each test fold holds 16 points: a tie moves one fold's accuracy by 1/16, the mean by 1/80
    np.testing.assert_allclose(got.mean_accuracy, ref.mean(-1), rtol=0,
                               atol=len(mismatch) / 80 + 1e-12)


def test_same_folds_by_seed_and_grid_result_shape():
    d = datasets.circles(n=60, noise=0.1, seed=0)
    a = ms.cross_validate(d.X, d.y, "gaussian", [1.0, 10.0], [0.5, 1.0], k=3, seed=7,
                          budget_s=600)
    b = ms.cross_validate(d.X, d.y, "gaussian", [1.0, 10.0], [0.5, 1.0], k=3, seed=7,
                          budget_s=600)
    np.testing.assert_array_equal(a.fold_accuracy, b.fold_accuracy)
    assert a.fold_accuracy.shape == (2, 2, 3) and a.param == "sigma"
    assert np.all((a.mean_train_accuracy >= 0) & (a.mean_train_accuracy <= 1))


# --------------------------------------------------------------------------- best cell, budget


def _result(kernel, Cs, values, acc, done=None):
    acc = np.asarray(acc, float)[..., None]
    done = np.ones(acc.shape[:2], bool) if done is None else np.asarray(done)
    return ms.GridResult(kernel=kernel, param=ms.PARAMS[kernel], Cs=tuple(Cs),
                         values=tuple(values), k=1, folds=[], fold_accuracy=acc,
                         train_accuracy=acc, unconverged=np.zeros(acc.shape[:2], int),
                         done=done, elapsed_s=0.0, budget_s=1.0, stopped=False)


def test_best_cell_ties_go_to_the_simplest_model():
    g = _result("gaussian", (0.1, 1.0, 10.0), (0.2, 1.0, 5.0),
                [[0.7, 0.9, 0.9], [0.9, 0.9, 0.8], [0.9, 0.6, 0.6]])
    assert g.best == (0, 2) and g.best_params == {"C": 0.1, "sigma": 5.0}
    p = _result("polynomial", (1.0, 10.0), (2, 3, 4), [[0.5, 0.8, 0.8], [0.8, 0.6, 0.6]])
    assert p.best == (0, 1) and p.best_params == {"C": 1.0, "degree": 3}
    undone = _result("gaussian", (1.0, 10.0), (1.0,), [[0.5], [0.9]], done=[[True], [False]])
    assert undone.best == (0, 0) and np.isnan(undone.mean_accuracy[1, 0])
    assert _result("gaussian", (1.0,), (1.0,), [[0.5]], done=[[False]]).best is None


def test_budget_stop_is_honest():
    """A clock that advances one second per reading: the run stops starting fits after the
    budget, reports only the cells whose every fold was computed, and those agree with an
    unhurried run."""
    d = datasets.moons(n=60, noise=0.2, seed=0)
    ticks = iter(range(10_000))
    clock = lambda: float(next(ticks))
    Cs, sig = (1.0, 10.0, 100.0), (0.3, 1.0)
    got = ms.cross_validate(d.X, d.y, "gaussian", Cs, sig, k=3, budget_s=10.5, clock=clock)
    # readings: 0 at the start, then one before each fit: fits 1..10 start at t = 1..10, the
    # 11th reading (t = 11) is over 10.5 s
    assert got.stopped and got.fits == 10
    np.testing.assert_array_equal(got.done, [[True, True], [True, False], [False, False]])
    assert "3 of 6 cells done" in got.summary
    assert got.unfinished == [(10.0, 1.0), (100.0, 0.3), (100.0, 1.0)]
    assert "use fewer values or fewer points" in got.summary
    full = ms.cross_validate(d.X, d.y, "gaussian", Cs, sig, k=3, budget_s=600)
    np.testing.assert_array_equal(got.mean_accuracy[got.done], full.mean_accuracy[got.done])
    assert np.isnan(got.mean_accuracy[~got.done]).all()
    assert got.best is not None and got.done[got.best]


def test_work_cap_refuses_before_starting():
    d = datasets.moons(n=500, noise=0.2, seed=0)
    with pytest.raises(ValueError, match=r"25 cells × 5 folds × 400 training points = 50,000 "
                                         r"is over the limit of 40,000"):
        ms.cross_validate(d.X, d.y, "gaussian", [0.1, 1, 10, 100, 1000],
                          [0.1, 0.3, 1, 3, 10])


def test_bad_input_is_named():
    d = datasets.moons(n=30, noise=0.2, seed=0)
    X, y = d.X, d.y
    cases = [
        (dict(kernel="linear"),
         r"kernel must be one of \('gaussian', 'polynomial'\), got 'linear'"),
        (dict(Cs=[0.0]), "every value of Cs must be a finite number > 0, got 0.0"),
        (dict(Cs=[]), r"Cs must be a non-empty list of numbers, got \[\]"),
        (dict(values=[-1.0]), "every value of sigmas must be a finite number > 0, got -1.0"),
        (dict(kernel="polynomial", values=[2.5]),
         "every value of degrees must be an integer from 1 to 10, got 2.5"),
        (dict(Cs=[1.0, 1.0]), r"Cs lists a value twice: \[1.0, 1.0\]"),
        (dict(k=1), r"k \(folds\) must be an integer ≥ 2, got 1"),
        (dict(k=20), "k = 20 folds need at least 20 points of each class"),
        (dict(budget_s=0), "budget_s must be a finite number > 0, got 0"),
        (dict(seed=-1), "seed must be an integer ≥ 0, got -1"),
    ]
    for kw, msg in cases:
        args = dict(kernel="gaussian", Cs=[1.0], values=[1.0]) | kw
        with pytest.raises(ValueError, match=msg):
            ms.cross_validate(X, y, args.pop("kernel"), args.pop("Cs"), args.pop("values"),
                              **args)
    with pytest.raises(ValueError, match=r"test_fraction must be a number in \(0, 1\), got 1.5"):
        ms.train_test_split(y, 1.5)
    with pytest.raises(ValueError, match="class 1 has 1 point"):
        ms.train_test_split(np.array([0, 0, 0, 1]))
    with pytest.raises(ValueError, match=r"y has 3 classes \[0, 1, 2\]; expected exactly two"):
        ms.stratified_folds(np.array([0, 1, 2] * 5))
    with pytest.raises(ValueError, match="X has 29 rows and y 30 labels"):
        ms.split_and_fit(X[:-1], y, se.Gaussian(1.0), 1.0)
    assert math.isfinite(ms.BUDGET_S)
