"""Described charts under AppTest (WCAG 1.1.1): every chart a page sends carries a name and a
description, and where a page has a specific describer its words hold the numbers the page
prints (the Kernels page's fits; the Playground's canvas gets the words describe.js needs)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from tests.plotly_json import CHART_ELEMENTS, page_ok, read_payload
from ui.playground import canvas, panels
from ui.shared.numbers import fmt_num

PAGES = Path(__file__).resolve().parents[1] / "pages"


def test_every_chart_of_the_kernels_page_is_named_and_described():
    at = page_ok(AppTest.from_file(str(PAGES / "5_kernels.py"), default_timeout=300).run())
    charts = [(e.proto.id.rsplit("-", 1)[-1], json.loads(e.proto.json))
              for e in at.get("bidi_component") if e.proto.component_name in CHART_ELEMENTS]
    assert len(charts) >= 5
    for key, data in charts:
        words = data["a11y"]
        assert words["name"].strip() and len(words["description"]) > 20, key
    by_key = {k: d["a11y"]["description"] for k, d in charts}
    lift = next(v for k, v in by_key.items() if k.endswith("fig.lift"))
    assert "Lifted by φ into 3-D" in lift and "polynomial kernel" in lift
    # the preimage's words hold the margin the page's fit has, printed as the panel prints it
    pre = next(v for k, v in by_key.items() if k.endswith("fig.preimage"))
    margin = re.search(r"Margin (\S+);", pre).group(1)
    assert margin == lift.split("Margin ")[1].split(";")[0]
    n = int(re.match(r"(\d+) points", pre).group(1))
    assert n >= 2 and fmt_num(float(margin.replace("−", "-"))) == margin


def test_the_playground_canvas_gets_its_name_and_the_words_for_its_description():
    at = page_ok(AppTest.from_file(str(PAGES / "1_playground.py"), default_timeout=120).run())
    (el,) = [e for e in at.get("bidi_component") if e.proto.id.endswith(panels.CANVAS_KEY)]
    data = read_payload(el.proto.json)
    assert data["a11y"]["name"].startswith("Playground plot: Book D1")
    assert data["a11y"]["table"] == canvas.NUMBERS_HEADING
    assert data["a11y"]["kernel"] == "linear"
