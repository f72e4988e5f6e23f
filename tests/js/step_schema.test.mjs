// The step player's decoder reads the fields the schema names (ui/step_through/step_schema.py,
// through tests/js/step_cases.json): STEP_FIELDS and CURVE_FIELDS are exactly the schema's
// StepArrays and CurveArrays, and a payload made from the schema decodes into them.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { CURVE_FIELDS, STEP_FIELDS } from "../../ui/browser/step_player_state.js";

const { schema } = JSON.parse(readFileSync(new URL("./step_cases.json", import.meta.url), "utf8"));

test("the decoder's fields are the schema's, both records", () => {
  const steps = schema.properties.steps;
  const curve = schema.properties.curve;
  assert.deepEqual(Object.keys(STEP_FIELDS).sort(), [...steps.required].sort());
  assert.deepEqual(Object.keys(CURVE_FIELDS).sort(), [...curve.required].sort());
  assert.deepEqual(Object.keys(steps.properties).sort(), [...steps.required].sort());
  assert.equal(steps.additionalProperties, false);
  assert.deepEqual(schema.required, ["steps", "curve"]);
});

test("the decoder's names are distinct (no field overwrites another)", () => {
  const names = [...Object.values(STEP_FIELDS), ...Object.values(CURVE_FIELDS)];
  assert.equal(new Set(names).size, names.length);
});
