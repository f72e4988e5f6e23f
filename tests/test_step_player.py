"""ui.step_through.player: the payload the SMO step player replays in the browser, and what comes
back.

The browser's replay (step_player_state.js alphaAt, run in node by tests/step_payload.py
``replay_alpha``) must give
``ui.step_through.snapshot``'s α at every step (its tape, which ``state_at`` reads), bit for
bit, and the per-step numbers must be the run's. What the browser draws from them is tested
in tests/browser/test_step_through.py.
"""

import json
import math

import numpy as np
import pytest

import svm_engine as se
from svm_engine import datasets
from tests.step_payload import payload_step_bytes, replay_alpha
from ui.shared import figures as FIG
from ui.shared.points import default_range
from ui.shared.settings import DEFAULTS, Settings
from ui.step_through import cursor, record, snapshot
from ui.step_through import player as SP
from ui.step_through.curves_figure import curves_figure


def book(name, **over):
    ds = datasets.load(name)
    s = Settings.from_dataset(ds.settings).replace(**over)
    return ds, record.build_run(ds.X, ds.y, s, "smo")


def payload_of(ds, run, rid="run-1"):
    xr, yr = default_range(ds.X)
    return SP.player_payload(run, rid, x_range=xr, y_range=yr, resolution=50)


@pytest.fixture(scope="module")
def moons200():
    ds = datasets.moons(n=200, noise=0.2, seed=0)
    s = dict(DEFAULTS, kernel="gaussian", sigma=1.0, C=1.0)
    return ds, record.build_run(ds.X, ds.y, s, "smo")


RUNS = {
    "d1 hard margin": lambda: book("d1"),
    "d2 C = 1": lambda: book("d2"),
    "d2 max violating pair": lambda: book("d2", wss="max_violating_pair"),
    "d2 quadratic loss": lambda: book("d2", loss="quadratic", hard_margin=False),
    "nonlinear polynomial": lambda: book("nonlinear", kernel="polynomial", degree=2, coef0=1.0),
}


@pytest.mark.parametrize("name", list(RUNS))
def test_replaying_the_payload_gives_step_states_alpha_at_every_step(name):
    ds, run = RUNS[name]()
    p = payload_of(ds, run)
    assert p["T"] == run.n_steps > 0
    alphas = list(replay_alpha(p))
    assert len(alphas) == run.n_steps + 1
    for k, a in enumerate(alphas):  # the tape: state_at's α, without its model and KKT
        np.testing.assert_array_equal(a, run.tape.alpha_at(k), err_msg=f"step {k}")
    np.testing.assert_array_equal(alphas[-1], snapshot.state_at(run, run.n_steps).alpha)
    if name == "nonlinear polynomial":  # 5,600 steps: the trace keeps the first 5,000
        assert run.truncated and p["T"] == record.TRACE_CAP
        return
    # the last step is the engine's fit (residues below the support threshold aside)
    assert not run.truncated
    last = alphas[-1].copy()
    last[last <= se.finalize.support_threshold(last)] = 0.0
    np.testing.assert_array_equal(last, run.model.alpha)


def test_replay_on_200_points_rbf(moons200):
    ds, run = moons200
    p = payload_of(ds, run)
    for k, a in enumerate(replay_alpha(p)):
        np.testing.assert_array_equal(a, run.tape.alpha_at(k), err_msg=f"step {k}")
    assert p["kernel"] == {"name": "gaussian", "sigma": 1.0}


