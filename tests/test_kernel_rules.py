"""Kernels built by the rules (svm_engine/kernel_rules.py): each is the elementwise combination
of the base kernels' matrices, its Gram matrix passes the Kernels page's Mercer check
(gram.mercer_check) on any points, and a difference, not a rule, can fail it."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import svm_engine as se
from svm_engine import gram
from svm_engine import kernel_rules as kr

G, P, L = se.Gaussian(sigma=0.7), se.Polynomial(degree=2, coef0=1.0), se.Linear()
points = hnp.arrays(np.float64, st.tuples(st.integers(1, 20), st.just(2)),
                    elements=st.floats(-2, 2, allow_nan=False))


def test_each_rule_is_the_elementwise_combination():
    X = np.random.default_rng(0).uniform(-1, 1, (6, 2))
    Z = np.random.default_rng(1).uniform(-1, 1, (4, 2))
    A, B = G(X, Z), P(X, Z)
    np.testing.assert_array_equal(kr.combine("sum", G, P)(X, Z), A + B)
    np.testing.assert_array_equal(kr.combine("product", G, P)(X, Z), A * B)
    np.testing.assert_array_equal(kr.combine("scale", G, a=2.5)(X, Z), 2.5 * A)
    np.testing.assert_array_equal(kr.combine("exp", L)(X, Z), np.exp(L(X, Z)))
    np.testing.assert_array_equal(kr.combine("difference", G, P)(X, Z), A - B)
    np.testing.assert_allclose(kr.diagonal(kr.combine("sum", G, P), Z), np.diag(G(Z, Z) + P(Z, Z)))
    assert "not a rule" in kr.combine("difference", G, P).label
    assert kr.combine("exp", L).label.startswith("exp(K₁)")


@settings(derandomize=True, max_examples=60, deadline=None)
@given(points, st.sampled_from(kr.KERNEL_RULES), st.sampled_from([(G, P), (P, L), (L, G)]),
       st.floats(0.1, 5))
def test_the_rules_give_kernels(X, rule, pair, a):
    """Every rule's Gram matrix is symmetric PSD up to the check's rounding allowance."""
    _, chk = kr.check_on(kr.combine(rule, *pair, a=a), X)
    assert chk.psd, (rule, chk.min_eigenvalue, chk.tolerance)


def test_a_difference_is_caught_by_the_eigenvalues():
    X = np.random.default_rng(2).uniform(-1, 1, (25, 2))
    _, chk = kr.check_on(kr.combine("difference", se.Gaussian(sigma=0.2), se.Gaussian(sigma=1.0)),
                         X)
    assert not chk.psd and chk.n_negative >= 1
    # the same check as the Kernels page's
    K = gram.gram_matrix(kr.combine("difference", se.Gaussian(sigma=0.2),
                                    se.Gaussian(sigma=1.0)), X)
    assert gram.mercer_check(K).min_eigenvalue == chk.min_eigenvalue


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="unknown rule 'quotient'"):
        kr.combine("quotient", G, P)
    with pytest.raises(ValueError, match="k2 is missing"):
        kr.combine("sum", G)
    with pytest.raises(ValueError, match="a \\(the scale\\) must be a finite number > 0"):
        kr.combine("scale", G, a=-1.0)
    big = np.array([[30.0, 30.0], [29.0, 31.0]])
    with pytest.raises(ValueError, match="overflow"):
        kr.check_on(kr.combine("exp", L), big)
    assert math.isinf(float(kr.combine("exp", L)(big, big)[0, 0]))
