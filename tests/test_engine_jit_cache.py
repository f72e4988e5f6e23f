"""numba's cache never serves compiled code older than the engine's sources (issue 17).

numba checks a cached function against its own file only: when `b` (file B) calls `a` (file
A) and A changes, numba loads `b`'s cached code, with the old `a` compiled into it.
`svm_engine/jit.py` hashes each module's sources with those of the engine modules it
imports, and removes a module's cached code when that hash changed. Here, in a copy of the
engine (a temporary folder), three probe modules: `b` calls `a` across files, `c` imports
neither. After an edit of A only, `b` must return the new value, and `c`'s cached code stays.

Each run is a new process that imports the engine afresh: a child forked from one interpreter
that has set up numba's compiler and imported nothing of the engine (a fresh interpreter per
run would import numba and set up its compiler again each time: ~0.7 s of CPU a run).
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from svm_engine.jit import JIT

pytestmark = pytest.mark.skipif(not JIT, reason="numba's cache exists only with numba")

ROOT = Path(__file__).resolve().parents[1]
PROBE_A = '''from .jit import njit


@njit(cache=True)
def a():
    return {value}
'''
PROBE_B = '''from .jit import njit
from .probe_a import a


@njit(cache=True)
def b():
    return a() + 1
'''
PROBE_C = '''from .jit import njit


@njit(cache=True)
def c():
    return 7
'''


def engine_copy(tmp_path: Path) -> Path:
    """The engine's sources in tmp_path/svm_engine, with the probes; its __init__ emptied
    (jit.py checks the sources of its own folder: the package need not load the solvers)."""
    shutil.copytree(ROOT / "svm_engine", tmp_path / "svm_engine",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "svm_engine" / "__init__.py").write_text("")
    (tmp_path / "svm_engine" / "probe_a.py").write_text(PROBE_A.format(value=1))
    (tmp_path / "svm_engine" / "probe_b.py").write_text(PROBE_B)
    (tmp_path / "svm_engine" / "probe_c.py").write_text(PROBE_C)
    return tmp_path


#: Reads a line, forks, and the child imports the probes and prints [b(), c()] (or the error);
#: then the parent prints the child's exit status. numba is imported and its compiler used
#: once before any fork, on a function of its own.
FORK_SERVER = """
import json, os, sys, traceback
import numba
numba.njit(lambda: 0)()
for _ in sys.stdin:
    pid = os.fork()
    if pid == 0:
        try:
            from svm_engine.probe_b import b
            from svm_engine.probe_c import c
            print(json.dumps([b(), c()]), flush=True)
            os._exit(0)
        except BaseException:
            print(json.dumps(traceback.format_exc()), flush=True)
            os._exit(1)
    print(json.dumps(os.waitpid(pid, 0)[1]), flush=True)
"""


class Runs:
    """Each ``call_b_and_c()``: the probes in a new process (a fork of FORK_SERVER)."""

    def __init__(self, root: Path, env: dict):
        self.proc = subprocess.Popen([sys.executable, "-c", FORK_SERVER], cwd=root, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def call_b_and_c(self) -> list[int]:
        self.proc.stdin.write("run\n")
        self.proc.stdin.flush()
        answer, status = (json.loads(self.proc.stdout.readline()) for _ in range(2))
        assert status == 0, answer
        return answer

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


@pytest.fixture
def runs():
    opened = []

    def start(root: Path, env: dict) -> Runs:
        opened.append(Runs(root, env))
        return opened[-1]

    yield start
    for r in opened:
        r.close()


def stamps(cache: Path, prefix: str) -> dict:
    """The cached files of one module, with their modification times."""
    return {p: p.stat().st_mtime_ns for p in cache.rglob(f"{prefix}.*.nb[ic]")}


@pytest.mark.parametrize("where", ["__pycache__", "NUMBA_CACHE_DIR"])
def test_an_edit_in_another_file_is_compiled_again(tmp_path, where, runs):
    root = engine_copy(tmp_path)
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR",
                                                             "NUMBA_DISABLE_JIT")}
    if where == "NUMBA_CACHE_DIR":
        env["NUMBA_CACHE_DIR"] = str(tmp_path / "numba-cache")
    cache = (tmp_path / "numba-cache" if where == "NUMBA_CACHE_DIR"
             else root / "svm_engine" / "__pycache__")
    call_b_and_c = runs(root, env).call_b_and_c
    assert call_b_and_c() == [2, 7]
    b_cached, c_cached = stamps(cache, "probe_b"), stamps(cache, "probe_c")
    assert b_cached and c_cached, "numba cached nothing: the test would prove nothing"
    if where == "__pycache__":
        # unchanged sources: the check keeps the cache (nothing compiled again)
        assert call_b_and_c() == [2, 7]
        assert stamps(cache, "probe_b") == b_cached
    (root / "svm_engine" / "probe_a.py").write_text(PROBE_A.format(value=10))
    assert call_b_and_c() == [11, 7]                  # not 2: b's cached code was removed
    assert stamps(cache, "probe_c") == c_cached       # c imports neither: kept as it was


def _imports_by_ast(text: str, rel: str, package: str, known: set[str]) -> set[str]:
    """The engine modules a source imports, read by the parser (the reference for jit.py's
    regex, which is ~50× faster at every import of the engine)."""
    import ast

    here, out = rel.split("/")[:-1], set()
    for node in ast.walk(ast.parse(text, rel)):
        if isinstance(node, ast.ImportFrom):
            parts = node.module.split(".") if node.module else []
            if node.level:
                if node.level - 1 > len(here):
                    continue
                base = here[:len(here) - (node.level - 1)]
            elif parts and parts[0] == package:
                base, parts = [], parts[1:]
            else:
                continue
            found = [[*base, *parts, a.name] for a in node.names] + ([base + parts] if parts
                                                                      else [])
        elif isinstance(node, ast.Import):
            found = [a.name.split(".")[1:] for a in node.names if a.name.split(".")[0] == package]
        else:
            continue
        out |= {f for p in found for f in ("/".join(p) + ".py", "/".join([*p, "__init__.py"]))
                if f in known}
    return out


def test_the_import_scan_finds_what_the_parser_finds():
    from svm_engine import jit

    files = {p.relative_to(jit.ENGINE).as_posix(): p for p in jit.ENGINE.rglob("*.py")}
    known = set(files)
    assert len(files) > 20
    total = 0
    for rel, path in files.items():
        text = path.read_text(encoding="utf-8")
        want = _imports_by_ast(text, rel, jit.ENGINE.name, known)
        assert jit._imports(text, rel, jit.ENGINE.name, known) == want, rel
        total += len(want)
    assert total > 50  # the engine's modules do import each other
