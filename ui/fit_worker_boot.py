"""Imported once by the fit workers' fork server (``ui.serving.fit_pool``), never by the app itself.

Loads what every worker needs before the fork server starts forking them: numpy, scipy, the
engine and its compiled code (``svm_engine.precompile.main()`` reads numba's on-disk cache,
compiling only when it is empty), cvxopt, and the ui modules whose functions the pages send
to the workers. A worker forked afterwards shares all of it and starts in a few milliseconds.

It sits in ``ui/``, not in ``ui/serving/``: it imports page packages (their compute modules),
which no shared, data or serving module may (tests/test_ui_layers.py); ``serving.fit_pool``
names it only by ``BOOT_MODULE``.
"""

import cvxopt.solvers  # noqa: F401  (the qp solver imports it on its first fit: ~0.3 s)

import svm_engine.separability  # noqa: F401  (scipy.optimize, for the hard-margin check)
from svm_engine import precompile
from ui.compare import comparison as compare  # noqa: F401
from ui.kmeans_pca import compute as kmeans_pca  # noqa: F401
from ui.knn_perceptron import compute as knn_perceptron  # noqa: F401
from ui.multiclass import compute as multiclass  # noqa: F401
from ui.regression import compute as regression
from ui.serving import fit_api  # noqa: F401  (the endpoint's request schema: pydantic, ~0.2 s)

precompile.main()
regression.warm()  # ε-SVR's SMO (svm_engine/svr.py): compiled, or loaded from numba's cache
