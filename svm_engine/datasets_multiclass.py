"""Data with more than two classes: the three Iris species on two chosen features (the
chapter's own Iris data, svm_engine/data/iris.csv) and k Gaussian blobs (a generator).

A :class:`MulticlassData` has ``X`` (float64, (n, 2), read-only), ``y`` (one label per point,
read-only: species names, or 1..k), ``classes`` (the labels in sorted order) and the names of
its two features. Only numpy and `datasets.iris_raw` are used.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .datasets import IRIS_FEATURES, iris_raw
from .validation import check_number

MAX_K = 8                  # classes the generator makes (the pages' palettes have 8 colours)
MAX_N = 10_000


@dataclass(frozen=True, eq=False)
class MulticlassData:
    name: str
    title: str
    X: np.ndarray
    y: np.ndarray
    feature_names: tuple
    source: str

    def __post_init__(self) -> None:
        X, y = np.array(self.X, dtype=np.float64), np.array(self.y)
        if X.ndim != 2 or X.shape[1] != 2 or y.shape != (len(X),):
            raise ValueError(f"{self.name}: X must be (n, 2) and y (n,), got {X.shape}, {y.shape}")
        X.setflags(write=False)
        y.setflags(write=False)
        object.__setattr__(self, "X", X)
        object.__setattr__(self, "y", y)

    @property
    def classes(self) -> np.ndarray:
        return np.unique(self.y)

    @property
    def n(self) -> int:
        return len(self.X)


def iris_species(features=("sepal_length", "sepal_width")) -> MulticlassData:
    """The 150 UCI Iris flowers, 3 species (50 each), on two of the four features
    (names from IRIS_FEATURES: sepal_length, sepal_width, petal_length, petal_width)."""
    f = tuple(features)
    if len(f) != 2 or f[0] == f[1] or not set(f) <= set(IRIS_FEATURES):
        raise ValueError(f"features must be two different names of {IRIS_FEATURES}, got {f!r}")
    F, species = iris_raw()
    cols = [IRIS_FEATURES.index(name) for name in f]
    return MulticlassData(
        name="iris_species", title=f"Iris: 3 species, {f[0]} and {f[1]} (cm)",
        X=F[:, cols], y=species, feature_names=f,
        source="UCI Iris data (the copy the book used: svm_engine/data/iris.csv)")


def _check_int(name: str, value, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or not lo <= value <= hi:
        raise ValueError(f"{name} must be an integer between {lo} and {hi}, got {value!r}")
    return int(value)


def blobs_k(k: int = 3, n: int = 90, noise: float = 0.7, seed: int = 0) -> MulticlassData:
    """k isotropic Gaussian blobs (std = noise) centred on a circle of radius 2.5, n points
    as evenly split as possible; labels 1..k."""
    k = _check_int("k", k, 2, MAX_K)
    n = _check_int("n", n, k, MAX_N)
    seed = _check_int("seed", seed, 0, 2**63 - 1)
    check_number("noise", noise, 0, closed=True)
    rng = np.random.default_rng(seed)
    angles = 2 * math.pi * np.arange(k) / k + math.pi / 2
    centres = 2.5 * np.column_stack([np.cos(angles), np.sin(angles)])
    y = np.arange(n) % k + 1
    X = centres[y - 1] + float(noise) * rng.standard_normal((n, 2))
    return MulticlassData(
        name="blobs_k", title=f"{k} blobs (n={n}, noise={noise:g}, seed={seed})", X=X, y=y,
        feature_names=("X1", "X2"), source=f"synthetic: numpy.random.default_rng({seed})")
