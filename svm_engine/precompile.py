"""Fill numba's on-disk cache before the app starts: `python -m svm_engine.precompile`.

The compiled solvers are cached in `__pycache__` (`cache=True`), but on a fresh machine, or
after their sources changed (`jit.py`), the first fit compiles them (~10 s) and the first
refit after a click compiles the warm start (~6 s). `make run` runs this first, so that
neither happens in front of a class. With a warm cache it takes well under a second.
"""

from __future__ import annotations

import time

import numpy as np

from . import datasets
from .api import fit
from .kernels import Gaussian, Linear
from .svr import fit_svr


def main() -> float:
    """A cold fit and a warm refit (the Playground's hot path) with a linear and a Gaussian
    kernel, the Gaussian's predictions and K(X, Z), and an ε-SVR fit; returns the seconds
    it took."""
    t0 = time.perf_counter()
    d = datasets.moons(n=40, noise=0.3, seed=1)
    X2, y2 = np.vstack([d.X, [[0.0, 0.5]]]), np.append(d.y, d.y[0])
    for kernel in (Linear(), Gaussian(sigma=0.7)):
        model = fit(d.X, d.y, kernel=kernel, C=1.0)
        fit(X2, y2, kernel=kernel, C=1.0, warm_start=model)
    model.decision_function(X2)              # drawing, predicting: the kernel's expansion
    kernel(X2, d.X)                          # K(X, Z): the Gram study, SVR
    fit_svr([0.0, 1.0, 2.0], [0.0, 1.0, 0.0])  # the Regression page's compiled SMO
    return time.perf_counter() - t0


if __name__ == "__main__":
    print(f"svm_engine: compiled code ready ({main():.1f} s)")
