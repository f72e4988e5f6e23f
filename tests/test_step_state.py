"""ui.step_through.record, snapshot, cursor and coordinate: replaying a recorded run (SMO, SGA,
Newton) step by step."""

import math
import pickle

import numpy as np
import pytest

import svm_engine as se
from svm_engine import datasets
from svm_engine.finalize import support_threshold
from svm_engine.tape import make_tape
from ui.shared.fitting import SMO_TOL, smo_max_iter
from ui.shared.settings import DEFAULTS, Settings, effective_C
from ui.step_through import cursor, record, snapshot
from ui.step_through.coordinate import coordinate_count, coordinate_position, coordinate_state

#: The solver's own steps (polish=False, as the Step-through replays them): the independent
#: check may find the last α short of the optimum and warn; what is compared here is the steps.
UNPOLISHED = pytest.mark.filterwarnings("ignore::svm_engine.model.ConvergenceWarning")


def settings_for(name, **over):
    s = (
        dict(Settings.from_dataset(datasets.load(name).settings))
        if name in datasets.BOOK
        else dict(DEFAULTS)
    )
    s.update(over)
    return s


@pytest.fixture(scope="module")
def d2_smo():
    ds = datasets.d2()
    return ds, record.build_run(ds.X, ds.y, settings_for("d2"), "smo")


@pytest.fixture(scope="module")
def moons200():
    return datasets.moons(n=200, noise=0.2, seed=0)


def zeroed(a):
    """α as finalize reports it (residues below the support threshold set to 0)."""
    a = np.array(a, dtype=float)
    a[a <= support_threshold(a)] = 0.0
    return a


# ------------------------------------------------------------------------------ tape


def test_tape_replays_changes_in_order_and_checkpoints():
    rng = np.random.default_rng(0)
    n, T = 7, 300
    a0 = np.zeros(n)
    changes, expect = [], [a0.copy()]
    a = a0.copy()
    for _ in range(T):
        idx = rng.choice(n, size=rng.integers(1, 4), replace=True)  # repeated entries too
        val = rng.random(len(idx))
        for i, v in zip(idx, val):
            a[i] = v
        changes.append((idx, val))
        expect.append(a.copy())
    tape = make_tape(a0, changes, every=16)
    assert tape.n_steps == T
    for k in (0, 1, 15, 16, 17, 150, 299, 300):
        np.testing.assert_array_equal(tape.alpha_at(k), expect[k])
    np.testing.assert_array_equal(tape.alpha_at(-5), expect[0])  # clamped
    np.testing.assert_array_equal(tape.alpha_at(10_000), expect[T])
    assert set(tape.changed_at(3).tolist()) == set(np.asarray(changes[2][0]).tolist())
    assert len(tape.changed_at(0)) == 0


# ------------------------------------------------------------------------------- SMO


@UNPOLISHED
@pytest.mark.parametrize("wss", ["second_order", "max_violating_pair"])
@pytest.mark.parametrize("name", ["d1", "d2"])
def test_smo_last_step_is_the_engines_fit(name, wss):
    ds = datasets.load(name)
    s = settings_for(name, wss=wss)
    run = record.build_run(ds.X, ds.y, s, "smo")
    assert not run.truncated and run.n_steps == run.n_iter
    last = snapshot.state_at(run, run.n_steps)
    np.testing.assert_array_equal(zeroed(last.alpha), run.model.alpha)
    # and the engine's own replay agrees
    ref = se.fit(ds.X, ds.y, kernel=se.Linear(), C=effective_C(s), wss=wss, trace=True,
                 tol=SMO_TOL, polish=False)  # the Playground's run, before its exact solve
    np.testing.assert_array_equal(se.replay_smo(ref), last.alpha)
    assert last.b == pytest.approx(run.model.b, abs=1e-12)
    np.testing.assert_allclose(last.w, run.model.w, atol=1e-12)
    assert run.dual[-1] == pytest.approx(run.model.dual_objective, rel=1e-12)
    if math.isinf(run.model.primal_objective):  # hard margin, a margin violated within tol
        assert math.isnan(run.primal[-1])  # not plottable: the curve leaves a gap
    else:
        assert run.primal[-1] == pytest.approx(run.model.primal_objective, rel=1e-9)


def test_smo_rbf_200_points_last_step(moons200):
    s = dict(DEFAULTS, kernel="gaussian", sigma=1.0, C=1.0)
    run = record.build_run(moons200.X, moons200.y, s, "smo")
    last = snapshot.state_at(run, run.n_steps)
    np.testing.assert_array_equal(zeroed(last.alpha), run.model.alpha)
    np.testing.assert_allclose(last.model.decision_function(moons200.X), run.model.h_train,
                               atol=1e-9)  # fmt: skip
    assert len(last.violators) == 0  # converged: every KKT condition holds within tol


