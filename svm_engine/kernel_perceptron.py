"""The kernel (dual) perceptron: Rosenblatt's perceptron written with dot products only.

Problem: as the perceptron (`perceptron.py`), find *some* h with yᵢh(xᵢ) > 0 for every
point, but in the feature space of a kernel K(x, z) = φ(x)·φ(z). Seed 002 ("illustration:
perceptron algorithm (3)"): started at w = 0, every update adds yᵢφ(xᵢ), so w is a sum of
the points it was updated on, and h needs only the kernel:

    w = Σᵢ αᵢyᵢφ(xᵢ),   h(x) = w·φ(x) + b = Σᵢ αᵢyᵢK(xᵢ, x) + b

where αᵢ counts the mistakes made on xᵢ. Learning (seed 003's LearnPerceptron, η = 1):

    α ← 0, b ← 0
    for each epoch, for each point (xᵢ, yᵢ) in the epoch's order:
        if yᵢh(xᵢ) ≤ 0:               a mistake (a point on the boundary counts as one)
            αᵢ ← αᵢ + 1,  b ← b + yᵢ

so b = Σᵢ αᵢyᵢ: the free bias is the same as the kernel K(x, z) + 1 (seed 002: a constant
component 1 added to x). bias="none" keeps b = 0. From α = 0 a learning rate η would only
scale α and b (the same points are updated in the same order), so there is none. With the
linear kernel K = xᵀz this is the primal perceptron exactly: w = Σ αᵢyᵢxᵢ (scikit-learn's
Perceptron with eta0 = 1, no penalty, no shuffling, tests/test_kernel_perceptron.py).

The run stops after an epoch without mistakes (converged: every yᵢh(xᵢ) > 0, rechecked
from α at the end) or at the epoch cap. On data separable in the feature space it stops
(the convergence theorem, seed 003); the Gaussian kernel separates any set of distinct
points, so there it always stops with zero training mistakes, given epochs enough.

| seed 002 / 003      | here               | meaning                                          |
|---------------------|--------------------|--------------------------------------------------|
| xᵢ (x_l), yᵢ        | X[i], y[i]         | a point and its label ±1                         |
| k(x, x')            | kernel             | K(x, z) = φ(x)·φ(z) (`svm_engine.kernels`)       |
| w = Σ y_l φ(x_l)    | Σ alpha·y·φ        | never formed: only α is kept                     |
| (the count of l)    | alpha[i]           | αᵢ: how many updates were made on xᵢ (mistakes)  |
| b                   | b                  | Σ αᵢyᵢ with the free bias, else 0               |
| numIters            | max_epochs         | the cap on passes over the data                  |

Cost: the n × n Gram matrix once (the compiled kernel code), then per visit one look-up of
h(xᵢ) (kept up to date for every point: an update adds yᵢK(xᵢ, ·) + yᵢ, O(n)). Callers with a
time budget cap n·max_epochs (the page: ui/knn_perceptron/compute.py).

The trace is data: one entry per update, in arrays (``trace_i``, ``trace_epoch``,
``trace_visit``, ``trace_h``), so α and h after any number of updates are rebuilt from it
(`alpha_after`, `decision_after`); `record` gives one update as a dict.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .perceptron import BIASES
from .validation import check_integer, check_kernel, check_X, check_y


@dataclass(frozen=True)
class PerceptronUpdate:
    """One update of the run (`KernelPerceptronResult.record`)."""

    update: int     # its number k (1-based)
    epoch: int      # its epoch (1-based)
    visit: int      # its visit, counted over the whole run (1-based)
    i: int          # the point (0-based)
    y: int          # its label ±1
    h: float        # h(xᵢ) just before the update (y·h ≤ 0: the mistake)
    alpha_i: int    # αᵢ after it


@dataclass(eq=False)
class KernelPerceptronResult:
    alpha: np.ndarray        # αᵢ: the mistakes made on each point (int)
    b: float                 # Σ αᵢyᵢ (free bias) or 0
    converged: bool          # an epoch without mistakes, and every yᵢh(xᵢ) > 0 rechecked
    epochs: int
    n_updates: int           # Σ αᵢ
    mistakes_per_epoch: list[int]
    training_mistakes: int   # points with yᵢh(xᵢ) ≤ 0 at the end (rechecked from α)
    trace_i: np.ndarray      # the point of each update (0-based)
    trace_epoch: np.ndarray  # its epoch (1-based)
    trace_visit: np.ndarray  # its visit, counted over the whole run (1-based)
    trace_h: np.ndarray      # h(xᵢ) just before the update (yᵢ·that ≤ 0: the mistake)
    status: str
    X: np.ndarray
    y: np.ndarray            # ±1
    classes: np.ndarray      # classes[0] ↦ −1, classes[1] ↦ +1
    kernel: object
    bias: str
    max_epochs: int
    shuffle: bool
    seed: int

    def _check_k(self, k: int | None) -> int:
        if k is None:
            return self.n_updates
        if isinstance(k, bool) or not isinstance(k, int | np.integer) or not (
                0 <= k <= self.n_updates):
            raise ValueError(f"k must be an integer from 0 to {self.n_updates} (the updates), "
                             f"got {k!r}")
        return int(k)

    def alpha_after(self, k: int | None = None) -> np.ndarray:
        """α after the first k updates (k = 0: all zero; None: the end of the run)."""
        k = self._check_k(k)
        return np.bincount(self.trace_i[:k], minlength=len(self.X)).astype(int)

    def b_after(self, k: int | None = None) -> float:
        k = self._check_k(k)
        if self.bias == "none":
            return 0.0
        return float(self.y[self.trace_i[:k]].sum())

    def decision_after(self, Z, k: int | None = None) -> np.ndarray:
        """h(z) = Σᵢ αᵢyᵢK(xᵢ, z) + b after the first k updates, for every row z of Z."""
        Z = np.asarray(Z, dtype=float)
        if Z.ndim == 1:
            Z = Z.reshape(1, -1)
        if Z.ndim != 2 or Z.shape[1] != self.X.shape[1]:
            raise ValueError(f"Z must have shape (m, {self.X.shape[1]}), got {Z.shape}")
        alpha = self.alpha_after(k)
        b = self.b_after(k)
        used = np.flatnonzero(alpha)
        if len(used) == 0:
            return np.full(len(Z), b)
        coef = alpha[used] * self.y[used]
        return self.kernel.expansion(Z, self.X[used], coef) + b

    def decision_function(self, Z) -> np.ndarray:
        return self.decision_after(Z)

    def predict(self, Z) -> np.ndarray:
        return np.where(self.decision_function(Z) > 0, self.classes[1], self.classes[0])

    def record(self, k: int) -> PerceptronUpdate:
        """Update k (1-based)."""
        if not 1 <= self._check_k(k):
            raise ValueError("k must be ≥ 1: update 0 is the start")
        i = int(self.trace_i[k - 1])
        return PerceptronUpdate(update=k, epoch=int(self.trace_epoch[k - 1]),
                                visit=int(self.trace_visit[k - 1]), i=i, y=int(self.y[i]),
                                h=float(self.trace_h[k - 1]),
                                alpha_i=int((self.trace_i[:k] == i).sum()))


def _check(X, y, max_epochs, bias, seed):
    X = check_X(X)  # the engine's one check of X (named errors)
    y_pm, classes = check_y(y, len(X))
    check_integer("max_epochs", max_epochs, 1)
    if bias not in BIASES:
        raise ValueError(f"bias must be one of {', '.join(BIASES)}; got {bias!r}")
    check_integer("seed", seed, 0)
    return X, y_pm, classes


def kernel_perceptron(X, y, kernel, *, max_epochs: int = 100, bias: str = "free",
                      shuffle: bool = False, seed: int = 0) -> KernelPerceptronResult:
    """Train the kernel perceptron (module docstring). ``kernel``: an engine kernel
    (`svm_engine.Linear`, `Polynomial`, `Gaussian`). Order: data order (the seeds'
    pseudo-code), or with ``shuffle`` a new order every epoch from
    ``numpy.random.default_rng(seed)``. Raises ValueError naming a bad argument."""
    check_kernel(kernel)
    X, y_pm, classes = _check(X, y, max_epochs, bias, seed)
    n = len(X)
    K = kernel(X, X)
    if not np.isfinite(K).all():
        raise ValueError("the kernel's values overflow on these points (inf or NaN): scale "
                         "the points or lower the polynomial's degree")
    free = 1.0 if bias == "free" else 0.0
    # row i of K + b's 1 is what an update on xᵢ adds to every h(xⱼ): contiguous rows (K(X, X)
    # may come transposed), added in place
    rows = np.add(K, free, order="C")
    h = np.zeros(n)                       # h(xⱼ) for every j, kept up to date
    labels = y_pm.tolist()
    rng = np.random.default_rng(seed)
    tr_i: list[int] = []
    tr_epoch: list[int] = []
    tr_visit: list[int] = []
    tr_h: list[float] = []
    per_epoch: list[int] = []
    visit = 0
    clean = False
    for epoch in range(1, int(max_epochs) + 1):
        order = rng.permutation(n) if shuffle else range(n)
        mistakes = 0
        for i in order:
            visit += 1
            hi = float(h[i])
            yi = labels[i]
            if yi * hi > 0.0:
                continue
            mistakes += 1
            tr_i.append(int(i))
            tr_epoch.append(epoch)
            tr_visit.append(visit)
            tr_h.append(hi)
            # αᵢ ← αᵢ + 1 adds yᵢK(xᵢ, xⱼ) to every h(xⱼ), and b ← b + yᵢ adds yᵢ
            if yi > 0:
                h += rows[i]
            else:
                h -= rows[i]
        per_epoch.append(mistakes)
        if mistakes == 0:
            clean = True
            break
    trace_i = np.array(tr_i, dtype=np.int64)
    alpha = np.bincount(trace_i, minlength=n).astype(int)
    b = float(y_pm[trace_i].sum()) if free else 0.0
    margins = y_pm * (K @ (alpha * y_pm) + b)      # the independent recheck, from α
    wrong = int((margins <= 0).sum())
    converged = clean and wrong == 0
    epochs, updates = len(per_epoch), len(tr_i)
    if converged:
        status = (f"converged: epoch {epochs} made no mistake; every point is on its side "
                  f"after {_count(updates, 'update')}")
    elif clean:
        status = ("not converged: the last epoch made no update but a point lies on the "
                  "boundary when rechecked (rounding)")
    else:
        status = (f"not converged: stopped at the epoch cap ({_count(epochs, 'epoch')}, "
                  f"{_count(updates, 'update')}; {_count(per_epoch[-1], 'mistake')} in the last "
                  "epoch). Points that are not separable in the kernel's feature space make "
                  "it cycle for ever; on separable ones raise the epoch cap")
    return KernelPerceptronResult(
        alpha=alpha, b=b, converged=converged, epochs=epochs, n_updates=updates,
        mistakes_per_epoch=per_epoch, training_mistakes=wrong, trace_i=trace_i,
        trace_epoch=np.array(tr_epoch, dtype=np.int64),
        trace_visit=np.array(tr_visit, dtype=np.int64), trace_h=np.array(tr_h, dtype=float),
        status=status, X=X, y=y_pm, classes=classes, kernel=kernel, bias=bias,
        max_epochs=int(max_epochs), shuffle=bool(shuffle), seed=int(seed))


def _count(k: int, noun: str) -> str:
    return f"{k} {noun}" if k == 1 else f"{k} {noun}s"
