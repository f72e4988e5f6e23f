"""svm_engine: the SVM solvers of Zaki & Meira, Data Mining and Machine Learning, ch. 21.

Never imports streamlit or plotly. Public API: see docs/engine_api.md. ``SVC`` and ``SVR``
(the scikit-learn estimators, ``estimator.py``) are imported on first use: they load
scikit-learn.
"""

from . import datasets, export, feature_maps, gram, losses, model_selection, perceptron, precomputed
from .api import NOT_SEPARABLE, fit, replay_smo
from .kernels import KERNELS, Gaussian, Linear, Polynomial, make_kernel
from .model import ConvergenceWarning, NotSeparableError, SVMModel
from .multiclass import MulticlassModel, fit_multiclass
from .svr import SVRModel, fit_svr
from .validation import BIASES, LOSSES, SOLVERS, WSS_RULES, check_combination, supported

__all__ = [
    "BIASES", "KERNELS", "LOSSES", "NOT_SEPARABLE", "SOLVERS", "SVC", "SVR", "WSS_RULES",
    "ConvergenceWarning", "Gaussian", "Linear", "MulticlassModel", "NotSeparableError",
    "Polynomial", "SVMModel",
    "SVRModel", "check_combination", "datasets", "export", "feature_maps", "fit",
    "fit_multiclass", "fit_svr", "gram", "losses", "make_kernel", "model_selection",
    "perceptron", "precomputed", "replay_smo", "supported",
]


def __getattr__(name: str):
    if name in ("SVC", "SVR"):
        try:
            from . import estimator
        except ImportError as exc:
            if exc.name != "sklearn" and not (exc.name or "").startswith("sklearn."):
                raise
            raise ImportError(f"se.{name} is scikit-learn's estimator API and needs "
                              "scikit-learn: pip install scikit-learn (the extra "
                              "svm-lab[sklearn]); se.fit and se.fit_svr do without it") from exc
        return getattr(estimator, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
