"""One geometry for the (αᵢ, αⱼ) box: ui.step_through.box_figure.box_geometry (which box_figure,
the Plotly figure of the Step-through and Worked examples pages, draws) and its port in the step
player (ui/browser/step_box.js boxGeometry, which step_box.js's SVG draws) place every mark and
label the same on every step of real runs: finite C, C = ∞ (an open box, H = ∞ rays) and
unclipped optima off the chart."""

import json
import math
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from svm_engine import datasets
from ui.shared.settings import Settings
from ui.step_through import record, snapshot
from ui.step_through.box_figure import box_geometry

ROOT = Path(__file__).resolve().parents[1]
KEYS = ("it", "i", "j", "yi", "yj", "C", "ai_old", "aj_old", "ai_new", "aj_new", "ai_unclipped",
        "aj_unclipped", "L", "H", "clipped")

SCRIPT = """
import { readFileSync } from "node:fs";
import { boxGeometry } from "./ui/browser/step_box.js";
const recs = JSON.parse(readFileSync(0, "utf8"));
const inf = (v) => (v === "inf" ? Infinity : v === "-inf" ? -Infinity : v);
const read = (r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, inf(v)]));
const out = recs.map((r) => boxGeometry(read(r)));
process.stdout.write(JSON.stringify(out, (k, v) => (v === Infinity ? "inf" : v)));
"""


def _wire(v):
    return ("inf" if v > 0 else "-inf") if isinstance(v, float) and math.isinf(v) else v


def records(name: str, **over) -> list[dict]:
    ds = datasets.load(name)
    run = record.build_run(ds.X, ds.y, {**Settings.from_dataset(ds.settings), **over}, "smo")
    recs = (snapshot.step_record(run, t) for t in range(1, run.n_steps + 1))
    return [{key: rec[key] for key in KEYS} for rec in recs]


def _same(py, js, where):
    if isinstance(py, dict):
        assert set(py) == set(js), where
        for k in py:
            _same(py[k], js[k], f"{where}.{k}")
    elif isinstance(py, tuple | list):
        assert len(py) == len(js), where
        for q, (a, b) in enumerate(zip(py, js)):
            _same(a, b, f"{where}[{q}]")
    elif isinstance(py, float):
        b = math.inf if js == "inf" else js
        assert b is not None and (py == b or math.isclose(py, b, rel_tol=1e-12, abs_tol=1e-15)), (
            where, py, js)
    else:
        assert py == js, (where, py, js)


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed (make js)")
@pytest.mark.parametrize("name, over", [("d1", {}), ("d2", {}), ("d2", {"C": 100.0}),
                                        ("d1", {"hard_margin": True}), ("nonlinear", {})])
def test_the_players_box_geometry_is_pythons_on_every_step(name, over):
    recs = records(name, **over)
    assert recs
    done = subprocess.run(["node", "--input-type=module", "-e", SCRIPT],
                          input=json.dumps([{k: _wire(v) for k, v in r.items()} for r in recs]),
                          capture_output=True, text=True, cwd=ROOT, timeout=120, check=True)
    got = json.loads(done.stdout)
    seen = set()
    for rec, js in zip(recs, got, strict=True):
        py = box_geometry(rec)
        _same(py, js, f"step {rec['it']}")
        seen.add((py["unc_visible"], py["new_end"], math.isfinite(rec["C"])))
    if name == "d1" and over.get("hard_margin"):
        assert any(not finite for *_, finite in seen)      # the open box is met
    assert len(seen) >= 1 and np.isfinite([r["L"] for r in recs]).all()
