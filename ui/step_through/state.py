"""Step-through state: the names the page, its panels and the tests use, from the modules of
one concern each (pure: numpy + svm_engine, no streamlit). The page fits once with
``trace=True`` and then only *replays* the record:

- ``record``: ``build_run(X, y, settings)`` fits (SMO, SGA or Newton) and keeps the record as a
  compact, picklable ``StepRun`` (``pack``: one packer per solver; ``tape``: α per step);
- ``snapshot``: ``state_at(run, k)``, the state after step k (k = 0: before any step), and the
  numbers of step k;
- ``coordinate``: SGA's one-coordinate-per-step view (slide 33, lines 12–14);
- ``cursor``: ``move``, ``next_event``, ``play_tick``, the playback cursor (clamped to [0, T]).
"""

from svm_engine.tape import CHECKPOINT_EVERY, AlphaTape, make_tape
from ui.step_through.coordinate import coordinate_count, coordinate_position, coordinate_state
from ui.step_through.cursor import ACTIONS, clamp, event_steps, move, next_event, play_tick
from ui.step_through.record import (
    SOLVER_BIAS,
    SOLVER_CAPTIONS,
    STEP_SOLVERS,
    TRACE_CAP,
    StepRun,
    build_run,
    run_or_message,
    sga_max_sweeps,
    step_settings,
    trace_max_iter,
)
from ui.step_through.snapshot import (
    KKT_TOL,
    StepModel,
    StepState,
    gradient,
    kernel_numbers,
    kkt_point_violation,
    prev_model,
    selection_numbers,
    state_at,
    step_record,
)

__all__ = [
    "ACTIONS", "CHECKPOINT_EVERY", "KKT_TOL", "SOLVER_BIAS", "SOLVER_CAPTIONS", "STEP_SOLVERS",
    "TRACE_CAP", "AlphaTape", "StepModel", "StepRun", "StepState", "build_run", "clamp",
    "coordinate_count", "coordinate_position", "coordinate_state", "event_steps", "gradient",
    "kernel_numbers", "kkt_point_violation", "make_tape", "move", "next_event", "play_tick",
    "prev_model", "run_or_message", "selection_numbers", "sga_max_sweeps", "state_at",
    "step_record", "step_settings", "trace_max_iter",
]
