"""svm_engine: the SVM solvers of Zaki & Meira, Data Mining and Machine Learning, ch. 21.

Never imports streamlit or plotly. Public API: see docs/engine_api.md.
"""

from . import datasets
from .api import NOT_SEPARABLE, fit, replay_smo
from .estimator import SVC
from .kernels import KERNELS, Gaussian, Linear, Polynomial, make_kernel
from .model import ConvergenceWarning, SVMModel
from .validation import BIASES, LOSSES, SOLVERS, WSS_RULES, check_combination, supported

__all__ = [
    "BIASES", "KERNELS", "LOSSES", "NOT_SEPARABLE", "SOLVERS", "SVC", "WSS_RULES",
    "ConvergenceWarning", "Gaussian", "Linear", "Polynomial", "SVMModel", "check_combination",
    "datasets", "fit", "make_kernel", "replay_smo", "supported",
]
