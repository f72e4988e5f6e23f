"""The worked examples' logic (ui/worked_examples/: the registry examples.py, the match rule
match.py, the rows rows.py, the α table alpha_table.py, the ex_*.py examples, figures.py): the
match rule, the rows, and that a drift of a solver or of a book value turns a tick into a cross."""

import math
from dataclasses import replace

import numpy as np
import pytest

import svm_engine as se
from svm_engine import datasets
from ui.shared import fitting
from ui.shared import state as S
from ui.shared.book_setups import playground_target
from ui.shared.session import shared
from ui.worked_examples import alpha_table, ex_iris, ex_two_point
from ui.worked_examples import book_values as B
from ui.worked_examples import examples as E
from ui.worked_examples import figures as EF
from ui.worked_examples import match as M
from ui.worked_examples import rows as R

STRICT = ("d1", "d2", "iris", "two_point")  # examples 1–3 and 7: the book prints numbers


def test_the_match_rule_is_the_printed_precision():
    p = M.Printed("0.833", "slide 16")
    assert M.tolerance(p) == pytest.approx(1.5e-3)
    assert M.matches_printed(0.8333, p) and M.matches_printed(0.8345, p)
    assert not M.matches_printed(0.8346, p) and not M.matches_printed(0.8314, p)
    assert M.matches_printed(-3.3333, M.Printed("-3.332", "s"))
    assert not M.matches_printed(-3.336, M.Printed("-3.332", "s"))
    assert M.matches_printed(-23.119, M.Printed("-23.12", "s"))
    assert not M.matches_printed(-23.143, M.Printed("-23.12", "s"))  # the exact h1000 b
    assert not M.matches_printed(math.nan, p) and not M.matches_printed(math.inf, p)
    exact = M.Printed("-3", "seed 004", exact=True)
    assert M.matches_printed(-3.0000001, exact) and not M.matches_printed(-3.001, exact)


def test_rows_show_one_more_digit_and_compute_the_match():
    r = R.number_row("b", -10 / 3, M.Printed("-3.332", "slide 16"))
    assert (r.book, r.app, r.match) == ("−3.332", "−3.3333", True)
    assert not R.number_row("b", -3.34, M.Printed("-3.332", "slide 16")).match
    assert R.set_row("SV", [0, 1, 3], [3, 1, 0], "s").match
    assert not R.set_row("SV", [0, 1], [0, 1, 3], "s").match
    assert R.matrix_row("h", np.array([[-1.0], [-1.0]]), (-1.0, -1.0), "s").match
    assert not R.matrix_row("h", np.array([[-1.0], [-1.0], [0.0]]), (-1.0, -1.0), "s").match
    assert not R.matrix_row("P", np.eye(3), np.diag([1.0, 1.0, 0.0]), "s").match
    t = R.rows_table([r])
    assert t == [{"quantity": "b", "book value": "−3.332", "source": "slide 16",
                  "app value": "−3.3333", "match": M.TICK}]


@pytest.fixture(scope="module")
def results():
    return {e.key: e.compute() for e in E.EXAMPLES}


def test_every_example_computes_and_the_strict_ones_all_match(results):
    assert [e.number for e in E.EXAMPLES] == list(range(1, 9))
    assert {e.key for e in E.EXAMPLES if e.strict} == set(STRICT)
    for e in E.EXAMPLES:
        r = results[e.key]
        assert r.rows and not r.warnings, e.key
        off = [(x.quantity, x.book, x.app) for x in r.rows if not x.match]
        assert not off, off
    # every strict example compares real printed numbers, not only claims
    for key in STRICT:
        assert any(row.book[-1].isdigit() for row in results[key].rows)


