"""Worked examples: every example of the seeds, live, beside the book's own numbers.

Thin: the numbers come from ``ui.worked_examples.examples`` (the engine, at run time), the plots
from
``ui.worked_examples.figures`` (the Playground's drawing); both are cached with st.cache_data (pure
results keyed by the example). "Open in Playground" loads an example into the Playground's
session state in a callback and switches page on the next run.
"""

import logging

import pandas as pd
import streamlit as st

from svm_engine import datasets
from ui.serving import budget
from ui.shared import present, reveal, state, tables
from ui.shared.book_setups import playground_target
from ui.shared.chart import show_chart
from ui.shared.nav import run_through_app
from ui.shared.sv_labels import LABEL_LEGEND
from ui.step_through.box_chart import show_box
from ui.worked_examples import examples as E
from ui.worked_examples import figures as EF
from ui.worked_examples import why
from ui.worked_examples.match import mark
from ui.worked_examples.page_state import WorkedExamples
from ui.worked_examples.result import Result
from ui.worked_examples.rows import latex_matrix, rows_table

run_through_app()  # a deep link on a fresh server must still go through app.py

ss = st.session_state
present.page_header(ss)  # a projector: no sidebar, larger text
reveal.watch(ss)  # the teacher's reveal of a link's hidden points
page = WorkedExamples.of(ss)

if page.goto_playground:
    page.goto_playground = False
    st.switch_page("pages/1_playground.py")


@st.cache_data(max_entries=16, show_spinner="Fitting the example …")
def result(key: str) -> Result:
    return budget.run("example", E.compute, (key,), settings=None, n=0, lane="heavy",
                      budget_s=budget.EXAMPLE_BUDGET_S)  # low priority, its own time budget


@st.cache_data(max_entries=16, show_spinner=False)
def plots(key: str) -> list[EF.Plot]:
    return EF.figures(key, result(key))


def open_in_playground(key: str, k: int) -> None:
    setup = E.BY_KEY[key].setups[k]
    try:
        X, y, settings, title = playground_target(setup)
        state.load_into_playground(ss, X, y, settings, title)
    except ValueError as exc:
        page.error = f"Could not open “{setup.label}” in the Playground: {exc}"
        return
    page.goto_playground = True


def section(ex: E.Example, r: Result | None, failure: str | None) -> None:
    st.header(f"{ex.number}. {ex.title}", anchor=f"example-{ex.number}", divider="gray")
    st.caption(f"From {ex.source}")
    if r is None:
        st.error(f"This example could not be computed: {failure}")
        return
    for w in r.warnings:
        st.warning(f"A solver did not converge: {w}")
    d = datasets.load(ex.dataset)
    if reveal.hides_points(ss, d.X, d.y):  # a teacher link's hidden points: not one page away
        st.info(reveal.HIDDEN_TEXT, icon=":material/visibility_off:")
        return
    left, right = st.columns([3, 2], gap="medium")
    with left:
        for k, p in enumerate(plots(ex.key)):
            words = {"key": f"we.plot.{ex.key}.{k}", "title": f"{ex.number}. {ex.title}",
                     "settings": (d.title, f"n = {d.n}", ex.settings_text)}
            if p.box is not None:  # SMO's step in its box, drawn as the step player draws it
                show_box(p.box, **words)
            else:
                show_chart(p.figure, **words)
            st.caption(p.caption)
    with right:
        st.markdown(f"**Data:** {d.title}: {d.n} points. *{d.source}.*")
        st.markdown(f"**Settings:** {ex.settings_text}.")
        for k, setup in enumerate(ex.setups):
            st.button(f"Open in Playground: {setup.label}", key=f"we.open.{ex.key}.{k}",
                      on_click=open_in_playground, args=(ex.key, k),
                      icon=":material/scatter_plot:", width="stretch")
        for note in r.notes:
            st.markdown(note)
        why.panel(ex.key, r)  # the theory of this example, with its numbers (issue 27)
    st.markdown("**Book value | app value | match**")
    st.table(pd.DataFrame(rows_table(r.rows)).set_index("quantity"))
    for title, rows in r.tables.items():
        st.markdown(f"**{title}**")
        st.table(pd.DataFrame(rows).set_index(list(rows[0])[0]))
    if r.matrices is not None:
        M = r.matrices
        st.markdown("**The primal QP that cvxopt solves, as SVM Lab builds it "
                    "(`primal_qp_matrices`)**")
        cols = st.columns(4)
        for col, name in zip(cols, ("P", "q", "G", "h"), strict=True):
            col.latex(f"{name} = {latex_matrix(getattr(M, name))}")
    if r.system is not None:
        S = r.system
        st.markdown("**The linear system PSVM solves on D2** (ν = 2, H = [A −e], D = diag(y))")
        c1, c2 = st.columns(2)
        c1.latex(r"I/\nu + H^\top H = " + latex_matrix(S.M, 3))
        c2.latex(r"H^\top D e = " + latex_matrix(S.v, 3))
    with st.expander(f"The {d.n} points and the app's per-point values"):
        main = why.main_model(r)
        st.dataframe(tables.with_distance(tables.point_table(main), main), hide_index=True)
        st.caption(LABEL_LEGEND)


st.title("Worked examples")
st.markdown(
    "Every worked example of the course notes, live. Each tab names the slide it comes from, "
    "the data and the settings, draws the app's answer the way the Playground does, and "
    "compares **book value | app value | match**. The app values are computed by the engine "
    "when the page runs; only the book column is typed in, and it cites its slide. A value "
    "matches a printed number when it lies within 1.5 units of its last printed digit "
    "(numbers a seed states exactly must agree to 1e-6)."
)
if page.error is not None:
    st.error(page.error)
    page.error = None

results: dict[str, Result] = {}
failures: dict[str, str] = {}
for e in E.EXAMPLES:
    try:
        results[e.key] = result(e.key)
    except Exception as exc:  # an engine bug must not become a traceback on the page
        logging.getLogger("ui.worked_examples").exception("worked example %s failed", e.key)
        failures[e.key] = f"{type(exc).__name__}: {exc}"
n_ok = sum(row.match for r in results.values() for row in r.rows)
n_all = sum(len(r.rows) for r in results.values()) + len(failures)
with st.expander(f"All {len(E.EXAMPLES)} examples at a glance: {n_ok} of {n_all} rows match "
                 f"{mark(n_ok == n_all)}"):
    st.table(pd.DataFrame(E.overview_table(results)).set_index("example"))

# Lazy tabs: only the open example is drawn (eleven plots at once are slow in a browser).
tabs = st.tabs([e.tab for e in E.EXAMPLES], key=WorkedExamples.widget_key("example"),
               on_change="rerun")
for tab, example in zip(tabs, E.EXAMPLES, strict=True):
    if tab.open:
        with tab:
            section(example, results.get(example.key), failures.get(example.key))
