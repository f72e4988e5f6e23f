"""se.SVC and se.SVR beside sklearn.svm.SVC and SVR on the same data (issue 30, part 8).

Every public attribute scikit-learn's fitted estimator has, se's has too, with the same type,
shape and dtype (or is in NOT_OFFERED, with the reason); the comparable values agree. The
parameters are scikit-learn's names with scikit-learn's defaults. The warning on an early
stop is scikit-learn's ConvergenceWarning; several classes go through its meta-estimators.
"""

import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning
from sklearn.multiclass import OneVsOneClassifier, OneVsRestClassifier
from sklearn.svm import SVC as SkSVC
from sklearn.svm import SVR as SkSVR

import svm_engine as se
from svm_engine import datasets as ds
from tests.sklearn_params import sk_params

# scikit-learn's attributes se does not offer, and why
NOT_OFFERED = {
    "class_weight_": "no class_weight parameter: every class has the same C",
    "probA_": "no probability=True (Platt scaling; deprecated in scikit-learn 1.9)",
    "probB_": "no probability=True (Platt scaling; deprecated in scikit-learn 1.9)",
}
ENGINE_EXTRAS = {"SVC": {"alpha_", "converged_", "model_"}, "SVR": {"converged_", "model_"}}
KERNELS = [{"kernel": "linear"}, {"kernel": "poly", "coef0": 1.0, "gamma": "auto"},
           {"kernel": "rbf"}]  # rbf: gamma='scale', the default


def public(est) -> dict:
    """name → value of every public fitted attribute (properties included; those that raise
    AttributeError, e.g. coef_ of a non-linear kernel, are absent)."""
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)   # probA_, probB_ (deprecated)
        for name in dir(est):
            if name.endswith("_") and not name.startswith("_") and hasattr(est, name):
                out[name] = getattr(est, name)
    return out


def assert_same_kind(ours: dict, theirs: dict, extras: set):
    assert set(theirs) - set(ours) <= set(NOT_OFFERED), set(theirs) - set(ours)
    assert set(ours) - set(theirs) == extras          # coef_ absent from both, or in both
    for name in set(theirs) & set(ours):
        a, b = ours[name], theirs[name]
        assert type(a) is type(b), (name, type(a), type(b))
        if isinstance(b, np.ndarray):
            assert a.shape == b.shape and a.dtype == b.dtype, (name, a.shape, b.shape,
                                                               a.dtype, b.dtype)


def moons(n=60):
    d = ds.moons(n=n, noise=0.3, seed=5)
    return d.X * [2.0, 0.7], np.where(d.y > 0, 1, 0)   # Var(X) ≠ 1: 'scale' is not 'auto'


@pytest.mark.parametrize("kw", KERNELS, ids=lambda kw: kw["kernel"])
def test_svc_has_scikit_learns_attributes_and_values(kw):
    X, y = moons()
    ours = se.SVC(C=2.0, tol=1e-8, **kw).fit(X, y)
    theirs = SkSVC(C=2.0, tol=1e-8, **kw).fit(X, y)
    a, b = public(ours), public(theirs)
    assert_same_kind(a, b, ENGINE_EXTRAS["SVC"])
    for name in ("classes_", "support_", "n_support_", "support_vectors_", "shape_fit_",
                 "n_features_in_", "fit_status_"):
        np.testing.assert_array_equal(a[name], b[name], err_msg=name)
    for name in ("dual_coef_", "intercept_", *(("coef_",) if kw["kernel"] == "linear" else ())):
        np.testing.assert_allclose(a[name], b[name], atol=1e-3, err_msg=name)
    Z = np.random.default_rng(1).uniform(X.min(0), X.max(0), size=(100, 2))
    np.testing.assert_allclose(ours.decision_function(Z), theirs.decision_function(Z),
                               atol=1e-3)
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))


@pytest.mark.parametrize("kw", KERNELS, ids=lambda kw: kw["kernel"])
def test_svr_has_scikit_learns_attributes_and_values(kw):
    rng = np.random.default_rng(3)
    X = rng.uniform(-2, 2, (50, 2)) * [1.5, 0.5]
    t = np.sin(X[:, 0]) + X[:, 1] + 0.1 * rng.standard_normal(50)
    ours = se.SVR(C=3.0, epsilon=0.2, tol=1e-8, **kw).fit(X, t)
    theirs = SkSVR(C=3.0, epsilon=0.2, tol=1e-8, **kw).fit(X, t)
    a, b = public(ours), public(theirs)
    assert_same_kind(a, b, ENGINE_EXTRAS["SVR"])
    for name in ("support_", "n_support_", "support_vectors_", "shape_fit_", "n_features_in_",
                 "fit_status_"):
        np.testing.assert_array_equal(a[name], b[name], err_msg=name)
    for name in ("dual_coef_", "intercept_", *(("coef_",) if kw["kernel"] == "linear" else ())):
        np.testing.assert_allclose(a[name], b[name], atol=1e-3, err_msg=name)
    np.testing.assert_allclose(ours.predict(X), theirs.predict(X), atol=1e-3)
    assert ours.converged_


