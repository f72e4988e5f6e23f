// SVM Lab click canvas: the plot and the points table by keyboard (issue 28, as PhET's
// simulations do it). The plot (.svmlab-plotwrap) is one tab stop; canvas_keys.js reads each
// key, this module acts on the canvas's state, has canvas_overlay.js draw the cursor or the
// focused point's ring, and says where the keyboard is (the live region, canvas_say.js).
// Keys act only while the plot (or a table row) has focus: the listeners are on them, never
// on document.

import { addPoint, movePoint, removePoint, undo } from "./canvas_edit.js";
import { plotArea } from "./canvas_geometry.js";
import { keyAction, keySteps, rowKey, startCursor, stepped } from "./canvas_keys.js";
import { showHighlight, toggleRow } from "./canvas_overlay.js";
import { classSentence, cursorSentence, pointSentence } from "./canvas_say.js";
import { say, updateAttrs } from "./canvas_status.js";

const LOCKED = "The points are locked by your teacher: you can still walk them and move the cursor.";

export function bindKeys(st, on, setClass) {
  st.kbd = { on: false, focus: -1, x: null, y: null };
  const el = st.wrap;
  // the crosshair shows for the keyboard only (a mouse click focuses the plot too)
  on(el, "focus", () => el.matches(":focus-visible") && show(st, true));
  on(el, "blur", () => show(st, false));
  on(el, "keydown", (ev) => ev.target === el && onKey(st, ev, setClass));
  on(st.tableEl, "keydown", (ev) => onRowKey(st, ev));
}

function show(st, on) {
  const k = st.kbd;
  const area = plotArea(st);
  if (on && k.x == null && area) [k.x, k.y] = startCursor(area.xr, area.yr);
  if (k.on === on) return;
  k.on = on;
  showHighlight(st);
}

function shownAnswer(st) {
  // the answer on screen when it is for the points as they are now (its rows match them)
  const R = st.refit;
  return R && R.seq === st.seq && R.points.length === st.points.length ? R.ans : null;
}

function onKey(st, ev, setClass) {
  const k = st.kbd;
  if (k.focus >= st.points.length) k.focus = -1;
  const act = keyAction(ev, { focus: k.focus, n: st.points.length });
  const area = plotArea(st);
  if (!act || !area || !st.drawn) return; // not the plot's key (Tab out of it): the browser's
  ev.preventDefault();
  ev.stopPropagation(); // the page's own shortcuts do not see it either
  show(st, true);
  const locked = st.locked && ["add", "delete", "undo"].includes(act.type);
  if (locked || (st.locked && act.type === "move" && k.focus >= 0)) {
    say(st, LOCKED);
  } else if (act.type === "move") {
    moveBy(st, area, act);
  } else if (act.type === "add") {
    addPoint(st, k.x, k.y, st.cls, performance.now());
  } else if (act.type === "describe") {
    say(st, pointSentence(k.focus, st.points, shownAnswer(st)));
  } else if (act.type === "class") {
    setClass(st, -st.cls);
    say(st, classSentence(st.cls));
  } else if (act.type === "focus") {
    k.focus = act.index;
    say(st, k.focus >= 0 ? pointSentence(k.focus, st.points, shownAnswer(st)) : cursorHere(st));
  } else if (act.type === "delete") {
    const p = st.points[k.focus];
    [k.x, k.y] = [p[0], p[1]]; // the cursor takes its place: Enter puts a point back there
    removePoint(st, k.focus, performance.now());
    k.focus = -1;
  } else if (act.type === "undo") {
    undo(st);
    if (k.focus >= st.points.length) k.focus = -1;
  }
  showHighlight(st);
  updateAttrs(st);
}

function cursorHere(st) {
  return cursorSentence(st.kbd.x, st.kbd.y, st.hAt ? st.hAt(st.kbd.x, st.kbd.y) : null);
}

function moveBy(st, area, act) {
  // the cursor or the focused point, one step (Shift: a big one) on each axis it moves along
  const k = st.kbd;
  const big = act.big ? 1 : 0;
  const to = (v, d, range) => (d ? stepped(v, d, keySteps(range)[big], range) : v);
  if (k.focus < 0) {
    k.x = to(k.x, act.dx, area.xr);
    k.y = to(k.y, act.dy, area.yr);
    say(st, cursorHere(st));
    return;
  }
  const p = st.points[k.focus];
  movePoint(st, k.focus, to(p[0], act.dx, area.xr), to(p[1], act.dy, area.yr));
}

function onRowKey(st, ev) {
  const tr = ev.target.closest && ev.target.closest("tr[data-row]");
  if (!tr) return;
  const rows = [...st.tableEl.querySelectorAll("tr[data-row]")];
  const act = rowKey(ev, rows.indexOf(tr), rows.length);
  if (!act) return;
  ev.preventDefault();
  if (act.toggle) {
    toggleRow(st, ev);
    return;
  }
  st.tableRow = act.to;
  rows.forEach((r, i) => (r.tabIndex = i === act.to ? 0 : -1));
  rows[act.to].focus();
}
