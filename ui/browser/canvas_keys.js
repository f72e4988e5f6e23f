// SVM Lab click canvas: the plot's keys (issue 28: the Playground by keyboard alone, as PhET
// does it). A key event → the action it asks for; the cursor's steps; the marks drawn for the
// cursor and the focused point. Pure: no DOM (canvas_keyboard.js binds it to the plot).
//
// The plot has one tab stop. In it, a cursor (focus = -1) or one point (focus = its index)
// has the keyboard: arrows move it (Shift: bigger steps), Enter or Space adds a point of the
// current class at the cursor, c switches that class, Tab / Shift+Tab walk the points (and
// leave the plot past the last one or before the cursor: no keyboard trap), ] and [ walk them
// round without leaving, Escape goes back to the cursor, Delete or Backspace removes the
// focused point, Ctrl+Z (⌘Z) undoes.

import { PALETTE } from "./palette.js";

const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };

export function keyAction(ev, ctx) {
  // ev: {key, shiftKey, ctrlKey, metaKey, altKey}; ctx: {focus, n} (n points). Returns null
  // for a key that is not the plot's (the browser keeps it), else {type, ...}:
  // move {dx, dy, big}, add, describe, class, focus {index}, delete, undo
  const { key } = ev;
  if (ev.altKey) return null;
  if (ev.ctrlKey || ev.metaKey) {
    return (key === "z" || key === "Z") && !ev.shiftKey ? { type: "undo" } : null;
  }
  const n = Math.max(0, ctx.n | 0);
  const focus = ctx.focus >= 0 && ctx.focus < n ? ctx.focus : -1;
  if (key in ARROWS) {
    const [dx, dy] = ARROWS[key];
    return { type: "move", dx, dy, big: !!ev.shiftKey };
  }
  switch (key) {
    case "Enter":
    case " ":
      return focus < 0 ? { type: "add" } : { type: "describe" };
    case "c":
    case "C":
      return { type: "class" };
    case "Tab": {
      const to = tabTo(focus, n, ev.shiftKey ? -1 : 1);
      return to === null ? null : { type: "focus", index: to };
    }
    case "]":
    case "[":
      return n ? { type: "focus", index: roundTo(focus, n, key === "]" ? 1 : -1) } : null;
    case "Escape":
      return focus >= 0 ? { type: "focus", index: -1 } : null;
    case "Delete":
    case "Backspace":
      return focus >= 0 ? { type: "delete" } : null;
    default:
      return null;
  }
}

function tabTo(focus, n, dir) {
  // the cursor, then the points in order; null: Tab leaves the plot (forward after the last
  // point, backward from the cursor)
  const to = focus + dir;
  if (to < -1 || to >= n) return null;
  return to;
}

function roundTo(focus, n, dir) {
  // ] and [: the cursor and the points in a ring
  return ((focus + 1 + dir + (n + 1)) % (n + 1)) - 1;
}

function niceFloor(v) {
  // the largest 1, 2 or 5 × 10ᵏ not above v
  const mag = Math.pow(10, Math.floor(Math.log10(v)));
  const f = v / mag;
  return Number(((f >= 5 ? 5 : f >= 2 ? 2 : 1) * mag).toPrecision(1)); // 1e-4, not 9.99…e-5
}

export function keySteps(range) {
  // [small, big] steps on an axis shown as range [lo, hi]: a 50th and a 10th of it, rounded
  // down to 1, 2 or 5 × 10ᵏ, so that the cursor's coordinates stay short numbers
  const span = Math.abs(range[1] - range[0]);
  if (!(span > 0) || !Number.isFinite(span)) return [1, 1];
  return [niceFloor(span / 50), niceFloor(span / 10)];
}

export function stepped(v, d, step, range) {
  // v moved d (±1, or 0: v itself) steps on the grid of multiples of `step`: to the next grid
  // point that way (v off the grid: the nearest one beyond it), kept inside range
  const lo = Math.min(range[0], range[1]);
  const hi = Math.max(range[0], range[1]);
  const k = v / step;
  const eps = 1e-9; // v on the grid but for rounding (0.30000000000000004 / 0.1)
  const to0 = (d > 0 ? Math.floor(k + eps) + d : d < 0 ? Math.ceil(k - eps) + d : Math.round(k));
  const to = Math.min(hi, Math.max(lo, to0 * step));
  return Number(to.toPrecision(12));
}

export function startCursor(xr, yr) {
  // the cursor's first place: the middle of the view, on the small steps' grid
  const at = (r) => stepped((r[0] + r[1]) / 2, 0, keySteps(r)[0], r);
  return [at(xr), at(yr)];
}

// The marks over the plot (SVG in canvas_overlay.js's layer): dark on a white halo, so they
// keep 3:1 against either class's shading and the points (WCAG 1.4.11)
const DARK = PALETTE.INK;

export function cursorMarkup(px, py) {
  const r = 13;
  const d = `M${px - r},${py}H${px + r}M${px},${py - r}V${py + r}`;
  return (
    `<path class="svmlab-cursor" d="${d}" stroke="#ffffff" stroke-width="6" fill="none"/>` +
    `<path d="${d}" stroke="${DARK}" stroke-width="2.5" fill="none"/>`
  );
}

export function ringMarkup(px, py, r) {
  return (
    `<circle class="svmlab-focus" cx="${px}" cy="${py}" r="${r}" fill="none" ` +
    `stroke="#ffffff" stroke-width="7"/>` +
    `<circle cx="${px}" cy="${py}" r="${r}" fill="none" stroke="${DARK}" stroke-width="3" ` +
    `stroke-dasharray="6 3"/>`
  );
}

export function rowKey(ev, i, n) {
  // the points table's rows by keyboard (one tab stop, the grid pattern): Enter or Space
  // rings the row's point ({toggle: true}), arrows, Home and End move to another row
  // ({to}); null: not the table's key
  if (ev.altKey || ev.ctrlKey || ev.metaKey || n < 1) return null;
  switch (ev.key) {
    case "Enter":
    case " ":
      return { toggle: true };
    case "ArrowDown":
      return { to: Math.min(i + 1, n - 1) };
    case "ArrowUp":
      return { to: Math.max(i - 1, 0) };
    case "Home":
      return { to: 0 };
    case "End":
      return { to: n - 1 };
    default:
      return null;
  }
}
