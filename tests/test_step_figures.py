"""The Step-through's figure modules (decision_figures, bars_figure,
curves_figure), ui.step_through.text and ui.step_through.plot: what one step draws and writes."""

import json

import numpy as np
import pytest

from svm_engine import datasets
from ui.shared.numbers import fmt_tex
from ui.shared.settings import DEFAULTS, Settings
from ui.step_through import record, snapshot
from ui.step_through import text as W
from ui.step_through.bars_figure import alpha_bars_figure
from ui.step_through.curves_figure import curves_figure
from ui.step_through.decision_figures import step_decision_figure
from ui.step_through.figure_style import MAX_CURVE_POINTS, NEW_COLOR
from ui.step_through.plot import plot_payload


def role(fig, name):
    (t,) = [t for t in fig["data"] if (t.get("meta") or {}).get("role") == name]
    return t


@pytest.fixture(scope="module")
def d2_run():
    ds = datasets.d2()
    return record.build_run(ds.X, ds.y, Settings.from_dataset(ds.settings), "smo")


# ------------------------------------------------------------------- scatter plot


def test_decision_figure_marks_the_pair_and_the_violators(d2_run):
    k = 3
    st = snapshot.state_at(d2_run, k)
    r = st.record
    fig = step_decision_figure(
        st, snapshot.prev_model(d2_run, k), pair=[r["i"], r["j"]], legend=False, resolution=40
    )
    pair = [r["i"] + 1, r["j"] + 1]
    assert fig["layout"]["meta"] == {"role": "decision", "step": k, "pair": pair}
    assert fig["layout"]["showlegend"] is False
    hl = role(fig, "highlight")
    np.testing.assert_array_equal(np.c_[hl["x"], hl["y"]], d2_run.X[[r["i"], r["j"]]])
    viol = role(fig, "violators")
    assert list(viol["customdata"]) == list(st.violators + 1)
    overlay = role(fig, "overlay")  # h(x) = 0 before the step, from the model after step k − 1
    before = snapshot.prev_model(d2_run, k)
    xs, ys, Z = np.asarray(overlay["x"]), np.asarray(overlay["y"]), np.asarray(overlay["z"])
    np.testing.assert_allclose(
        Z[5, 7], before.decision_function(np.array([[xs[7], ys[5]]]))[0], rtol=1e-6, atol=1e-6
    )
    assert len(xs) == 40 or len(ys) == 40


# ------------------------------------------------------------------- bars, curves


def test_alpha_bars_highlight_the_changed_entries():
    a = np.array([0.0, 0.5, 1.0, 0.2])
    before = np.array([0.0, 0.1, 1.0, 0.2])
    fig = alpha_bars_figure(a, np.array([1, -1, 1, -1]), [1], alpha_before=before, C=1.0, step=7)
    bars = role(fig, "alpha")
    assert list(bars["y"]) == list(a) and bars["meta"]["changed"] == [2]
    assert bars["marker"]["color"][1] == NEW_COLOR
    assert bars["marker"]["color"][0] != NEW_COLOR
    old = role(fig, "alpha_before")
    assert list(old["x"]) == [2] and list(old["y"]) == [0.1]
    assert fig["layout"]["shapes"][0]["y0"] == 1.0  # the line α = C
    assert fig["layout"]["meta"] == {"role": "alpha_bars", "step": 7}


def test_curves_mark_the_step_and_use_a_log_scale_for_the_violation():
    T = 4000
    dual = np.linspace(0, 1, T + 1)
    primal = 2 - dual
    kkt = np.logspace(1, -4, T + 1)
    fig = curves_figure(dual, primal, kkt, 1234, tol=1e-3)
    assert fig["layout"]["yaxis2"]["type"] == "log"
    d = role(fig, "dual")
    assert len(d["x"]) <= MAX_CURVE_POINTS + 2 and 1234 in d["x"] and T in d["x"]
    m = role(fig, "marker")
    assert m["x"] == [1234, 1234] and m["y"] == [dual[1234], primal[1234]]
    assert role(fig, "marker_kkt")["y"] == [kkt[1234]]
    assert fig["layout"]["shapes"][0]["x0"] == 1234


# -------------------------------------------------------------------- the words


def test_smo_formulas_carry_the_steps_numbers(d2_run):
    r = snapshot.step_record(d2_run, 1)
    lines = W.smo_formulas(r)
    assert lines[0].endswith(f"= {fmt_tex(r['eta'])}")
    assert f"= {fmt_tex(r['aj_unclipped'])}" in lines[2]
    assert lines[-1].endswith(f"= {fmt_tex(r['ai_new'])}")
    block = W.latex_block(lines)
    assert block.startswith(r"\begin{gathered}") and block.endswith(r"\end{gathered}")
    inner = block.removeprefix(r"\begin{gathered}").removesuffix(r"\end{gathered}")
    assert inner.split(W.LATEX_LINE_SEP) == lines


def test_decision_key_names_the_marks_of_each_solver():
    assert "the pair (i, j)" in W.decision_key("smo")
    assert "yᵢh(xᵢ) < 1" in W.decision_key("newton")
    assert "updated point" in W.decision_key("sga", coordinate=True)
    assert "green" not in W.decision_key("sga", coordinate=False)


# ---------------------------------------------------------------------- payload


def test_payload_is_json_with_typed_arrays_and_shared_grids():
    ds = datasets.moons(n=60, noise=0.2, seed=1)
    run = record.build_run(ds.X, ds.y, dict(DEFAULTS, kernel="gaussian", sigma=1.0), "smo")
    st = snapshot.state_at(run, 2)
    fig = step_decision_figure(st, snapshot.prev_model(run, 2), pair=[0, 1], resolution=30)
    p = plot_payload(fig, {"displaylogo": False})
    assert p["config"]["displaylogo"] is False and p["plotly_url"].endswith("plotly.min.js")
    assert p["config"]["showSendToCloud"] is False             # tests/test_ui_chart.py
    sent = json.loads(p["fig"])
    by_role = {t["meta"]["role"]: t for t in sent["data"] if "meta" in t}
    assert by_role["regions"]["z"]["dtype"] in ("f4", "f8")  # a typed array, not a list
    assert by_role["boundary"]["meta"]["z_from"] == "regions" and "z" not in by_role["boundary"]
    assert "z" in by_role["overlay"]  # the boundary before the step is another grid
    assert sent["layout"]["meta"]["step"] == 2
