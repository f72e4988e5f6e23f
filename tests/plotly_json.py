"""Plotly JSON as a page sends it to a chart (a Custom Components v2 element: a page's chart,
``ui.shared.chart``; a click plot; a Step-through chart), read back for the page tests; the
check every page test makes first, and the start most of them make."""

import base64
import json
import math

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


def _differences(sent, plotly, at: tuple = ()) -> list[tuple]:
    """Where plotly's JSON of a figure differs from the figure as sent: (path, what)."""
    if isinstance(sent, dict) and isinstance(plotly, dict):
        out = []
        for k in sorted(set(sent) | set(plotly), key=str):
            if at == ("layout",) and k == "template":
                continue                            # ours (ui.shared.chart.chart_template)
            if k not in plotly:
                out.append(((*at, k), "dropped or renamed by plotly"))
            elif k not in sent:
                out.append(((*at, k), "added by plotly"))
            else:
                out += _differences(sent[k], plotly[k], (*at, k))
        return out
    if isinstance(sent, np.ndarray) or isinstance(plotly, np.ndarray):
        a, b = (np.asarray(v, dtype=float) for v in (sent, plotly))   # null (None) as NaN
        same = a.shape == b.shape and np.array_equal(a, b, equal_nan=True)
        return [] if same else [(at, f"array {a.shape} against plotly's {b.shape}")]
    if isinstance(sent, list) and isinstance(plotly, list) and len(sent) == len(plotly):
        return [d for i, (x, y) in enumerate(zip(sent, plotly))
                for d in _differences(x, y, (*at, i))]
    if sent == plotly or (sent != sent and plotly != plotly):     # equal, or both NaN
        return []
    numbers = (int, float)
    if isinstance(sent, numbers) and isinstance(plotly, numbers) and math.isclose(
            sent, plotly, rel_tol=1e-15):             # a colour scale's 0.3 as 0.1 · 3
        return []
    return [(at, f"{sent!r:.60} sent, plotly makes it {plotly!r:.60}")]


def plotly_keeps(spec: dict) -> None:
    """What ``ui.shared.chart.plotly_json`` leaves to the tests: the figure the browser gets
    (typed arrays as numpy arrays) is one ``plotly.graph_objects`` accepts (a misspelt
    attribute raises ValueError here) and leaves as it is: plotly's own JSON of it (what
    ``st.plotly_chart`` sent) has the same keys and values. A key plotly rewrites
    (marker_color for marker.color) or a value it expands (a colour scale's name, which
    Plotly.js reads with other colours) would reach Plotly.js unlike it did before."""
    import plotly.graph_objects as go

    spec = {**spec, "layout": spec.get("layout", {})}  # plotly adds its template there
    differ = _differences(spec, decoded(go.Figure(spec).to_plotly_json(), arrays=True))
    assert not differ, differ[:5]
