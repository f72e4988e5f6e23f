"""Generalisation: a seeded train/test split, and k-fold cross-validation over a grid of C and a
kernel parameter (σ of the Gaussian, or the polynomial's degree), on the engine's own solvers.

Training accuracy measures how well a model fits the points it was trained on; test accuracy,
on points it never saw, how well it generalises. A small σ or a large C can fit every
training point (training accuracy 1) and still do badly on new points: overfitting. k-fold
cross-validation estimates the test accuracy from the training data alone: each of k folds
is held out once, the model is fitted on the other k − 1 and scored on it.

Budget (the classroom's): a grid is refused before it starts when cells × folds × n (the
points each fit trains on) exceeds `MAX_WORK`; while it runs, no fit starts after `budget_s`
seconds, and each fit's SMO is capped at `fit_max_iter(n)` iterations (≲ 0.1 s at n = 400,
where an unlucky (C, degree) could take seconds). A stopped run reports the cells it finished
(a cell counts only with all its folds) and picks its best among those.

Only numpy here (no scikit-learn): the folds are drawn by `stratified_folds`, and the tests
compare every fold's accuracy with scikit-learn's `GridSearchCV(SVC)` on the same folds.
"""

from __future__ import annotations

import math
import numbers
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from .api import fit
from .kernels import Gaussian, Polynomial
from .model import ConvergenceWarning
from .validation import check_integer, check_number, check_y

#: cells × folds × training points above which a grid is refused before it starts: 5 × 5 cells
#: × 5 folds × 320 points. Measured (benchmarks/bench_model_selection.py): ~0.5 s for such a
#: grid on moons with the Gaussian kernel.
MAX_WORK = 40_000
#: When the run stops starting fits (seconds); the pages' worker is killed at 2 s.
BUDGET_S = 1.5
PARAMS = {"gaussian": "sigma", "polynomial": "degree"}


def fit_max_iter(n: int) -> int:
    """SMO's iteration cap for one cross-validation fit."""
    return 20_000 + 20 * int(n)


# --------------------------------------------------------------------------- checks


def _labels(y) -> np.ndarray:
    """y as given (one label per point), after the engine's own check of two classes."""
    check_y(y, np.size(y))
    return np.asarray(y).reshape(-1)


def _values(name: str, vs, check: Callable[[float], bool], what: str) -> list:
    if isinstance(vs, str | bytes) or not isinstance(vs, Sequence | np.ndarray) or len(vs) == 0:
        raise ValueError(f"{name} must be a non-empty list of numbers, got {vs!r}")
    out = []
    for v in vs:
        if isinstance(v, bool) or not isinstance(v, numbers.Real) or not check(v):
            raise ValueError(f"every value of {name} must be {what}, got {v!r}")
        out.append(v)
    if len(set(out)) != len(out):
        raise ValueError(f"{name} lists a value twice: {list(vs)!r}")
    return out


def _class_sizes(y) -> tuple[np.ndarray, np.ndarray]:
    classes, counts = np.unique(y, return_counts=True)
    return classes, counts


# --------------------------------------------------------------------------- splits


def train_test_split(y, test_fraction: float = 0.3, seed: int = 0
                     ) -> tuple[np.ndarray, np.ndarray]:
    """(train indices, test indices), stratified: each class contributes round(fraction·nₖ)
    of its points (at least one, at most nₖ − 1) to the test set, drawn by a seeded shuffle."""
    y = _labels(y)
    if (isinstance(test_fraction, bool) or not isinstance(test_fraction, numbers.Real)
            or not 0 < test_fraction < 1):
        raise ValueError(f"test_fraction must be a number in (0, 1), got {test_fraction!r}")
    seed = check_integer("seed", seed, 0)
    classes, counts = _class_sizes(y)
    if counts.min() < 2:
        small = classes[np.argmin(counts)].item()
        raise ValueError(f"class {small!r} has {counts.min()} point(s); a split needs at least "
                         "2 of each class (one to train on, one to test)")
    rng = np.random.default_rng(seed)
    test = []
    for c, n_c in zip(classes, counts):
        idx = rng.permutation(np.flatnonzero(y == c))
        k = min(max(int(round(test_fraction * n_c)), 1), n_c - 1)
        test.append(idx[:k])
    test = np.sort(np.concatenate(test))
    train = np.setdiff1d(np.arange(len(y)), test)
    return train, test


