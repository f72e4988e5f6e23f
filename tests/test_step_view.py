"""ui.step_through.view and the page's text (ui.step_through.text): what the Step-through
page shows for a recorded run, checked without a page."""

import math

import numpy as np
import pytest

from svm_engine import datasets
from ui.shared.numbers import fmt_num, hyperplane_equation
from ui.shared.settings import Settings
from ui.step_through import record, snapshot
from ui.step_through import text as W
from ui.step_through import view as V
from ui.step_through.coordinate import coordinate_count, coordinate_state


def _run(solver, **over):
    ds = datasets.d2()
    s = {**Settings.from_dataset(ds.settings), **over}
    return record.build_run(ds.X, ds.y, s, solver)


@pytest.fixture(scope="module")
def smo():
    return _run("smo")


@pytest.fixture(scope="module")
def sga():
    return _run("sga")


@pytest.fixture(scope="module")
def newton():
    return _run("newton", loss="quadratic")


def test_units_and_step_counts(smo, sga):
    assert [V.unit_name(s) for s in ("smo", "sga", "newton")] == ["step", "sweep", "iteration"]
    assert V.unit_name("sga", coordinate=True) == "coordinate step"
    assert V.total_steps(smo) == smo.n_steps
    assert V.total_steps(sga) == sga.n_steps
    assert V.total_steps(sga, coordinate=True) == sga.n_steps * sga.n == coordinate_count(sga)


def test_run_key_names_every_part_of_the_run():
    parts = (b"x", b"y", (("C", 1.0),), "smo", "sweep")
    key = V.run_key(*parts)
    assert key == V.run_key(*parts) and len(key) == 24
    for i, other in enumerate((b"x2", b"y2", (("C", 2.0),), "sga", "coordinate")):
        assert V.run_key(*parts[:i], other, *parts[i + 1:]) != key


def test_a_sweep_or_step_shows_the_recorded_state(smo, sga):
    for run, k in ((smo, 3), (sga, 2)):
        v = V.step_view(run, k)
        np.testing.assert_array_equal(v.state.alpha, snapshot.state_at(run, k).alpha)
        np.testing.assert_array_equal(v.prev.alpha, snapshot.state_at(run, k - 1).alpha)
        assert (v.k, v.xpos, v.pair, v.coord) == (k, float(k), [], None)
    assert V.step_view(smo, 0).prev is None


def test_a_coordinate_step_rings_its_point_between_two_sweeps(sga):
    n = sga.n
    v = V.step_view(sga, n + 2, coordinate=True)  # sweep 2, the second coordinate
    assert (v.sweep, v.index, v.pair, v.pair_labels) == (2, 1, [1], ("k",))
    assert v.xpos == pytest.approx(1 + 2 / n)
    assert v.state.alpha[1] == v.coord["a_new"]
    np.testing.assert_array_equal(v.prev.alpha, coordinate_state(sga, n + 1)[0].alpha)
    start = V.step_view(sga, 0, coordinate=True)
    assert start.prev is None and start.xpos == 0.0 and start.pair == []
    assert W.headline(start, "coordinate step").startswith("the start: α = 0")
    line = W.headline(v, "coordinate step")
    assert line.startswith("sweep 2, k = 2: α₂ ") and fmt_num(v.coord["a_new"]) in line


def test_the_alpha_table_and_the_curves(smo, sga, newton):
    stt = snapshot.state_at(smo, 4)
    df = V.alpha_frame(smo, stt)
    assert list(df.index) == list(range(1, smo.n + 1))
    np.testing.assert_array_equal(df["α"], stt.alpha)
    np.testing.assert_array_equal(df["KKT violation"], stt.violation)
    c = V.curves_names(sga)
    assert c["extra"] is sga.detail["delta_norm"] and c["kkt_name"] == "max KKT violation"
    c = V.curves_names(newton)
    assert c["extra"] is newton.detail["step_norm"] and c["tol"] == newton.model.tol


def test_the_play_timer():
    # the press starts the clock and takes no step
    assert V.timer_tick(3, None, 100.0, 0.5, 10) == (3, 100.0, True)
    # a rerun sooner than half an interval takes no step
    assert V.timer_tick(3, 100.0, 100.2, 0.5, 10) == (3, 100.0, True)
    # a tick is due half an interval after the last (a frame's own drawing takes time)
    assert V.timer_tick(3, 100.0, 100.3, 0.5, 10) == (4, 100.3, True)
    # a tick: stride steps
    assert V.timer_tick(3, 100.0, 100.5, 0.5, 10, stride=5) == (8, 100.5, True)
    # the end stops play (clamped), and a cursor out of range is clamped first
    assert V.timer_tick(8, 100.0, 101.0, 0.5, 10, stride=5) == (10, 101.0, False)
    assert V.timer_tick(99, None, 5.0, 0.5, 10) == (10, 5.0, True)


def test_the_numbers_panel(smo, newton):
    stt = snapshot.state_at(smo, 5)
    rows = dict(W.numbers_rows(smo, stt))
    assert rows["b"] == fmt_num(smo.b[5], 6)
    assert rows["hyperplane"] == hyperplane_equation(stt.w, stt.b)  # as on the Playground
    assert rows["w"] == f"({fmt_num(stt.w[0])}, {fmt_num(stt.w[1])})"
    assert rows["dual objective"] == fmt_num(smo.dual[5], 8)
    assert int(rows[f"points violating KKT (> {fmt_num(snapshot.KKT_TOL)})"]) == len(stt.violators)
    assert int(rows["support vectors (α > 0)"]) == np.count_nonzero(stt.alpha)
    rows = dict(W.numbers_rows(newton, snapshot.state_at(newton, 1)))
    assert "‖∇J(w)‖" in rows and "violators yᵢh(xᵢ) < 1" in rows
    assert "max KKT violation" not in rows


def test_the_run_summary_and_the_truncation_warning(smo):
    text = W.run_summary(smo)
    assert text.startswith(f"The run took **{smo.n_iter:,}** steps (working-set rule: ")
    assert text.endswith(": converged." if smo.model.converged else ".")
    assert f"first {record.TRACE_CAP:,}" in W.truncation_text(smo)


def test_jump_button_texts():
    label, help_, what = W.jump_texts("newton", "iteration")
    assert label == "Next violator change" and "iteration" in help_ and "violator" in what
    label, help_, what = W.jump_texts("sga", "sweep")
    assert label == "Next bound change" and help_.endswith(what) and "sweep" in help_


def test_sga_sweep_numbers(sga):
    text = W.sga_sweep_numbers(sga, 1)
    assert fmt_num(sga.detail["delta_norm"][1]) in text and fmt_num(sga.model.tol) in text
    assert not math.isnan(sga.detail["delta_norm"][1])


def test_the_alpha_table_labels_points_by_the_tables_one_rule():
    """Issue 27 item 6 in the Step-through: SMO's last step on D1 leaves points on the margin
    with α = 0; the α table calls them support vectors, as the Playground's table does."""
    from ui.shared.sv_labels import MARGIN_DIGITS, ON_MARGIN_ZERO

    ds = datasets.d1()
    run = record.build_run(ds.X, ds.y, Settings.from_dataset(ds.settings), "smo")
    stt = snapshot.state_at(run, run.n_steps)
    df = V.alpha_frame(run, stt)
    yh = np.where(run.y > 0, 1.0, -1.0) * np.asarray(stt.model.h_train)
    idle = (np.abs(yh - 1) <= MARGIN_DIGITS) & (np.asarray(stt.alpha) == 0)
    assert idle.any()
    assert set(df["category"][idle]) == {ON_MARGIN_ZERO}
