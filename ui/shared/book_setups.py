"""The settings the book uses with its datasets: each worked example's "Open in Playground"
targets (``Setup``: a dataset and the Playground settings, partial), by example key.

The Worked examples page computes and explains them (``ui.worked_examples.examples``: an
example's ``setups`` are ``SETUPS[key]``); the Playground's teacher presets open them
(``ui.playground.teacher.PRESETS``: an example key and a setup's index), so the two pages show
the same points with the same settings. Pure: no streamlit.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from svm_engine import datasets


@dataclass(frozen=True)
class Setup:
    """An "Open in Playground" target: a dataset and Playground settings (partial)."""

    label: str
    dataset: str
    settings: Mapping[str, Any]


def _aug(C, solver="sga", **kw) -> dict:
    return {"C": C, "bias": "augmented", "solver": solver, **kw}


SETUPS: dict[str, tuple[Setup, ...]] = {
    "d1": (Setup("D1, hard margin", "d1", {"C": math.inf, "solver": "smo"}),),
    "d2": (Setup("D2, C = 1", "d2", {"C": 1.0, "solver": "smo"}),),
    "iris": (Setup("h10 (C = 10)", "iris_setosa", _aug(10.0)),
             Setup("h1000 (C = 1000)", "iris_setosa", _aug(1000.0)),
             Setup("free bias, C = 10", "iris_setosa",
                   {"C": 10.0, "bias": "free", "solver": "smo"})),
    "kernels": (Setup("hl (linear)", "iris_versicolor_pca", _aug(10.0, kernel="linear")),
                Setup("hq (quadratic)", "iris_versicolor_pca",
                      _aug(10.0, kernel="polynomial", degree=2, coef0=1.0))),
    "nonlinear": (Setup("quadratic kernel, C = 4", "nonlinear",
                        {"kernel": "polynomial", "degree": 2, "coef0": 1.0, "C": 4.0}),),
    "dual_primal": (Setup("hd: SVM-Dual", "iris_setosa", _aug(10.0)),
                    Setup("hp: SVM-Primal", "iris_setosa",
                          _aug(10.0, "newton", loss="quadratic"))),
    "two_point": (Setup("two points, hard margin", "two_point",
                        {"C": math.inf, "solver": "qp"}),),
    "psvm": (Setup("PSVM", "d2", _aug(1.0, "psvm", loss="quadratic")),
             Setup("SVM, C = 1", "d2", {"C": 1.0, "solver": "smo"})),
}


def playground_target(setup: Setup) -> tuple[np.ndarray, np.ndarray, dict, str]:
    """(X, y, settings, title) to hand to ``ui.shared.state.load_into_playground``."""
    d = datasets.load(setup.dataset)
    settings = {**d.settings, **setup.settings}
    return d.X, d.y, settings, f"{d.title} — {setup.label}"
