"""Take the Playground's model away: its JSON file and the scikit-learn code that rebuilds it
(pure; no streamlit). The fit is the Playground's own (``fitting.fit_points``: the same
settings, tolerance and caps), run in a budget worker by the panel; the files come from
``svm_engine.export``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from svm_engine import export
from ui.shared import fitting


@dataclass(frozen=True)
class Takeaway:
    """The model's files, or ``error`` (the fit's message) with both empty."""

    json_text: str = ""
    code: str = ""
    estimator: str = ""   # "SVC", "LinearSVC", "RidgeClassifier" or "none" (a replica)
    why: str = ""         # export.sklearn_plan's sentence
    converged: bool = False
    error: str | None = None


def file_stem(title: str) -> str:
    """'svm_lab_model_book_d1' from a dataset title: letters, digits and _ only, ≤ 60."""
    slug = re.sub(r"[^a-z0-9]+", "_", str(title).lower()).strip("_")[:40]
    return "svm_lab_model" + (f"_{slug}" if slug else "")


def build(X, y, settings: Mapping[str, Any], title: str) -> Takeaway:
    """Fit as the Playground does and export the model (runs in a budget worker)."""
    out = fitting.fit_points(X, y, settings)
    if not out.ok:
        return Takeaway(error=out.error)
    m = out.model
    estimator, why = export.sklearn_plan(m)
    return Takeaway(json_text=export.to_json(m), code=export.sklearn_code(m, title=title),
                    estimator=estimator, why=why, converged=bool(m.converged))