def stratified_folds(y, k: int = 5, seed: int = 0) -> list[tuple[np.ndarray, np.ndarray]]:
    """k (train, test) index pairs; every point is in exactly one test fold, and each class is
    dealt round-robin over the folds after a seeded shuffle (fold sizes differ by ≤ 1 per class)."""
    y = _labels(y)
    k = check_integer("k (folds)", k, 2)
    seed = check_integer("seed", seed, 0)
    classes, counts = _class_sizes(y)
    if counts.min() < k:
        small = classes[np.argmin(counts)].item()
        raise ValueError(f"k = {k} folds need at least {k} points of each class; class "
                         f"{small!r} has {counts.min()}")
    rng = np.random.default_rng(seed)
    fold_of = np.empty(len(y), dtype=int)
    start = 0
    for c in classes:
        idx = rng.permutation(np.flatnonzero(y == c))
        fold_of[idx] = (start + np.arange(len(idx))) % k
        start += len(idx)       # the next class continues the deal: fold sizes stay even
    everything = np.arange(len(y))
    return [(everything[fold_of != f], everything[fold_of == f]) for f in range(k)]


def accuracy(model, X, y) -> float:
    """The share of points whose predicted label is y."""
    return float(np.mean(model.predict(np.asarray(X, float)) == np.asarray(y)))


@dataclass(frozen=True)
class SplitResult:
    train: np.ndarray
    test: np.ndarray
    model: object
    train_accuracy: float
    test_accuracy: float


def split_and_fit(X, y, kernel, C: float, *, test_fraction: float = 0.3, seed: int = 0,
                  solver: str = "smo", **fit_kwargs) -> SplitResult:
    """Fit on the training part of a seeded stratified split; accuracy on both parts."""
    X = np.asarray(X, dtype=float)
    y = _labels(y)
    if len(X) != len(y):
        raise ValueError(f"X has {len(X)} rows and y {len(y)} labels")
    train, test = train_test_split(y, test_fraction, seed)   # both classes in each part
    fit_kwargs.setdefault("max_iter", fit_max_iter(len(train)))
    model = fit(X[train], y[train], kernel=kernel, C=C, solver=solver, **fit_kwargs)
    return SplitResult(train=train, test=test, model=model,
                       train_accuracy=accuracy(model, X[train], y[train]),
                       test_accuracy=accuracy(model, X[test], y[test]))


# --------------------------------------------------------------------------- the grid


def grid_kernel(kernel: str, value, coef0: float = 1.0):
    """The kernel of one grid column: Gaussian(σ = value) or Polynomial(degree = value, c)."""
    if kernel == "gaussian":
        return Gaussian(sigma=value)
    return Polynomial(degree=value, coef0=coef0)


@dataclass(frozen=True)
class GridResult:
    """Cross-validation accuracy over C × param (rows: C, columns: the kernel parameter)."""

    kernel: str                 # "gaussian" or "polynomial"
    param: str                  # "sigma" or "degree"
    Cs: tuple
    values: tuple
    k: int
    folds: list                 # the (train, test) index pairs used
    fold_accuracy: np.ndarray   # (len Cs, len values, k): NaN where not computed
    train_accuracy: np.ndarray  # (len Cs, len values, k): on the fold's training part
    unconverged: np.ndarray     # (len Cs, len values): fits stopped at their cap
    done: np.ndarray            # (len Cs, len values) bool: all k folds computed
    elapsed_s: float
    budget_s: float
    stopped: bool               # the budget stopped it before every cell was done
    fits: int = 0
    notes: list = field(default_factory=list)

    @property
    def mean_accuracy(self) -> np.ndarray:
        """Mean over the folds, NaN for cells not done."""
        out = np.full(self.done.shape, np.nan)
        out[self.done] = self.fold_accuracy[self.done].mean(axis=-1)
        return out

    @property
    def mean_train_accuracy(self) -> np.ndarray:
        out = np.full(self.done.shape, np.nan)
        out[self.done] = self.train_accuracy[self.done].mean(axis=-1)
        return out

    @property
    def best(self) -> tuple[int, int] | None:
        """(row, column) of the best finished cell; ties go to the simplest model: the
        smaller C, then the larger σ (or the smaller degree). None when no cell is done."""
        acc = self.mean_accuracy
        if not self.done.any():
            return None
        top = np.nanmax(acc)
        cells = [(i, j) for i in range(len(self.Cs)) for j in range(len(self.values))
                 if self.done[i, j] and acc[i, j] >= top - 1e-12]
        sign = -1.0 if self.kernel == "gaussian" else 1.0    # σ: larger is simpler
        return min(cells, key=lambda ij: (self.Cs[ij[0]], sign * self.values[ij[1]]))

    @property
    def best_params(self) -> dict | None:
        if self.best is None:
            return None
        i, j = self.best
        return {"C": self.Cs[i], self.param: self.values[j]}

    @property
    def summary(self) -> str:
        n_done, total = int(self.done.sum()), self.done.size
        if not self.stopped:
            text = f"all {total} cells done ({self.fits} fits, {self.elapsed_s:.2f} s)"
        else:
            text = (f"stopped at the {self.budget_s:g} s budget after {self.fits} fits: "
                    f"{n_done} of {total} cells done; use fewer values or fewer points, or "
                    "fewer folds")
        if self.unconverged.any():
            text += (f"; {int(self.unconverged.sum())} fit(s) stopped at their iteration cap "
                     "(large C): their accuracy is that of the model where it stopped")
        return text

    @property
    def unfinished(self) -> list[tuple]:
        """(C, value) of every cell not done, row by row (empty when the grid finished)."""
        return [(self.Cs[i], self.values[j]) for i in range(len(self.Cs))
                for j in range(len(self.values)) if not self.done[i, j]]


