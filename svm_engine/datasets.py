# Iris data: svm_engine/data/iris.csv is the UCI Machine Learning Repository copy (iris.data),
# which the book used. It differs from Fisher's published table (and scikit-learn's copy) in two
# rows (1-based): UCI sample 35 is 4.9,3.1,1.5,0.1 (Fisher: 4.9,3.1,1.5,0.2) and UCI sample 38
# is 4.9,3.1,1.5,0.1 (Fisher: 4.9,3.6,1.4,0.1). We keep the UCI values on purpose.
"""Datasets for SVM Lab: the worked examples of Zaki & Meira, *Data Mining and Machine
Learning*, chapter 21 (slides 15, 21, 25, 34, 35), a two-point KKT example, and small
synthetic generators (blobs, moons, circles, xor).

Every dataset is a :class:`Dataset` with ``X`` (float64, shape (n, 2), read-only) and ``y``
(int64, labels +1/-1, read-only). Only numpy and the standard library are used.
"""

from __future__ import annotations

import csv
import functools
import io
import math
import numbers
import operator
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

__all__ = [
    "BOOK",
    "GENERATORS",
    "MAX_N",
    "Dataset",
    "blobs",
    "circles",
    "d1",
    "d2",
    "iris_raw",
    "iris_setosa",
    "iris_versicolor_pca",
    "load",
    "moons",
    "nonlinear",
    "rings",
    "two_point",
    "xor",
]

BOOK = ("d1", "d2", "iris_setosa", "iris_versicolor_pca", "nonlinear", "two_point")
GENERATORS = ("blobs", "moons", "circles", "xor")

#: Largest ``n`` a generator accepts (the app's page applies its own, smaller cap).
MAX_N = 100_000

IRIS_SPECIES = ("Iris-setosa", "Iris-versicolor", "Iris-virginica")
IRIS_FEATURES = ("sepal_length", "sepal_width", "petal_length", "petal_width")


@dataclass(frozen=True, eq=False)
class Dataset:
    """A labelled two-dimensional dataset with suggested app settings.

    Equality compares name, title, data, feature names, source, settings and note; the hash
    uses name and the bytes of ``X`` and ``y``.
    """

    name: str
    title: str
    X: np.ndarray
    y: np.ndarray
    feature_names: tuple[str, str]
    source: str
    settings: dict = field(default_factory=dict)
    note: str = ""

    def __post_init__(self) -> None:
        X = np.array(self.X, dtype=np.float64, copy=True)
        y = np.array(self.y, dtype=np.int64, copy=True)
        if X.ndim != 2 or X.shape[1] != 2:
            raise ValueError(f"Dataset {self.name!r}: X must have shape (n, 2), got {X.shape}")
        if y.shape != (X.shape[0],):
            raise ValueError(
                f"Dataset {self.name!r}: y must have shape ({X.shape[0]},), got {y.shape}"
            )
        if not np.all(np.isin(y, (-1, 1))):
            raise ValueError(f"Dataset {self.name!r}: labels must be +1/-1")
        X.setflags(write=False)
        y.setflags(write=False)
        object.__setattr__(self, "X", X)
        object.__setattr__(self, "y", y)
        object.__setattr__(self, "feature_names", tuple(self.feature_names))
        object.__setattr__(self, "settings", dict(self.settings))

    @property
    def n(self) -> int:
        return int(self.X.shape[0])

    def __len__(self) -> int:
        return self.n

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Dataset):
            return NotImplemented
        return (
            self.name == other.name
            and self.title == other.title
            and np.array_equal(self.X, other.X)
            and np.array_equal(self.y, other.y)
            and self.feature_names == other.feature_names
            and self.source == other.source
            and self.settings == other.settings
            and self.note == other.note
        )

    def __hash__(self) -> int:
        return hash((self.name, self.X.tobytes(), self.y.tobytes()))


def _settings(
    kernel: str = "linear",
    *,
    degree: int = 2,
    coef0: float = 1.0,
    sigma: float = 1.0,
    loss: str = "hinge",
    C: float = 1.0,
    bias: str = "free",
    solver: str = "smo",
) -> dict:
    return {
        "kernel": kernel,
        "degree": degree,
        "coef0": coef0,
        "sigma": sigma,
        "loss": loss,
        "C": C,
        "bias": bias,
        "solver": solver,
    }


# --------------------------------------------------------------------------- book datasets

