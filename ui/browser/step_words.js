// The step player in words (WCAG 1.1.1, 4.1.3): the one sentence a step announces and the
// names and descriptions of its pictures (the three canvases, the (αᵢ, αⱼ) box), made from the
// same recorded numbers the player draws (step_player_state.js: stepRecord, pointState) and
// printed with format.js as the player prints them. Indices are plain digits (α2, not α₂):
// screen readers read subscript digits inconsistently. No DOM: tested in node.

import { fmt } from "./format.js";
import { isAtC, isZero } from "./step_player_state.js";

const LIST_MAX = 12; // entries listed in a description before "and N more"

const count = (v) => v.toLocaleString("en-US");
const plural = (n, one, many) => `${count(n)} ${n === 1 ? one : many}`;
const kkt = (v) => (Number.isFinite(v) ? fmt(v) : "∞"); // the payload's NaN is ∞

export function boundOf(v, C, amax, rules) {
  // "0" or "C" when α sits on that bound (svm_engine/bounds.py's rules, from the payload)
  if (isZero(v, amax, rules)) return "0";
  if (isAtC(v, C, rules)) return "C";
  return null;
}

function changedEntries(rec) {
  // [[index (1-based), old, new]] of the pair's α that this step changed
  const out = [];
  if (rec.ai_new !== rec.ai_old) out.push([rec.i + 1, rec.ai_old, rec.ai_new]);
  if (rec.aj_new !== rec.aj_old) out.push([rec.j + 1, rec.aj_old, rec.aj_new]);
  return out;
}

export function stepSentence(s) {
  // s: {k, T, rec (null at k = 0), C, amax, rules, nSV, kkt}; "Step 4 of 12: α2 and α5 changed, α5
  // now at C; 3 support vectors; KKT gap 0.02."
  const head = `Step ${count(s.k)} of ${count(s.T)}`;
  let what = "the start, every α = 0";
  if (s.rec) {
    const ch = changedEntries(s.rec);
    const pair = `α${s.rec.i + 1} and α${s.rec.j + 1}`;
    if (!ch.length) what = `pair ${pair}, no α changed`;
    else {
      what = ch.length === 2 ? `${pair} changed` : `α${ch[0][0]} changed`;
      const at = ch.map(([q, , v]) => [q, boundOf(v, s.C, s.amax, s.rules)]).filter(([, w]) => w);
      if (at.length) what += ", " + at.map(([q, w]) => `α${q} now at ${w}`).join(", ");
    }
  }
  return `${head}: ${what}; ${plural(s.nSV, "support vector", "support vectors")}; ` +
    `KKT gap ${kkt(s.kkt)}.`; // prettier-ignore
}

function listed(items) {
  return items.length <= LIST_MAX
    ? items.join(", ")
    : `${items.slice(0, LIST_MAX).join(", ")} and ${count(items.length - LIST_MAX)} more`;
}

export function barsWords(s) {
  // s: {k, T, n, alpha, C, amax, rules, rec}: [name, description] of the α bars
  const name = `Bar chart: α of each of the ${count(s.n)} points after step ${count(s.k)} of ${count(s.T)}`;
  const nonzero = [];
  for (let q = 0; q < s.n; q++) {
    const w = boundOf(s.alpha[q], s.C, s.amax, s.rules);
    if (w !== "0") nonzero.push(`α${q + 1} = ${fmt(s.alpha[q])}${w === "C" ? " (at C)" : ""}`);
  }
  const parts = [nonzero.length ? `Nonzero: ${listed(nonzero)}; every other α is 0.` : "Every α is 0."];
  if (s.rec) {
    const ch = changedEntries(s.rec).map(([q, a, b]) => `α${q} ${fmt(a)} → ${fmt(b)}`);
    parts.push(ch.length ? `Changed by this step (old value marked): ${ch.join(", ")}.` : "This step changed no α.");
  }
  if (Number.isFinite(s.C)) parts.push(`Dashed line: C = ${fmt(s.C)}.`);
  return [name, parts.join(" ")];
}

export function boxWords(rec, k) {
  // [name, description] of the (αᵢ, αⱼ) box of step k ≥ 1 (step_box.js draws it)
  const i = rec.i + 1;
  const j = rec.j + 1;
  const pt = (a, b) => `(${fmt(a)}, ${fmt(b)})`;
  const box = Number.isFinite(rec.C) ? `[0, ${fmt(rec.C)}]²` : "[0, ∞)²";
  return [
    `The (α${i}, α${j}) box of step ${count(k)}`,
    `Box ${box}; the pair moves along the line y${i}α${i} + y${j}α${j} = const. ` +
      `Feasible segment α${j} ∈ [${fmt(rec.L)}, ${kkt(rec.H)}]. ` +
      `Old point ${pt(rec.ai_old, rec.aj_old)}, unclipped optimum ` +
      `${pt(rec.ai_unclipped, rec.aj_unclipped)}, new point ${pt(rec.ai_new, rec.aj_new)}` +
      (rec.clipped ? " (clipped to [L, H])." : " (not clipped)."),
  ];
}

export function decisionWords(s) {
  // s: {k, T, n, b, P (pointState's lists), rec}: [[name, description] of the shading under
  // the scatter plot, [name, description] of the marks over it]
  const at = `after step ${count(s.k)} of ${count(s.T)}`;
  const P = s.P;
  const pair = s.rec ? ` Thick green rings: this step's pair x${s.rec.i + 1}, x${s.rec.j + 1}.` : "";
  return [
    [
      `Shading of h(x) ${at}`,
      `The background shades the decision function h(x) = Σ αₜyₜK(xₜ, x) + b, b = ${fmt(s.b)}: ` +
        "one colour where h(x) > 0 (class +1's side), the other where h(x) < 0, paler near 0.",
    ],
    [
      `Points and support vectors ${at}`,
      `${plural(s.n, "point", "points")} (● class +1, ■ class −1); ` +
        `${plural(P.free.length + P.bound.length, "support vector", "support vectors")} ringed ` +
        `(${count(P.free.length)} with 0 < α < C, ${count(P.bound.length)} at α = C); ` +
        `${count(P.violators.length)} violate their KKT condition (orange ◇); ` +
        `${count(P.misclassified.length)} misclassified (×). ` +
        "Solid line h(x) = 0, dashed h(x) = ±1, dotted grey h(x) = 0 before this step." + pair,
    ],
  ];
}

export function curvesWords(s) {
  // s: {k, T, dual, primal, kkt}: [name, description] of the curves' step marker
  return [
    `Marker of step ${count(s.k)} on the convergence curves`,
    `At step ${count(s.k)} of ${count(s.T)}: dual ${fmt(s.dual)}, primal ` +
      `${fmt(s.primal)}, KKT gap ${kkt(s.kkt)}.`,
  ];
}
