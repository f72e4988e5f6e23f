// The step player's keys (WCAG 2.1.4): they act only while focus is inside the player (the
// listener sits on the player's own element, step_access.js) and never in a field or a widget
// that keeps its own keys. The "Keyboard" help lists PLAYER_KEYS. No DOM: tested in node.

//: [key names shown in the help, what it does, the action, the event keys]
export const PLAYER_KEYS = [
  ["→", "Next step", "next", ["ArrowRight"]],
  ["←", "Previous step", "prev", ["ArrowLeft"]],
  ["Home", "First step (the start, α = 0)", "first", ["Home"]],
  ["End", "Last step", "last", ["End"]],
  ["P", "Play / pause", "play", ["p", "P"]],
  ["J", "Jump to the next step where an α hits 0 or C", "jump", ["j", "J"]],
];
const ACTIONS = new Map(PLAYER_KEYS.flatMap(([, , act, keys]) => keys.map((k) => [k, act])));
// elements that keep their own keys: text fields, the slider, the speed menu, ARIA widgets
const OWN_KEYS = new Set(["INPUT", "TEXTAREA", "SELECT"]);
const WIDGET_ROLES =
  "[role=slider],[role=radio],[role=radiogroup],[role=listbox],[role=option],[role=combobox]," +
  "[role=switch],[role=checkbox],[role=tab],[role=spinbutton],[role=menu],[role=menuitem]";

export function playerAction(ev) {
  // the action of a keydown inside the player, or null (the key is left to the browser)
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return null;
  const t = ev.target;
  if (t && (OWN_KEYS.has(t.tagName) || t.isContentEditable)) return null;
  if (t && typeof t.closest === "function" && t.closest(WIDGET_ROLES)) return null;
  // a focused button takes Space and Enter itself; Shift+arrows select text
  if (ev.shiftKey && ev.key.startsWith("Arrow")) return null;
  return ACTIONS.get(ev.key) || null;
}
