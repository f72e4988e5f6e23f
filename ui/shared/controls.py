"""The sidebar blocks every page shares: the data-source block (``data_source``, and
``points_sidebar`` for the pages that take the Playground's points, a book dataset or a
generator) and the model block (``model_sidebar``), with ``limits_caption`` (the solvers'
point limits). The Playground's own sidebar (it loads and edits its points) is
``ui.playground.sidebar``; it draws ``generator_widgets`` and ``model_sidebar`` from here.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
import streamlit as st

from svm_engine import datasets
from ui.data.import_panel import Upload, sidebar_upload
from ui.serving import costs
from ui.shared import fitting, links, nav, state, student, tables
from ui.shared.labels import COEF0_LABELS, KERNEL_LABELS, LOSS_LABELS, sigma_gamma
from ui.shared.numbers import fmt_setting
from ui.shared.points import MAX_POINTS
from ui.shared.settings import DEGREE_MAX, DEGREE_MIN, KERNELS, LOSSES, Settings

C_GRID = tables.log_grid(-3, 4)
SIGMA_GRID = tables.log_grid(-2, 2)
SIGMA_HELP = "K(x, z) = exp(−‖x − z‖² / (2σ²))"
C_HELP = "Cost of slack: small C = wide margin with more slack, large C = narrow margin."
HARD_C_TEXT = "∞ (hard margin)"  # the C slider's thumb while the hard margin is on
HARD_MARGIN_HELP = ("No slack allowed: every point on or outside its margin. Fails when no "
                    "separating boundary exists.")
#: the widget keys (after the page's prefix) of ``model_sidebar``
MODEL_KEYS = ("kernel", "degree", "coef0", "sigma", "loss", "hard_margin", "C")


# ------------------------------------------------------------------------- the model


def seed_widget(ss, key: str, value) -> None:
    """Give the widget ``key`` its value for this run: its own (the student's latest), or
    ``value`` (the stored settings) when it has none or the student just came back from
    another page (``nav.arrived``: the widget's own value is stale then)."""
    if key not in ss or nav.arrived(ss):
        ss[key] = value


def limits_caption(settings: dict, task: str = "fit", solvers=None) -> None:
    """The solvers' point limits within the time budget (``costs.limits_caption``); not in
    the student view (a budget is the server's, not the chapter's)."""
    if student.is_student(st.session_state):
        return
    able = [s for s, why in fitting.solver_availability(settings, budget=False).items()
            if why is None] if solvers is None else list(solvers)
    text = costs.limits_caption(settings, able, task)
    if text:
        st.sidebar.caption(text)


def _unlocked(name: str, *, disabled: bool = False, help: str | None = None) -> dict:
    """``model_sidebar``'s default ``lock``: nothing is locked."""
    return {"disabled": bool(disabled), **({"help": help} if help is not None else {})}


def model_sidebar(ss, prefix: str, settings: Mapping[str, Any], *, lock: Callable = _unlocked,
                  fixed_loss: tuple[str, str] | None = None, loss: bool = True,
                  hard_margin: bool = True, c_help: str = C_HELP) -> dict:
    """The model block of every page's sidebar: kernel (with q and c, or σ), loss, hard
    margin, C; call it under the page's own ``st.sidebar.header``.

    Widget keys: ``prefix`` + each of ``MODEL_KEYS``, seeded by the page before the call
    (``seed_widget``, or ``default_widgets``); keep them across page visits with the page's
    ``Widgets.keep`` (``ui.shared.session``). ``settings`` holds the values of the widgets this
    run does not draw (σ when the kernel is linear). ``lock(name, disabled=, help=)`` gives a
    widget's ``disabled`` and ``help`` (the Playground's teacher locks, by the names "kernel",
    "loss", "C"). ``fixed_loss``: (loss, a caption saying why) when the solver decides the
    loss, e.g. Newton's quadratic; ``loss=False``: a page with no such choice (ε-SVR);
    ``hard_margin=False``: a page without the hard margin (no toggle, no key). Returns
    ``settings`` with the widgets' values; the hard margin is switched off unless the loss
    is hinge."""
    sb = st.sidebar
    s = dict(settings)
    s["kernel"] = sb.radio("Kernel", KERNELS, key=prefix + "kernel", horizontal=True,
                           format_func=KERNEL_LABELS.get, **lock("kernel"))
    if s["kernel"] == "polynomial":
        s["degree"] = sb.slider("degree q", DEGREE_MIN, DEGREE_MAX,
                                key=prefix + "degree", **lock("kernel"))
        s["coef0"] = sb.radio(
            "K(x, z) = (c + xᵀz)^q", sorted({0.0, 1.0, float(ss.get(prefix + "coef0", 1.0))}),
            key=prefix + "coef0", horizontal=True,
            format_func=lambda c: COEF0_LABELS.get(c, f"c = {fmt_setting(c)}"), **lock("kernel"))
    elif s["kernel"] == "gaussian":
        s["sigma"] = sb.select_slider(
            "σ (width)", tables.option_values(SIGMA_GRID, ss.get(prefix + "sigma", s["sigma"])),
            key=prefix + "sigma", format_func=fmt_setting, **lock("kernel", help=SIGMA_HELP))
        sb.caption(sigma_gamma(s["sigma"]))
    if fixed_loss is not None:
        s["loss"] = fixed_loss[0]
        sb.caption(fixed_loss[1])
    elif loss:
        s["loss"] = sb.radio("Loss", LOSSES, key=prefix + "loss", horizontal=True,
                             format_func=LOSS_LABELS.get, **lock("loss"))
    if hard_margin and loss:
        no_hard = s["loss"] != "hinge"
        if no_hard and ss.get(prefix + "hard_margin"):
            ss[prefix + "hard_margin"] = False
        s["hard_margin"] = sb.toggle(
            "Hard margin (C = ∞)", key=prefix + "hard_margin",
            **lock("C", disabled=no_hard,
                   help="Needs the hinge loss." if no_hard else HARD_MARGIN_HELP))
    shown_c = ss.get(prefix + "C", s["C"])
    # under the hard margin C is ∞: the (disabled) slider keeps the soft margin's C for when
    # it is turned off, but its thumb says ∞ (it showed that C: "1")
    hard = bool(s.get("hard_margin"))
    s["C"] = sb.select_slider(
        "C (log scale)", tables.option_values(C_GRID, shown_c), key=prefix + "C",
        format_func=(lambda c: HARD_C_TEXT if c == shown_c else fmt_setting(c)) if hard
        else fmt_setting, **lock("C", disabled=hard, help=c_help))  # fmt: skip
    return s


def default_widgets(ss, prefix: str, defaults: Mapping[str, Any]) -> None:
    """Give each widget ``prefix + name`` its default the first time the page runs in this
    session (and again after Streamlit dropped the value of a widget a run did not draw)."""
    for k, v in defaults.items():
        ss.setdefault(prefix + k, v)


# ------------------------------------------------------------------- the data source


@dataclass(frozen=True)
class Sliders:
    """A page's point generator in the sidebar (``generator_widgets``): n, noise, seed, and k
    for k classes; the widgets' keys after the page's prefix, their labels and ranges."""

    # min (k when k is drawn), max, step; a link's values are checked against the defaults
    n: tuple[int, int, int] = (links.GEN_N_MIN, MAX_POINTS, 10)
    noise: tuple[float, float, float] = (0.0, links.GEN_NOISE_MAX, 0.05)  # min, max, step
    seed_max: int = links.GEN_SEED_MAX
    n_label: str = "n (points)"
    noise_label: str = "noise"
    k_max: int | None = None  # a "k classes" slider from 2 to k_max, before n
    keys: str = "gen."  # the keys: prefix + keys + "n", "noise", "seed" (and "k")


#: the two-class generators (``datasets.GENERATORS``): keys prefix + "gen.n", …
BINARY = Sliders()


class Source(NamedTuple):
    """What the data-source block chose (``data_source``); the page makes its points."""

    name: str  # the chosen source: a key of the page's ``sources``
    params: dict  # a generator's slider values {"n", "noise", "seed"} (and "k"); else {}
    option: Any = None  # what the source's own widgets returned (``options[name]()``)
    file: tuple | None = None  # the file source: (file name, Table, picked columns), once read


def generator_default(name: str, param: str):
    """A generator's own default for one of its parameters (e.g. its noise)."""
    return inspect.signature(getattr(datasets, name)).parameters[param].default


def generator_widgets(prefix: str, sliders: Sliders = BINARY, **kwargs) -> dict:
    """A generator's sliders (``sliders``) in the sidebar → their values {"n", "noise",
    "seed"} (and "k"); ``kwargs`` (e.g. a teacher lock's ``disabled``, an ``on_change``) go
    to each widget."""
    sb, g, key = st.sidebar, sliders, prefix + sliders.keys
    out = {}
    if g.k_max is not None:
        out["k"] = sb.slider("k classes", 2, g.k_max, key=key + "k", **kwargs)
    lo, hi, step = g.n
    out["n"] = sb.slider(g.n_label, out.get("k", lo), hi, step=step, key=key + "n", **kwargs)
    lo, hi, step = g.noise
    out["noise"] = sb.slider(g.noise_label, lo, hi, step=step, key=key + "noise", **kwargs)
    out["seed"] = sb.number_input("seed", 0, g.seed_max, step=1, key=key + "seed", **kwargs)
    return out


def data_source(ss, prefix: str, sources: Mapping[str, str], *, radio: bool = False,
                generators: Collection[str] = (), sliders: Sliders = BINARY,
                defaults: Mapping[str, Any] | None = None,
                options: Mapping[str, Callable[[], Any]] | None = None,
                upload: Upload | None = None, on_change: Callable[[], None] | None = None,
                on_points: Callable[[], None] | None = None,
                help: str | None = None) -> Source:
    """The data-source block of every page that takes points (the Playground, which loads
    and edits its points, draws ``generator_widgets`` alone): "Data", the source chooser
    (``prefix`` + "source"; ``sources`` {name: label}, a select box or a ``radio``), then the
    chosen source's widgets:

    - its own, ``options[name]()`` (e.g. the Iris features, the regression's function);
    - for a source in ``generators``, the sliders ``sliders`` (with k classes or without;
      the page's ``defaults`` {"n", "noise", "seed"} when the session has no value yet);
    - for the source "file", ``upload`` (``ui.data.import_panel.Upload``: the parser and the
      columns to pick): the uploader, a file's error and the column pickers.

    ``on_change`` runs when another source is chosen, ``on_points`` when the chosen source's
    points change (a slider moves, another file is chosen). Returns the ``Source``; the page
    makes its points from it (two classes, k classes or 1-D targets)."""
    sb = st.sidebar
    sb.header("Data")
    choose = sb.radio if radio else sb.selectbox
    name = choose("Points", tuple(sources), key=prefix + "source", on_change=on_change,
                  format_func=lambda s: sources.get(s, s), help=help)
    option = options[name]() if options and name in options else None
    params, file = {}, None
    if name in generators:
        for k, v in (defaults or {}).items():
            ss.setdefault(prefix + sliders.keys + k, v)
        params = generator_widgets(prefix, sliders,
                                   **({"on_change": on_points} if on_points else {}))
    if name == "file" and upload is not None:
        file = sidebar_upload(ss, prefix, upload, on_points)
    return Source(name, params, option, file)


#: Where the two-class pages take their points from: the Playground's, a book dataset, a
#: generator (``points_sidebar``).
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
    return Settings.from_dataset(datasets.load(name, **params).settings)


def points_sidebar(ss, prefix: str, *, n: int, noise: float, labels: dict,
                   on_change: Callable[[], None] | None = None,
                   help: str | None = None) -> tuple[np.ndarray, np.ndarray, str]:
    """``data_source`` for a page that works on two-class points it does not edit: a select
    box of ``POINT_SOURCES`` (the Playground's points by default, a book dataset or a
    generator, named by ``labels``) and, for a generator, n / noise / seed starting at the
    page's defaults ``n`` and ``noise``. ``on_change`` runs when another source is chosen
    (e.g. to seed the page's model widgets from ``source_settings``). Returns (X, y, title);
    a generator's ValueError propagates to the page's st.error."""
    ss.setdefault(prefix + "source", "playground")
    src = data_source(ss, prefix, {s: labels.get(s, s) for s in POINT_SOURCES},
                      generators=datasets.GENERATORS,
                      defaults={"n": n, "noise": noise, "seed": 0}, on_change=on_change,
                      help=help)
    if src.name == "playground":
        X, y, title = state.current_dataset(ss)
    else:
        ds = datasets.load(src.name, **generator_params(ss, prefix, src.name, n, noise))
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
