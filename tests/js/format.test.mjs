// format.js: numbers as the pages print them. The expected texts are what the Python side
// prints for the same numbers (ui/shared/numbers.py fmt_num).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import {
  escapeHtml, fixed, fmt, MINUS, niceTicks, short, stripZeros, sub, tickText,
} from "../../ui/browser/format.js";

test("fmt prints as ui/shared/numbers.py fmt_num does (4 significant digits)", () => {
  const python = [
    [0.5, "0.5"],
    [1234, "1234"],
    [12340, "1.234·10⁴"],
    [0.0001, "0.0001"],
    [1.162e-5, "1.162·10⁻⁵"],
    [-2.5, "−2.5"],
    [1 / 3, "0.3333"],
    [0, "0"],
    [1e10, "1·10¹⁰"],
    [-3.2e-7, "−3.2·10⁻⁷"],
    [99999, "1·10⁵"],
  ];
  for (const [v, want] of python) assert.equal(fmt(v), want, String(v));
  assert.equal(fmt(1 / 3, 5), "0.33333");
  assert.equal(fmt(Infinity), "∞");
  assert.equal(fmt(-Infinity), MINUS + "∞");
  for (const none of [null, undefined, NaN]) assert.equal(fmt(none), "–");
});

// what Python prints for the same values (tests/js/format_cases.py writes the file; pytest
// tests/test_js_format_cases.py checks it is up to date): ties, ±0, ulps beside ties, exponent
// switches, huge and subnormal values, seeded random ones
const CASES = JSON.parse(readFileSync(new URL("format_cases.json", import.meta.url), "utf8"));
const value = (t) => (t === null ? null : Number(t));

function mismatches(print, key, column) {
  // "value, digits: got … want …" for every case where the browser prints differently
  const bad = [];
  for (const row of CASES.cases) {
    if (!row[column]) continue;
    CASES[key].forEach((d, k) => {
      const got = print(value(row[0]), d);
      if (got !== row[column][k]) bad.push(`${row[0]}, ${d}: got ${got}, want ${row[column][k]}`);
    });
  }
  return bad;
}

test("fmt prints every generated case as Python's fmt_num does", () => {
  assert.ok(CASES.cases.length > 400);
  assert.deepEqual(mismatches(fmt, "fmt_digits", 1), []);
});

test("fixed prints every generated case as Python's fmt_fixed does", () => {
  assert.deepEqual(mismatches(fixed, "fixed_decimals", 2), []);
});

test("short prints a coordinate as fmt_num(v) does, −0 as the 0 the server receives", () => {
  const col = CASES.fmt_digits.indexOf(4);
  const bad = CASES.cases.filter((r) => short(value(r[0])) !== r[1][col]);
  assert.deepEqual(bad.map((r) => r[0]), []);
  assert.equal(short(-0), "0");
  assert.equal(JSON.stringify([-0]), "[0]");
});

test("exact ties round half to even, as Python's format does", () => {
  assert.equal(fmt(1234.5), "1234");
  assert.equal(fmt(1235.5), "1236");
  assert.equal(fmt(2.5, 1), "2");
  assert.equal(fmt(9999.5), "1·10⁴");
  assert.equal(fixed(0.125, 2), "0.12");
  assert.equal(fixed(-0.125, 2), "−0.12");
  assert.equal(fixed(0.5, 0), "0");
  assert.equal(fixed(-0.5, 0), "0");
});

test("fmt(v, 3) writes the plots' ξ labels as ui/shared/slack_drawing.py does (fmt_num(v, 3))", () => {
  assert.equal(fmt(1.667, 3), "1.67");
  assert.equal(fmt(2.834, 3), "2.83");
  assert.equal(fmt(0.1234, 3), "0.123");
  assert.equal(fmt(2, 3), "2");
  assert.equal(fmt(-0.001, 3), MINUS + "0.001");
});

test("fixed keeps its decimals, with a real minus and no negative zero", () => {
  assert.equal(fixed(-1.5, 2), "−1.50");
  assert.equal(fixed(0.12345, 3), "0.123");
  assert.equal(fixed(-0.0001, 3), "0.000");
  for (const none of [null, undefined, NaN, Infinity]) assert.equal(fixed(none, 3), "");
});

test("short prints coordinates with 4 significant digits", () => {
  assert.equal(short(-3.14159), "−3.142");
  assert.equal(short(2), "2");
  assert.equal(short(0.000123456), "0.0001235");
  assert.equal(short(123456), "1.235·10⁵");
});

test("subscripts, trailing zeros, tick labels", () => {
  assert.equal(sub(12), "₁₂");
  assert.equal(sub("i"), "i");
  assert.equal(stripZeros("1.500"), "1.5");
  assert.equal(stripZeros("2.000"), "2");
  assert.equal(stripZeros("100"), "100");
  assert.equal(tickText(-0.30000000000000004), "−0.3");
  assert.equal(tickText(1234567), "1234570");
});

test("niceTicks: steps of 1, 2 or 5 × 10ᵏ inside the range, about as many as asked", () => {
  assert.deepEqual(niceTicks(0, 1, 5), [0, 0.2, 0.4, 0.6, 0.8, 1]);
  assert.deepEqual(niceTicks(-0.12, 1.12, 6), [0, 0.2, 0.4, 0.6, 0.8, 1]);
  assert.deepEqual(niceTicks(3, 3, 4), [3]);
  for (const [lo, hi, n] of [[1, 200, 8], [-7.3, 0.4, 4], [1e-6, 3e-6, 6], [0, 1.12e5, 4]]) {
    const t = niceTicks(lo, hi, n);
    assert.ok(t.length >= n / 2 && t.length <= 2 * n + 1, `${lo}..${hi}: ${t}`);
    assert.ok(t.every((v) => v >= lo - 1e-12 * Math.abs(hi - lo) && v <= hi + 1e-12 * Math.abs(hi - lo)));
    const step = t[1] - t[0];
    const m = step / 10 ** Math.floor(Math.log10(step));
    assert.ok([1, 2, 5, 10].some((s) => Math.abs(m - s) < 1e-9), `step ${step}`);
    t.forEach((v, i) => i && assert.ok(Math.abs(v - t[i - 1] - step) < 1e-9 * step));
  }
});

test("escapeHtml leaves no markup", () => {
  assert.equal(escapeHtml(`<img src=x onerror="a('&')">`),
    "&#60;img src=x onerror=&#34;a(&#39;&#38;&#39;)&#34;&#62;"); // prettier-ignore
  assert.equal(escapeHtml(3.5), "3.5");
});