# Slide 15 (and 21): x1..x8 are +1, x9..x14 are -1, in book order.
_D1_POINTS = (
    (3.5, 4.25, +1),  # x1
    (4.0, 3.0, +1),  # x2
    (4.0, 4.0, +1),  # x3
    (4.5, 1.75, +1),  # x4
    (4.9, 4.5, +1),  # x5
    (5.0, 4.0, +1),  # x6
    (5.5, 2.5, +1),  # x7
    (5.5, 3.5, +1),  # x8
    (0.5, 1.5, -1),  # x9
    (1.0, 2.5, -1),  # x10
    (1.25, 0.5, -1),  # x11
    (1.5, 1.5, -1),  # x12
    (2.0, 2.0, -1),  # x13
    (2.5, 0.75, -1),  # x14
)
# Slide 21: the four points added to D1.
_D2_EXTRA = (
    (4.0, 2.0, +1),  # x15
    (2.0, 3.0, +1),  # x16
    (3.0, 2.0, -1),  # x17
    (5.0, 3.0, -1),  # x18
)


def _from_points(points) -> tuple[np.ndarray, np.ndarray]:
    arr = np.array(points, dtype=np.float64)
    return arr[:, :2], arr[:, 2].astype(np.int64)


def d1() -> Dataset:
    """Book dataset D1 (slide 15): 14 linearly separable points, hard margin example."""
    X, y = _from_points(_D1_POINTS)
    return Dataset(
        name="d1",
        title="Book D1: separable (slide 15)",
        X=X,
        y=y,
        feature_names=("X1", "X2"),
        source="Zaki & Meira ch. 21, slide 15 (solution on slide 16)",
        settings=_settings("linear", C=math.inf, solver="smo"),
        note=(
            "Hard margin. Book solution (slide 16): w = (0.833, 0.334), b = -3.332; exact "
            "optimum w = (5/6, 1/3), b = -10/3. The optimal alpha is not unique on this data."
        ),
    )


def d2() -> Dataset:
    """Book dataset D2 (slide 21): D1 plus x15..x18, not linearly separable."""
    X, y = _from_points(_D1_POINTS + _D2_EXTRA)
    return Dataset(
        name="d2",
        title="Book D2: non-separable (slide 21)",
        X=X,
        y=y,
        feature_names=("X1", "X2"),
        source="Zaki & Meira ch. 21, slide 21 (solution on slides 22-23)",
        settings=_settings("linear", C=1.0, solver="smo"),
        note=(
            "Soft margin, hinge loss, C = 1. Book solution: w = (0.834, 0.333), b = -3.334, "
            "total slack 5.667; x16 and x18 are misclassified."
        ),
    )


def two_point() -> Dataset:
    """Two-point KKT example (seed 004): (2, 2) is +1 and (1, 1) is -1."""
    return Dataset(
        name="two_point",
        title="Two points: KKT by hand",
        X=np.array([[2.0, 2.0], [1.0, 1.0]]),
        y=np.array([1, -1]),
        feature_names=("X1", "X2"),
        source="Blog note on SVM (seed document 004): two-point KKT example",
        settings=_settings("linear", C=math.inf, solver="qp"),
        note="Solved by hand and with cvxopt: w = (1, 1), b = -3.",
    )


def _iris_text() -> str:
    try:
        return resources.files(__package__ or "svm_engine").joinpath("data", "iris.csv").read_text(
            encoding="utf-8"
        )
    except (ModuleNotFoundError, FileNotFoundError, TypeError):  # pragma: no cover
        return (Path(__file__).resolve().parent / "data" / "iris.csv").read_text(
            encoding="utf-8"
        )


@functools.lru_cache(maxsize=1)
def _iris_cached() -> tuple[np.ndarray, np.ndarray]:
    rows = list(csv.reader(io.StringIO(_iris_text())))
    header, body = rows[0], [r for r in rows[1:] if r]
    if tuple(header) != IRIS_FEATURES + ("species",):
        raise RuntimeError(f"unexpected iris.csv header: {header}")
    X = np.array([[float(v) for v in r[:4]] for r in body], dtype=np.float64)
    species = np.array([r[4] for r in body], dtype=object)
    if X.shape != (150, 4) or not set(species) <= set(IRIS_SPECIES):
        raise RuntimeError("iris.csv is corrupt: expected 150 rows of 4 features + species")
    X.setflags(write=False)
    species.setflags(write=False)
    return X, species


def iris_raw() -> tuple[np.ndarray, np.ndarray]:
    """The UCI Iris data: (150x4 float64 features, 150 species strings).

    Columns: sepal length, sepal width, petal length, petal width (cm). Species are
    "Iris-setosa", "Iris-versicolor", "Iris-virginica" (50 each, in that order).
    Returns fresh writable copies.
    """
    X, species = _iris_cached()
    return X.copy(), species.astype(str)


