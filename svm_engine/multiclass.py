"""More than two classes from the binary SVM: one-vs-rest and one-vs-one.

Both build k-class classifiers from `svm_engine.fit` (the same kernel, loss, bias, C and
solver for every binary machine). A machine "A vs B" is fit with A as its +1 class, so
h(x) > 0 means A (scikit-learn's convention for both strategies).

* one-vs-rest (OvR): k machines, "c vs rest" for each class c; the score of class c is its
  machine's hₖ(x) and the prediction is the class with the largest score. Ties go to the
  first such class in class order (np.argmax, as scikit-learn's
  `OneVsRestClassifier.predict`). With k = 2 a single machine "classes[1] vs classes[0]"
  decides, as scikit-learn fits only one.
* one-vs-one (OvO): k(k−1)/2 machines "i vs j" for i < j in class order; each gives one vote,
  to i when h_ij(x) > 0, else to j (LIBSVM's rule: h = 0 votes j); the prediction is the class
  with the most votes, ties to the first in class order (LIBSVM's `svm_predict`, which
  scikit-learn's `SVC.predict` calls). The scores are the k(k−1)/2 values h_ij, the columns of
  scikit-learn's `SVC(decision_function_shape='ovo').decision_function`.

| symbol    | code                   | meaning                                        |
|-----------|------------------------|------------------------------------------------|
| k         | `len(classes)`         | number of classes (sorted labels)              |
| h_c, h_ij | `scores(Z)` columns    | the binary machines' decision values           |
| votes     | `votes(Z)`             | OvO: machines won per class; OvR: 1 for argmax |
"""

from __future__ import annotations

import time
import warnings
from dataclasses import dataclass
from itertools import combinations

import numpy as np

import svm_engine as se  # the public API only (se.fit, se.ConvergenceWarning)

STRATEGIES = ("ovr", "ovo")
STRATEGY_NAMES = {"ovr": "one-vs-rest", "ovo": "one-vs-one"}


@dataclass(frozen=True)
class Machine:
    """One binary machine: `positive` is its +1 class (h > 0), `negative` the −1 class or
    classes, `rows` the training points it saw, `model` its SVMModel."""

    positive: object
    negative: tuple
    rows: np.ndarray
    model: object

    @property
    def name(self) -> str:
        neg = "rest" if len(self.negative) > 1 else str(self.negative[0])
        return f"{self.positive} vs {neg}"


@dataclass(eq=False)
class MulticlassModel:
    strategy: str
    classes: np.ndarray
    machines: list
    time_s: float
    pairs: tuple[tuple[int, int], ...] = ()   # OvO: machine m is classes pairs[m] (indices)

    @property
    def converged(self) -> bool:
        return all(m.model.converged for m in self.machines)

    @property
    def status(self) -> str:
        bad = [m.name for m in self.machines if not m.model.converged]
        if not bad:
            return f"all {len(self.machines)} machines converged"
        return f"not converged: {', '.join(bad)} — " + next(
            m.model.status for m in self.machines if not m.model.converged)

    @property
    def n_machines(self) -> int:
        return len(self.machines)

    def scores(self, Z) -> np.ndarray:
        """(m, n_machines): each machine's h(z), in the order of `machines`."""
        return np.column_stack([m.model.decision_function(Z) for m in self.machines])

    def votes(self, Z, scores=None) -> np.ndarray:
        """(m, k) votes per class: OvO counts the machines each class won; OvR gives 1 to the
        predicted class."""
        S = self.scores(Z) if scores is None else scores
        k = len(self.classes)
        V = np.zeros((len(S), k), dtype=int)
        if self.strategy == "ovo":
            for col, (i, j) in enumerate(self.pairs):
                V[:, i] += S[:, col] > 0
                V[:, j] += S[:, col] <= 0
        else:
            V[np.arange(len(S)), self._ovr_index(S)] = 1
        return V

    def _ovr_index(self, S) -> np.ndarray:
        if len(self.classes) == 2:              # one machine: classes[1] when h > 0
            return (S[:, 0] > 0).astype(int)
        return np.argmax(S, axis=1)             # ties: the first class

    def predict_index(self, Z, scores=None) -> np.ndarray:
        """Index into `classes` of the predicted class of each z."""
        S = self.scores(Z) if scores is None else scores
        if self.strategy == "ovr":
            return self._ovr_index(S)
        return np.argmax(self.votes(Z, S), axis=1)   # ties: the first class (LIBSVM)

    def predict(self, Z) -> np.ndarray:
        return self.classes[self.predict_index(Z)]


