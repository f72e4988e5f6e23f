"""svm_engine.knn and svm_engine.kernel_distance: k-NN with the Euclidean distance or the
distance through a kernel (seed 002), against scikit-learn's KNeighborsClassifier, and 1-NN's
Voronoi edges against the 1-NN regions on a grid."""

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from sklearn.metrics.pairwise import polynomial_kernel, rbf_kernel
from sklearn.neighbors import KNeighborsClassifier

import svm_engine as se
from svm_engine import knn
from svm_engine.datasets_multiclass import blobs_k, iris_species
from svm_engine.kernel_distance import squared_distances


def spread(seed, n=80, m=300, k=3):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2)) * 1.5
    y = rng.integers(0, k, size=n)
    Z = rng.uniform(-4, 4, size=(m, 2))
    return X, y, Z


@pytest.mark.parametrize("k", [1, 3, 4, 7])
@pytest.mark.parametrize("seed", [0, 1])
def test_euclidean_is_scikit_learns(k, seed):
    X, y, Z = spread(seed)
    r = knn.kneighbours(X, y, Z, k)
    ref = KNeighborsClassifier(n_neighbors=k, algorithm="brute").fit(X, y)
    dist, idx = ref.kneighbors(Z)
    np.testing.assert_array_equal(r.neighbours, idx)          # continuous data: no ties
    np.testing.assert_allclose(np.sqrt(r.distances), dist, rtol=1e-9, atol=1e-12)
    np.testing.assert_array_equal(r.predicted, ref.predict(Z))  # vote ties: first class


def test_iris_species_every_k():
    """Iris repeats points, so equal distances abound: where the k-th and the (k+1)-th
    distances differ the k nearest are one set whatever the tie rule, and the votes must be
    scikit-learn's; the distances must be everywhere."""
    d = iris_species()
    for k in range(1, 12):
        r = knn.kneighbours(d.X, d.y, d.X, k)
        ref = KNeighborsClassifier(n_neighbors=k, algorithm="brute").fit(d.X, d.y)
        # scikit-learn forms ‖x‖² + ‖z‖² − 2xᵀz: a repeated point is ~1e-14 from itself,
        # √ of it ~1e-7
        np.testing.assert_allclose(np.sqrt(r.distances), ref.kneighbors(d.X)[0], atol=1e-6)
        nxt = knn.kneighbours(d.X, d.y, d.X, k + 1).distances
        clear = nxt[:, k] - nxt[:, k - 1] > 1e-9
        assert clear.mean() > 0.3           # 46 % at the worst k
        for a in np.flatnonzero(clear):
            assert set(r.neighbours[a]) == set(ref.kneighbors(d.X[a:a + 1])[1][0])
        np.testing.assert_array_equal(r.predicted[clear], ref.predict(d.X)[clear])


def test_vote_ties_go_to_the_first_class_in_sorted_order():
    X = np.array([[0.0, 0.0], [1.0, 0.0], [5.0, 5.0]])
    y = np.array(["b", "a", "c"])
    r = knn.kneighbours(X, y, [[0.4, 0.0]], k=2)      # one vote for "b", one for "a"
    assert r.neighbours[0].tolist() == [0, 1]
    assert r.predicted[0] == "a"
    ref = KNeighborsClassifier(n_neighbors=2).fit(X, y)
    assert ref.predict([[0.4, 0.0]])[0] == "a"
    # equal distances: the point that comes first in the data is the nearer
    r = knn.kneighbours(X, y, [[0.5, 0.0]], k=1)
    assert r.neighbours[0, 0] == 0 and r.predicted[0] == "b"


def test_kernel_distance_formula():
    rng = np.random.default_rng(3)
    X, Z = rng.normal(size=(30, 2)), rng.normal(size=(20, 2))
    E = ((Z[:, None, :] - X[None, :, :]) ** 2).sum(axis=2)
    np.testing.assert_allclose(squared_distances(None, Z, X), E, atol=1e-12)
    np.testing.assert_allclose(squared_distances(se.Linear(), Z, X), E, atol=1e-12)
    g = se.Gaussian(sigma=0.8)
    np.testing.assert_allclose(squared_distances(g, Z, X), 2 - 2 * np.exp(-g.gamma * E),
                               atol=1e-12)
    p = se.Polynomial(degree=3, coef0=1.0)
    P = lambda A, B: polynomial_kernel(A, B, degree=3, gamma=1.0, coef0=1.0)  # noqa: E731
    want = np.diag(P(Z, Z))[:, None] + np.diag(P(X, X))[None, :] - 2 * P(Z, X)
    np.testing.assert_allclose(squared_distances(p, Z, X), want, rtol=1e-10, atol=1e-9)
    np.testing.assert_array_equal(np.diag(squared_distances(p, X, X)), 0.0)   # exactly
    with pytest.raises(ValueError, match="features"):
        squared_distances(p, Z, np.zeros((3, 3)))


