"""The Worked examples page under AppTest: what the rendered tables say, the drift check,
and "Open in Playground"."""

import json
import re
from pathlib import Path

import numpy as np
import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from svm_engine import datasets
from tests.plotly_json import chart_specs, read_payload
from ui.serving import budget
from ui.shared.session import shared
from ui.step_through import box_chart
from ui.worked_examples import book_values as B
from ui.worked_examples import examples as E
from ui.worked_examples import match as M
from ui.worked_examples import rows as R

ROOT = Path(__file__).resolve().parents[1]
PAGE = str(ROOT / "pages" / "2_worked_examples.py")
TIMEOUT = 180
STRICT_NUMBERS = (1, 2, 3, 7)


def no_traceback(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]
    for el in (*at.error, *at.warning, *at.markdown):
        assert "Traceback" not in str(el.value)


def sections(at: AppTest) -> dict[int, list]:
    """{example number: the tables (DataFrames) rendered under its header}, in page order."""
    out: dict[int, list] = {}
    current = None
    for node in at.main:
        kind = getattr(node, "type", None)
        if kind == "header":
            current = int(str(node.value).split(".")[0])
            out[current] = []
        elif kind == "table" and current is not None:
            out[current].append(node.value)
    return out


def boxes(at: AppTest) -> list[dict]:
    """The data of every (αᵢ, αⱼ) box on the page (``ui.step_through.box_chart``: drawn in the
    browser by the step player's step_box.js from the step's numbers sent here)."""
    return [json.loads(e.proto.json) for e in at.get("bidi_component")
            if e.proto.component_name == box_chart.COMPONENT_NAME]


def open_tab(at: AppTest, number: int) -> AppTest:
    """Select the example's tab (the tabs are lazy: only the open one is drawn)."""
    at.session_state["we.example"] = E.EXAMPLES[number - 1].tab
    at.run()
    no_traceback(at)
    return at


class Page:
    """The page run once, then every tab opened in turn: {number: tables}, charts, buttons."""

    def __init__(self, at: AppTest):
        self.at = at
        self.overview = at.table[0].value
        self.tables, self.charts, self.buttons, self.latex = {}, {}, {}, {}
        self.boxes: dict[int, list[dict]] = {}
        self.axes: dict[int, list[str]] = {}      # every chart's axis titles
        for e in E.EXAMPLES:
            open_tab(at, e.number)
            assert [str(h.value) for h in at.header] == [f"{e.number}. {e.title}"]
            self.tables.update(sections(at))
            self.charts[e.number] = len(chart_specs(at))
            self.boxes[e.number] = boxes(at)
            self.axes[e.number] = [str(ax.get("title", {}).get("text", ""))
                                   for spec in chart_specs(at)
                                   for k, ax in spec.get("layout", {}).items()
                                   if k.startswith(("xaxis", "yaxis")) and isinstance(ax, dict)]
            self.buttons[e.number] = [b.key for b in at.main.button]  # not the sidebar's
            self.latex[e.number] = [str(x.value).strip("$\n") for x in at.latex]


@pytest.fixture(scope="module")
def page():
    st.cache_data.clear()
    at = AppTest.from_file(PAGE, default_timeout=TIMEOUT).run()
    no_traceback(at)
    # the first run draws the first example only
    assert [str(h.value) for h in at.header] == [f"1. {E.EXAMPLES[0].title}"]
    return Page(at)


def test_page_runs_and_shows_every_example(page):
    assert [t.label for t in page.at.tabs] == [e.tab for e in E.EXAMPLES]
    assert sum(page.charts.values()) == 10 and all(page.charts.values())
    assert {n: len(b) for n, b in page.boxes.items() if b} == {7: 1}  # and one SMO step
    for e in E.EXAMPLES:
        assert page.buttons[e.number] == [f"we.open.{e.key}.{k}" for k in range(len(e.setups))]


def test_axes_are_named_x1_x2_as_on_every_other_page(page):
    """Issue 32: "X1/X2" on Worked examples, "x1/x2" elsewhere."""
    titles = [t for ts in page.axes.values() for t in ts]
    assert "x1" in titles and "x2" in titles
    assert not [t for t in titles if re.search(r"\bX\d", t)], titles


