"""A scikit-learn estimator over `fit`: keyword parameters, fit returns self, attributes_.

It passes scikit-learn's own estimator suite (``tests/test_estimator_checks.py``): the input
is checked by scikit-learn's validators (`validate_data`, `check_is_fitted`), its tags say
"binary classifier, dense input", so the suite skips the multi-class checks itself. This is
the one engine module that imports scikit-learn; ``svm_engine.SVC`` loads it on first use
(``svm_engine/__init__.py``), so the app, which never uses it, does not pay for the import.
"""

from __future__ import annotations

import math
import numbers

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import check_is_fitted, validate_data

from .api import DEFAULT_TIME_BUDGET, fit
from .kernels import make_kernel


class SVC(ClassifierMixin, BaseEstimator):
    """Binary SVM classifier. Kernel given by name: 'linear', 'polynomial' ('poly'),
    'gaussian' ('rbf').

    The Gaussian kernel's width is ``sigma``, K(x, z) = exp(−‖x − z‖² / (2σ²)); ``gamma``
    is scikit-learn's name for the same kernel, K = exp(−γ‖x − z‖²), so γ = 1/(2σ²). When
    gamma is given (a number > 0, or 'scale' / 'auto' as in scikit-learn) it wins over sigma.
    The polynomial kernel is (x·z + coef0)^degree, without scikit-learn's γ.
    """

    def __init__(self, *, kernel="linear", C=1.0, degree=2, coef0=1.0, sigma=1.0, gamma=None,
                 loss="hinge", bias="free", solver="smo", tol=None, max_iter=None,
                 wss="second_order", time_budget=DEFAULT_TIME_BUDGET):
        self.kernel = kernel
        self.C = C
        self.degree = degree
        self.coef0 = coef0
        self.sigma = sigma
        self.gamma = gamma
        self.loss = loss
        self.bias = bias
        self.solver = solver
        self.tol = tol
        self.max_iter = max_iter
        self.wss = wss
        self.time_budget = time_budget   # seconds SMO may run (`api.fit`); None: no limit

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False  # binary only: the suite skips multi-class
        tags.input_tags.sparse = False
        return tags

    def _sigma(self, X: np.ndarray) -> float:
        """σ of the Gaussian kernel: ``sigma``, or 1/√(2γ) when ``gamma`` is given."""
        g = self.gamma
        if g is None:
            return self.sigma
        if self.kernel in ("polynomial", "poly"):
            raise ValueError(f"gamma={g!r} applies to the gaussian kernel only; this polynomial "
                             "kernel is (x·z + coef0)^degree (set gamma=None)")
        if isinstance(g, str):
            if g == "scale":  # scikit-learn's default: 1 / (d · Var(X))
                var = float(X.var())
                g = 1.0 / (X.shape[1] * var) if var > 0 else 1.0
            elif g == "auto":
                g = 1.0 / X.shape[1]
            else:
                raise ValueError(f"gamma must be a number > 0, 'scale' or 'auto', got {g!r}")
        if (isinstance(g, bool) or not isinstance(g, numbers.Real) or not math.isfinite(g)
                or g <= 0):
            raise ValueError(f"gamma must be a number > 0, 'scale' or 'auto', got {g!r}")
        return 1.0 / math.sqrt(2.0 * float(g))

    def fit(self, X, y):
        X, y = validate_data(self, X, y, dtype=np.float64, order="C")
        check_classification_targets(y)
        y_type = type_of_target(y, input_name="y", raise_unknown=True)
        if y_type != "binary":
            raise ValueError("Only binary classification is supported. The type of the target "
                             f"is {y_type}.")
        sigma = self._sigma(X)  # checks gamma for every kernel; used by the Gaussian one
        k = make_kernel(self.kernel, degree=self.degree, coef0=self.coef0, sigma=sigma)
        m = fit(X, y, kernel=k, C=self.C, loss=self.loss, bias=self.bias, solver=self.solver,
                tol=self.tol, max_iter=self.max_iter, wss=self.wss,
                time_budget=self.time_budget)
        self.model_ = m
        self.classes_ = m.classes
        self.alpha_ = m.alpha
        self.dual_coef_ = (m.alpha * m.y)[m.support]
        self.support_ = m.support
        self.support_vectors_ = m.X[m.support]
        self.intercept_ = m.b
        self.coef_ = m.w
        self.n_iter_ = m.n_iter
        self.converged_ = m.converged
        return self

    def _validated(self, X) -> np.ndarray:
        check_is_fitted(self)
        return validate_data(self, X, dtype=np.float64, order="C", reset=False)

    def decision_function(self, X):
        """h(x) = Σ αᵢyᵢK(xᵢ, x) + b: > 0 means classes_[1]."""
        X = self._validated(X)
        return self.model_.decision_function(X)

    def predict(self, X):
        X = self._validated(X)
        return self.model_.predict(X)