def test_example1_alpha_table_book_smo_qp_all_feasible_and_optimal(results):
    (table,) = results["d1"].tables.values()
    cols = ["book α (slide 16)", "app α: smo", "app α: qp"]
    checks = [row for row in table if row[""].startswith(("feasible", "optimal"))]
    assert len(checks) == 2 and all(row[c] == M.TICK for row in checks for c in cols)
    # the three α really differ (α is not unique) yet give the same w
    alphas = {row[""]: [row[c] for c in cols] for row in table if row[""].startswith("α")}
    assert any(len(set(v)) > 1 for v in alphas.values())
    (w_row,) = [row for row in table if row[""].startswith("w =")]
    assert len({w_row[c] for c in cols}) == 1


def test_alpha_checks_catch_infeasible_and_suboptimal_alpha():
    d = datasets.d1()
    book = alpha_table.book_column(d, B.BOOK_D1["alpha"])
    a_book, rnd = book.alpha, book.rounding
    opt = 0.5 * (25 / 36 + 1 / 9)
    bad_sum = a_book.copy()
    bad_sum[0] += 0.01                      # Σαᵢyᵢ ≠ 0
    half = 0.5 * a_book                     # feasible, but the dual is lower
    col = alpha_table.alpha_column
    table = alpha_table.alpha_comparison(d, math.inf, {"bad": col(d, bad_sum, rnd),
                                                       "half": col(d, half, rnd),
                                                       "book": book}, opt)
    feas = next(r for r in table if r[""].startswith("feasible"))
    optimal = next(r for r in table if r[""].startswith("optimal"))
    assert (feas["bad"], feas["half"], feas["book"]) == (M.CROSS, M.TICK, M.TICK)
    assert (optimal["half"], optimal["book"]) == (M.CROSS, M.TICK)


def test_a_drifting_solver_shows_a_cross(monkeypatch):
    real = se.fit

    def drifting(*a, **k):
        m = real(*a, **k)
        if k.get("solver") == "smo":
            m.b += 0.01                        # a bias off by 0.01
        return m

    monkeypatch.setattr(se, "fit", drifting)
    r = E.compute("d1")
    by = {row.quantity: row.match for row in r.rows}
    assert by["b"] is False and by["w₁"] is True


def test_a_changed_book_value_shows_a_cross(monkeypatch):
    monkeypatch.setitem(B.BOOK_D2, "total_slack", M.Printed("5.700", "slide 23"))
    r = E.compute("d2")
    assert [row.quantity for row in r.rows if not row.match] == ["total slack Σξᵢ"]


def test_the_book_stopping_rule_matters_for_h1000(monkeypatch):
    monkeypatch.setattr(ex_iris, "SGA_EPS", 1e-2)
    r = E.compute("iris")
    assert not all(x.match for x in r.rows)  # stopped too early: the printed digits are lost


def test_a_regularised_bias_in_the_primal_qp_shows_a_cross(monkeypatch):
    real = ex_two_point.primal_qp_matrices
    monkeypatch.setattr(ex_two_point, "primal_qp_matrices",
                        lambda X, y, C: real(X, y, C, bias="augmented"))
    r = E.compute("two_point")
    assert [row.quantity for row in r.rows if not row.match] == ["P"]


def test_example7_smo_step_is_the_seeds_formulas():
    """Seed 004 §6 on the two points: η = −2 (its sign), λ₂ = 1 unclipped in [0, ∞), λ₁ = 1,
    and SMO's w, b after that one step are the hand-solved ones."""
    r = E.compute("two_point")
    rows = {row.quantity: row for row in r.rows}
    assert rows["SMO step 1, pair (x1, x2): η"].app.startswith(R.show("-2 "))
    assert rows["U ≤ λ₂ ≤ V"].book == "U = 0, V = ∞"
    assert all(row.match for row in r.rows)
    smo = r.models["smo"]
    assert len(smo.trace) == 1 and smo.alpha.tolist() == [1.0, 1.0]
    # a step that differed from the seed's formulas would show a cross on that row
    bad = dict(smo.trace[0], aj_unclipped=2.0)
    rows = {row.quantity: row.match
            for row in ex_two_point.smo_step_rows(datasets.two_point(), replace(smo, trace=[bad]))}
    assert not rows["λ₂ unclipped"] and rows["U ≤ λ₂ ≤ V"]
    # and its picture is that step in its box, drawn as the Step-through page draws it
    box = EF.figures("two_point", r)[1]
    assert box.figure is None and box.box["it"] == 1
    assert (box.box["i"], box.box["j"]) == (0, 1) and not box.box["clipped"]
    assert [box.box[k] for k in ("ai_old", "aj_old", "ai_new", "aj_new")] == [0, 0, 1, 1]


