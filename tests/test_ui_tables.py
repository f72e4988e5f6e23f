"""ui.shared.tables: the per-point table, the numbers panel, table edits, slider options."""

import numpy as np
import pytest

from svm_engine import datasets
from ui.shared import fitting, tables
from ui.shared.settings import Settings


@pytest.fixture(scope="module")
def d2_model():
    d = datasets.d2()
    return fitting.fit_points(d.X, d.y, Settings.from_dataset(d.settings)).model


def test_point_table_matches_the_book_on_d2(d2_model):
    df = tables.point_table(d2_model)
    assert list(df.columns) == tables.POINT_COLUMNS
    assert list(df["i"]) == list(range(1, 19))
    row16 = df.iloc[15]
    assert (row16["x1"], row16["x2"], row16["y"]) == (2.0, 3.0, 1)
    assert row16["ξ"] == pytest.approx(1.667, abs=5e-3)
    assert row16["category"] == "misclassified"
    assert row16["y·h(x)"] == pytest.approx(1 - row16["ξ"], abs=1e-6)
    assert df["α"].between(0, 1 + 1e-9).all()  # C = 1


def test_point_table_without_a_matching_model_leaves_model_columns_empty(d2_model):
    X = d2_model.X[:3]
    df = tables.point_table(d2_model, X, d2_model.y[:3])
    assert len(df) == 3 and df["α"].isna().all() and (df["category"] == "").all()
    assert len(tables.point_table(None, X, np.array([1, -1, 1]))) == 3


def test_model_summary_has_the_numbers_panel(d2_model):
    rows = dict(tables.model_summary(d2_model))
    for key in ("w", "b", "hyperplane", "margin 1/‖w‖", "support vectors", "primal objective",
                "dual objective", "training accuracy", "solver", "iterations", "time",
                "converged"):  # fmt: skip
        assert key in rows, key
    assert rows["hyperplane"].startswith("0.83") and rows["hyperplane"].endswith("= 0")
    assert rows["converged"] == "yes"


def test_model_summary_speaks_to_students_not_developers():
    """Issue 32 item 14: "smo (second_order)" and a bare "iterations 0" after a click whose
    refit started from an optimal α."""
    from ui.serving import fit_api

    d = datasets.d2()
    pts = [[float(a), float(b), int(c)] for (a, b), c in zip(d.X, d.y, strict=True)]
    body = {"points": pts, "settings": Settings.from_dataset(d.settings)}
    cold = dict(fit_api.refit(body)["panel"])
    assert cold["solver"] == "SMO (Platt, second-order pair choice)"
    assert int(cold["iterations"]) > 0
    warm = fit_api.refit({**body, "warm": {"points": pts, "alpha": fit_api.refit(body)["alpha"]}})
    rows = dict(warm["panel"])
    assert rows["iterations"].startswith("0: no α had to change")
    body["settings"] = dict(body["settings"], solver="qp")
    assert dict(fit_api.refit(body)["panel"])["solver"] == "QP (cvxopt, interior point)"


def test_model_summary_for_a_kernel_has_no_w():
    d = datasets.nonlinear()
    m = fitting.fit_points(d.X, d.y, Settings.from_dataset(d.settings)).model
    rows = dict(tables.model_summary(m))
    assert "w" not in rows and "hyperplane" not in rows and "margin 1/‖w‖" in rows


def test_editor_changes_apply_edits_deletions_and_additions():
    X = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]])
    y = np.array([1, -1, 1])
    changes = {
        "edited_rows": {0: {"x1": 0.5, "α": 3}, "2": {"y": -1}},
        "deleted_rows": [1],
        "added_rows": [{"x1": 7, "x2": "8", "y": 1}],
    }
    X2, y2 = tables.apply_editor_changes(X, y, changes, 2000)
    np.testing.assert_array_equal(X2, [[0.5, 0.0], [2.0, 2.0], [7.0, 8.0]])
    np.testing.assert_array_equal(y2, [1, -1, 1])
    np.testing.assert_array_equal(X, [[0, 0], [1, 1], [2, 2]])  # input untouched


