"""The "Why?" panels read on the pages (AppTest): their numbers are the ones the page shows
(the Playground's numbers panel and answer, the worked example's fit, the Kernels page's
fit), and the student view hides the solvers' internals and shows them again."""

from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from svm_engine import datasets
from ui.shared import student, theory
from ui.shared.numbers import fmt_num

PAGES = Path(__file__).resolve().parents[1] / "pages"


def run(page: str, state: dict | None = None) -> AppTest:
    at = AppTest.from_file(str(PAGES / page), default_timeout=180)
    for k, v in (state or {}).items():
        at.session_state[k] = v
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def why_text(at: AppTest) -> str:
    (panel,) = [e for e in at.expander if e.label.startswith("Why?")]
    return "\n".join(m.value for m in panel.markdown)


def test_playground_why_panel_prints_the_numbers_panel_and_the_tables_values():
    from tests.test_page_playground import answer

    at = run("1_playground.py", {"svmlab.why": True})
    text = why_text(at)
    ans = answer(at)
    panel = dict(ans["panel"])
    assert f"the smallest δ is {panel['margin 1/‖w‖']} = 1/‖w‖" in text  # the panel's margin
    assert f"The solver's b: **{panel['b']}**" in text        # and its b
    # δ of the table (y·h/‖w‖ from the answer) and the KKT lists from the answer's α
    d = datasets.d1()
    yh = d.y * np.asarray(ans["h"])
    delta = yh / ans["w_norm"]
    assert f"the smallest δ is {fmt_num(delta.min())}" in text
    alpha = np.asarray(ans["alpha"])
    zero = theory.names(np.flatnonzero(alpha == 0))
    assert f"**αᵢ = 0 ⇒ yᵢh(xᵢ) ≥ 1:** {zero}" in text
    free = theory.names(ans["free"])
    assert f"(a support vector, on the margin):** {free}" in text


def test_playground_why_panel_is_closed_and_empty_by_default():
    at = run("1_playground.py")
    (panel,) = [e for e in at.expander if e.label.startswith("Why?")]
    assert not panel.markdown


def labels(at: AppTest) -> set[str]:
    return {w.label for kind in ("radio", "selectbox", "number_input") for w in at.get(kind)}


def captions(at: AppTest) -> str:
    return "\n".join(c.value for c in at.caption)


#: per page: a solver internal the full view shows, as (labels of widgets, a caption's words)
INTERNALS = {
    "1_playground.py": ({"SMO working-set rule"}, ""),
    "3_step_through.py": ({"Working-set rule"}, "budget of a fit"),
    "4_compare_solvers.py": ({"Tolerance", "Max iterations (0 = each solver's own cap)"},
                             "tight tolerances"),
}


@pytest.mark.parametrize("page", list(INTERNALS))
def test_student_view_hides_the_solver_internals_and_shows_them_again(page):
    widgets, words = INTERNALS[page]
    at = run(page)
    assert at.toggle(key=student.TOGGLE).value is False
    assert widgets <= labels(at) and words in captions(at)          # the full view
    at.toggle(key=student.TOGGLE).set_value(True).run()
    assert not at.exception and student.is_student(at.session_state) is True
    assert not widgets & labels(at)                                 # the student view
    assert not words or words not in captions(at)
    at.toggle(key=student.TOGGLE).set_value(False).run()
    assert widgets <= labels(at) and words in captions(at)          # and back


def test_step_through_summary_names_the_working_set_rule_only_in_the_full_view():
    at = run("3_step_through.py")
    summary = lambda: next(m.value for m in at.markdown if m.value.startswith("The run took"))  # noqa: E731
    assert "working-set rule" in summary()
    at.toggle(key=student.TOGGLE).set_value(True).run()
    assert "working-set rule" not in summary() and "steps" in summary()


def test_compare_table_drops_the_tolerance_column_in_the_student_view():
    at = run("4_compare_solvers.py")
    assert "tolerance" in at.dataframe[0].value.columns
    at.toggle(key=student.TOGGLE).set_value(True).run()
    assert "tolerance" not in at.dataframe[0].value.columns
    assert "converged" in at.dataframe[0].value.columns          # the chapter's quantities stay