@pytest.mark.parametrize("cls", [se.SVC, se.SVR], ids=["SVC", "SVR"])
def test_parameters_are_scikit_learns_with_its_defaults(cls):
    sk = {"SVC": SkSVC, "SVR": SkSVR}[cls.__name__]()
    ours, theirs = cls().get_params(), sk.get_params()
    shared = set(ours) & set(theirs)
    assert {"C", "kernel", "degree", "gamma", "coef0", "tol", "max_iter"} <= shared
    assert {k: ours[k] for k in shared} == {k: theirs[k] for k in shared}
    assert set(ours) - set(theirs) <= {"loss", "bias", "solver", "wss", "time_budget"}


@pytest.mark.parametrize("kernel", [se.Linear(), se.Polynomial(degree=2, coef0=1.0),
                                    se.Gaussian(sigma=0.5)], ids=lambda k: k.name)
def test_scikit_learns_words_for_an_engine_kernel_give_the_engines_fit(kernel):
    X, y = moons()     # σ = 0.5 ↦ γ = 2 ↦ σ = 1/√4: back to the same bits (0.7 is not)
    ours = se.SVC(C=2.0, tol=1e-8, **sk_params(kernel)).fit(X, y)
    m = se.fit(X, y, kernel=kernel, C=2.0, tol=1e-8)
    assert ours.model_.kernel == kernel
    np.testing.assert_array_equal(ours.decision_function(X), m.decision_function(X))
    svr = se.SVR(C=2.0, epsilon=0.2, tol=1e-8, **sk_params(kernel)).fit(X, y * 1.0)
    np.testing.assert_array_equal(
        svr.predict(X), se.fit_svr(X, y * 1.0, kernel, C=2.0, epsilon=0.2, tol=1e-8).predict(X))


def test_coef_is_an_attribute_error_for_a_non_linear_kernel():
    X, y = moons()
    for est in (se.SVC(kernel="rbf").fit(X, y), se.SVR(kernel="poly").fit(X, y * 1.0)):
        with pytest.raises(AttributeError, match="only available when using a linear kernel"):
            est.coef_  # noqa: B018
        assert not hasattr(est, "coef_")


@pytest.mark.parametrize("cls", [se.SVC, se.SVR], ids=["SVC", "SVR"])
def test_an_early_stop_is_scikit_learns_convergence_warning(cls):
    X, y = moons()
    y = y * 1.0 if cls is se.SVR else y
    with pytest.warns(ConvergenceWarning, match="max_iter = 2"):
        est = cls(tol=1e-12, max_iter=2).fit(X, y)
    assert est.fit_status_ == 1 and np.all(est.n_iter_ == 2)
    with warnings.catch_warnings():          # a user's filter on scikit-learn's class
        warnings.simplefilter("error")
        warnings.simplefilter("ignore", ConvergenceWarning)
        cls(tol=1e-12, max_iter=2).fit(X, y)
    with pytest.warns(se.ConvergenceWarning):   # the engine's class still catches it
        cls(tol=1e-12, max_iter=2).fit(X, y)


def blobs():
    """Three classes (datasets.blobs has two)."""
    rng = np.random.default_rng(2)
    centres = np.array([[0.0, 0.0], [3.0, 0.5], [1.0, 3.0]])
    y = np.repeat([0, 1, 2], 30)
    return centres[y] + rng.standard_normal((90, 2)), y


@pytest.mark.parametrize("meta", [OneVsOneClassifier, OneVsRestClassifier])
def test_several_classes_go_through_scikit_learns_meta_estimators(meta):
    X, y = blobs()
    ours = meta(se.SVC(kernel="rbf", gamma=0.5, tol=1e-8)).fit(X, y)
    theirs = meta(SkSVC(kernel="rbf", gamma=0.5, tol=1e-8)).fit(X, y)
    np.testing.assert_allclose(ours.decision_function(X), theirs.decision_function(X),
                               atol=1e-3)
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))


def test_several_classes_alone_name_the_meta_estimators():
    X, y = blobs()
    with pytest.raises(ValueError, match=r"Only binary classification is supported\. .*"
                                         r"OneVsOneClassifier.*OneVsRestClassifier"):
        se.SVC().fit(X, y)


@pytest.mark.parametrize("kernel, hint", [("gaussian", "here 'rbf'"), ("polynomial", "'poly'"),
                                          ("sigmoid", "no sigmoid"), ("precomputed", "Gram")])
def test_kernel_names_are_scikit_learns(kernel, hint):
    X, y = moons()
    with pytest.raises(ValueError, match=rf"kernel must be one of \('linear', 'poly', 'rbf'\)"
                                         rf", got '{kernel}'.*{hint}"):
        se.SVC(kernel=kernel).fit(X, y)


def test_se_fit_names_the_kernel_objects_for_a_name():
    X, y = moons()
    with pytest.raises(ValueError, match=r"kernel='rbf' is a name; fit takes a kernel object"):
        se.fit(X, y, kernel="rbf")
