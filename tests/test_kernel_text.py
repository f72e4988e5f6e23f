"""Sentences of the Kernels page that state mathematics (issue 27)."""
from __future__ import annotations

from svm_engine import datasets
from ui.kernels.compute import gram_study
from ui.kernels.text import curvature_sentence


def test_a_psd_gram_promises_one_optimal_value_not_one_maximiser():
    d = datasets.d1()
    study = gram_study(d.X, d.y, "polynomial", {"degree": 1, "coef0": 0.0}, C=1.0)
    assert study.check.psd
    text = curvature_sentence(study)
    assert "one maximum" not in text
    assert "optimal value" in text
    # the maximiser need not be unique: D1 (Worked example 1) has several optimal α
    assert "need not be unique" in text and "Worked example 1" in text
