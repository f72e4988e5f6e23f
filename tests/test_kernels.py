"""Kernels (slide 27–29): the formulas, their feature maps, and the compiled code that computes
every kernel value (svm_engine/kernel_values.py): the solvers' matrices and columns, and the
kernels' K(X, Z) for predicting and drawing, the same numbers to the last bit."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from scipy.spatial.distance import cdist

import svm_engine as se
from svm_engine import datasets as ds
from svm_engine import kernel_values as kv
from svm_engine.problem import KernelSpec, build_problem, kernel_matrix

points = hnp.arrays(np.float64, st.tuples(st.integers(1, 12), st.just(2)),
                    elements=st.floats(-10, 10))


def test_linear_and_polynomial_formulas():
    X = np.array([[1.0, 2.0], [-3.0, 0.5]])
    Z = np.array([[0.5, -1.0]])
    np.testing.assert_allclose(se.Linear()(X, Z), [[-1.5], [-2.0]])
    np.testing.assert_allclose(se.Polynomial(degree=2, coef0=1.0)(X, Z), [[0.25], [1.0]])
    np.testing.assert_allclose(se.Polynomial(degree=3, coef0=0.0)(X, Z), [[-3.375], [-8.0]])


def test_quadratic_kernel_is_the_slide29_feature_map():
    """(1 + xᵀz)² = φ(x)ᵀφ(z), φ(x) = (1, √2x₁, √2x₂, x₁², x₂², √2x₁x₂) (slide 29)."""
    def phi(x):
        r2 = math.sqrt(2)
        return np.array([1, r2 * x[0], r2 * x[1], x[0] ** 2, x[1] ** 2, r2 * x[0] * x[1]])

    rng = np.random.default_rng(0)
    X = rng.normal(size=(7, 2))
    F = np.array([phi(x) for x in X])
    np.testing.assert_allclose(se.Polynomial(degree=2, coef0=1.0)(X, X), F @ F.T, rtol=1e-12)


def test_gaussian_formula_and_gamma():
    k = se.Gaussian(sigma=2.0)
    assert k.gamma == 1 / 8
    x, z = np.array([[1.0, 1.0]]), np.array([[4.0, 5.0]])
    assert k(x, z)[0, 0] == pytest.approx(math.exp(-25 / 8))
    assert se.Gaussian(sigma=1 / math.sqrt(2)).gamma == pytest.approx(1.0, rel=1e-15)


def test_kernels_are_hashable_picklable_values():
    import pickle

    for k in (se.Linear(), se.Polynomial(3, 0.5), se.Gaussian(0.3)):
        assert pickle.loads(pickle.dumps(k)) == k and hash(k) == hash(pickle.loads(pickle.dumps(k)))
        assert k.name in se.KERNELS and k.label
    assert se.make_kernel("rbf", sigma=0.3) == se.Gaussian(0.3)
    assert se.make_kernel("poly", degree=3, coef0=0.5) == se.Polynomial(3, 0.5)
    with pytest.raises(ValueError, match="unknown kernel 'cosine'"):
        se.make_kernel("cosine")


KERNELS = [se.Linear(), se.Polynomial(2, 0.0), se.Polynomial(3, 1.0), se.Gaussian(0.4),
           se.Gaussian(3.0)]


def numpy_formula(k, X, Z):
    """The book's formulas in numpy (not the engine's code): the values to a few ulp."""
    if k.name == "gaussian":
        return np.exp(-k.gamma * cdist(X, Z, "sqeuclidean"))
    if k.name == "polynomial":
        return (k.coef0 + X @ Z.T) ** k.degree
    return X @ Z.T


@settings(max_examples=60, deadline=None)
@given(X=points, k=st.sampled_from(KERNELS))
def test_compiled_kernel_matrix_matches_numpy(X, k):
    """The solvers' matrix (compiled, own exp for the Gaussian) equals the numpy formula to a
    few ulp, is exactly symmetric, and its diagonal is the formula's (1 for the Gaussian)."""
    K = kernel_matrix(k, X)
    ref = numpy_formula(k, X, X)
    np.testing.assert_array_equal(K, K.T)
    scale = np.maximum(1.0, np.abs(ref))
    assert (np.abs(K - ref) <= 1e-12 * scale).all()
    np.testing.assert_allclose(np.diag(K), np.diag(ref), rtol=1e-12)
    if k.name == "gaussian":
        np.testing.assert_array_equal(np.diag(K), np.ones(len(X)))