@pytest.mark.parametrize("name", ["d1 hard margin", "d2 C = 1", "d2 quadratic loss"])
def test_the_payloads_step_records_are_the_runs(name):
    ds, run = RUNS[name]()
    p = payload_of(ds, run)
    st, cv = p["steps"], p["curve"]
    dec = {key: SP.decode(spec) for key, spec in {**st, **cv}.items()}
    for k in range(1, run.n_steps + 1):
        r = snapshot.step_record(run, k)
        t = k - 1
        assert (dec["i"][t], dec["j"][t]) == (r["i"], r["j"])
        assert (dec["a_new"][2 * t], dec["a_new"][2 * t + 1]) == (r["ai_new"], r["aj_new"])
        for key, rk in (("aj_unc", "aj_unclipped"), ("L", "L"), ("H", "H"), ("eta", "eta"),
                        ("Ei", "Ei"), ("Ej", "Ej")):  # fmt: skip
            # float32 for what is only shown: 7 digits (E before the step, as step_record)
            assert dec[key][t] == pytest.approx(r[rk], rel=2e-7, abs=1e-12), (k, key)
        assert bool(dec["flags"][t] & SP.FLAG_CLIPPED) == r["clipped"]
    np.testing.assert_array_equal(dec["b"], run.b)  # float64: b enters h(x)
    np.testing.assert_allclose(dec["dual"], run.dual, rtol=1e-6)
    np.testing.assert_allclose(dec["kkt"], run.kkt, rtol=1e-6)
    np.testing.assert_allclose(dec["primal"], run.primal, rtol=1e-6)  # NaN where ∞
    assert SP.event_steps(p).tolist() == cursor.event_steps(run).tolist()
    C = run.C_box
    assert p["C_box"] == (None if math.isinf(C) else C)
    np.testing.assert_array_equal(SP.decode(p["X"]).reshape(-1, 2), ds.X)
    np.testing.assert_array_equal(SP.decode(p["y"]), np.where(run.y > 0, 1, -1))


def test_the_payload_is_json_and_compact():
    # a run at the trace cap: 200 moons, linear kernel, C = 1000, 5,000 recorded steps
    ds = datasets.moons(n=200, noise=0.1, seed=0)
    s = dict(DEFAULTS, kernel="linear", C=1000.0, wss="max_violating_pair")
    run = record.build_run(ds.X, ds.y, s, "smo")
    assert run.n_steps == record.TRACE_CAP
    p = payload_of(ds, run)
    text = json.dumps(p, allow_nan=False)  # no NaN/∞ in the JSON itself
    per_step = payload_step_bytes(p) / run.n_steps
    # 2 indices (u2) + 2 α (f8) + 6 shown numbers (f4) + flags + b (f8) + 3 curves (f4):
    # 65 bytes, 87 as base64 text
    assert per_step < 90
    assert len(text) < 600_000, len(text)  # the whole payload of 5,000 steps, sent once
    # the curves travel as float32 typed arrays, not JSON number lists
    curves = json.loads(p["curves"])
    dual = next(t for t in curves["data"] if t["meta"]["role"] == "dual")
    assert dual["y"]["dtype"] == "f4"


def test_the_payload_carries_static_figures_without_the_moving_parts():
    ds, run = book("d2")
    p = payload_of(ds, run)
    frame = json.loads(p["frame"])
    roles = [t["meta"]["role"] for t in frame["data"]]
    assert roles == ["points", "points"]  # axes and points only: the player draws the rest
    assert frame["layout"]["paper_bgcolor"] == "rgba(0,0,0,0)"
    assert frame["layout"]["plot_bgcolor"] == "rgba(0,0,0,0)"
    curves = json.loads(p["curves"])
    croles = {t["meta"]["role"] for t in curves["data"]}
    assert {"dual", "primal", "kkt", "tol"} <= croles
    assert not croles & {"marker", "marker_kkt"} and curves["layout"]["shapes"] == []
    assert curves["layout"]["yaxis2"]["type"] == "log"
    xs, ys = SP.decode(p["grid"]["xs"]), SP.decode(p["grid"]["ys"])
    (x0, x1), (y0, y1) = default_range(ds.X)
    assert (xs[0], xs[-1], ys[0], ys[-1]) == (x0, x1, y0, y1)
    assert max(len(xs), len(ys)) == 50
    # the shading's colours: the Playground's region heatmap's (the player paints it itself)
    region = next(t for t in FIG.decision_figure_dict(run.model)["data"]
                  if t["meta"]["role"] == "regions")
    assert p["grid"]["regions"] == {k: region[k] for k in ("colorscale", "zmin", "zmax")}


