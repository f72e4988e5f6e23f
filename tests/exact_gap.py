"""The duality gap of a fitted model in exact rational arithmetic (fractions.Fraction from the
very floats the model holds): an independent check of a "converged" claim that no rounding
can fool. Linear and polynomial kernels, free bias, hinge or quadratic loss, small n."""

from __future__ import annotations

from fractions import Fraction

import svm_engine as se


def _k(kernel, x, z) -> Fraction:
    dot = sum(Fraction(a) * Fraction(b) for a, b in zip(x, z, strict=True))
    if isinstance(kernel, se.Linear):
        return dot
    if isinstance(kernel, se.Polynomial):
        return (Fraction(kernel.coef0) + dot) ** kernel.degree
    raise ValueError(f"no exact kernel for {kernel!r}")


def exact_objectives(model, X, y, kernel, C: float, quadratic: bool) -> tuple[Fraction, Fraction]:
    """(primal, dual) of the model's own α and b: P = ½‖w‖² + C Σ ξᵏ, D = Σα − ½αᵀQα."""
    n = len(y)
    a = [Fraction(float(v)) for v in model.alpha]
    b = Fraction(float(model.b))
    K = [[_k(kernel, X[i], X[j]) for j in range(n)] for i in range(n)]
    g = [sum(a[j] * y[j] * K[i][j] for j in range(n)) for i in range(n)]
    w2 = sum(a[i] * y[i] * g[i] for i in range(n))
    xi = [max(Fraction(0), 1 - y[i] * (g[i] + b)) for i in range(n)]
    Cf = Fraction(C)
    if quadratic:
        primal = w2 / 2 + Cf * sum(v * v for v in xi)
        dual = sum(a) - (w2 + sum(v * v for v in a) / (2 * Cf)) / 2
    else:
        primal = w2 / 2 + Cf * sum(xi)
        dual = sum(a) - w2 / 2
    return primal, dual


def exact_relative_gap(model, X, y, kernel, C: float, quadratic: bool = False) -> float:
    primal, dual = exact_objectives(model, X, y, kernel, C, quadratic)
    return float(abs(primal - dual) / max(abs(primal), abs(dual)))
