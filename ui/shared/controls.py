"""The sidebar blocks every page shares (``points_sidebar``, ``model_sidebar``,
``limits_caption``), and the Playground's widgets and panels (thin: every decision is in a
tested pure module — ``ui.shared.state``, ``ui.shared.fitting``, ``ui.shared.tables``,
``ui.data.io``, ``ui.playground.canvas``).

The Playground's widget keys start with ``state.WIDGET_PREFIX`` and are seeded from the
canonical settings in ``st.session_state`` (widget values are dropped by Streamlit on pages
where the widget is not drawn; the canonical settings are not).
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import math
import secrets
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import urlencode

import numpy as np
import streamlit as st

import svm_engine as se
from svm_engine import datasets
from ui.data import io as pio
from ui.data.import_panel import column_picker, uploader
from ui.playground import canvas, takeaway_panel, teacher, teacher_panel
from ui.serving import budget, costs, fit_api
from ui.shared import fitting, history, nav, state, tables
from ui.shared.figures import PLOTLY_CONFIG
from ui.shared.labels import (
    BIAS_LABELS,
    COEF0_LABELS,
    DATASET_LABELS,
    KERNEL_LABELS,
    LOSS_LABELS,
    WSS_LABELS,
)
from ui.shared.numbers import fmt_setting

P = state.WIDGET_PREFIX
CANVAS_KEY = "svmlab_canvas"

C_GRID = tables.log_grid(-3, 4)
SIGMA_GRID = tables.log_grid(-2, 2)
SIGMA_HELP = "K(x, z) = exp(−‖x − z‖² / (2σ²))"
C_HELP = "Cost of slack: small C = wide margin with more slack, large C = narrow margin."
HARD_MARGIN_HELP = ("No slack allowed: every point on or outside its margin. Fails when no "
                    "separating boundary exists.")
#: the widget keys (after the page's prefix) of ``model_sidebar``
MODEL_KEYS = ("kernel", "degree", "coef0", "sigma", "loss", "hard_margin", "C")


# ------------------------------------------------------------------------------ start


def init_session(ss) -> str | None:
    """First run of a session: restore the state from the URL if it holds a link, else the
    default. Returns a message for the user when the link was broken."""
    if state.K_X in ss and state.K_SETTINGS in ss:
        return None
    q = st.query_params.to_dict()
    if teacher.has_link_params(q):  # a teacher link (t=, ts=) or present mode
        return teacher.open_link(ss, q)
    if state.is_link(q):
        return state.restore_from_query(ss, q)
    state.ensure_state(ss)
    return None


def sync_url(ss) -> dict[str, str]:
    """Write the state into st.query_params (only when it changed). Returns the parameters.

    Called on full reruns; inside the points fragment the canvas mirrors the same text into
    the address bar instead (see ``canvas.canvas_payload(url_query=...)``)."""
    q = teacher.page_query(ss)
    if st.query_params.to_dict() != q:
        st.query_params.from_dict(q)
    return q


def show_flash(ss) -> None:
    if ss.pop(K_RERUN_APP, False):  # before the messages are popped: the whole page shows them
        st.rerun(scope="app")
    for level, text in state.pop_flash(ss):
        getattr(st, level if level in ("error", "warning", "info", "success") else "info")(text)


# ----------------------------------------------------------------------------- sidebar


def generator_default(name: str, param: str):
    """A generator's own default for one of its parameters (e.g. its noise)."""
    return inspect.signature(getattr(datasets, name)).parameters[param].default


def _load_dataset_cb() -> None:
    ss = st.session_state
    name = ss.get(P + "dataset", state.DEFAULT_DATASET)
    params = {}
    if name in datasets.GENERATORS:
        params = {
            "n": int(ss.get(P + "gen.n", 100)),
            "noise": float(ss.get(P + "gen.noise", generator_default(name, "noise"))),
            "seed": int(ss.get(P + "gen.seed", 0)),
        }
    before, n_before = state.current_settings(ss), len(ss.get(state.K_Y, ()))
    try:
        state.load_dataset(ss, name, **params)
    except ValueError as exc:
        state.push_flash(ss, "error", f"Could not load the dataset: {exc}")
        return
    state.push_flash(ss, "info", history.loaded_message(
        ss[state.K_TITLE], n_before, len(ss[state.K_Y]), before, state.current_settings(ss)))
    ss[P + "dataset"] = name  # keep the choice (widget keys were reset)
    if params:
        ss[P + "gen.n"], ss[P + "gen.noise"], ss[P + "gen.seed"] = (
            params["n"], params["noise"], params["seed"],
        )  # fmt: skip


