"""More classes: k-class SVMs built from the binary one — one-vs-rest and one-vs-one — on the
3-species Iris (two chosen features), k generated blobs, or a file with k classes; the
region of every class, each binary machine's boundary on request, and the scores and votes
of every point.

Thin: the shared data-source and model blocks (``ui.shared.controls``) → one cached
fit in a fit worker (``ui.multiclass.compute.run``, within the time budget) → the figure of
``ui.multiclass.figures``. A click or a tap on the plot
adds a point of the chosen class there (``ui.shared.click_plot``: the Playground's canvas
knows two classes).
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd
import streamlit as st

from svm_engine.datasets import IRIS_FEATURES
from svm_engine.datasets_multiclass import MAX_K
from svm_engine.multiclass import STRATEGY_NAMES
from ui.data import io as pio
from ui.data.import_panel import Upload
from ui.multiclass import compute as M
from ui.multiclass import figures as F
from ui.multiclass.page_state import MoreClasses
from ui.serving import budget
from ui.shared import click_plot
from ui.shared import controls as ctl
from ui.shared.chart import model_words
from ui.shared.figures import PLOTLY_CONFIG
from ui.shared.nav import run_through_app
from ui.shared.numbers import fmt_fixed, fmt_pct, fmt_setting

run_through_app()  # a deep link on a fresh server must still go through app.py

ss = st.session_state
page = MoreClasses.of(ss)
P, K = MoreClasses.PREFIX, MoreClasses.widget_key  # the widget keys of this page
NEW = "+ a new class"          # plain text: no emoji font on a bare Debian Chromium
SOURCES = {"iris": "Iris: 3 species (two features)", "blobs": "k blobs (generated)",
           "file": "A file with k classes"}
DEFAULTS = {"source": "iris", "f1": "sepal_length", "f2": "sepal_width", "k": 4, "n": 80,
            "noise": 0.8, "seed": 0, **M.DEFAULTS}
CHART_CONFIG = {**PLOTLY_CONFIG, "scrollZoom": False}
MODEL_KEYS = ("kernel", "degree", "coef0", "sigma", "loss", "C")  # ctl.model_sidebar's here
BLOBS = ctl.Sliders(n=(2, M.MAX_POINTS, 1), noise=(0.1, 2.0, 0.1), seed_max=10_000,
                    n_label="n points", noise_label="noise (std)", k_max=MAX_K, keys="")
UPLOAD = Upload(read=M.read_table, label="CSV / TSV / TXT with a header, or svmlight",
                help=f"At most {M.MAX_POINTS} rows, {M.MAX_CLASSES} classes, "
                     f"{pio.MAX_UPLOAD_BYTES // 1000} kB.")

st.title("More classes")
st.caption("An SVM separates two classes. For k classes, train several binary machines and "
           "combine them: one-vs-rest (k machines, the largest h(x) wins) or one-vs-one "
           "(k(k−1)/2 machines, one vote each). Click the plot to add a point of the chosen "
           "class.")


def clear_added() -> None:
    page.added = []


def iris_features() -> tuple[str, str]:
    sb = st.sidebar
    f1 = sb.selectbox("x1", IRIS_FEATURES, key=K("f1"), on_change=clear_added)
    f2 = sb.selectbox("x2", IRIS_FEATURES, key=K("f2"), on_change=clear_added)
    if f1 == f2:
        sb.error("Choose two different features.")
        st.stop()
    return f1, f2


def data_sidebar() -> tuple[np.ndarray, np.ndarray, tuple, str]:
    src = ctl.data_source(ss, P, SOURCES, radio=True, generators=("blobs",), sliders=BLOBS,
                          options={"iris": iris_features}, upload=UPLOAD,
                          on_change=clear_added, on_points=clear_added)
    if src.name == "iris":
        f1, f2 = src.option
        X, labels, names = M.iris((f1, f2))
        return X, labels, names, f"Iris, 3 species: {f1} and {f2} (cm)"
    if src.name == "blobs":
        k, n, noise, seed = (src.params[p] for p in ("k", "n", "noise", "seed"))
        X, labels, names = M.blobs(int(k), int(n), float(noise), int(seed))
        return X, labels, names, f"{k} blobs (n = {n}, noise = {fmt_setting(noise)}, seed = {seed})"
    if src.file is None:
        return np.zeros((0, 2)), np.zeros(0, dtype=str), ("x1", "x2"), "No file yet"
    name, table, (x1, x2, lab) = src.file
    try:
        X, labels, names = M.table_points(table, x1, x2, lab)
    except ValueError as exc:
        st.sidebar.error(pio.markdown_safe(f"These columns do not work: {exc}."))
        return np.zeros((0, 2)), np.zeros(0, dtype=str), ("x1", "x2"), name
    return X, labels, names, f"Imported: {name}"


def model_sidebar() -> dict:
    sb = st.sidebar
    sb.header("Model")
    s = {"strategy": sb.radio("Strategy", tuple(STRATEGY_NAMES), key=K("strategy"),
                              format_func=STRATEGY_NAMES.get, horizontal=True)}
    s.update(ctl.model_sidebar(ss, P, {k: ss[K(k)] for k in MODEL_KEYS}, hard_margin=False,
                               c_help="The same C for every binary machine."))
    s["solver"] = sb.radio("Solver", tuple(M.SOLVERS), key=K("solver"),
                           format_func=M.SOLVERS.get, horizontal=True)
    return s


def add_point(x1: float, x2: float, label: str) -> None:
    page.added.append((float(x1), float(x2), str(label)))
    if ss.get(K("click_class")) == NEW:    # the class just made: the next clicks add to it
        ss[K("click_class")] = str(label)


def on_plot_click(xr, yr, n: int, label: str) -> None:
    xy = click_plot.parse_click(ss.get(K("plot")), xr, yr)
    if xy is not None and n < M.MAX_POINTS:
        add_point(*xy, label)


@st.cache_data(max_entries=32, show_spinner="Training the binary machines …")
def cached_fit(xb: bytes, labels: tuple, skey: tuple) -> M.Answer:
    X = np.frombuffer(xb).reshape(-1, 2)
    return budget.run("multiclass", M.run, (X, np.array(labels), dict(skey)), settings=None,
                      n=len(X), lane="light" if len(X) <= 150 else "heavy")


page.widgets.restore(ss)
ctl.default_widgets(ss, P, DEFAULTS)
page.widgets.keep(ss, DEFAULTS)
X, labels, names, title = data_sidebar()
s = M.check_settings(model_sidebar())
added = page.added
if added:
    X = np.vstack([X, [[p[0], p[1]] for p in added]])
    labels = np.concatenate([labels.astype(str), [p[2] for p in added]])
classes = sorted(set(labels.tolist()))

why = M.refusal(X, labels, s)
answer = None
if why is None:
    try:
        answer = cached_fit(np.ascontiguousarray(X, dtype=float).tobytes(), tuple(labels),
                            tuple(sorted(s.items())))
    except budget.BudgetError as exc:        # stopped at the budget: never cached
        why = (f"{exc} Try fewer points, a smaller C, the linear kernel, or one-vs-one "
               "(its machines see only two classes each).")
    except ValueError as exc:
        why = f"This fit was refused: {exc}"

st.markdown(f"**{pio.markdown_safe(title)}** — n = {len(X)} points, {len(classes)} classes"
            + (f" ({len(added)} added by you)" if added else ""))
c1, c2, c3 = st.columns([2, 1, 1], vertical_alignment="bottom")
new_label = next(f"class {j}" for j in range(len(classes) + 1, 99)
                 if f"class {j}" not in classes)
options = classes + ([NEW] if len(classes) < M.MAX_CLASSES else [])
if ss.get(K("click_class")) not in options:     # its class undone or another data source
    ss.pop(K("click_class"), None)
choice = c1.selectbox("Class of the next point you click", options, key=K("click_class"))
label = new_label if choice == NEW else choice
c2.button("Undo last point", key=K("undo"), disabled=not added,
          on_click=lambda: page.added.pop(), width="stretch")
c3.button("Remove my points", key=K("clear"), disabled=not added, on_click=clear_added,
          width="stretch")

if why is not None:
    st.error(pio.markdown_safe(why))
if answer is None:     # no fit: the points alone, still clickable (add another class)
    lo, hi = (X.min(axis=0) - 1, X.max(axis=0) + 1) if len(X) else ((-3, -3), (3, 3))
    fig = {"data": [{"type": "scatter", "mode": "markers", "x": X[labels == c, 0],
                     "y": X[labels == c, 1], "name": c,
                     "marker": {"size": 12, "color": F.COLORS[i % 8],
                                "symbol": F.SYMBOLS[i % 8]}} for i, c in enumerate(classes)],
           "layout": {"xaxis": {"range": [lo[0], hi[0]], "title": {"text": names[0]}},
                      "yaxis": {"range": [lo[1], hi[1]], "title": {"text": names[1]}},
                      "height": 560}}
else:
    mnames = [m["machine"] for m in answer.machines]
    boundaries = st.multiselect("Show the boundary h(x) = 0 of these binary machines",
                                range(len(mnames)), format_func=mnames.__getitem__,
                                # other machines (other data): a fresh choice, whose chips
                                # cannot keep the old machines' names
                                key=K("boundaries.") + "|".join(mnames))
    fig = F.regions_figure(answer, X, labels, names, boundaries=boundaries)
xr, yr = fig["layout"]["xaxis"]["range"], fig["layout"]["yaxis"]["range"]
click_plot.click_plot(fig, key=K("plot"), config=CHART_CONFIG,
                      on_click=partial(on_plot_click, xr, yr, len(X), label),
                      title=f"More classes: {STRATEGY_NAMES[s['strategy']]}",
                      table="The binary machines",
                      settings=(title, f"n = {len(X)}", f"{len(classes)} classes",
                                model_words(s, solver=M.SOLVERS[s["solver"]])))
st.caption(f"Click or tap the plot to add a point of the chosen class there (at most "
           f"{M.MAX_POINTS} points); drag to zoom. {click_plot.KEYS_HINT} Regions: the class "
           "each place of the plane is given.")
with st.expander("Add a point by its coordinates"):
    a, b, c = st.columns([2, 2, 1], vertical_alignment="bottom")
    px = a.number_input(pio.markdown_safe(names[0]), value=float(np.mean(xr)), key=K("add.x1"))
    py = b.number_input(pio.markdown_safe(names[1]), value=float(np.mean(yr)), key=K("add.x2"))
    c.button("Add", key=K("add.go"), on_click=add_point, args=(px, py, label),
             disabled=len(X) >= M.MAX_POINTS)
if answer is None:
    st.stop()

acc = M.accuracy(answer, labels)
(st.success if answer.converged else st.warning)(
    f"**{STRATEGY_NAMES[answer.strategy]}**: {len(answer.machines)} binary machines "
    f"({M.SOLVERS[s['solver']]}, {fmt_fixed(1000 * answer.time_s, 0)} ms) — {answer.status}. "
    f"Training accuracy {fmt_pct(acc)}.")
if answer.strategy == "ovr":
    st.latex(r"\hat y(\mathbf{x}) = \arg\max_{c} h_c(\mathbf{x}),\qquad h_c:\ "
             r"\text{class } c\ (+1)\ \text{vs the rest}\ (-1)")
    st.caption("Each machine sees every point: its own class as +1, all the others as −1. "
               "Ties go to the first class in the list (as scikit-learn's "
               "OneVsRestClassifier). A point may be claimed by no machine (every h < 0) or "
               "by several: the largest h decides.")
else:
    st.latex(r"\hat y(\mathbf{x}) = \arg\max_{c}\ \#\{\,\text{machines } (i, j)\ "
             r"\text{won by } c\,\},\qquad h_{ij} > 0 \Rightarrow i,\ h_{ij} \le 0 "
             r"\Rightarrow j")
    st.caption("Each machine sees only the points of its two classes. A tie in votes goes to "
               "the first class in the list (as LIBSVM and scikit-learn's SVC); a cycle "
               "(i beats j, j beats l, l beats i) is such a tie.")

st.header("The binary machines")
st.dataframe(pd.DataFrame(answer.machines), hide_index=True, key=K("machines"),
             column_config={"b": st.column_config.NumberColumn(format="%.4f"),
                            "converged": st.column_config.CheckboxColumn(),
                            "status": st.column_config.TextColumn(width="large")})
st.header("Every point: the machines' scores" + (" and votes" if answer.strategy == "ovo"
                                                     else ""))
only_wrong = st.toggle("Only the misclassified points", key=K("only_wrong"))
rows = pd.DataFrame(M.point_rows(answer, X, labels))
st.dataframe(rows[~rows["right"]] if only_wrong else rows, hide_index=True, key=K("points"),
             column_config={c: st.column_config.NumberColumn(format="%.4f")
                            for c in rows.columns if c.startswith(("h:", "x1", "x2"))})