@UNPOLISHED
def test_step_state_matches_an_independent_replay(d2_smo):
    ds, run = d2_smo
    ref = se.fit(ds.X, ds.y, kernel=se.Linear(), C=1.0, trace=True, tol=SMO_TOL, polish=False)
    for k in range(run.n_steps + 1):
        st = snapshot.state_at(run, k)
        np.testing.assert_array_equal(st.alpha, se.solvers.smo.replay(ref.trace[:k], len(ds.y)))
        if k:
            rec = ref.trace[k - 1]
            assert st.b == rec["b"]
            assert set(st.changed.tolist()) == {rec["i"], rec["j"]}
            assert st.record["ai_new"] == rec["ai_new"] and st.record["L"] == rec["L"]


def test_back_and_forth_gives_identical_numbers(d2_smo):
    _, run = d2_smo
    k = 0
    seen = {}
    path = ["next"] * 12 + ["prev"] * 5 + ["next"] * 3 + ["last", "first", "next", "next"]
    for action in path:
        k = cursor.move(k, action, run.n_steps)
        st = snapshot.state_at(run, k)
        snap = (
            st.alpha.tobytes(),
            st.b,
            st.dual,
            st.primal,
            st.kkt,
            st.violators.tobytes(),
            st.model.decision_function(np.array([[2.0, 2.0], [4.0, 1.0]])).tobytes(),
        )
        if k in seen:
            assert seen[k] == snap, f"step {k} differs on a second visit"
        seen[k] = snap
    assert len(seen) > 10


def test_kkt_violators_and_gradient(d2_smo):
    ds, run = d2_smo
    st0 = snapshot.state_at(run, 0)
    # α = 0: every point has yᵢh(xᵢ) − 1 = yᵢb − 1; with b = 0 from the midpoint rule all
    # points violate αᵢ = 0 ⇒ yᵢh(xᵢ) ≥ 1
    assert len(st0.violators) == run.n
    k = 5
    st = snapshot.state_at(run, k)
    a = st.alpha
    K = ds.X @ ds.X.T
    G = run.y * (K @ (a * run.y)) - 1
    np.testing.assert_allclose(snapshot.gradient(run, a), G, atol=1e-12)
    # the violation is recomputed from scratch: αᵢ = 0 ⇒ yh ≥ 1 etc.
    h = K @ (a * run.y) + st.b
    r = run.y * h - 1
    at0 = a <= 0
    atC = a >= 1.0
    expect = np.where(at0, np.maximum(0, -r), np.where(atC, np.maximum(0, r), np.abs(r)))
    np.testing.assert_allclose(st.violation, expect, atol=1e-12)
    np.testing.assert_array_equal(st.violators, np.flatnonzero(expect > snapshot.KKT_TOL))


def test_smo_record_numbers_follow_platt(d2_smo):
    _, run = d2_smo
    for k in range(1, run.n_steps + 1):
        r = snapshot.state_at(run, k).record
        C = r["C"]
        if r["yi"] != r["yj"]:
            L = max(0.0, r["aj_old"] - r["ai_old"])
            H = min(C, C + r["aj_old"] - r["ai_old"])
        else:
            L = max(0.0, r["ai_old"] + r["aj_old"] - C)
            H = min(C, r["ai_old"] + r["aj_old"])
        assert (r["L"], r["H"]) == pytest.approx((L, H))
        unc = r["aj_old"] + r["yj"] * (r["Ei"] - r["Ej"]) / r["eta"]
        assert r["aj_unclipped"] == pytest.approx(unc, rel=1e-9, abs=1e-12)
        assert r["aj_new"] == pytest.approx(min(max(unc, L), H), abs=1e-12)
        # the pair stays on its line yᵢαᵢ + yⱼαⱼ = const
        assert r["yi"] * r["ai_new"] + r["yj"] * r["aj_new"] == pytest.approx(
            r["yi"] * r["ai_old"] + r["yj"] * r["aj_old"], abs=1e-12
        )
        assert r["yi"] * r["ai_unclipped"] + r["yj"] * r["aj_unclipped"] == pytest.approx(
            r["yi"] * r["ai_old"] + r["yj"] * r["aj_old"], abs=1e-12
        )
        sel = snapshot.selection_numbers(run, k)
        assert sel["i"] == r["i"] and sel["j"] == r["j"]
        assert sel["gap"] == pytest.approx(r["gap_before"], rel=1e-9)
        assert sel["minus_yG_i"] == pytest.approx(sel["m"])
        # Platt's E before the step: Eᵢ − Eⱼ = −yᵢGᵢ·(−1) … i.e. (yᵢGᵢ + b) − (yⱼGⱼ + b)
        assert r["Ei"] - r["Ej"] == pytest.approx(sel["minus_yG_j"] - sel["minus_yG_i"])


