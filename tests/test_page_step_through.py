"""The Step-through page under streamlit's AppTest: the numbers it shows."""

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import svm_engine as se
from svm_engine import datasets
from svm_engine.finalize import support_threshold
from ui import step_state as S
from ui.state import effective_C, settings_from_dataset, settings_to_kernel

PAGE = "../pages/3_step_through.py"
TIMEOUT = 120


def start(source=None, **widgets):
    at = AppTest.from_file(PAGE, default_timeout=TIMEOUT)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    if source is not None:
        at.selectbox(key="stp.source").select(source).run()
    for key, value in widgets.items():
        w = _widget(at, "stp." + key)
        w.set_value(value).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _widget(at, key):
    for kind in ("radio", "slider", "select_slider", "selectbox", "toggle", "number_input"):
        for w in getattr(at, kind):
            if w.key == key:
                return w
    raise KeyError(key)


def counter(at) -> tuple[int, int]:
    """The step counter the page shows: (k, T) from the metric 'k / T'."""
    (m,) = [m for m in at.metric if "/" in str(m.value)]
    k, T = (int(p.replace(",", "")) for p in str(m.value).split("/"))
    return k, T


def shown_alpha(at) -> np.ndarray:
    """The α column of the page's 'All α values' table."""
    tables = [d.value for d in at.dataframe if "α" in d.value.columns]
    assert len(tables) == 1
    return tables[0]["α"].to_numpy(dtype=float)


def click(at, key):
    at.button(key=key).click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def zeroed(a):
    a = np.array(a, dtype=float)
    a[a <= support_threshold(a)] = 0.0
    return a


def engine_fit(ds, **kw):
    kw.setdefault("max_iter", S.smo_max_iter(len(ds.X)))
    return se.fit(ds.X, ds.y, **kw)


# ------------------------------------------------------------------------------ SMO


def test_default_page_shows_the_playground_points_at_step_0():
    at = start()
    k, T = counter(at)
    assert k == 0 and T > 0
    assert "Book D1" in at.markdown[0].value  # the Playground's default points
    np.testing.assert_array_equal(shown_alpha(at), np.zeros(14))
    assert not at.error


@pytest.mark.parametrize(
    "source, extra",
    [
        ("d1", {}),
        ("d2", {}),
        ("moons", {"gen.n": 200}),
    ],
)
def test_next_and_last_on_smo(source, extra):
    at = start(source, **extra)
    k0, T = counter(at)
    a0 = shown_alpha(at)
    assert k0 == 0
    click(at, "stp.next")
    k1, _ = counter(at)
    a1 = shown_alpha(at)
    assert k1 == 1
    assert not np.array_equal(a0, a1), "next changed no α"
    changed = np.flatnonzero(a0 != a1)
    assert 1 <= len(changed) <= 2  # one SMO step moves the pair (i, j)
    click(at, "stp.last")
    kT, T2 = counter(at)
    assert kT == T == T2
    ds = datasets.load(source, **({"n": 200, "noise": 0.1} if source == "moons" else {}))
    s = S.step_settings(_suggested(ds), "smo")
    m = engine_fit(ds, kernel=settings_to_kernel(s), C=effective_C(s), loss=s["loss"], wss=s["wss"])
    assert m.n_iter == T
    np.testing.assert_array_equal(zeroed(shown_alpha(at)), m.alpha)


def _suggested(ds):
    return settings_from_dataset(ds.settings)


def test_back_and_forth_shows_identical_numbers():
    at = start("d2")
    seen = {}
    for key in ["stp.next"] * 4 + ["stp.prev"] * 2 + ["stp.next"] * 3 + ["stp.first", "stp.next"]:
        click(at, key)
        k, _ = counter(at)
        snap = (shown_alpha(at).tobytes(), [t.value.to_json() for t in at.table])
        if k in seen:
            assert seen[k] == snap, f"step {k} shows other numbers on a second visit"
        seen[k] = snap
    assert set(seen) >= {1, 2, 3, 4, 5}