def test_example3_tables_show_the_exact_optimum_and_the_free_bias(results):
    r = results["iris"]
    versus, bias = r.tables.values()
    b1000 = next(row for row in versus if row["C"] == "1000" and row[""] == "b")
    assert b1000["exact optimum (qp)"] == "−23.143" and b1000["SGA, ε = 1e-4"] == "−23.119"
    free = next(row for row in bias if row["hyperplane"].startswith("free"))
    assert (free["w₁"], free["w₂"], free["b"]) == ("4.000", "−4.000", "−9.000")
    # each hyperplane wins its own objective
    book = next(row for row in bias if row["hyperplane"].startswith("book"))
    f, a = "½‖w‖² + CΣξ (free-bias objective)", "½(‖w‖² + b²) + CΣξ (book's objective)"
    assert float(free[f]) < float(book[f]) and float(book[a]) < float(free[a])


def test_example8_compares_psvm_with_the_svm(results):
    r = results["psvm"]
    assert r.models["psvm"].solver == "psvm" and (r.models["psvm"].alpha < 0).any()
    (table,) = r.tables.values()
    assert [row["points with α ≠ 0"] for row in table][:2] == ["9", "18"]


def test_example8_uniqueness_row_is_the_engines_certificate(monkeypatch):
    """The row "gradient 0" ticks when the engine certifies PSVM's optimum (model.converged),
    not by a threshold of the page's own: an uncertified fit shows a cross there only."""
    real = se.fit

    def uncertified(*a, **k):
        m = real(*a, **k)
        if k.get("solver") == "psvm":
            m.converged = False
        return m

    monkeypatch.setattr(se, "fit", uncertified)
    r = E.compute("psvm")
    assert [row.quantity for row in r.rows if not row.match] == [
        "strongly convex: the solution is unique (gradient 0)"]


def test_every_open_in_playground_target_is_a_valid_playground_state():
    for e in E.EXAMPLES:
        assert e.setups
        for setup in e.setups:
            X, y, settings, title = playground_target(setup)
            ss = {}
            S.load_into_playground(ss, X, y, settings, title)
            d = datasets.load(setup.dataset)
            np.testing.assert_array_equal(shared(ss).X, d.X)
            s = shared(ss).settings
            for k, v in setup.settings.items():
                if k == "C" and math.isinf(v):
                    assert s["hard_margin"] is True
                else:
                    assert s[k] == v, (setup.label, k)
            out = fitting.fit_points(shared(ss).X, shared(ss).y, s)
            assert out.ok, (setup.label, out.error)


def test_figures_use_the_playground_drawing_with_overlays(results):
    for e in E.EXAMPLES:
        plots = EF.figures(e.key, results[e.key])
        assert plots
        for p in plots:
            if p.box is not None:
                continue  # example 7's SMO step (test_example7_smo_step_is_the_seeds_formulas)
            roles = [t["meta"]["role"] for t in p.figure["data"]]
            assert "boundary" in roles and "points" in roles and "overlay" in roles, e.key
    d1 = EF.figures("d1", results["d1"])[0].figure
    book = [t for t in d1["data"] if t.get("name") == "book (slide 16)"]
    assert len(book) == 1 and book[0]["line"]["dash"] == EF.BOOK_DASH


def test_latex_matrix():
    assert R.latex_matrix([[1, 0], [-2, 0.5]]) == (
        r"\begin{bmatrix} 1 & 0 \\ -2 & 0.5 \end{bmatrix}")
    assert R.latex_matrix([-1.0, -1.0]) == r"\begin{bmatrix} -1 \\ -1 \end{bmatrix}"
