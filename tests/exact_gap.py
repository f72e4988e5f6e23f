"""The duality gap of a fitted model in exact rational arithmetic (fractions.Fraction from the
very floats the model holds): an independent check of a "converged" claim that no rounding
can fool. Linear and polynomial kernels, hinge or quadratic loss, either bias, small n.
Also the audit's example of issue 33 item 9 (a claim double precision could not back)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

ITEM9_X = [[-0.5775657998962147, -0.8941318475014011], [0.1242741689731186, -0.6155336824693594],
           [-0.7553303877749973, 0.4580458235139113], [-0.9162801405525571, 0.39790332192503497],
           [-0.17769959041008399, -0.13199056141468346],
           [-0.3166791322389306, -0.7714492030267452], [0.07277994648064867, 0.4320973322006265],
           [0.17846749389893923, 0.6298533789974761]]
ITEM9_Y = [-1, -1, 1, -1, -1, 1, -1, 1]


def exact_gap(m) -> tuple[Fraction, Fraction]:
    """(primal − dual, max(|primal|, |dual|)) of the model's α and b, exactly (linear and
    polynomial kernels, hinge or quadratic loss, either bias)."""
    X = [[Fraction(float(v)) for v in row] for row in np.asarray(m.X)]
    y = [int(v) for v in m.y]
    a = [Fraction(float(v)) for v in m.alpha]
    b = Fraction(float(m.b))
    n = len(y)
    kern = m.kernel
    def k(u, v):
        dot = sum(p * q for p, q in zip(u, v))
        if kern.name == "linear":
            return dot
        return (Fraction(kern.coef0) + dot) ** kern.degree
    K = [[k(X[i], X[j]) for j in range(n)] for i in range(n)]
    aug = m.bias == "augmented"
    g = [sum(a[j] * y[j] * K[i][j] for j in range(n)) for i in range(n)]
    s = sum(a[j] * y[j] for j in range(n))
    w2 = sum(a[i] * y[i] * g[i] for i in range(n))
    h = [g[i] + (s if aug else b) for i in range(n)]
    xi = [max(Fraction(0), 1 - y[i] * h[i]) for i in range(n)]
    C = Fraction(m.C)
    quad = m.loss == "quadratic"
    primal = (w2 + (s * s if aug else 0)) / 2 + C * sum(x * x if quad else x for x in xi)
    a2 = sum(v * v for v in a)
    dual = sum(a) - (w2 + (s * s if aug else 0) + (a2 / (2 * C) if quad else 0)) / 2
    return primal - dual, max(abs(primal), abs(dual))


def exact_relative_gap(m) -> float:
    gap, scale = exact_gap(m)
    return float(abs(gap) / scale)