@pytest.mark.parametrize(
    "changes, word",
    [
        ({"edited_rows": {0: {"x1": None}}}, "empty"),
        ({"edited_rows": {0: {"x2": "abc"}}}, "not a number"),
        ({"edited_rows": {0: {"x2": float("inf")}}}, "finite"),
        ({"edited_rows": {0: {"y": 3}}}, r"\+1 or −1"),
        ({"edited_rows": {9: {"x1": 1}}}, "does not exist"),
        ({"added_rows": [{"x1": 1, "x2": 2}]}, "new row 1, y"),
        ({"deleted_rows": ["x"]}, "unknown row"),
    ],
)
def test_editor_errors_name_the_cell(changes, word):
    with pytest.raises(tables.EditorError, match=word):
        tables.apply_editor_changes(np.zeros((2, 2)), np.array([1, -1]), changes, 2000)


def test_editor_respects_the_point_cap():
    with pytest.raises(tables.EditorError, match="too many"):
        tables.apply_editor_changes(
            np.zeros((2, 2)), np.array([1, -1]), {"added_rows": [{"x1": 0, "x2": 0, "y": 1}]}, 2
        )


def test_slider_options_keep_the_exact_current_value():
    grid = tables.log_grid(-1, 1)
    assert grid[0] == 0.1 and grid[-1] == 10.0 and 1.5 in grid
    opts = tables.option_values(grid, 4.2)
    assert 4.2 in opts and opts == sorted(opts)


def test_the_support_vector_count_says_what_a_student_needs_to_read_it():
    """Issue 16 items 3 and 12: D1 shows 3 support vectors where the book lists 5 (α is not
    unique: say so), and PSVM's '18 (17 free, 0 bound)' said nothing of negative α."""
    import math

    import svm_engine as se
    from svm_engine import datasets

    d1 = datasets.d1()
    m = se.fit(d1.X, d1.y, kernel=se.Linear(), C=math.inf, solver="smo", tol=1e-5)
    on_margin = int(np.sum(np.abs(m.y * m.h_train - 1) <= 1e-6))
    text = tables.support_text(m)
    assert text.startswith(f"{m.n_support} (") and on_margin > m.n_support
    assert f"{on_margin - m.n_support} more on the margin with α = 0: α is not unique" in text
    d2 = datasets.d2()
    p = se.fit(d2.X, d2.y, kernel=se.Linear(), C=1.0, loss="quadratic", bias="augmented",
               solver="psvm")
    assert tables.support_text(p) == (
        f"{len(d2.y)}: every point (PSVM's α have either sign: {int(np.sum(p.alpha < 0))} "
        "negative)")
    q = se.fit(d2.X, d2.y, kernel=se.Linear(), C=1.0, solver="qp")
    assert "not unique" not in tables.support_text(q)  # no idle point on the margin there


def test_a_polished_fit_says_so_beside_its_iterations():
    """Issue 32 item 8: Iris setosa with SGA shows the exact optimum (2.746, −3.748) on the
    Playground and the algorithm's stop (2.748, −3.752) on Worked example 3; the Playground
    never said it polished."""
    import warnings

    import svm_engine as se
    from svm_engine import datasets
    from ui.shared.tables import POLISHED_TEXT, model_summary

    d = datasets.iris_setosa()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", se.ConvergenceWarning)
        polished = se.fit(d.X, d.y, C=10.0, bias="augmented", solver="sga", tol=1e-4)
        raw = se.fit(d.X, d.y, C=10.0, bias="augmented", solver="sga", tol=1e-4, polish=False)
    assert polished.diagnostics.polished and not raw.diagnostics.polished
    assert dict(model_summary(polished))["iterations"].endswith(POLISHED_TEXT)
    assert POLISHED_TEXT not in dict(model_summary(raw))["iterations"]


def test_the_sigma_slider_says_its_gamma():
    """Issue 27 item 9: where σ is set, γ = 1/(2σ²) beside it (the kernel lecture's form)."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file("../pages/1_playground.py", default_timeout=120)
    at.run()
    at.sidebar.radio(key="pg.kernel").set_value("gaussian").run()
    assert not at.exception
    sigma = at.sidebar.select_slider(key="pg.sigma").value
    words = [str(c.value) for c in at.sidebar.caption]
    gamma = 1 / (2 * float(sigma) ** 2)
    assert any("γ = 1/(2σ²)" in w and w.startswith("σ = ") for w in words), words
    from ui.shared.numbers import fmt_setting
    assert any(f"γ = 1/(2σ²) = {fmt_setting(gamma)}" in w for w in words)
