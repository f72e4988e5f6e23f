// The saved image's title and settings line (plot_export.js): what a downloaded figure says it
// shows.
import { test } from "node:test";
import assert from "node:assert/strict";

import { exportText, settingsLine, wrapWords } from "../../ui/browser/plot_export.js";

// the solvers' names come with the payload (ui.shared.labels.SOLVER_NAMES): whatever was sent
const NAMES = { smo: "the pair solver", newton: "the primal solver" };

test("settingsLine names kernel, loss, C, bias, solver and n as the sidebar does", () => {
  const s = { kernel: "gaussian", sigma: 0.5, loss: "hinge", C: 10, hard_margin: false,
    bias: "free", solver: "smo" }; // prettier-ignore
  assert.equal(settingsLine(s, 14, NAMES),
    "Gaussian kernel σ = 0.5 · hinge loss (k = 1) · C = 10 · free b · the pair solver · n = 14");
  assert.equal(settingsLine(s, 14).split(" · ")[4], "smo"); // no names sent: the key
});

test("settingsLine: the hard margin, the polynomial's q and c, a negative number's minus", () => {
  const s = { kernel: "polynomial", degree: 2, coef0: 1, loss: "quadratic", hard_margin: true,
    bias: "augmented", solver: "newton" }; // prettier-ignore
  assert.equal(settingsLine(s, 3, NAMES), "polynomial kernel (c + xᵀz)^q, q = 2, c = 1 · " +
    "quadratic loss (k = 2) · C = ∞ (hard margin) · augmented b · the primal solver · n = 3");
  assert.equal(settingsLine({ kernel: "linear", C: -0.000123456789 }, 1).split(" · ")[1],
    "C = \u22120.000123457");
});

test("exportText: the words Python sent (or a function's), else the Playground's own", () => {
  const sent = { title: "Gram matrix", settings: "Book D1 · n = 14 · C = 4" };
  assert.deepEqual(exportText({ export: sent, title: "ignored", settings: { kernel: "linear" } }),
    { title: "Gram matrix", line: "Book D1 · n = 14 · C = 4" }); // prettier-ignore
  let k = 3;
  const st = { export: () => ({ title: "SMO", settings: `step ${k}` }) };
  assert.deepEqual(exportText(st), { title: "SMO", line: "step 3" });
  k = 4; // read when the button is pressed: the step shown then
  assert.equal(exportText(st).line, "step 4");
  assert.deepEqual(exportText({ export: { settings: "" } }), { title: "SVM Lab", line: "" });
  const own = exportText({ title: "Book D2", settings: { kernel: "linear", C: 1 }, points: [1, 2] });
  assert.deepEqual(own, { title: "Book D2", line: "linear kernel · C = 1 · n = 2" });
});

test("wrapWords breaks between settings, then between words, never inside a word", () => {
  const line = "Book D1: separable (slide 15) · n = 14 · kernel linear · C = 1";
  assert.deepEqual(wrapWords(line, 80), [line]);
  assert.deepEqual(wrapWords(line, 45), ["Book D1: separable (slide 15) · n = 14", "kernel linear · C = 1"]);
  assert.deepEqual(wrapWords("SMO, step by step: the decision function h(x)", 20),
    ["SMO, step by step:", "the decision", "function h(x)"]); // prettier-ignore
  assert.deepEqual(wrapWords("a · Supercalifragilistic", 10), ["a", "Supercalifragilistic"]);
  assert.deepEqual(wrapWords("", 10), [""]);
  for (const l of wrapWords(line + " · " + line, 30)) assert.ok(l.length <= 30, l);
});
