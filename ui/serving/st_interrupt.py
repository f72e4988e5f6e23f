"""Is this Streamlit script run being stopped? The app's one use of Streamlit internals.

A page waiting for a fit in a worker process (``ui.serving.budget``) must stop waiting, and have the
worker killed, as soon as its session reruns (a newer click or widget change) or ends (the
tab was closed, the server is stopping). Streamlit acts on such requests only at its "yield
points" (most ``st.*`` calls), which a script waiting for a result never reaches. Streamlit's
own cache waits (``caching/cache_utils._hold_compute_lock``) poll the run's *yield check*
instead, and so do we:

- ``streamlit.runtime.scriptrunner_utils.script_run_context.get_run_yield_check()``
  (Streamlit 1.67) returns this thread's callback, or None outside a script run; the
  callback (``ScriptRunner._maybe_handle_execution_control_request``) returns when the run
  may go on and raises ``RerunException`` / ``StopException`` (subclasses of
  ``streamlit.runtime.scriptrunner_utils.exceptions.ScriptControlException``) when it
  should end, consuming the request exactly as a yield point does.

``tests/test_st_interrupt.py`` checks this contract against the installed Streamlit and fails
with a message naming what changed; an upgrade that breaks it needs a change here only.
"""

from __future__ import annotations

from collections.abc import Callable

_control_exception: type[BaseException] | None = None


def control_exception() -> type[BaseException]:
    """Streamlit's base class of the stop / rerun exceptions."""
    global _control_exception
    if _control_exception is None:
        from streamlit.runtime.scriptrunner_utils.exceptions import ScriptControlException

        _control_exception = ScriptControlException
    return _control_exception


def yield_check() -> Callable[[], None] | None:
    """This thread's stop/rerun check, or None outside a Streamlit script run."""
    try:
        from streamlit.runtime.scriptrunner_utils.script_run_context import (
            get_run_yield_check,
        )
    except ImportError:  # no streamlit: nothing can ask us to stop
        return None
    return get_run_yield_check()


class RunInterrupt:
    """A ``should_stop`` for ``ui.serving.fit_pool``: true once this script run has been asked to
    stop or rerun. The request is consumed when seen, so ``raise_pending()`` must follow: it
    raises Streamlit's exception, which ends the run as a yield point would have."""

    def __init__(self) -> None:
        self._check = yield_check()
        self.pending: BaseException | None = None

    @property
    def active(self) -> bool:
        """True inside a script run (outside one, nothing ever asks to stop)."""
        return self._check is not None

    def __call__(self) -> bool:
        if self.pending is not None:
            return True
        if self._check is None:
            return False
        try:
            self._check()
        except control_exception() as exc:
            self.pending = exc
            return True
        return False

    def raise_pending(self) -> None:
        """Raise the stop / rerun request seen by ``__call__`` (nothing if none was)."""
        exc, self.pending = self.pending, None
        if exc is not None:
            raise exc
