"""Issue 33, items 9, 10 and 13 (engine): the fuzz cases of the reliability audit, verbatim.

Item 9's claim is checked in extended precision: the primal and dual objectives of the
model's own α and b are recomputed exactly (Python fractions: the linear and polynomial
kernels are sums of products of the doubles), and "converged" must never be claimed when
that exact gap exceeds the tolerance the certificate states (GAP_RTOL relative), with a
factor 3 for the rounding the certificate may add (its allowance ≤ GAP_RTOL · scale, twice).
"""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest

import svm_engine as se
from svm_engine.certify import FailureKind
from tests.exact_gap import ITEM9_X, ITEM9_Y, exact_gap


def assert_claim_exact(m) -> None:
    if not m.converged:
        return
    gap, scale = exact_gap(m)
    assert abs(gap) <= 3 * Fraction(se.certify.GAP_RTOL) * scale, (
        f"converged claimed, but the exact gap is {float(gap):.3g} "
        f"({float(gap / scale):.3g} relative)")


ROUNDING_KINDS = (FailureKind.ROUNDING, FailureKind.OBJECTIVE_ROUNDING)


def test_item9_converged_only_when_the_exact_gap_backs_it():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", se.ConvergenceWarning)
        m = se.fit(ITEM9_X, ITEM9_Y, kernel=se.Polynomial(3, 59.119), C=547155.35, solver="smo")
    gap, scale = exact_gap(m)
    assert float(abs(gap) / scale) > 1e-5          # what the audit found: 6.0e-5 / ~2
    assert not m.converged, m.status
    assert m.status.startswith("not converged: ")
    assert m.diagnostics.certificate.failure.kind in ROUNDING_KINDS   # its words: test_fit_words


def test_item10_psvm_singular_system_is_no_bare_numpy_error():
    # main's fix (a7ffeca): least squares, judged by the certificate like any answer
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", se.ConvergenceWarning)
        m = se.fit([[0, 0], [0, 0], [1, 1], [1, 1], [2, 0], [0, 2]], [1, 1, -1, -1, 1, -1],
                   kernel=se.Polynomial(10, 10), C=1, loss="quadratic", bias="augmented",
                   solver="psvm")
    assert "Singular matrix" not in m.status
    assert not m.converged and m.status.startswith("not converged: "), m.status


def test_item13_negative_coef0_is_refused_as_the_doc_says():
    with pytest.raises(ValueError, match="not a kernel"):
        se.fit([[0, 0], [1, 1]], [1, -1], kernel=se.Polynomial(2, -1.0))
    from pathlib import Path
    doc = (Path(__file__).parents[1] / "docs" / "engine_api.md").read_text()
    assert "se.fit` refuses `Polynomial(coef0 < 0)`" in doc
    assert "se.fit` accepts `Polynomial(coef0 < 0)`" not in doc


@pytest.mark.parametrize("seed", range(6))
def test_item9_random_large_C_polynomial_claims_hold_exactly(seed):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, size=(8, 2))
    y = np.where(rng.random(8) < 0.5, -1, 1)
    y[:2] = (-1, 1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", se.ConvergenceWarning)
        m = se.fit(X, y, kernel=se.Polynomial(3, 10.0 ** rng.uniform(0, 2)),
                   C=10.0 ** rng.uniform(3, 6), solver="smo")
    assert_claim_exact(m)
    assert math.isfinite(m.dual_objective)
