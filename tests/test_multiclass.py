"""More than two classes (svm_engine/multiclass.py) against scikit-learn: one-vs-rest against
`OneVsRestClassifier(SVC(...))`, one-vs-one against `SVC(decision_function_shape='ovo')`, on
the 3-species Iris (two chosen features) and the k-class generator.

Scores are compared to 1e-4 and predictions wherever they are defined to that precision (the
top two OvR scores, or every OvO machine's h, at least 1e-4 from a tie). LIBSVM keeps kernel
values as float32: with large kernel values (a polynomial kernel on Iris in cm, K up to
~7,000) its h is good to ~1e-3 only and its dual objective is below ours by up to ~1e-5
relative; that case is checked by the objective
(`test_large_kernel_values_agree_by_the_objective`), the others on standardised features.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.multiclass import OneVsRestClassifier
from sklearn.svm import SVC

import svm_engine as se
from svm_engine.datasets_multiclass import MAX_K, blobs_k, iris_species
from svm_engine.multiclass import grid, regions
from tests.sklearn_params import sk_params

ATOL = 1e-4
QUICK = settings(max_examples=25, deadline=None, derandomize=True, database=None)


def check_ovr(X, y, kernel, C):
    m = se.fit_multiclass(X, y, "ovr", kernel=kernel, C=C)
    ref = OneVsRestClassifier(SVC(C=C, tol=1e-10, **sk_params(kernel))).fit(X, y)
    assert m.converged, m.status
    assert list(m.classes) == list(ref.classes_)
    S, R = m.scores(X), ref.decision_function(X)
    np.testing.assert_allclose(S, R, atol=ATOL)
    top2 = np.sort(R, axis=1)[:, -2:]
    clear = top2[:, 1] - top2[:, 0] > 2 * ATOL
    assert clear.mean() > 0.9
    np.testing.assert_array_equal(m.predict(X)[clear], ref.predict(X)[clear])
    return m


def check_ovo(X, y, kernel, C):
    m = se.fit_multiclass(X, y, "ovo", kernel=kernel, C=C)
    ref = SVC(C=C, tol=1e-10, decision_function_shape="ovo", **sk_params(kernel)).fit(X, y)
    assert m.converged, m.status
    S, R = m.scores(X), ref.decision_function(X)
    k = len(m.classes)
    assert S.shape == (len(X), k * (k - 1) // 2)
    np.testing.assert_allclose(S, R, atol=ATOL)
    clear = (np.abs(R) > 2 * ATOL).all(axis=1)
    assert clear.mean() > 0.9
    np.testing.assert_array_equal(m.predict(X)[clear], ref.predict(X)[clear])
    return m


IRIS_CASES = [   # features, kernel, C, standardised (the polynomial kernel: see the docstring)
    (("sepal_length", "sepal_width"), se.Linear(), 1.0, False),
    (("sepal_length", "sepal_width"), se.Gaussian(sigma=0.7), 1.0, False),
    (("sepal_length", "sepal_width"), se.Gaussian(sigma=0.7), 10.0, False),
    (("petal_length", "petal_width"), se.Linear(), 1.0, False),
    (("petal_length", "petal_width"), se.Gaussian(sigma=1.0), 10.0, False),
    (("sepal_length", "petal_width"), se.Polynomial(degree=2, coef0=1.0), 1.0, True),
    (("sepal_length", "sepal_width"), se.Polynomial(degree=3, coef0=1.0), 0.1, True),
]


@pytest.mark.parametrize("features, kernel, C, standardised", IRIS_CASES)
def test_iris_three_species_as_scikit_learn(features, kernel, C, standardised):
    d = iris_species(features)
    assert len(d.classes) == 3 and d.n == 150
    X = (d.X - d.X.mean(axis=0)) / d.X.std(axis=0) if standardised else d.X
    ovr = check_ovr(X, d.y, kernel, C)
    ovo = check_ovo(X, d.y, kernel, C)
    assert [m.name for m in ovr.machines] == [f"{c} vs rest" for c in d.classes]
    assert [m.name for m in ovo.machines] == [
        "Iris-setosa vs Iris-versicolor", "Iris-setosa vs Iris-virginica",
        "Iris-versicolor vs Iris-virginica"]


@QUICK
@given(k=st.integers(3, 5), seed=st.integers(0, 2**31), noise=st.floats(0.3, 1.5),
       kernel=st.sampled_from([se.Linear(), se.Gaussian(sigma=0.6), se.Gaussian(sigma=2.0),
                               se.Polynomial(degree=2, coef0=1.0)]),
       C=st.sampled_from([0.1, 1.0, 10.0]))
def test_k_class_blobs_as_scikit_learn(k, seed, noise, kernel, C):
    d = blobs_k(k=k, n=12 * k, noise=noise, seed=seed)
    check_ovr(d.X, d.y, kernel, C)
    check_ovo(d.X, d.y, kernel, C)


def test_large_kernel_values_agree_by_the_objective():
    """Iris in cm, (1 + xᵀz)² at C = 10: kernel values up to ~7,000. Every binary machine
    reaches at least LIBSVM's dual objective (ours is a maximum: never lower, and within
    1e-5 relative of LIBSVM's) and the predictions agree."""
    d = iris_species()
    kernel, C = se.Polynomial(degree=2, coef0=1.0), 10.0
    m = se.fit_multiclass(d.X, d.y, "ovo", kernel=kernel, C=C)
    ref = SVC(C=C, tol=1e-12, decision_function_shape="ovo", **sk_params(kernel))
    for mach in m.machines:
        rows = mach.rows
        labels = (d.y[rows] == mach.positive).astype(int)
        r = ref.fit(d.X[rows], labels)
        a = np.zeros(len(rows))
        a[r.support_] = np.abs(r.dual_coef_[0])
        yy = np.where(labels == 1, 1.0, -1.0)
        Q = np.outer(yy, yy) * kernel(d.X[rows], d.X[rows])
        theirs, ours = a.sum() - 0.5 * a @ Q @ a, mach.model.dual_objective
        assert mach.model.converged and ours >= theirs - 1e-9 * abs(theirs)
        assert ours == pytest.approx(theirs, rel=1e-5)
    full = SVC(C=C, tol=1e-12, **sk_params(kernel)).fit(d.X, d.y)
    assert (m.predict(d.X) == full.predict(d.X)).mean() > 0.99


