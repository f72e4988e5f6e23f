"""Hypothesis strategies for small random SVM problems (tests of the engine's solvers).

A problem is two overlapping 2-D Gaussian clouds (both classes always present), shifted off
the origin (so homogeneous kernels see non-centred data) and rescaled so that max |xᵢₖ| is
`scale`. Scales span several decades, kept where the dual stays well enough conditioned for
SMO at tol 1e-8 to finish in well under a second (SMO, like LIBSVM, needs 10⁵–10⁶ steps when
C·max K is large, e.g. a cubic kernel on data of scale 10: a property of the problem that
tests/test_engine_random.py does not need to hit to check agreement).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from hypothesis import strategies as st

import svm_engine as se

# log10 of max |xᵢₖ| per kernel family
# (Gaussian σ is 10^±0.5: data of scale 0.1 still see K ≠ 1; much smaller makes K ≈ 11ᵀ)
LOG_SCALE = {"linear": (-2.0, 1.0), "polynomial": (-1.0, 0.15), "gaussian": (-1.0, 1.5)}
FIXED_KERNELS = [
    se.Linear(),
    se.Polynomial(degree=2, coef0=0.0),   # homogeneous
    se.Polynomial(degree=3, coef0=0.0),
    se.Polynomial(degree=2, coef0=1.0),   # inhomogeneous (slide 29)
    se.Polynomial(degree=3, coef0=1.0),
]


@dataclass
class RandomProblem:
    X: np.ndarray
    y: np.ndarray
    kernel: object
    C: float
    seed: int

    def fit(self, **kw):
        """se.fit on this problem. max_iter bounds these fits, not the pages' time budget:
        without numba (make test-nojit) one SGA draw needs 62,261 sweeps, about 5 s, so a
        verdict would hang on the machine's load."""
        kw.setdefault("C", self.C)
        kw.setdefault("time_budget", None)
        return se.fit(self.X, self.y, kernel=self.kernel, **kw)


def kernels(names=("linear", "polynomial", "gaussian")):
    fixed = [k for k in FIXED_KERNELS if k.name in names]
    out = [st.sampled_from(fixed)] if fixed else []
    if "gaussian" in names:
        out.append(st.floats(-0.5, 0.5).map(lambda e: se.Gaussian(sigma=10.0**e)))
    return st.one_of(*out)


def _points(rng, n, y, separation):
    d = rng.normal(size=2)
    d /= np.linalg.norm(d)
    return rng.normal(size=(n, 2)) + np.outer(y, d) * separation / 2 + rng.normal(size=2)


def make_problem(kernel, size, seed, separation, log_scale, log_C) -> RandomProblem:
    """The problem `problems` draws, from its parameters (reproduces a failing example)."""
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(size) < 0.5, -1.0, 1.0)
    y[:2] = (-1.0, 1.0)
    X = _points(rng, size, y, separation)
    X *= 10.0**log_scale / np.abs(X).max()
    return RandomProblem(X, y, kernel, 10.0**log_C, seed)


@st.composite
def problems(draw, kernel_names=("linear", "polynomial", "gaussian"), log_C=(-2.0, 2.0),
             n=(6, 40), min_log_scale=-math.inf):
    """A soft-margin problem: (X, y, kernel, C), labels ±1 with both classes present."""
    kernel = draw(kernels(kernel_names))
    lo, hi = LOG_SCALE[kernel.name]
    return make_problem(kernel, draw(st.integers(*n)), draw(st.integers(0, 2**32 - 1)),
                        draw(st.floats(0.0, 4.0)), draw(st.floats(max(lo, min_log_scale), hi)),
                        draw(st.floats(*log_C)))


def make_separable(kernel, size, seed, log_scale) -> RandomProblem:
    """The problem `separable_problems` draws, from its parameters."""
    rng = np.random.default_rng(seed)
    normal = rng.normal(size=2)
    normal /= np.linalg.norm(normal)
    X = rng.normal(size=(size, 2))
    s = X @ normal
    s += np.where(s >= 0, 0.1, -0.1) * (np.abs(s).max() + 1.0)   # open the gap
    X += np.outer(s - X @ normal, normal)
    y = np.where(s > 0, 1.0, -1.0)
    y[:2] = (-1.0, 1.0)
    X[0] += normal * (-abs(s[0]) - s[0])    # keep the two forced labels on their side
    X[1] += normal * (abs(s[1]) - s[1])
    X += rng.normal(size=2)
    X *= 10.0**log_scale / np.abs(X).max()
    return RandomProblem(X, y, kernel, math.inf, seed)


@st.composite
def separable_problems(draw, kernel_names=("linear", "polynomial", "gaussian"),
                       min_log_scale=-math.inf):
    """Linearly separable data with a gap of at least 10 % of the spread around a random
    hyperplane: separable in the feature space of every kernel that contains the linear
    features (linear, inhomogeneous polynomial, Gaussian). C = ∞."""
    kernel = draw(kernels(kernel_names).filter(
        lambda k: not (k.name == "polynomial" and k.coef0 == 0.0)))
    lo, hi = LOG_SCALE[kernel.name]
    return make_separable(kernel, draw(st.integers(6, 30)), draw(st.integers(0, 2**32 - 1)),
                          draw(st.floats(max(lo, min_log_scale), hi)))
