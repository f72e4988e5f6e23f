"""Kernel perceptron & k-NN: kernels in algorithms other than the SVM (Odobez's kernel-methods
lecture): the dual perceptron stepped mistake by mistake beside the SVM on the same points and
kernel, and k-NN — Euclidean or through the kernel — with 1-NN's Voronoi cells, the neighbours
of a query point, and memory-based against model-based.

Thin page: sidebar widgets → cached runs in a budget worker (``ui.serving.budget``): the
kernel perceptron and k-NN (``ui.knn_perceptron.compute``), the SVM (``ui.shared.fitting``)
→ figures (``ui.knn_perceptron.figures``) drawn by ``ui.shared.click_plot`` (a click adds a
point, or moves the query point) and words. Stepping never reruns the perceptron.
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd
import streamlit as st

from svm_engine.datasets_multiclass import blobs_k, iris_species
from ui.knn_perceptron import compute as C
from ui.knn_perceptron import figures as F
from ui.knn_perceptron.page_state import KernelPerceptronKnn
from ui.serving import budget
from ui.shared import click_plot, reveal
from ui.shared import controls as ctl
from ui.shared.chart import model_words
from ui.shared.cite import cite
from ui.shared.figures import PLOTLY_CONFIG
from ui.shared.fitting import FitOutcome
from ui.shared.labels import DATASET_LABELS
from ui.shared.markdown import kernel_text, markdown_safe
from ui.shared.nav import run_through_app
from ui.shared.numbers import fmt_pct
from ui.shared.points import MAX_POINTS
from ui.shared.settings import settings_key
from ui.shared.stepper import step_buttons

run_through_app()  # a deep link on a fresh server must still go through app.py

ss = st.session_state
page = KernelPerceptronKnn.of(ss)
P, K = KernelPerceptronKnn.PREFIX, KernelPerceptronKnn.widget_key  # the widget keys of this page
SOURCE_LABELS = {"playground": "The Playground's points and settings", **DATASET_LABELS}
GEN = {"n": 60, "noise": 0.1}
MODEL_KEYS = ("kernel", "degree", "coef0", "sigma", "loss", "hard_margin", "C")
KNN_DATA = {"same": "the points above (two classes)", "iris": "Iris: 3 species (sepal length "
            "and width)", "blobs": "4 blobs (generated, seed 0)"}
CLICK = {"query": "move the query point", "add": "add a point of the class below"}
BIAS = {"free": "with bias b (b ← b + y)", "none": "no bias (b = 0)"}
DEFAULTS = {"epochs": 100, "bias": "free", "k": 1, "distance": "euclidean",
            "knn_data": "same", "click": "query", "class": "+1"}
CONFIG = {**PLOTLY_CONFIG, "scrollZoom": False}

st.title("Kernel perceptron & k-NN")
st.caption(
    "A kernel works in any algorithm written with dot products, not only in the SVM "
    f"({cite('kernels')}): the perceptron's w = Σ αᵢyᵢφ(xᵢ) needs only K, and so does the "
    "distance ‖φ(x) − φ(z)‖² that k-NN compares. Click a plot to add a point.")


def on_source_change() -> None:
    page.added, page.run_key = [], None
    for k in MODEL_KEYS:                     # the new source's suggested settings
        ss.pop(K(k), None)


def sidebar() -> tuple[np.ndarray, np.ndarray, str, dict]:
    X, y, title = ctl.points_sidebar(ss, P, **GEN, labels=SOURCE_LABELS,
                                     on_change=on_source_change,
                                     help="The Playground's current points (default), a book "
                                          "dataset or a generator.")
    base = ctl.source_settings(ss, P, ss[K("source")], **GEN)
    ctl.default_widgets(ss, P, {k: base[k] for k in MODEL_KEYS})
    st.sidebar.header("Kernel and SVM")
    s = ctl.model_sidebar(ss, P, base, c_help="The SVM's C (the perceptron has none).")
    s.update(solver="smo", bias="free")
    sb = st.sidebar
    sb.header("Kernel perceptron")
    sb.select_slider("epoch cap", C.EPOCH_CHOICES, key=K("epochs"),
                     help="Passes over the points in data order; the run stops earlier after "
                          "an epoch without mistakes.")
    sb.radio("bias", tuple(BIAS), key=K("bias"), format_func=BIAS.get)
    return X, y, str(title), s


def _points(xb: bytes, yb: bytes) -> tuple[np.ndarray, np.ndarray]:
    return np.frombuffer(xb, dtype=np.float64).reshape(-1, 2), np.frombuffer(yb, dtype=np.int64)


@st.cache_data(max_entries=32, show_spinner="Running the kernel perceptron …")
def cached_perceptron(xb: bytes, yb: bytes, skey: tuple, epochs: int, bias: str):
    X, y = _points(xb, yb)
    return budget.run("kernel perceptron", C.run_perceptron, (X, y, dict(skey), epochs, bias),
                      settings=None, n=len(X))


@st.cache_data(max_entries=32, show_spinner="Fitting the SVM …")
def cached_fit(xb: bytes, yb: bytes, skey: tuple):
    X, y = _points(xb, yb)
    return budget.fit_outcome(X, y, dict(skey))


@st.cache_data(max_entries=32, show_spinner="Finding the nearest neighbours …")
def cached_knn(xb: bytes, labels: tuple, k: int, skey: tuple | None, query: tuple):
    X = np.frombuffer(xb, dtype=np.float64).reshape(-1, 2)
    return budget.run("k-NN", C.knn_answer, (X, np.array(labels), k,
                                            None if skey is None else dict(skey), query),
                      settings=None, n=len(X))


def on_plot_click(xr, yr, label: int) -> None:
    xy = click_plot.parse_click(ss.get(K("plot")), xr, yr)
    if xy is not None and len(page.added) < MAX_POINTS:
        page.added.append((*xy, int(label)))


def clear_knn() -> None:
    page.knn_added, page.query = [], None


def on_knn_click(xr, yr, mode: str, label: str) -> None:
    xy = click_plot.parse_click(ss.get(K("knn_plot")), xr, yr)
    if xy is None:
        return
    if mode == "query":
        page.query = xy
    elif ss[K("knn_data")] == "same":
        page.added.append((*xy, 1 if label == "+1" else -1))
    else:
        page.knn_added.append((*xy, label))


# -------------------------------------------------------------------------------- page

page.widgets.restore(ss)
ctl.default_widgets(ss, P, DEFAULTS)
page.widgets.keep(ss, ("source", "gen.n", "gen.noise", "gen.seed", *MODEL_KEYS, *DEFAULTS))
try:
    X, y, title, settings = sidebar()
except ValueError as exc:  # a generator's parameters
    st.error(f"Could not make the points: {exc}")
    st.stop()
added = page.added
if added:
    X = np.vstack([X, [[p[0], p[1]] for p in added]])
    y = np.concatenate([np.where(np.asarray(y) > 0, 1, -1), [p[2] for p in added]])
y = np.where(np.asarray(y) > 0, 1, -1)
st.markdown(f"**{markdown_safe(title)}** — n = {len(X)} points"
            + (f" ({len(added)} added by you)" if added else ""))
reveal.hide_page_if_hidden(ss, X, y)  # a teacher link's hidden points: not one page away
ctl.stop_unless_two_classes(y)

xb = np.ascontiguousarray(X, dtype=np.float64).tobytes()
yb = np.ascontiguousarray(y, dtype=np.int64).tobytes()
skey = settings_key(settings)
try:
    run = cached_perceptron(xb, yb, skey, int(ss[K("epochs")]), ss[K("bias")])
except budget.Stopped as exc:
    st.error(f"{exc} Lower the epoch cap or use fewer points.")
    st.stop()
except ValueError as exc:          # e.g. the kernel's values overflow on these points
    st.error(markdown_safe(f"The kernel perceptron refused these points: {exc}."))
    st.stop()
try:
    svm = cached_fit(xb, yb, skey)
except budget.Stopped as exc:
    svm = FitOutcome(error=str(exc), kind="stopped")
model = svm.model if svm.ok else None

# ---- the kernel perceptron
st.header("The kernel perceptron, mistake by mistake")
st.markdown(
    "Start with every αᵢ = 0 and visit the points in turn: **if yᵢ·h(xᵢ) ≤ 0** (a mistake), "
    "**αᵢ ← αᵢ + 1** (and b ← b + yᵢ), where **h(x) = Σⱼ αⱼyⱼK(xⱼ, x) + b**. So αᵢ counts the "
    f"mistakes made on xᵢ ({cite('kernels')}; the perceptron of {cite('perceptron')}).")
total = run.n_updates
if page.run_key != (xb, yb, skey, ss[K("epochs")], ss[K("bias")]):  # a new run: its end
    page.run_key = (xb, yb, skey, ss[K("epochs")], ss[K("bias")])
    ss[K("step")] = total
ss[K("step")] = min(int(ss.get(K("step"), total)), total)
k = ss[K("step")]
step_buttons(ss, P, k, total, label="update", empty="No update was made.")
ranges = C.plot_ranges(X)
point = run.record(k).i if k else None
fig = F.perceptron_figure(X, y, model, C.StepModel(run, k), k, point, run.alpha_after(k),
                          ranges)
cls = st.radio("Class of the next point you click", ("+1", "−1"), key=K("class"),
               horizontal=True)
click_plot.click_plot(fig, key=K("plot"), config=CONFIG,
                      on_click=partial(on_plot_click, *ranges, 1 if cls == "+1" else -1),
                      title="The kernel perceptron beside the SVM",
                      description=C.perceptron_plot_words(X, y, model, run, k),
                      settings=(f"{title}, n = {len(X)}", model_words(settings),
                                f"update {k} of {total}"))
st.caption("Orange: the kernel perceptron's h(x) = 0 after this update (the updated point "
           "ringed, each αᵢ > 0 written beside its point). Black: the SVM's h(x) = 0 and "
           "h(x) = ±1, its support vectors ringed. Click or tap to add a point.")
st.markdown(C.update_words(run, k))
st.markdown(f"**Training mistakes after update {k}: {C.mistakes_after(run, k)}** of {len(X)} "
            "points.")
(st.success if run.converged else st.warning)(
    C.run_words(run, model, int(ss[K("epochs")])))
if not svm.ok:
    st.warning(markdown_safe(f"No SVM on these points with these settings: {svm.error}"))
rows = C.alpha_rows(run, k, model)
if rows:
    st.dataframe(pd.DataFrame(rows), hide_index=True, key=K("alphas"))
st.caption("The perceptron's αᵢ are counts of mistakes, on every point it ever got wrong; "
           "the SVM's αᵢ are Lagrange multipliers, > 0 only on the support vectors "
           f"({cite('chapter', 16)}).")

# ---- k-NN
st.header("k nearest neighbours, and 1-NN's Voronoi cells")
a, b, d = st.columns([2, 1, 3], vertical_alignment="bottom")
data = a.selectbox("Points", tuple(KNN_DATA), key=K("knn_data"), format_func=KNN_DATA.get,
                   on_change=clear_knn)
kk = b.slider("k", 1, C.K_MAX, key=K("k"))
dist = d.radio("distance", ("euclidean", "kernel"), key=K("distance"), horizontal=True,
               format_func=C.distance_labels(kernel_text(settings)).get)
if data == "same":
    KX, labels = X, np.where(y > 0, "+1", "−1")
else:
    md = iris_species() if data == "iris" else blobs_k(k=4, n=80, noise=0.8, seed=0)
    KX = np.array(md.X)
    labels = np.array([str(v) if data == "iris" else f"class {v}" for v in md.y])
    extra = page.knn_added
    if extra:
        KX = np.vstack([KX, [[p[0], p[1]] for p in extra]])
        labels = np.concatenate([labels, [p[2] for p in extra]])
classes = sorted(set(labels.tolist()))
m1, m2 = st.columns([3, 2], vertical_alignment="bottom")
mode = m1.radio("A click on this plot will", tuple(CLICK), key=K("click"),
                format_func=CLICK.get, horizontal=True)
new_class = m2.selectbox("class of an added point", classes, key=K("knn_class." + data),
                         disabled=mode != "add")
query = page.query or tuple(map(float, KX.mean(axis=0)))
kk = min(kk, len(KX))
try:
    ans = cached_knn(np.ascontiguousarray(KX, dtype=np.float64).tobytes(), tuple(labels), kk,
                     skey if dist == "kernel" else None, tuple(map(float, query)))
except (budget.Stopped, ValueError) as exc:
    st.error(markdown_safe(f"k-NN could not run: {exc}. Use fewer points."))
    st.stop()
kfig = F.knn_figure(ans, KX, labels, ("sepal length (cm)", "sepal width (cm)")
                    if data == "iris" else ("x1", "x2"))
kr = (kfig["layout"]["xaxis"]["range"], kfig["layout"]["yaxis"]["range"])
click_plot.click_plot(kfig, key=K("knn_plot"), config=CONFIG,
                      on_click=partial(on_knn_click, *kr, mode, new_class),
                      title=f"{kk}-NN regions" + (" and Voronoi cells" if kk == 1 else ""),
                      description=C.knn_plot_words(ans, labels),
                      settings=(KNN_DATA[data], f"n = {len(KX)}", f"k = {kk}",
                                C.distance_labels(kernel_text(settings))[dist]))
st.caption(markdown_safe(C.query_words(ans, labels)))
st.caption(f"Training accuracy of {kk}-NN (each point among its own neighbours): "
           f"{fmt_pct(C.training_accuracy(ans, labels))}. Ties: equally far "
           "neighbours go in data order; a tie in votes goes to the first class in sorted "
           "order (as scikit-learn).")
if kk == 1:
    st.markdown(
        "With k = 1 each point owns its **Voronoi cell** — the places closer to it than to "
        "any other point — and 1-NN gives the whole cell its class: the thick edges, between "
        f"cells of different classes, are the decision boundary ({cite('perceptron')}).")
if dist == "kernel" and settings["kernel"] == "gaussian":
    st.caption("The Gaussian kernel's distance 2 − 2·exp(−‖x − z‖²/(2σ²)) grows with the "
               "Euclidean one: the same neighbours, the same regions.")
elif dist == "kernel" and settings["kernel"] == "polynomial":
    st.caption("The polynomial kernel's distance depends on where the points are, not only "
               "on x − z: other neighbours, other regions than the Euclidean.")
st.info(C.memory_words(len(KX), kk, model.n_support if (model is not None and data == "same")
                       else None))
