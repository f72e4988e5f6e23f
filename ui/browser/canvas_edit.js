// SVM Lab click canvas: pointer input (Pointer Events for mouse, pen and touch alike) and the
// edits it makes: add, delete, drag, undo, clear (the keyboard's: canvas_keyboard.js). Each
// edit is committed: a refit request, a sync scheduled, the overlay redrawn, and what it was
// kept (st.told) for the sentence the live region says with its answer (canvas_say.js).

import { requestRefit } from "./canvas_endpoint.js";
import { HIT_PX, hitTest, inside, plotArea, roundTo, toData } from "./canvas_geometry.js";
import { showOverlay } from "./canvas_overlay.js";
import { shownTitle } from "./canvas_panels.js";
import { setStatus } from "./canvas_status.js";
import { scheduleSync, sendPoints, useEndpoint } from "./canvas_sync.js";

const CLICK_SLOP_PX = 5; // a press that moves less than this is a click
const TOUCH_SLOP_PX = 10; // the same for a finger, which covers more and wobbles more
const TOUCH_HIT_PX = 18;
const UNDO_MAX = 200;

function pushUndo(st) {
  st.undo.push(st.points.map((p) => p.slice()));
  if (st.undo.length > UNDO_MAX) st.undo.shift();
}

function commit(st, t0, edit) {
  st.seq += 1;
  st.told = Object.assign({ seq: st.seq }, edit);
  st.edited = true; // the title says so with this edit's answer (renderNumbers)
  st.title = shownTitle(st.pageTitle, true);
  st.pending.set(st.seq, t0);
  st.pendingFull.set(st.seq, t0);
  st.lastEdit = performance.now();
  clearTimeout(st.fullTimer);
  if (useEndpoint(st)) requestRefit(st);
  scheduleSync(st);
  setStatus(st, st.busyText);
  showOverlay(st, t0);
}

export function addPoint(st, x, y, label, t0) {
  if (st.points.length >= st.maxPoints) {
    setStatus(st, `At most ${st.maxPoints} points.`, true);
    return;
  }
  pushUndo(st);
  st.points.push([x, y, label]);
  commit(st, t0, { kind: "add", index: st.points.length - 1 });
}

export function movePoint(st, i, x, y) {
  pushUndo(st);
  st.points[i][0] = x;
  st.points[i][1] = y;
  commit(st, performance.now(), { kind: "move", index: i });
}

export function removePoint(st, i, t0) {
  pushUndo(st);
  const [point] = st.points.splice(i, 1);
  commit(st, t0, { kind: "remove", index: i, point });
}

export function undo(st) {
  if (!st.undo.length) {
    // the canvas's own edits are all undone: the session brings back what it replaced
    // (points and settings), and the new payload follows
    if (!st.canUndo || !st.setStateValue) return;
    st.canUndo = false;
    sendPoints(st, true, { undo: true });
    return;
  }
  st.points = st.undo.pop();
  commit(st, performance.now(), { kind: "undo" });
}

export function clearAll(st) {
  if (!st.points.length) return;
  pushUndo(st);
  st.points = [];
  commit(st, performance.now(), { kind: "clear" });
}

export function onHover(st, ev) {
  if (st.drag || st.down || ev.pointerType === "touch") return;
  const area = plotArea(st);
  if (!area || !inside(area, ev.clientX, ev.clientY)) {
    st.root.classList.remove("over-point");
    return;
  }
  st.root.classList.toggle("over-point", hitTest(st, area, ev.clientX, ev.clientY) >= 0);
}

function panMode(st) {
  // the Pan tool of Plotly's toolbar is on: one finger pans the plot
  const fl = st.plot._fullLayout;
  return !!fl && fl.dragmode === "pan";
}

export function onTouchStart(st, ev) {
  // Plotly's drag layer takes every touch it sees and preventDefaults it, so a swipe over the
  // plot could not scroll the page: keep touches from it (but for its toolbar and its Pan
  // tool). A touch that started on a point (onDown ran first) drags it: no scroll then.
  if (ev.target.closest && ev.target.closest(".modebar")) return;
  if (st.drag) {
    ev.preventDefault();
    ev.stopPropagation();
  } else if (!panMode(st)) {
    ev.stopPropagation();
  }
}

export function onWheel(ev) {
  // a plain wheel scrolls the page: keep it from Plotly's scrollZoom; ctrl/⌘ + wheel (and a
  // trackpad pinch, which browsers send as ctrl + wheel) reaches Plotly, which zooms
  if (!ev.ctrlKey && !ev.metaKey) ev.stopPropagation();
}

