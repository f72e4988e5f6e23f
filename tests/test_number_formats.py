"""One number formatter in practice (issue 17): every number a student reads is printed by
ui/shared/numbers.py, so that it has a real minus sign and 1.5·10⁻⁵ on every page. This scan
fails on a new format spec of its own in ui/ or pages/ (an f-string's ``:.4f``, ``:g``,
``"%.2f" % v``, ``"{:.3f}".format(v)``, ``format(v, ".3f")``), naming the file and line.

What it lets through, each for a reason:

- RULES: kinds of spec that do not print a quantity the way numbers.py would (see RULES);
- Plotly's ``%{y:.4g}`` and Streamlit's ``NumberColumn(format="%.4f")`` are read by the
  browser, not by Python (numbers.py's docstring says why they stay);
- ALLOWED: single specs, by file, that print something that is not a quantity.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.source_ast import nodes

ROOT = Path(__file__).resolve().parents[1]
FORMATTER = "ui/shared/numbers.py"

#: Python's format-spec mini-language: [[fill]align][sign][z][#][0][width][grouping][.prec][type]
SPEC = re.compile(r"(?:.?[<>=^])?(?P<sign>[-+ ]?)z?#?0?\d*(?P<group>[,_]?)"
                  r"(?:\.(?P<prec>\d+))?(?P<type>[bcdeEfFgGnosxX%]?)")
#: a printf conversion of a number ("%.4f", "%d", "%.1e"); "%{y:.4g}" is Plotly's, not this
PRINTF = re.compile(r"%[-+0#]*\d*(?:\.\d+)?[dieEfFgG]")
#: numpy's own number-to-text functions
NUMPY_TEXT = {"format_float_positional", "format_float_scientific", "array2string",
              "array_str", "array_repr", "set_printoptions"}

RULES = {
    ",": "an integer count (points, iterations, bytes) with thousands separators: it has no "
         "sign and no exponent, and every page writes counts this way",
}
ALLOWED = {
    ("ui/data/io_table.py", ".15g"): "a class label read from the user's file, shown as the "
                                     "file writes it (1 for 1.0): an identifier, not a quantity",
}


def _spec_text(node: ast.JoinedStr) -> str:
    """An f-string's format spec, with a nested field ({digits}) as a digit."""
    return "".join(v.value if isinstance(v, ast.Constant) else "9" for v in node.values)


def _numeric(spec: str) -> bool:
    m = SPEC.fullmatch(spec)
    if m is None:
        return True             # a spec this scan cannot read: look at it
    return bool(m["sign"] or m["group"] or m["prec"] or m["type"] not in ("", "s"))


def _browser_formats(source: str) -> set[int]:
    """The string constants passed as format= to a Streamlit column (…Column(format=…))."""
    out = set()
    for node in nodes(source):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
            if name.endswith("Column"):
                out |= {id(k.value) for k in node.keywords
                        if k.arg == "format" and isinstance(k.value, ast.Constant)}
    return out


def inline_formats(source: str) -> list[tuple[int, str]]:
    """(line, spec) for every number formatted in ``source`` without numbers.py."""
    browser = _browser_formats(source)
    found = []
    for node in nodes(source):
        if isinstance(node, ast.FormattedValue) and node.format_spec is not None:
            spec = _spec_text(node.format_spec)
            if node.conversion == -1 and _numeric(spec):    # !r:.40 cuts a text: not a number
                found.append((node.lineno, spec))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in browser:
                found += [(node.lineno, m.group()) for m in PRINTF.finditer(node.value)]
        elif isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Attribute) and f.attr == "format" and \
                    isinstance(f.value, ast.Constant) and isinstance(f.value.value, str):
                found += [(node.lineno, s) for s in re.findall(r"\{[^{}:]*:([^{}]*)\}",
                                                                f.value.value) if _numeric(s)]
            elif isinstance(f, ast.Name) and f.id == "format" and len(node.args) == 2:
                found.append((node.lineno, ast.unparse(node.args[1])))
            elif isinstance(f, ast.Attribute) and f.attr in NUMPY_TEXT:
                found.append((node.lineno, f.attr))
    return sorted(found)


def scan() -> list[tuple[str, int, str]]:
    out = []
    for folder in ("ui", "pages"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel != FORMATTER:
                out += [(rel, line, spec) for line, spec in inline_formats(path.read_text())]
    return out


def test_every_number_in_ui_and_pages_is_printed_by_numbers_py():
    found = scan()
    new = [f"{path}:{line}: {spec!r}" for path, line, spec in found
           if spec not in RULES and (path, spec) not in ALLOWED]
    assert not new, ("format these numbers with ui/shared/numbers.py (fmt_num, fmt_setting, "
                     "fmt_fixed, fmt_pct, …), or add the spec to ALLOWED with the reason it "
                     "is not a quantity:\n" + "\n".join(new))
    used = {(path, spec) for path, _, spec in found}
    assert not set(ALLOWED) - used, f"stale ALLOWED entries: {set(ALLOWED) - used}"


@pytest.mark.parametrize("source, expected", [
    ('f"{v:.4f}"', [(1, ".4f")]),
    ('f"C = {C:g} s"', [(1, "g")]),
    ('f"{v:.{digits}f}"', [(1, ".9f")]),
    ('f"{n:,} points"', [(1, ",")]),                     # found; RULES lets it through
    ('f"{v:+}"', [(1, "+")]),
    ('"%.2f ms" % t', [(1, "%.2f")]),
    ('"{:.3g} and {}".format(a, b)', [(1, ".3g")]),
    ('format(v, ".1e")', [(1, "'.1e'")]),
    ('np.format_float_positional(v)', [(1, "format_float_positional")]),
    # not numbers formatted in Python
    ('f"{name:>10}"', []), ('f"{text!r:.40}"', []), ('f"{v}"', []),
    ('"x = %{y:.4g}<extra></extra>"', []),              # Plotly formats it in the browser
    ('f"%{{x:.3g}} {unit}"', []),
    ('NumberColumn(format="%.4f")', []),                 # Streamlit formats it in the browser
    ('"95 % of the points"', []), ('"{x}".format(x=1)', []),
])
def test_the_scan_finds_what_it_should(source, expected):
    assert inline_formats(source) == expected
