"""Each source text parsed and walked once per test process. Several tests scan every Python
file of the project (the imports it declares, Streamlit's private names, number formats, the
ui/ layers): each parsed them again (~960 parses and walks, ~7 s of the suite's CPU). The
trees are shared, so a scan must not change them."""

from __future__ import annotations

import ast
import functools
from pathlib import Path


@functools.cache
def parsed(source: str) -> ast.Module:
    return ast.parse(source)


@functools.cache
def nodes(source: str) -> tuple[ast.AST, ...]:
    """Every node of the source's tree, in ast.walk's order."""
    return tuple(ast.walk(parsed(source)))


def file_nodes(path: Path) -> tuple[ast.AST, ...]:
    return nodes(path.read_text(encoding="utf-8"))
