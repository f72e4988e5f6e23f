"""The quadratic kernel's feature map, the fitted plane in feature space, the Gram matrix and
Mercer's check (svm_engine/feature_maps.py, svm_engine/gram.py; seeds 002 and 004)."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import svm_engine as se
from svm_engine import datasets, gram
from svm_engine import feature_maps as fm

R2 = math.sqrt(2.0)
coords = st.floats(-10, 10, allow_nan=False)
point = st.tuples(coords, coords)
cs = st.sampled_from([0.0, 0.5, 1.0, 3.0]) | st.floats(0, 5)
points = hnp.arrays(np.float64, st.tuples(st.integers(1, 12), st.just(2)), elements=coords)


# --------------------------------------------------------------------------- the map


def test_map_by_hand():
    """φ₀(1, 2) = (1, 2√2, 4); φ₁ adds (√2·1, √2·2, 1) (seed 004's expansion with c = 1)."""
    np.testing.assert_array_equal(fm.quadratic_map([1.0, 2.0]), [[1.0, 2 * R2, 4.0]])
    np.testing.assert_allclose(fm.quadratic_map([[1.0, 2.0]], c=1.0),
                               [[1.0, 2 * R2, 4.0, R2, 2 * R2, 1.0]], rtol=1e-15)
    assert fm.feature_names(0) == ("x1²", "√2·x1x2", "x2²")
    assert len(fm.feature_names(2.0)) == 6


@settings(derandomize=True, max_examples=300, deadline=None)
@given(point, point, cs)
def test_identity_to_1e12(x, z, c):
    """K(x, z) = (xᵀz + c)² = φ(x)ᵀφ(z) to 1e-12 relative to the terms' size."""
    chk = fm.identity(np.array(x), np.array(z), c)
    scale = max(1.0, float(np.linalg.norm(chk.phi_x) * np.linalg.norm(chk.phi_z)))
    assert chk.difference <= 1e-12 * scale
    assert chk.holds
    assert chk.by_kernel == pytest.approx((np.dot(x, z) + c) ** 2, rel=1e-12, abs=1e-12 * scale)


@settings(derandomize=True, max_examples=100, deadline=None)
@given(points, cs)
def test_gram_of_the_map_is_the_kernel_matrix(X, c):
    Phi = fm.quadratic_map(X, c)
    K = se.Polynomial(degree=2, coef0=c)(X, X)
    scale = max(1.0, float(np.max(np.sum(Phi * Phi, axis=1))))
    np.testing.assert_allclose(Phi @ Phi.T, K, rtol=0, atol=1e-12 * scale)


def test_map_rejects_bad_input_by_name():
    with pytest.raises(ValueError, match=r"c = -1.0 < 0"):
        fm.quadratic_map([[1.0, 2.0]], c=-1.0)
    with pytest.raises(ValueError, match=r"c must be a finite number ≥ 0, got nan"):
        fm.quadratic_map([[1.0, 2.0]], c=math.nan)
    with pytest.raises(ValueError, match=r"shape \(n, 2\); got shape \(2, 3\)"):
        fm.quadratic_map(np.ones((2, 3)))
    with pytest.raises(ValueError, match="single points; got 2 and 1"):
        fm.identity(np.ones((2, 2)), [1.0, 1.0])


# --------------------------------------------------------------------------- the plane


def test_plane_of_two_points_by_hand():
    """(1, 0) ↦ (1, 0, 0) labelled +1 and (0, 1) ↦ (0, 0, 1) labelled −1: the hard-margin plane
    bisects them, w_φ = (1, 0, −1), b = 0, and its preimage is x1² − x2² = 0."""
    m = se.fit([[1.0, 0.0], [0.0, 1.0]], [1, -1], kernel=se.Polynomial(2, 0.0), C=math.inf,
               solver="qp")
    plane = fm.feature_plane(m)
    np.testing.assert_allclose(plane.w, [1.0, 0.0, -1.0], atol=1e-9)
    assert plane.b == pytest.approx(0.0, abs=1e-9)
    # its preimage x1² − x2² = 0: the engine gives the conic's coefficients (A, …, F); the
    # Kernels page writes the equation (tests/test_ui_numbers.py)
    np.testing.assert_allclose(plane.conic(), [1.0, 0.0, -1.0, 0.0, 0.0, 0.0], atol=1e-9)


@pytest.mark.parametrize("c", [0.0, 1.0, 2.5])
def test_plane_reproduces_the_model(c):
    d = datasets.circles(n=60, noise=0.1, seed=3)
    m = se.fit(d.X, d.y, kernel=se.Polynomial(2, c), C=10.0)
    plane = fm.feature_plane(m)
    Z = np.random.default_rng(0).uniform(-2, 2, size=(50, 2))
    h = m.decision_function(Z)
    np.testing.assert_allclose(plane.decision(Z), h, rtol=1e-9, atol=1e-9)
    A, B, C, D, E, F = plane.conic()
    conic = A * Z[:, 0] ** 2 + B * Z[:, 0] * Z[:, 1] + C * Z[:, 1] ** 2 + D * Z[:, 0] \
        + E * Z[:, 1] + F
    np.testing.assert_allclose(conic, h, rtol=1e-9, atol=1e-9)
    view = fm.view_3d(m)
    assert view.exact == (c == 0)
    assert view.points.shape == (60, 3)
    np.testing.assert_allclose(view.points @ view.normal + view.b, m.decision_function(d.X),
                               rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(view.basis.T @ view.basis, np.eye(3), atol=1e-12)
    np.testing.assert_allclose(view.lift(d.X), view.points, atol=1e-12)


def test_augmented_bias_plane():
    d = datasets.circles(n=40, noise=0.1, seed=1)
    m = se.fit(d.X, d.y, kernel=se.Polynomial(2, 1.0), C=1.0, bias="augmented",
               solver="sga")
    plane = fm.feature_plane(m)
    np.testing.assert_allclose(plane.decision(d.X), m.decision_function(d.X), rtol=1e-9,
                               atol=1e-9)


def test_plane_needs_the_quadratic_kernel():
    d = datasets.circles(n=20, noise=0.1, seed=0)
    with pytest.raises(ValueError, match="this model has 'Gaussian"):
        fm.feature_plane(se.fit(d.X, d.y, kernel=se.Gaussian(1.0)))
    with pytest.raises(ValueError, match=r"c = -1.0 < 0"):
        fm.feature_plane(se.fit(d.X, d.y, kernel=se.Polynomial(2, -1.0)))


# --------------------------------------------------------------------------- Gram and Mercer


def test_eigenvalues_by_hand_and_against_numpy():
    assert gram.eigenvalues([[2.0, 1.0], [1.0, 2.0]]).tolist() == pytest.approx([1.0, 3.0])
    rng = np.random.default_rng(4)
    X = rng.normal(size=(30, 2))
    for k in (se.Gaussian(0.7), se.Polynomial(3, 1.0), gram.Sigmoid(1.0, -1.0)):
        K = gram.gram_matrix(k, X)
        lam = gram.eigenvalues(K)
        # an independent route: the general (non-symmetric) eigensolver
        ref = np.sort(np.linalg.eig(K)[0].real)
        np.testing.assert_allclose(lam, ref, atol=1e-9 * np.abs(ref).max())
        assert lam.sum() == pytest.approx(np.trace(K), rel=1e-12)


@settings(derandomize=True, max_examples=60, deadline=None)
@given(points, st.sampled_from(["linear", "poly0", "poly1", "poly3", "gauss_small", "gauss"]))
def test_kernels_pass_the_mercer_check(X, which):
    k = {"linear": se.Linear(), "poly0": se.Polynomial(2, 0.0), "poly1": se.Polynomial(2, 1.0),
         "poly3": se.Polynomial(3, 1.0), "gauss_small": se.Gaussian(0.05),
         "gauss": se.Gaussian(2.0)}[which]
    chk = gram.mercer_check(gram.gram_matrix(k, X))
    assert chk.psd and chk.symmetric, chk


def test_rank_of_the_homogeneous_gram_matrix():
    """K = ΦΦᵀ with Φ of 3 columns: n − 3 eigenvalues are 0, to within the tolerance."""
    X = np.random.default_rng(2).normal(size=(25, 2))
    chk = gram.mercer_check(gram.gram_matrix(se.Polynomial(2, 0.0), X))
    zero = np.abs(chk.eigenvalues) <= chk.tolerance
    assert zero.sum() == 22 and chk.psd


def test_the_tolerance_is_needed():
    """Nearly coincident points: a Gaussian Gram matrix is PSD, yet eigvalsh returns a
    negative eigenvalue of rounding size; the check counts it as 0."""
    X = np.array([[0.0, 0.0]]) + 1e-9 * np.random.default_rng(0).normal(size=(40, 2))
    chk = gram.mercer_check(gram.gram_matrix(se.Gaussian(1.0), X))
    assert chk.min_eigenvalue < 0
    assert chk.min_eigenvalue >= -chk.tolerance and chk.psd


def test_non_kernels_show_a_negative_eigenvalue():
    # (xᵀz − 1)² at x = 0 and z = (0.5, 0): det [[1, 1], [1, 0.5625]] < 0
    K = gram.gram_matrix(se.Polynomial(2, -1.0), np.array([[0.0, 0.0], [0.5, 0.0]]))
    chk = gram.mercer_check(K)
    assert not chk.psd and chk.n_negative == 1
    assert chk.min_eigenvalue == pytest.approx((1.5625 - math.sqrt(0.4375 ** 2 + 4)) / 2)
    v = gram.negative_direction(K)
    assert v @ K @ v == pytest.approx(chk.min_eigenvalue)
    d = datasets.moons(n=40, noise=0.2, seed=0)
    chk = gram.mercer_check(gram.gram_matrix(gram.Sigmoid(1.0, -1.0), d.X))
    assert not chk.psd and chk.min_eigenvalue < -1.0
    assert gram.negative_direction(gram.gram_matrix(se.Gaussian(1.0), d.X)) is None or \
        gram.mercer_check(gram.gram_matrix(se.Gaussian(1.0), d.X)).psd


def test_asymmetric_matrix_is_not_a_kernel_matrix():
    chk = gram.mercer_check([[1.0, 0.5], [0.0, 1.0]])
    assert not chk.symmetric and not chk.psd and chk.asymmetry == 0.5


def test_conditional_eigenvalues():
    """A constant added to K does not change K on Σβ = 0: xᵀz − 1 is not PSD but is
    conditionally PSD; (xᵀz − 1)² is neither."""
    X = np.random.default_rng(1).normal(size=(20, 2))
    K = X @ X.T
    np.testing.assert_allclose(gram.conditional_eigenvalues(K - 1.0),
                               gram.conditional_eigenvalues(K), atol=1e-12)
    assert not gram.mercer_check(K - 1.0).psd
    assert gram.conditional_eigenvalues(K - 1.0)[0] > -1e-12
    assert gram.conditional_eigenvalues(gram.gram_matrix(se.Polynomial(2, -1.0), X))[0] < -0.1


def test_gram_rejects_bad_input():
    with pytest.raises(ValueError, match=r"square, non-empty matrix, got shape \(2, 3\)"):
        gram.mercer_check(np.ones((2, 3)))
    with pytest.raises(ValueError, match="not a finite number"):
        gram.eigenvalues([[1.0, math.nan], [math.nan, 1.0]])
    with pytest.raises(ValueError, match="kappa must be a finite number, got inf"):
        gram.Sigmoid(kappa=math.inf)
    with pytest.raises(ValueError, match=r"got shape \(0, 2\)"):
        gram.gram_matrix(se.Linear(), np.empty((0, 2)))


@pytest.mark.parametrize("c", [0.0, 1.0])
def test_preimage_points_lie_on_the_boundary(c):
    d = datasets.nonlinear()
    m = se.fit(d.X, d.y, kernel=se.Polynomial(2, c), C=4.0)
    plane = fm.feature_plane(m)
    pts = fm.conic_points(plane.conic(), (0.0, 8.0), (0.0, 6.0), m=150)
    assert len(pts) > 50
    assert np.all((pts[:, 0] >= 0) & (pts[:, 0] <= 8) & (pts[:, 1] >= 0) & (pts[:, 1] <= 6))
    scale = float(np.max(np.abs(m.decision_function(d.X))))
    np.testing.assert_allclose(m.decision_function(pts), 0.0, atol=1e-9 * scale)
    view = fm.view_3d(m)   # lifted, the boundary lies in the plane
    np.testing.assert_allclose(view.lift(pts) @ view.normal + view.b, 0.0, atol=1e-8 * scale)


def test_conic_points_by_hand():
    """x1² + x2² − 1 = 0 (the unit circle) and a line (A = B = C = 0)."""
    pts = fm.conic_points([1, 0, 1, 0, 0, -1], (-2, 2), (-2, 2), m=41)
    np.testing.assert_allclose(np.hypot(pts[:, 0], pts[:, 1]), 1.0, rtol=1e-12)
    line = fm.conic_points([0, 0, 0, 1, -1, 0], (-1, 1), (-1, 1), m=5)
    np.testing.assert_allclose(line[:, 0], line[:, 1])
    assert fm.conic_points([1, 0, 1, 0, 0, 1], (-2, 2), (-2, 2)).shape == (0, 2)
