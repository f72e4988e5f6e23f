"""Streamlit widgets and panels of the Playground (thin: every decision is in a tested
pure module — ``ui.state``, ``ui.fitting``, ``ui.tables``, ``ui.io``, ``ui.canvas``).

Widget keys start with ``state.WIDGET_PREFIX`` and are seeded from the canonical settings in
``st.session_state`` (widget values are dropped by Streamlit on pages where the widget is not
drawn; the canonical settings are not).
"""

from __future__ import annotations

import hashlib
import inspect
import math
from urllib.parse import urlencode

import numpy as np
import streamlit as st

import svm_engine as se
from svm_engine import datasets

from . import budget, canvas, costs, fit_api, fitting, state, tables
from . import io as pio
from .figures import PLOTLY_CONFIG, decision_figure_dict
from .warmstart import map_alpha

P = state.WIDGET_PREFIX
CANVAS_KEY = "svmlab_canvas"
GRID_RESOLUTION = canvas.GRID_RESOLUTION  # the fit endpoint (ui.fit_api) samples h alike
MAX_SLACK_LABELS = canvas.MAX_SLACK_LABELS

DATASET_LABELS = {
    "d1": "Book D1: separable (slide 15)",
    "d2": "Book D2: not separable (slide 21)",
    "iris_setosa": "Iris: setosa vs others (slide 34)",
    "iris_versicolor_pca": "Iris: versicolor vs others, PCA (slide 35)",
    "nonlinear": "Nonlinear bump (slide 25)",
    "two_point": "Two points: KKT by hand",
    "blobs": "Generator: two blobs",
    "moons": "Generator: moons",
    "circles": "Generator: circles",
    "xor": "Generator: XOR",
}
KERNEL_LABELS = {"linear": "linear", "polynomial": "polynomial", "gaussian": "Gaussian (RBF)"}
LOSS_LABELS = {"hinge": "hinge (k = 1)", "quadratic": "quadratic (k = 2)"}
BIAS_LABELS = {"free": "free b", "augmented": "augmented (b in w, as in the book)"}
WSS_LABELS = {"second_order": "second order (LIBSVM)", "max_violating_pair": "max violating pair"}
C_GRID = tables.log_grid(-3, 4)
SIGMA_GRID = tables.log_grid(-2, 2)


def _fmt_option(v: float) -> str:
    return f"{v:g}"


# ------------------------------------------------------------------------------ start


def init_session(ss) -> str | None:
    """First run of a session: restore the state from the URL if it holds a link, else the
    default. Returns a message for the user when the link was broken."""
    if state.K_X in ss and state.K_SETTINGS in ss:
        return None
    q = st.query_params.to_dict()
    if state.is_link(q):
        return state.restore_from_query(ss, q)
    state.ensure_state(ss)
    return None


def sync_url(ss) -> dict[str, str]:
    """Write the state into st.query_params (only when it changed). Returns the parameters.

    Called on full reruns; inside the points fragment the canvas mirrors the same text into
    the address bar instead (see ``canvas.canvas_payload(url_query=...)``)."""
    q = state.state_query(ss)
    if st.query_params.to_dict() != q:
        st.query_params.from_dict(q)
    return q


def show_flash(ss) -> None:
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
    try:
        state.load_dataset(ss, name, **params)
    except ValueError as exc:
        state.push_flash(ss, "error", f"Could not load the dataset: {exc}")
        return
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


