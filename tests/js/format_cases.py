"""The expected texts of tests/js/format.test.mjs, printed by Python: what ui/shared/numbers.py
(fmt_num, fmt_fixed) prints for edge cases and seeded random values. Writes
tests/js/format_cases.json; tests/test_js_format_cases.py fails when that file is stale.

    .venv/bin/python tests/js/format_cases.py     # after a change to ui/shared/numbers.py

A value travels as its repr (the shortest text that reads back as the same double in Python
and in JavaScript); "Infinity", "-Infinity", "NaN" and null as JavaScript's Number reads them.
"""

from __future__ import annotations

import json
import math
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from ui.shared.numbers import fmt_fixed, fmt_num  # noqa: E402

OUT = Path(__file__).with_name("format_cases.json")
FMT_DIGITS = [1, 2, 3, 4, 5, 6, 7, 8, 10]  # the pages use 3, 4, 5, 6 and 8
FIXED_DECIMALS = [0, 1, 2, 3, 4, 5, 6]  # the pages use 3 and 4

EDGES = [
    0.0, 1.0, 7.0, 42.0, 1000.0, 12345.0, 99999.0, 100000.0, 123456.0, 2.0**53, 2.0**53 + 2,
    1e15, 1e21, 1e22, 1.7976931348623157e308, 5e-324, 2.2250738585072014e-308, 1 / 3, 2 / 3,
    0.1 + 0.2, 0.15, 0.25, 0.35, 1.005, 2.675, 1e-7, 1.162e-5, 3.2e-7,
    # where 'g' switches to an exponent, before and after rounding
    0.0001, 0.00012345, 9.9995e-5, 9.99949e-5, 1e-5, 1.00005e-5, 9999.4999, 999999.0,
]
# exact ties: a decimal ending in 5 one place past the kept digits
TIES = [
    0.5, 1.5, 2.5, 3.5, 9.5, 0.125, 0.375, 0.0625, 0.03125, 0.0009765625, 1234.5, 1235.5,
    9998.5, 9999.5, 99999.5, 999999.5, 125.0, 135.0, 1234500000.0, 2.5e20,
]


def _ties(rng: random.Random) -> list[float]:
    """Random exact ties: a/2^j (odd a) has j decimals, the last a 5; N·10^k, N ending in 5."""
    out = []
    for _ in range(40):
        j = rng.randint(1, 7)
        out.append(rng.randrange(1, 2**j * rng.choice([1, 10, 1000]), 2) / 2**j)
    for _ in range(10):
        n = rng.randrange(10 ** rng.randint(0, 4)) * 10 + 5
        out.append(float(n * 10 ** rng.randint(0, 8)))
    return out


def values() -> list[float | None]:
    """Edges and ties with both signs; one ulp either side of each tie and seeded random
    values with a random sign; None, ±∞, NaN."""
    rng = random.Random(20261124)
    ties = TIES + _ties(rng)
    near = [math.nextafter(t, d) for t in ties for d in (-math.inf, math.inf)]
    rand = [rng.uniform(1, 10) * 10.0 ** rng.randint(-12, 12) for _ in range(100)]
    rand += [round(rng.uniform(0, 50), rng.randint(0, 4)) for _ in range(30)]
    both = [v for x in EDGES + ties for v in (x, -x)]
    one = [x * rng.choice((-1, 1)) for x in near + rand]
    unique = {repr(v): v for v in both + one}  # by repr: 0.0 == -0.0, and both are cases
    return [None, math.inf, -math.inf, math.nan] + list(unique.values())


def _text(v: float | None) -> str | None:
    if v is None:
        return None
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "Infinity" if v > 0 else "-Infinity"
    return repr(v)


def cases() -> list[list]:
    """[value, [fmt_num at each FMT_DIGITS], [fmt_fixed at each FIXED_DECIMALS] or None (not a
    finite number: the browser's table leaves the cell empty)]."""
    rows = []
    for v in values():
        finite = v is not None and math.isfinite(v)
        rows.append([
            _text(v),
            [fmt_num(v, d) for d in FMT_DIGITS],
            [fmt_fixed(v, d) for d in FIXED_DECIMALS] if finite else None,
        ])
    return rows


def render() -> str:
    """The JSON file's text: one value a line, so a change shows as a readable diff."""
    head = json.dumps({"fmt_digits": FMT_DIGITS, "fixed_decimals": FIXED_DECIMALS})[:-1]
    lines = [json.dumps(row, ensure_ascii=False) for row in cases()]
    return head + ', "cases": [\n' + ",\n".join(lines) + "\n]}\n"


if __name__ == "__main__":
    OUT.write_text(render(), encoding="utf-8")
    print(f"{OUT.relative_to(ROOT)}: {len(cases())} values")
