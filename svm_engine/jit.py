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

import hashlib
import json
import os
import re
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


#: `from <dots><module> import <names>` (names in parentheses may span lines)
_FROM = re.compile(r"^[ \t]*from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)",
                   re.MULTILINE)
#: `import <module> [as <name>], ...`
_IMPORT = re.compile(r"^[ \t]*import[ \t]+([^\n#;]*)", re.MULTILINE)


def _imports(text: str, rel: str, package: str, known: set[str]) -> set[str]:
    """The engine modules (of `known`, paths relative to the engine like "solvers/smo.py")
    that the source `text` of `rel` imports: `from .x import y` (x, or y if it is a module),
    `from . import y`, and the same written absolutely (`from svm_engine.x import y`). Read
    as text, not parsed: an import written in a string can only add a dependency, which
    costs a compile, never a stale one.

    Why a regex and not ``ast`` (measured on the engine's 44 files, 438 k chars):
    ``ast.walk(ast.parse(...))`` found the same imports but took 325 ms against 6 ms here,
    at every import of the engine (the whole check, ``module_hashes``, takes 16 ms);
    ``modulefinder`` compiles every file too. tests/test_engine_jit_cache.py checks the
    result against ``ast`` on every engine module."""
    out = set()
    here = rel.split("/")[:-1]
    for names in _IMPORT.findall(text):  # import svm_engine.x [as y]: the module x
        for w in names.split(","):
            parts = w.split()[0].split(".") if w.split() else []
            if parts and parts[0] == package:
                for f in ("/".join(parts[1:]) + ".py", "/".join([*parts[1:], "__init__.py"])):
                    if f in known:
                        out.add(f)
    for dots, module, names in _FROM.findall(text):
        parts = module.split(".") if module else []
        if dots:
            if len(dots) - 1 > len(here):
                continue
            base = here[:len(here) - (len(dots) - 1)]
        elif parts and parts[0] == package:
            base, parts = [], parts[1:]
        else:
            continue
        base = base + parts
        words = re.sub(r"#[^\n]*", "", names).strip("()").split(",")
        found = [base + [w.split()[0]] for w in words if w.split()] + ([base] if parts else [])
        for p in found:
            for f in ("/".join(p) + ".py", "/".join([*p, "__init__.py"])):
                if f in known:
                    out.add(f)
    return out


def module_hashes(root: Path = ENGINE) -> dict[Path, str]:
    """For every .py file under root: sha256 of its source and of the sources of every engine
    module it imports, directly or not (names and contents, in sorted order)."""
    files = {p.relative_to(root).as_posix(): p for p in root.rglob("*.py")}
    text = {r: p.read_bytes() for r, p in files.items()}
    digest = {r: hashlib.sha256(t).hexdigest() for r, t in text.items()}
    direct = {r: _imports(t.decode("utf-8", "replace"), r, root.name, set(files))
              for r, t in text.items()}
    out = {}
    for r in sorted(files):
        seen, todo = {r}, [r]
        while todo:
            for g in direct[todo.pop()] - seen:
                seen.add(g)
                todo.append(g)
        joined = "".join(f"{g} {digest[g]}\n" for g in sorted(seen))
        out[files[r]] = hashlib.sha256(joined.encode()).hexdigest()
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
