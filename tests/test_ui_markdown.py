"""ui.shared.markdown: user text inside st.markdown stays text; the points-and-model line."""

import re

from ui.shared import markdown as M
from ui.shared.state import DEFAULT_SETTINGS

EVIL = "Imported: ![x](http://evil.example/a.png) [link](http://e.x) **b** $x$ :material/home: <b>"


def test_user_text_is_shown_as_typed():
    out = M.markdown_safe(EVIL + "\nsecond line")
    # no link, image, emphasis, code, LaTeX or tag is left: each such character is escaped
    assert not re.search(r"(?<!\\)[\[\]*_`$<>~]", out), out
    assert re.sub(r"\\(.)", r"\1", out) == EVIL + " second line"  # unescaped: the text itself
    assert M.markdown_safe("Book D1: separable (slide 15)") == "Book D1: separable (slide 15)"
    # nor a heading, a list or a rule at the start
    for start in ("# big", "- item", "+ item", "=== x", "| a | b |"):
        assert M.markdown_safe(start) == "\\" + start


def test_points_and_model_line():
    s = {**DEFAULT_SETTINGS, "kernel": "gaussian", "sigma": 0.015, "C": 10000.0,
         "hard_margin": False, "loss": "quadratic"}
    line = M.points_and_model("My [points]", 1200, s, "SMO")
    assert line == (r"**My \[points\]** · n = 1,200 · SMO · kernel Gaussian σ = 0.015 · "
                    "C = 10000 · loss quadratic")
    s = {**DEFAULT_SETTINGS, "kernel": "polynomial", "degree": 3, "coef0": 0.0,
         "hard_margin": True}
    assert M.points_and_model("D1", 14, s) == (
        "**D1** · n = 14 · kernel polynomial q = 3, c = 0 · C = ∞ (hard margin) · loss hinge")
