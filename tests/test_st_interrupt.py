"""ui/serving/st_interrupt.py: a page waiting for a fit notices that its session reran or
ended (through ui.shared.st_private's yield check; the names it needs are checked in
tests/test_st_private.py). If this fails after a Streamlit upgrade, a page waiting for a fit
would no longer notice, and its worker would run on.
"""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from ui.serving import st_interrupt

UPGRADE = ("Streamlit changed the API ui/shared/st_private.py relies on (see its docstring): "
           "adapt ui/shared/st_private.py")


def test_outside_a_script_run_nothing_asks_to_stop():
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
