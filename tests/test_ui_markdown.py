"""ui.shared.markdown: user text inside st.markdown stays text; the points-and-model line."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.markdown_check import assert_literal
from ui.shared import markdown as M
from ui.shared.settings import DEFAULTS

EVIL = "Imported: ![x](http://evil.example/a.png) [link](http://e.x) **b** $x$ :material/home: <b>"


def test_user_text_is_shown_as_typed():
    out = M.markdown_safe(EVIL + "\nsecond line")
    # no link, image, emphasis, code, LaTeX or tag is left: each such character is escaped,
    # and the text (unescaped: what it shows) holds no autolink
    assert_literal(out, EVIL + "\nsecond line")
    assert M.markdown_safe("Book D1: separable (slide 15)") == "Book D1: separable (slide 15)"
    # nor a heading, a list or a rule at the start
    for start in ("# big", "- item", "+ item", "=== x", "| a | b |"):
        assert M.markdown_safe(start) == "\\" + start
    assert M.markdown_safe("1. item") == "1\\. item" and M.markdown_safe("2) x") == "2\\) x"
    assert M.markdown_safe("1.5 cm") == "1.5 cm"


@pytest.mark.parametrize("text", [
    "[Log in](https://evil.example/d)",
    "![i](https://evil.example/i.png)",
    "https://evil.example/d",
    "see HTTP://evil.example, www.evil.example or WWW.evil.example/x",
    "write to mallory@evil.example (mailto:mallory@evil.example)",
    "$\\INJK$ and $$x$$",
    ":material/home: :smile: :red[x]",
    "<img src=https://evil.example/i.png> &lt;b&gt; &#x41;",
    "x1 = 'https://evil.example/x', label = 'www.evil.example'",
])
def test_links_images_formulas_and_icons_stay_text(text):
    out = M.markdown_safe(text)
    assert_literal(out, text)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("htps:/w.@ae[]()!$\\`*_<>&~#-+=|1 :x\n")),
               max_size=40))
def test_any_text_is_shown_literally(text):
    assert_literal(M.markdown_safe(text), text)


def test_points_and_model_line():
    s = {**DEFAULTS, "kernel": "gaussian", "sigma": 0.015, "C": 10000.0,
         "hard_margin": False, "loss": "quadratic"}
    line = M.points_and_model("My [points]", 1200, s, "SMO")
    assert line == (r"**My \[points\]** · n = 1,200 · SMO · kernel Gaussian σ = 0.015 · "
                    "C = 10000 · loss quadratic")
    s = {**DEFAULTS, "kernel": "polynomial", "degree": 3, "coef0": 0.0,
         "hard_margin": True}
    assert M.points_and_model("D1", 14, s) == (
        "**D1** · n = 14 · kernel polynomial q = 3, c = 0 · C = ∞ (hard margin) · loss hinge")
