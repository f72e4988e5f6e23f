"""Contract of the one Streamlit internal the app uses (ui/serving/st_interrupt.py).

If a Streamlit upgrade breaks one of these, ui/serving/st_interrupt.py must change: a page waiting
for
a fit would no longer notice that its session reran or ended, and its worker would run on.
"""

from __future__ import annotations

import importlib

from streamlit.testing.v1 import AppTest

from ui.serving import st_interrupt

UPGRADE = ("Streamlit changed the API ui/serving/st_interrupt.py relies on (see its docstring): "
           "adapt ui/serving/st_interrupt.py")


def test_the_internal_names_exist():
    ctx_mod = importlib.import_module("streamlit.runtime.scriptrunner_utils.script_run_context")
    assert callable(getattr(ctx_mod, "get_run_yield_check", None)), UPGRADE
    exc_mod = importlib.import_module("streamlit.runtime.scriptrunner_utils.exceptions")
    base = getattr(exc_mod, "ScriptControlException", None)
    assert isinstance(base, type) and issubclass(base, BaseException), UPGRADE
    for name in ("RerunException", "StopException"):
        assert issubclass(getattr(exc_mod, name), base), UPGRADE
    assert st_interrupt.control_exception() is base


def test_outside_a_script_run_nothing_asks_to_stop():
    assert st_interrupt.yield_check() is None
    it = st_interrupt.RunInterrupt()
    assert not it.active and it() is False
    it.raise_pending()  # nothing pending: returns


def _script():
    import streamlit as st
    from streamlit.runtime.scriptrunner_utils.script_requests import RerunData
    from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

    from ui.serving.st_interrupt import RunInterrupt

    ss = st.session_state
    ss.runs = ss.get("runs", 0) + 1
    it = RunInterrupt()
    quiet = it()
    if ss.runs == 1:
        # what the session does from its own thread when a newer click arrives
        get_script_run_ctx().script_requests.request_rerun(RerunData())
        ss.seen = (it.active, quiet, it(), type(it.pending).__name__)
        it.raise_pending()
        st.write("not reached")
    st.write(f"runs={ss.runs} seen={ss.seen}")


def test_inside_a_run_a_rerun_request_is_seen_and_reruns_the_script():
    at = AppTest.from_function(_script).run(timeout=60)
    assert not at.exception, [e.value for e in at.exception]
    texts = [m.value for m in at.markdown]
    assert "not reached" not in texts, UPGRADE
    # active in a run, quiet before the request, True after it, the rerun exception kept
    assert texts == ["runs=2 seen=(True, False, True, 'RerunException')"], (texts, UPGRADE)