def test_bound_change_jump_finds_the_right_step(d2_smo):
    _, run = d2_smo
    C = run.C_box

    def at_bound(v):
        return v <= 0 or v >= C

    expected = []
    for k in range(1, run.n_steps + 1):
        r = snapshot.step_record(run, k)
        hit = any(
            at_bound(r[new]) and not (at_bound(r[old]) and r[old] == r[new])
            for old, new in (("ai_old", "ai_new"), ("aj_old", "aj_new"))
        )
        if hit:
            expected.append(k)
    assert expected, "D2 with C = 1 has α hitting C"
    ev = cursor.event_steps(run)
    assert ev.tolist() == expected
    k, found = 0, []
    while (nxt := cursor.next_event(ev, k)) is not None:
        assert nxt > k
        found.append(nxt)
        k = nxt
    assert found == expected
    assert cursor.next_event(ev, run.n_steps) is None
    # from between two events: the next one
    if len(expected) >= 2:
        assert cursor.next_event(ev, expected[0]) == expected[1]
        assert cursor.next_event(ev, expected[1] - 1) == expected[1]


@pytest.fixture(scope="module")
def capped_run():
    """A run longer than the trace: 200 moons, linear kernel, C = 1000 (SMO needs far more
    than 5,000 steps there: the page's cap of 5,000 + 20n = 9,000 steps is reached)."""
    ds = datasets.moons(n=200, noise=0.1, seed=0)
    s = dict(DEFAULTS, kernel="linear", C=1000.0, wss="max_violating_pair")
    return ds, record.build_run(ds.X, ds.y, s, "smo")


def test_trace_is_bounded_and_the_run_says_so(capped_run):
    ds, run = capped_run
    assert record.TRACE_CAP == 5000
    assert run.n_iter > record.TRACE_CAP and run.truncated
    assert run.n_steps == record.TRACE_CAP and len(run.dual) == record.TRACE_CAP + 1
    st = snapshot.state_at(run, 10**9)
    assert st.k == record.TRACE_CAP
    # step 5,000 is the engine's 5,000th step: the readable solver replayed that far
    with pytest.warns(se.ConvergenceWarning):
        ref = se.fit(ds.X, ds.y, kernel=se.Linear(), C=1000.0, wss="max_violating_pair",
                     max_iter=record.TRACE_CAP)  # fmt: skip
    np.testing.assert_array_equal(zeroed(st.alpha), ref.alpha)
    # memory: the whole record of 5,000 steps on 200 points stays small when pickled
    assert len(pickle.dumps(run)) < 2_000_000


def test_cached_run_is_small_and_picklable(moons200):
    s = dict(DEFAULTS, kernel="gaussian", sigma=1.0, C=1.0)
    run = record.build_run(moons200.X, moons200.y, s, "smo")
    blob = pickle.dumps(run)
    assert len(blob) < 200_000
    back = pickle.loads(blob)
    np.testing.assert_array_equal(back.tape.alpha_at(run.n_steps), run.tape.alpha_at(run.n_steps))
    assert back.model.trace is None


def test_bad_input_raises_value_error():
    with pytest.raises(ValueError, match="each class"):
        record.build_run(np.array([[0.0, 0.0], [1.0, 1.0]]), np.array([1, 1]), DEFAULTS, "smo")
    with pytest.raises(ValueError, match="solver"):
        record.build_run(datasets.d1().X, datasets.d1().y, DEFAULTS, "qp")
    with pytest.raises(ValueError, match="not linearly separable"):
        record.build_run(datasets.d2().X, datasets.d2().y, settings_for("d2", hard_margin=True),
                         "smo")


# ------------------------------------------------------------------------- SGA, Newton


def test_sga_sweeps_replay_to_the_engines_alpha():
    ds = datasets.d2()
    run = record.build_run(ds.X, ds.y, settings_for("d2"), "sga")
    assert run.bias == "augmented"
    last = snapshot.state_at(run, run.n_steps)
    np.testing.assert_array_equal(zeroed(last.alpha), run.model.alpha)
    assert last.b == pytest.approx(run.model.b, abs=1e-12)  # b = Σαᵢyᵢ
    assert run.dual[-1] == pytest.approx(run.model.dual_objective, rel=1e-12)
    np.testing.assert_allclose(run.dual[1:], [r for r in run.dual[1:]])  # finite
    assert np.all(np.diff(run.dual) >= -1e-9)  # coordinate ascent never lowers the dual


