"""Plotly JSON as a page sends it to a chart (a Custom Components v2 element: a page's chart,
``ui.shared.chart``; a click plot; a Step-through chart), read back for the page tests; the
check every page test makes first, and the start most of them make."""

import base64
import json

import numpy as np


def decoded(v, arrays: bool = False):
    """Typed arrays ({"dtype": "f8", "bdata": base64}) as plain lists (``arrays``: as numpy
    arrays), everywhere in v."""
    if isinstance(v, dict) and set(v) >= {"dtype", "bdata"}:
        a = np.frombuffer(base64.b64decode(v["bdata"]), dtype="<" + v["dtype"])
        if "shape" in v:
            a = a.reshape([int(k) for k in v["shape"].split(",")])
        return a if arrays else a.tolist()
    if isinstance(v, dict):
        return {k: decoded(x, arrays) for k, x in v.items()}
    if isinstance(v, list):
        return [decoded(x, arrays) for x in v]
    return v


def component_figure(at, key: str) -> dict:
    """The figure the page sent to its chart element ``key`` (AppTest)."""
    (el,) = [e for e in at.get("bidi_component") if e.proto.id.endswith(key)]
    return decoded(json.loads(json.loads(el.proto.json)["fig"]))


#: the elements that draw a Plotly chart, and the one that draws every chart of a page
CHART_ELEMENTS = ("svmlab_chart", "svmlab_clickplot", "svmlab_stepplot", "svmlab_stepplayer")
PAGE_CHART = "svmlab_chart"


def chart_data(at, names=(PAGE_CHART,)) -> list[tuple[str, dict]]:
    """(key, data) of every chart element ``names`` on the page (AppTest), in page order: the
    data holds fig (plotly JSON text), config, export {title, settings}."""
    return [(e.proto.id.rsplit("-", 1)[-1], json.loads(e.proto.json))
            for e in at.get("bidi_component") if e.proto.component_name in names]


def read_payload(text: str) -> dict:
    """The Playground canvas's payload (ui.playground.canvas.payload_text) read back, the
    figure as a dict: what the browser gets."""
    return json.loads(json.loads(text) if text.startswith('"') else text)


def chart_specs(at, arrays: bool = False) -> list[dict]:
    """Every chart's figure on the page (``ui.shared.chart.show_chart``; AppTest), typed arrays
    decoded (``arrays``: as numpy arrays)."""
    return [decoded(json.loads(d["fig"]), arrays) for _, d in chart_data(at)]


def page_ok(at):
    """The page ran without an exception and shows no traceback; returns ``at``."""
    assert not at.exception, [e.value for e in at.exception]
    for el in (*at.error, *at.warning, *at.markdown):
        assert "Traceback" not in str(el.value)
    return at


def start_page(path: str, prefix: str, source: str | None = None, *, timeout: float, **gen):
    """The page at path under AppTest, run and checked (`page_ok`); then, when given, its data
    source chosen (selectbox ``{prefix}.source``) and its generator sliders set
    (``{prefix}.gen.<name>``), each checked again."""
    from streamlit.testing.v1 import AppTest

    at = page_ok(AppTest.from_file(path, default_timeout=timeout).run())
    if source is not None:
        at.selectbox(key=f"{prefix}.source").select(source).run()
    for k, v in gen.items():
        at.slider(key=f"{prefix}.gen.{k}").set_value(v).run()
    return page_ok(at)


def _key_paths(v, at=()) -> set[tuple]:
    """Every dict key in v, as its path from the top (list items by position)."""
    if isinstance(v, dict):
        return set().union(*({(*at, k)} | _key_paths(x, (*at, k)) for k, x in v.items()))
    if isinstance(v, list):
        return set().union(set(), *(_key_paths(x, (*at, i)) for i, x in enumerate(v)))
    return set()


def plotly_keeps(spec: dict) -> None:
    """What ``ui.shared.chart.plotly_json`` leaves to the tests: the figure the browser gets is
    one ``plotly.graph_objects`` accepts (a misspelt attribute raises ValueError here), and
    plotly's own JSON of it keeps every key sent (none was one that plotly rewrites, such as
    marker_color for marker.color, which Plotly.js would ignore)."""
    import plotly.graph_objects as go

    kept = _key_paths(go.Figure(spec).to_plotly_json())
    lost = {p for p in _key_paths(spec) if p[:2] != ("layout", "template")} - kept
    assert not lost, sorted(lost)[:5]
