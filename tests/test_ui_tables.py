"""ui.shared.tables: the per-point table, the numbers panel, table edits, slider options."""

import numpy as np
import pytest

from svm_engine import datasets
from ui.shared import fitting, tables
from ui.shared import state as S

#: the numbers panel's margin row (issue 27 item 8: it says which margin)
MARGIN = "margin δ* = 1/‖w‖ (the book's)"


@pytest.fixture(scope="module")
def d2_model():
    d = datasets.d2()
    return fitting.fit_points(d.X, d.y, S.settings_from_dataset(d.settings)).model


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
    for key in ("w", "b", "hyperplane", MARGIN, "support vectors",
                "primal objective",
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
    body = {"points": pts, "settings": S.settings_from_dataset(d.settings)}
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
    m = fitting.fit_points(d.X, d.y, S.settings_from_dataset(d.settings)).model
    rows = dict(tables.model_summary(m))
    assert "w" not in rows and "hyperplane" not in rows and MARGIN in rows


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
    assert polished.extra.get("polished") and not raw.extra.get("polished")
    assert dict(model_summary(polished))["iterations"].endswith(POLISHED_TEXT)
    assert POLISHED_TEXT not in dict(model_summary(raw))["iterations"]


def test_the_numbers_panel_says_which_margin_it_shows():
    """Issue 27 item 8: the book's δ* = 1/‖w‖, and the width 2/‖w‖ between h = ±1 that the
    Proximal SVM slides and the KKT note call the margin, both named."""
    d = datasets.two_point()
    m = fitting.fit_points(d.X, d.y, S.settings_from_dataset(d.settings)).model
    rows = dict(tables.model_summary(m))
    assert float(rows[MARGIN]) == pytest.approx(1 / np.sqrt(2), abs=1e-4)
    assert float(rows["width between the planes h = ±1: 2/‖w‖"]) == pytest.approx(np.sqrt(2),
                                                                                  abs=1e-3)
    assert "margin 1/‖w‖" not in rows


def test_the_two_point_preset_asks_for_the_books_margin():
    from ui.playground.teacher import PRESETS_BY_KEY

    text = PRESETS_BY_KEY["two_point"].question
    assert "the margin 1/‖w‖" in text and "2/‖w‖" in text


def test_point_labels_follow_the_slides_not_alpha_alone():
    """Issue 27 item 6: D1's x2 and x14 (y·h = 1, α = 0 for SMO) are support vectors (slide 6,
    slide 16); a point on h(x) = 0 is misclassified (ξ = 1, slide 17); PSVM's x5 (α < 0) is
    one of its support vectors."""
    from ui.shared.point_labels import ON_HYPERPLANE, SV_ON_MARGIN

    d = datasets.d1()
    m = fitting.fit_points(d.X, d.y, S.settings_from_dataset(d.settings)).model
    df = tables.point_table(m)
    yh, alpha = df["y·h(x)"].to_numpy(), df["α"].to_numpy()
    idle = np.flatnonzero((np.abs(yh - 1) < 1e-6) & (alpha == 0))
    assert len(idle) > 0
    assert set(df["category"].iloc[idle]) == {SV_ON_MARGIN}
    assert "non-SV" not in set(df["category"].iloc[[0, 1, 3, 12, 13]])  # slide 16's five
    # a square's two columns, and one point of each class at its centre: by symmetry h = 0 there
    X = np.array([[0.0, 0.0], [0.0, 2.0], [2.0, 0.0], [2.0, 2.0], [1.0, 1.0], [1.0, 1.0]])
    y = np.array([1, 1, -1, -1, 1, -1])
    s = dict(S.settings_from_dataset(d.settings), hard_margin=False, C=1.0)
    m = fitting.fit_points(X, y, s).model
    df = tables.point_table(m)
    on = np.flatnonzero(np.abs(df["h(x)"].to_numpy()) < 1e-6)
    assert len(on) and set(df["category"].iloc[on]) == {ON_HYPERPLANE}
    # PSVM: every point is a support vector, never "non-SV"
    d2 = datasets.d2()
    s = dict(S.settings_from_dataset(d2.settings), solver="psvm", loss="quadratic",
             bias="augmented")
    m = fitting.fit_points(d2.X, d2.y, s).model
    cats = tables.point_table(m)["category"]
    assert (m.alpha < 0).any() and "non-SV" not in set(cats)