def sidebar_data(ss) -> None:
    st.sidebar.header("Data")
    names = list(datasets.BOOK) + list(datasets.GENERATORS)
    ss.setdefault(P + "dataset", (ss.get(state.K_SOURCE) or {}).get("name", state.DEFAULT_DATASET))
    if ss[P + "dataset"] not in names:
        ss[P + "dataset"] = state.DEFAULT_DATASET
    name = st.sidebar.selectbox(
        "Dataset",
        names,
        key=P + "dataset",
        format_func=lambda n: DATASET_LABELS.get(n, n),
        on_change=_on_generator_change,
    )
    if name in datasets.GENERATORS:
        src = ss.get(state.K_SOURCE) or {}
        params = src.get("params", {}) if src.get("name") == name else {}
        ss.setdefault(P + "gen.n", int(params.get("n", 100)))
        noise = params.get("noise", generator_default(name, "noise"))
        ss.setdefault(P + "gen.noise", float(noise))
        ss.setdefault(P + "gen.seed", int(params.get("seed", 0)))
        st.sidebar.slider("n (points)", 10, state.MAX_POINTS, step=10, key=P + "gen.n")
        limits_caption(state.current_settings(ss))
        st.sidebar.slider("noise", 0.0, 2.0, step=0.05, key=P + "gen.noise")
        st.sidebar.number_input("seed", 0, 1_000_000, step=1, key=P + "gen.seed")
    st.sidebar.button(
        "Load dataset",
        key=P + "load",
        on_click=_load_dataset_cb,
        type="primary",
        width="stretch",
        help="Replaces the points (Undo in the plot brings them back).",
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


def sidebar_model(ss) -> dict:
    """Kernel, loss, C, bias, solver widgets → the (validated, stored) settings."""
    s = state.current_settings(ss)
    sb = st.sidebar
    sb.header("Model")
    seeds = {
        "kernel": s["kernel"], "degree": s["degree"], "coef0": s["coef0"], "sigma": s["sigma"],
        "loss": s["loss"], "C": s["C"], "hard_margin": s["hard_margin"], "bias": s["bias"],
        "wss": s["wss"],
    }  # fmt: skip
    for k, v in seeds.items():
        ss.setdefault(P + k, v)
    new = dict(s)
    new["kernel"] = sb.radio(
        "Kernel", state.KERNELS, key=P + "kernel", format_func=KERNEL_LABELS.get, horizontal=True
    )
    if new["kernel"] == "polynomial":
        new["degree"] = sb.slider("degree q", state.DEGREE_MIN, state.DEGREE_MAX, key=P + "degree")
        coef_opts = sorted({0.0, 1.0, float(ss[P + "coef0"])})
        new["coef0"] = sb.radio(
            "K(x, z) = (c + xᵀz)^q",
            coef_opts,
            key=P + "coef0",
            horizontal=True,
            format_func=lambda c: {0.0: "homogeneous c = 0", 1.0: "inhomogeneous c = 1"}.get(
                c, f"c = {c:g}"
            ),
        )
    elif new["kernel"] == "gaussian":
        new["sigma"] = sb.select_slider(
            "σ (width)",
            tables.option_values(SIGMA_GRID, ss[P + "sigma"]),
            key=P + "sigma",
            format_func=_fmt_option,
            help="K(x, z) = exp(−‖x − z‖² / (2σ²))",
        )
    new["loss"] = sb.radio(
        "Loss", state.LOSSES, key=P + "loss", format_func=LOSS_LABELS.get, horizontal=True
    )
    quad = new["loss"] == "quadratic"
    if quad and ss[P + "hard_margin"]:
        ss[P + "hard_margin"] = False
    new["hard_margin"] = sb.toggle(
        "Hard margin (C = ∞)",
        key=P + "hard_margin",
        disabled=quad,
        help="Needs the hinge loss." if quad else "No slack allowed: every point on or "
        "outside its margin. Fails when no separating boundary exists.",
    )
    new["C"] = sb.select_slider(
        "C (log scale)",
        tables.option_values(C_GRID, ss[P + "C"]),
        key=P + "C",
        format_func=_fmt_option,
        disabled=bool(new["hard_margin"]),
        help="Cost of slack: small C = wide margin with more slack, large C = narrow margin.",
    )
    new["bias"] = sb.radio("Bias", state.BIASES, key=P + "bias", format_func=BIAS_LABELS.get)

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
            disabled=why is not None,
            type="primary" if name == new["solver"] else "secondary",
            help=why or f"Use {name}",
            width="stretch",
        )
    for name, why in avail.items():
        if why is not None:
            sb.caption(f"**{name}** is not available here: {why}")
    if new["solver"] == "smo":
        new["wss"] = sb.radio(
            "SMO working-set rule", se.WSS_RULES, key=P + "wss", format_func=WSS_LABELS.get
        )
    try:
        return state.set_settings(ss, new)
    except ValueError as exc:  # cannot happen through the widgets; keep the old settings
        st.sidebar.error(f"Invalid setting: {exc}")
        return s


# ------------------------------------------------------------------------ engine call


@st.cache_data(max_entries=256, show_spinner=False)
def cached_fit(xb: bytes, yb: bytes, skey: tuple, a0b: bytes | None) -> fitting.FitOutcome:
    """The engine call: a pure function of the points (bytes), settings and warm start, in
    a worker within the time budget (``budget.fit_outcome``; its ``Stopped`` is not cached)."""
    X = np.frombuffer(xb, dtype=np.float64).reshape(-1, 2)
    y = np.frombuffer(yb, dtype=np.int64)
    alpha0 = None if a0b is None else np.frombuffer(a0b, dtype=np.float64)
    return budget.fit_outcome(X, y, dict(skey), alpha0)