def test_sga_coordinate_steps_end_on_the_recorded_sweep():
    ds = datasets.d2()
    run = record.build_run(ds.X, ds.y, settings_for("d2"), "sga")
    n = run.n
    assert coordinate_count(run) == run.n_steps * n
    for t in (1, 2, run.n_steps):
        st, rec = coordinate_state(run, t * n)
        np.testing.assert_allclose(st.alpha, run.tape.alpha_at(t), atol=1e-12)
        assert rec["k"] == n - 1 and rec["sweep"] == t
    # one coordinate: slide 33 line 12–14 with η_k = 1/K(x_k, x_k)
    st, rec = coordinate_state(run, 3)
    assert coordinate_position(run, 3) == (1, 2)
    assert rec["a_new"] == min(max(rec["a_unclipped"], 0.0), run.C_box)
    assert rec["a_unclipped"] == pytest.approx(rec["a_old"] + rec["eta"] * rec["grad"])
    x = ds.X[2]
    assert rec["eta"] == pytest.approx(1.0 / (x @ x + 1.0))  # augmented kernel K + 1
    again, _ = coordinate_state(run, 3)
    np.testing.assert_array_equal(again.alpha, st.alpha)
    # coordinate-level bound hits are real hits
    for s in cursor.event_steps(run, coordinate=True)[:10]:
        before, _ = coordinate_state(run, s - 1)
        after, r = coordinate_state(run, s)
        k = r["k"]
        assert after.alpha[k] in (0.0, run.C_box) and after.alpha[k] != before.alpha[k]


def test_newton_iterations():
    ds = datasets.d2()
    run = record.build_run(ds.X, ds.y, settings_for("d2"), "newton")
    assert run.loss == "quadratic" and run.bias == "augmented"
    last = snapshot.state_at(run, run.n_steps)
    np.testing.assert_allclose(last.alpha, run.model.alpha, atol=1e-12)
    np.testing.assert_allclose(last.model.decision_function(ds.X), run.model.h_train, atol=1e-9)
    # J(w) recomputed here equals the engine's record
    np.testing.assert_allclose(run.primal[1:], run.detail["primal_trace"][1:], rtol=1e-10)
    assert run.primal[0] == pytest.approx(run.C * run.n)  # w = 0: every ξᵢ = 1
    assert np.all(np.diff(run.primal) <= 1e-9)  # Newton with halving never raises J
    assert math.isnan(run.detail["grad_norm"][0])
    assert set(last.violators.tolist()) == set(
        np.flatnonzero(run.y * run.model.h_train < 1).tolist()
    )


# ---------------------------------------------------------------------------- cursor


def test_cursor_moves_and_clamps():
    assert cursor.move(0, "prev", 10) == 0
    assert cursor.move(0, "next", 10) == 1
    assert cursor.move(10, "next", 10) == 10
    assert cursor.move(4, "first", 10) == 0
    assert cursor.move(4, "last", 10) == 10
    assert cursor.move(4, "next", 10, stride=5) == 9
    assert cursor.move(4, "prev", 10, stride=5) == 0
    assert cursor.move(99, "prev", 10) == 9  # an out-of-range cursor is clamped first
    assert cursor.clamp("junk", 5) == 0 and cursor.clamp(-3, 5) == 0 and cursor.clamp(7.9, 5) == 5
    with pytest.raises(ValueError):
        cursor.move(0, "sideways", 3)
    assert cursor.move(0, "next", 0) == 0  # a run with no steps


def test_play_tick_stops_at_the_end():
    k, playing, ticks = 0, True, 0
    while playing:
        k, playing = cursor.play_tick(k, 7, stride=3)
        ticks += 1
    assert (k, ticks) == (7, 3)
    assert cursor.play_tick(7, 7) == (7, False)


def test_a_run_cut_short_by_the_trace_cap_ends_on_the_playgrounds_model(monkeypatch):
    """The recorded run has its own (small) cap; where it stops short, the numbers shown are
    the Playground's: its cap (``smo_max_iter``) from the run's α, converged and equal."""
    ds = datasets.nonlinear()
    settings = settings_for("nonlinear")
    monkeypatch.setattr(record, "trace_max_iter", lambda n: 3)
    run = record.build_run(ds.X, ds.y, settings, "smo")
    assert run.n_iter == 3 and run.final is not None
    assert run.final.converged and run.warning is None
    playground = se.fit(ds.X, ds.y, kernel=se.Polynomial(2, 1.0), C=4.0, tol=SMO_TOL,
                        max_iter=smo_max_iter(len(ds.y)))
    assert playground.converged
    assert run.final.b == pytest.approx(playground.b, abs=1e-6)
    assert run.final.dual_objective == pytest.approx(playground.dual_objective, rel=1e-9)
