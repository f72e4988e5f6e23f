"""The Step-through page under streamlit's AppTest: the numbers and the charts it shows.

SMO is stepped in the browser by the step player (``ui.step_through.player``): its buttons, slider
and
drawing are JavaScript, which AppTest cannot press or run (tests/browser/test_step_through.py
does). What the player tells the server is one state value: the step it shows, {"run", "k"},
set on the listener element ``stp.sync``. These tests drive SMO through that same value
(``set_step``) and read what the page shows for it: the panels (numbers, why this pair, the
formulas, the α table) and the payload sent to the player (``player_payload``). SGA and Newton
are stepped on the server: their buttons are pressed and their charts (``ui.step_through.plot``
elements, the figure sent to the browser) read as they are.
"""

import json
import re

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import svm_engine as se
from svm_engine import datasets
from svm_engine.finalize import support_threshold
from tests.plotly_json import decoded
from tests.shown_numbers import parse_num
from tests.step_payload import replay_alpha
from ui.shared.fitting import SMO_TOL
from ui.shared.numbers import fmt_num
from ui.shared.settings import Settings, effective_C, settings_to_kernel
from ui.step_through import cursor, record, snapshot
from ui.step_through import player as SP
from ui.step_through import text as W
from ui.step_through.page_state import StepThrough

#: The solver's own steps (polish=False, as the Step-through replays them): the independent
#: check may find the last α short of the optimum and warn; what is compared here is the steps.
UNPOLISHED = pytest.mark.filterwarnings("ignore::svm_engine.model.ConvergenceWarning")

PAGE = "../pages/3_step_through.py"
TIMEOUT = 180


def start(source=None, **widgets):
    at = AppTest.from_file(PAGE, default_timeout=TIMEOUT)
    at.session_state["stp.show_alpha"] = True  # the α table (off by default) is read below
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
    """The step the page shows: (k, T) from the metric 'k / T' (SGA, Newton) or from the
    heading of the SMO panels, 'Numbers of step k / T: …'."""
    ms = [m for m in at.metric if "/" in str(m.value)]
    if ms:
        (m,) = ms
        text = str(m.value)
    else:
        (h,) = [m.value for m in at.markdown if m.value.startswith("## Numbers of step ")]
        text = h.removeprefix("## Numbers of step ").split(":")[0]
    k, T = (int(p.replace(",", "")) for p in text.split("/"))
    return k, T


def set_step(at, k):
    """SMO: what the browser's player reports when it shows step k (the listener element's
    state {"run", "k"}; Next, Prev, the slider, Last and play all end in it)."""
    rid = StepThrough.of(at.session_state).run_key
    at.session_state["stp.sync"] = {"step": {"run": rid, "k": k}}
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def player(at) -> dict:
    """The data the page sends to the SMO player element on the last run."""
    (el,) = [e for e in at.get("bidi_component") if e.proto.id.endswith("stp.player")]
    return json.loads(el.proto.json)


def player_payload(at) -> dict:
    """The payload of the current run as sent to the player. It travels once per run: a
    rerun for the same run sends the run id only, so ask for it the way an element that lost
    it does (its state "need" = {"run", "n"} with a new n)."""
    data = player(at)
    if data["payload"] is None:
        need = {"run": data["run"], "n": data["need_seen"] + 1}
        at.session_state["stp.player"] = {"need": need}
        at.run()
        data = player(at)
        assert data["need_seen"] == need["n"]
    assert data["payload"]["run"] == data["run"] == StepThrough.of(at.session_state).run_key
    return data["payload"]


def shown_alpha(at) -> np.ndarray:
    """The α column of the page's 'All α values' table."""
    tables = [d.value for d in at.dataframe if "α" in d.value.columns]
    assert len(tables) == 1
    return tables[0]["α"].to_numpy(dtype=float)



def charts(at) -> dict:
    """The figures the page sends to its charts, by key ('decision', 'box', 'alpha', …)."""
    out = {}
    for el in at.get("bidi_component"):
        name = el.proto.id.rsplit("stp.fig.", 1)[-1]
        out[name] = decoded(json.loads(json.loads(el.proto.json)["fig"]))
    return out