@st.cache_data(max_entries=64, show_spinner=False)
def cached_figure_json(
    xb: bytes,
    yb: bytes,
    skey: tuple,
    a0b: bytes | None,
    axis_ranges: tuple,
    shade_ranges: tuple,
    highlight: tuple,
    uirevision: int,
    fitted: bool = True,
) -> str:
    """The decision figure as plotly JSON for the canvas (pure, cached); ``fitted`` False:
    the points only (the fit was stopped at the time budget)."""
    out = cached_fit(xb, yb, skey, a0b) if fitted else fitting.FitOutcome(kind="over_budget")
    X = np.frombuffer(xb, dtype=np.float64).reshape(-1, 2)
    y = np.frombuffer(yb, dtype=np.int64)
    xr, yr = axis_ranges
    if out.ok:
        grid = fitting.decision_grid(out.model, *shade_ranges, GRID_RESOLUTION)
        fig = decision_figure_dict(
            out.model, grid=grid, x_range=xr, y_range=yr, highlight=highlight,
            uirevision=uirevision, max_slack_labels=MAX_SLACK_LABELS,
        )  # fmt: skip
    else:
        fig = decision_figure_dict(
            None, X=X, y=y, x_range=xr, y_range=yr, highlight=highlight, uirevision=uirevision
        )
    return canvas.canvas_figure_json(fig)


def _warm_start(ss, X, y, skey) -> bytes | None:
    last = ss.get(state.K_LAST_FIT)
    if not last or last[2] != skey or dict(skey)["solver"] not in fitting.WARM_START_SOLVERS:
        return None
    if np.array_equal(last[0], X) and np.array_equal(last[1], y):
        return last[4]  # same points: same start as last time, so the cache hits
    a0 = map_alpha(last[0], last[1], last[3], X, y)
    return None if a0 is None else a0.astype(np.float64).tobytes()


def compute(ss, highlight: tuple = ()) -> tuple[fitting.FitOutcome, str]:
    """Fit (cached, warm-started from the previous α after a one-point edit) and build the
    canvas figure. Returns (outcome, figure JSON)."""
    X, y, _ = state.current_dataset(ss)
    settings = state.current_settings(ss)
    skey = state.settings_key(settings)
    xb, yb = X.astype(np.float64).tobytes(), y.astype(np.int64).tobytes()
    a0b = _warm_start(ss, X, y, skey)
    out = stopped_fit(ss, xb, yb, skey, a0b)
    if out is None:
        try:
            out = cached_fit(xb, yb, skey, a0b)
        except budget.Stopped as exc:  # not cached; kept for this session's other fragments
            out = fitting.FitOutcome(error=str(exc), kind="over_budget")
            ss[K_STOPPED] = (fitting.fit_key(X, y, dict(skey)), a0b, out)
    if out.ok:
        ss[state.K_LAST_FIT] = (X, y, skey, np.asarray(out.model.alpha, dtype=float), a0b)
    axis = tuple(tuple(r) for r in ss[state.K_RANGE])
    view = ss.get(state.K_VIEW) or axis
    shade = canvas.grid_ranges(view)
    fig_json = cached_figure_json(
        xb, yb, skey, a0b, axis, shade, tuple(int(i) for i in highlight), int(ss[state.K_VIEW_REV]),
        out.ok or out.kind != "over_budget",
    )
    return out, fig_json


K_STOPPED = "svmlab.fit_stopped"  # (fit key, warm start, outcome) of a fit stopped at the budget


def stopped_fit(ss, xb: bytes, yb: bytes, skey: tuple, a0b) -> fitting.FitOutcome | None:
    """The outcome of this very fit if this session saw it stopped at the time budget (so
    the panels' rerun does not wait for it again), else None."""
    last = ss.get(K_STOPPED)
    if last is None:
        return None
    X = np.frombuffer(xb, dtype=np.float64).reshape(-1, 2)
    y = np.frombuffer(yb, dtype=np.int64)
    if last[0] == fitting.fit_key(X, y, dict(skey)) and last[1] == a0b:
        return last[2]
    return None


# ---------------------------------------------------------------------------- canvas


def _on_canvas_points() -> None:
    value = st.session_state[CANVAS_KEY]
    canvas.apply_canvas_points(st.session_state, value.get("points") if value else None)


def _on_canvas_view() -> None:
    value = st.session_state[CANVAS_KEY]
    canvas.apply_canvas_view(st.session_state, value.get("view") if value else None)