def iris_setosa() -> Dataset:
    """Iris (slide 34): sepal length vs sepal width; -1 = Iris-setosa, +1 = the other two.

    The signs follow the book's printed hyperplanes: 2.74·x1 − 3.74·x2 − 3.09 is negative on
    the setosa flowers (e.g. (5.0, 3.4) gives −2.1), so setosa is the −1 class."""
    F, species = iris_raw()
    y = np.where(species == "Iris-setosa", -1, 1)
    return Dataset(
        name="iris_setosa",
        title="Iris: setosa vs others, sepal length/width (slide 34)",
        X=F[:, :2],
        y=y,
        feature_names=("sepal length (X1)", "sepal width (X2)"),
        source="Zaki & Meira ch. 21, slide 34; UCI Iris data",
        settings=_settings("linear", C=10.0, bias="augmented", solver="sga"),
        note=(
            "Book (SVM-Dual, bias folded into w): h10: 2.74 x1 - 3.74 x2 - 3.09 = 0 (C = 10), "
            "h1000: 8.56 x1 - 7.14 x2 - 23.12 = 0 (C = 1000). UCI copy of Iris (rows 35 and 38 "
            "differ from Fisher's table)."
        ),
    )


def _pca2(F: np.ndarray) -> np.ndarray:
    """Scores on the first two principal components of the centred columns of ``F``.

    Signs are fixed deterministically: each component is oriented so that its loading with
    the largest absolute value is negative. On Iris this reproduces the orientation of
    slide 35 (u1 from about -3.8 to 3.2 with setosa on the right, u2 from about -1.4 to 1.3).
    """
    Fc = F - F.mean(axis=0)
    _, _, Vt = np.linalg.svd(Fc, full_matrices=False)
    V = Vt[:2].copy()
    for k in range(2):
        if V[k, np.argmax(np.abs(V[k]))] > 0:
            V[k] = -V[k]
    Z = Fc @ V.T
    return Z - Z.mean(axis=0)


def iris_versicolor_pca() -> Dataset:
    """Iris (slides 35, 42): first two principal components u1, u2; +1 = Iris-versicolor."""
    F, species = iris_raw()
    y = np.where(species == "Iris-versicolor", 1, -1)
    return Dataset(
        name="iris_versicolor_pca",
        title="Iris: versicolor vs others, principal components (slide 35)",
        X=_pca2(F),
        y=y,
        feature_names=("u1", "u2"),
        source="Zaki & Meira ch. 21, slides 35 and 42; UCI Iris data, PCA of the 4 features",
        settings=_settings("polynomial", degree=2, coef0=1.0, C=10.0, solver="smo"),
        note=(
            "Not linearly separable: versicolor lies between setosa and virginica along u1. "
            "A quadratic kernel (hq) separates it far better than a line (hl)."
        ),
    )


# Slide 25 shows a figure only (no coordinates). These fixed points are in its spirit: the -1
# class is a bump in the middle of [0, 7] x [0, 5], surrounded by the +1 class. No line
# separates them; the inhomogeneous quadratic kernel (1 + x'z)^2 with C = 4 does (100%).
_NONLINEAR_POS = (
    (1.0, 1.0), (1.5, 2.5), (1.0, 3.5), (2.0, 4.25), (3.0, 4.5), (4.0, 4.5),
    (5.0, 4.5), (6.0, 4.25), (6.5, 3.5), (7.0, 2.5), (6.5, 1.25), (6.0, 0.5),
    (5.0, 0.5), (4.0, 0.25), (2.5, 0.5), (2.0, 1.75), (6.0, 2.25),
)  # fmt: skip
_NONLINEAR_NEG = (
    (3.0, 2.0), (3.5, 1.5), (4.0, 2.0), (4.5, 1.5), (5.0, 2.0), (3.5, 3.0), (4.0, 3.0),
    (4.5, 3.0), (3.0, 2.75), (5.0, 2.75), (4.0, 1.25), (4.25, 2.5), (3.5, 2.25),
)  # fmt: skip