def test_a_teacher_link_opens_in_the_student_view_and_a_student_may_leave_it():
    from tests.test_page_teacher import d2_spec
    from ui.playground import teacher_spec as T

    at = AppTest.from_file(str(PAGES / "1_playground.py"), default_timeout=180)
    at.query_params.update({"ts": T.encode_blob(d2_spec(locked=[], hidden=[]))})
    at.run()
    assert not at.exception
    assert at.toggle(key=student.TOGGLE).value is True
    assert "SMO working-set rule" not in labels(at)
    at.toggle(key=student.TOGGLE).set_value(False).run()
    assert "SMO working-set rule" in labels(at)


def test_worked_example_why_panel_is_the_examples_fit():
    from ui.worked_examples import examples as E

    at = run("2_worked_examples.py", {"we.why.d1": True})
    text = why_text(at)
    m = E.compute("d1").models["smo"]
    assert f"dual objective {fmt_num(m.dual_objective, 6)}" in text
    assert f"The solver's b: **{fmt_num(m.b)}**" in text
    avg, _, idx = theory.slide_bias(m)
    assert f"Average: **b = {fmt_num(avg)}**" in text
    assert theory.names(theory.kkt_cases(m)["free"]) in text
    assert "0 ≤ αᵢ ≤ C" not in text and "αᵢ ≥ 0, Σᵢ αᵢyᵢ = 0" in text   # hard margin


def test_kernels_why_panel_is_the_pages_fit():
    from ui.kernels import compute as KC

    at = run("5_kernels.py", {"kn.why": True})
    text = why_text(at)
    # the page's default: the Playground's points (book D1), C = 4, (xᵀz + 0)²
    assert any("n = 14 points, C = 4" in m.value for m in at.markdown)
    d = datasets.d1()
    m = KC.feature_view(d.X, d.y, 0.0, 4.0).model
    assert "h(z) = Σᵢ αᵢyᵢK(xᵢ, z) + b" in text
    assert f"the solver's b is {fmt_num(m.b)}" in text or f"solver's b = {fmt_num(m.b)}" in text
    sv = m.support
    assert f"({fmt_num(m.alpha[sv[0]] * m.y[sv[0]])})·K(x{sv[0] + 1}, z)" in text
    assert f"h(x{sv[0] + 1}) = {fmt_num(m.h_train[sv[0]])}" in text


def test_no_why_panel_while_a_teacher_hides_the_numbers():
    from tests.test_page_teacher import d2_spec
    from ui.playground import teacher_spec as T

    at = AppTest.from_file(str(PAGES / "1_playground.py"), default_timeout=180)
    at.query_params.update({"ts": T.encode_blob(d2_spec())})   # hides table and numbers
    at.run()
    assert not at.exception
    assert not [e for e in at.expander if e.label.startswith("Why?")]
    shown = AppTest.from_file(str(PAGES / "1_playground.py"), default_timeout=180)
    shown.query_params.update({"ts": T.encode_blob(d2_spec(hidden=[]))})
    shown.run()
    assert [e for e in shown.expander if e.label.startswith("Why?")]


def test_playground_numbers_panel_in_the_student_view_has_no_solver_internals():
    from tests.test_page_playground import answer

    at = run("1_playground.py")
    full = dict(answer(at)["panel"])
    assert "time" in full and "pair choice" in full["solver"]
    at.toggle(key=student.TOGGLE).set_value(True).run()
    ans = answer(at)
    shown = dict(ans["panel"])
    assert "time" not in shown and shown["solver"] == "SMO (Platt)"
    assert {k: full[k] for k in ("w", "b", "margin 1/‖w‖", "support vectors")} == \
        {k: shown[k] for k in ("w", "b", "margin 1/‖w‖", "support vectors")}
    # the endpoint answers the browser's later edits in the same view (style.student)
    from ui.serving import fit_api, fit_schema

    d = datasets.d2()
    pts = [[*x, int(t)] for x, t in zip(d.X.tolist(), d.y.tolist(), strict=True)]
    view = {"x": [0, 6], "y": [0, 5]}
    body = {"points": pts, "settings": {"C": 1.0}, "view": view, "style": {"student": True}}
    assert "time" not in dict(fit_api.refit(body)["panel"])
    with pytest.raises(fit_api.BadRequest):
        fit_schema.parse_style({"student": "yes"})