def trace_of(fig, role):
    (t,) = [t for t in fig["data"] if (t.get("meta") or {}).get("role") == role]
    return t


def table(at) -> dict:
    """The page's quantity/value tables as {quantity: value}."""
    out = {}
    for t in at.table:
        if "value" in t.value.columns:
            out.update(t.value["value"].to_dict())
    return out


def tex_lines(at) -> list[str]:
    """Every line of the page's LaTeX blocks (``ui.step_through.text.latex_block``)."""
    out = []
    for lt in at.latex:
        body = lt.value.strip().strip("$").strip()
        body = body.removeprefix(r"\begin{gathered}").removesuffix(r"\end{gathered}")
        out += body.split(W.LATEX_LINE_SEP)
    return out


TEX_NUM = r"(-?\d+(?:\.\d+)?)(?:\\cdot 10\^\{(-?\d+)\})?"


def tex_value(part: str) -> float:
    """The number after the last '=' of a LaTeX line (or of a part of one)."""
    m, e = re.match(r"\s*" + TEX_NUM, part.rsplit("=", 1)[1]).groups()
    return float(m) * 10 ** int(e or 0)


def step_slider(at, label="step k"):
    (s,) = [s for s in at.slider if s.label == label]
    return s


def click(at, key):
    at.button(key=key).click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def zeroed(a):
    a = np.array(a, dtype=float)
    a[a <= support_threshold(a)] = 0.0
    return a


def engine_fit(ds, **kw):
    kw.setdefault("max_iter", record.trace_max_iter(len(ds.X)))
    kw.setdefault("polish", False)  # the step-through replays the solver's own steps
    kw.setdefault("tol", SMO_TOL)  # ... of the Playground's run (one tolerance)
    return se.fit(ds.X, ds.y, **kw)


def _suggested(ds):
    return Settings.from_dataset(ds.settings)


# ------------------------------------------------------------------------------ SMO


def replayed(payload, k):
    """α after step k as the browser's player computes it from the payload."""
    for t, a in enumerate(replay_alpha(payload)):
        if t == k:
            return a
    raise IndexError(k)


def test_default_page_shows_the_playground_points_at_step_0():
    at = start()
    k, T = counter(at)
    assert k == 0 and T > 0
    assert "Book D1" in at.markdown[0].value  # the Playground's default points
    np.testing.assert_array_equal(shown_alpha(at), np.zeros(14))
    p = player(at)["payload"]  # the first run sends the recorded run to the player
    assert p["T"] == T and p["n"] == 14 and p["C_box"] is None  # D1: the hard margin
    assert "stp.fig.box" not in str([e.proto.id for e in at.get("bidi_component")])
    assert not at.error


def test_the_player_gets_the_run_once_and_then_its_id_only():
    at = start("d2")
    rid = StepThrough.of(at.session_state).run_key
    assert player(at)["payload"]["run"] == rid
    set_step(at, 3)
    data = player(at)
    assert data["run"] == rid and data["payload"] is None
    assert len(json.dumps(data)) < 2_000
    # another run (here: the working-set rule) is sent again, once
    _widget(at, "stp.wss").set_value("max_violating_pair").run()
    data = player(at)
    assert data["run"] != rid and data["payload"]["run"] == data["run"]
    assert counter(at)[0] == 0  # a new run starts at step 0; the old report is ignored


