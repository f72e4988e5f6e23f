"""Every fit has a budget: how the pages and the fit endpoint run their fits.

A fit predicted over the budget (``costs.refusal``) is refused at once with a message that
says what to change (``Refused``). Any other fit runs in a worker process (``ui.serving.fit_pool``)
in the lane its predicted cost picks, and

- answers within ``costs.BUDGET_S``, or its worker is killed and ``Stopped`` carries
  ``costs.timeout_message`` (what to change);
- is killed as soon as nobody waits for it any more: in a page, when the session reruns or
  ends (``ui.serving.st_interrupt``; the run then ends as Streamlit ends it); at the endpoint, when
  the browser drops the request (``respond``).

``Refused`` is a pure function of the input, so a cached page function may return its
message; ``Stopped`` depends on the machine's load and must never be cached, and nor must a
result the task cut short by its own clock: the cached function raises it (``TimeCut``, via
``unless_cut``) and the page shows it (``result_of``).

| task      | function (runs in the worker)   | page                             |
|-----------|---------------------------------|----------------------------------|
| "fit"     | ``fitting.fit_points``          | Playground and ``/api/refit``    |
| "step"    | ``step_state.run_or_message``   | Step-through                     |
| "compare" | ``compare.compare``             | Compare solvers                  |
| —         | ``scaling.timed_fit_row``       | Compare solvers' scaling run     |
| —         | ``examples.compute``            | Worked examples                  |
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import threading
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from ui.serving import costs, fit_pool
from ui.serving.st_interrupt import RunInterrupt
from ui.shared.numbers import fmt_setting
from ui.shared.settings import Settings

BUDGET_S = costs.BUDGET_S
#: How long a task may wait for a free worker of its lane before "the server is busy".
QUEUE_S = 1.0
#: Worked examples: fixed book data, computed once per server and cached (~2 s for all eight),
#: but the first run with an empty numba cache compiles their solvers for tens of seconds, and
#: a compile killed half-way would never reach the cache: a larger budget, in the heavy lane
#: (low priority: they never delay a click).
EXAMPLE_BUDGET_S = 60.0
#: How often an endpoint request checks whether its browser is still there.
DISCONNECT_POLL_S = 0.05
#: Environment variable: a factor on the wall-time limits (the kill and the queue wait), not
#: on the predictions. The test suite sets 10 (tests/conftest.py) so that page tests do not
#: fail on a loaded machine; the budget's own tests set their limits explicitly.
SLACK_ENV = "SVMLAB_BUDGET_SLACK"


def slack() -> float:
    try:
        return max(1.0, float(os.environ.get(SLACK_ENV, "1")))
    except ValueError:
        return 1.0


class BudgetError(Exception):
    """A fit that gives no result, with the message for the user (``str(exc)``)."""


class Refused(BudgetError):
    """Predicted over the budget, so not run (deterministic: may be cached)."""


class Stopped(BudgetError):
    """Stopped at the budget, or no worker was free (depends on the load: never cache)."""


class TimeCut(Exception):
    """A result cut short by wall time inside the task (a grid that stopped starting fits,
    SMO stopped at its own time limit, fewer random starts): shown to the student, but
    raised out of the page's cached function (``unless_cut``) so that the cache never holds
    it, since it depends on the load; the page takes it back with ``result_of``. A result cut
    by an iteration cap is deterministic and is cached as usual."""

    def __init__(self, result: Any):
        super().__init__("a result cut short by the time budget (never cached)")
        self.result = result


def unless_cut(result: Any, cut: bool) -> Any:
    """``result``, or, when ``cut`` (cut short by wall time), ``TimeCut(result)`` raised:
    the last line of a cached page function."""
    if cut:
        raise TimeCut(result)
    return result


def result_of(call: Callable, *args: Any) -> Any:
    """``call(*args)`` (a cached page function), or the time-cut result it raised."""
    try:
        return call(*args)
    except TimeCut as cut:
        return cut.result


def start_pool() -> None:
    """Start the workers in the background (so that the first click finds them ready)."""
    fit_pool.get_pool().start()


def stop_pool_on_signals(signals=(signal.SIGTERM, signal.SIGINT)) -> None:
    """Kill the workers as soon as the server is asked to stop, then let the handler that
    was installed before (uvicorn's) do its work: uvicorn waits for every request in flight
    before it exits, and a request waiting for its fit now ends at once (503). Must run in
    the main thread, after uvicorn installed its handlers (``lifespan`` does)."""
    if threading.current_thread() is not threading.main_thread():
        return
    for sig in signals:
        previous = signal.getsignal(sig)
        if getattr(previous, "svmlab_pool", False):
            continue

        def handler(signum, frame, previous=previous):
            threading.Thread(target=fit_pool.shutdown_pool, name="svmlab-fit-stop").start()
            if callable(previous):
                previous(signum, frame)
            elif previous == signal.SIG_DFL:
                signal.signal(signum, signal.SIG_DFL)
                signal.raise_signal(signum)

        handler.svmlab_pool = True
        signal.signal(sig, handler)


@contextlib.asynccontextmanager
async def lifespan(app):
    """``st.App(..., lifespan=budget.lifespan)`` (app.py): the workers start with the server
    and stop with it, also when a fit is running (SIGTERM)."""
    start_pool()
    stop_pool_on_signals()
    try:
        yield None
    finally:
        fit_pool.shutdown_pool()


def run(task: str, fn: Callable, args: Sequence = (), kwargs: dict | None = None, *,
        settings: Mapping[str, Any] | None, n: int, solver: str | None = None,
        refuse: bool = True, lane: str | None = None, budget_s: float = BUDGET_S) -> Any:
    """``fn(*args, **kwargs)`` in a worker, within the budget; its result (or the exception
    it raised). ``settings`` (the page's settings, None for a task without a cost model)
    and ``n`` predict the cost: over the budget → ``Refused`` (unless ``refuse`` is False:
    the function refuses itself, as ``fitting.fit_points`` does). Raises ``Stopped`` at the
    budget; a session rerun or stop ends the run the way Streamlit ends it."""
    if refuse and settings is not None:
        why = costs.refusal(task, settings, n, solver)
        if why is not None:
            raise Refused(why)
    if lane is None:
        lane = costs.lane(task, settings, n, solver) if settings is not None else "light"
    interrupt = RunInterrupt()
    try:
        result = fit_pool.get_pool().run(
            fn, args, kwargs, lane=lane, budget_s=budget_s * slack(), queue_s=QUEUE_S * slack(),
            should_stop=interrupt if interrupt.active else None,
            key=prediction_key(task, settings, n, solver))
    except fit_pool.Cancelled:
        interrupt.raise_pending()
        raise Stopped("The fit was cancelled.") from None
    except fit_pool.BudgetExceeded:
        interrupt.raise_pending()
        raise Stopped(stopped_message(task, settings, n, solver, budget_s)) from None
    except fit_pool.PoolBusy:
        interrupt.raise_pending()
        raise Stopped(costs.busy_message()) from None
    except fit_pool.WorkerDied as exc:
        interrupt.raise_pending()
        raise Stopped(f"The fit stopped: {exc} (out of memory?). Try fewer points.") from None
    except fit_pool.PoolError:  # shut down: the server is stopping
        interrupt.raise_pending()
        raise Stopped("The server is stopping; the fit was not finished.") from None
    interrupt.raise_pending()  # a rerun seen while the fit was finishing: rerun now
    return result


def prediction_key(task: str, settings, n: int, solver=None) -> str | None:
    """What the lane's prediction was made of: once a fit of these inputs overran it, the
    pool sends the later ones to the heavy lane (``fit_pool``: fair shares)."""
    if settings is None:
        return None
    return json.dumps([task, n, solver, dict(settings)], sort_keys=True, default=str)


def stopped_message(task: str, settings, n: int, solver=None, budget_s=BUDGET_S) -> str:
    if settings is not None and task in costs.TASKS:
        return costs.timeout_message(task, settings, n, solver)
    return f"This did not finish within its {fmt_setting(budget_s)} s budget and was stopped."


# --------------------------------------------------------------------------- the pages
# The pages call ``run`` with their own task's function (the table above); ``fit_outcome`` is
# the shared fit of ``ui.shared.fitting``.


def fit_outcome(X, y, settings: Mapping[str, Any], alpha0=None):
    """``fitting.fit_points`` in a worker: the Playground's FitOutcome (a refusal is an
    outcome of kind "over_budget", made in the worker). Raises ``Stopped``."""
    from ui.shared import fitting

    return run("fit", fitting.fit_points, (X, y, dict(settings), alpha0),
               settings=settings, n=len(X), refuse=False)


# ------------------------------------------------------------------------- the endpoint


def _peek(raw: bytes, body: Any = None) -> tuple[int, dict, Any] | None:
    """(n, settings, seq) of a refit request, to pick the lane (None if unreadable: the
    worker answers such a request with its 400). ``body``: the request's JSON when the door
    already parsed it (``fit_request.parse_body``; parsing 200 points again costs ~1 ms)."""

    try:
        body = json.loads(raw) if body is None else body
        points = body.get("points")
        settings = Settings.parse(body.get("settings") or {})
        return (len(points) if isinstance(points, list) else 0), settings, body.get("seq")
    except (ValueError, TypeError, AttributeError, RecursionError):
        return None


def _no_model(peek, kind: str, message: str, t0: float) -> str:
    seq = peek[2] if peek is not None else None
    seq = seq if isinstance(seq, int) and not isinstance(seq, bool) else None
    return json.dumps({"seq": seq, "ok": False, "kind": kind, "message": message,
                       "server_ms": round(1000 * (time.perf_counter() - t0), 2)},
                      ensure_ascii=False)


async def _watch(is_disconnected: Callable[[], Awaitable[bool]], gone: threading.Event):
    while not gone.is_set():
        if await is_disconnected():
            gone.set()
            return
        await asyncio.sleep(DISCONNECT_POLL_S)


async def respond(raw: bytes, is_disconnected: Callable[[], Awaitable[bool]],
                  respond_fn: Callable[[bytes], tuple[int, str | bytes]] | None = None,
                  body: Any = None) -> tuple[int, str | bytes]:
    """The fit endpoint's (status, JSON text) for a request body: ``fit_api.respond`` in a
    worker, within the budget; the worker is killed when ``is_disconnected()`` (starlette's
    ``request.is_disconnected``) turns true: the browser aborted the request. ``respond_fn``
    may answer bytes instead (``fit_api.respond_gzip``); the answers made here are text.
    ``body``: the request's JSON if already parsed (read for the lane only)."""
    from starlette.concurrency import run_in_threadpool

    if respond_fn is None:
        from ui.serving.fit_api import respond as respond_fn
    t0 = time.perf_counter()
    peek = _peek(raw, body)
    n, settings = (peek[0], peek[1]) if peek is not None else (0, None)
    lane = costs.lane("fit", settings, n) if settings is not None else "light"
    gone = threading.Event()
    watcher = asyncio.ensure_future(_watch(is_disconnected, gone))
    try:
        return await run_in_threadpool(
            fit_pool.get_pool().run, respond_fn, (raw,), lane=lane, budget_s=BUDGET_S * slack(),
            queue_s=QUEUE_S * slack(), should_stop=gone.is_set,
            key=prediction_key("fit", settings, n))
    except fit_pool.BudgetExceeded:
        msg = stopped_message("fit", settings, n)
        return 200, _no_model(peek, "over_budget", msg, t0)
    except fit_pool.PoolBusy:
        return 200, _no_model(peek, "busy", costs.busy_message(), t0)
    except fit_pool.Cancelled:
        return 499, json.dumps({"error": "the client closed the request"})
    except fit_pool.WorkerDied as exc:
        return 200, _no_model(peek, "failed", f"The fit stopped: {exc}. Try fewer points.", t0)
    except fit_pool.PoolError:
        return 503, json.dumps({"error": "the server is stopping"})
    finally:
        gone.set()
        watcher.cancel()
