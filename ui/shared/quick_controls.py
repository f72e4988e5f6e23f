"""The model controls a student changes most (kernel, σ, loss, C) beside the plot: on a phone
the sidebar is a drawer over the plot, in present mode it is hidden (issue 32 item 13).

One source of truth: these widgets (keys ``QUICK`` + name) are seeded from the page's stored
settings on every run, and their change writes the settings and the sidebar's own widget
(``prefix`` + name), so the sidebar and the quick row always show the same values.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from ui.shared import state, tables
from ui.shared.controls import C_GRID, C_HELP, SIGMA_GRID, SIGMA_HELP
from ui.shared.labels import KERNEL_LABELS, LOSS_LABELS
from ui.shared.numbers import fmt_setting
from ui.shared.settings import KERNELS, LOSSES

QUICK = "quick."  # widget keys of the quick row (the sidebar's are the page's prefix)
NAMES = ("kernel", "sigma", "loss", "C")


def _changed_cb(prefix: str, name: str) -> None:
    ss = st.session_state
    change = {name: ss[QUICK + name]}
    if name == "loss" and change["loss"] != "hinge":
        change["hard_margin"] = False
        ss[prefix + "hard_margin"] = False
    try:
        s = state.set_settings(ss, state.current_settings(ss).replace(**change))
    except ValueError as exc:  # cannot happen through the widgets
        state.push_flash(ss, "error", f"Invalid setting: {exc}")
        return
    ss[prefix + name] = s[name]  # the sidebar's widget shows the same value


def quick_controls(ss, prefix: str, lock: Callable) -> None:
    """Kernel, σ (Gaussian kernel), loss and C in one row of the main area; ``lock(name,
    disabled=, help=)`` as for ``controls.model_sidebar`` (the teacher's locks)."""
    s = state.current_settings(ss)
    for k in NAMES:
        ss[QUICK + k] = s[k]  # the stored settings win: the sidebar may have changed them
    cols = st.columns([1.4, 1, 1, 1.2] if s["kernel"] == "gaussian" else [1.4, 1, 1.2],
                      vertical_alignment="bottom")
    it = iter(cols)
    next(it).selectbox("Kernel", KERNELS, key=QUICK + "kernel",
                       format_func=KERNEL_LABELS.get, on_change=_changed_cb,
                       args=(prefix, "kernel"), **lock("kernel"))
    if s["kernel"] == "gaussian":
        next(it).select_slider("σ (width)", tables.option_values(SIGMA_GRID, s["sigma"]),
                               key=QUICK + "sigma", format_func=fmt_setting,
                               on_change=_changed_cb, args=(prefix, "sigma"),
                               **lock("kernel", help=SIGMA_HELP))
    next(it).selectbox("Loss", LOSSES, key=QUICK + "loss", format_func=LOSS_LABELS.get,
                       on_change=_changed_cb, args=(prefix, "loss"), **lock("loss"))
    hard = bool(s.get("hard_margin"))
    next(it).select_slider(
        "C (hard margin: C = ∞)" if hard else "C", tables.option_values(C_GRID, s["C"]),
        key=QUICK + "C", format_func=fmt_setting, on_change=_changed_cb, args=(prefix, "C"),
        **lock("C", disabled=hard, help="The hard margin is on (sidebar)." if hard else C_HELP))