def test_solvers_are_named_in_words_not_by_their_keys(page):
    """Issue 32 item 14: a table printed "sga" and "newton" (the engine's keys)."""
    cells = [str(v) for ts in page.tables.values() for t in ts if "solver" in t.columns
             for v in t["solver"]]
    assert cells and not {"sga", "newton", "smo", "qp", "psvm"} & set(cells), cells


def test_the_overview_counts_the_matches(page):
    ov = page.overview
    n_all = sum(len(E.compute(e.key).rows) for e in E.EXAMPLES)
    assert any(x.label.endswith(f"{n_all} of {n_all} rows match {M.TICK}")
               for x in page.at.expander)
    assert list(ov.index) == [f"{e.number} · {e.title}" for e in E.EXAMPLES]
    for e in E.EXAMPLES:
        n = len(E.compute(e.key).rows)
        assert ov.loc[f"{e.number} · {e.title}", "match"] == f"{n} of {n} {M.TICK}"


def test_every_match_cell_of_examples_1_to_3_and_7_is_a_tick(page):
    tabs = page.tables
    for n in STRICT_NUMBERS:
        with_match = [t for t in tabs[n] if "match" in t.columns]
        assert with_match, n
        for t in with_match:
            assert len(t) > 0 and (t["match"] == M.TICK).all(), (n, t.to_dict())
    # example 2 renders its slack table of slide 23 with its own match column
    assert sum("match" in t.columns for t in tabs[2]) == 2


def test_the_rendered_numbers_are_the_engines(page):
    """The main table of each example shows exactly the rows the pure function computes."""
    tabs = page.tables
    for e in E.EXAMPLES:
        main = tabs[e.number][0]
        want = R.rows_table(E.compute(e.key).rows)
        assert list(main.index) == [r["quantity"] for r in want]
        assert list(main["app value"]) == [r["app value"] for r in want]
        assert list(main["book value"]) == [r["book value"] for r in want]
        assert list(main["match"]) == [r["match"] for r in want]
    d1 = tabs[1][0]
    assert d1.loc["b", "book value"] == "−3.332" and d1.loc["b", "source"] == "slide 16"
    assert d1.loc["b", "app value"] == "−3.3333"


def test_example1_alpha_side_by_side_with_feasibility(page):
    (alpha,) = [t for t in page.tables[1] if "app α: smo" in t.columns]
    assert list(alpha.columns) == ["book α (slide 16)", "app α: smo", "app α: qp"]
    checks = alpha.loc[[i for i in alpha.index if i.startswith(("feasible", "optimal"))]]
    assert len(checks) == 2 and (checks == M.TICK).all().all()
    assert alpha.loc["α2  (x2, y = +1)", "book α (slide 16)"] == "0.2162"


def test_example7_shows_the_qp_matrices(page):
    latex = page.latex[7]
    assert any(t.startswith("P = ") and "bmatrix" in t for t in latex)
    assert any(t.startswith("G = ") and "-2 & -2 & -1" in t for t in latex)


def test_example7_shows_smos_step_beside_the_seeds_formulas(page):
    assert page.charts[7] == 1  # the QP's hyperplane …
    (box,) = page.boxes[7]      # … and SMO's one step in the (λ₁, λ₂) box: (0, 0) → (1, 1)
    rec = box["rec"]
    assert (rec["it"], rec["i"], rec["j"], rec["yi"], rec["yj"]) == (1, 0, 1, 1, -1)
    assert [rec[k] for k in ("ai_old", "aj_old", "ai_new", "aj_new")] == [0, 0, 1, 1]
    assert (rec["ai_unclipped"], rec["aj_unclipped"], rec["clipped"]) == (1, 1, False)
    assert rec["C"] is None and rec["L"] == 0 and rec["H"] is None  # C = ∞: U = 0, V = ∞
    assert box["export"]["title"] == f"7. {E.EXAMPLES[6].title}"
    main = page.tables[7][0]
    assert main.loc["λ₂ unclipped", "match"] == M.TICK
    assert main.loc["U ≤ λ₂ ≤ V", "app value"] == "L = 0, H = ∞"
    assert main.loc["SMO's b", "app value"] == R.show("-3.000000")


def in_process(task, fn, args=(), kwargs=None, **_):
    """``budget.run`` without a worker: a test's patches reach the computation."""
    return fn(*args, **(kwargs or {}))