@pytest.mark.parametrize(
    "source, extra",
    [
        ("d1", {}),
        ("d2", {}),
        ("moons", {"gen.n": 200}),
    ],
)
@UNPOLISHED
def test_next_and_last_on_smo(source, extra):
    at = start(source, **extra)
    k0, T = counter(at)
    a0 = shown_alpha(at)
    assert k0 == 0
    payload = player_payload(at)
    set_step(at, 1)  # Next
    k1, _ = counter(at)
    a1 = shown_alpha(at)
    assert k1 == 1
    assert not np.array_equal(a0, a1), "next changed no α"
    changed = np.flatnonzero(a0 != a1)
    assert 1 <= len(changed) <= 2  # one SMO step moves the pair (i, j)
    # the pair the player highlights (its record of step 1) is the pair that moved …
    i, j = (int(SP.decode(payload["steps"][key])[0]) for key in ("i", "j"))
    assert set(changed) <= {i, j}
    assert f"pair (i, j) = ({i + 1}, {j + 1})" in next(
        m.value for m in at.markdown if m.value.startswith("## Numbers of step 1 /")
    )
    # … and the α the player computes is the α the page shows
    np.testing.assert_array_equal(replayed(payload, 1), a1)
    set_step(at, T)  # Last
    kT, T2 = counter(at)
    assert kT == T == T2
    ds = datasets.load(source, **({"n": 200, "noise": 0.1} if source == "moons" else {}))
    s = record.step_settings(_suggested(ds), "smo")
    m = engine_fit(ds, kernel=settings_to_kernel(s), C=effective_C(s), loss=s["loss"], wss=s["wss"])
    assert m.n_iter == T
    np.testing.assert_array_equal(zeroed(shown_alpha(at)), m.alpha)
    np.testing.assert_array_equal(replayed(payload, T), shown_alpha(at))
    assert table(at)["b"] == f"{m.b:.6g}".replace("-", "−")


def test_one_step_shows_the_formulas_and_sends_the_box_numbers():
    at = start("d2")
    set_step(at, 2)
    ds = datasets.d2()
    run = record.build_run(ds.X, ds.y, _suggested(ds), "smo")
    r = snapshot.step_record(run, 2)
    # the formulas with this step's numbers: η, E_i, E_j, L, H
    tex = tex_lines(at)
    assert tex_value(next(t for t in tex if "\\eta =" in t)) == pytest.approx(r["eta"], rel=1e-3)
    e_i, e_j = next(t for t in tex if "E_{" in t).split("\\qquad")
    assert tex_value(e_i.rstrip(",")) == pytest.approx(r["Ei"], rel=1e-3, abs=1e-4)
    assert tex_value(e_j) == pytest.approx(r["Ej"], rel=1e-3, abs=1e-4)
    assert tex_value(next(t for t in tex if "L = \\max" in t)) == pytest.approx(r["L"], abs=1e-4)
    assert tex_value(next(t for t in tex if "H = \\min" in t).split("\\qquad")[0]) == (
        pytest.approx(r["H"], abs=1e-4)
    )
    # the player draws the box from the payload's numbers of step 2: the same ones
    p = player_payload(at)
    st = {key: SP.decode(spec)[1] for key, spec in p["steps"].items()}
    assert (st["i"], st["j"]) == (r["i"], r["j"])
    assert SP.decode(p["steps"]["a_new"])[2:4].tolist() == [r["ai_new"], r["aj_new"]]
    assert (st["L"], st["H"], st["aj_unc"], st["eta"]) == pytest.approx(
        (r["L"], r["H"], r["aj_unclipped"], r["eta"]), rel=1e-6
    )
    assert p["C_box"] == 1.0  # the box [0, C]², C = 1
    # the state after the step: the numbers table
    shown = table(at)
    assert parse_num(shown["dual objective"]) == pytest.approx(run.dual[2], rel=1e-6)
    assert shown["b"] == fmt_num(run.b[2], 6)


def test_why_this_pair_shows_the_rules_numbers():
    at = start("d2", wss="second_order")
    set_step(at, 1)
    ds = datasets.d2()
    ref = se.fit(ds.X, ds.y, kernel=se.Linear(), C=1.0, trace=True)
    r0 = ref.trace[0]
    why = next(m.value for m in at.markdown if "Gap m(α) − M(α)" in m.value)
    assert "second order" in why
    gap = re.search(r"= \*\*([^*]+)\*\* > tol", why).group(1)
    assert parse_num(gap) == pytest.approx(r0["gap_before"], rel=1e-3)
    (cands,) = [t.value for t in at.table if "gain bₜ²/aₜ" in t.value.columns]
    assert [int(j) for j in cands.index] == [j + 1 for j, _ in r0["candidates"]]
    np.testing.assert_allclose(cands["gain bₜ²/aₜ"], [g for _, g in r0["candidates"]])
    # maximal violating pair: −yᵢ∇ᵢf and −yⱼ∇ⱼf are m and M, no candidate list
    _widget(at, "stp.wss").set_value("max_violating_pair").run()
    set_step(at, 1)
    why = next(m.value for m in at.markdown if "Gap m(α) − M(α)" in m.value)
    assert "maximal violating pair" in why and "= M(α)" in why
    assert not [t for t in at.table if "gain bₜ²/aₜ" in t.value.columns]


