"""1-D regression data for ε-SVR: a function from a fixed menu, sampled at n points with
Gaussian noise (never an expression the user types: nothing is evaluated)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .validation import check_number

MAX_N = 10_000
#: name → (label, the function on numpy arrays)
FUNCTIONS = {
    "sine": ("t = sin(x)", np.sin),
    "linear": ("t = 0.5·x + 1", lambda x: 0.5 * x + 1.0),
    "quadratic": ("t = 0.3·x² − 1", lambda x: 0.3 * x * x - 1.0),
    "abs": ("t = |x| − 1", lambda x: np.abs(x) - 1.0),
    "step": ("t = sign(x)", lambda x: np.where(x >= 0, 1.0, -1.0)),
    "sinc": ("t = sin(πx)/(πx)", np.sinc),
}


@dataclass(frozen=True, eq=False)
class RegressionData:
    function: str
    x: np.ndarray         # (n,), sorted
    t: np.ndarray         # (n,): function(x) + noise
    noise: float
    seed: int

    @property
    def label(self) -> str:
        return FUNCTIONS[self.function][0]

    def truth(self, x) -> np.ndarray:
        """The noiseless function at x."""
        return FUNCTIONS[self.function][1](np.asarray(x, dtype=float))


def curve(function: str = "sine", n: int = 30, noise: float = 0.2, seed: int = 0,
          x_range=(-3.0, 3.0)) -> RegressionData:
    """n points x uniform in x_range (sorted), t = function(x) + noise·N(0, 1)."""
    if function not in FUNCTIONS:
        raise ValueError(f"unknown function {function!r}; expected one of {tuple(FUNCTIONS)}")
    if isinstance(n, bool) or not isinstance(n, int | np.integer) or not 2 <= n <= MAX_N:
        raise ValueError(f"n must be an integer between 2 and {MAX_N}, got {n!r}")
    check_number("noise", noise, 0, closed=True)
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    lo, hi = (float(v) for v in x_range)
    if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
        raise ValueError(f"x_range must be two finite numbers lo < hi, got {x_range!r}")
    rng = np.random.default_rng(int(seed))
    x = np.sort(rng.uniform(lo, hi, int(n)))
    t = FUNCTIONS[function][1](x) + float(noise) * rng.standard_normal(int(n))
    x.setflags(write=False)
    t.setflags(write=False)
    return RegressionData(function=function, x=x, t=t, noise=float(noise), seed=int(seed))
