"""Is this Streamlit script run being stopped?

A page waiting for a fit in a worker process (``ui.serving.budget``) must stop waiting, and have
the worker killed, as soon as its session reruns (a newer click or widget change) or ends (the
tab was closed, the server is stopping). Streamlit acts on such requests only at its "yield
points" (most ``st.*`` calls), which a script waiting for a result never reaches. Streamlit's
own cache waits poll the run's *yield check* instead, and so do we, through
``ui.shared.st_private`` (``yield_check``, ``control_exception``: Streamlit internals, fenced
there with their contract test).
"""

from __future__ import annotations

from ui.shared.st_private import control_exception, yield_check


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
