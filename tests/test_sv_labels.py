"""The one rule for the tables' point labels (ui/shared/sv_labels.py), read off the pages:
points on the margin with α = 0 are support vectors (slide 6, slide 16's x2 and x14 of D1),
h(x) = 0 is a mistake (slide 17), and PSVM's table agrees with its panel (every point)."""

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import svm_engine as se
from svm_engine import datasets
from tests import test_page_playground as PG
from ui.shared import sv_labels, tables
from ui.shared.session import shared
from ui.worked_examples import examples as E
from ui.worked_examples.rows import rows_table

PAGE = "../pages/2_worked_examples.py"


def points_frame(number: int):
    at = AppTest.from_file(PAGE, default_timeout=180).run()
    at.session_state["we.example"] = E.EXAMPLES[number - 1].tab
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    (df,) = [d.value for d in at.dataframe if "category" in d.value.columns]
    captions = " ".join(str(c.value) for c in at.caption)
    return df, captions


def test_d1_margin_points_with_zero_alpha_are_support_vectors_on_the_page():
    df, captions = points_frame(1)
    by_i = df.set_index("i")
    on_margin_zero = [i for i in by_i.index
                      if by_i.loc[i, "α"] == 0 and abs(by_i.loc[i, "y·h(x)"] - 1) < 5e-4]
    assert on_margin_zero                                    # the solver left some at α = 0
    assert {2, 14} <= set(on_margin_zero) | set(by_i.index[by_i["α"] > 0])
    for i in on_margin_zero:
        assert by_i.loc[i, "category"] == sv_labels.ON_MARGIN_ZERO
    assert "non-SV" not in set(by_i.loc[on_margin_zero, "category"])
    assert sv_labels.ON_MARGIN_ZERO in captions               # the legend says so


def test_d1_playground_table_labels_x2_and_x14_support_vectors():
    at = PG.load(PG.new_app(), "d1")
    ans = PG.answer(at)
    labels = ans["category"]
    for i in (1, 13):                                         # x2, x14 (slide 16)
        assert labels[i] in ("margin SV", sv_labels.ON_MARGIN_ZERO), labels[i]
    assert sv_labels.ON_MARGIN_ZERO in labels
    assert any(sv_labels.ON_MARGIN_ZERO in str(c.value) for c in at.caption)


def test_psvm_table_agrees_with_its_panel_every_point_a_support_vector():
    at = PG.load(PG.new_app(), "d2")
    at.radio(key="pg.loss").set_value("quadratic")
    at.radio(key="pg.bias").set_value("augmented")
    at.run()
    at.button(key="pg.solver.psvm").click()
    at = at.run()
    assert shared(at.session_state).settings["solver"] == "psvm"
    ans = PG.answer(at)
    assert PG.numbers(at)["support vectors"].startswith("18: every point")
    labels, alpha = ans["category"], ans["alpha"]
    assert "non-SV" not in labels
    assert alpha[4] < 0 and labels[4] == sv_labels.PSVM_NEGATIVE     # x5


def test_a_point_on_the_hyperplane_is_misclassified():
    d = datasets.d1()
    m = se.fit(d.X, d.y, C=math_inf())
    # a point exactly on h(x) = 0, added after the fit: relabel a copy of the model's numbers
    class Fake:
        category = np.array(["inside margin", "non-SV"])
        alpha = np.array([0.0, 0.0])
        y = np.array([1, -1])
        h_train = np.array([0.0, -2.0])
        xi = np.array([1.0, 0.0])
        solver = m.solver
    assert sv_labels.point_labels(Fake()) == [sv_labels.ON_HYPERPLANE_LABEL, "non-SV"]
    assert list(tables.point_table(m)["category"]) == sv_labels.point_labels(m)


def math_inf():
    return float("inf")


def test_every_margin_on_the_playground_says_which_convention():
    """Item 8: δ* = 1/‖w‖ (the book's) beside the 2/‖w‖ width the PSVM slides and the KKT
    note call the margin; the two-point preset asks for one of them unambiguously."""
    at = PG.load(PG.new_app(), "two_point")
    panel = PG.numbers(at)
    margin = float(panel["margin 1/‖w‖"])
    assert abs(margin - 2 ** -0.5) < 1e-3                    # w = (1, 1)
    width = panel[tables.WIDTH_ROW]
    assert float(width.split()[0]) == pytest.approx(2 * margin, abs=1e-3)
    assert "the book's is 1/‖w‖" in width and "KKT note" in width
    from ui.playground import teacher_presets
    q = teacher_presets.PRESETS_BY_KEY["two_point"]
    words = " ".join(str(v) for v in vars(q).values() if isinstance(v, str))
    assert "1/‖w‖" in words and "2/‖w‖" in words


def test_two_point_example_states_both_margins():
    r = E.compute("two_point")
    note = next(n for n in r.notes if n.startswith("Margin:"))
    assert "1/‖w‖ = 0.7071" in note and "2/‖w‖ = 1.4142" in note


def test_worked_example_1_and_kernel_panels_name_the_margin_convention():
    rows = [r["quantity"] for r in rows_table(E.compute("d1").rows)]
    assert any(q.startswith("margin δ* = 1/‖w‖ (the book's") for q in rows)
    from ui.kernels import text as KT

    class Panel:
        model = se.fit(datasets.d1().X, datasets.d1().y, C=math_inf())
    words = KT.panel_caption(Panel())
    assert "the book's δ*" in words and "2/‖w‖ = " in words


def test_the_figure_legend_rings_margin_points_with_zero_alpha():
    from ui.shared import figures
    d = datasets.d1()
    m = se.fit(d.X, d.y, C=math_inf(), solver="smo")
    idle = [i for i, lab in enumerate(sv_labels.point_labels(m)) if lab == sv_labels.ON_MARGIN_ZERO]
    assert idle
    fig = figures.decision_figure_dict(m, resolution=30)
    (tr,) = [t for t in fig["data"] if t.get("name") == sv_labels.ON_MARGIN_ZERO]
    assert sorted(int(c[0]) - 1 for c in tr["customdata"]) == idle
