"""Compiled code: numba's `njit` when numba is there, the plain Python function when not.

numba is in requirements.txt but optional: without it, or with NUMBA_DISABLE_JIT=1, every
function decorated with `njit` runs as the Python it is written in — the same operations, so
the same answers, only slower (`JIT` is False; `api.fit` then runs the readable SMO on the
materialised matrix).

numba's cache (`cache=True`: the compiled code in `__pycache__`, or under NUMBA_CACHE_DIR) is
checked against the file that defines each function only, not the files whose compiled code
it calls: after an edit of `face.py`, `smo_fast`'s cached code would still run the old one.
So this module, which the engine imports before it defines any compiled function, checks
more (`clear_stale_cache`): for each module, the hash of its source and of every engine
module it imports, directly or not (compiled code can only call, or read constants from,
what its module imports); when that hash differs from the one stamped beside the cache, the
module's cached code is removed first. An edit of `face.py` so recompiles `face`, `smo`,
`smo_fast`, `warmstart`, …, not `kernel_values` or `certify`. Every process that imports
the engine does the check: `make run`, `streamlit run app.py`, the fit workers, the tests.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
from pathlib import Path

try:
    import numba
    from numba import njit
except ImportError:
    numba = None

    def njit(*args, **options):
        """numba's decorator, with or without options, as a no-op."""
        return args[0] if args and callable(args[0]) else (lambda f: f)

#: True when `njit` compiles (numba is installed and NUMBA_DISABLE_JIT is not set).
JIT = numba is not None and not numba.config.DISABLE_JIT

ENGINE = Path(os.path.abspath(os.path.dirname(__file__)))
STAMP = "svm_engine-sources.json"      # beside the cached code: {module: hash it was made from}


def _imports(path: Path, root: Path) -> set[Path]:
    """The engine files that `path` imports: `from .x import y` (x, or y if it is a module),
    `from . import y`, and the same written absolutely (`from svm_engine.x import y`)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_bytes())):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level:
            base = path.parent
            for _ in range(node.level - 1):
                base = base.parent
            parts = node.module.split(".") if node.module else []
        elif node.module and node.module.split(".")[0] == root.name:
            base, parts = root, node.module.split(".")[1:]
        else:
            continue
        base = base.joinpath(*parts)
        found = [base / a.name for a in node.names] + ([base] if parts else [])
        for p in found:
            for f in (p.with_suffix(".py"), p / "__init__.py"):
                if f.is_file() and root in f.parents:
                    out.add(f)
    return out


def module_hashes(root: Path = ENGINE) -> dict[Path, str]:
    """For every .py file under root: sha256 of its source and of the sources of every engine
    module it imports, directly or not (names and contents, in sorted order)."""
    files = sorted(root.rglob("*.py"))
    direct = {f: _imports(f, root) for f in files}
    out = {}
    for f in files:
        seen, todo = {f}, [f]
        while todo:
            for g in direct[todo.pop()] - seen:
                seen.add(g)
                todo.append(g)
        h = hashlib.sha256()
        for g in sorted(seen):
            h.update(g.relative_to(root).as_posix().encode() + b"\0" + g.read_bytes() + b"\0")
        out[f] = h.hexdigest()
    return out


def cache_dirs(folder: Path) -> list[Path]:
    """Where numba may keep the cached code of a source folder's modules, in its own order of
    preference: under NUMBA_CACHE_DIR if set, else `__pycache__` beside the sources, else the
    user-wide cache (when `__pycache__` is not writable). numba names a folder of the first
    and last kind after the source folder: its name, '_' and the sha1 of its path."""
    sub = f"{folder.name}_{hashlib.sha1(str(folder).encode()).hexdigest()}"
    user = Path(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")) / "numba"
    base = os.environ.get("NUMBA_CACHE_DIR")
    return ([Path(base) / sub] if base else []) + [folder / "__pycache__", user / sub]


def clear_stale_cache(root: Path = ENGINE) -> list[Path]:
    """Remove the cached compiled code (*.nbi, *.nbc) of every module whose sources (its own
    and its imports') changed since it was compiled, then stamp the cache folders with the
    current hashes. The folder numba will write to is made first, so that it is stamped
    before anything is compiled into it. Returns the files removed. A folder it cannot write
    to is left as it is (numba skips it too)."""
    hashes = module_hashes(root)
    removed = []
    for folder in sorted({f.parent for f in hashes}):
        modules = {f.stem: h for f, h in hashes.items() if f.parent == folder}
        for k, cache in enumerate(cache_dirs(folder)):
            try:
                if k == 0:
                    cache.mkdir(parents=True, exist_ok=True)
                stamped = json.loads((cache / STAMP).read_text())
            except (OSError, ValueError):    # no folder, or no stamp: compiled before this
                stamped = {}
            if not cache.is_dir() or stamped == modules:
                continue
            for stem, digest in modules.items():
                if stamped.get(stem) == digest:
                    continue
                for path in [*cache.glob(f"{stem}.*.nbi"), *cache.glob(f"{stem}.*.nbc")]:
                    try:
                        path.unlink()
                        removed.append(path)
                    except OSError:          # gone already (another process), or read-only
                        pass
            try:                             # written whole, then renamed: never half a stamp
                tmp = cache / f"{STAMP}.{os.getpid()}"
                tmp.write_text(json.dumps(modules, sort_keys=True))
                os.replace(tmp, cache / STAMP)
            except OSError:
                pass
    return removed


if JIT:
    clear_stale_cache()

__all__ = ["JIT", "clear_stale_cache", "module_hashes", "njit"]