def test_back_and_forth_shows_identical_numbers():
    at = start("d2")
    seen = {}
    for k in [1, 2, 3, 4, 3, 2, 3, 4, 5, 0, 1]:
        set_step(at, k)
        assert counter(at)[0] == k
        snap = (
            shown_alpha(at).tobytes(),
            [t.value.to_json() for t in at.table],
            tex_lines(at),
            [m.value for m in at.markdown],
            # the player's data but "start" (the step a freshly mounted element starts at:
            # the last one reported; an element that shows a step ignores it)
            json.dumps({**player(at), "start": None}, sort_keys=True),
        )
        if k in seen:
            assert seen[k] == snap, f"step {k} shows other numbers on a second visit"
        seen[k] = snap
    assert set(seen) >= {0, 1, 2, 3, 4, 5}


def test_a_report_for_another_run_does_not_move_the_panels():
    at = start("d2")
    set_step(at, 4)
    at.session_state["stp.sync"] = {"step": {"run": "an older run", "k": 9}}
    at.run()
    assert counter(at)[0] == 4
    rid = StepThrough.of(at.session_state).run_key
    at.session_state["stp.sync"] = {"step": {"run": rid, "k": "7"}}
    at.run()
    assert counter(at)[0] == 4 and not at.exception


def test_bound_jump_stops_where_an_alpha_hits_a_bound():
    at = start("d2")
    set_step(at, 5)
    ds = datasets.d2()
    run = record.build_run(ds.X, ds.y, _suggested(ds), "smo")
    expected = cursor.next_event(cursor.event_steps(run), 5)
    # the steps the player's "Next bound change" stops at
    events = SP.event_steps(player_payload(at))
    assert events.tolist() == cursor.event_steps(run).tolist()
    assert int(events[np.searchsorted(events, 5, side="right")]) == expected
    set_step(at, expected)
    assert counter(at)[0] == expected
    a = shown_alpha(at)
    r = snapshot.step_record(run, expected)
    assert a[r["i"]] == r["ai_new"] and a[r["j"]] == r["aj_new"]
    assert any(v in (0.0, 1.0) for v in (r["ai_new"], r["aj_new"]))
    # every step before it (from 5) left both α of its pair strictly inside (0, C)
    for k in range(6, expected):
        rk = snapshot.step_record(run, k)
        assert all(0.0 < rk[v] < 1.0 for v in ("ai_new", "aj_new"))


@UNPOLISHED
def test_working_set_rule_changes_the_iteration_count():
    at = start("d2", wss="max_violating_pair")
    _, T_mvp = counter(at)
    assert f"took **{T_mvp}** steps (working-set rule: max violating pair" in at.markdown[1].value
    _widget(at, "stp.wss").set_value("second_order").run()
    _, T_so = counter(at)
    assert f"took **{T_so}** steps (working-set rule: second order" in at.markdown[1].value
    ds = datasets.d2()
    for rule, T in (("max_violating_pair", T_mvp), ("second_order", T_so)):
        assert engine_fit(ds, kernel=se.Linear(), C=1.0, wss=rule).n_iter == T
    assert T_mvp != T_so


def test_play_button_toggles_and_stops_at_the_end():
    # server-side play (SGA; SMO plays in the browser: tests/browser)
    at = start("d2", solver="sga")
    _, T = counter(at)
    click(at, "stp.last")
    click(at, "stp.play")  # at the end: play starts again from step 0
    assert StepThrough.of(at.session_state).playing is True
    assert counter(at)[0] == 0
    assert at.button(key="stp.play").label == "Pause"
    click(at, "stp.play")
    assert StepThrough.of(at.session_state).playing is False
    assert at.button(key="stp.play").label == "Play"
    # moving the slider while playing stops play at the chosen step
    click(at, "stp.play")
    assert StepThrough.of(at.session_state).playing is True
    step_slider(at, "sweep k").set_value(3).run()
    assert StepThrough.of(at.session_state).playing is False
    assert counter(at) == (3, T) and step_slider(at, "sweep k").value == 3


