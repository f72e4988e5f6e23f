// step_keys.js and step_words.js: the step player's keys (only where focus is) and its words
// (the announced sentence, the pictures' descriptions), from a step record as stepRecord
// builds it and numbers printed by format.js.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { fmt } from "../../ui/browser/format.js";
import { PLAYER_KEYS, playerAction } from "../../ui/browser/step_keys.js";
import { barsWords, boundOf, boxWords, curvesWords, decisionWords, stepSentence } from "../../ui/browser/step_words.js";

// svm_engine.bounds.browser_rules(), as the payload brings them (written by tests/js/step_cases.py)
const { rules } = JSON.parse(readFileSync(new URL("./step_cases.json", import.meta.url), "utf8"));

function record(over) {
  // step 4 of the pair (i, j) = (1, 4) (0-based), C = 1: α5 clipped to C
  const rec = { it: 4, i: 1, j: 4, yi: 1, yj: -1, C: 1, ai_old: 0.25, aj_old: 0.5, ai_new: 0.75,
    aj_new: 1, aj_unclipped: 1.3, L: 0.25, H: 1, clipped: true, ...over }; // prettier-ignore
  rec.ai_unclipped = rec.ai_old + rec.yi * rec.yj * (rec.aj_old - rec.aj_unclipped);
  return rec;
}

const el = (tagName, over) => ({ tagName, isContentEditable: false, closest: () => null, ...over });
const key = (k, target = el("BUTTON"), mods = {}) => ({ key: k, target, ...mods });

test("playerAction: each listed key, and nothing in a field, a widget or with a modifier", () => {
  for (const [, , act, keys] of PLAYER_KEYS) {
    for (const k of keys) assert.equal(playerAction(key(k)), act, k);
    assert.equal(playerAction(key(keys[0], el("DIV"))), act, "focus on the player itself");
  }
  assert.deepEqual(PLAYER_KEYS.map((r) => r[2]), ["next", "prev", "first", "last", "play", "jump"]);
  assert.equal(playerAction(key("x")), null);
  assert.equal(playerAction(key("Enter")), null, "a focused button takes Enter itself");
  assert.equal(playerAction(key(" ")), null);
  for (const tag of ["INPUT", "SELECT", "TEXTAREA"]) assert.equal(playerAction(key("ArrowRight", el(tag))), null, tag);
  assert.equal(playerAction(key("p", el("DIV", { isContentEditable: true }))), null);
  const inSlider = el("DIV", { closest: (sel) => (sel.includes("[role=slider]") ? {} : null) });
  assert.equal(playerAction(key("ArrowLeft", inSlider)), null);
  for (const m of ["ctrlKey", "metaKey", "altKey"]) assert.equal(playerAction(key("p", el("BUTTON"), { [m]: true })), null, m);
  assert.equal(playerAction(key("ArrowRight", el("BUTTON"), { shiftKey: true })), null);
  assert.equal(playerAction(key("P", el("BUTTON"), { shiftKey: true })), "play");
});

test("boundOf: 0 and C by the payload's rules (bounds.py), open box has no C", () => {
  const { supportRel, atCRel } = rules;
  assert.equal(boundOf(0, 1, 1, rules), "0");
  assert.equal(boundOf(supportRel * 2, 1, 2, rules), "0", "at the threshold: relative to max α");
  assert.equal(boundOf(supportRel * 3, 1, 2, rules), null, "above it");
  assert.equal(boundOf(1 - atCRel, 1, 1, rules), "C");
  assert.equal(boundOf(1 - 4 * atCRel, 1, 1, rules), null, "below C's band");
  assert.equal(boundOf(0.5, 1, 1, rules), null);
  assert.equal(boundOf(5, Infinity, 5, rules), null);
  // the numbers are the payload's: other rules give other answers
  assert.equal(boundOf(1e-9, 1, 1, { supportRel: 1e-8, atCRel: 1e-8 }), "0");
  assert.equal(boundOf(1e-9, 1, 1, rules), null);
});

