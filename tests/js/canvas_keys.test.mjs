// The Playground plot's keys (ui/browser/canvas_keys.js): a key event → the action, the
// cursor's steps, the table rows' keys. No DOM.
import assert from "node:assert/strict";
import { test } from "node:test";
import { PALETTE } from "../../ui/browser/palette.js";

import {
  cursorMarkup, keyAction, keySteps, ringMarkup, rowKey, startCursor, stepped,
} from "../../ui/browser/canvas_keys.js";

const key = (k, mods = {}) => ({ key: k, shiftKey: false, ctrlKey: false, metaKey: false,
  altKey: false, ...mods }); // prettier-ignore
const CURSOR = { focus: -1, n: 3 };
const ON_X2 = { focus: 1, n: 3 };

test("arrows move (the cursor or the focused point), Shift for a big step", () => {
  assert.deepEqual(keyAction(key("ArrowLeft"), CURSOR), { type: "move", dx: -1, dy: 0, big: false });
  assert.deepEqual(keyAction(key("ArrowUp", { shiftKey: true }), ON_X2),
    { type: "move", dx: 0, dy: 1, big: true }); // prettier-ignore
  assert.deepEqual(keyAction(key("ArrowDown"), CURSOR).dy, -1); // down is a smaller x2
  assert.deepEqual(keyAction(key("ArrowRight"), CURSOR).dx, 1);
});

test("Enter and Space add at the cursor; on a point they describe it; c switches the class", () => {
  assert.deepEqual(keyAction(key("Enter"), CURSOR), { type: "add" });
  assert.deepEqual(keyAction(key(" "), CURSOR), { type: "add" });
  assert.deepEqual(keyAction(key("Enter"), ON_X2), { type: "describe" });
  assert.deepEqual(keyAction(key("c"), CURSOR), { type: "class" });
  assert.deepEqual(keyAction(key("C", { shiftKey: true }), ON_X2), { type: "class" });
  assert.equal(keyAction(key("c", { ctrlKey: true }), CURSOR), null); // copy stays the browser's
});

test("Tab walks the cursor, then each point, and leaves the plot at either end", () => {
  assert.deepEqual(keyAction(key("Tab"), CURSOR), { type: "focus", index: 0 });
  assert.deepEqual(keyAction(key("Tab"), ON_X2), { type: "focus", index: 2 });
  assert.equal(keyAction(key("Tab"), { focus: 2, n: 3 }), null); // past the last: out
  assert.deepEqual(keyAction(key("Tab", { shiftKey: true }), { focus: 0, n: 3 }),
    { type: "focus", index: -1 }); // prettier-ignore
  assert.equal(keyAction(key("Tab", { shiftKey: true }), CURSOR), null); // back out
  assert.equal(keyAction(key("Tab"), { focus: -1, n: 0 }), null); // no points: Tab goes on
});

test("] and [ walk the points round without leaving; Escape goes back to the cursor", () => {
  assert.deepEqual(keyAction(key("]"), CURSOR), { type: "focus", index: 0 });
  assert.deepEqual(keyAction(key("]"), { focus: 2, n: 3 }), { type: "focus", index: -1 });
  assert.deepEqual(keyAction(key("["), CURSOR), { type: "focus", index: 2 });
  assert.deepEqual(keyAction(key("["), ON_X2), { type: "focus", index: 0 });
  assert.equal(keyAction(key("]"), { focus: -1, n: 0 }), null);
  assert.deepEqual(keyAction(key("Escape"), ON_X2), { type: "focus", index: -1 });
  assert.equal(keyAction(key("Escape"), CURSOR), null); // the page's (a dialog's) Escape
});

test("Delete and Backspace remove the focused point only; Ctrl+Z and ⌘Z undo", () => {
  assert.deepEqual(keyAction(key("Delete"), ON_X2), { type: "delete" });
  assert.deepEqual(keyAction(key("Backspace"), ON_X2), { type: "delete" });
  assert.equal(keyAction(key("Delete"), CURSOR), null);
  assert.equal(keyAction(key("Delete"), { focus: 5, n: 3 }), null); // a focus gone stale
  assert.deepEqual(keyAction(key("z", { ctrlKey: true }), CURSOR), { type: "undo" });
  assert.deepEqual(keyAction(key("z", { metaKey: true }), ON_X2), { type: "undo" });
  assert.equal(keyAction(key("z", { ctrlKey: true, shiftKey: true }), CURSOR), null); // redo
  assert.equal(keyAction(key("z"), CURSOR), null);
  assert.equal(keyAction(key("ArrowLeft", { altKey: true }), CURSOR), null); // history back
  assert.equal(keyAction(key("r"), CURSOR), null);
});

test("keySteps: a 50th and a 10th of the axis, rounded down to 1, 2 or 5 × 10^k", () => {
  assert.deepEqual(keySteps([-1, 6]), [0.1, 0.5]); // 0.14 → 0.1, 0.7 → 0.5
  assert.deepEqual(keySteps([0, 100]), [2, 10]);
  assert.deepEqual(keySteps([-0.003, 0.003]), [0.0001, 0.0005]);
  assert.deepEqual(keySteps([2, 2]), [1, 1]); // no span: still a step
});

test("stepped: on the step's grid, short numbers, kept inside the axis range", () => {
  assert.equal(stepped(0.5, 1, 0.1, [-1, 6]), 0.6); // not 0.6000000000000001
  assert.equal(stepped(0.55, -1, 0.1, [-1, 6]), 0.5); // off the grid: to it
  assert.equal(stepped(5.95, 1, 0.5, [-1, 6]), 6); // clamped at the edge
  assert.equal(stepped(-1, -1, 0.1, [-1, 6]), -1);
  assert.equal(stepped(3, 1, 2, [10, 0]), 4); // off the grid: the next grid point; reversed range
  assert.equal(stepped(3, -1, 2, [10, 0]), 2);
  assert.equal(stepped(0.30000000000000004, 1, 0.1, [0, 1]), 0.4);
  assert.deepEqual(startCursor([-1, 6], [0, 100]), [2.5, 50]);
});

test("rowKey: Enter or Space rings a row, arrows, Home and End move between rows", () => {
  assert.deepEqual(rowKey(key("Enter"), 2, 5), { toggle: true });
  assert.deepEqual(rowKey(key(" "), 2, 5), { toggle: true });
  assert.deepEqual(rowKey(key("ArrowDown"), 4, 5), { to: 4 });
  assert.deepEqual(rowKey(key("ArrowUp"), 0, 5), { to: 0 });
  assert.deepEqual(rowKey(key("ArrowDown"), 1, 5), { to: 2 });
  assert.deepEqual(rowKey(key("End"), 1, 5), { to: 4 });
  assert.deepEqual(rowKey(key("Home"), 3, 5), { to: 0 });
  assert.equal(rowKey(key("Tab"), 1, 5), null);
  assert.equal(rowKey(key("Enter", { ctrlKey: true }), 1, 5), null);
});

test("the cursor and the ring are dark marks on a white halo, where they are asked", () => {
  const c = cursorMarkup(10, 20);
  assert.match(c, /M-3,20H23M10,7V33/);
  assert.match(c, /stroke="#ffffff"/);
  assert.ok(c.includes(`stroke="${PALETTE.INK}"`)); // the palette's ink (ui/shared/palette.py)
  const r = ringMarkup(5, 6, 13);
  assert.equal(r.match(/cx="5" cy="6" r="13"/g).length, 2);
});