def test_hard_margin_on_d2_is_an_error_message_not_a_traceback():
    at = start("d2", hard_margin=True)
    assert not at.exception
    assert any("not linearly separable" in e.value for e in at.error)


def test_trace_cap_is_stated_on_the_page():
    # 200 moons, linear kernel, C = 1000: SMO takes more than 5,000 steps (the page's cap is
    # 9,000; since issue 16 the Newton steps after the first 5,000 finish the run)
    at = start("moons", **{"gen.n": 200, "kernel": "linear", "C": 1000.0})
    _, T = counter(at)
    assert T == record.TRACE_CAP == 5000
    ds = datasets.moons(n=200, noise=0.1, seed=0)
    full = engine_fit(ds, kernel=se.Linear(), C=1000.0)
    assert full.n_iter > record.TRACE_CAP
    # the page's run (the readable solver, no shrinking) and the compiled one with shrinking
    # agree on the first 5,000 steps, not necessarily on the number after them
    took = [re.search(r"took ([\d,]+) steps; the trace keeps the first 5,000", w.value)
            for w in at.warning]
    assert any(m and int(m.group(1).replace(",", "")) > record.TRACE_CAP for m in took)
    set_step(at, 10**6)  # beyond the end: clamped to the last recorded step
    assert counter(at) == (5000, 5000)
    with pytest.warns(se.ConvergenceWarning):
        first = engine_fit(ds, kernel=se.Linear(), C=1000.0, max_iter=record.TRACE_CAP)
    np.testing.assert_array_equal(zeroed(shown_alpha(at)), first.alpha)


# ----------------------------------------------------------------- SGA and Newton


def _independent_sga(X, y, C, sweeps, coords):
    """Slide 33 by hand (K′ = K + 1, η_k = 1/K′(x_k, x_k)): α after ``sweeps`` full sweeps
    and ``coords`` more coordinate updates, and the numbers of the last update."""
    K = X @ X.T + 1.0
    a = np.zeros(len(y))
    last = {}
    for t in range(sweeps + 1):
        for k in range(len(y) if t < sweeps else coords):
            eta = 1.0 / K[k, k]
            grad = 1.0 - y[k] * np.sum(a * y * K[:, k])
            unc = a[k] + eta * grad
            last = {"k": k, "eta": eta, "grad": grad, "old": a[k], "unc": unc}
            a[k] = min(max(unc, 0.0), C)
    return a, last


@UNPOLISHED
def test_sga_sweeps_and_coordinates():
    at = start("d2", solver="sga")
    a0 = shown_alpha(at)
    k, T = counter(at)
    click(at, "stp.next")
    assert counter(at)[0] == 1 and not np.array_equal(shown_alpha(at), a0)
    ds = datasets.d2()
    y = np.where(ds.y > 0, 1.0, -1.0)
    a1, _ = _independent_sga(ds.X, y, 1.0, 1, 0)
    np.testing.assert_allclose(shown_alpha(at), a1, atol=1e-12)
    click(at, "stp.last")
    m = se.fit(
        ds.X,
        ds.y,
        kernel=se.Linear(),
        C=1.0,
        bias="augmented",
        solver="sga",
        max_iter=record.sga_max_sweeps(len(ds.X)),
        polish=False,  # the step-through replays the solver's own sweeps
    )
    assert T == m.n_iter
    np.testing.assert_array_equal(zeroed(shown_alpha(at)), m.alpha)
    # one coordinate per step: slide 33's α_k update with its η_k and the clipping
    _widget(at, "stp.sga_mode").set_value("coordinate").run()
    k, total = counter(at)
    assert (k, total) == (0, T * len(ds.X))
    click(at, "stp.next")
    a = shown_alpha(at)
    assert counter(at)[0] == 1 and np.count_nonzero(a) <= 1  # only α₁ may have moved
    # the first coordinate step that clips α_k: the page's jump, checked by hand
    click(at, "stp.jump")
    s, _ = counter(at)
    sweeps, coords = (s - 1) // len(y), (s - 1) % len(y) + 1
    a_hand, last = _independent_sga(ds.X, y, 1.0, sweeps, coords)
    np.testing.assert_allclose(shown_alpha(at), a_hand, atol=1e-9)
    assert last["unc"] < 0.0 or last["unc"] > 1.0  # this update was clipped
    tex = tex_lines(at)
    kk = last["k"] + 1
    eta_line = next(t for t in tex if f"\\eta_{{{kk}}} = \\frac" in t)
    assert tex_value(eta_line) == pytest.approx(last["eta"], rel=1e-3)
    grad_line = next(t for t in tex if "\\partial J}{\\partial \\alpha" in t and "= 1 -" in t)
    assert tex_value(grad_line) == pytest.approx(last["grad"], rel=1e-3, abs=1e-4)
    upd = next(t for t in tex if "\\leftarrow" in t)
    assert tex_value(upd) == pytest.approx(last["unc"], rel=1e-3, abs=1e-4)
    clip = next(t for t in tex if "clip to" in t)
    assert "clipped" in clip
    assert tex_value(clip.split("\\quad(")[0]) == pytest.approx(min(max(last["unc"], 0.0), 1.0))


