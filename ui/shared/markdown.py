"""Text for ``st.markdown`` (pure): user text shown as typed, and the line that names a page's
points and model.

A title can be user text (an imported file's name, a link's title): inside markdown it must
not become a link, an image fetched from another server, LaTeX or an icon, so ``plain``
escapes every ASCII punctuation character (CommonMark's backslash escapes) and folds line
breaks.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ui.shared.numbers import fmt_setting

_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")


def plain(text: Any) -> str:
    """``text`` for st.markdown, shown exactly as typed (on one line)."""
    return _PUNCTUATION.sub(r"\\\1", " ".join(str(text).split()))


def kernel_text(settings: Mapping[str, Any]) -> str:
    """"linear", "polynomial q = 2, c = 1", "Gaussian σ = 0.5"."""
    kernel = settings["kernel"]
    if kernel == "polynomial":
        return f"polynomial q = {settings['degree']}, c = {fmt_setting(settings['coef0'])}"
    if kernel == "gaussian":
        return f"Gaussian σ = {fmt_setting(settings['sigma'])}"
    return str(kernel)


def points_and_model(title: Any, n: int, settings: Mapping[str, Any],
                     solver: str | None = None) -> str:
    """The line under a page's title: "**Book D1** · n = 14 · SMO · kernel linear · C = 1 ·
    loss hinge" (``solver``: a label, when the page runs one solver)."""
    C = "∞ (hard margin)" if settings["hard_margin"] else fmt_setting(settings["C"])
    parts = [f"**{plain(title)}**", f"n = {n:,}", *([solver] if solver else []),
             f"kernel {kernel_text(settings)}", f"C = {C}", f"loss {settings['loss']}"]
    return " · ".join(parts)
