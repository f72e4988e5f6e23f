"""The proximal SVM (Fung & Mangasarian, KDD 2001; seed 001) against the seed's own formula,
written out here independently of svm_engine/solvers/psvm.py, and against its optimality
conditions."""

import math

import numpy as np
import pytest

import svm_engine as se
from svm_engine import datasets as ds
from ui.shared import fitting
from ui.shared.settings import Settings

PSVM = {"loss": "quadratic", "bias": "augmented", "solver": "psvm"}


def blobs(seed=0, n=40):
    d = ds.blobs(n=n, noise=1.5, seed=seed)
    return d.X, d.y


def seed_formula(A, d, nu, K=None):
    """[w; γ] (or [ū; γ]) = (I/ν + HᵀH)⁻¹ HᵀDe, H = [A −e] (or [K −e]) — seed 001, solved
    with numpy directly."""
    D = np.diag(d.astype(float))
    e = np.ones(len(d))
    H = np.column_stack([A if K is None else K, -e])
    z = np.linalg.solve(np.eye(H.shape[1]) / nu + H.T @ H, H.T @ D @ e)
    return z[:-1], z[-1]


def gaussian(X, Z, sigma):
    sq = ((X[:, None, :] - Z[None, :, :]) ** 2).sum(-1)
    return np.exp(-sq / (2 * sigma**2))


@pytest.mark.parametrize("data", ["d2", "iris_setosa", "blobs"])
@pytest.mark.parametrize("C", [0.05, 1.0, 300.0])
def test_linear_psvm_is_the_seed_formula(data, C):
    X, y = blobs() if data == "blobs" else (ds.load(data).X, ds.load(data).y)
    m = se.fit(X, y, C=C, **PSVM)
    w, gamma = seed_formula(X, y, nu=2 * C)
    np.testing.assert_allclose(m.w, w, rtol=1e-8, atol=1e-10)
    assert m.b == pytest.approx(-gamma, rel=1e-8, abs=1e-10)
    # h is a difference of terms of size |x||w| + |γ|: compare at that scale
    scale = np.abs(X) @ np.abs(w) + abs(gamma)
    assert np.all(np.abs(m.decision_function(X) - (X @ w - gamma)) <= 1e-9 * scale)
    assert m.converged and m.n_iter == 1


@pytest.mark.parametrize("kernel, K", [
    (se.Gaussian(sigma=1.0), lambda X, Z: gaussian(X, Z, 1.0)),
    (se.Gaussian(sigma=0.4), lambda X, Z: gaussian(X, Z, 0.4)),
    (se.Polynomial(degree=2, coef0=1.0), lambda X, Z: (1.0 + X @ Z.T) ** 2),
])
def test_nonlinear_psvm_is_the_seed_formula(kernel, K):
    X, y = blobs(seed=3, n=30)
    C = 2.5
    m = se.fit(X, y, kernel=kernel, C=C, **PSVM)
    u_bar, gamma = seed_formula(X, y, nu=2 * C, K=K(X, X))
    Z = np.random.default_rng(1).uniform(X.min(0), X.max(0), size=(25, 2))
    # classifier of the seed: K(xᵀ, Aᵀ)ū − γ
    np.testing.assert_allclose(m.decision_function(Z), K(Z, X) @ u_bar - gamma,
                               rtol=1e-7, atol=1e-8)
    assert m.b == pytest.approx(-gamma, rel=1e-8)
    np.testing.assert_allclose(m.alpha * m.y, u_bar, rtol=1e-7, atol=1e-9)
    assert m.w is None


def objective_linear(w, gamma, A, d, nu):
    """ν/2 ‖e − D(Aw − eγ)‖² + ½‖(w, γ)‖² (seed 001)."""
    err = 1.0 - d * (A @ w - gamma)
    return nu / 2 * err @ err + 0.5 * (w @ w + gamma**2)


def test_linear_psvm_optimality_conditions_and_multipliers():
    d = ds.d2()
    X, y, C = d.X, d.y.astype(float), 1.0
    nu = 2 * C
    m = se.fit(X, y, C=C, **PSVM)
    w, gamma = m.w, -m.b
    err = 1.0 - y * (X @ w - gamma)
    # gradient of the objective is zero
    grad_w = w - nu * X.T @ (y * err)
    grad_gamma = gamma + nu * y @ err
    assert np.abs(grad_w).max() < 1e-10 and abs(grad_gamma) < 1e-10
    # "QP duality": u = ν·error, w = AᵀDu, γ = −eᵀDu; α are these u, and some are negative
    u = nu * err
    np.testing.assert_allclose(m.alpha, u, atol=1e-10)
    np.testing.assert_allclose(X.T @ (y * u), w, atol=1e-10)
    assert -y @ u == pytest.approx(gamma, abs=1e-10)
    assert (m.alpha < 0).any() and (m.alpha > 0).any()
    # strongly convex: every move away raises the objective
    f0 = objective_linear(w, gamma, X, y, nu)
    rng = np.random.default_rng(0)
    for _ in range(20):
        dw, dg = rng.normal(size=2) * 1e-3, rng.normal() * 1e-3
        assert objective_linear(w + dw, gamma + dg, X, y, nu) > f0
    # the model's objectives are PSVM's, and its dual closes the gap
    assert m.primal_objective == pytest.approx(f0, rel=1e-12)
    assert m.dual_objective == pytest.approx(f0, rel=1e-9)
    assert m.kkt_violation < 1e-9