@settings(max_examples=40, deadline=None)
@given(X=points, Z=points, k=st.sampled_from(KERNELS),
       offset=st.sampled_from([0.0, 1e3, 1e7, 1.7e9]))
def test_training_gram_and_prediction_are_the_same_numbers(X, Z, k, offset):
    """One kernel evaluation (issue 18): the training column (`kernel_column`, the compiled
    SMO's), one pair (`kernel_value`, the cache's), the Gram matrix of a materialised problem
    and the prediction path (the kernel's K(X, Z) and its expansion Σₛ cₛK(z, xₛ), which
    `decision_function`, the drawing, SVR and the exported model use) hold the same numbers
    to the last bit, near the origin and far from it."""
    X, Z = X + offset, Z + offset
    kp = KernelSpec.of(k, 1.0, "hinge", "free").numbers()
    XT = np.ascontiguousarray(X.T)
    columns = np.empty((len(X), len(Z)))
    col = np.empty(len(X))
    for c in range(len(Z)):
        kv.kernel_column(kp, XT, len(X), np.ascontiguousarray(Z[c]), col)
        columns[:, c] = col
    np.testing.assert_array_equal(k(X, Z), columns)
    np.testing.assert_array_equal(k(Z, X), columns.T)
    pairs = [[kv.kernel_value(kp, X, t, Z, c) for c in range(len(Z))] for t in range(len(X))]
    np.testing.assert_array_equal(np.array(pairs), columns)
    y = np.where(np.arange(len(X)) % 2, 1.0, -1.0)
    np.testing.assert_array_equal(build_problem(X, y, k, 1.0, "hinge", "free").K, k(X, X))
    coef = np.linspace(-1.0, 2.0, len(Z))
    h = np.zeros(len(X))
    for c in range(len(Z)):                 # Σ in the order of the sources, as the solvers
        h += coef[c] * columns[:, c]
    np.testing.assert_array_equal(k.expansion(X, Z, coef), h)


@pytest.mark.parametrize("k", KERNELS[1:])
def test_a_fitted_models_predictions_use_the_training_kernel_values(k):
    """`decision_function` (predicting, drawing) of a fitted model is Σ αᵢyᵢK(xᵢ, z) + b with
    the solver's kernel values, K(xᵢ, z) from `kernel_column`, summed in the support vectors'
    order: the same bits, not merely close. (A linear model predicts by z·w + b.)"""
    d = ds.moons(n=40, noise=0.3, seed=4)
    m = se.fit(d.X, d.y, kernel=k, C=1.0, tol=1e-5)
    sv = m.support
    Z = np.random.default_rng(5).normal(size=(30, 2))
    kp = KernelSpec.of(k, 1.0, "hinge", "free").numbers()
    ZT, col = np.ascontiguousarray(Z.T), np.empty(len(Z))
    h = np.zeros(len(Z))
    for i in sv:
        kv.kernel_column(kp, ZT, len(Z), m.X[i], col)
        h += (m.alpha[i] * m.y[i]) * col
    np.testing.assert_array_equal(m.decision_function(Z), h + m.b)


