"""Compiled code: numba's `njit` when numba is there, the plain Python function when not.

numba is in requirements.txt but optional: without it, or with NUMBA_DISABLE_JIT=1, every
function decorated with `njit` runs as the Python it is written in — the same operations, so
the same answers, only slower (`JIT` is False; `api.fit` then runs the readable SMO on the
materialised matrix).

numba's cache (`cache=True`: the compiled code in `__pycache__`, or under NUMBA_CACHE_DIR) is
checked against the file that defines each function only, not the files whose compiled code
it calls: after an edit of `face.py`, `smo_fast`'s cached code would still run the old one.
So this module, which the engine imports before it defines any compiled function, hashes
every source file of the engine and, when the hash differs from the stamp it left beside the
cache, removes the engine's cached code first (`clear_stale_cache`). Every process that
imports the engine does it: `make run`, `streamlit run app.py`, the fit workers, the tests.
"""

from __future__ import annotations

import hashlib
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
STAMP = "svm_engine-sources.sha256"     # beside the cached code: the hash it was compiled from


def sources_hash(root: Path = ENGINE) -> str:
    """sha256 of every .py file under root (names and contents, in sorted order)."""
    h = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        h.update(path.relative_to(root).as_posix().encode() + b"\0")
        h.update(path.read_bytes() + b"\0")
    return h.hexdigest()


def cache_dirs(root: Path = ENGINE, preferred: bool = False) -> list[Path]:
    """Where numba may keep the cached code of root's source folders, in its own order of
    preference: under NUMBA_CACHE_DIR if set, else `__pycache__` beside the sources, else the
    user-wide cache (when `__pycache__` is not writable). numba names a folder of the first
    and last kind after the source folder: its name, '_' and the sha1 of its path.
    preferred: only the first of these per source folder (the one numba will write to)."""
    folders = sorted({p.parent for p in root.rglob("*.py")})
    user = Path(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")) / "numba"
    base = os.environ.get("NUMBA_CACHE_DIR")
    out = []
    for folder in folders:
        sub = f"{folder.name}_{hashlib.sha1(str(folder).encode()).hexdigest()}"
        found = ([Path(base) / sub] if base else []) + [folder / "__pycache__", user / sub]
        out += found[:1] if preferred else found
    return out


def clear_stale_cache(root: Path = ENGINE) -> list[Path]:
    """Remove the compiled code (*.nbi, *.nbc) cached from root's sources when they changed
    since it was compiled, then stamp every cache folder with the sources' hash. Returns the
    files removed. A folder it cannot write to is left as it is (numba skips it too)."""
    digest = sources_hash(root)
    removed = []
    for folder in cache_dirs(root):
        stamp = folder / STAMP
        try:
            if stamp.read_text() == digest:
                continue
        except OSError:                      # no stamp (or no folder): compiled before this
            pass
        if not folder.is_dir():
            continue
        for path in [*folder.glob("*.nbi"), *folder.glob("*.nbc")]:
            try:
                path.unlink()
                removed.append(path)
            except OSError:                  # gone already (another process), or read-only
                pass
        try:                                 # written whole, then renamed: never half a stamp
            tmp = folder / f"{STAMP}.{os.getpid()}"
            tmp.write_text(digest)
            os.replace(tmp, stamp)
        except OSError:
            pass
    return removed


def _prepare_cache() -> None:
    """The folders numba will write to made now, so that the stamp check stamps them: else
    a first compile would create one unstamped, and the next process would throw its code
    away. Then the check."""
    if not JIT:
        return
    for folder in cache_dirs(preferred=True):
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError:
            pass
    clear_stale_cache()


_prepare_cache()

__all__ = ["JIT", "clear_stale_cache", "njit", "sources_hash"]
