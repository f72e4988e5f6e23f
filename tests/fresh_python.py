"""A fresh interpreter, for the tests that ask what a module imports or whether the engine runs
without a library.

`run(code, blocked)` runs `code` in a new Python in which a meta-path finder refuses every
import of the top-level packages in `blocked` and records the attempt (`tried()` in the code
gives the refused packages so far). Refusing rather than loading and looking in sys.modules:
the probe also sees an import that a try/except would swallow, and it costs nothing, where
loading scikit-learn alone takes ~2 s of CPU here.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

BLOCKER = """
import sys


class _Blocker:
    tried = set()

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            _Blocker.tried.add(name.split(".")[0])
            raise ImportError(f"{name} is blocked for this test", name=name)


sys.meta_path.insert(0, _Blocker())


def tried():
    return sorted(_Blocker.tried)
"""


def python(code: str, blocked=(), timeout: float = 300) -> subprocess.CompletedProcess:
    """`code` (dedented) run in a fresh interpreter from the project's root, with `blocked`
    refused."""
    source = f"BLOCKED = {sorted(blocked)!r}\n{BLOCKER}\n{textwrap.dedent(code)}"
    return subprocess.run([sys.executable, "-c", source], capture_output=True, text=True,
                          cwd=ROOT, timeout=timeout)


def run(code: str, blocked=(), timeout: float = 300):
    """The JSON value that `code` prints last (the run must succeed)."""
    done = python(code, blocked, timeout)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])
