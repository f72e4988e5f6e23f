"""The (αᵢ, αⱼ) box has one renderer, ui/browser/step_box.js (the step player's; the Worked
examples page mounts it through ui.step_through.box_chart). Here it is run in node on every
step of real runs (finite C, C = ∞ with an open box and H = ∞ rays, unclipped optima off the
chart) and held to the step's numbers: the view holds the box and the points, the line and
the segment are the constraint's, the new point's end of [L, H] is named once, the labels sit
off the line; the SVG is drawn without a NaN, in colours with WCAG's contrast, the three
points told apart by their shapes. And what the Worked examples page sends it."""

import json
import math
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from svm_engine import datasets
from tests.contrast import ratio
from ui.shared import palette as P
from ui.shared.settings import Settings
from ui.step_through import box_chart as B
from ui.step_through import record, snapshot

ROOT = Path(__file__).resolve().parents[1]
needs_node = pytest.mark.skipif(shutil.which("node") is None,
                                reason="node is not installed (make js)")

SCRIPT = """
import { readFileSync } from "node:fs";
import { boxRecord } from "./ui/browser/box_chart.js";
import { boxGeometry, boxSVG } from "./ui/browser/step_box.js";
const recs = JSON.parse(readFileSync(0, "utf8")).map(boxRecord);
const out = recs.map((r) => [boxGeometry(r), boxSVG(r, 600, 520, "t")[0]]);
process.stdout.write(JSON.stringify(out));
"""
RUNS = [("d1", {}), ("d2", {}), ("d2", {"C": 100.0}), ("d1", {"hard_margin": True}),
        ("nonlinear", {})]


def records(name: str, **over) -> list[dict]:
    """Every step of the run, as the Worked examples page sends a step (box_chart.box_data)."""
    ds = datasets.load(name)
    run = record.build_run(ds.X, ds.y, {**Settings.from_dataset(ds.settings), **over}, "smo")
    return [B.box_data(snapshot.step_record(run, t), key="k", title=None, settings="")["rec"]
            for t in range(1, run.n_steps + 1)]


def drawn(recs: list[dict]) -> list[tuple[dict, str]]:
    """[(boxGeometry, boxSVG's text)] of each record, from node."""
    done = subprocess.run(["node", "--input-type=module", "-e", SCRIPT], input=json.dumps(recs),
                          capture_output=True, text=True, cwd=ROOT, timeout=120, check=True)
    return json.loads(done.stdout)


def inf(v):
    return math.inf if v is None else v


def check_geometry(r: dict, g: dict) -> None:
    C, H, L = inf(r["C"]), inf(r["H"]), r["L"]
    lo, hi = g["lo"], g["hi"]
    span = hi - lo
    tol = 1e-9 * max(1.0, span)
    s = r["yi"] * r["yj"]
    gamma = r["ai_old"] + s * r["aj_old"]
    old, new = (r["ai_old"], r["aj_old"]), (r["ai_new"], r["aj_new"])
    unc = (r["ai_unclipped"], r["aj_unclipped"])

    def inside(p):
        return all(lo - tol <= v <= hi + tol for v in p)

    def on_line(p):
        return abs(p[0] + s * p[1] - gamma) <= 1e-9 * max(1.0, abs(gamma), *map(abs, p))

    # the view: the box (or the quadrant) with room around it, and the old and new points
    assert lo < 0 < hi and inside(old) and inside(new)
    if math.isfinite(C):
        assert lo <= -0.12 * C + tol and hi >= 1.12 * C - tol
    # the line over the whole view, through the old, new and unclipped points
    (a, b), (c, d) = g["line"]
    assert b < lo and d > hi and on_line((a, b)) and on_line((c, d))
    assert on_line(new) and on_line(unc)
    # the segment: αⱼ from L to H on the line, inside the box; a ray past the view when H = ∞
    (xL, yL), (xH, yH) = g["segment"]
    assert yL == L and on_line((xL, yL)) and on_line((xH, yH))
    assert yH == H if math.isfinite(H) else yH > hi
    if math.isfinite(C):
        assert all(-tol <= v <= C + tol for v in (xL, yL, xH, yH))
    assert L - tol <= new[1] <= H + tol
    # the new point's end of [L, H], named in its label (not by a second label on the spot)
    at = [e for e, v in (("L", L), ("H", H)) if math.isfinite(v) and abs(new[1] - v) <= tol]
    assert g["new_end"] == (at[0] if at else None)
    assert g["moved"] == (math.dist(old, new) > tol)
    assert g["same"] == (math.dist(unc, new) <= tol)
    if not r["clipped"]:
        assert g["same"]
    # off the chart: an arrow inside the view, from the old point towards the unclipped one
    assert g["unc_visible"] == (g["arrow"] is None)
    if g["arrow"] is None:
        assert inside(unc)
    else:
        (ex, ey), (dx, dy) = g["arrow"], (unc[0] - old[0], unc[1] - old[1])
        assert inside((ex, ey)) and not inside(unc)
        assert (ex - old[0]) * dx + (ey - old[1]) * dy > 0
        assert abs((ex - old[0]) * dy - (ey - old[1]) * dx) <= 1e-6 * span * math.hypot(dx, dy)
    # every label on a side of the line, off it (the line falls with slope −s)
    sides = {"tr", "bl"} if s > 0 else {"tl", "br"}
    assert set(g["places"]) == {"L", "H", "unclipped", "old", "new"}
    assert set(g["places"].values()) <= sides


