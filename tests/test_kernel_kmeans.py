"""Kernel k-means (svm_engine/kernel_kmeans.py) against scikit-learn's KMeans: on the explicit
feature map of the homogeneous quadratic kernel, and with the linear kernel as plain k-means;
the rings that plain k-means cuts and the Gaussian kernel separates; its properties."""

import math
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from sklearn.cluster import KMeans
from sklearn.metrics import adjusted_rand_score

import svm_engine as se
from svm_engine import datasets, gram
from svm_engine import feature_maps as fm
from svm_engine import kernel_kmeans as kk


def blobs3(seed: int, n: int = 60) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centres = np.array([[0.0, 2.0], [2.0, -1.0], [-2.0, -1.0]])
    return centres[np.arange(n) % 3] + 0.6 * rng.standard_normal((n, 2))


def sk_kmeans(F, idx) -> KMeans:
    """scikit-learn's Lloyd from the centres F[idx], run until the labels stop changing."""
    return KMeans(n_clusters=len(idx), init=F[idx], n_init=1, tol=0.0, max_iter=300,
                  algorithm="lloyd").fit(F)


@pytest.mark.parametrize("seed", range(6))
def test_quadratic_kernel_is_kmeans_on_its_feature_map(seed):
    """K = (xᵀz)², φ(x) = (x₁², √2x₁x₂, x₂²): the same assignments at every start, the same W."""
    X = blobs3(seed)
    idx = np.random.default_rng(100 + seed).choice(len(X), 3, replace=False)
    K = gram.gram_matrix(se.Polynomial(degree=2, coef0=0.0), X)
    r = kk.kernel_kmeans(K, 3, init=idx)
    ref = sk_kmeans(fm.quadratic_map(X), idx)
    assert r.converged
    np.testing.assert_array_equal(r.labels, ref.labels_)
    assert r.inertia == pytest.approx(ref.inertia_, rel=1e-9)
    assert r.n_iter + 1 == ref.n_iter_      # scikit-learn counts the start's assignment too


@pytest.mark.parametrize("seed", range(6))
def test_linear_kernel_is_plain_kmeans(seed):
    X = blobs3(seed, 90)
    idx = np.random.default_rng(200 + seed).choice(len(X), 3, replace=False)
    r = kk.kernel_kmeans(X @ X.T, 3, init=idx)
    ref = sk_kmeans(X, idx)
    np.testing.assert_array_equal(r.labels, ref.labels_)
    assert r.inertia == pytest.approx(ref.inertia_, rel=1e-9)
    # the implicit centroid distances are the explicit ones
    mu = ref.cluster_centers_
    np.testing.assert_allclose(r.D, ((X[:, None, :] - mu[None]) ** 2).sum(-1), atol=1e-9)


def test_rings_plain_kmeans_fails_gaussian_succeeds():
    """Rings (radii 0.3 and 1, n = 100): plain k-means cuts them (ARI ≈ 0); the Gaussian kernel
    with σ = 0.3, best of 10 seeded k-means++ starts, finds them (ARI = 1)."""
    d = datasets.rings(n=100, noise=0.05, seed=0)
    plain = kk.kernel_kmeans(d.X @ d.X.T, 2, seed=0, n_init=10)
    gauss = kk.kernel_kmeans(gram.gram_matrix(se.Gaussian(sigma=0.3), d.X), 2, seed=0,
                             n_init=10)
    assert abs(adjusted_rand_score(d.y, plain.labels)) < 0.05
    assert adjusted_rand_score(d.y, gauss.labels) == 1.0
    assert gauss.converged and len(gauss.starts) == 10 and gauss.inertia == min(gauss.starts)


def test_predict_new_points_by_their_feature_space_distance():
    X = blobs3(3)
    k = se.Polynomial(degree=2, coef0=0.0)
    r = kk.kernel_kmeans(gram.gram_matrix(k, X), 3, seed=1)
    Z = np.array([[0.1, 2.2], [1.5, -0.5], [-3.0, 0.2]])
    F, FZ = fm.quadratic_map(X), fm.quadratic_map(Z)
    mu = np.array([F[r.labels == c].mean(axis=0) for c in range(3)])
    D = ((FZ[:, None, :] - mu[None]) ** 2).sum(-1)
    np.testing.assert_allclose(r.distances_to(k(Z, X), np.diag(k(Z, Z))), D, atol=1e-9)
    np.testing.assert_array_equal(r.predict(k(Z, X), np.diag(k(Z, Z))), D.argmin(axis=1))


