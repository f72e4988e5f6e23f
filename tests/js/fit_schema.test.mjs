// The fit endpoint's answer as the browser reads it: every field the canvas's readers touch
// (numbers panel, points table, plot description, spoken sentences, the grid and the figure)
// is one ui/serving/fit_schema.json names, on real answers (tests/js/fit_answer_cases.json,
// written by fit_answer_cases.py). tests/test_fit_schema.py checks the other direction.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { decodeGrid, figureOf } from "../../ui/browser/canvas_answer.js";
import { numbersHtml, tableHtml } from "../../ui/browser/canvas_panels.js";
import { editSentence, pointSentence, supportCount } from "../../ui/browser/canvas_say.js";
import { describeAnswer } from "../../ui/browser/describe.js";

const read = (rel) => JSON.parse(readFileSync(new URL(rel, import.meta.url), "utf8"));
const SCHEMA = read("../../ui/serving/fit_schema.json").answer;
const { cases } = read("./fit_answer_cases.json");

function resolve(s) {
  // a schema node with its $ref followed and "X or null" reduced to X
  while (s && s.$ref) s = SCHEMA.$defs[s.$ref.split("/").pop()];
  if (s && s.anyOf) {
    const some = s.anyOf.filter((t) => t.type !== "null");
    if (some.length === 1) return resolve(some[0]);
  }
  return s;
}

function named(path) {
  // does the schema name this path ("slack.lines", "grid.h"; arrays' items are "[]")?
  let s = resolve(SCHEMA);
  for (const part of path.split(".")) {
    if (part === "[]") {
      s = resolve(s && (s.items || (s.prefixItems && s.prefixItems[0])));
    } else if (s && s.type === "object" && !s.properties) {
      return true; // an open object (the Plotly figure)
    } else {
      s = resolve(s && s.properties && s.properties[part]);
    }
    if (!s) return false;
  }
  return true;
}

const IGNORED = new Set(["length", "constructor", "toJSON", "then"]);

function recorder(value, path, seen) {
  // value whose property reads are noted in `seen` as paths
  if (value === null || typeof value !== "object") return value;
  return new Proxy(value, {
    get(target, key, receiver) {
      const v = Reflect.get(target, key, receiver);
      if (typeof key === "symbol" || IGNORED.has(key)) return v;
      if (Array.isArray(target)) {
        if (!/^\d+$/.test(key)) return v; // map, filter, slice...
        return recorder(v, `${path}.[]`, seen);
      }
      const p = path ? `${path}.${key}` : key;
      seen.add(p);
      return recorder(v, p, seen);
    },
  });
}

function readAll(c, seen) {
  const ans = recorder(structuredClone(c.answer), "", seen);
  const points = c.points;
  // as canvas_panels.js renderNumbers and describePlot call them: what a teacher hides is not
  // read (the server left it out)
  const hidden = c.hide.includes("numbers");
  numbersHtml({ hidden, title: "t", points, ans });
  tableHtml(points, ans, [0]);
  const shown = hidden ? null : ans;
  describeAnswer({ points, ans: shown, kernel: "linear", table: "the table", where: "here" });
  editSentence({ kind: "add", index: 0, point: points[0] }, shown, points);
  pointSentence(0, points, ans);
  supportCount(ans);
  if (ans.ok) figureOf(ans, decodeGrid(ans.grid));
}

test("the browser reads only fields the answer's schema names", () => {
  const all = new Set();
  for (const c of cases) {
    const seen = new Set();
    readAll(c, seen);
    for (const p of seen) {
      assert.ok(named(p), `${c.name}: the browser reads ${p}, which ui/serving/fit_schema.json does not name`);
      all.add(p);
    }
  }
  // the readers did read the answers (a recorder that saw nothing would pass anything)
  for (const p of ["ok", "kind", "message", "panel", "alpha", "h", "xi", "w_norm", "category",
    "free", "bound", "slack_idx", "misclassified", "grid.h", "figure.data"]) {
    assert.ok(all.has(p), `no reader read ${p}`);
  }
});

test("a field the schema does not name is caught", () => {
  assert.equal(named("slack.lines"), true);
  assert.equal(named("fit.solver_ms"), true);
  assert.equal(named("b"), false);
  assert.equal(named("slack.colour"), false);
  const seen = new Set();
  recorder({ a: { b: [{ c: 1 }] } }, "", seen).a.b[0].c;
  assert.deepEqual([...seen], ["a", "a.b", "a.b.[].c"]);
});
