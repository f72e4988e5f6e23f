"""What the pages show of the time budget (AppTest): the limits before a fit, the message
when a fit is refused or stopped, and the user's points kept. The fits run in real worker
processes with the measured cost table (ui/serving/costs.py)."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from tests.plotly_json import read_payload
from ui.serving import budget
from ui.shared.session import shared

PAGES = Path(__file__).resolve().parents[1] / "pages"
TIMEOUT = 300
#: The issue's link: SMO, Gaussian kernel, hard margin, 2,000 overlapping points.
TEN_MINUTES = {"v": "1", "d": "blobs", "n": "2000", "noise": "1", "seed": "0", "k": "gaussian",
               "s": "1", "l": "hinge", "C": "inf", "b": "free", "sv": "smo"}
#: Predicted within the budget, runs for minutes (SGA crawls to its sweep cap).
CRAWL = {**TEN_MINUTES, "n": "1500", "s": "0.1", "C": "10000", "b": "augmented", "sv": "sga"}


def page(name: str, query: dict | None = None) -> AppTest:
    at = AppTest.from_file(str(PAGES / name), default_timeout=TIMEOUT)
    at.query_params.update(query or {})
    return at.run()


def no_traceback(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]
    for el in (*at.error, *at.warning, *at.markdown):
        assert "Traceback" not in str(el.value)


def errors(at: AppTest) -> list[str]:
    return [str(e.value) for e in at.error]


def canvas_answer(at: AppTest) -> dict:
    """The fit answer the Playground's canvas draws (its numbers panel shows the message)."""
    (el,) = [e for e in at.get("bidi_component") if e.proto.id.endswith("svmlab_canvas")]
    return read_payload(el.proto.json)["answer"]


def n_points(at: AppTest) -> int:
    return len(shared(at.session_state).X)


def test_playground_refuses_the_ten_minute_link_at_once_and_keeps_the_points():
    at = page("1_playground.py", TEN_MINUTES)
    no_traceback(at)
    ans = canvas_answer(at)
    assert not ans["ok"] and ans["kind"] == "over_budget"
    msg = ans["message"]
    assert msg.startswith("SMO with the Gaussian kernel and the hard margin (C = ∞) on 2,000 "
                          "points takes over 10 min here")
    assert "a finite C (soft margin)" in msg and "at most" in msg
    assert n_points(at) == 2000
    smo = at.button(key="pg.solver.smo")
    assert smo.disabled and smo.help == msg  # the same reason, on the button
    captions = [str(c.value) for c in at.sidebar.caption]
    assert any(c.startswith("Within the 2 s budget of a fit:") for c in captions), captions


def test_playground_switches_a_solver_over_the_budget_and_says_why():
    at = page("1_playground.py", {**TEN_MINUTES, "C": "1", "k": "linear", "sv": "qp"})
    no_traceback(at)
    infos = [str(i.value) for i in at.info]
    assert any(i.startswith("Solver changed to SMO (Platt) because QP (cvxopt) on 2,000 points "
                            "takes")
               for i in infos), infos
    assert shared(at.session_state).settings["solver"] == "smo"
    assert canvas_answer(at)["ok"]  # SMO fits 2,000 points within the budget


def test_playground_shows_the_message_of_a_fit_stopped_at_the_budget(monkeypatch):
    monkeypatch.setenv(budget.SLACK_ENV, "1")  # the real budget: this fit takes minutes
    at = page("1_playground.py", CRAWL)
    no_traceback(at)
    ans = canvas_answer(at)
    assert not ans["ok"] and ans["kind"] == "over_budget"
    roles = {t["meta"]["role"] for t in ans["figure"]["data"]}
    assert roles == {"points"}  # the plot shows the points, and no model
    msg = ans["message"]
    assert msg.startswith("SGA (SVM-Dual) with the Gaussian kernel on 1,500 points did not "
                          "finish within the 2 s budget and was stopped (your points are kept)")
    assert n_points(at) == 1500


def test_step_through_refuses_a_run_over_the_budget():
    at = AppTest.from_file(str(PAGES / "3_step_through.py"), default_timeout=TIMEOUT).run()
    at.selectbox(key="stp.source").select("blobs").run()
    at.slider(key="stp.gen.n").set_value(2000).run()
    at.radio(key="stp.solver").set_value("sga").run()
    at.radio(key="stp.kernel").set_value("gaussian").run()
    no_traceback(at)
    msgs = [e for e in errors(at) if "budget" in e]
    assert msgs and msgs[0].startswith("Recording every step of SGA (SVM-Dual) with the "
                                       "Gaussian kernel on 2,000 points takes"), errors(at)
    captions = [str(c.value) for c in at.sidebar.caption]
    assert any("SGA (SVM-Dual) ≤" in c for c in captions), captions


def test_compare_refuses_a_comparison_over_the_budget_and_shows_its_limit():
    at = AppTest.from_file(str(PAGES / "4_compare_solvers.py"), default_timeout=TIMEOUT).run()
    at.selectbox(key="cmp.source").select("blobs").run()
    at.slider(key="cmp.gen.n").set_value(2000).run()
    no_traceback(at)
    msgs = [e for e in errors(at) if "budget" in e]
    assert msgs and msgs[0].startswith("Comparing every solver with the linear kernel on "
                                       "2,000 points takes"), errors(at)
    captions = [str(c.value) for c in at.sidebar.caption]
    assert any(c.startswith("Within the 2 s budget: at most") for c in captions), captions
