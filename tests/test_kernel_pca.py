"""Kernel PCA (svm_engine/kernel_pca.py) against scikit-learn's KernelPCA and PCA: the same
eigenvalues, the same projections of the training points and of new points (up to the sign of
each component), the normalisation λ‖a‖² = 1, and linear PCA as kernel PCA with xᵀz."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from sklearn.decomposition import PCA, KernelPCA

import svm_engine as se
from svm_engine import datasets, gram
from svm_engine import kernel_pca as kp

KERNELS = {
    "gaussian": (se.Gaussian(sigma=0.5), {"kernel": "rbf", "gamma": 1 / (2 * 0.5**2)}),
    "poly": (se.Polynomial(degree=3, coef0=1.0),
             {"kernel": "poly", "degree": 3, "gamma": 1.0, "coef0": 1.0}),
    "linear": (se.Linear(), {"kernel": "linear"}),
}


def same_up_to_sign(A, B, atol):
    """Column by column, A = ±B."""
    assert A.shape == B.shape
    for j in range(A.shape[1]):
        s = np.sign(A[:, j] @ B[:, j]) or 1.0
        np.testing.assert_allclose(A[:, j], s * B[:, j], atol=atol)


@pytest.mark.parametrize("name", KERNELS)
def test_matches_sklearn_kernel_pca(name):
    kernel, sk = KERNELS[name]
    d = datasets.rings(n=80, seed=2)
    Z = np.random.default_rng(0).uniform(-1.2, 1.2, (7, 2))
    r = kp.kernel_pca(gram.gram_matrix(kernel, d.X), n_components=2)
    ref = KernelPCA(n_components=2, eigen_solver="dense", **sk).fit(d.X)
    scale = max(1.0, float(r.eigenvalues[0]))
    # scikit-learn's eigenvalues_ are those of the centred Gram matrix, not divided by n
    np.testing.assert_allclose(r.kept, ref.eigenvalues_, rtol=1e-9, atol=1e-12 * scale)
    same_up_to_sign(r.projections, ref.transform(d.X), atol=1e-8 * np.sqrt(scale))
    same_up_to_sign(r.transform(kernel(Z, d.X)), ref.transform(Z), atol=1e-8 * np.sqrt(scale))


def test_normalisation_and_centring():
    d = datasets.rings(n=50, seed=0)
    K = gram.gram_matrix(se.Gaussian(sigma=0.4), d.X)
    full = kp.kernel_pca(K)
    np.testing.assert_allclose(full.explained.sum(), 1.0)
    # the leading components (the last of λ ~ 1e-10·λ₁ have eigenvectors good to ~1e-6 only)
    r = kp.kernel_pca(K, n_components=10)
    lam = r.kept
    np.testing.assert_allclose(lam * (r.alphas ** 2).sum(axis=0), 1.0, rtol=1e-10)
    np.testing.assert_allclose(r.alphas.sum(axis=0), 0.0, atol=1e-8)     # K̃1 = 0
    np.testing.assert_allclose(r.projections.mean(axis=0), 0.0, atol=1e-10)
    # the training points through transform (test centring) land on their projections
    np.testing.assert_allclose(r.transform(K), r.projections, atol=1e-10)
    assert np.all(np.diff(r.eigenvalues) <= 1e-12)


def test_linear_kernel_pca_is_linear_pca():
    X = np.random.default_rng(1).standard_normal((40, 2)) @ np.array([[2.0, 0.5], [0.0, 0.6]])
    r = kp.kernel_pca(X @ X.T)
    lin = kp.linear_pca(X)
    assert r.n_components == 2
    np.testing.assert_allclose(r.covariance_eigenvalues, lin.eigenvalues, rtol=1e-10)
    same_up_to_sign(r.projections, lin.transform(X), atol=1e-10)
    ref = PCA(n_components=2).fit(X)      # scikit-learn divides by N − 1
    np.testing.assert_allclose(lin.eigenvalues * len(X) / (len(X) - 1),
                               ref.explained_variance_, rtol=1e-10)
    same_up_to_sign(lin.transform(X), ref.transform(X), atol=1e-10)


def test_negative_eigenvalues_make_no_component():
    """K₁ − K₂ with a wide Gaussian minus a narrow one is not PSD: its negative eigenvalues
    are listed, and only the positive ones give components."""
    X = np.random.default_rng(3).uniform(-1, 1, (30, 2))
    K = (gram.gram_matrix(se.Gaussian(sigma=0.2), X)
         - gram.gram_matrix(se.Gaussian(sigma=1.0), X))
    r = kp.kernel_pca(K)
    assert r.eigenvalues.min() < -r.tolerance
    assert r.n_components == int(np.sum(r.eigenvalues > r.tolerance))
    assert np.all(np.isfinite(r.projections))


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="square"):
        kp.kernel_pca(np.ones((2, 3)))
    with pytest.raises(ValueError, match="not symmetric"):
        kp.kernel_pca(np.array([[1.0, 0.5], [0.0, 1.0]]))
    with pytest.raises(ValueError, match="n_components"):
        kp.kernel_pca(np.eye(3), n_components=0)
    r = kp.kernel_pca(np.eye(3))
    with pytest.raises(ValueError, match=r"shape \(m, 3\)"):
        r.transform(np.ones((2, 4)))


points = hnp.arrays(np.float64, st.tuples(st.integers(3, 30), st.just(2)),
                    elements=st.floats(-3, 3, allow_nan=False))


@settings(derandomize=True, max_examples=50, deadline=None)
@given(points, st.sampled_from([0.3, 1.0, 2.0]))
def test_projections_keep_the_centred_gram_matrix(X, sigma):
    """Σᵢ yᵢ(x)yᵢ(z) over every component is k̃(x, z): the projections are the centred feature
    vectors in an orthonormal basis (to rounding, for a PSD kernel)."""
    K = gram.gram_matrix(se.Gaussian(sigma=sigma), X)
    r = kp.kernel_pca(K)
    Y = r.projections
    np.testing.assert_allclose(Y @ Y.T, kp.centre_gram(K), atol=1e-7)
