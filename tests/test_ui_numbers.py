"""ui.shared.numbers: how every page prints a number (and the equations and kernel labels
built from it)."""

import math

import numpy as np
import pytest

import svm_engine as se
from svm_engine import gram
from svm_engine.feature_maps import FeaturePlane
from ui.kernels.text import preimage_equation
from ui.shared import numbers as N
from ui.shared.labels import kernel_formula


@pytest.mark.parametrize("v, digits, text", [
    (-0.25, 4, "−0.25"),
    (1.5e-7, 4, "1.5·10⁻⁷"),
    (123456.0, 4, "1.235·10⁵"),
    (-3.33333333, 6, "−3.33333"),
    (0.0, 4, "0"),
    (-0.0, 4, "0"),            # a zero has no sign (fmt_fixed neither)
    (math.inf, 4, "∞"),
    (-math.inf, 4, "−∞"),
    (math.nan, 4, "–"),
    (None, 4, "–"),
])
def test_significant_digits(v, digits, text):
    assert N.fmt_num(v, digits) == text


def test_a_setting_prints_as_chosen():
    # the C and σ grids, a book's C = 4, a link's σ = 0.015: in full, no exponent
    assert [N.fmt_setting(v) for v in (0.001, 0.015, 4.0, 10000.0, 1.5)] == [
        "0.001", "0.015", "4", "10000", "1.5"]
    assert N.fmt_setting(math.inf) == "∞" and N.fmt_setting(-1.0) == "−1"


def test_fixed_decimals_have_no_signed_zero():
    assert N.fmt_fixed(-3.33274, 3) == "−3.333"
    assert N.fmt_fixed(-0.0001, 3) == "0.000"  # not "−0.000"
    assert N.fmt_fixed(2.0, 0) == "2" and N.fmt_fixed(math.nan, 2) == "–"


def test_latex_numbers_have_the_same_digits():
    assert N.fmt_tex(-0.25) == "-0.25"
    assert N.fmt_tex(1.5e-7) == r"1.5\cdot 10^{-7}"
    assert N.fmt_tex(math.inf) == r"\infty" and N.fmt_tex(None) == r"\text{–}"
    assert N.fmt_tex_factor(-0.5) == "(-0.5)" and N.fmt_tex_factor(0.5) == "0.5"
    for v in (0.123456, -98.7654, 3e-9):  # the digits fmt_num prints
        plain = N.fmt_num(v).replace(N.MINUS, "-")
        assert N.fmt_tex(v).split(r"\cdot")[0] == plain.split("·")[0]


def test_hyperplane_equation_as_the_book_writes_it():
    assert N.hyperplane_equation([0.8333, -0.3333], -3.3333) == (
        "0.833·x1 − 0.333·x2 − 3.333 = 0"
    )
    assert N.hyperplane_equation([-1, 2], 0.5) == "−1.000·x1 + 2.000·x2 + 0.500 = 0"
    assert N.hyperplane_equation([1, 2, 3], 0, decimals=1) == (
        "1.0·x1 + 2.0·x2 + 3.0·x3 + 0.0 = 0"
    )


def test_a_rounded_zero_coefficient_has_no_sign():
    # −0.0001 prints as 0.000: "+ 0.000", as fmt_fixed prints it, not "− 0.000"
    assert N.hyperplane_equation([-1e-4, 2], -1e-4) == "0.000·x1 + 2.000·x2 + 0.000 = 0"


def test_linear_combination_signs_and_zeros():
    terms = [(-0.5, "x1²"), (1e-4, "x1x2"), (-2.25, "x2"), (3.0, "")]
    assert N.linear_combination(terms) == "−0.500·x1² + 0.000·x1x2 − 2.250·x2 + 3.000"
    assert N.linear_combination(terms, 1, drop_zeros=True) == "−0.5·x1² − 2.2·x2 + 3.0"
    # the first printed term carries the sign when the ones before it are dropped
    assert N.linear_combination([(1e-9, "a"), (-4.0, "b")], drop_zeros=True) == "−4.000·b"
    assert N.linear_combination([(0.0, "a"), (-1e-9, "")], drop_zeros=True) == "0"
    assert N.linear_combination([(math.inf, "a"), (math.nan, "")]) == "∞·a + –"


def test_percentages_and_latex_decimals():
    assert N.fmt_pct(0.93333) == "93.3 %" and N.fmt_pct(1.0, 0) == "100 %"
    assert N.fmt_pct(None) == "–"
    assert [N.fmt_tex_decimals(v, 4) for v in (-2.0, 0.5, 1 / 3, -1e-9, 1234.0)] == [
        "-2", "0.5", "0.3333", "0", "1234"]
    assert N.fmt_tex_decimals(math.inf, 3) == r"\infty"


def test_the_kernels_pages_conic_is_written_by_the_same_rule():
    # w_φ = (1, 0, −1), b = 0 (the two points (1, 0) and (0, 1), worked by hand)
    assert preimage_equation(FeaturePlane(0.0, np.array([1.0, 0.0, -1.0]), 0.0)) == (
        "1.000·x1² − 1.000·x2² = 0")
    # c = 2: D = √(2c)·w₄ = 2·(−0.5), E = 2·1e-5 prints as 0 and is left out, F = c·w₆ + b
    plane = FeaturePlane(2.0, np.array([-0.25, 0.0, 0.5, -0.5, 1e-5, 1.0]), -3.0)
    assert preimage_equation(plane) == "−0.250·x1² + 0.500·x2² − 1.000·x1 − 1.000 = 0"
    assert preimage_equation(FeaturePlane(0.0, np.zeros(3), 0.0)) == "0 = 0"


def test_kernel_labels_print_their_numbers_as_the_pages_do():
    assert kernel_formula(se.Polynomial(2, -1.0)) == (
        "polynomial (inhomogeneous)  K(x,z) = (−1 + xᵀz)^2")
    assert kernel_formula(se.Polynomial(3, 0.0)) == "polynomial (homogeneous)  K(x,z) = (0 + xᵀz)^3"
    assert kernel_formula(se.Gaussian(1e-5)) == "Gaussian  K(x,z) = exp(−‖x−z‖² / (2·(1·10⁻⁵)²))"
    assert kernel_formula(se.Gaussian(0.5)) == "Gaussian  K(x,z) = exp(−‖x−z‖² / (2·0.5²))"
    assert kernel_formula(gram.Sigmoid(0.5, -2.0)) == "sigmoid  K(x,z) = tanh(0.5·xᵀz − 2)"
    assert kernel_formula(se.Linear()) == "linear  K(x,z) = xᵀz"