def test_the_numpy_copy_is_the_compiled_code_bit_for_bit():
    """Without numba (or with NUMBA_DISABLE_JIT=1) K(X, Z) and the expansion run as numpy
    (`kernel_block_array`, `exp_nonpositive_array`): the same operations, so the same bits as
    `kernel_block` (compiled, or the Python loop the solvers then run). Over the exp's
    whole range: exp(−t) for t from 0 to past EXP_MIN (where it gives 0)."""
    t = np.concatenate([np.linspace(0.0, 50.0, 4001), np.geomspace(1e-12, 707.9, 3000),
                        [707.99999999, 708.0, 708.00000001, 709.0, 745.2, 800.0, 1e300]])
    X = np.vstack([np.sqrt(t)[:, None], [[0.0]]])
    XT = np.ascontiguousarray(X.T)
    for k in [*KERNELS, se.Gaussian(sigma=1 / math.sqrt(2))]:
        kp = k.as_numbers
        got = kv.kernel_block_array(kp, XT, X[-1:])
        np.testing.assert_array_equal(got, kv.kernel_block(kp, XT, X[-1:]))
        if k.name == "gaussian":
            assert got[0, -1] == 1.0 and got[0, -2] == 0.0      # exp(0) = 1, exp(−1e300) = 0
        out, want = np.zeros(len(X)), np.zeros(len(X))
        kv.kernel_sources_dot_array(kp, XT, X[[-1, 0, 5]], np.array([0.5, -2.0, 3.0]), out)
        with np.errstate(over="ignore"):    # the polynomial at ‖x‖ = 1e150: inf, as compiled
            kv.kernel_sources_dot(kp, XT, X[[-1, 0, 5]], np.array([0.5, -2.0, 3.0]), want)
        np.testing.assert_array_equal(out, want)
    rng = np.random.default_rng(1)
    A, B = rng.normal(size=(20, 3)) * 4, rng.normal(size=(9, 3))
    for k in KERNELS:
        np.testing.assert_array_equal(kv.kernel_block_array(k.as_numbers, A.T.copy(), B),
                                      kv.kernel_block(k.as_numbers, A.T.copy(), B))


@settings(max_examples=40, deadline=None)
@given(X=points, k=st.sampled_from(KERNELS), C=st.floats(0.01, 100.0),
       loss=st.sampled_from(se.LOSSES), bias=st.sampled_from(se.BIASES))
def test_lazy_kernel_columns_equal_the_materialised_matrix(X, k, C, loss, bias):
    """The columns the fast SMO computes on demand are the materialised K_eff, bit for bit."""
    y = np.where(np.arange(len(X)) % 2, 1.0, -1.0)
    p = build_problem(X, y, k, C, loss, bias)
    kp = KernelSpec.of(k, C, loss, bias).numbers()
    np.testing.assert_array_equal(kv.kernel_diag(kp, X), np.diag(p.K_eff))
    out = np.zeros(len(X))
    coef = np.ones(1)
    for j in range(len(X)):
        out[:] = 0.0
        kv.kernel_sources_dot(kp, np.ascontiguousarray(X.T), X[[j]], coef, out)
        out[j] += kp.diag
        np.testing.assert_array_equal(out, p.K_eff[:, j])


def test_compiled_exp_is_within_an_ulp_of_libm():
    """smo_fast's own exp (written so the column loop vectorises) claims 1 ulp of libm:
    the column K(·, 0) = exp(−γ‖x‖²) over arguments from 0 down to −700."""
    t = np.concatenate([np.linspace(0.0, 50.0, 20001), np.geomspace(1e-12, 700.0, 5000)])
    X = np.vstack([np.sqrt(t)[:, None], [[0.0]]])       # the last point is the origin
    k = se.Gaussian(sigma=1 / math.sqrt(2))
    kp = KernelSpec.of(k, 1.0, "hinge", "free").numbers()
    got = np.zeros(len(X))
    kv.kernel_sources_dot(kp, np.ascontiguousarray(X.T), X[-1:], np.ones(1), got)
    ref = np.exp(-k.gamma * (X[:, 0] * X[:, 0]))
    ulps = np.abs(got - ref) / np.spacing(ref)
    assert ulps.max() <= 1.0, float(ulps.max())


