"""The browser's code (``ui/browser/*.js``, ES modules) served by the app, and the loaders
that the Custom Components v2 elements run.

A v2 component's inline script runs from a ``blob:`` URL, from which no relative import
resolves, and Streamlit sends it again with every rerun of every session. So each element's
inline script is only a loader (``loader_js``): it imports the element's module once per page
from ``svmlab/<version>/<file>.js`` (relative to the page, like the Plotly URL, so that a
``server.baseUrlPath`` works), and that module imports the others with relative paths
(``import { isolines } from "./contours.js"``), which resolve under the same version.

The version is a hash of every file: a new release is a new address, cached by the browser
for good; a page of an older release that asks for its own version gets the current files,
not cached (``route``).
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from pathlib import Path

DIR = Path(__file__).resolve().parents[1] / "browser"
PREFIX = "svmlab"  # the route's first path segment (the fit endpoint is api/refit)
_IMPORT = re.compile(r'^import\s*\{[^}]*\}\s*from\s*"\./([\w.]+)";', re.M)


def sources() -> dict[str, str]:
    """Every module of ``ui/browser``: file name → text."""
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(DIR.glob("*.js"))}


def version(files: dict[str, str] | None = None) -> str:
    """12 hex digits of the SHA-1 of every module's name and text."""
    h = hashlib.sha1()
    for name, text in sorted((files if files is not None else sources()).items()):
        h.update(name.encode() + b"\0" + text.encode() + b"\0")
    return h.hexdigest()[:12]


def module_path(name: str, files: dict[str, str] | None = None) -> str:
    """Where the app serves module ``name``, relative to the page."""
    files = files if files is not None else sources()
    if name not in files:
        raise ValueError(f"no browser module {name!r} in {DIR}")
    return f"{PREFIX}/{version(files)}/{name}"


def imported_by(name: str, files: dict[str, str] | None = None) -> list[str]:
    """Every module that ``name`` imports, directly or not, sorted."""
    files = files if files is not None else sources()
    seen: set[str] = set()
    todo = [name]
    while todo:
        for dep in _IMPORT.findall(files[todo.pop()]):
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    return sorted(seen - {name})


def loader_js(name: str) -> str:
    """An element's inline script: imports module ``name`` once per page (cached by the
    browser for good: its address carries its version) and hands it each render, in order;
    a render whose element was unmounted before the module arrived is skipped, as Streamlit
    itself does. The module's own imports are preloaded at once (``modulepreload``): one
    round trip for all of them, not one per level of imports."""
    files = sources()
    path = module_path(name, files)
    base = json.dumps(path[: -len(name)])
    deps = json.dumps(imported_by(name, files), separators=(",", ":"))
    return (
        f"const base = new URL({base}, document.baseURI).href;\n"
        f"for (const f of {deps}) {{\n"
        "  const l = document.createElement('link');\n"
        "  l.rel = 'modulepreload';\n"
        "  l.href = base + f;\n"
        "  document.head.appendChild(l);\n"
        "}\n"
        f"const loading = import(base + {json.dumps(name)});\n"
        "export default function (component) {\n"
        "  let gone = false;\n"
        "  let cleanup = null;\n"
        "  loading.then((m) => { if (!gone) cleanup = m.default(component); });\n"
        "  return () => { gone = true; if (typeof cleanup === 'function') cleanup(); };\n"
        "}\n"
    )


def route(base_url_path: str = ""):
    """The starlette route that serves the modules (see app.py / ``fit_api.routes``):
    ``/<base>/svmlab/<version>/<file>.js``, only the files of ``ui/browser``."""
    from starlette.responses import PlainTextResponse, Response
    from starlette.routing import Route

    files = sources()
    current = version(files)

    async def serve(request):
        text = files.get(request.path_params["name"])
        if text is None:
            return PlainTextResponse("no such module", status_code=404)
        cache = ("public, max-age=31536000, immutable"
                 if request.path_params["version"] == current else "no-cache")
        return Response(text, media_type="text/javascript", headers={"Cache-Control": cache})

    base = "/".join(p for p in str(base_url_path or "").split("/") if p)
    path = f"/{PREFIX}/{{version}}/{{name}}"
    return Route(f"/{base}{path}" if base else path, serve, methods=["GET"])


@functools.cache
def element(name: str, entry: str, html: str = "", css: str = ""):
    """The Custom Components v2 element ``name`` whose script is module ``entry`` (its
    loader, ``loader_js``): registered with Streamlit once per process, on first use."""
    import streamlit as st

    extra = {"css": css} if css else {}
    return st.components.v2.component(name, html=html, js=loader_js(entry),
                                      isolate_styles=False, **extra)
