"""The Kernels page's "Why?" panel: the decision function through the kernel and b through
the kernel, written with the numbers of the page's fit of the quadratic kernel
(``ui.shared.theory.kernel``)."""

from __future__ import annotations

from ui.shared import theory
from ui.shared.why import show_sections, why_panel

KEY = "kn.why"


def panel(model) -> None:
    why_panel("h(z) = Σ αᵢyᵢK(xᵢ, z) + b and b through the kernel, for this fit", KEY,
              lambda: show_sections([theory.kernel(model)]))
