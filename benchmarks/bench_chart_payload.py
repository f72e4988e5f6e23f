"""What one page chart costs the server on every click (a script, not a test).

``ui.shared.chart.chart_payload`` turns a figure into the data of its chart element. Until
2026-11-28 it first passed each figure dict through ``go.Figure(fig).to_plotly_json()``
(plotly's attribute check and a deep copy); now a figure dict is sent as it is (the page
tests check every sent figure with plotly: ``tests/plotly_json.plotly_keeps``). This times
both on the figures the pages draw: a decision picture as Worked examples, Step-through and
Compare draw it (Gaussian, moons, 200 points, 80 × 80 grid) and the Kernels page's eight
charts, and prints the ratio, measured in this run.

    .venv/bin/python benchmarks/bench_chart_payload.py

Each figure is the best of several repeats (noisy under load).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import plotly.graph_objects as go

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import svm_engine as se  # noqa: E402
from ui.shared import chart, figures  # noqa: E402


def best_ms(f, repeat: int = 7, number: int = 10) -> float:
    f()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            f()
        times.append((time.perf_counter() - t0) / number)
    return min(times) * 1e3


def checked_payload(fig, **kw) -> dict:
    """chart_payload as it was: the figure checked and copied by go.Figure first."""
    return chart.chart_payload(go.Figure(fig), **kw)


def playground_figure() -> dict:
    d = se.datasets.moons(200, noise=0.3, seed=0)
    model = se.fit(d.X, d.y, kernel=se.Gaussian(sigma=1.0), C=1.0)
    return figures.decision_figure_dict(model, X=d.X, y=d.y, resolution=80)


def kernels_figures() -> list:
    from streamlit.testing.v1 import AppTest  # the page's own charts, as it sends them

    from tests.plotly_json import chart_specs

    at = AppTest.from_file(str(Path(__file__).resolve().parents[1] / "pages" / "5_kernels.py"),
                           default_timeout=120).run()
    return chart_specs(at)


def main() -> None:
    cases = [("decision picture, 200 points", [playground_figure()])]
    cases.append(("Kernels page, all its charts", kernels_figures()))
    kw = {"key": "bench", "title": "t", "settings": "s"}
    print(f"{'figure':32s} {'go.Figure first':>16s} {'as sent':>10s} {'ratio':>7s}")
    for name, figs in cases:
        old = best_ms(lambda figs=figs: [checked_payload(f, **kw) for f in figs])
        new = best_ms(lambda figs=figs: [chart.chart_payload(f, **kw) for f in figs])
        print(f"{name:32s} {old:13.2f} ms {new:7.2f} ms {old / new:6.1f}×")


if __name__ == "__main__":
    main()