def test_a_drift_turns_a_tick_into_a_cross_on_the_page(monkeypatch):
    monkeypatch.setitem(B.BOOK_D1, "b", M.Printed("-3.340", "slide 16"))
    monkeypatch.setattr(budget, "run", in_process)  # here, where the drift is patched in
    st.cache_data.clear()
    try:
        at = AppTest.from_file(PAGE, default_timeout=TIMEOUT).run()
        no_traceback(at)
        assert at.table[0].value["match"].iloc[0] == f"4 of 5 {M.CROSS}"  # the overview
        d1 = sections(at)[1][0]
        assert d1.loc["b", "match"] == M.CROSS
        assert (d1.drop(index="b")["match"] == M.TICK).all()
    finally:
        st.cache_data.clear()  # the drifted result must not leak into other tests


def test_a_failing_example_shows_an_error_not_a_traceback(monkeypatch):
    real = E.compute

    def broken(key):
        if key == "d1":
            raise RuntimeError("solver exploded")
        return real(key)

    monkeypatch.setattr(E, "compute", broken)
    monkeypatch.setattr(budget, "run", in_process)  # here, not in a worker with the real one
    st.cache_data.clear()
    try:
        at = AppTest.from_file(PAGE, default_timeout=TIMEOUT).run()
        no_traceback(at)
        assert any("solver exploded" in str(e.value) for e in at.error)
        assert at.table[0].value["match"].iloc[0] == f"not computed {M.CROSS}"
        open_tab(at, 2)  # the other examples still work
        assert (sections(at)[2][0]["match"] == M.TICK).all()
    finally:
        st.cache_data.clear()


def _on_worked_examples() -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT).run()
    at.switch_page("pages/2_worked_examples.py").run()
    no_traceback(at)
    assert at.title and at.title[0].value == "Worked examples"
    return at


def test_open_in_playground_loads_the_example_and_switches_page():
    at = open_tab(_on_worked_examples(), 2)
    at.button(key="we.open.d2.0").click().run()
    no_traceback(at)
    d = datasets.d2()
    np.testing.assert_array_equal(np.asarray(shared(at.session_state).X), d.X)
    np.testing.assert_array_equal(np.asarray(shared(at.session_state).y), d.y)
    s = shared(at.session_state).settings
    assert (s["C"], s["hard_margin"], s["solver"], s["bias"]) == (1.0, False, "smo", "free")
    # the Playground is showing: its widgets are there, the examples are not
    assert at.toggle(key="pg.hard_margin").value is False
    assert not any(str(h.value).startswith("1. D1") for h in at.header)


def test_open_psvm_in_playground_runs_psvm_there():
    at = open_tab(_on_worked_examples(), 8)
    at.button(key="we.open.psvm.0").click().run()
    no_traceback(at)
    s = shared(at.session_state).settings
    assert (s["solver"], s["loss"], s["bias"]) == ("psvm", "quadratic", "augmented")
    assert not at.button(key="pg.solver.psvm").disabled
    assert at.button(key="pg.solver.smo").disabled  # smo has no folded bias
    (el,) = [e for e in at.get("bidi_component") if e.proto.id.endswith("svmlab_canvas")]
    panel = dict(read_payload(el.proto.json)["answer"]["panel"])  # the Playground's numbers
    assert panel["solver"] == "PSVM (proximal SVM)"


def test_example3_says_why_the_playground_shows_other_sga_numbers():
    """Issue 32 item 8: Iris setosa with SGA shows (2.748, −3.752) here and the exact optimum
    (2.746, −3.748) on the Playground, which polishes SGA's stop; the page must say so, with
    the Playground's numbers."""
    import svm_engine as se
    from ui.shared.numbers import fmt_fixed

    at = open_tab(AppTest.from_file(PAGE, default_timeout=TIMEOUT).run(), 3)
    text = " ".join(str(m.value) for m in (*at.markdown, *at.caption))
    d = datasets.iris_setosa()
    pg = se.fit(d.X, d.y, C=10.0, bias="augmented", solver="sga", tol=B.SGA_EPS)  # polished
    shown = (f"w = ({fmt_fixed(pg.w[0], 3)}, {fmt_fixed(pg.w[1], 3)}), "
             f"b = {fmt_fixed(pg.b, 3)}")
    assert "Playground" in text and "polishes" in text and shown in text, shown
