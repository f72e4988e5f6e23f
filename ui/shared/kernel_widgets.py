"""The kernel and C widgets of the pages that are not the Playground (More classes,
Regression): the same choices as the Playground's model sidebar, under the page's own keys
(``prefix``), so the pages never change the Playground's settings."""

from __future__ import annotations

import streamlit as st

from ui.shared import state
from ui.shared.controls import C_GRID, KERNEL_LABELS, SIGMA_GRID
from ui.shared.tables import option_values

COEF0_LABELS = {0.0: "homogeneous c = 0", 1.0: "inhomogeneous c = 1"}


def _fmt(v: float) -> str:
    return f"{v:g}"


def seed(ss, prefix: str, defaults: dict) -> None:
    """Give every widget its default the first time the page runs in this session."""
    for k, v in defaults.items():
        ss.setdefault(prefix + k, v)


def kernel_and_C(ss, prefix: str, sb=None, c_help: str = "") -> dict:
    """Kernel, its parameter and C in the sidebar; returns {kernel, degree, coef0, sigma, C}.
    The widgets' values must have been seeded (``seed``)."""
    sb = sb or st.sidebar
    s = {k: ss[prefix + k] for k in ("kernel", "degree", "coef0", "sigma", "C")}
    s["kernel"] = sb.radio("Kernel", state.KERNELS, key=prefix + "kernel", horizontal=True,
                           format_func=KERNEL_LABELS.get)
    if s["kernel"] == "polynomial":
        s["degree"] = sb.slider("degree q", state.DEGREE_MIN, state.DEGREE_MAX,
                                key=prefix + "degree")
        s["coef0"] = sb.radio("K(x, z) = (c + xᵀz)^q", sorted({0.0, 1.0, float(s["coef0"])}),
                              key=prefix + "coef0", horizontal=True,
                              format_func=lambda c: COEF0_LABELS.get(c, f"c = {c:g}"))
    elif s["kernel"] == "gaussian":
        s["sigma"] = sb.select_slider("σ (width)", option_values(SIGMA_GRID, s["sigma"]),
                                      key=prefix + "sigma", format_func=_fmt,
                                      help="K(x, z) = exp(−‖x − z‖² / (2σ²))")
    s["C"] = sb.select_slider("C (log scale)", option_values(C_GRID, s["C"]), key=prefix + "C",
                              format_func=_fmt, help=c_help or None)
    return s