def _on_generator_change() -> None:
    ss = st.session_state
    name = ss.get(P + "dataset")
    if name in datasets.GENERATORS:
        ss[P + "gen.noise"] = float(generator_default(name, "noise"))


def seed_widget(ss, key: str, value) -> None:
    """Give the widget ``key`` its value for this run: its own (the student's latest), or
    ``value`` (the stored settings) when it has none or the student just came back from
    another page (``nav.arrived``: the widget's own value is stale then)."""
    if key not in ss or nav.arrived(ss):
        ss[key] = value


def sidebar_data(ss) -> None:
    st.sidebar.header("Data")
    names = list(datasets.BOOK) + list(datasets.GENERATORS)
    shown = (ss.get(state.K_SOURCE) or {}).get("name", state.DEFAULT_DATASET)
    seed_widget(ss, P + "dataset", shown)
    if ss[P + "dataset"] not in names:
        ss[P + "dataset"] = state.DEFAULT_DATASET
    name = st.sidebar.selectbox(
        "Dataset to load",
        names,
        key=P + "dataset",
        format_func=lambda n: DATASET_LABELS.get(n, n),
        on_change=_on_generator_change,
        **teacher.lock_kwargs(ss, "points"),
    )
    # what the plot shows (edited, imported or from a link, it is not the list's choice);
    # plain text: a file name or a link's title is never markdown
    st.sidebar.text(f"Shown: {state.current_dataset(ss)[2]}")
    if name in datasets.GENERATORS:
        src = ss.get(state.K_SOURCE) or {}
        params = src.get("params", {}) if src.get("name") == name else {}
        seed_widget(ss, P + "gen.n", int(params.get("n", 100)))
        noise = params.get("noise", generator_default(name, "noise"))
        seed_widget(ss, P + "gen.noise", float(noise))
        seed_widget(ss, P + "gen.seed", int(params.get("seed", 0)))
        generator_widgets(P, **teacher.lock_kwargs(ss, "points"))
        limits_caption(state.current_settings(ss))
    st.sidebar.button(
        "Load dataset",
        key=P + "load",
        on_click=_load_dataset_cb,
        type="primary",
        width="stretch",
        **teacher.lock_kwargs(
            ss, "points", help="Replaces the points (Undo in the plot brings them back)."
        ),
    )


def limits_caption(settings: dict, task: str = "fit", solvers=None) -> None:
    """The solvers' point limits within the time budget (``costs.limits_caption``)."""
    able = [s for s, why in fitting.solver_availability(settings, budget=False).items()
            if why is None] if solvers is None else list(solvers)
    text = costs.limits_caption(settings, able, task)
    if text:
        st.sidebar.caption(text)


def _set_solver_cb(solver: str) -> None:
    ss = st.session_state
    s = state.current_settings(ss)
    s["solver"] = solver
    state.set_settings(ss, s)


def _unlocked(name: str, *, disabled: bool = False, help: str | None = None) -> dict:
    """``model_sidebar``'s default ``lock``: nothing is locked."""
    return {"disabled": bool(disabled), **({"help": help} if help is not None else {})}


