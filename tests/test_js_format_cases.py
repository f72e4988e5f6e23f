"""tests/js/format_cases.json, the texts the browser's format.js must print (node --test
tests/js/format.test.mjs), is what ui/shared/numbers.py prints now, and holds the cases that
tell half-to-even from half-up rounding."""

import importlib.util
import json
import math
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Context, Decimal, localcontext
from pathlib import Path

JS = Path(__file__).resolve().parent / "js"


def _generator():
    spec = importlib.util.spec_from_file_location("format_cases", JS / "format_cases.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_checked_in_cases_are_what_python_prints_now():
    gen = _generator()
    assert gen.OUT.read_text(encoding="utf-8") == gen.render(), (
        "tests/js/format_cases.json is stale: run .venv/bin/python tests/js/format_cases.py")


def _rounds_apart(x: Decimal, exponent: int) -> bool:
    """Whether half-up (toFixed, toExponential) and half-to-even (Python) round x apart at
    10^exponent: x is an exact tie whose kept digit is even."""
    q = Decimal(1).scaleb(exponent)
    with localcontext(Context(prec=800)):
        return x.quantize(q, ROUND_HALF_UP) != x.quantize(q, ROUND_HALF_EVEN)


def test_the_cases_hold_ties_that_half_up_rounding_prints_differently():
    data = json.loads((JS / "format_cases.json").read_text(encoding="utf-8"))
    xs = [Decimal(float(row[0])) for row in data["cases"]
          if row[0] is not None and math.isfinite(float(row[0])) and float(row[0]) != 0]
    sig = sum(_rounds_apart(x, x.adjusted() - p + 1) for x in xs for p in data["fmt_digits"])
    fixed = sum(_rounds_apart(x, -d) for x in xs for d in data["fixed_decimals"])
    assert sig >= 50 and fixed >= 50, (sig, fixed)
    texts = [row[0] for row in data["cases"]]
    assert {"-0.0", "9999.5", "1234.5", "-0.125"} <= set(texts)