K_CANVAS_SHOWS = "svmlab.canvas_shows"  # what the canvas fragment last drew (see panels_stale)
SYNC_KEY = "svmlab_sync"


def canvas_shows(ss, highlight: tuple) -> tuple:
    """What the canvas displays besides its own clicks: points replaced from Python (epoch)
    and the highlighted rows."""
    return int(ss.get(state.K_EPOCH, 0)), tuple(highlight)


def panels_stale(ss) -> bool:
    """True when the panels changed something the canvas shows (the table editor or an
    import replaced the points, or the row selection changed): then the whole page must
    rerun, since a panel rerun does not redraw the canvas."""
    return ss.get(K_CANVAS_SHOWS) != canvas_shows(ss, selected_rows(ss))


def draw_canvas(ss, outcome: fitting.FitOutcome, fig_json: str, query: dict[str, str],
                highlight: tuple = ()) -> None:  # fmt: skip
    ss[K_CANVAS_SHOWS] = canvas_shows(ss, highlight)
    X, y, _ = state.current_dataset(ss)
    if outcome.ok:
        status, err = "", False
    elif outcome.kind == "need_two_classes":
        status, err = "Add points of both classes to train.", False
    else:
        status, err = "No model: see the message on the right.", True
    payload = canvas.canvas_payload(
        fig_json,
        X,
        y,
        epoch=int(ss.get(state.K_EPOCH, 0)),
        seq=int(ss.get(state.K_CANVAS_SEQ, 0)),
        view_rev=int(ss.get(state.K_VIEW_REV, 0)),
        max_points=state.MAX_POINTS,
        status_text=status,
        status_error=err,
        config=PLOTLY_CONFIG,
        fit_info={
            "solver_ms": round(1000 * outcome.model.time_s, 2),
            "n_iter": int(outcome.model.n_iter),
            "converged": bool(outcome.model.converged),
        }
        if outcome.ok
        else {},
        url_query=urlencode(query),
        settings=state.current_settings(ss),
        fit_url=fit_api.fit_url(st.get_option("server.baseUrlPath")),
        highlight=highlight,
    )
    canvas.point_canvas(
        payload, key=CANVAS_KEY, on_points=_on_canvas_points, on_view=_on_canvas_view
    )


# ----------------------------------------------------------------------------- panels


def numbers_panel(ss, outcome: fitting.FitOutcome) -> None:
    X, y, title = state.current_dataset(ss)
    n_pos, n_neg = int(np.sum(y > 0)), int(np.sum(y < 0))
    st.markdown(f"**{title}**  \n{len(y)} points ({n_pos} of class +1, {n_neg} of class −1)")
    if not outcome.ok:
        if outcome.kind == "need_two_classes":
            st.info(outcome.error)
        elif outcome.kind == "not_separable":
            st.error(f"Not separable: {outcome.error}")
        else:
            st.error(outcome.error)
        return
    m = outcome.model
    if outcome.warning:
        st.warning(f"Did not converge: {outcome.warning}")
    rows = tables.model_summary(m)
    lines = ["| quantity | value |", "|---|---|"] + [f"| {k} | {v} |" for k, v in rows]
    st.markdown("\n".join(lines))


def selected_rows(ss) -> tuple[int, ...]:
    """0-based indices selected in the points table (before the table is drawn)."""
    sel = ss.get(P + "table")
    n = len(ss.get(state.K_X, ()))
    try:
        rows = sel["selection"]["rows"]
    except (KeyError, TypeError):
        return ()
    return tuple(sorted(int(r) for r in rows if isinstance(r, int) and 0 <= r < n))


def table_tab(ss, outcome: fitting.FitOutcome) -> None:
    X, y, _ = state.current_dataset(ss)
    df = tables.point_table(outcome.model if outcome.ok else None, X, y)
    st.caption("Select rows to ring their points in the plot.")
    st.dataframe(
        df,
        key=P + "table",
        on_select="rerun",
        selection_mode="multi-row",
        hide_index=True,
        width="stretch",
        height=min(420, 38 + 35 * max(1, len(df))),
        column_config={
            "i": st.column_config.NumberColumn("i", format="x%d", width="small"),
            "x1": st.column_config.NumberColumn(format="%.4g"),
            "x2": st.column_config.NumberColumn(format="%.4g"),
            "y": st.column_config.NumberColumn(format="%+d", width="small"),
            "α": st.column_config.NumberColumn(format="%.4f"),
            "h(x)": st.column_config.NumberColumn(format="%.3f"),
            "y·h(x)": st.column_config.NumberColumn(format="%.3f"),
            "ξ": st.column_config.NumberColumn(format="%.3f"),
        },
    )