def check_svg(r: dict, g: dict, svg: str) -> None:
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert not re.search(r"NaN|undefined|Infinity|null", svg), svg
    # the three points by shape, not colour only: ● old, ◇ unclipped (if in view), ★ new
    assert svg.count("<circle") == 1 and svg.count("<polygon") == 1
    assert svg.count('stroke-width="4">') == (1 if g["unc_visible"] else 0)  # the diamond
    assert ("(off the chart)" in svg) == (not g["unc_visible"])
    texts = re.findall(r">([^<>]+)</text>", svg)
    assert f"Step {r['it']}: the pair (" in svg
    new_label = ("new (clipped)" if r["clipped"] else "new = unclipped") + (
        f" at {g['new_end']}" if g["new_end"] else "")
    assert texts.count(new_label) == 1
    for end in ("L", "H"):
        shown = end != g["new_end"] and (end == "L" or r["H"] is not None)
        assert texts.count(end) == (1 if shown else 0), (end, texts)


@needs_node
@pytest.mark.parametrize("name, over", RUNS)
def test_every_step_of_a_real_run_is_drawn_from_its_numbers(name, over):
    recs = records(name, **over)
    assert recs
    seen = set()
    for r, (g, svg) in zip(recs, drawn(recs), strict=True):
        check_geometry(r, g)
        check_svg(r, g, svg)
        seen.add((g["unc_visible"], g["new_end"], r["C"] is None, r["H"] is None))
    if name == "d2" and not over:
        assert any(end for _, end, *_ in seen)          # steps that end on L or H
    if over.get("hard_margin"):
        assert any(c for *_, c, _ in seen) and any(h for *_, h in seen)  # open box, H = ∞ rays


def _colours(svg: str) -> list[tuple[str, str, str]]:
    """(element, attribute, colour) of every mark and text: the backgrounds (the white paper,
    the box's fill), the grid, and the white halo under a point left out."""
    out = []
    for tag, attrs in re.findall(r"<(text|line|circle|path|polygon|rect)\b([^>]*)>", svg):
        for attr, colour in re.findall(r'\b(fill|stroke)="([^"]+)"', attrs):
            if colour in ("none", "#EEEEEE") or (tag == "rect" and attr == "fill"):
                continue
            if tag == "circle" and attr == "stroke" and colour == P.WHITE:
                continue
            if colour.startswith("url("):
                continue
            out.append((tag, attr, colour))
    return out


@needs_node
def test_the_box_has_wcags_contrast_on_its_paper_and_its_fill():
    recs = records("d2")
    fill = re.compile(r'<rect [^>]*fill="(rgba\([^"]+\))"')
    backgrounds = set()
    checked = 0
    for _, svg in drawn(recs[:12]):
        backgrounds |= {P.WHITE, *fill.findall(svg)}
        for tag, _, colour in _colours(svg):
            need = 4.5 if tag == "text" else 3.0      # WCAG 1.4.3 text, 1.4.11 marks
            for bg in backgrounds:
                assert ratio(colour, bg) >= need, (tag, colour, bg, ratio(colour, bg))
            checked += 1
    assert len(backgrounds) == 2 and checked > 100


def test_box_data_sends_the_steps_numbers_with_infinity_as_null():
    d = datasets.two_point()
    run = record.build_run(d.X, d.y, Settings.from_dataset(d.settings), "smo")
    rec = snapshot.step_record(run, 1)
    data = B.box_data(rec, key="we.plot.two_point.1", title="7. Two points",
                      settings=("Two points", "n = 2", ""))
    sent = data["rec"]
    assert set(sent) == set(B.KEYS)
    assert (sent["it"], sent["i"], sent["j"]) == (1, rec["i"], rec["j"])
    assert sent["C"] is None and sent["H"] is None and math.isinf(rec["C"])   # C = ∞
    assert (sent["ai_old"], sent["aj_old"], sent["ai_new"], sent["aj_new"]) == (0, 0, 1, 1)
    assert sent["clipped"] is False and sent["L"] == rec["L"]
    json.dumps(data, allow_nan=False)                  # JSON as it is, no ∞ or NaN
    assert data["export"] == {"title": "7. Two points", "settings": "Two points · n = 2"}
    assert data["config"]["toImageButtonOptions"]["filename"] == "svm_lab_we_plot_two_point_1"
    assert data["height"] == B.HEIGHT
