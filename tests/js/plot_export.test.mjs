// The saved image's settings line (plot_export.js): what a downloaded figure says it shows.
import { test } from "node:test";
import assert from "node:assert/strict";

import { settingsLine } from "../../ui/browser/plot_export.js";

test("settingsLine names kernel, loss, C, bias, solver and n as the sidebar does", () => {
  const s = { kernel: "gaussian", sigma: 0.5, loss: "hinge", C: 10, hard_margin: false,
    bias: "free", solver: "smo" }; // prettier-ignore
  assert.equal(settingsLine(s, 14),
    "Gaussian kernel σ = 0.5 · hinge loss (k = 1) · C = 10 · free b · SMO · n = 14");
});

test("settingsLine: the hard margin, the polynomial's q and c, a negative number's minus", () => {
  const s = { kernel: "polynomial", degree: 2, coef0: 1, loss: "quadratic", hard_margin: true,
    bias: "augmented", solver: "newton" }; // prettier-ignore
  assert.equal(settingsLine(s, 3), "polynomial kernel (c + xᵀz)^q, q = 2, c = 1 · " +
    "quadratic loss (k = 2) · C = ∞ (hard margin) · augmented b · Newton · n = 3");
  assert.equal(settingsLine({ kernel: "linear", C: -0.000123456789 }, 1).split(" · ")[1],
    "C = \u22120.000123457");
});