@pytest.mark.parametrize("k", [1, 5])
def test_kernel_knn_is_scikit_learn_on_the_precomputed_kernel_distances(k):
    """The kernel's distance matrix given to KNeighborsClassifier(metric="precomputed"):
    the same neighbours and votes, for the polynomial kernel (whose neighbours differ from
    the Euclidean ones) and the Gaussian."""
    d = blobs_k(k=3, n=90, noise=0.9, seed=5)
    rng = np.random.default_rng(0)
    Z = rng.uniform(-3, 3, size=(200, 2))
    for kernel in (se.Polynomial(degree=2, coef0=1.0), se.Gaussian(sigma=1.0)):
        r = knn.kneighbours(d.X, d.y, Z, k, kernel=kernel)
        ref = KNeighborsClassifier(n_neighbors=k, metric="precomputed", algorithm="brute")
        ref.fit(np.sqrt(squared_distances(kernel, d.X, d.X)), d.y)
        Dq = np.sqrt(squared_distances(kernel, Z, d.X))
        np.testing.assert_array_equal(r.neighbours, ref.kneighbors(Dq)[1])
        np.testing.assert_array_equal(r.predicted, ref.predict(Dq))
    # and the polynomial kernel's neighbours are not the Euclidean ones
    poly = knn.kneighbours(d.X, d.y, Z, k, kernel=se.Polynomial(degree=2, coef0=1.0))
    eucl = knn.kneighbours(d.X, d.y, Z, k)
    assert (poly.neighbours != eucl.neighbours).any(axis=1).mean() > 0.05   # 9 % at k = 1
    # scikit-learn's own kernel functions give the same distance matrix
    K = polynomial_kernel(Z, d.X, degree=2, gamma=1.0, coef0=1.0)
    np.testing.assert_allclose(poly.distances[:, 0], np.take_along_axis(
        ((np.einsum("ij,ij->i", Z, Z) + 1) ** 2)[:, None]
        + ((np.einsum("ij,ij->i", d.X, d.X) + 1) ** 2)[None, :] - 2 * K,
        poly.neighbours[:, :1], axis=1)[:, 0], rtol=1e-9, atol=1e-9)


coords = st.floats(-3, 3, allow_nan=False)


@settings(derandomize=True, max_examples=80, deadline=None)
@given(st.lists(st.tuples(coords, coords), min_size=3, max_size=30),
       st.tuples(coords, coords), st.integers(1, 3), st.floats(0.5, 3.0))
def test_gaussian_kernel_keeps_the_euclidean_neighbours(points, query, k, sigma):
    """2 − 2exp(−‖x − z‖²/(2σ²)) increases with ‖x − z‖: the same k nearest (when the k-th
    and the next Euclidean distances are not too close to tell apart after the exp)."""
    X = np.array(points)
    assume(k < len(X))
    E = np.sort(((X - np.array(query)) ** 2).sum(axis=1))
    assume(E[k] - E[k - 1] > 1e-6 and E[k] < 20 * sigma**2)     # distinct, not saturated
    y = np.arange(len(X)) % 2
    g = knn.kneighbours(X, y, [query], k, kernel=se.Gaussian(sigma=sigma))
    e = knn.kneighbours(X, y, [query], k)
    assert set(g.neighbours[0]) == set(e.neighbours[0])
    ref = rbf_kernel(np.array([query]), X, gamma=1 / (2 * sigma**2))[0]
    np.testing.assert_allclose(g.distances[0], 2 - 2 * ref[g.neighbours[0]], atol=1e-12)


def test_bad_arguments_are_named():
    X, y, Z = spread(0, n=10)
    with pytest.raises(ValueError, match="k must be an integer ≥ 1 and ≤ 10"):
        knn.kneighbours(X, y, Z, 11)
    with pytest.raises(ValueError, match="k must be"):
        knn.kneighbours(X, y, Z, 0)
    with pytest.raises(ValueError, match="one label per point"):
        knn.kneighbours(X, y[:-1], Z, 1)
    with pytest.raises(ValueError, match="non-finite value nan"):
        knn.kneighbours(np.array([[np.nan, 0.0]]), [1], Z, 1)


def test_voronoi_edges_are_the_1nn_boundaries():
    """Every edge's midpoint is equally far from its two points and no other point is
    closer; the 1-NN regions on a grid change class only across an edge between points of
    different classes."""
    X, y, _ = spread(2, n=40)
    xr, yr = (-4.0, 4.0), (-4.0, 4.0)
    segs, pairs = knn.voronoi_edges(X, xr, yr)
    assert len(segs) >= len(X) - 1 and (segs >= -4 - 1e-9).all() and (segs <= 4 + 1e-9).all()
    for (a, b), (p, q) in zip(segs, pairs, strict=True):
        mid = (a + b) / 2
        d = np.linalg.norm(X - mid, axis=1)
        assert d[p] == pytest.approx(d[q], rel=1e-7)
        assert d.min() >= d[p] - 1e-7
    # the grid's class changes lie close to an edge between different classes
    xs = ys = np.linspace(-4, 4, 161)
    G = knn.grid_classes(X, y, xs, ys, k=1)
    change = np.argwhere(G[:, 1:] != G[:, :-1])
    boundary = segs[y[pairs[:, 0]] != y[pairs[:, 1]]]
    for j, i in change[::7]:
        pt = np.array([(xs[i] + xs[i + 1]) / 2, ys[j]])
        assert _distance_to_segments(pt, boundary) < 0.06


def _distance_to_segments(p, segs):
    a, b = segs[:, 0], segs[:, 1]
    t = np.clip(((p - a) * (b - a)).sum(1) / np.maximum(((b - a) ** 2).sum(1), 1e-300), 0, 1)
    return float(np.linalg.norm(a + t[:, None] * (b - a) - p, axis=1).min())


def test_voronoi_degenerate_points():
    two = knn.voronoi_edges(np.array([[0.0, 0.0], [2.0, 0.0]]), (-1, 3), (-1, 1))
    np.testing.assert_allclose(two[0], [[[1.0, -1.0], [1.0, 1.0]]], atol=1e-9)
    line = knn.voronoi_edges(np.array([[0.0, 0], [1, 0], [2, 0], [2, 0]]), (-1, 3), (-1, 1))
    assert sorted(map(tuple, line[1])) == [(0, 1), (1, 2)]        # a repeat: its first copy
    assert knn.voronoi_edges(np.array([[0.0, 0.0]]), (-1, 1), (-1, 1))[0].shape == (0, 2, 2)
