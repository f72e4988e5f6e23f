"""The Playground's sidebar: the data block (a book dataset or a generator, loaded by a
button: the Playground edits its points) and the model block (the shared
``ui.shared.controls.model_sidebar``, then the bias and one button per solver). Thin: the
settings are validated and stored by ``ui.shared.state``; a teacher link's locks come from
``ui.playground.teacher``.

The widget keys are ``Playground.widget_key(name)`` and are seeded from the canonical settings
in ``st.session_state`` (widget values are dropped by Streamlit on pages where the widget is
not drawn; the canonical settings are not).
"""

from __future__ import annotations

import functools

import streamlit as st

import svm_engine as se
from svm_engine import datasets
from ui.playground import teacher
from ui.shared import fitting, history, state, student
from ui.shared.controls import (
    MODEL_KEYS,
    generator_default,
    generator_widgets,
    limits_caption,
    model_sidebar,
    seed_widget,
)
from ui.shared.labels import BIAS_LABELS, DATASET_LABELS, WSS_LABELS, solver_text
from ui.shared.session import shared
from ui.shared.settings import BIASES
from ui.shared.state import Playground

P = Playground.PREFIX  # the model block's widgets (``model_sidebar``) are P + name
K = Playground.widget_key


def _load_dataset_cb() -> None:
    ss = st.session_state
    name = ss.get(K("dataset"), state.DEFAULT_DATASET)
    params = {}
    if name in datasets.GENERATORS:
        params = {
            "n": int(ss.get(K("gen.n"), 100)),
            "noise": float(ss.get(K("gen.noise"), generator_default(name, "noise"))),
            "seed": int(ss.get(K("gen.seed"), 0)),
        }
    before, n_before = state.current_settings(ss), len(state.current_dataset(ss)[1])
    try:
        state.load_dataset(ss, name, **params)
    except ValueError as exc:
        state.push_flash(ss, "error", f"Could not load the dataset: {exc}")
        return
    _, y, title = state.current_dataset(ss)
    state.push_flash(ss, "info", history.loaded_message(
        title, n_before, len(y), before, state.current_settings(ss)))
    ss[K("dataset")] = name  # keep the choice (widget keys were reset)
    if params:
        ss[K("gen.n")], ss[K("gen.noise")], ss[K("gen.seed")] = (
            params["n"], params["noise"], params["seed"],
        )  # fmt: skip


def _on_generator_change() -> None:
    ss = st.session_state
    name = ss.get(K("dataset"))
    if name in datasets.GENERATORS:
        ss[K("gen.noise")] = float(generator_default(name, "noise"))


def sidebar_data(ss) -> None:
    st.sidebar.header("Data")
    names = list(datasets.BOOK) + list(datasets.GENERATORS)
    shown = (shared(ss).source or {}).get("name", state.DEFAULT_DATASET)
    seed_widget(ss, K("dataset"), shown)
    if ss[K("dataset")] not in names:
        ss[K("dataset")] = state.DEFAULT_DATASET
    name = st.sidebar.selectbox(
        "Dataset to load",
        names,
        key=K("dataset"),
        format_func=lambda n: DATASET_LABELS.get(n, n),
        on_change=_on_generator_change,
        **teacher.lock_kwargs(ss, "points"),
    )
    # what the plot shows (edited, imported or from a link, it is not the list's choice);
    # plain text: a file name or a link's title is never markdown
    st.sidebar.text(f"Shown: {state.current_dataset(ss)[2]}")
    if name in datasets.GENERATORS:
        src = shared(ss).source or {}
        params = src.get("params", {}) if src.get("name") == name else {}
        seed_widget(ss, K("gen.n"), int(params.get("n", 100)))
        noise = params.get("noise", generator_default(name, "noise"))
        seed_widget(ss, K("gen.noise"), float(noise))
        seed_widget(ss, K("gen.seed"), int(params.get("seed", 0)))
        generator_widgets(P, **teacher.lock_kwargs(ss, "points"))
        limits_caption(state.current_settings(ss))
    st.sidebar.button(
        "Load dataset",
        key=K("load"),
        on_click=_load_dataset_cb,
        type="primary",
        width="stretch",
        **teacher.lock_kwargs(
            ss, "points", help="Replaces the points (Undo in the plot brings them back)."
        ),
    )


def _set_solver_cb(solver: str) -> None:
    ss = st.session_state
    state.set_settings(ss, state.current_settings(ss).replace(solver=solver))


def sidebar_model(ss) -> dict:
    """The Playground's model widgets (``model_sidebar``, bias, solver) → the (validated,
    stored) settings."""
    s = state.current_settings(ss)
    sb = st.sidebar
    sb.header("Model")
    for k in (*MODEL_KEYS, "bias", "wss"):
        seed_widget(ss, K(k), s[k])
    new = model_sidebar(ss, P, s, lock=functools.partial(teacher.lock_kwargs, ss))
    new["bias"] = sb.radio("Bias", BIASES, key=K("bias"), format_func=BIAS_LABELS.get,
                           **teacher.lock_kwargs(ss, "bias"))

    # solver: one button per solver; those that cannot solve this problem (or not within the
    # time budget on these points) are disabled
    avail = fitting.solver_availability(new, n=len(state.current_dataset(ss)[1]))
    if avail.get(new["solver"]) is not None:
        ok = [name for name, why in avail.items() if why is None]
        if ok:
            state.push_flash(ss, "info", (
                f"Solver changed to {solver_text(ok[0])} because "
                f"{avail[new['solver']].rstrip('.')}."))
            new["solver"] = ok[0]
    sb.markdown("**Solver**")
    cols = sb.columns(2)
    for i, name in enumerate(se.SOLVERS):
        why = avail[name]
        cols[i % 2].button(
            name.upper() if name != "newton" else "Newton",
            key=K("solver.") + name,
            on_click=_set_solver_cb,
            args=(name,),
            type="primary" if name == new["solver"] else "secondary",
            width="stretch",
            **teacher.lock_kwargs(ss, "solver", disabled=why is not None,
                                  help=why or f"Use {name}"),
        )
    for why in avail.values():
        if why is not None:
            sb.caption(why[:1].upper() + why[1:].rstrip(".") + ".")  # each names its solver
    if new["solver"] == "smo" and student.full_view(ss):  # a solver internal
        new["wss"] = sb.radio(
            "SMO working-set rule", se.WSS_RULES, key=K("wss"), format_func=WSS_LABELS.get,
            **teacher.lock_kwargs(ss, "solver"),
        )
    try:
        return state.set_settings(ss, new)
    except ValueError as exc:  # cannot happen through the widgets; keep the old settings
        st.sidebar.error(f"Invalid setting: {exc}")
        return s