@pytest.mark.parametrize("k", [se.Linear(), se.Gaussian(sigma=0.8), se.Polynomial(degree=2)])
@pytest.mark.parametrize("loss", ["hinge", "quadratic"])
def test_finalize_from_the_gradient_removes_rounding_residues_exactly(k, loss):
    """`finalize` with the solver's G at an α that holds rounding residues (αᵢ = 1e-17, set to
    0 there) reports what the materialised Q gives for the cleaned α: the residues' columns
    are taken out of Qα = G + 1 (kernel_axpy), K_eff's δ term included."""
    from svm_engine.finalize import finalize

    rng = np.random.default_rng(3)
    X = rng.normal(size=(30, 2))
    y = np.where(rng.random(30) > 0.5, 1.0, -1.0)
    mat = build_problem(X, y, k, 2.0, loss, "free")
    lazy = build_problem(X, y, k, 2.0, loss, "free", materialize=False)
    alpha = np.where(rng.random(30) > 0.5, rng.uniform(0.1, 1.5, 30), 0.0)
    alpha[0] = 1e6                          # support_threshold = 1e-12 · max α = 1e-6, so
    alpha[[2, 7]] = 5e-7                    # these are "residues": large enough to be seen
    G = mat.Q @ alpha - 1.0                                 # the raw α's gradient
    got, want = finalize(lazy, alpha, G=G), finalize(mat, alpha)
    assert got["alpha"][2] == got["alpha"][7] == 0.0 == want["alpha"][2]
    for key in ("b", "dual_objective", "primal_objective"):
        assert got[key] == pytest.approx(want[key], rel=1e-12)
    # the residues moved G by ~5e-7 · K: far above the rounding (1e-16 of the largest value)
    for key in ("gradient", "h_train"):
        atol = 1e-15 * np.abs(want[key]).max()
        np.testing.assert_allclose(got[key], want[key], rtol=0, atol=atol)


@pytest.mark.parametrize("offset", [1e3, 1e7, 1.7e9])
def test_gaussian_kernel_is_exact_far_from_the_origin(offset):
    """K(x, z) depends on x − z only: the same points shifted far away give the same values
    (‖x‖² + ‖z‖² − 2xᵀz lost every digit there: the drawing put points on the wrong side)."""
    rng = np.random.default_rng(0)
    X, Z = rng.normal(size=(7, 2)), rng.normal(size=(5, 2))
    k = se.Gaussian(sigma=0.7)
    np.testing.assert_allclose(k(X + offset, Z + offset), k(X, Z), rtol=0, atol=1e-12 * offset)


@pytest.mark.parametrize("kernel", [se.Linear(), se.Polynomial(degree=3, coef0=0.5)],
                         ids=["linear", "polynomial"])
def test_the_rounding_bounds_column_is_the_kernel_of_absolute_values(kernel):
    """`abs_kernel_column` (the certificate's rounding bound, `certify.column_and_bound`)
    takes |x| as it reads X: bit for bit `kernel_column` on |X| and |z|, and at least |k|."""
    rng = np.random.default_rng(5)
    X, z = rng.normal(scale=4.0, size=(40, 3)), rng.normal(scale=4.0, size=3)
    kp = KernelSpec.of(kernel, 1.0, "hinge", "free").numbers()
    got, want, plain = np.empty(40), np.empty(40), np.empty(40)
    kv.abs_kernel_column(kp, np.ascontiguousarray(X.T), 40, z, got)
    kv.kernel_column(kp, np.ascontiguousarray(np.abs(X).T), 40, np.abs(z), want)
    kv.kernel_column(kp, np.ascontiguousarray(X.T), 40, z, plain)
    np.testing.assert_array_equal(got, want)
    assert np.all(got >= np.abs(plain)) and np.any(got > 2 * np.abs(plain))
