"""svm_engine.kernel_perceptron: the dual perceptron of seed 002 (αᵢ counts the mistakes on
xᵢ, h(x) = Σ αᵢyᵢK(xᵢ, x) + b), against scikit-learn's Perceptron for the linear kernel and
against an independent replay in the feature space for the others."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.linear_model import Perceptron

import svm_engine as se
from svm_engine import datasets as ds
from svm_engine.kernel_perceptron import kernel_perceptron


def noisy(seed, n=60, noise=0.3):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2)) * [2.0, 1.0] + [0.5, -0.2]
    y = np.where(X[:, 0] - 0.7 * X[:, 1] + noise * rng.normal(size=n) > 0.2, 1, -1)
    return X, y


def sk_perceptron(X, y, epochs):
    """scikit-learn's Perceptron as seed 003's rule: η = 1, no penalty, data order, and no
    early stop (tol=None: every epoch runs; after a clean epoch none changes w)."""
    return Perceptron(eta0=1.0, penalty=None, shuffle=False, max_iter=epochs, tol=None,
                      fit_intercept=True).fit(X, y)


@pytest.mark.parametrize("seed,noise,epochs", [(0, 0.0, 200), (1, 0.3, 7), (2, 0.3, 40),
                                               (3, 1.0, 25)])
def test_linear_kernel_is_scikit_learns_perceptron(seed, noise, epochs):
    X, y = noisy(seed, noise=noise)
    r = kernel_perceptron(X, y, se.Linear(), max_epochs=epochs)
    ref = sk_perceptron(X, y, epochs)
    w = (r.alpha * r.y) @ X          # w = Σ αᵢyᵢxᵢ
    # the same updates summed in another order (scikit-learn adds them to w one by one):
    # rounding only, a few ulps of Σ αᵢ‖xᵢ‖
    tol = 1e-12 * max(1.0, float(r.alpha @ np.abs(X).sum(axis=1)))
    np.testing.assert_allclose(w, ref.coef_[0], rtol=0, atol=tol)
    assert r.b == pytest.approx(ref.intercept_[0], abs=tol)
    np.testing.assert_allclose(r.decision_function(X), ref.decision_function(X), atol=10 * tol)
    assert r.n_updates == r.alpha.sum() == len(r.trace_i)


def replay_feature_space(X, y, phi, epochs, free=True):
    """Seed 002's primal rule on the explicit feature map: w ← w + yᵢφ(xᵢ) on a mistake."""
    F = phi(X)
    w, b = np.zeros(F.shape[1]), 0.0
    updates = []
    for epoch in range(1, epochs + 1):
        clean = True
        for i in range(len(X)):
            if y[i] * (F[i] @ w + b) <= 0:
                w, b = w + y[i] * F[i], b + (y[i] if free else 0.0)
                updates.append((epoch, i))
                clean = False
        if clean:
            break
    return updates, w, b


def quadratic_map(X):
    """φ of (1 + xᵀz)²: (1, √2x₁, √2x₂, x₁², √2x₁x₂, x₂²)."""
    x1, x2 = X[:, 0], X[:, 1]
    r2 = math.sqrt(2)
    return np.column_stack([np.ones(len(X)), r2 * x1, r2 * x2, x1 * x1, r2 * x1 * x2, x2 * x2])


@pytest.mark.parametrize("bias", ["free", "none"])
def test_quadratic_kernel_is_the_perceptron_on_the_feature_map(bias):
    d = ds.circles(n=60, noise=0.05, seed=3)
    r = kernel_perceptron(d.X, d.y, se.Polynomial(degree=2, coef0=1.0), max_epochs=300,
                          bias=bias)
    updates, w, b = replay_feature_space(d.X, np.where(d.y > 0, 1.0, -1.0), quadratic_map, 300,
                                         free=bias == "free")
    assert list(zip(r.trace_epoch.tolist(), r.trace_i.tolist(), strict=True)) == updates
    F = quadratic_map(d.X)
    np.testing.assert_allclose(r.decision_function(d.X), F @ w + b, atol=1e-8)
    assert r.converged and r.training_mistakes == 0          # circles: separable by (1 + xᵀz)²


def test_gaussian_kernel_separates_and_stops_with_no_training_mistake():
    for name, data in (("xor", ds.xor(n=80, noise=0.2, seed=1)),
                       ("moons", ds.moons(n=100, noise=0.2, seed=2)), ("d2", ds.d2())):
        r = kernel_perceptron(data.X, data.y, se.Gaussian(sigma=0.5), max_epochs=1000)
        assert r.converged, (name, r.status)
        assert r.training_mistakes == 0 and r.mistakes_per_epoch[-1] == 0
        assert (r.predict(data.X) == data.y).all()
        assert f"after {r.n_updates} updates" in r.status


