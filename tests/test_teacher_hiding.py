"""A teacher link's hidden parts and points lock, enforced by the server (issue 32 item 11,
issue 33 item 12): what is hidden is never sent to the browser, by any route (the canvas's
payload, the fit endpoint's answer, the SV rings' hover, Import / export's model file and
scikit-learn code), and a points-locked session refuses an edit from any client."""

from __future__ import annotations

import json

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from svm_engine import datasets
from tests.test_page_teacher import PAGE, canvas, d2_spec, no_traceback
from ui.playground import canvas as C
from ui.playground import takeaway_panel
from ui.playground import teacher as T
from ui.playground import teacher_spec as TS
from ui.serving import fit_api
from ui.shared import state as S
from ui.shared.session import shared

#: The answer's fields that carry α or the numbers panel.
NUMBERS = ("alpha", "h", "xi", "category", "panel", "fit")


@pytest.fixture(autouse=True)
def link_db(tmp_path, monkeypatch):
    """The short links' store of this test: a database of its own (ui/classroom/store)."""
    monkeypatch.setenv("SVMLAB_DATABASE_URL", f"sqlite:///{tmp_path / 'links.db'}")


def alpha_hovers(figure) -> list[str]:
    """The SV rings' hover templates that show each SV's α (its customdata's 2nd column)."""
    fig = json.loads(figure) if isinstance(figure, str) else figure
    return [t["hovertemplate"] for t in fig["data"] if t.get("meta", {}).get("role") == "sv"
            and "customdata[1]" in t["hovertemplate"]]


def d2_body(**style) -> dict:
    d = datasets.d2()
    pts = [[float(a), float(b), int(c)] for (a, b), c in zip(d.X, d.y, strict=True)]
    return {"points": pts, "settings": {"C": 1.0}, "style": style}


def test_a_hidden_numbers_session_s_answer_carries_no_alpha_and_no_numbers():
    ss: dict = {}
    T.open_link(ss, {"ts": TS.encode_blob(d2_spec(hidden=["numbers"], locked=[]))})
    style = T.figure_options(ss)
    assert style["hide"] == ("numbers",)
    ans = fit_api.refit({**d2_body(), "style": {**style, "hide": list(style["hide"])}})
    assert ans["ok"] and not set(NUMBERS) & set(ans)
    assert alpha_hovers(ans["figure"]) == []              # the SV rings' hover named each α
    assert ans["free"] or ans["bound"]                     # the rings themselves stay
    full = fit_api.refit(d2_body())
    assert set(NUMBERS) <= set(full) and alpha_hovers(full["figure"])


def test_a_hidden_table_leaves_out_the_table_s_model_columns_only():
    ans = fit_api.refit(d2_body(hide=["table"]))
    assert not {"alpha", "h", "xi", "category"} & set(ans) and ans["panel"]


def test_the_endpoint_refuses_an_unknown_hidden_part():
    with pytest.raises(fit_api.BadRequest,
                       match="style.hide.0: Input should be .numbers. or .table.; got .points."):
        fit_api.refit(d2_body(hide=["points"]))


def test_a_points_locked_session_refuses_a_seventh_point_from_any_client():
    ss: dict = {}
    T.open_link(ss, {"ts": TS.encode_blob(d2_spec())})      # points locked
    X, y, _ = S.current_dataset(ss)
    epoch = shared(ss).epoch
    pts = [[*p, int(c)] for p, c in zip(X.tolist(), y.tolist(), strict=True)] + [[9.0, 9.0, 1]]
    changed = C.apply_canvas_points(ss, {"epoch": epoch, "seq": 99, "points": pts})
    assert changed is False
    X2, y2, _ = S.current_dataset(ss)
    np.testing.assert_array_equal(X2, X)
    np.testing.assert_array_equal(y2, y)
    assert shared(ss).epoch == epoch + 1                       # the canvas gets the link's back
    assert (("error", C.LOCKED_TEXT)) in shared(ss).flash
    ordinary: dict = {}                                    # without a lock the edit is taken
    S.set_points(ordinary, X, y)
    e = int(shared(ordinary).epoch)
    assert C.apply_canvas_points(ordinary, {"epoch": e, "seq": 1, "points": pts})
    assert len(shared(ordinary).X) == len(X) + 1


def open_page(spec) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=120)
    at.query_params.update({"ts": TS.encode_blob(spec)})
    return at.run()


def test_hiding_numbers_hides_the_table_s_alpha_the_model_file_and_the_code():
    """Issue 32 item 11: "numbers" hidden, the table not: the payload's answer still held α
    for the points table, and Import / export offered the model JSON and scikit-learn code."""
    at = open_page(d2_spec(hidden=["numbers"], locked=[]))
    no_traceback(at)
    ans = canvas(at)["answer"]
    assert ans["ok"] and not set(NUMBERS) & set(ans) and not alpha_hovers(ans["figure"])
    at.segmented_control(key="pg.panel").set_value("Import / export")
    at.run()
    no_traceback(at)
    assert [b for b in at.get("download_button") if "model" in str(b.proto.label)] == []
    assert not [c for c in at.code if "sklearn" in str(c.value)]
    assert any(takeaway_panel.HIDDEN_TEXT in str(i.value) for i in at.info)
    assert any("CSV" in str(b.proto.label) for b in at.get("download_button"))  # points stay


def test_without_a_link_the_model_file_and_code_are_offered():
    at = AppTest.from_file(PAGE, default_timeout=120).run()
    at.segmented_control(key="pg.panel").set_value("Import / export")
    at.run()
    no_traceback(at)
    assert [b for b in at.get("download_button") if "model" in str(b.proto.label)]
    assert [c for c in at.code if "sklearn" in str(c.value)]


def test_a_locked_setting_or_the_locked_points_changed_by_a_client_are_put_back():
    """Issue 33 item 12: disabled widgets and the table editor are disabled in the browser
    only; a websocket client could still send a value for them."""
    ss: dict = {}
    spec = d2_spec()                                       # points, kernel, C, solver locked
    T.open_link(ss, {"ts": TS.encode_blob(spec)})
    assert T.hold_locks(ss) is False and not shared(ss).flash      # nothing to put back
    S.set_settings(ss, {**S.current_settings(ss), "C": 100.0})
    X, y, _ = S.current_dataset(ss)
    S.set_points(ss, np.vstack([X, [9.0, 9.0]]), np.append(y, 1))   # the editor's route
    assert T.hold_locks(ss) is True
    assert S.current_settings(ss)["C"] == spec.settings["C"] and T.at_points(ss, spec)
    assert ("error", T.HELD_TEXT) in shared(ss).flash
    S.set_settings(ss, {**S.current_settings(ss), "loss": "quadratic"})  # not locked: kept
    assert T.hold_locks(ss) is False and S.current_settings(ss)["loss"] == "quadratic"