def test_nonlinear_psvm_optimality_conditions():
    X, y = blobs(seed=5, n=24)
    y = y.astype(float)
    C, sigma = 0.7, 1.3
    nu = 2 * C
    m = se.fit(X, y, kernel=se.Gaussian(sigma=sigma), C=C, **PSVM)
    K = gaussian(X, X, sigma)
    u_bar, gamma = m.alpha * m.y, -m.b
    err = 1.0 - y * (K @ u_bar - gamma)
    # ∇ of ν/2 ‖e − D(K ū − eγ)‖² + ½‖(ū, γ)‖²
    assert np.abs(u_bar - nu * K @ (y * err)).max() < 1e-9
    assert abs(gamma + nu * y @ err) < 1e-9
    f0 = nu / 2 * err @ err + 0.5 * (u_bar @ u_bar + gamma**2)
    assert m.primal_objective == pytest.approx(f0, rel=1e-12)
    assert m.dual_objective == pytest.approx(f0, rel=1e-8)
    assert m.kkt_violation < 1e-8
    assert m.margin == pytest.approx(1 / math.sqrt(u_bar @ K @ u_bar), rel=1e-9)


def test_psvm_model_bookkeeping_is_consistent():
    d = ds.d2()
    for kernel in (se.Linear(), se.Gaussian(sigma=1.0)):
        m = se.fit(d.X, d.y, kernel=kernel, C=1.0, **PSVM)
        np.testing.assert_allclose(m.decision_function(m.X), m.h_train, atol=1e-10)
        np.testing.assert_allclose(m.xi, np.maximum(0, 1 - m.y * m.h_train), atol=1e-12)
        # PSVM is not sparse: negative α are kept and every point counts
        assert m.n_support == len(d.y)
        assert set(m.category) <= {"non-SV", "inside margin", "misclassified"}
        np.testing.assert_array_equal(m.category == "misclassified", m.y * m.h_train < 0)
    lin = se.fit(d.X, d.y, C=1.0, **PSVM)
    assert lin.margin == pytest.approx(1 / np.linalg.norm(lin.w))
    np.testing.assert_allclose(lin.diagnostics.w_primal, lin.w, atol=1e-10)


def test_the_other_solvers_keep_their_bookkeeping():
    """psvm's branch is not taken for the SVM solvers: their α stay ≥ 0, sparse, and the
    dual objective is the SVM's Σα − ½αᵀQα."""
    d = ds.d2()
    y = d.y.astype(float)
    for kw in ({"solver": "smo"}, {"solver": "qp"},
               {"solver": "newton", "loss": "quadratic", "bias": "augmented"}):
        m = se.fit(d.X, d.y, C=1.0, **kw)
        assert (m.alpha >= 0).all() and m.n_support < len(y)
        K = d.X @ d.X.T + (1.0 if m.bias == "augmented" else 0.0)
        if m.loss == "quadratic":
            K = K + np.eye(len(y)) / 2.0
        Q = np.outer(y, y) * K
        assert m.dual_objective == pytest.approx(m.alpha.sum() - 0.5 * m.alpha @ Q @ m.alpha)


@pytest.mark.parametrize("kw, named", [
    ({"loss": "hinge", "bias": "augmented"}, "loss"),
    ({"loss": "quadratic", "bias": "free"}, "bias"),
])
def test_psvm_rejects_what_it_does_not_solve(kw, named):
    d = ds.d2()
    with pytest.raises(ValueError, match=named):
        se.fit(d.X, d.y, C=1.0, solver="psvm", **kw)
    with pytest.raises(ValueError, match="C = inf"):
        se.fit(d.X, d.y, C=math.inf, **PSVM)


def test_playground_offers_psvm_only_where_it_applies():
    hinge = Settings.parse({"loss": "hinge", "bias": "free"})
    why = fitting.solver_availability(hinge)["psvm"]
    assert why == "PSVM solves the quadratic loss (k = 2) only: choose it under Loss"
    quad = Settings.parse({"loss": "quadratic", "bias": "augmented", "solver": "psvm",
                                 "kernel": "gaussian", "sigma": 1.0})
    assert fitting.solver_availability(quad)["psvm"] is None
    d = ds.d2()
    out = fitting.fit_points(d.X, d.y, quad)
    assert out.ok and out.warning is None and out.model.solver == "psvm"


def test_a_numerically_singular_system_is_an_honest_answer_not_numpys_error():
    """Issue 33 item 10: a degree-10 kernel makes I/ν + HᵀH singular in double precision
    (numpy raised a bare "Singular matrix"). Least squares gives an answer; the certificate
    judges it (here: not converged, with advice), and the status says what happened."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", se.ConvergenceWarning)
        m = se.fit([[0, 0], [0, 0], [1, 1], [1, 1], [2, 0], [0, 2]], [1, 1, -1, -1, 1, -1],
                   kernel=se.Polynomial(10, 10), C=1, loss="quadratic", bias="augmented",
                   solver="psvm")
    assert np.isfinite(m.alpha).all() and np.isfinite(m.b)
    assert "least squares" in m.diagnostics.solver_status
    # the residual of 1e-3 leaves primal and dual apart: the certificate must say so
    assert not m.converged and "not converged" in m.status
