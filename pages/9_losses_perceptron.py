"""Losses & perceptron: the loss functions of m = y·h(x) side by side, and Rosenblatt's
perceptron stepped update by update beside the maximum-margin line (Ribeiro's CS573 lecture).

Thin page: sidebar widgets → cached runs in a budget worker (``ui.serving.budget``): the SVM
with the source's settings (its margins on the loss curves), the linear maximum-margin SVM
and the perceptron (``ui.losses.compute``) → figures (``ui.losses.figures``) and words.
Stepping never reruns the perceptron: it reads the recorded updates.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from svm_engine import losses as L
from ui.losses import compute as C
from ui.losses import figures as F
from ui.losses.page_state import Losses
from ui.serving import budget
from ui.shared import controls as ctl
from ui.shared import reveal
from ui.shared.chart import model_words, show_chart
from ui.shared.cite import cite
from ui.shared.fitting import FitOutcome
from ui.shared.labels import DATASET_LABELS
from ui.shared.markdown import markdown_safe
from ui.shared.nav import run_through_app
from ui.shared.numbers import fmt_setting
from ui.shared.settings import settings_key
from ui.shared.stepper import step_buttons

run_through_app()  # a deep link on a fresh server must still go through app.py

ss = st.session_state
page = Losses.of(ss)
P, K = Losses.PREFIX, Losses.widget_key  # the widget keys of this page
SOURCE_LABELS = {"playground": "The Playground's points and settings", **DATASET_LABELS}
GEN_DEFAULTS = {"n": 60, "noise": 0.1}
H_LABELS = {"svm": "the SVM (the source's settings)", "perceptron": "the perceptron (this update)"}
ORDER_LABELS = {"shuffled": "shuffled each epoch (seeded)", "data": "data order"}
BIAS_LABELS = {"free": "with bias b", "none": "no bias (through the origin)"}

st.title("Losses & perceptron")
st.caption(
    "Every classifier h scores a point by its margin m = y·h(x): positive on the right side, "
    "≥ 1 on or beyond the SVM's margin. The losses below are functions of that one number "
    f"({cite('perceptron')}; {cite('chapter', '19–20')}). The perceptron minimises the last one "
    "and stops at any separating line; the SVM's hinge loss keeps pushing to the margin.")


# ----------------------------------------------------------------------------- sidebar


def on_source_change() -> None:
    page.run_key = None  # a new run starts at its last update


def sidebar() -> tuple[np.ndarray, np.ndarray, str, dict]:
    X, y, title = ctl.points_sidebar(
        ss, P, **GEN_DEFAULTS, labels=SOURCE_LABELS, on_change=on_source_change,
        help="The Playground's current points (default), a book dataset or a generator.")
    sb = st.sidebar
    sb.header("Perceptron")
    ss.setdefault(K("eta"), 1.0)
    ss.setdefault(K("epochs"), 100)
    ss.setdefault(K("order"), "shuffled")
    ss.setdefault(K("seed"), 0)
    ss.setdefault(K("bias"), "free")
    sb.select_slider("learning rate η", C.ETA_CHOICES, key=K("eta"), format_func=fmt_setting,
                     help="From w = 0 and b = 0, η only scales w and b: the same points are "
                          "updated in the same order, and the line is the same.")
    sb.select_slider("epoch cap", C.EPOCH_CHOICES, key=K("epochs"),
                     help="Passes over the points; the run stops earlier after an epoch "
                          "without mistakes.")
    order = sb.radio("order", tuple(ORDER_LABELS), key=K("order"),
                     format_func=ORDER_LABELS.get)
    sb.number_input("seed (visiting order)", 0, 1_000_000, step=1, key=K("seed"),
                    disabled=order != "shuffled")
    sb.radio("bias", tuple(BIAS_LABELS), key=K("bias"), format_func=BIAS_LABELS.get)
    settings = ctl.source_settings(ss, P, ss[K("source")], **GEN_DEFAULTS)
    return np.asarray(X, dtype=float), np.asarray(y), str(title), settings


# --------------------------------------------------------------------------- the runs


def _points(xb: bytes, yb: bytes) -> tuple[np.ndarray, np.ndarray]:
    return np.frombuffer(xb, dtype=np.float64).reshape(-1, 2), np.frombuffer(yb, dtype=np.int64)


@st.cache_data(max_entries=32, show_spinner="Fitting the SVM …")
def cached_fit(xb: bytes, yb: bytes, skey: tuple):
    """``fitting.fit_points``'s FitOutcome, in a worker within the time budget (a pure
    result; ``budget.Stopped`` is raised, never cached)."""
    X, y = _points(xb, yb)
    return budget.fit_outcome(X, y, dict(skey))


@st.cache_data(max_entries=32, show_spinner="Running the perceptron …")
def cached_perceptron(xb: bytes, yb: bytes, eta: float, epochs: int, bias: str, shuffle: bool,
                      seed: int):
    """The perceptron run (``compute.run_perceptron``, n × epochs capped), in a worker."""
    X, y = _points(xb, yb)
    return budget.run("perceptron", C.run_perceptron, (X, y, eta, epochs, bias, shuffle, seed),
                      settings=None, n=len(X))


def svm_fit(xb: bytes, yb: bytes, s: dict) -> FitOutcome:
    """The SVM's FitOutcome; a fit stopped at the budget is an outcome too (kind "stopped",
    its message says what to change; never cached): the curves and the perceptron stay."""
    try:
        return cached_fit(xb, yb, settings_key(s))
    except budget.Stopped as exc:
        return FitOutcome(error=str(exc), kind="stopped")


def chart(fig: dict, key: str, name: str, *settings: str, description: str | None = None,
          table: str | None = None) -> None:
    """A chart whose saved image is titled ``name`` and names the points and ``settings``;
    ``description`` (None: from the figure) and ``table`` are for a screen reader."""
    show_chart(fig, key=key, title=name, settings=(f"{title}, n = {len(X)}", *settings),
               description=description, table=table)


# -------------------------------------------------------------------------------- page

KEPT = ("source", "gen.n", "gen.noise", "gen.seed", "eta", "epochs", "order", "seed", "bias",
        "h_from")  # what a visit to another page must not reset
page.widgets.restore(ss)
page.widgets.keep(ss, KEPT)
try:
    X, y, title, settings = sidebar()
except ValueError as exc:  # a generator's parameters
    st.error(f"Could not make the points: {exc}")
    st.stop()

st.markdown(f"**{markdown_safe(title)}** — n = {len(X)} points")
reveal.hide_page_if_hidden(ss, X, y)  # a teacher link's hidden points: not one page away
ctl.stop_unless_two_classes(y)

xb = np.ascontiguousarray(X, dtype=np.float64).tobytes()
yb = np.ascontiguousarray(y, dtype=np.int64).tobytes()
shuffle = ss[K("order")] == "shuffled"
args = (float(ss[K("eta")]), int(ss[K("epochs")]), ss[K("bias")], shuffle,
        int(ss[K("seed")]) if shuffle else 0)
try:
    run = cached_perceptron(xb, yb, *args)
except budget.Stopped as exc:  # over the time budget: say what to change
    st.error(f"{exc} Lower the epoch cap or use fewer points.")
    st.stop()
svm = svm_fit(xb, yb, settings)
hard = line_svm = svm_fit(xb, yb, C.svm_settings(settings, True))
if not hard.ok and hard.kind in ("not_separable", "over_budget", "stopped"):  # the soft margin
    line_svm = svm_fit(xb, yb, C.svm_settings(settings, False))

total = len(run.trace)
if page.run_key != (xb, yb, args):  # a new run: show where it ended
    page.run_key = (xb, yb, args)
    ss[K("step")] = total
ss[K("step")] = min(int(ss.get(K("step"), total)), total)
k = ss[K("step")]
w_k, b_k = (run.trace[k - 1]["w_after"], run.trace[k - 1]["b_after"]) if k else ([0.0, 0.0],
                                                                                  0.0)

# ---- the losses
st.header("Loss functions of the margin m = y·h(x)")
ss.setdefault(K("h_from"), "svm")
h_from = st.radio("The points' margins m = y·h(x) of", tuple(H_LABELS), key=K("h_from"),
                  format_func=H_LABELS.get, horizontal=True)
if h_from == "svm" and not svm.ok:
    st.warning(C.svm_failed_words(svm.error, ss[K("source")] == "playground"))
    m = None
elif h_from == "svm":
    m = L.margins(svm.model, X, np.where(y > 0, 1, -1))
    st.caption(C.svm_words(svm.model))
else:
    m = np.where(y > 0, 1, -1) * (X @ np.asarray(w_k, dtype=float) + b_k)
    st.caption(f"h: the perceptron's line after update {k} of {total} (step it below).")
chart(F.loss_figure(m, y), K("fig.losses"), "Loss functions of the margin m = y·h(x)",
      f"h of the SVM: {model_words(settings)}" if h_from == "svm"
      else f"h of the perceptron after update {k} of {total}",
      description=None if m is None else C.loss_words(m))
if m is not None:
    lo, hi = F.m_range(m)
    away = C.outside(m, lo, hi)
    if away:
        st.caption(f"{away} point(s) have |m| beyond {fmt_setting(F.M_LIMIT)} and are off the "
                   "plot.")
    st.dataframe(pd.DataFrame(C.loss_rows(m)), hide_index=True, key=K("table.losses"))
st.caption(
    "Conventions: the 0-1 loss counts m = 0 (a point on the line) as a mistake, as the "
    "perceptron's rule y·f(x) ≤ 0 does. The logistic loss is taken in base 2, "
    "log₂(1 + e^(−m)), so that it equals 1 at m = 0 and bounds the 0-1 loss from above, as "
    "the hinge and squared hinge do (in the natural base, ln(1 + e^(−m)), it is ln 2 ≈ 0.69 at "
    "m = 0). The perceptron loss is 0 for every correct point: it is no such bound.")

# ---- the perceptron
st.header("The perceptron, update by update")
st.markdown(
    "Seed 003's rule: visit the points in turn; **if y·(wᵀx + b) ≤ 0** (a mistake), "
    "**w ← w + η·y·x** and **b ← b + η·y**. Stop after an epoch without mistakes.")
step_buttons(ss, P, k, total, label="update", empty="No update was recorded.",
             helps={"first": "the start", "prev": "previous update", "next": "next update",
                    "last": "the last update"})
t = run.trace[k - 1] if k else None
fig = F.perceptron_figure(
    X, y, line_svm.model if line_svm.ok else None,
    before=(t["w_before"], t["b_before"]) if t else None, after=(w_k, b_k),
    point=t["i"] if t else None)
chart(fig, K("fig.perceptron"), "The perceptron, update by update",
      f"η = {fmt_setting(ss[K('eta')])}", f"epoch cap {ss[K('epochs')]}",
      ORDER_LABELS[ss[K("order")]] + (f", seed {ss[K('seed')]}" if shuffle else ""),
      BIAS_LABELS[ss[K("bias")]], f"update {k} of {total}")
st.markdown(C.update_words(run, k))
(st.success if run.converged else st.warning)(C.run_words(run, int(ss[K("epochs")])))
if hard.kind in ("over_budget", "stopped") and line_svm.ok:
    st.caption(f"The hard margin is not drawn: {hard.error} The soft margin is drawn instead.")
if not line_svm.ok:
    st.warning(f"No maximum-margin line: {line_svm.error}")
elif hard.ok:
    words = C.novikoff_words(run, line_svm.model)
    if words:
        st.caption(words)

st.header("Why the two lines differ")
separable = True if hard.ok or run.converged else (False if hard.kind == "not_separable" else None)
st.markdown(C.why_words(C.Lines(run, line_svm.model if line_svm.ok else None, hard.ok, separable)))