def nonlinear() -> Dataset:
    """30 fixed points in [0, 7] x [0, 5] (in the spirit of slide 25), quadratically separable."""
    X = np.array(_NONLINEAR_POS + _NONLINEAR_NEG, dtype=np.float64)
    y = np.array([1] * len(_NONLINEAR_POS) + [-1] * len(_NONLINEAR_NEG))
    return Dataset(
        name="nonlinear",
        title="Nonlinear: a bump no line separates (slide 25)",
        X=X,
        y=y,
        feature_names=("X1", "X2"),
        source=(
            "In the spirit of Zaki & Meira ch. 21, slides 25 and 29 (figure only; "
            "these coordinates are SVM Lab's own)"
        ),
        settings=_settings("polynomial", degree=2, coef0=1.0, C=4.0, solver="smo"),
        note="No linear classifier separates the classes; K(x, z) = (1 + x'z)^2 with C = 4 does.",
    )


# ------------------------------------------------------------------------------ generators


def _check_n(n: Any) -> int:
    if isinstance(n, bool) or not isinstance(n, numbers.Integral):
        raise ValueError(f"n must be an integer between 2 and {MAX_N}, got {n!r}")
    n = operator.index(n)
    if n < 2 or n > MAX_N:
        raise ValueError(f"n must be an integer between 2 and {MAX_N}, got {n!r}")
    return n


def _check_noise(noise: Any, name: str = "noise") -> float:
    if isinstance(noise, bool) or not isinstance(noise, numbers.Real):
        raise ValueError(f"{name} must be a finite number >= 0, got {noise!r}")
    value = float(noise)
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"{name} must be a finite number >= 0, got {noise!r}")
    return value


def _check_seed(seed: Any) -> int:
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    return operator.index(seed)


def _split(n: int) -> tuple[int, int]:
    """Class sizes (n_pos, n_neg), balanced; both >= 1 for n >= 2."""
    n_neg = n // 2
    return n - n_neg, n_neg


def _finish(
    name: str,
    title: str,
    X: np.ndarray,
    y: np.ndarray,
    rng: np.random.Generator,
    settings: dict,
    params: dict,
) -> Dataset:
    order = rng.permutation(len(y))
    desc = ", ".join(f"{k}={v}" for k, v in params.items())
    return Dataset(
        name=name,
        title=f"{title} ({desc})",
        X=X[order],
        y=y[order],
        feature_names=("X1", "X2"),
        source=f"synthetic: numpy.random.default_rng({params['seed']})",
        settings=settings,
        note=f"Generated by svm_engine.datasets.{name}({desc}).",
    )


def blobs(n: int = 100, noise: float = 1.0, seed: int = 0) -> Dataset:
    """Two isotropic Gaussian blobs (std = noise) centred at (1.5, 1.5) (+1) and (-1.5, -1.5)."""
    n, noise, seed = _check_n(n), _check_noise(noise), _check_seed(seed)
    rng = np.random.default_rng(seed)
    n_pos, n_neg = _split(n)
    centers = np.array([[1.5, 1.5]] * n_pos + [[-1.5, -1.5]] * n_neg)
    X = centers + noise * rng.standard_normal((n, 2))
    y = np.array([1] * n_pos + [-1] * n_neg)
    return _finish(
        "blobs", "Blobs", X, y, rng, _settings("linear", C=1.0),
        {"n": n, "noise": noise, "seed": seed},
    )  # fmt: skip


def moons(n: int = 100, noise: float = 0.1, seed: int = 0) -> Dataset:
    """Two interleaving half circles; +1 = lower (inner) moon, -1 = upper (outer) moon."""
    n, noise, seed = _check_n(n), _check_noise(noise), _check_seed(seed)
    rng = np.random.default_rng(seed)
    n_pos, n_neg = _split(n)
    t_out = np.linspace(0.0, math.pi, n_neg)
    t_in = np.linspace(0.0, math.pi, n_pos)
    outer = np.column_stack([np.cos(t_out), np.sin(t_out)])
    inner = np.column_stack([1.0 - np.cos(t_in), 0.5 - np.sin(t_in)])
    X = np.vstack([inner, outer]) + noise * rng.standard_normal((n, 2))
    y = np.array([1] * n_pos + [-1] * n_neg)
    return _finish(
        "moons", "Moons", X, y, rng, _settings("gaussian", sigma=1.0, C=1.0),
        {"n": n, "noise": noise, "seed": seed},
    )  # fmt: skip


