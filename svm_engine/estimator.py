"""A scikit-learn style facade over `fit` (keyword parameters, fit returns self, attributes_).

It does not import scikit-learn at import time (the app does not need it); `get_params`/
`set_params` follow its contract, and `__sklearn_tags__` (which only scikit-learn calls, so
it imports it then) says "binary classifier", so that
`sklearn.model_selection.cross_val_score(SVC(...), X, y)` works (scikit-learn ≥ 1.6 asks
every estimator for its tags).
"""

from __future__ import annotations

import inspect

from .api import fit
from .kernels import make_kernel


class SVC:
    """Binary SVM classifier. Kernel given by name: 'linear', 'polynomial', 'gaussian'."""

    def __init__(self, *, kernel="linear", C=1.0, degree=2, coef0=1.0, sigma=1.0, loss="hinge",
                 bias="free", solver="smo", tol=None, max_iter=None, wss="second_order"):
        self.kernel = kernel
        self.C = C
        self.degree = degree
        self.coef0 = coef0
        self.sigma = sigma
        self.loss = loss
        self.bias = bias
        self.solver = solver
        self.tol = tol
        self.max_iter = max_iter
        self.wss = wss

    @classmethod
    def _param_names(cls):
        sig = inspect.signature(cls.__init__)
        return [p for p in sig.parameters if p != "self"]

    def get_params(self, deep=True):
        return {name: getattr(self, name) for name in self._param_names()}

    def set_params(self, **params):
        valid = self._param_names()
        for key, value in params.items():
            if key not in valid:
                raise ValueError(f"invalid parameter {key!r} for SVC; expected one of {valid}")
            setattr(self, key, value)
        return self

    def fit(self, X, y):
        k = make_kernel(self.kernel, degree=self.degree, coef0=self.coef0, sigma=self.sigma)
        m = fit(X, y, kernel=k, C=self.C, loss=self.loss, bias=self.bias, solver=self.solver,
                tol=self.tol, max_iter=self.max_iter, wss=self.wss)
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
        self.n_features_in_ = m.X.shape[1]
        return self

    def __sklearn_tags__(self):
        from sklearn.utils import ClassifierTags, Tags, TargetTags

        return Tags(estimator_type="classifier", target_tags=TargetTags(required=True),
                    classifier_tags=ClassifierTags(multi_class=False))

    def _check_fitted(self):
        if not hasattr(self, "model_"):
            raise ValueError("this SVC is not fitted yet; call fit(X, y) first")

    def decision_function(self, X):
        self._check_fitted()
        return self.model_.decision_function(X)

    def predict(self, X):
        self._check_fitted()
        return self.model_.predict(X)

    def score(self, X, y):
        import numpy as np

        return float(np.mean(self.predict(X) == np.asarray(y)))

    def __repr__(self):
        args = ", ".join(f"{k}={v!r}" for k, v in self.get_params().items())
        return f"SVC({args})"
