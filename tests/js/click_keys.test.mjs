// click_keys.js: the click plot's keys (arrows move a cursor, Shift in bigger steps, Enter or
// Space adds a point), the cursor's moves inside the visible ranges, the announced words.
import assert from "node:assert/strict";
import { test } from "node:test";

import { cursorWords, KEYS_LABEL, moveCursor, plotKey, startCursor, STEPS } from "../../ui/browser/click_keys.js";
import { fmt } from "../../ui/browser/format.js";

const close = (a, b) => assert.ok(Math.abs(a - b) < 1e-12, `${a} ≠ ${b}`);

test("plotKey: arrows move (Shift: big), Enter and Space add, modifiers and others pass", () => {
  assert.deepEqual(plotKey({ key: "ArrowRight" }), { move: [1, 0], big: false });
  assert.deepEqual(plotKey({ key: "ArrowLeft", shiftKey: true }), { move: [-1, 0], big: true });
  assert.deepEqual(plotKey({ key: "ArrowUp" }), { move: [0, 1], big: false });
  assert.deepEqual(plotKey({ key: "ArrowDown" }), { move: [0, -1], big: false });
  assert.deepEqual(plotKey({ key: "Enter" }), { add: true });
  assert.deepEqual(plotKey({ key: " " }), { add: true });
  for (const key of ["Tab", "a", "Escape", "Home"]) assert.equal(plotKey({ key }), null, key);
  for (const m of ["ctrlKey", "metaKey", "altKey"]) assert.equal(plotKey({ key: "ArrowUp", [m]: true }), null, m);
  assert.match(KEYS_LABEL, /arrow keys.*Shift.*Enter or Space/);
});

test("the cursor: starts in the middle, steps 1/STEPS of the range (Shift ×10), stays inside", () => {
  const xr = [-2, 6];
  const yr = [1, -3]; // a reversed axis still clamps
  const c = startCursor(xr, yr);
  assert.deepEqual(c, { x: 2, y: -1 });
  const r = moveCursor(c, [1, 0], false, xr, yr);
  close(r.x, 2 + 8 / STEPS);
  close(r.y, -1);
  const up = moveCursor(c, [0, 1], true, xr, yr);
  close(up.y, -1 + (10 * 4) / STEPS);
  let far = c;
  for (let i = 0; i < 3 * STEPS; i++) far = moveCursor(far, [1, -1], true, xr, yr);
  assert.deepEqual(far, { x: 6, y: -3 });
  // a zoom that leaves the cursor outside brings it back in without a move
  assert.deepEqual(moveCursor({ x: 10, y: 0 }, [0, 0], false, [0, 1], [0, 1]), { x: 1, y: 0 });
});

test("cursorWords: the axes' names and 3 significant digits as format.js prints them", () => {
  assert.equal(cursorWords({ x: -1.23456, y: 0.5 }, ["x1", "x2"], false), `Cursor at x1 = ${fmt(-1.23456, 3)}, x2 = 0.5.`);
  assert.equal(cursorWords({ x: 2, y: 1e-5 }, ["x", "t"], true), "Adding a point at x = 2, t = 1·10⁻⁵.");
});