def test_slider_and_bound_jump():
    at = start("d2")
    _, T = counter(at)
    at.slider(key="stp.slider").set_value(5).run()
    assert counter(at)[0] == 5
    ds = datasets.d2()
    run = S.build_run(ds.X, ds.y, _suggested(ds), "smo")
    expected = S.next_event(S.event_steps(run), 5)
    click(at, "stp.jump")
    assert counter(at)[0] == expected
    a = shown_alpha(at)
    r = S.step_record(run, expected)
    assert a[r["i"]] == r["ai_new"] and a[r["j"]] == r["aj_new"]
    assert any(v in (0.0, 1.0) for v in (r["ai_new"], r["aj_new"]))


def test_working_set_rule_changes_the_iteration_count():
    at = start("d2", wss="max_violating_pair")
    _, T_mvp = counter(at)
    _widget(at, "stp.wss").set_value("second_order").run()
    _, T_so = counter(at)
    ds = datasets.d2()
    for rule, T in (("max_violating_pair", T_mvp), ("second_order", T_so)):
        assert engine_fit(ds, kernel=se.Linear(), C=1.0, wss=rule).n_iter == T
    assert T_mvp != T_so


def test_play_button_toggles_and_stops_at_the_end():
    at = start("d1")
    _, T = counter(at)
    click(at, "stp.last")
    click(at, "stp.play")  # at the end: play starts again from step 0
    assert at.session_state["step.playing"] is True
    assert counter(at)[0] == 0
    assert at.button(key="stp.play").label == "Pause"
    click(at, "stp.play")
    assert at.session_state["step.playing"] is False
    assert at.button(key="stp.play").label == "Play"


def test_hard_margin_on_d2_is_an_error_message_not_a_traceback():
    at = start("d2", hard_margin=True)
    assert not at.exception
    assert any("not linearly separable" in e.value for e in at.error)


def test_trace_cap_is_stated_on_the_page():
    at = start("blobs", **{"gen.n": 200, "gen.noise": 1.0, "gen.seed": 0})
    _, T = counter(at)
    if T < S.TRACE_CAP:
        pytest.skip("this engine version converges within the trace cap here")
    assert T == S.TRACE_CAP
    assert any("trace keeps the first 5,000" in w.value for w in at.warning)


# ----------------------------------------------------------------- SGA and Newton


def test_sga_sweeps_and_coordinates():
    at = start("d2", solver="sga")
    k, T = counter(at)
    click(at, "stp.next")
    assert counter(at)[0] == 1
    click(at, "stp.last")
    ds = datasets.d2()
    m = se.fit(
        ds.X,
        ds.y,
        kernel=se.Linear(),
        C=1.0,
        bias="augmented",
        solver="sga",
        max_iter=S.sga_max_sweeps(len(ds.X)),
    )
    assert T == m.n_iter
    np.testing.assert_array_equal(zeroed(shown_alpha(at)), m.alpha)
    _widget(at, "stp.sga_mode").set_value("coordinate").run()
    k, total = counter(at)
    assert (k, total) == (0, T * len(ds.X))
    click(at, "stp.next")
    a = shown_alpha(at)
    assert counter(at)[0] == 1 and np.count_nonzero(a) <= 1  # only α₁ may have moved
    assert any("eta" in lt.value or "\\eta" in lt.value for lt in at.latex)


def test_newton_iterations():
    at = start("d2", solver="newton")
    _, T = counter(at)
    click(at, "stp.last")
    ds = datasets.d2()
    m = se.fit(
        ds.X, ds.y, kernel=se.Linear(), C=1.0, loss="quadratic", bias="augmented", solver="newton"
    )
    assert T == m.n_iter
    np.testing.assert_allclose(shown_alpha(at), m.alpha, atol=1e-12)


@pytest.mark.parametrize("solver", ["smo", "sga", "newton"])
@pytest.mark.parametrize("kernel", ["polynomial", "gaussian"])
def test_kernels_run_for_every_solver(solver, kernel):
    at = start("nonlinear", solver=solver, kernel=kernel)
    click(at, "stp.next")
    click(at, "stp.next")
    assert counter(at)[0] == min(2, counter(at)[1])
    assert not at.error
