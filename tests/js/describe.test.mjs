// describe.js: the Playground's picture in words from the fit endpoint's answer. The expected
// texts are Python's (ui/shared/describe.py) for the same fits: tests/js/describe_cases.json,
// written by tests/js/describe_cases.py.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { describeAnswer, pointNames, supportIndices } from "../../ui/browser/describe.js";

const CASES = JSON.parse(readFileSync(new URL("describe_cases.json", import.meta.url), "utf8"));

test("describeAnswer says what Python's describe_model says of the same fit", () => {
  assert.ok(CASES.cases.length >= 5);
  for (const c of CASES.cases) {
    const got = describeAnswer({ points: c.points, ans: c.ans, kernel: c.kernel, table: c.table,
      where: c.where }); // prettier-ignore
    assert.equal(got, c.want, c.name);
  }
});

test("the words change with the answer: margin and support vectors from its numbers", () => {
  const c = CASES.cases.find((k) => k.name === "d1 linear");
  const ans = structuredClone(c.ans);
  ans.panel = ans.panel.map(([k, v]) => [k, k === "margin 1/‖w‖" ? "0.5" : v]);
  ans.free = [0, 5];
  const got = describeAnswer({ points: c.points, ans, kernel: c.kernel });
  assert.match(got, /Margin 0\.5; support vectors x1, x6; no slack\.$/);
  assert.doesNotMatch(got, /table/); // no table: no sentence about one
});

test("points without a model, and a panel the teacher hides", () => {
  const pts = [[0, 0, 1], [1, 1, -1], [2, 2, 1]];
  assert.equal(describeAnswer({ points: pts, ans: null }),
    "3 points: 2 of class +1 (circles), 1 of class −1 (squares)."); // prettier-ignore
  assert.equal(describeAnswer({ points: pts, ans: { ok: true } }),
    "3 points: 2 of class +1 (circles), 1 of class −1 (squares)."); // prettier-ignore
  assert.match(describeAnswer({ points: pts, ans: { ok: false, message: "too slow" } }),
    /\. No model: too slow$/); // prettier-ignore
});

test("names: 1-based, at most twelve, the support vectors sorted", () => {
  assert.equal(pointNames([0, 3, 12]), "x1, x4, x13");
  const many = Array.from({ length: 15 }, (_, i) => i);
  assert.match(pointNames(many), /x12 and 3 more$/);
  assert.deepEqual(supportIndices({ free: [4, 0], bound: [2] }), [0, 2, 4]);
  assert.deepEqual(supportIndices({}), []);
});