def check_labels(y, n: int) -> tuple[np.ndarray, np.ndarray]:
    """(classes sorted, y as indices into them); ValueError naming a bad label set."""
    Y = np.asarray(y)
    if Y.ndim != 1 or len(Y) != n:
        raise ValueError(f"y must be 1-D with one label per point (len(X) = {n}), "
                         f"got shape {Y.shape}")
    if Y.dtype.kind == "f" and not np.isfinite(Y).all():
        raise ValueError("y contains NaN or inf; expected finite labels")
    try:
        classes, idx = np.unique(Y, return_inverse=True)
    except TypeError:
        raise ValueError("y mixes label types that cannot be sorted") from None
    if len(classes) < 2:
        raise ValueError(f"y has only {len(classes)} class {classes.tolist()}; "
                         "expected at least two")
    return classes, idx


def fit_multiclass(X, y, strategy="ovr", **fit_kw) -> MulticlassModel:
    """k-class SVM by `strategy` ("ovr" or "ovo"); fit_kw go to every `svm_engine.fit`
    (kernel, C, loss, bias, solver, tol, ...). Raises ValueError naming a bad value; a
    machine that does not converge warns (ConvergenceWarning) and leaves `converged` False."""
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r}; expected one of {STRATEGIES}")
    X = np.asarray(X)
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D with shape (n, d), got shape {X.shape}")
    classes, idx = check_labels(y, len(X))
    k = len(classes)
    t0 = time.perf_counter()
    machines, pairs = [], ()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", se.ConvergenceWarning)   # reported once, below
        if strategy == "ovr" and k == 2:
            machines.append(_machine(X, idx, 1, (0,), classes, fit_kw))
        elif strategy == "ovr":
            for c in range(k):
                rest = tuple(r for r in range(k) if r != c)
                machines.append(_machine(X, idx, c, rest, classes, fit_kw))
        else:
            pairs = tuple(combinations(range(k), 2))
            for i, j in pairs:
                machines.append(_machine(X, idx, i, (j,), classes, fit_kw))
    model = MulticlassModel(strategy=strategy, classes=classes, machines=machines,
                            time_s=time.perf_counter() - t0, pairs=pairs)
    if not model.converged:
        warnings.warn(model.status, se.ConvergenceWarning, stacklevel=2)
    return model


def _machine(X, idx, pos, neg, classes, fit_kw) -> Machine:
    """Machine pos vs neg (class indices) on the rows of those classes; +1 = pos."""
    rows = np.flatnonzero(np.isin(idx, (pos, *neg)))
    labels = (idx[rows] == pos).astype(int)          # 1 ↦ +1 (se.fit sorts the labels)
    try:
        model = se.fit(X[rows], labels, **fit_kw)
    except ValueError as exc:
        name = f"{classes[pos]} vs " + ("rest" if len(neg) > 1 else str(classes[neg[0]]))
        raise ValueError(f"machine {name}: {exc}") from None
    return Machine(positive=classes[pos], negative=tuple(classes[list(neg)]), rows=rows,
                   model=model)


def grid(X, steps: int = 120, pad: float = 0.1):
    """(xs, ys, Z): an evenly spaced steps × steps grid over X's first two features, widened
    by `pad` of their range, and its points Z as a (steps², 2) array (rows: ys, then xs)."""
    X = np.asarray(X, dtype=float)
    lo, hi = X[:, :2].min(axis=0), X[:, :2].max(axis=0)
    span = np.where(hi > lo, hi - lo, 1.0)
    lo, hi = lo - pad * span, hi + pad * span
    xs, ys = np.linspace(lo[0], hi[0], steps), np.linspace(lo[1], hi[1], steps)
    xx, yy = np.meshgrid(xs, ys)
    return xs, ys, np.column_stack([xx.ravel(), yy.ravel()])


@dataclass(frozen=True, eq=False)
class Regions:
    """The class regions on a grid (`regions`)."""

    index: np.ndarray       # (len(ys), len(xs)) predicted class indices
    scores: np.ndarray      # (n_machines, len(ys), len(xs)) each machine's h


def regions(model: MulticlassModel, xs, ys) -> Regions:
    """The class regions on the grid xs × ys."""
    xx, yy = np.meshgrid(xs, ys)
    Z = np.column_stack([xx.ravel(), yy.ravel()])
    S = model.scores(Z)
    shape = (len(ys), len(xs))
    return Regions(index=model.predict_index(Z, S).reshape(shape),
                   scores=S.T.reshape((S.shape[1],) + shape))