def test_the_trace_rebuilds_every_step():
    d = ds.moons(n=40, noise=0.2, seed=0)
    k = se.Gaussian(sigma=0.7)
    r = kernel_perceptron(d.X, d.y, k, max_epochs=100)
    assert r.converged and r.n_updates > 5
    np.testing.assert_array_equal(r.alpha_after(0), 0)
    assert r.b_after(0) == 0.0
    for step in range(1, r.n_updates + 1):
        rec = r.record(step)
        i = rec.i
        before = r.decision_after(d.X[i], step - 1)[0]
        assert rec.h == pytest.approx(before, abs=1e-9)
        assert rec.y * before <= 1e-9                       # it was a mistake
        assert r.alpha_after(step)[i] == rec.alpha_i == r.alpha_after(step - 1)[i] + 1
        assert r.alpha_after(step).sum() == step
    np.testing.assert_array_equal(r.alpha_after(), r.alpha)
    # h with the kernel's Gram matrix, by hand
    K = k(d.X, d.X)
    np.testing.assert_allclose(r.decision_function(d.X), K @ (r.alpha * r.y) + r.b, atol=1e-9)


def test_epoch_cap_and_shuffle():
    d = ds.d2()                                      # not linearly separable
    r = kernel_perceptron(d.X, d.y, se.Linear(), max_epochs=5)
    assert not r.converged and r.epochs == 5 and "epoch cap" in r.status
    assert r.training_mistakes > 0
    a = kernel_perceptron(d.X, d.y, se.Linear(), max_epochs=5, shuffle=True, seed=4)
    b = kernel_perceptron(d.X, d.y, se.Linear(), max_epochs=5, shuffle=True, seed=4)
    np.testing.assert_array_equal(a.trace_i, b.trace_i)
    assert not np.array_equal(a.trace_i, r.trace_i)


@pytest.mark.parametrize("kwargs,words", [
    ({"max_epochs": 0}, "max_epochs"), ({"max_epochs": 2.5}, "max_epochs"),
    ({"bias": "augmented"}, "bias"), ({"seed": -1}, "seed")])
def test_bad_arguments_are_named(kwargs, words):
    d = ds.d1()
    with pytest.raises(ValueError, match=words):
        kernel_perceptron(d.X, d.y, se.Linear(), **kwargs)


def test_bad_data_and_kernel_are_named():
    d = ds.d1()
    with pytest.raises(ValueError, match="kernel"):
        kernel_perceptron(d.X, d.y, "rbf")
    with pytest.raises(ValueError, match="non-finite value nan"):
        kernel_perceptron(np.array([[0.0, np.nan], [1, 1]]), [1, -1], se.Linear())
    with pytest.raises(ValueError, match="one label per point"):
        kernel_perceptron(d.X, d.y[:-1], se.Linear())
    with pytest.raises(ValueError, match="overflow"):
        kernel_perceptron(np.array([[1e200, 0.0], [0, 1]]), [1, -1], se.Polynomial(3, 1.0))
    r = kernel_perceptron(d.X, d.y, se.Linear())
    with pytest.raises(ValueError, match="k must be"):
        r.alpha_after(r.n_updates + 1)


coords = st.floats(-5, 5, allow_nan=False).map(lambda v: round(v, 3))


@settings(derandomize=True, max_examples=40, deadline=None)
@given(st.lists(st.tuples(coords, coords), min_size=2, max_size=25, unique=True),
       st.integers(0, 2**16))
def test_gaussian_kernel_perceptron_separates_distinct_points(points, seed):
    """Distinct points are separable with a narrow Gaussian (its Gram matrix is positive
    definite): the run stops with no training mistake, and the α it reports are the
    mistakes its trace records."""
    X = np.array(points, dtype=float)
    y = np.where(np.random.default_rng(seed).random(len(X)) < 0.5, 1, -1)
    y[0], y[1] = 1, -1
    r = kernel_perceptron(X, y, se.Gaussian(sigma=0.05), max_epochs=200)
    assert r.converged and r.training_mistakes == 0
    np.testing.assert_array_equal(np.bincount(r.trace_i, minlength=len(X)), r.alpha)
    assert (r.predict(X) == y).all()
