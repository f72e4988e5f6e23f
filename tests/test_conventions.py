"""The conventions stated where they matter (issue 27 items 8 and 9)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from ui.shared import conventions as CV

SLIDES = Path("/work/shared/seeds/000_f9b4243b6c95d66b.txt")  # Zaki & Meira's ch. 21 slides


def test_sigma_is_given_with_its_gamma():
    assert "γ = 1/(2σ²) = 2" in CV.sigma_gamma(0.5)
    assert "γ = 1/(2σ²) = 0.5" in CV.sigma_gamma(1.0)


def test_the_slide_typos_are_the_seeds_own_and_named():
    if not SLIDES.exists():
        pytest.skip("the slides' text is not on this machine")
    slides = SLIDES.read_text(encoding="utf-8")
    assert "0.334x + 0.833y" in slides and "x16 = (3,3)" in slides
    assert "0.334x + 0.833y" in CV.SLIDE8_TYPO and "swapped" in CV.SLIDE8_TYPO
    assert "x16 = (3,3)" in CV.SLIDE23_TYPO and "(2, 3)" in CV.SLIDE23_TYPO


def test_support_count_note_only_when_counts_differ():
    assert CV.support_count_note([3, 3, 3], 5) is None
    text = CV.support_count_note([5, 3, 4, 3], 5)
    assert text.startswith("Why 3 / 4 / 5 support vectors") and "not unique" in text
    assert re.search(r"\b5 points lie exactly on the margin", text)


def test_worked_examples_state_the_coding_and_the_typos():
    from ui.worked_examples import examples as E

    assert CV.SLIDE8_TYPO in E.ex_d1_separable().notes
    assert CV.SLIDE23_TYPO in E.ex_d2_soft_margin().notes
    assert CV.SETOSA_CODING in E.ex_iris_sga().notes
