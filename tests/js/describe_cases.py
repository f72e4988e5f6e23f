"""The expected texts of tests/js/describe.test.mjs, written by Python: for a few Playground
answers (``ui.serving.fit_api.answer``: linear, kernels, slack and mistakes, many support
vectors, one class only), the part of the answer the browser's describe.js reads and what
``ui.shared.describe`` says of the same fit. Writes tests/js/describe_cases.json;
tests/test_describe.py fails when that file is stale.

    .venv/bin/python tests/js/describe_cases.py     # after a change to ui/shared/describe.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from svm_engine import datasets  # noqa: E402
from ui.serving import fit_api  # noqa: E402
from ui.shared import fitting  # noqa: E402
from ui.shared.describe import describe_model, describe_points  # noqa: E402
from ui.shared.labels import KERNEL_LABELS  # noqa: E402
from ui.shared.settings import DEFAULTS  # noqa: E402

OUT = Path(__file__).with_name("describe_cases.json")
#: what describe.js reads of an answer
FIELDS = ("ok", "kind", "message", "panel", "free", "bound", "slack_idx", "misclassified")
TABLE = "The fit's numbers"
#: the numbers panel's rows it reads (the others, the time among them, change from run to run)
ROWS = ("hyperplane", "margin 1/‖w‖", "total slack Σξ")


def _cases():
    moons = datasets.moons(n=60, noise=0.3, seed=3)
    yield "d1 linear", datasets.d1(), {}
    yield "d2 soft margin", datasets.d2(), {"C": 0.5}
    yield "nonlinear Gaussian", datasets.nonlinear(), {"kernel": "gaussian", "sigma": 0.7}
    yield "circles polynomial", datasets.circles(n=40, noise=0.1, seed=1), {
        "kernel": "polynomial", "degree": 2, "coef0": 1.0}
    yield "moons many SVs", moons, {"C": 0.05}
    one = datasets.d1()
    yield "one class", type(one)(**{**vars(one), "X": one.X[one.y > 0],
                                     "y": one.y[one.y > 0]}), {}


def render() -> str:
    rows = []
    for name, ds, extra in _cases():
        X, y = np.asarray(ds.X, float), np.asarray(ds.y)
        settings = {**DEFAULTS, **extra}
        lo, hi = X.min(axis=0) - 1, X.max(axis=0) + 1
        view = ((float(lo[0]), float(hi[0])), (float(lo[1]), float(hi[1])))
        ans = fit_api.answer(X, y, settings, view)
        out = fitting.fit_points(X, y, settings)
        want = (describe_model(X, y, out.model, table=TABLE, where="beside") if out.ok
                else describe_points(y, out.error))
        kept = {k: ans[k] for k in FIELDS if k in ans}
        if "panel" in kept:
            kept["panel"] = [r for r in kept["panel"] if r[0] in ROWS]
        rows.append({"name": name, "points": np.column_stack([X, np.sign(y)]).tolist(),
                     "ans": kept,
                     "kernel": KERNEL_LABELS[settings["kernel"]], "table": TABLE,
                     "where": "beside", "want": want})
    return json.dumps({"cases": rows}, ensure_ascii=False, indent=1) + "\n"


if __name__ == "__main__":
    OUT.write_text(render(), encoding="utf-8")
    print(f"wrote {OUT}")