def _points_digest(X, y) -> str:
    return hashlib.sha1(np.asarray(X).tobytes() + np.asarray(y).tobytes()).hexdigest()[:12]


def _on_editor_change(key: str) -> None:
    ss = st.session_state
    X, y, _ = state.current_dataset(ss)
    try:
        X2, y2 = tables.apply_editor_changes(X, y, ss.get(key), state.MAX_POINTS)
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
        column_config={
            "x1": st.column_config.NumberColumn("x1", required=True, format="%.6g"),
            "x2": st.column_config.NumberColumn("x2", required=True, format="%.6g"),
            "y": st.column_config.SelectboxColumn("y", options=[1, -1], required=True),
        },
    )


def _on_upload(key: str) -> None:
    ss = st.session_state
    f = ss.get(key)
    if f is None:
        return
    try:
        if getattr(f, "size", 0) > pio.MAX_UPLOAD_BYTES:
            raise pio.PointsFileError(
                f"the file is too large ({f.size:,} bytes; at most {pio.MAX_UPLOAD_BYTES:,})"
            )
        X, y = pio.parse_points(f.name, f.getvalue())
        state.set_points(ss, X, y, title=f"Imported: {f.name}", reset_view=True)
    except ValueError as exc:
        state.push_flash(ss, "error", f"Could not import {f.name}: {exc}. Your points are kept.")
        return
    state.push_flash(ss, "success", f"Imported {len(y)} points from {f.name}.")


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
        st.caption("The figure: use the camera button in the plot's toolbar (PNG).")
    with c2:
        st.markdown("**Import points** (replaces the current ones)")
        key = P + "upload." + str(ss.get(state.K_EPOCH, 0))
        st.file_uploader(
            "CSV (x1,x2,label) or LIBSVM (label 1:x1 2:x2)",
            type=["csv", "txt", "libsvm", "svm", "dat"],
            key=key,
            on_change=_on_upload,
            args=(key,),
            help=f"At most {state.MAX_POINTS} points, two classes, "
            f"{pio.MAX_UPLOAD_BYTES // 1000} kB.",
        )


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


PANELS = ("Points table", "Edit coordinates", "Import / export", "Share link")


def _on_drawn() -> None:
    """The canvas drew a refit: the panels' rerun (this callback's fragment) updates them."""


def drawn_listener() -> None:
    canvas.drawn_listener(key=SYNC_KEY, on_drawn=_on_drawn)


def lower_panels(ss, outcome: fitting.FitOutcome, query: dict[str, str]) -> None:
    """The panel under the plot; only the chosen one is built."""
    ss.setdefault(P + "panel", PANELS[0])
    choice = st.segmented_control(
        "Panel", PANELS, key=P + "panel", label_visibility="collapsed"
    )
    if choice == PANELS[0]:
        table_tab(ss, outcome)
    elif choice == PANELS[1]:
        editor_tab(ss)
    elif choice == PANELS[2]:
        io_tab(ss)
    elif choice == PANELS[3]:
        share_tab(ss, query)


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


def points_sidebar(ss, prefix: str, *, n: int, noise: float, labels: dict, on_change,
                   help: str | None = None) -> tuple[np.ndarray, np.ndarray, str]:
    """The sidebar's "Data" block: a source select box (``prefix`` + "source"; the
    Playground's points by default) and, for a generator, n / noise / seed. Returns
    (X, y, title); a generator's ValueError propagates to the page's st.error."""
    sb = st.sidebar
    sb.header("Data")
    ss.setdefault(prefix + "source", "playground")
    name = sb.selectbox("Points", POINT_SOURCES, key=prefix + "source", on_change=on_change,
                        format_func=lambda s: labels.get(s, s), help=help)
    if name in datasets.GENERATORS:
        ss.setdefault(prefix + "gen.n", n)
        ss.setdefault(prefix + "gen.noise", noise)
        ss.setdefault(prefix + "gen.seed", 0)
        sb.slider("n (points)", 10, state.MAX_POINTS, step=10, key=prefix + "gen.n")
        sb.slider("noise", 0.0, 2.0, step=0.05, key=prefix + "gen.noise")
        sb.number_input("seed", 0, 1_000_000, step=1, key=prefix + "gen.seed")
    if name == "playground":
        X, y, title = state.current_dataset(ss)
    else:
        ds = datasets.load(name, **generator_params(ss, prefix, name, n, noise))
        X, y, title = ds.X, ds.y, ds.title
    return np.asarray(X, dtype=float), np.asarray(y), str(title)