def test_newton_iterations():
    at = start("d2", solver="newton")
    _, T = counter(at)
    click(at, "stp.next")
    ds = datasets.d2()
    # iteration 1 from w = 0 (slides 37–39): every point violates yᵢh(xᵢ) < 1, so
    # ∇J(0) = −2C Σ yᵢx′ᵢ; the full Newton step η = 1 is taken
    Xa = np.c_[ds.X, np.ones(len(ds.X))]
    y = np.where(ds.y > 0, 1.0, -1.0)
    shown = table(at)
    assert int(shown["violators yᵢh(xᵢ) < 1 used by this step"]) == len(y)
    assert parse_num(shown["‖∇J(w)‖ before the step"]) == pytest.approx(
        np.linalg.norm(2.0 * 1.0 * Xa.T @ y), rel=1e-3
    )
    assert parse_num(shown["step size η"]) == 1.0
    w1 = shown["w"]
    click(at, "stp.next")
    assert table(at)["w"] != w1  # the hyperplane moves
    click(at, "stp.last")
    m = se.fit(
        ds.X, ds.y, kernel=se.Linear(), C=1.0, loss="quadratic", bias="augmented", solver="newton"
    )
    assert T == m.n_iter
    np.testing.assert_allclose(shown_alpha(at), m.alpha, atol=1e-12)


@pytest.mark.parametrize("solver", ["smo", "sga", "newton"])
@pytest.mark.parametrize("kernel", ["polynomial", "gaussian"])
def test_kernels_run_for_every_solver(solver, kernel):
    at = start("nonlinear", solver=solver, kernel=kernel)
    if solver == "smo":
        assert player_payload(at)["kernel"]["name"] == kernel  # the browser evaluates K
        set_step(at, 2)
    else:
        click(at, "stp.next")
        click(at, "stp.next")
        assert {"decision", "alpha", "curves"} <= set(charts(at))
    assert counter(at)[0] == min(2, counter(at)[1])
    assert not at.error


def test_the_step_through_replays_the_run_the_playground_shows():
    """Issue 16 item 3: D1 hard margin with SMO was 17, 11 or 26 iterations and b = −3.333
    or −3.33427 depending on the page (each page its own tolerance). Now one tolerance: the
    same steps, and the Playground's exact numbers named after the last one."""
    app = AppTest.from_file("../app.py", default_timeout=TIMEOUT).run()
    import test_page_playground as PG  # the Playground page's own readers

    shown = PG.numbers(app)  # the default: book D1, hard margin, SMO
    app.switch_page("pages/3_step_through.py").run()
    assert not app.exception, [e.value for e in app.exception]
    summary = next(m.value for m in app.markdown if m.value.startswith("The run took"))
    steps = int(re.search(r"\*\*([\d,]+)\*\*", summary).group(1).replace(",", ""))
    assert steps == int(shown["iterations"])
    caption = " ".join(c.value for c in app.caption)
    b_shown = float(shown["b"].replace("−", "-"))
    assert f"b = {fmt_num(b_shown)}" in caption and "certified" in caption
    assert not any("onverged" in str(w.value) for w in app.warning)