def check_work(n: int, cells: int, k: int) -> str | None:
    """Why a grid is refused before it starts (None when it may run)."""
    n_train = n - n // k
    work = cells * k * n_train
    if work > MAX_WORK:
        return (f"{cells} cells × {k} folds × {n_train} training points = {work:,} is over the "
                f"limit of {MAX_WORK:,} for one request; use fewer grid values, fewer folds or "
                "fewer points")
    return None


def cross_validate(X, y, kernel: str, Cs, values, *, k: int = 5, seed: int = 0,
                   coef0: float = 1.0, solver: str = "smo", budget_s: float = BUDGET_S,
                   folds=None, clock: Callable[[], float] = time.perf_counter) -> GridResult:
    """k-fold cross-validation accuracy of every (C, value) cell, cell by cell in the order
    of Cs then values (module docstring: the budget). `folds` overrides the seeded
    stratified folds (a list of (train, test) index pairs); `clock` is for tests."""
    X = np.asarray(X, dtype=float)
    y = _labels(y)
    if X.ndim != 2 or len(X) != len(y):
        raise ValueError(f"X must be (n, d) with one row per label; got shape {X.shape} for "
                         f"{len(y)} labels")
    if kernel not in PARAMS:
        raise ValueError(f"kernel must be one of {tuple(PARAMS)}, got {kernel!r}")
    Cs = _values("Cs", Cs, lambda v: 0 < v < math.inf, "a finite number > 0")
    if kernel == "gaussian":
        values = _values("sigmas", values, lambda v: 0 < v < math.inf, "a finite number > 0")
    else:
        values = _values("degrees", values,
                         lambda v: math.isfinite(v) and float(v) == int(v) and 1 <= v <= 10,
                         "an integer from 1 to 10")
        values = [int(v) for v in values]
    check_number("budget_s", budget_s, 0)
    if folds is None:
        folds = stratified_folds(y, k, seed)
    elif len(folds) < 2:
        raise ValueError(f"folds must hold at least 2 (train, test) pairs, got {len(folds)}")
    k = len(folds)
    why = check_work(len(y), len(Cs) * len(values), k)
    if why is not None:
        raise ValueError(why)
    shape = (len(Cs), len(values))
    acc, train_acc = np.full(shape + (k,), np.nan), np.full(shape + (k,), np.nan)
    unconverged = np.zeros(shape, dtype=int)
    done = np.zeros(shape, dtype=bool)
    t0, fits, stopped = clock(), 0, False
    for i, C in enumerate(Cs):
        for j, v in enumerate(values):
            kern = grid_kernel(kernel, v, coef0)
            for f, (tr, te) in enumerate(folds):
                if clock() - t0 > budget_s:
                    stopped = True
                    break
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always", ConvergenceWarning)
                    m = fit(X[tr], y[tr], kernel=kern, C=C, solver=solver,
                            max_iter=fit_max_iter(len(tr)))
                fits += 1
                unconverged[i, j] += any(issubclass(w.category, ConvergenceWarning)
                                         for w in caught)
                acc[i, j, f] = accuracy(m, X[te], y[te])
                train_acc[i, j, f] = m.training_accuracy    # sign of h on its own points
            else:
                done[i, j] = True
                continue
            break
        if stopped:
            break
    return GridResult(kernel=kernel, param=PARAMS[kernel], Cs=tuple(Cs), values=tuple(values),
                      k=k, folds=folds, fold_accuracy=acc, train_accuracy=train_acc,
                      unconverged=unconverged, done=done, elapsed_s=clock() - t0,
                      budget_s=float(budget_s), stopped=stopped, fits=fits)
