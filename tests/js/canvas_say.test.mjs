// The live region's sentence after each change (ui/browser/canvas_say.js), from the answer
// the numbers panel and the table show. No DOM.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  classSentence, cursorSentence, editSentence, pointSentence, supportCount,
} from "../../ui/browser/canvas_say.js";

const points = [[1, 2, 1], [4, 4, 1], [3, 2, -1]];
const ans = {
  ok: true, message: "", xi: [0, 0, 0.8312],
  category: ["margin SV", "non-SV", "inside margin"],
  panel: [["b", "−3.333"], ["support vectors", "4 (3 free, 1 bound)"], ["time", "1 ms"]],
}; // prettier-ignore

test("an added point: where it fell, its slack as the table prints it, the SV count", () => {
  assert.equal(editSentence({ kind: "add", index: 2 }, ans, points),
    "Added x3 (3, 2), class −1: inside the margin, ξ = 0.831; 4 support vectors.");
  assert.equal(editSentence({ kind: "add", index: 0 }, ans, points),
    "Added x1 (1, 2), class +1: a support vector on the margin; 4 support vectors."); // no ξ
});

test("moved, removed, undone, cleared", () => {
  const moved = [[1.5, 2.25, 1], ...points.slice(1)];
  assert.equal(editSentence({ kind: "move", index: 0 }, ans, moved),
    "Moved x1 to (1.5, 2.25): a support vector on the margin; 4 support vectors.");
  const one = { ...ans, panel: [["support vectors", "1 (1 free, 0 bound)"]] };
  assert.equal(editSentence({ kind: "remove", index: 1, point: [-0.5, 7, -1] }, one, points),
    "Removed x2 (−0.5, 7), class −1; 3 points left; 1 support vector.");
  assert.equal(editSentence({ kind: "undo" }, ans, points), "Undone: 3 points; 4 support vectors.");
  assert.equal(editSentence({ kind: "clear" }, null, []), "Cleared: no points.");
});

test("no model: why, in a few words; a warning says where to look", () => {
  const two = { ok: false, kind: "need_two_classes", message: "only one class" };
  assert.equal(editSentence({ kind: "add", index: 0 }, two, [[1, 2, 1]]),
    "Added x1 (1, 2), class +1; no model yet: add points of both classes.");
  const sep = { ok: false, kind: "not_separable", message: "No hard margin exists. Try C." };
  assert.equal(editSentence({ kind: "undo" }, sep, points),
    "Undone: 3 points; no model: No hard margin exists.");
  assert.match(editSentence({ kind: "add", index: 2 }, { ...ans, message: "not converged" }, points),
    /4 support vectors; not converged: see the numbers\.$/); // prettier-ignore
});

test("what a teacher hides is not said: no numbers, no table", () => {
  assert.equal(editSentence({ kind: "add", index: 2 }, null, points), "Added x3 (3, 2), class −1.");
  const { category, xi, ...noTable } = ans; // eslint-disable-line no-unused-vars
  assert.equal(editSentence({ kind: "add", index: 2 }, noTable, points),
    "Added x3 (3, 2), class −1; 4 support vectors.");
  assert.equal(supportCount({ ok: true }), null);
  assert.equal(supportCount(ans), 4);
});

test("the keyboard's place: a point's row in words, the cursor's side, the class to add", () => {
  assert.equal(pointSentence(1, points, ans),
    "x2 (4, 4), class +1: beyond the margin. Arrows move it, Delete removes it, Escape goes " +
    "back to the cursor."); // prettier-ignore
  assert.match(pointSentence(1, points, null), /^x2 \(4, 4\), class \+1\. Arrows/);
  assert.equal(cursorSentence(2.5, -0.1, null), "Cursor (2.5, −0.1).");
  assert.equal(cursorSentence(2.5, 3, 0.4), "Cursor (2.5, 3), class +1 side, inside the margin.");
  assert.equal(cursorSentence(0, 3, -2), "Cursor (0, 3), class −1 side, beyond the margin.");
  assert.equal(classSentence(-1), "Enter adds class −1 (squares).");
  assert.equal(classSentence(1), "Enter adds class +1 (circles).");
});
