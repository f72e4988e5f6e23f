"""ui.shared.controls.model_sidebar: the one kernel / loss / C block every page draws."""

import ast

from streamlit.testing.v1 import AppTest


def _page():
    import streamlit as st

    from ui.shared import controls as ctl
    from ui.shared.settings import DEFAULTS

    ss = st.session_state
    for k in ctl.MODEL_KEYS:
        ss.setdefault("t." + k, DEFAULTS[k])
    kw = {}
    if ss.get("fixed"):
        kw["fixed_loss"] = ("quadratic", "Loss: quadratic, as this solver needs.")
    if ss.get("locked"):
        kw["lock"] = lambda name, disabled=False, help=None: {"disabled": True, "help": name}
    s = ctl.model_sidebar(ss, "t.", {k: ss["t." + k] for k in ctl.MODEL_KEYS}, **kw)
    st.write(repr(s))


def start(**state):
    at = AppTest.from_function(_page)
    for k, v in state.items():
        at.session_state[k] = v
    at.run(timeout=60)
    assert not at.exception, [e.value for e in at.exception]
    return at


def returned(at) -> dict:
    return ast.literal_eval(at.markdown[-1].value.replace("inf", "1e999"))


def widget(at, kind, key):
    (w,) = [w for w in getattr(at.sidebar, kind) if w.key == key]
    return w


def test_the_widgets_follow_the_kernel():
    at = start()
    assert returned(at)["kernel"] == "linear"
    assert not [w for w in at.sidebar.select_slider if w.key == "t.sigma"]
    widget(at, "radio", "t.kernel").set_value("gaussian").run()
    sigma = widget(at, "select_slider", "t.sigma")
    sigma.set_value(0.5).run()
    assert returned(at)["kernel"] == "gaussian" and returned(at)["sigma"] == 0.5
    widget(at, "radio", "t.kernel").set_value("polynomial").run()
    widget(at, "slider", "t.degree").set_value(4).run()
    widget(at, "radio", "t.coef0").set_value(0.0).run()
    s = returned(at)
    assert (s["kernel"], s["degree"], s["coef0"]) == ("polynomial", 4, 0.0)
    # σ is not drawn now: its value is the one the caller passed (Streamlit dropped the
    # widget's; a page keeps its own with its Widgets.keep or its canonical settings)
    assert s["sigma"] == 1.0
    widget(at, "select_slider", "t.C").set_value(7.0).run()
    assert returned(at)["C"] == 7.0


def test_the_hard_margin_needs_the_hinge_loss():
    at = start(**{"t.hard_margin": True})
    assert returned(at)["hard_margin"] is True
    assert widget(at, "select_slider", "t.C").disabled  # C = ∞
    widget(at, "radio", "t.loss").set_value("quadratic").run()
    hard = widget(at, "toggle", "t.hard_margin")
    assert hard.disabled and hard.value is False and returned(at)["hard_margin"] is False
    assert not widget(at, "select_slider", "t.C").disabled


def test_a_solver_that_fixes_the_loss():
    at = start(fixed=True, **{"t.hard_margin": True})
    assert not [w for w in at.sidebar.radio if w.key == "t.loss"]
    assert "Loss: quadratic, as this solver needs." in [c.value for c in at.sidebar.caption]
    s = returned(at)
    assert s["loss"] == "quadratic" and s["hard_margin"] is False
    assert widget(at, "toggle", "t.hard_margin").disabled


def test_locks_disable_every_widget():
    at = start(locked=True)
    assert widget(at, "radio", "t.kernel").disabled and widget(at, "radio", "t.loss").disabled
    assert widget(at, "toggle", "t.hard_margin").disabled
    assert widget(at, "select_slider", "t.C").disabled
    assert widget(at, "select_slider", "t.C").help == "C"  # the lock named the widget's part