test("stepSentence: the step, what changed, bounds hit, support vectors, the KKT gap", () => {
  const s = { k: 4, T: 12, rec: record(), C: 1, amax: 1, rules, nSV: 3, kkt: 0.0213 };
  assert.equal(stepSentence(s), `Step 4 of 12: α2 and α5 changed, α5 now at C; 3 support vectors; KKT gap ${fmt(0.0213)}.`);
  const to0 = stepSentence({ ...s, rec: record({ ai_new: 0, aj_new: 0.75, clipped: false }), nSV: 1 });
  assert.equal(to0, `Step 4 of 12: α2 and α5 changed, α2 now at 0; 1 support vector; KKT gap ${fmt(0.0213)}.`);
  const one = stepSentence({ ...s, rec: record({ ai_new: 0.25 }) });
  assert.match(one, /^Step 4 of 12: α5 changed, α5 now at C;/);
  const none = stepSentence({ ...s, rec: record({ ai_new: 0.25, aj_new: 0.5 }) });
  assert.match(none, /^Step 4 of 12: pair α2 and α5, no α changed; /);
  assert.equal(stepSentence({ k: 0, T: 1234, rec: null, C: 1, amax: 0, nSV: 0, kkt: NaN }),
    "Step 0 of 1,234: the start, every α = 0; 0 support vectors; KKT gap ∞.");
  assert.match(stepSentence({ ...s, kkt: -1.5e-7 }), /KKT gap −1\.5·10⁻⁷\.$/);
});

test("barsWords: the nonzero α (at C marked), the changed entries with old values, C", () => {
  const alpha = [0, 0.75, 0, 0, 1, 0.125];
  const [name, text] = barsWords({ k: 4, T: 12, n: 6, alpha, C: 1, amax: 1, rules, rec: record() });
  assert.equal(name, "Bar chart: α of each of the 6 points after step 4 of 12");
  assert.equal(text, "Nonzero: α2 = 0.75, α5 = 1 (at C), α6 = 0.125; every other α is 0. " +
    "Changed by this step (old value marked): α2 0.25 → 0.75, α5 0.5 → 1. Dashed line: C = 1.");
  const many = Array.from({ length: 30 }, (_, q) => (q + 1) / 64);
  const [, long] = barsWords({ k: 0, T: 12, n: 30, alpha: many, C: Infinity, amax: 1, rules, rec: null });
  assert.match(long, /α12 = 0\.1875 and 18 more; every other α is 0\.$/);
  assert.doesNotMatch(long, /Dashed|Changed/);
  assert.equal(barsWords({ k: 0, T: 2, n: 2, alpha: [0, 0], C: 1, amax: 0, rules, rec: null })[1],
    "Every α is 0. Dashed line: C = 1.");
});

test("boxWords, decisionWords, curvesWords: the step's numbers", () => {
  const [name, text] = boxWords(record(), 4);
  assert.equal(name, "The (α2, α5) box of step 4");
  assert.equal(text, "Box [0, 1]²; the pair moves along the line y2α2 + y5α5 = const. Feasible " +
    "segment α5 ∈ [0.25, 1]. Old point (0.25, 0.5), unclipped optimum (1.05, 1.3), new point " +
    "(0.75, 1) (clipped to [L, H]).");
  assert.match(boxWords(record({ C: Infinity, H: NaN, clipped: false }), 4)[1], /^Box \[0, ∞\)²;.*∞\]. .*\(not clipped\)\.$/);
  const P = { free: [1, 5], bound: [4], violators: [0], misclassified: [], b: -0.5 };
  const [under, over] = decisionWords({ k: 4, T: 12, n: 6, b: -0.5, P, rec: record() });
  assert.equal(under[0], "Shading of h(x) after step 4 of 12");
  assert.match(under[1], /b = −0\.5:/);
  assert.equal(over[0], "Points and support vectors after step 4 of 12");
  assert.match(over[1], /^6 points \(● class \+1, ■ class −1\); 3 support vectors ringed \(2 with 0 < α < C, 1 at α = C\); 1 violate/);
  assert.match(over[1], /this step's pair x2, x5\.$/);
  assert.doesNotMatch(decisionWords({ k: 0, T: 12, n: 6, b: 0, P, rec: null })[1][1], /pair/);
  assert.deepEqual(curvesWords({ k: 4, T: 12, dual: 1.5, primal: 2.25, kkt: NaN }),
    ["Marker of step 4 on the convergence curves", "At step 4 of 12: dual 1.5, primal 2.25, KKT gap ∞."]);
});