def circles(n: int = 100, noise: float = 0.05, seed: int = 0, factor: float = 0.5) -> Dataset:
    """Two concentric circles; +1 = inner circle (radius ``factor``), -1 = outer (radius 1)."""
    n, noise, seed = _check_n(n), _check_noise(noise), _check_seed(seed)
    if (
        isinstance(factor, bool)
        or not isinstance(factor, numbers.Real)
        or not (0.0 < float(factor) < 1.0)
    ):
        raise ValueError(f"factor must be a number strictly between 0 and 1, got {factor!r}")
    factor = float(factor)
    rng = np.random.default_rng(seed)
    n_pos, n_neg = _split(n)
    t_out = np.linspace(0.0, 2.0 * math.pi, n_neg, endpoint=False)
    t_in = np.linspace(0.0, 2.0 * math.pi, n_pos, endpoint=False)
    outer = np.column_stack([np.cos(t_out), np.sin(t_out)])
    inner = factor * np.column_stack([np.cos(t_in), np.sin(t_in)])
    X = np.vstack([inner, outer]) + noise * rng.standard_normal((n, 2))
    y = np.array([1] * n_pos + [-1] * n_neg)
    return _finish(
        "circles", "Circles", X, y, rng, _settings("gaussian", sigma=1.0, C=1.0),
        {"n": n, "noise": noise, "seed": seed, "factor": factor},
    )  # fmt: skip


def rings(n: int = 100, noise: float = 0.05, seed: int = 0) -> Dataset:
    """Two concentric rings, radii 0.3 (+1) and 1 (−1): the clustering example of the Kernel
    k-means & PCA page (seed 002), where plain k-means cuts both rings in half and kernel
    k-means with the Gaussian kernel (σ = 0.5) finds the rings. ``circles`` with factor 0.3;
    not in GENERATORS (a clustering example, not offered to the classifiers' pages)."""
    ds = circles(n=n, noise=noise, seed=seed, factor=0.3)
    desc = f"n={ds.n}, noise={noise}, seed={seed}"
    return Dataset(name="rings", title=f"Rings ({desc})", X=ds.X, y=ds.y,
                   feature_names=ds.feature_names, source=ds.source, settings=ds.settings,
                   note=f"Generated by svm_engine.datasets.rings({desc}).")


def xor(n: int = 100, noise: float = 0.2, seed: int = 0) -> Dataset:
    """XOR: four Gaussian clusters (std = noise) at (±1, ±1); +1 where x1·x2 > 0."""
    n, noise, seed = _check_n(n), _check_noise(noise), _check_seed(seed)
    rng = np.random.default_rng(seed)
    n_pos, n_neg = _split(n)
    # alternate the two clusters of each class so both are (almost) equally filled
    pos_c = np.array([[1.0, 1.0], [-1.0, -1.0]])[np.arange(n_pos) % 2]
    neg_c = np.array([[-1.0, 1.0], [1.0, -1.0]])[np.arange(n_neg) % 2]
    X = np.vstack([pos_c, neg_c]) + noise * rng.standard_normal((n, 2))
    y = np.array([1] * n_pos + [-1] * n_neg)
    return _finish(
        "xor", "XOR", X, y, rng, _settings("gaussian", sigma=1.0, C=1.0),
        {"n": n, "noise": noise, "seed": seed},
    )  # fmt: skip


# -------------------------------------------------------------------------------- registry

_REGISTRY = {
    "d1": d1,
    "d2": d2,
    "iris_setosa": iris_setosa,
    "iris_versicolor_pca": iris_versicolor_pca,
    "nonlinear": nonlinear,
    "two_point": two_point,
    "blobs": blobs,
    "moons": moons,
    "circles": circles,
    "xor": xor,
}
_GENERATOR_PARAMS = {
    "blobs": ("n", "noise", "seed"),
    "moons": ("n", "noise", "seed"),
    "circles": ("n", "noise", "seed", "factor"),
    "xor": ("n", "noise", "seed"),
}


def load(name: str, **params: Any) -> Dataset:
    """Return the dataset called ``name`` (one of BOOK + GENERATORS).

    Generators take ``n``, ``noise``, ``seed`` (and ``factor`` for circles); book datasets
    take no parameters. Raises ValueError for an unknown name, an unknown parameter, or a
    bad parameter value; the message names the offending value.
    """
    if not isinstance(name, str) or name not in _REGISTRY:
        valid = ", ".join(BOOK + GENERATORS)
        raise ValueError(f"unknown dataset {name!r}; valid names: {valid}")
    allowed = _GENERATOR_PARAMS.get(name, ())
    unknown = [k for k in params if k not in allowed]
    if unknown:
        accepted = ", ".join(allowed) if allowed else "no parameters"
        raise ValueError(
            f"dataset {name!r} got unexpected parameter(s) {', '.join(map(repr, unknown))}; "
            f"it accepts {accepted}"
        )
    return _REGISTRY[name](**params)