def test_curves_without_marker_is_the_same_figure_otherwise():
    ds, run = book("d2")
    full = curves_figure(run.dual, run.primal, run.kkt, 3)
    bare = curves_figure(run.dual, run.primal, run.kkt, 3, marker=False)
    keep = [t for t in full["data"] if t["meta"]["role"] not in ("marker", "marker_kkt")]
    assert json.dumps(bare["data"], default=str) == json.dumps(keep, default=str)
    assert full["layout"]["shapes"] and not bare["layout"]["shapes"]


def test_only_smo_runs_are_played_in_the_browser():
    ds = datasets.d2()
    run = record.build_run(ds.X, ds.y, Settings.from_dataset(ds.settings), "sga")
    with pytest.raises(ValueError, match="SMO"):
        payload_of(ds, run)


def test_typed_arrays_round_trip():
    a = np.array([0.0, -1.5, math.pi, 1e-300])
    for dt in ("f8", "f4"):
        back = SP.decode(SP.typed(a, dt))
        np.testing.assert_array_equal(back, a.astype(SP._DTYPES[dt]))
    idx = np.array([0, 1, 1999])
    assert SP.decode(SP.typed(idx, "u2")).tolist() == [0, 1, 1999]


def test_parse_step_takes_only_this_runs_integer_step():
    assert SP.parse_step({"run": "a", "k": 3}, "a", 10) == 3
    assert SP.parse_step({"run": "a", "k": 99}, "a", 10) == 10  # clamped
    assert SP.parse_step({"run": "a", "k": -4}, "a", 10) == 0
    assert SP.parse_step({"run": "b", "k": 3}, "a", 10) is None  # another run: a late report
    for bad in (None, "3", [3], {"run": "a"}, {"run": "a", "k": True}, {"run": "a", "k": 2.5},
                {"run": "a", "k": "2"}):  # fmt: skip
        assert SP.parse_step(bad, "a", 10) is None


def test_player_data_sends_the_payload_only_when_given():
    d = SP.player_data("r", None, start=4, show_slack=True, need_seen=2)
    assert d["payload"] is None and d["run"] == "r" and d["start"] == 4
    assert d["options"] == {"show_slack": True} and d["need_seen"] == 2
    assert list(d["speeds"]) == list(SP.SPEEDS) and d["default_speed"] in SP.SPEEDS
    assert len(json.dumps(d)) < 2_000  # what every rerun after the first sends


def test_the_element_has_every_control():
    for act in ("first", "prev", "next", "last", "play", "jump"):
        assert f'data-act="{act}"' in SP.HTML
    for role in ("speed", "slider", "counter", "summary"):
        assert f'data-role="{role}"' in SP.HTML
    for panel in ("decision", "box", "alpha", "curves"):
        assert f'data-panel="{panel}"' in SP.HTML


def test_the_payload_is_sent_once_per_run_unless_the_element_asks_again():
    # first time for this run: send
    assert SP.must_send(None, "a", None, 0) == (True, 0)
    assert SP.must_send("old", "a", None, 0) == (True, 0)
    # sent already: the run id alone
    assert SP.must_send("a", "a", None, 0) == (False, 0)
    # the element lost it and asks (a counter not seen before): send again, once
    assert SP.must_send("a", "a", {"run": "a", "n": 1}, 0) == (True, 1)
    assert SP.must_send("a", "a", {"run": "a", "n": 1}, 1) == (False, 1)
    # a request for another run, or malformed, changes nothing
    assert SP.must_send("a", "a", {"run": "b", "n": 5}, 1) == (False, 1)
    for bad in ({"run": "a", "n": True}, {"run": "a", "n": "2"}, {"run": "a"}, "a"):
        assert SP.must_send("a", "a", bad, 1) == (False, 1)