export function stopTracking(st) {
  window.removeEventListener("pointermove", st.onMove, true);
  window.removeEventListener("pointerup", st.onUp, true);
  window.removeEventListener("pointercancel", st.onCancel, true);
}

export function onDown(st, ev) {
  if (!ev.isPrimary || ev.button !== 0 || !st.drawn || st.locked) return; // locked: zoom, pan
  if (ev.target.closest && ev.target.closest(".modebar")) return;
  const area = plotArea(st);
  if (!area || !inside(area, ev.clientX, ev.clientY)) return; // axes etc.: Plotly's
  const touch = ev.pointerType === "touch";
  const hit = hitTest(st, area, ev.clientX, ev.clientY, touch ? TOUCH_HIT_PX : HIT_PX);
  const [x, y] = toData(area, ev.clientX, ev.clientY);
  const shift = ev.shiftKey;
  st.down = { id: ev.pointerId, touch, cx: ev.clientX, cy: ev.clientY, x, y, shift, hit, area };
  stopTracking(st);
  if (hit >= 0) {
    // the press is ours (delete or drag): cancelling it stops the compatibility mousedown,
    // so Plotly does not start a zoom box
    ev.stopPropagation();
    ev.preventDefault();
    st.drag = { index: hit, moved: false, before: st.points.map((p) => p.slice()) };
    try {
      st.plot.setPointerCapture(ev.pointerId); // the drag goes on outside the plot
    } catch (e) {
      /* a synthetic event has no active pointer */
    }
    window.addEventListener("pointermove", st.onMove, true);
  } else if (touch) {
    ev.preventDefault(); // a tap is ours: no compatibility mouse events for Plotly
  }
  window.addEventListener("pointerup", st.onUp, true);
  window.addEventListener("pointercancel", st.onCancel, true);
}

export function onMove(st, ev) {
  const d = st.down;
  if (!d || !st.drag || ev.pointerId !== d.id) return;
  const dist = Math.hypot(ev.clientX - d.cx, ev.clientY - d.cy);
  if (!st.drag.moved && dist < (d.touch ? TOUCH_SLOP_PX : CLICK_SLOP_PX)) return;
  st.drag.moved = true;
  const { rect } = d.area;
  const cx = Math.min(Math.max(ev.clientX, rect.left), rect.left + rect.width);
  const cy = Math.min(Math.max(ev.clientY, rect.top), rect.top + rect.height);
  const [x, y] = toData(d.area, cx, cy);
  const p = st.points[st.drag.index];
  p[0] = x;
  p[1] = y;
  ev.preventDefault();
  ev.stopPropagation();
  if (!st.rafPending) {
    st.rafPending = true;
    requestAnimationFrame(() => {
      st.rafPending = false;
      showOverlay(st, null);
    });
  }
}

export function onCancel(st, ev) {
  // the browser took the pointer (it scrolls or zooms the page): no click; a point already
  // dragged stays where it is now
  const d = st.down;
  if (!d || ev.pointerId !== d.id) return;
  if (st.drag && st.drag.moved) {
    onUp(st, ev);
    return;
  }
  stopTracking(st);
  st.down = null;
  st.drag = null;
}

export function onUp(st, ev) {
  const d = st.down;
  if (d && ev.pointerId !== d.id) return; // another finger
  stopTracking(st);
  st.down = null;
  if (!d) return;
  const drag = st.drag;
  st.drag = null;
  const tClick = performance.now(); // latency is measured from the click (button released)
  const xs = d.area.xr[1] - d.area.xr[0];
  const ys = d.area.yr[1] - d.area.yr[0];
  if (drag) {
    if (drag.moved) {
      const p = st.points[drag.index];
      p[0] = roundTo(p[0], xs);
      p[1] = roundTo(p[1], ys);
      st.undo.push(drag.before);
      if (st.undo.length > UNDO_MAX) st.undo.shift();
      commit(st, tClick, { kind: "move", index: drag.index });
    } else {
      removePoint(st, drag.index, tClick);
    }
    return;
  }
  const slop = d.touch ? TOUCH_SLOP_PX : CLICK_SLOP_PX;
  if (Math.hypot(ev.clientX - d.cx, ev.clientY - d.cy) >= slop) return; // a zoom box, a swipe
  const label = d.shift ? -st.cls : st.cls;
  addPoint(st, roundTo(d.x, xs), roundTo(d.y, ys), label, tClick);
}