def model_sidebar(ss, prefix: str, settings: Mapping[str, Any], *, lock: Callable = _unlocked,
                  fixed_loss: tuple[str, str] | None = None, loss: bool = True,
                  hard_margin: bool = True, c_help: str = C_HELP) -> dict:
    """The model block of every page's sidebar: kernel (with q and c, or σ), loss, hard
    margin, C; call it under the page's own ``st.sidebar.header``.

    Widget keys: ``prefix`` + each of ``MODEL_KEYS``, seeded by the page before the call
    (``seed_widget``, or ``default_widgets``); keep them across page visits with
    ``nav.keep_widgets``. ``settings`` holds the values of the widgets this run does not draw
    (σ when the kernel is linear). ``lock(name, disabled=, help=)`` gives a widget's
    ``disabled`` and ``help`` (the Playground's teacher locks, by the names "kernel",
    "loss", "C"). ``fixed_loss``: (loss, a caption saying why) when the solver decides the
    loss, e.g. Newton's quadratic; ``loss=False``: a page with no such choice (ε-SVR);
    ``hard_margin=False``: a page without the hard margin (no toggle, no key). Returns
    ``settings`` with the widgets' values; the hard margin is switched off unless the loss
    is hinge."""
    sb = st.sidebar
    s = dict(settings)
    s["kernel"] = sb.radio("Kernel", state.KERNELS, key=prefix + "kernel", horizontal=True,
                           format_func=KERNEL_LABELS.get, **lock("kernel"))
    if s["kernel"] == "polynomial":
        s["degree"] = sb.slider("degree q", state.DEGREE_MIN, state.DEGREE_MAX,
                                key=prefix + "degree", **lock("kernel"))
        s["coef0"] = sb.radio(
            "K(x, z) = (c + xᵀz)^q", sorted({0.0, 1.0, float(ss.get(prefix + "coef0", 1.0))}),
            key=prefix + "coef0", horizontal=True,
            format_func=lambda c: COEF0_LABELS.get(c, f"c = {fmt_setting(c)}"), **lock("kernel"))
    elif s["kernel"] == "gaussian":
        s["sigma"] = sb.select_slider(
            "σ (width)", tables.option_values(SIGMA_GRID, ss.get(prefix + "sigma", s["sigma"])),
            key=prefix + "sigma", format_func=fmt_setting, **lock("kernel", help=SIGMA_HELP))
    if fixed_loss is not None:
        s["loss"] = fixed_loss[0]
        sb.caption(fixed_loss[1])
    elif loss:
        s["loss"] = sb.radio("Loss", state.LOSSES, key=prefix + "loss", horizontal=True,
                             format_func=LOSS_LABELS.get, **lock("loss"))
    if hard_margin and loss:
        no_hard = s["loss"] != "hinge"
        if no_hard and ss.get(prefix + "hard_margin"):
            ss[prefix + "hard_margin"] = False
        s["hard_margin"] = sb.toggle(
            "Hard margin (C = ∞)", key=prefix + "hard_margin",
            **lock("C", disabled=no_hard,
                   help="Needs the hinge loss." if no_hard else HARD_MARGIN_HELP))
    s["C"] = sb.select_slider(
        "C (log scale)", tables.option_values(C_GRID, ss.get(prefix + "C", s["C"])),
        key=prefix + "C", format_func=fmt_setting,
        **lock("C", disabled=bool(s.get("hard_margin")), help=c_help))
    return s


def default_widgets(ss, prefix: str, defaults: Mapping[str, Any]) -> None:
    """Give each widget ``prefix + name`` its default the first time the page runs in this
    session (and again after Streamlit dropped the value of a widget a run did not draw)."""
    for k, v in defaults.items():
        ss.setdefault(prefix + k, v)


