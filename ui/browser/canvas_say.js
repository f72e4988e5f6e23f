// SVM Lab click canvas: the one short sentence the live region says after a change (issue 28,
// WCAG 4.1.3), built from the fit answer the numbers panel and the table show, its numbers
// printed as they print them (format.js). Pure: no DOM.
//   "Added x15 (3, 2), class −1: inside the margin, ξ = 0.830; 4 support vectors."
// What a teacher link hides (the numbers, the table: the answer then lacks them) is not said.

import { fixed, MINUS, short } from "./format.js";

// the table's category column (ui/shared/sv_labels.py point_labels) in a sentence's words
const PLACE = {
  "non-SV": "beyond the margin",
  "margin SV": "a support vector on the margin",
  "bound SV": "a bound support vector (α = C)",
  "inside margin": "inside the margin",
  misclassified: "misclassified",
  "SV (on the margin, α = 0)": "on the margin with α = 0",
  "misclassified (on the hyperplane)": "on the hyperplane",
};

const SHAPE = { 1: "circles", "-1": "squares" }; // the markers of each class

function classText(label) {
  return label > 0 ? "+1" : MINUS + "1";
}

function pointText(i, p) {
  return `x${i + 1} (${short(p[0])}, ${short(p[1])}), class ${classText(p[2])}`;
}

function where(ans, i) {
  // ": inside the margin, ξ = 0.830" for point i of the answer ("" when the table is hidden)
  if (!ans || !ans.ok || !Array.isArray(ans.category) || ans.category[i] == null) return "";
  const cat = String(ans.category[i]);
  const xi = Array.isArray(ans.xi) ? fixed(ans.xi[i], 3) : "";
  const slack = xi && /[1-9]/.test(xi) ? `, ξ = ${xi}` : "";
  return `: ${PLACE[cat] || cat}${slack}`;
}

export function supportCount(ans) {
  // the panel's "support vectors" row starts with their number: "3 (3 free, 0 bound)"
  const row = ans && Array.isArray(ans.panel) && ans.panel.find((r) => r[0] === "support vectors");
  const m = row && /^\d+/.exec(String(row[1]));
  return m ? Number(m[0]) : null;
}

function model(ans) {
  // "; 4 support vectors" (or why there is no model); "" when the numbers are hidden
  if (!ans) return "";
  if (!ans.ok) {
    if (ans.kind === "need_two_classes") return "; no model yet: add points of both classes";
    const msg = String(ans.message || "").split(/(?<=\.)\s/)[0].replace(/\.$/, "");
    return `; no model${msg ? ": " + msg : ""}`;
  }
  const n = supportCount(ans);
  if (n === null) return "";
  const warn = ans.message ? "; not converged: see the numbers" : "";
  return `; ${n} support vector${n === 1 ? "" : "s"}${warn}`;
}

export function editSentence(edit, ans, points) {
  // edit: {kind: add|move|remove|undo|clear, index, point} (point: the removed one);
  // ans: the answer for `points` (the points after the edit)
  const i = edit.index;
  const p = points[i];
  let s;
  switch (edit.kind) {
    case "add":
      s = `Added ${pointText(i, p)}${where(ans, i)}`;
      break;
    case "move":
      s = `Moved x${i + 1} to (${short(p[0])}, ${short(p[1])})${where(ans, i)}`;
      break;
    case "remove":
      s = `Removed ${pointText(i, edit.point)}; ${points.length} points left`;
      break;
    case "clear":
      return "Cleared: no points.";
    default:
      s = `Undone: ${points.length} point${points.length === 1 ? "" : "s"}`;
  }
  return `${s}${model(ans)}.`;
}

export function pointSentence(i, points, ans) {
  // a point the keyboard walked to: its row of the table in words
  return `${pointText(i, points[i])}${where(ans, i)}. Arrows move it, Delete removes it, ` +
    "Escape goes back to the cursor."; // prettier-ignore
}

export function cursorSentence(x, y, h) {
  // the cursor's place; the side of the boundary when the plot has a model there (h: null)
  let side = "";
  if (h != null && Number.isFinite(h)) {
    const cls = h >= 0 ? "+1" : MINUS + "1";
    side = h === 0 ? ", on the boundary" : `, class ${cls} side, ` +
      (Math.abs(h) < 1 ? "inside the margin" : "beyond the margin"); // prettier-ignore
  }
  return `Cursor (${short(x)}, ${short(y)})${side}.`;
}

export function classSentence(cls) {
  return `Enter adds class ${classText(cls)} (${SHAPE[cls > 0 ? 1 : "-1"]}).`;
}
