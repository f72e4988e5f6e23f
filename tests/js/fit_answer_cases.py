"""Real fit endpoint answers for tests/js/fit_schema.test.mjs (which checks that the browser's
readers read only fields ui/serving/fit_schema.json names): d2 with slack and a mistake, the
same with the numbers or the table hidden by a teacher, one class only, a fit stopped at its
time budget. Writes tests/js/fit_answer_cases.json; tests/test_fit_schema.py fails when that
file is stale.

    .venv/bin/python tests/js/fit_answer_cases.py     # after a change to the answer
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from svm_engine import datasets  # noqa: E402
from ui.serving import budget, fit_api  # noqa: E402
from ui.shared.settings import Settings  # noqa: E402

OUT = Path(__file__).with_name("fit_answer_cases.json")


def _body(points, settings, **extra) -> dict:
    return {"points": points, "settings": settings, "seq": 1, **extra}


def cases() -> list[dict]:
    d = datasets.d2()
    pts = [[float(a), float(b), int(c)] for (a, b), c in zip(d.X, d.y, strict=True)]
    soft = dict(Settings.from_dataset(d.settings), C=0.5)  # slack, a mistake
    bodies = {
        "d2 soft margin": _body(pts, soft),
        "numbers hidden": _body(pts, soft, style={"hide": ["numbers"]}),
        "table hidden": _body(pts, soft, style={"hide": ["table"], "student": True}),
        "one class": _body([[0.0, 0.0, 1], [1.0, 1.0, 1]], {}),
    }
    out = []
    for name, body in bodies.items():
        status, text = fit_api.respond(json.dumps(body).encode())
        assert status == 200, text
        hide = body.get("style", {}).get("hide", [])
        out.append({"name": name, "points": body["points"], "hide": hide,
                    "answer": json.loads(text)})
    stopped = budget._no_model((len(pts), soft, 1), "over_budget", "stopped", 0.0)
    out.append({"name": "over budget", "points": pts, "hide": [], "answer": json.loads(stopped)})
    for c in out:  # times differ per run: not part of the case
        a = c["answer"]
        a["server_ms"] = 1.0
        if "fit" in a:
            a["fit"]["solver_ms"] = 1.0
        if "panel" in a:
            a["panel"] = [[k, "1.0 ms" if k == "time" else v] for k, v in a["panel"]]
    return out


def text() -> str:
    return json.dumps({"cases": cases()}, ensure_ascii=False, separators=(",", ":")) + "\n"


if __name__ == "__main__":
    OUT.write_text(text(), encoding="utf-8")
    print(f"wrote {OUT}")
