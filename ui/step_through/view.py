"""What the Step-through page shows of a recorded run, decided without streamlit (pure).

- ``unit_name``, ``total_steps``: what one step is (an SMO step, an SGA sweep or coordinate
  step, a Newton iteration) and how many the run has;
- ``run_key``: the run a session's cursor belongs to (a new run starts at step 0);
- ``step_view``: the state a step shows and how it is drawn (SGA's coordinate steps
  included: the point updated, where it lies on the curves' axis);
- ``alpha_frame``, ``curves_names``: the α table and the names of the convergence curves;
- ``SPEEDS``, ``timer_tick``: the server's play timer for SGA and Newton (SMO plays in the
  browser, ``ui.step_through.player``).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import pandas as pd

from ui.shared.labels import SOLVER_STEPS
from ui.shared.sv_labels import point_labels
from ui.step_through import cursor, snapshot
from ui.step_through.coordinate import coordinate_count, coordinate_position, coordinate_state

SGA_MODE_LABELS = {"sweep": "one sweep (all k)", "coordinate": "one coordinate αₖ"}
#: speed label → (seconds between frames, steps per frame)
SPEEDS = {
    "1 step/s": (1.0, 1),
    "2 steps/s": (0.5, 1),
    "4 steps/s": (0.25, 1),
    "20 steps/s": (0.25, 5),
    "100 steps/s": (0.25, 25),
}
DEFAULT_SPEED = "2 steps/s"
DECISION_GRID = 50  # grid points per side for h(x): redrawn on every step, so coarser than 100


def unit_name(solver: str, coordinate: bool = False) -> str:
    """What one step of ``solver`` is called on the page."""
    if solver == "sga":
        return "coordinate step" if coordinate else "sweep"
    return SOLVER_STEPS[solver]


def total_steps(run, coordinate: bool = False) -> int:
    """The last step the cursor can reach."""
    return coordinate_count(run) if coordinate else run.n_steps


def run_key(xb: bytes, yb: bytes, skey: tuple, solver: str, mode: str) -> str:
    """A short id of the run (points, settings, solver, SGA's step mode)."""
    h = hashlib.blake2b(digest_size=12)
    for part in (xb, yb, repr(skey).encode(), solver.encode(), mode.encode()):
        h.update(part)
    return h.hexdigest()


@dataclass(frozen=True)
class StepView:
    """Step k as the page draws it."""

    k: int
    state: Any  # snapshot.StepState after step k
    prev: Any  # the model before the step (its boundary drawn faint); None at the start
    pair: list[int]  # points ringed as this step's (SGA's coordinate k)
    pair_labels: tuple[str, ...]
    xpos: float  # the step's place on the curves' axis (iterations; a coordinate in between)
    coord: dict | None = None  # SGA's coordinate step: its record …
    sweep: int = 0  # … its sweep t (1-based) …
    index: int = 0  # … and its coordinate (0-based)


def step_view(run, k: int, coordinate: bool = False) -> StepView:
    """The state after step k of ``run`` (SGA and Newton: drawn on the server)."""
    if not coordinate:
        return StepView(k, snapshot.state_at(run, k), snapshot.prev_model(run, k), [], (), float(k))
    stt, rec = coordinate_state(run, k)
    if k == 0:
        return StepView(0, stt, None, [], ("k",), 0.0, rec)
    t, kk = coordinate_position(run, k)
    prev = coordinate_state(run, k - 1)[0].model
    return StepView(k, stt, prev, [kk], ("k",), (t - 1) + (kk + 1) / run.n, rec, t, kk)


def step_labels(run, stt) -> list[str]:
    """The α table's labels by every table's one rule (``sv_labels``): the step's model keeps
    no labels y, so they come from the run."""
    m = stt.model
    return point_labels(SimpleNamespace(category=m.category, alpha=m.alpha, y=run.y,
                                        h_train=m.h_train, xi=m.xi, solver=run.solver))


def alpha_frame(run, stt) -> pd.DataFrame:
    """Every α after a step, with h(x), its KKT violation and category (rows i = 1 … n)."""
    return pd.DataFrame(
        {
            "x1": run.X[:, 0],
            "x2": run.X[:, 1],
            "y": run.y.astype(int),
            "α": stt.alpha,
            "h(x)": stt.model.h_train,
            "KKT violation": stt.violation,
            "category": step_labels(run, stt),
        },
        index=pd.RangeIndex(1, run.n + 1, name="i"),
    )


def curves_names(run) -> dict:
    """The convergence curves' KKT name and their extra curve (SGA: ‖αₜ − αₜ₋₁‖, Newton:
    ‖wₜ − wₜ₋₁‖) with its stopping tolerance ε, as ``figures.curves_figure`` takes them."""
    if run.solver == "sga":
        kkt_name, extra, extra_name = "max KKT violation", "delta_norm", "‖αₜ − αₜ₋₁‖"
    elif run.linear:
        kkt_name, extra, extra_name = "‖∇J(w)‖", "step_norm", "‖wₜ − wₜ₋₁‖"
    else:  # slide 41's kernel form: β; the engine's step is √(ΔβᵀKΔβ)
        kkt_name, extra, extra_name = "‖∇J(β)‖", "step_norm", "√(ΔβᵀKΔβ)"
    return {"kkt_name": kkt_name, "extra": run.detail[extra], "extra_name": extra_name,
            "tol": run.model.tol, "tol_name": "ε"}


def timer_tick(k: int, last: float | None, now: float, interval: float, n_steps: int,
               stride: int = 1) -> tuple[int, float, bool]:
    """One run of the playing fragment (``st.fragment(run_every=interval)``): (the cursor,
    the time of the last tick, keep playing). The first run after Play only starts the
    clock (the press itself takes no step); a run sooner than half an interval after the
    last tick (a rerun for another reason) takes no step either; play stops at the end."""
    k = cursor.clamp(k, n_steps)
    if last is None or now - last < 0.5 * interval:
        return k, (now if last is None else last), True
    k, keep = cursor.play_tick(k, n_steps, stride)
    return k, now, keep