def test_trace_records_each_assignment_and_its_distances():
    d = datasets.rings(n=60, seed=1)
    K = gram.gram_matrix(se.Gaussian(sigma=0.3), d.X)
    r = kk.kernel_kmeans(K, 2, seed=0)
    assert [t["step"] for t in r.trace] == list(range(r.n_iter + 1))
    assert r.trace[0]["changed"] == len(K) and r.trace[-1]["changed"] == 0
    for prev, t in zip(r.trace, r.trace[1:], strict=False):
        D = np.array(t["D"])     # from the previous clusters' implicit centroids
        np.testing.assert_allclose(D, kk.centroid_distances(K, np.array(prev["labels"]), 2))
        np.testing.assert_array_equal(t["labels"], D.argmin(axis=1))
        assert t["changed"] == sum(a != b for a, b in zip(prev["labels"], t["labels"],
                                                          strict=True))
    np.testing.assert_array_equal(r.trace[-1]["labels"], r.labels)


def test_empty_cluster_takes_the_farthest_point():
    """Two duplicated points and a centre among them: the start leaves a cluster empty; the
    rule moves the point farthest from its own centre into it."""
    X = np.array([[0.0, 0.0], [0.0, 0.0], [5.0, 0.0], [6.0, 0.0], [9.0, 0.0]])
    K = X @ X.T
    r = kk.kernel_kmeans(K, 3, init=np.array([0, 1, 2]))
    first = r.trace[0]
    assert first["moved"] == [(4, 1)]          # x₅ (farthest from centre x₃) fills cluster 1
    assert min(first["sizes"]) >= 1 and all(s >= 1 for s in r.sizes)


def test_cap_and_budget_are_said():
    d = datasets.rings(n=100, seed=0)
    K = gram.gram_matrix(se.Gaussian(sigma=0.3), d.X)
    r = kk.kernel_kmeans(K, 2, seed=0, max_iter=1)
    assert not r.converged and r.n_iter == 1 and "max_iter = 1" in r.status


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"k": 5}, "k = 5 clusters need at least 5 points; there are 4"),
    ({"k": 0}, "k (the number of clusters) must be an integer ≥ 1"),
    ({"k": 2, "init": "best"}, "init must be one of k-means++, random"),
    ({"k": 2, "init": np.array([1, 1])}, "2 distinct point indices"),
    ({"k": 2, "max_iter": 0}, "max_iter must be an integer ≥ 1"),
    ({"k": 2, "n_init": 0}, "n_init must be an integer ≥ 1"),
])
def test_bad_input_is_named(kwargs, words):
    X = np.arange(8.0).reshape(4, 2)
    with pytest.raises(ValueError, match=re.escape(words)):
        kk.kernel_kmeans(X @ X.T, **kwargs)
    with pytest.raises(ValueError, match="square"):
        kk.kernel_kmeans(np.ones((2, 3)), 1)
    with pytest.raises(ValueError, match="finite"):
        kk.kernel_kmeans(np.array([[1.0, math.nan], [math.nan, 1.0]]), 1)


coords = st.floats(-5, 5, allow_nan=False)
points = hnp.arrays(np.float64, st.tuples(st.integers(3, 25), st.just(2)), elements=coords)


@settings(derandomize=True, max_examples=60, deadline=None)
@given(points, st.integers(1, 3), st.sampled_from([0.3, 1.0, 3.0]), st.integers(0, 50))
def test_W_never_rises_and_the_labels_are_a_fixed_point(X, k, sigma, seed):
    """A PSD kernel: W of the successive assignments never rises (to rounding); at
    convergence every point is at its nearest implicit centroid; every cluster has a point."""
    k = min(k, len(X))
    K = gram.gram_matrix(se.Gaussian(sigma=sigma), X)
    r = kk.kernel_kmeans(K, k, seed=seed, max_iter=300)
    Ws = [t["inertia"] for t in r.trace]
    assert all(b <= a + 1e-9 * max(1.0, a) for a, b in zip(Ws, Ws[1:], strict=False))
    assert set(r.labels.tolist()) == set(range(k))
    if r.converged and not r.trace[-1]["moved"]:
        own = r.D[np.arange(len(X)), r.labels]
        assert np.all(own <= r.D.min(axis=1) + 1e-9)