def test_machines_votes_and_scores_fit_together():
    d = blobs_k(k=4, n=60, noise=0.8, seed=11)
    ovo = se.fit_multiclass(d.X, d.y, "ovo", kernel=se.Gaussian(sigma=1.0), C=1.0)
    assert ovo.n_machines == 6 and ovo.converged
    for mach, (i, j) in zip(ovo.machines, ovo.pairs):
        assert set(d.y[mach.rows]) == {ovo.classes[i], ovo.classes[j]}
        # h > 0 means the machine's positive (first) class on its own training points
        h = mach.model.decision_function(d.X[mach.rows])
        pos = d.y[mach.rows] == mach.positive
        assert (h[pos] > 0).mean() > 0.8 and (h[~pos] < 0).mean() > 0.8
    V = ovo.votes(d.X)
    assert (V.sum(axis=1) == 6).all()
    np.testing.assert_array_equal(ovo.predict(d.X), ovo.classes[np.argmax(V, axis=1)])
    ovr = se.fit_multiclass(d.X, d.y, "ovr", kernel=se.Gaussian(sigma=1.0), C=1.0)
    assert ovr.n_machines == 4 and all(len(m.rows) == 60 for m in ovr.machines)
    np.testing.assert_array_equal(ovr.predict(d.X), ovr.classes[np.argmax(ovr.scores(d.X), 1)])


def test_ties_go_to_the_first_class_as_scikit_learn():
    d = blobs_k(k=3, n=30, seed=0)
    ovr = se.fit_multiclass(d.X, d.y, "ovr", C=1.0)
    ovo = se.fit_multiclass(d.X, d.y, "ovo", C=1.0)
    Z = np.zeros((3, 2))
    # OvR: equal top scores → the first of them (np.argmax, OneVsRestClassifier.predict)
    S = np.array([[0.5, 0.5, 0.1], [0.1, 0.7, 0.7], [0.2, 0.2, 0.2]])
    assert ovr.predict_index(Z, S).tolist() == [0, 1, 0]
    # OvO pairs (0,1), (0,2), (1,2): h > 0 votes the first class, h ≤ 0 the second (LIBSVM)
    S = np.array([[1.0, -1.0, 1.0], [-1.0, 1.0, -1.0], [0.0, 0.0, 1.0]])
    assert ovo.votes(Z, S).tolist() == [[1, 1, 1], [1, 1, 1], [0, 2, 1]]
    assert ovo.predict_index(Z, S).tolist() == [0, 0, 1]


