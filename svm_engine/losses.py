"""Loss functions of a classifier h as functions of the margin m = y·h(x).

Seed 003 (Purdue CS573) sets the SVM's hinge loss beside logistic regression's and the
perceptron's; the book (Zaki & Meira ch. 21, slides 19–20) has the hinge loss (k = 1)
and the quadratic loss (k = 2) of the soft-margin SVM. Every loss here is a function of the
one number m = yᵢh(xᵢ): m > 0 is a correct side, m ≥ 1 is on or beyond the margin.

| name           | L(m)                       | where it comes from                              |
|----------------|----------------------------|--------------------------------------------------|
| zero_one       | 1 if m ≤ 0 else 0          | the misclassification count (seed 003's score)   |
| hinge          | max(0, 1 − m)              | the SVM, k = 1: ξᵢ = max(0, 1 − yᵢh(xᵢ))         |
| squared_hinge  | max(0, 1 − m)²             | the book's quadratic loss, k = 2: ξᵢ²            |
| logistic       | log₂(1 + e^(−m))           | logistic regression's loss, in bits               |
| perceptron     | max(0, −m)                 | the perceptron's criterion (Rosenblatt 1958)     |

Conventions (stated, because they decide what is drawn):
- 0-1 counts m = 0 (a point on the boundary) as an error, as the perceptron's update rule
  ``if y·f(x) ≤ 0`` does (seed 003); `SVMModel.predict` sends h = 0 to classes[0], so a
  −1 point on the line is in fact predicted right: the convention is the cautious one.
- The logistic loss is taken in base 2, log₂(1 + e^(−m)) = ln(1 + e^(−m)) / ln 2: then
  L(0) = 1 and L(m) ≥ 1 for every m ≤ 0, so it bounds the 0-1 loss from above, as the hinge
  and the squared hinge do. In the natural base (logistic regression's negative
  log-likelihood) L(0) = ln 2 ≈ 0.693 and it does not.
- The perceptron loss is 0 at m = 0: it is *not* an upper bound of the 0-1 loss, and it is 0
  for every correctly classified point however close to the line (why the perceptron stops
  at any separating line, while the SVM goes on to the widest margin).

Only numpy. ``margins(model, X, y)`` works with any object that has ``decision_function``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np


def zero_one(m) -> np.ndarray:
    """1 if m ≤ 0 else 0 (a point on the boundary counts as an error)."""
    return np.where(np.asarray(m, dtype=float) <= 0, 1.0, 0.0)


def hinge(m) -> np.ndarray:
    """max(0, 1 − m): the slack ξ of the soft-margin SVM (k = 1)."""
    return np.maximum(0.0, 1.0 - np.asarray(m, dtype=float))


def squared_hinge(m) -> np.ndarray:
    """max(0, 1 − m)²: the book's quadratic loss ξ² (k = 2)."""
    return hinge(m) ** 2


def logistic(m) -> np.ndarray:
    """log₂(1 + e^(−m)), computed as logaddexp(0, −m) / ln 2 (no overflow for m ≪ 0)."""
    return np.logaddexp(0.0, -np.asarray(m, dtype=float)) / math.log(2.0)


def perceptron(m) -> np.ndarray:
    """max(0, −m): the perceptron criterion; 0 for every correct point."""
    return np.maximum(0.0, -np.asarray(m, dtype=float))


@dataclass(frozen=True)
class Loss:
    name: str
    label: str      # for a legend
    formula: str    # plain text, as the table above
    fn: Callable[[np.ndarray], np.ndarray]
    bounds_zero_one: bool  # L(m) ≥ 0-1 loss for every m

    def __call__(self, m) -> np.ndarray:
        return self.fn(m)


LOSSES = (
    Loss("zero_one", "0-1", "1 if m ≤ 0 else 0", zero_one, True),
    Loss("hinge", "hinge (k = 1)", "max(0, 1 − m)", hinge, True),
    Loss("squared_hinge", "squared hinge (k = 2)", "max(0, 1 − m)²", squared_hinge, True),
    Loss("logistic", "logistic (base 2)", "log₂(1 + e^(−m))", logistic, True),
    Loss("perceptron", "perceptron", "max(0, −m)", perceptron, False),
)
BY_NAME = {loss.name: loss for loss in LOSSES}
NAMES = tuple(BY_NAME)


def get(name: str) -> Loss:
    if name not in BY_NAME:
        raise ValueError(f"unknown loss {name!r}; expected one of {', '.join(NAMES)}")
    return BY_NAME[name]


def margins(model, X, y) -> np.ndarray:
    """m = yᵢ·h(xᵢ) for labels y in ±1 (h = model.decision_function)."""
    y = np.asarray(y, dtype=float)
    if y.ndim != 1 or not np.isin(y, (-1.0, 1.0)).all():
        raise ValueError("y must be a 1-D array of labels +1/−1")
    h = np.asarray(model.decision_function(X), dtype=float)
    if h.shape != y.shape:
        raise ValueError(f"{len(y)} labels for {len(h)} points; expected one label per point")
    return y * h


def point_losses(m) -> dict[str, np.ndarray]:
    """Every loss of the margins m: {name: L(m)} (one array per loss, same order as m)."""
    m = np.asarray(m, dtype=float)
    return {loss.name: loss(m) for loss in LOSSES}


def totals(m) -> dict[str, float]:
    """Σᵢ L(mᵢ) for every loss: the 0-1 total is the number of errors (m ≤ 0), the hinge
    total is Σξᵢ of that h, the squared hinge's Σξᵢ²."""
    return {name: float(v.sum()) for name, v in point_losses(m).items()}
