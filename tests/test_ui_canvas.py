"""ui.playground.canvas (Python side): what is sent to the browser and how its answers are
checked."""

import json
import math
from pathlib import Path

import numpy as np
import pytest

from svm_engine import datasets
from tests.plotly_json import read_payload
from ui.playground import canvas
from ui.serving import fit_api
from ui.shared import browser_data
from ui.shared import state as S
from ui.shared.labels import SOLVER_NAMES
from ui.shared.points import default_range
from ui.shared.session import shared
from ui.shared.settings import Settings

UI = Path(canvas.__file__).resolve().parents[1] / "browser"  # the canvas's script and style


def test_payload_is_json_and_carries_the_protocol():
    d = datasets.d1()
    p = canvas.canvas_payload(
        d.X, d.y, epoch=3, seq=7, view_rev=2, max_points=2000, url_query="v=1&d=d1",
        home=((0, 10), (-1, 5)), title="Book D1",
    )  # fmt: skip
    back = json.loads(json.dumps(p, allow_nan=False))
    assert back["epoch"] == 3 and back["seq"] == 7 and back["view_rev"] == 2
    assert back["points"][0] == [3.5, 4.25, 1] and len(back["points"]) == 14
    assert back["plotly_url"].endswith("plotly.min.js") and back["url_query"] == "v=1&d=d1"
    assert back["home"] == [[0.0, 10.0], [-1.0, 5.0]] and back["title"] == "Book D1"
    assert back["answer"] is None  # the browser asks the endpoint
    # the saved image names the solver as the pages do (plot_export.js has no names of its own)
    assert back["solver_names"] == SOLVER_NAMES


def test_payload_carries_what_the_fit_endpoint_needs():
    d = datasets.d2()
    settings = Settings.from_dataset(d.settings)
    ans = fit_api.answer(d.X, d.y, settings, default_range(d.X))
    p = canvas.canvas_payload(
        d.X, d.y, epoch=1, seq=0, view_rev=0, max_points=2000, settings=settings,
        fit_url="/api/refit", answer=ans,
    )  # fmt: skip
    back = json.loads(json.dumps(p, allow_nan=False))
    assert back["settings"] == settings and back["fit_url"] == "/api/refit"
    assert back["answer"]["ok"] and len(back["answer"]["alpha"]) == 18
    assert json.loads(back["answer"]["figure"])["data"][0]["meta"]["z_from"] == "grid"
    # what the component receives: one JSON text, the figure spliced in (not quoted again)
    text = canvas.payload_text(p)
    assert '"figure":{' in text and '\\"' not in text
    sent = read_payload(text)
    assert sent["answer"]["figure"] == json.loads(ans["figure"])
    assert {k: v for k, v in sent.items() if k != "answer"} == \
        {k: v for k, v in back.items() if k != "answer"}
    # without them: no endpoint
    bare = canvas.canvas_payload(d.X, d.y, epoch=1, seq=0, view_rev=0, max_points=9)
    assert bare["fit_url"] == "" and bare["settings"] == {} and bare["answer"] is None


def _value(epoch=1, seq=1, points=None):
    return {"epoch": epoch, "seq": seq, "points": points or [[0, 0, 1], [1.5, 2, -1]]}


def test_parse_points_accepts_a_newer_edit_of_this_epoch():
    X, y, seq = canvas.parse_canvas_points(_value(seq=4), epoch=1, last_seq=3, max_points=2000)
    np.testing.assert_array_equal(X, [[0, 0], [1.5, 2]])
    np.testing.assert_array_equal(y, [1, -1])
    assert seq == 4


@pytest.mark.parametrize("value, epoch, last", [(None, 1, 0), (_value(epoch=0), 1, 0),
                                                 (_value(seq=3), 1, 3)])  # fmt: skip
def test_parse_points_ignores_stale_edits(value, epoch, last):
    assert canvas.parse_canvas_points(value, epoch=epoch, last_seq=last, max_points=2000) is None


@pytest.mark.parametrize(
    "value",
    [
        "points",
        {"epoch": "1", "seq": 1, "points": []},
        {"epoch": 1, "seq": True, "points": []},
        _value(points=[[0, 0]]),
        _value(points=[[0, "1", 1]]),
        _value(points=[[0, math.inf, 1]]),
        _value(points=[[0, 0, 2]]),
        _value(points=[[0, 0, True]]),
        _value(points=[[0, 0, 1]] * 2001),
    ],
)
def test_parse_points_rejects_malformed_lists(value):
    with pytest.raises(browser_data.CanvasError):
        canvas.parse_canvas_points(value, epoch=1, last_seq=0, max_points=2000)


def test_apply_canvas_points_updates_state_or_flashes_an_error():
    ss = {}
    S.ensure_state(ss)
    epoch = shared(ss).epoch
    assert canvas.apply_canvas_points(ss, _value(epoch=epoch, seq=1))
    assert shared(ss).canvas_seq == 1 and shared(ss).epoch == epoch
    assert len(shared(ss).X) == 2
    assert not canvas.apply_canvas_points(ss, _value(epoch=epoch, seq=1))  # already adopted
    assert not canvas.apply_canvas_points(ss, _value(epoch=epoch, seq=2, points=[[0, 0, 5]]))
    assert len(shared(ss).X) == 2 and "not applied" in S.pop_flash(ss)[0][1]


def test_view_reports_are_validated():
    ss: dict = {}
    shared(ss).view_rev = 2
    assert not canvas.apply_canvas_view(ss, {"rev": 1, "x": [0, 1], "y": [0, 1]})
    assert not canvas.apply_canvas_view(ss, {"rev": 2, "x": [0, 0], "y": [0, 1]})
    assert not canvas.apply_canvas_view(ss, {"rev": 2, "x": [0, "a"], "y": [0, 1]})
    assert canvas.apply_canvas_view(ss, {"rev": 2, "x": [3, 1], "y": [0, 1]})
    assert shared(ss).view == ((1.0, 3.0), (0.0, 1.0))
    assert browser_data.grid_ranges(((0, 10), (0, 4))) == ((-1.0, 11.0), (-0.4, 4.4))


def test_browser_files_exist_and_keep_the_contract():
    js = {p.name: p.read_text() for p in UI.glob("canvas*.js")}
    assert js["canvas.js"].count("export default function") == 1
    assert "export function drawRefit" in js["canvas_layer.js"]
    assert 'import { isolines } from "./contours.js"' in js["canvas_layer.js"]
    endpoint = js["canvas_endpoint.js"]  # the fit endpoint; a failure is a no-model answer,
    assert "fetch(st.fitUrl" in endpoint and "function failed" in endpoint  # not a fallback
    assert "want_answer" not in js["canvas_sync.js"]  # to the session (one path for an answer)
    assert "doubleClick: false" in js["canvas.js"]  # clicks < 300 ms apart: no double-click
    assert 'setStateValue("points"' in js["canvas_sync.js"]
    assert "window.__svmlabPerf" in js["canvas_status.js"]
    html = (UI / "canvas.html").read_text()
    assert 'class="svmlab-canvas"' in html and "svmlab-plot" in html
    assert ".svmlab-canvas" in (UI / "canvas.css").read_text()
    assert "svmlab-numbers" in html and "svmlab-table" in html  # drawn from the answer
    assert "plotly.min.js" in browser_data.PLOTLY_URL  # from the static folder, never inlined