@pytest.mark.parametrize("kernel", [se.Linear(), se.Gaussian(sigma=1.0)])
def test_three_way_vote_ties_go_to_the_first_class_in_scikit_learn_too(kernel):
    """Overlapping blobs: where the three pair machines vote in a cycle (one vote each, every
    |h| > 1e-3 so the votes are certain) ours and LIBSVM's prediction are the same class."""
    d = blobs_k(k=3, n=45, noise=1.2, seed=0)
    m = se.fit_multiclass(d.X, d.y, "ovo", kernel=kernel, C=1.0)
    _, _, Z = grid(d.X, steps=200)
    S = m.scores(Z)
    tie = (m.votes(Z, S).max(axis=1) == 1) & (np.abs(S) > 1e-3).all(axis=1)
    assert tie.sum() >= 10
    ref = SVC(C=1.0, tol=1e-10, **sk_params(kernel)).fit(d.X, d.y)
    np.testing.assert_array_equal(m.predict(Z[tie]), ref.predict(Z[tie]))
    assert set(m.predict(Z[tie])) == {m.classes[0]}


def test_two_classes_use_one_machine_as_scikit_learn():
    d = blobs_k(k=2, n=30, noise=1.0, seed=5)
    m = se.fit_multiclass(d.X, d.y, "ovr", kernel=se.Gaussian(sigma=1.0), C=1.0)
    ref = OneVsRestClassifier(SVC(kernel="rbf", gamma=0.5, C=1.0, tol=1e-10)).fit(d.X, d.y)
    assert m.n_machines == 1 and m.machines[0].name == "2 vs 1"
    np.testing.assert_allclose(m.scores(d.X)[:, 0], ref.decision_function(d.X), atol=ATOL)
    np.testing.assert_array_equal(m.predict(d.X), ref.predict(d.X))


def test_regions_are_the_predictions_on_the_grid():
    d = iris_species(("petal_length", "petal_width"))
    m = se.fit_multiclass(d.X, d.y, "ovo", kernel=se.Gaussian(sigma=1.0), C=1.0)
    xs, ys, Z = grid(d.X, steps=30)
    reg = regions(m, xs, ys)
    assert reg.index.shape == (30, 30) and reg.scores.shape == (3, 30, 30)
    np.testing.assert_array_equal(reg.index.ravel(), m.predict_index(Z))
    np.testing.assert_allclose(reg.scores[1].ravel(), m.machines[1].model.decision_function(Z))
    assert xs[0] < d.X[:, 0].min() and xs[-1] > d.X[:, 0].max()
    assert set(np.unique(reg.index)) == {0, 1, 2}


@pytest.mark.parametrize("args, kw, msg", [
    (([[0, 0], [1, 1]], [1, 1]), {}, "only 1 class"),
    (([[0, 0], [1, 1]], [1, 2]), {"strategy": "all"}, "'all'"),
    (([[0, 0], [1, 1], [2, 2]], [1, 2]), {}, "one label per point"),
    (([0, 1, 2], [1, 2, 3]), {}, "2-D"),
    (([[0, 0], [1, 1], [2, 2]], [1, 2, 3]), {"C": -1.0}, "machine 1 vs rest: C"),
    (([[0, 0], [1, 1], [2, 2]], [1.0, 2.0, np.nan]), {}, "NaN"),
])
def test_bad_input_is_a_value_error_naming_the_value(args, kw, msg):
    with pytest.raises(ValueError, match=msg):
        se.fit_multiclass(*args, **kw)


def test_multiclass_data_are_checked_and_deterministic():
    a, b = blobs_k(k=5, n=50, noise=0.5, seed=3), blobs_k(k=5, n=50, noise=0.5, seed=3)
    assert np.array_equal(a.X, b.X) and np.bincount(a.y).tolist() == [0] + [10] * 5
    assert not np.array_equal(a.X, blobs_k(k=5, n=50, noise=0.5, seed=4).X)
    d = iris_species(("petal_width", "sepal_length"))
    assert d.feature_names == ("petal_width", "sepal_length") and d.X[0].tolist() == [0.2, 5.1]
    for call, msg in [(lambda: blobs_k(k=1), "k must be"), (lambda: blobs_k(k=MAX_K + 1), "k"),
                      (lambda: blobs_k(k=3, n=2), "n must be"),
                      (lambda: blobs_k(noise=-1.0), "noise"),
                      (lambda: iris_species(("sepal_length", "sepal_length")), "two different"),
                      (lambda: iris_species(("stem", "sepal_length")), "stem")]:
        with pytest.raises(ValueError, match=msg):
            call()
