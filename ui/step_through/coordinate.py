"""SGA, one coordinate per step (slide 33, lines 12–14): the state after coordinate step s of a
recorded SGA run, sweep t replayed from α_{t−1} with ``svm_engine.solvers.sga.coordinate_step``."""

from __future__ import annotations

from typing import Any

import numpy as np

from svm_engine.finalize import kkt_violation
from svm_engine.problem import build_problem
from svm_engine.solvers import sga as _sga
from ui.step_through.cursor import clamp
from ui.step_through.pack import step_objectives
from ui.step_through.record import StepRun
from ui.step_through.snapshot import (
    KKT_TOL,
    StepState,
    kernel_numbers,
    kkt_point_violation,
    state_at,
    step_model,
)


def coordinate_count(run: StepRun) -> int:
    """Number of coordinate steps in the recorded SGA run: sweeps × n."""
    return run.n_steps * run.n


def coordinate_position(run: StepRun, s: int) -> tuple[int, int]:
    """Coordinate step s ↦ (sweep t, coordinate k): s = (t − 1)·n + k + 1; s = 0 ↦ (0, −1)."""
    s = clamp(s, coordinate_count(run))
    if s == 0:
        return 0, -1
    return (s - 1) // run.n + 1, (s - 1) % run.n


def coordinate_state(run: StepRun, s) -> tuple[StepState, dict]:
    """SGA state after coordinate step s: sweep t started from α_{t−1} (recorded) and the
    α_k update of slide 33 (lines 12–14) applied for k = 0..k_s with
    ``svm_engine.solvers.sga.coordinate_step``. Returns (state, record of the update)."""
    if run.solver != "sga":
        raise ValueError("coordinate steps exist only for SGA")
    s = clamp(s, coordinate_count(run))
    t, kk = coordinate_position(run, s)
    if s == 0:
        return state_at(run, 0), {}
    y = run.y
    a = run.tape.alpha_at(t - 1)
    # the same K_eff (and so the same η_k) as the engine's run
    Keff = build_problem(run.X, y, run.kernel, run.C, run.loss, run.bias).K_eff
    eta = 1.0 / np.diag(Keff)
    g = Keff @ (a * y)
    rec: dict[str, Any] = {}
    before = a.copy()
    g_before = 0.0
    for c in range(kk + 1):
        if c == kk:
            before, g_before = a.copy(), float(g[kk])
        rec = _sga.coordinate_step(Keff, y, a, g, eta, run.C_box, c)
    rec = {key: (bool(v) if isinstance(v, np.bool_ | bool) else v) for key, v in rec.items()}
    # g_before = Σᵢ αᵢyᵢK(xᵢ, x_k) just before the update (slide 33, line 12)
    rec.update(sweep=t, y=float(y[kk]), C=run.C_box, g_before=g_before,
               **kernel_numbers(run, [kk]))
    b = float(a @ y)
    model = step_model(run, a, b)
    G = y * g - 1.0  # g is current after the update
    viol = kkt_point_violation(a, G, y, b, run.C_box, False)
    u = model.h_train - b
    primal, dual, _ = step_objectives(a, y, u, b, run.C, run.loss, run.bias)
    state = StepState(
        k=t,
        n_steps=run.n_steps,
        alpha=a,
        b=b,
        model=model,
        changed=np.array([kk]),
        alpha_before=before,
        violation=viol,
        violators=np.flatnonzero(viol > KKT_TOL),
        dual=dual,
        primal=primal,
        kkt=kkt_violation(G, a, y, run.C_box, False),
        record=rec,
    )
    return state, rec