def sidebar_model(ss) -> dict:
    """The Playground's model widgets (``model_sidebar``, bias, solver) → the (validated,
    stored) settings."""
    s = state.current_settings(ss)
    sb = st.sidebar
    sb.header("Model")
    for k in (*MODEL_KEYS, "bias", "wss"):
        seed_widget(ss, P + k, s[k])
    new = model_sidebar(ss, P, s, lock=functools.partial(teacher.lock_kwargs, ss))
    new["bias"] = sb.radio("Bias", state.BIASES, key=P + "bias", format_func=BIAS_LABELS.get,
                           **teacher.lock_kwargs(ss, "bias"))

    # solver: one button per solver; those that cannot solve this problem (or not within the
    # time budget on these points) are disabled
    avail = fitting.solver_availability(new, n=len(ss.get(state.K_X, ())))
    if avail.get(new["solver"]) is not None:
        ok = [name for name, why in avail.items() if why is None]
        if ok:
            state.push_flash(
                ss,
                "info",
                f"Solver switched from {new['solver']} to {ok[0]}: {avail[new['solver']]}.",
            )
            new["solver"] = ok[0]
    sb.markdown("**Solver**")
    cols = sb.columns(2)
    for i, name in enumerate(se.SOLVERS):
        why = avail[name]
        cols[i % 2].button(
            name.upper() if name != "newton" else "Newton",
            key=P + "solver." + name,
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
    if new["solver"] == "smo":
        new["wss"] = sb.radio(
            "SMO working-set rule", se.WSS_RULES, key=P + "wss", format_func=WSS_LABELS.get,
            **teacher.lock_kwargs(ss, "solver"),
        )
    try:
        return state.set_settings(ss, new)
    except ValueError as exc:  # cannot happen through the widgets; keep the old settings
        st.sidebar.error(f"Invalid setting: {exc}")
        return s


# ------------------------------------------------------------------------ the picture
# The browser draws the whole picture, the numbers panel and the points table from one
# answer of ``fit_api.answer``: after a click it POSTs to the fit endpoint; after a change of
# data or settings the page puts the answer in the canvas's payload. A click's sync of the
# points (``_on_canvas_points``) reruns this fragment without fitting or drawing anything.

K_ANSWERED = "svmlab.answered"  # (epoch, settings, view_rev) whose answer the canvas was sent
K_WANT_ANSWER = "svmlab.want_answer"  # the browser asked for the answer (no endpoint)
K_SESSION = "svmlab.session"  # this session's id for the canvas: a new one = a restart
RESTORED_TEXT = ("A new session started (the page was reloaded or the server restarted): your {n} "
                 "points came back from this browser, with the settings in the address bar. "
                 "Not kept: the zoom and what Undo could bring back from before a dataset load "
                 "or an import.")
K_RERUN_APP = "svmlab.rerun_app"  # the canvas's undo changed settings: rerun the whole page


@st.cache_data(max_entries=64, show_spinner=False)
def cached_answer(xb: bytes, yb: bytes, skey: tuple, view: tuple, home: tuple,
                  style: tuple = ()) -> dict:  # fmt: skip
    """``fit_api.answer`` for the points (bytes) and settings, in a worker within the time
    budget: a pure result (``budget.Stopped`` is raised, so never cached); ``style`` the
    figure's (``teacher.figure_options``: present mode, hidden SVs) as sorted items."""
    X = np.frombuffer(xb, dtype=np.float64).reshape(-1, 2)
    y = np.frombuffer(yb, dtype=np.int64)
    settings = dict(skey)
    return budget.run("fit", fit_api.answer, (X, y, settings, view),
                      {"home": home, "style": dict(style)}, settings=settings, n=len(X),
                      refuse=False)  # fmt: skip


def reused_time(ans: dict) -> dict:
    """The page's answers are shared by every session (a pure result): its "time" is the
    first computation's, and says so (issue 16 item 12: a time that was another visitor's)."""
    panel = ans.get("panel")
    if panel:
        ans = dict(ans, panel=[[k, f"{v} (first computed; reused)" if k == "time" else v]
                               for k, v in panel])
    return ans


def page_answer(ss) -> dict | None:
    """The answer for the canvas's payload, or None when the browser has it already: it has
    fitted every edit of its own through the endpoint since the last change made here."""
    X, y, _ = state.current_dataset(ss)
    skey = state.settings_key(state.current_settings(ss))
    style = tuple(sorted(teacher.figure_options(ss).items()))
    shown = (int(ss.get(state.K_EPOCH, 0)), skey, int(ss.get(state.K_VIEW_REV, 0)), style)
    if ss.get(K_ANSWERED) == shown and not ss.pop(K_WANT_ANSWER, False):
        return None
    ss[K_ANSWERED] = shown
    home = tuple(tuple(r) for r in ss[state.K_RANGE])
    view = tuple(tuple(r) for r in (ss.get(state.K_VIEW) or home))
    xb, yb = X.astype(np.float64).tobytes(), y.astype(np.int64).tobytes()
    try:
        return reused_time(cached_answer(xb, yb, skey, view, home, style))
    except budget.Stopped as exc:  # the points stay; the canvas shows why there is no model
        return {"seq": None, "n": len(X), "ok": False, "kind": "over_budget",
                "message": str(exc), "figure": fit_api.points_figure(X, y, home)}


# ---------------------------------------------------------------------------- canvas


def adopt_canvas_state(ss) -> None:
    """Take the canvas's latest points and zoom into the session (a newer edit only, so
    running it twice changes nothing); its sync asks for the answer when the browser has
    no endpoint."""
    value = ss.get(CANVAS_KEY) or {}
    points = value.get("points")
    if isinstance(points, dict) and points.get("undo") is True:
        # the canvas's Undo with its own edits all undone: the last replacement made here
        if points.get("epoch") == ss.get(state.K_EPOCH):  # once: the undo bumps the epoch
            msg = history.undo(ss)
            if msg:
                state.push_flash(ss, "info", msg)
                ss[K_RERUN_APP] = True  # the sidebar shows the settings that came back
        return
    if canvas.apply_canvas_points(ss, points):
        if points.get("want_answer") is True:
            ss[K_WANT_ANSWER] = True
        if points.get("restored") is True:  # a new session met a browser with its points
            state.push_flash(ss, "info", RESTORED_TEXT.format(n=len(points["points"])))
    canvas.apply_canvas_view(ss, value.get("view"))


def _on_canvas_change() -> None:
    adopt_canvas_state(st.session_state)


def draw_canvas(ss) -> None:
    """The canvas: the points, the settings and (after a change made here) the answer."""
    adopt_canvas_state(ss)
    if ss.pop(K_RERUN_APP, False):
        st.rerun(scope="app")
    X, y, title = state.current_dataset(ss)
    payload = canvas.canvas_payload(
        X,
        y,
        epoch=int(ss.get(state.K_EPOCH, 0)),
        seq=int(ss.get(state.K_CANVAS_SEQ, 0)),
        view_rev=int(ss.get(state.K_VIEW_REV, 0)),
        max_points=state.MAX_POINTS,
        config=PLOTLY_CONFIG,
        url_query=urlencode(teacher.page_query(ss)),
        settings=state.current_settings(ss),
        fit_url=fit_api.fit_url(st.get_option("server.baseUrlPath")),
        home=ss[state.K_RANGE],
        view=ss.get(state.K_VIEW),
        title=title,
        answer=page_answer(ss),
        locked=teacher.is_locked(ss, "points"),
        can_undo=history.can_undo(ss),
        session=ss.setdefault(K_SESSION, secrets.token_hex(8)),
        boot=fit_api.BOOT,
        hide=tuple(h for h in ("numbers", "table") if not teacher.shows(ss, h)),
        style=teacher.figure_options(ss),
    )
    canvas.point_canvas(
        payload, key=CANVAS_KEY, on_points=_on_canvas_change, on_view=_on_canvas_change
    )


# ----------------------------------------------------------------------------- panels


def _points_digest(X, y) -> str:
    return hashlib.sha1(np.asarray(X).tobytes() + np.asarray(y).tobytes()).hexdigest()[:12]


def _on_editor_change(key: str) -> None:
    ss = st.session_state
    X, y, _ = state.current_dataset(ss)
    try:
        X2, y2 = state.validate_points(
            *tables.apply_editor_changes(X, y, ss.get(key), state.MAX_POINTS))
        history.remember(ss)
        state.set_points(ss, X2, y2)
    except ValueError as exc:
        state.push_flash(ss, "error", f"The table edit was not applied: {exc}")


def editor_tab(ss) -> None:
    X, y, _ = state.current_dataset(ss)
    import pandas as pd

    df = pd.DataFrame({"x1": X[:, 0], "x2": X[:, 1], "y": y.astype(int)})
    key = P + "editor." + _points_digest(X, y)
    st.caption("Type exact coordinates; add or delete rows. Labels are +1 or −1.")
    st.data_editor(
        df,
        key=key,
        num_rows="dynamic",
        hide_index=True,
        width="stretch",
        on_change=_on_editor_change,
        args=(key,),
        disabled=teacher.is_locked(ss, "points"),
        column_config={
            "x1": st.column_config.NumberColumn("x1", required=True, format="%.6g"),
            "x2": st.column_config.NumberColumn("x2", required=True, format="%.6g"),
            "y": st.column_config.SelectboxColumn("y", options=[1, -1], required=True),
        },
    )


def io_tab(ss) -> None:
    X, y, _ = state.current_dataset(ss)
    c1, c2 = st.columns(2)
    with c1:
        st.markdown("**Export the points**")
        st.download_button(
            "Download CSV", pio.to_csv(X, y), file_name="svm_lab_points.csv",
            mime="text/csv", on_click="ignore", width="stretch",
        )  # fmt: skip
        st.download_button(
            "Download LIBSVM (svm-toy)", pio.to_libsvm(X, y), file_name="svm_lab_points.libsvm",
            mime="text/plain", on_click="ignore", width="stretch",
        )  # fmt: skip
        st.caption("The figure: the camera buttons in the plot's toolbar save it as PNG or "
                   "SVG, with the title and the settings.")
    with c2:
        st.markdown("**Import points** (replaces the current ones)")
        uploader(ss)
    column_picker(ss)  # a wider file's columns and classes, full width
    takeaway_panel.model_export(ss)


def share_tab(ss, query: dict[str, str]) -> None:
    qs = urlencode(query)
    base = ""
    try:
        base = (st.context.url or "").split("?", 1)[0]
    except Exception:  # st.context.url is unavailable outside a browser session
        base = ""
    st.caption(
        "The address bar always holds the current points and settings; copy it, or this link:"
    )
    st.code(f"{base}?{qs}" if base else f"?{qs}", language=None, wrap_lines=True)
    if math.isfinite(len(qs)) and len(qs) > 8000:
        st.caption(f"The link is long ({len(qs):,} characters) because it holds every point.")


PANELS = ("Edit coordinates", "Import / export", "Share link", "Teacher link")


def lower_panels(ss) -> None:
    """The panel under the plot (none open by default); only the chosen one is built."""
    choice = st.segmented_control("More", PANELS, key=P + "panel", label_visibility="collapsed")
    if choice == PANELS[0]:
        editor_tab(ss)
    elif choice == PANELS[1]:
        io_tab(ss)
    elif choice == PANELS[2]:
        share_tab(ss, teacher.page_query(ss))
    elif choice == PANELS[3]:
        teacher_panel.teacher_tab(ss)


# -- the "points" sidebar block of the Step-through and Compare pages ----------------------

#: Where those pages take their points from: the Playground's, a book dataset, a generator.
POINT_SOURCES = ("playground", *datasets.BOOK, *datasets.GENERATORS)


def generator_params(ss, prefix: str, name: str, n: int, noise: float) -> dict:
    """The generator's (n, noise, seed) from the page's widgets (``prefix`` + "gen.*"),
    with the page's defaults; {} for a source that is not a generator."""
    if name not in datasets.GENERATORS:
        return {}
    return {"n": int(ss.get(prefix + "gen.n", n)),
            "noise": float(ss.get(prefix + "gen.noise", noise)),
            "seed": int(ss.get(prefix + "gen.seed", 0))}


def source_settings(ss, prefix: str, name: str, n: int, noise: float) -> dict:
    """Suggested settings of a point source (the Playground's own for its points)."""
    if name == "playground":
        return state.current_settings(ss)
    params = generator_params(ss, prefix, name, n, noise)
    return state.settings_from_dataset(datasets.load(name, **params).settings)


def generator_widgets(prefix: str, **kwargs) -> None:
    """A generator's n / noise / seed (keys ``prefix`` + "gen.n", "gen.noise", "gen.seed")
    in the sidebar; ``kwargs`` (e.g. a teacher lock's ``disabled``) go to each widget."""
    sb = st.sidebar
    sb.slider("n (points)", 10, state.MAX_POINTS, step=10, key=prefix + "gen.n", **kwargs)
    sb.slider("noise", 0.0, 2.0, step=0.05, key=prefix + "gen.noise", **kwargs)
    sb.number_input("seed", 0, 1_000_000, step=1, key=prefix + "gen.seed", **kwargs)


def points_sidebar(ss, prefix: str, *, n: int, noise: float, labels: dict,
                   on_change: Callable[[], None] | None = None,
                   help: str | None = None) -> tuple[np.ndarray, np.ndarray, str]:
    """The data-source block of a page that works on points it does not edit: "Data", a
    source select box (``prefix`` + "source"; the Playground's points by default, a book
    dataset or a generator) and, for a generator, n / noise / seed (``generator_widgets``,
    starting at the page's defaults ``n`` and ``noise``). ``on_change`` runs when another
    source is chosen (e.g. to seed the page's model widgets from ``source_settings``).
    Returns (X, y, title); a generator's ValueError propagates to the page's st.error."""
    sb = st.sidebar
    sb.header("Data")
    ss.setdefault(prefix + "source", "playground")
    name = sb.selectbox("Points", POINT_SOURCES, key=prefix + "source", on_change=on_change,
                        format_func=lambda s: labels.get(s, s), help=help)
    if name in datasets.GENERATORS:
        ss.setdefault(prefix + "gen.n", n)
        ss.setdefault(prefix + "gen.noise", noise)
        ss.setdefault(prefix + "gen.seed", 0)
        generator_widgets(prefix)
    if name == "playground":
        X, y, title = state.current_dataset(ss)
    else:
        ds = datasets.load(name, **generator_params(ss, prefix, name, n, noise))
        X, y, title = ds.X, ds.y, ds.title
    return np.asarray(X, dtype=float), np.asarray(y), str(title)


#: what a page says when its points cannot train a binary SVM
NEED_TWO_CLASSES = ("The points need at least one point of each class (+1 and −1). Add points "
                    "in the Playground or choose a dataset in the sidebar.")


def stop_unless_two_classes(y) -> None:
    """End the page's run with ``NEED_TWO_CLASSES`` when ``y`` lacks a class (or a point)."""
    if len(y) == 0 or len(np.unique(y)) < 2:
        st.error(NEED_TWO_CLASSES)
        st.stop()
