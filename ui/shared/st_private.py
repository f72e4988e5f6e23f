"""Every non-public Streamlit API SVM Lab uses, and only here (written for Streamlit 1.67).

Streamlit may change its internals in any release. An upgrade that changes one of these
breaks this module only, and ``tests/test_st_private.py`` says which one and in which
version; no other module of ``ui/``, ``pages/`` or ``app.py`` imports from ``streamlit.*``
(that test checks it too).

- ``PagesManager.uses_pages_directory`` (``streamlit.runtime.pages_manager``): a class
  attribute, True while Streamlit runs in its old pages/-folder mode (a ``pages/`` folder
  exists and no script has called ``st.navigation`` yet, which sets it False).
  ``leave_pages_folder_mode`` (for ``ui.shared.nav.run_through_app``).
- ``get_run_yield_check()`` (``streamlit.runtime.scriptrunner_utils.script_run_context``):
  this thread's stop/rerun check, or None outside a script run; the check returns while the
  run may go on and raises a ``ScriptControlException`` (``RerunException``,
  ``StopException``; ``...scriptrunner_utils.exceptions``) when it must end, consuming the
  request as a yield point does. Streamlit's own cache waits poll it
  (``caching/cache_utils._hold_compute_lock``). ``yield_check`` and ``control_exception``
  (for ``ui.serving.st_interrupt``).
- ``scan_component_manifests`` (``streamlit.components.v2.manifest_scanner``): reads the
  metadata of every installed distribution, looking for Custom Components v2 manifests. A
  server calls it once at its start; ``AppTest`` calls it for every app it starts (0.15 s
  each, 30 s of CPU over the page tests). ``memoize_component_scan`` (for tests/conftest.py):
  the installed packages do not change within one test session.
- ``ScriptCache.get_bytecode`` (``streamlit.runtime.scriptrunner.script_cache``): reads a
  script, adds Streamlit's "magic" (an AST pass) and compiles it. A server keeps one cache
  for all its runs; ``AppTest`` makes a new one for every run, so each page test's every
  click parsed and compiled its page again (1.5 s of the 19 s of CPU of the five largest
  page test files). ``memoize_script_bytecode`` (for tests/conftest.py): one compile
  per script text and magic setting, per process (the code object is immutable; an edited
  script is another text, so it is compiled again).

The tests reach three more, each listed in ``APIS`` (so the contract test checks it) and
used by tests only, never by the app:

- ``get_script_run_ctx()`` (``...scriptrunner_utils.script_run_context``) and
  ``ScriptRequests.request_rerun(RerunData())`` (``...scriptrunner_utils.script_requests``):
  what a session does from its own thread when a newer click arrives
  (``tests/test_st_interrupt.py``: the yield check above sees it).
- ``discover_asgi_app(path)`` (``streamlit.web.server.app_discovery``): how ``streamlit run``
  decides that app.py is an ``st.App`` (``tests/test_fit_api.py``: the fit route is served).
"""

from __future__ import annotations

import functools
import os
import threading
from collections.abc import Callable

#: The Streamlit version these were checked against (the contract test names it).
WRITTEN_FOR = "1.67"

#: (module, name) of each private API, for the contract test.
APIS = (
    ("streamlit.runtime.pages_manager", "PagesManager.uses_pages_directory"),
    ("streamlit.runtime.scriptrunner_utils.script_run_context", "get_run_yield_check"),
    ("streamlit.runtime.scriptrunner_utils.exceptions", "ScriptControlException"),
    ("streamlit.components.v2.manifest_scanner", "scan_component_manifests"),
    ("streamlit.runtime.scriptrunner.script_cache", "ScriptCache.get_bytecode"),
    # tests only (module docstring)
    ("streamlit.runtime.scriptrunner_utils.script_run_context", "get_script_run_ctx"),
    ("streamlit.runtime.scriptrunner_utils.script_requests", "RerunData"),
    ("streamlit.runtime.scriptrunner_utils.script_requests", "ScriptRequests.request_rerun"),
    ("streamlit.web.server.app_discovery", "discover_asgi_app"),
)

_control_exception: type[BaseException] | None = None


def leave_pages_folder_mode() -> bool:
    """Leave Streamlit's pages/-folder mode for good, as ``st.navigation`` does. True when
    the process was in it (the running page was started alone, not through app.py)."""
    from streamlit.runtime.pages_manager import PagesManager

    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        return True
    return False


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


def memoize_component_scan() -> None:
    """Scan the installed packages for components once per process (test sessions only)."""
    from streamlit.components.v2 import manifest_scanner

    scan = manifest_scanner.scan_component_manifests
    if getattr(scan, "memoized", False):
        return
    once = functools.cache(lambda: tuple(scan()))

    def memoized(max_workers: int | None = None) -> list:
        return list(once())

    memoized.memoized = True
    manifest_scanner.scan_component_manifests = memoized


def memoize_script_bytecode() -> None:
    """Compile each script text once per process, whatever ScriptCache asks (test sessions
    only: ``AppTest`` starts every run with an empty ScriptCache)."""
    from streamlit import config
    from streamlit.runtime.scriptrunner.script_cache import ScriptCache

    compile_script = ScriptCache.get_bytecode
    if getattr(compile_script, "memoized", False):
        return
    compiled: dict[tuple[str, bytes, bool], object] = {}
    lock = threading.Lock()

    def get_bytecode(self, script_path: str):
        path = os.path.abspath(script_path)
        with open(path, "rb") as f:
            key = (path, f.read(), bool(config.get_option("runner.magicEnabled")))
        with lock:
            code = compiled.get(key)
        if code is None:
            code = compile_script(self, script_path)  # reads the file again, as it does
            with open(path, "rb") as f:
                unchanged = f.read() == key[1]        # not edited in between
            if unchanged:
                with lock:
                    compiled[key] = code
        return code

    get_bytecode.memoized = True
    ScriptCache.get_bytecode = get_bytecode
