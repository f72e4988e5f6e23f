"""Rosenblatt's perceptron (1958), as seed 003 (Purdue CS573, "LearnPerceptron") states it.

Problem: find *some* line h(x) = wᵀx + b with yᵢh(xᵢ) > 0 for every point — any separating
line, not the widest one (that is the SVM). Learning (seed 003):

    w ← 0, b ← 0
    for each epoch, for each point (xᵢ, yᵢ) in the epoch's order:
        if yᵢ(wᵀxᵢ + b) ≤ 0:          a mistake (a point on the line counts as one)
            w ← w + η·yᵢ·xᵢ,  b ← b + η·yᵢ

The run stops after an epoch without mistakes (converged: every yᵢh(xᵢ) > 0, checked again
on all points at the end) or at the epoch cap (on data that are not linearly separable the
perceptron never converges: it cycles, seed 003). The perceptron convergence theorem
(Novikoff 1962): on separable data, started at 0, it makes at most (R/γ)² updates, where
R = maxᵢ‖x′ᵢ‖ and γ = minᵢ yᵢ u′ᵀx′ᵢ for any unit-length separator u′ (x′ = (x, 1), u′ = (w, b)
normalised, with the free bias); `novikoff_bound` computes it.

| seed 003        | here            | meaning                                                |
|-----------------|-----------------|--------------------------------------------------------|
| x(j), y(j)      | X[i], y[i]      | a point and its label ±1                               |
| wᵢ, b           | w, b            | the weights and the bias of f(x) = Σ wᵢxᵢ + b          |
| learnRate η     | eta             | the step; from w = b = 0 it only scales w and b: the   |
|                 |                 | same points are updated in the same order for any η    |
|                 |                 | (in exact arithmetic)                                  |
| numIters        | max_epochs      | the cap on passes over the data                        |
| e = η·y         |                 | the update's sign and size                             |

bias="free" is the seed's rule (b ← b + ηy), which is the same arithmetic as the augmented
vector x′ = (x, 1) with w′ = (w, b); bias="none" keeps b = 0 (a line through the origin).
order: shuffle=True visits the points in a new random order every epoch, drawn from
``numpy.random.default_rng(seed)`` (the same seed, the same run); shuffle=False visits them
in data order, as the seed's pseudo-code does.

The trace is data: one record per update (dict; see `perceptron`), at most TRACE_CAP records
(the run goes on; `trace_truncated` says so). Cost: one visit per point per epoch, plain
Python (~1 µs a visit): callers with a time budget cap n·max_epochs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from .validation import check_integer, check_number, check_X, check_y

BIASES = ("free", "none")
TRACE_CAP = 5000


@dataclass(eq=False)
class PerceptronResult:
    w: np.ndarray
    b: float
    converged: bool          # an epoch without mistakes, and every yᵢh(xᵢ) > 0 rechecked
    epochs: int              # epochs run (the last one is the clean one when converged)
    n_updates: int           # mistakes = updates over the whole run
    mistakes_per_epoch: list[int]
    trace: list[dict]
    trace_truncated: bool
    status: str
    X: np.ndarray
    y: np.ndarray            # ±1
    classes: np.ndarray      # classes[0] ↦ −1, classes[1] ↦ +1
    eta: float
    bias: str
    max_epochs: int
    shuffle: bool
    seed: int
    orders: list = field(default_factory=list, repr=False)  # the visiting order of each epoch

    def decision_function(self, Z) -> np.ndarray:
        Z = np.asarray(Z, dtype=float)
        if Z.ndim == 1:
            Z = Z.reshape(1, -1)
        if Z.ndim != 2 or Z.shape[1] != len(self.w):
            raise ValueError(f"Z must have shape (m, {len(self.w)}), got {Z.shape}")
        return Z @ self.w + self.b

    def predict(self, Z) -> np.ndarray:
        return np.where(self.decision_function(Z) > 0, self.classes[1], self.classes[0])


def _check(X, y, eta, max_epochs, bias, seed):
    X = check_X(X)  # the engine's one check of X (named errors)
    y_pm, classes = check_y(y, len(X))
    check_number("eta (the learning rate)", eta, 0)
    check_integer("max_epochs", max_epochs, 1)
    if bias not in BIASES:
        raise ValueError(f"bias must be one of {', '.join(BIASES)}; got {bias!r}")
    check_integer("seed", seed, 0)
    return X, y_pm, classes


def perceptron(X, y, *, eta: float = 1.0, max_epochs: int = 100, bias: str = "free",
               shuffle: bool = True, seed: int = 0) -> PerceptronResult:
    """Train the perceptron (module docstring). Raises ValueError naming a bad argument.

    Trace record keys: update (1-based count), epoch (1-based), visit (1-based position in the
    run), i (the point's index), x (list), y (±1), f (wᵀx + b before the update), w_before,
    b_before, w_after, b_after, mistakes (this epoch's mistakes so far, this one included).
    """
    X, y_pm, classes = _check(X, y, eta, max_epochs, bias, seed)
    n, d = X.shape
    eta = float(eta)
    rows = [tuple(map(float, r)) for r in X]
    labels = [float(v) for v in y_pm]
    w = [0.0] * d
    b = 0.0
    free = bias == "free"
    rng = np.random.default_rng(seed)
    trace: list[dict] = []
    truncated = False
    per_epoch: list[int] = []
    orders: list[np.ndarray] = []
    clean = False
    visit = 0
    n_updates = 0
    for epoch in range(1, int(max_epochs) + 1):
        order = rng.permutation(n) if shuffle else np.arange(n)
        orders.append(order)
        mistakes = 0
        for i in order.tolist():
            visit += 1
            x, yi = rows[i], labels[i]
            f = b
            for k in range(d):
                f += w[k] * x[k]
            if yi * f > 0.0:
                continue
            mistakes += 1
            n_updates += 1
            e = eta * yi
            w_new = [w[k] + e * x[k] for k in range(d)]
            b_new = b + e if free else 0.0
            if len(trace) < TRACE_CAP:
                trace.append({"update": n_updates, "epoch": epoch, "visit": visit, "i": i,
                              "x": list(x), "y": int(yi), "f": f, "w_before": list(w),
                              "b_before": b, "w_after": list(w_new), "b_after": b_new,
                              "mistakes": mistakes})
            else:
                truncated = True
            w, b = w_new, b_new
        per_epoch.append(mistakes)
        if mistakes == 0:
            clean = True
            break
    w_arr = np.array(w)
    margins = y_pm * (X @ w_arr + b)       # the independent check, vectorised
    separated = bool((margins > 0).all())
    converged = clean and separated
    epochs = len(per_epoch)
    if converged:
        status = (f"converged: epoch {epochs} made no mistake; every point is on its side "
                  f"(smallest y·h(x) = {margins.min():.4g}) after {_count(n_updates, 'update')}")
    elif clean:
        status = ("not converged: the last epoch made no update but a point lies on the line "
                  "when rechecked (rounding); try another seed or learning rate")
    else:
        status = (f"not converged: stopped at the epoch cap ({_count(epochs, 'epoch')}, "
                  f"{_count(n_updates, 'update')}; {_count(per_epoch[-1], 'mistake')} in the last "
                  "epoch). On data that are not "
                  "linearly separable the perceptron never converges (it cycles); on separable "
                  "data raise max_epochs")
    return PerceptronResult(
        w=w_arr, b=float(b), converged=converged, epochs=epochs, n_updates=n_updates,
        mistakes_per_epoch=per_epoch, trace=trace, trace_truncated=truncated, status=status,
        X=X, y=y_pm, classes=classes, eta=eta, bias=bias, max_epochs=int(max_epochs),
        shuffle=bool(shuffle), seed=int(seed), orders=orders)


def weights_after(result: PerceptronResult, k: int) -> tuple[np.ndarray, float]:
    """(w, b) after the first k updates (k = 0: the start, w = 0, b = 0), from the trace."""
    if not (0 <= k <= len(result.trace)):
        raise ValueError(f"k must be between 0 and {len(result.trace)} (the recorded updates), "
                         f"got {k}")
    if k == 0:
        return np.zeros(len(result.w)), 0.0
    rec = result.trace[k - 1]
    return np.array(rec["w_after"]), float(rec["b_after"])


def novikoff_bound(X, y, w, b: float = 0.0, bias: str = "free") -> tuple[float, float, float]:
    """(R, γ, (R/γ)²) of the perceptron convergence theorem for the separator (w, b).

    x′ = (x, 1) and u′ = (w, b)/‖(w, b)‖ with the free bias (the perceptron's b is a weight on
    a constant 1), x′ = x and u′ = w/‖w‖ with bias="none". R = maxᵢ‖x′ᵢ‖, γ = minᵢ yᵢu′ᵀx′ᵢ.
    Any separator gives a valid bound; the one with the largest γ — the hard-margin SVM of
    the same augmented problem (`svm_engine.fit(..., bias="augmented", C=math.inf)`) — gives
    the smallest. γ ≤ 0 (not a separator): the bound is inf.
    """
    if bias not in BIASES:
        raise ValueError(f"bias must be one of {', '.join(BIASES)}; got {bias!r}")
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    u = np.asarray(w, dtype=float)
    if bias == "free":
        X = np.hstack([X, np.ones((len(X), 1))])
        u = np.append(u, float(b))
    norm = float(np.linalg.norm(u))
    R = float(np.sqrt(np.einsum("ij,ij->i", X, X).max()))
    gamma = float((y * (X @ u)).min() / norm) if norm > 0 else 0.0
    bound = (R / gamma) ** 2 if gamma > 0 else math.inf
    return R, gamma, bound


def _count(k: int, noun: str) -> str:
    """ "1 mistake", "3 mistakes": the status is read as a sentence."""
    return f"{k} {noun}" if k == 1 else f"{k} {noun}s"
