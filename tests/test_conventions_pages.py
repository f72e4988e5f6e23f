"""Issue 27 item 9: the conventions said on the pages where they matter, read off the pages:
σ and γ (Kernels), t / y(x) (Regression), setosa's −1 and the slides' misprints (Worked
examples), and why the solvers count 3 / 4 / 5 support vectors on D1 (Compare solvers)."""

import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

import svm_engine as se
from svm_engine import datasets
from ui.compare.sv_count import sv_count_note
from ui.kernels import compute as KC
from ui.worked_examples import examples as E

ROOT = Path(__file__).resolve().parents[1] / "pages"


def run(page: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / page), default_timeout=300).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def captions(at) -> str:
    return " ".join(str(c.value) for c in at.caption)


def test_kernels_page_gives_gamma_for_every_sigma():
    words = captions(run("5_kernels.py"))
    assert "γ = 1/(2σ²)" in words
    assert words.count(" ↔ γ = ") == len(KC.SIGMAS)
    assert "σ = 1 ↔ γ = 0.5" in words


def test_regression_page_says_t_and_y_of_x():
    words = captions(run("8_regression.py"))
    assert "t is a point's target and y(x) the fitted function" in words


def test_worked_examples_name_the_slides_misprints_and_the_setosa_coding():
    d1, d2, iris = E.compute("d1"), E.compute("d2"), E.compute("iris")
    assert any("0.334x + 0.833y" in n and "swapped" in n for n in d1.notes)
    assert any("(3, 3)" in n and "x16 = (2, 3)" in n for n in d2.notes)
    assert any(n.startswith("Setosa is the class −1") for n in iris.notes)
    assert datasets.d2().X[15].tolist() == [2.0, 3.0]              # what the note says
    iris_d = datasets.iris_setosa()
    assert set(iris_d.y[:50]) == {-1}                              # the first 50 are setosa


def test_compare_page_explains_different_support_vector_counts_on_d1():
    at = run("4_compare_solvers.py")
    words = captions(at)
    assert "support vectors for the same w and b" in words
    d = datasets.d1()
    smo = se.fit(d.X, d.y, C=float("inf"), solver="smo")
    qp = se.fit(d.X, d.y, C=float("inf"), solver="qp")
    assert smo.n_support != qp.n_support            # the premise: 3 against 4 or 5
    (listed,) = re.findall(r"The solvers report ([\d /]+) support vectors", words)
    counts = {int(c) for c in listed.split(" / ")}
    assert {smo.n_support, qp.n_support} <= counts and len(counts) >= 2
    assert "on the margin" in words


def test_sv_count_note_is_silent_when_the_counts_agree():
    d = datasets.d1()
    smo = se.fit(d.X, d.y, C=float("inf"), solver="smo")
    assert sv_count_note([smo, smo]) == ""
