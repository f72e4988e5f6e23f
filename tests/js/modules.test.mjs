// The browser modules' imports: each names something its module exports, and each module is
// an element's entry or imported by one (no module left over). What a module uses without
// importing is eslint's no-undef (eslint.config.js).
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";

const DIR = new URL("../../ui/browser/", import.meta.url);
// the modules the elements mount (ui/playground/canvas.py, ui/step_through/player.py, plot.py,
// ui/shared/click_plot.py, ui/shared/chart.py, ui/shared/drawer.py, ui/step_through/box_chart.py)
const ENTRIES = ["canvas.js", "step_player.js", "step_plot.js", "step_sync.js", "click_plot.js",
  "chart.js", "drawer.js", "box_chart.js"]; // prettier-ignore

const files = Object.fromEntries(
  readdirSync(DIR)
    .filter((f) => f.endsWith(".js"))
    .map((f) => [f, readFileSync(new URL(f, DIR), "utf8")])
);

function imports(text) {
  // [[names], "./file.js"] of each `import { a, b } from "./file.js"`
  return [...text.matchAll(/^import\s*\{([^}]*)\}\s*from\s*"([^"]+)";/gm)].map((m) => [
    m[1].split(",").map((s) => s.trim()).filter(Boolean),
    m[2],
  ]);
}

function exported(text) {
  return new Set([...text.matchAll(/^export (?:async )?(?:function|const|let|class) (\w+)/gm)].map((m) => m[1]));
}

test("every import names an export of a module of ui/browser", () => {
  let count = 0;
  for (const [file, text] of Object.entries(files)) {
    assert.doesNotMatch(text, /^import\s+(?!\{)/m, `${file}: named imports only`);
    for (const [names, from] of imports(text)) {
      assert.match(from, /^\.\/[a-z0-9_]+\.js$/, `${file}: a sibling module`);
      const target = from.slice(2);
      assert.ok(target in files, `${file} imports the missing ${target}`);
      const ex = exported(files[target]);
      for (const name of names) {
        assert.ok(ex.has(name), `${file} imports ${name}, which ${target} does not export`);
        count += 1;
      }
    }
  }
  assert.ok(count > 50, "the modules import each other");
});

test("every module is an entry or imported by one", () => {
  const reached = new Set();
  const visit = (f) => {
    if (reached.has(f)) return;
    reached.add(f);
    for (const [, from] of imports(files[f])) visit(from.slice(2));
  };
  for (const e of ENTRIES) {
    assert.equal(files[e].match(/^export default function/gm).length, 1, e);
    visit(e);
  }
  assert.deepEqual(Object.keys(files).filter((f) => !reached.has(f)), []);
});

test("every export is imported somewhere (no dead exports)", () => {
  const used = new Set();
  for (const text of Object.values(files)) {
    for (const [names, from] of imports(text)) names.forEach((n) => used.add(`${from.slice(2)}:${n}`));
  }
  const tests = readdirSync(new URL(".", import.meta.url)).filter((f) => f.endsWith(".test.mjs"));
  const testText = tests.map((f) => readFileSync(new URL(f, import.meta.url), "utf8")).join("\n");
  for (const [file, text] of Object.entries(files)) {
    for (const name of exported(text)) {
      const byTests = new RegExp(`\\b${name}\\b[^;]*from "\\.\\./\\.\\./ui/browser/${file}"`).test(testText);
      assert.ok(used.has(`${file}:${name}`) || byTests, `${file} exports ${name}, which nothing imports`);
    }
  }
});
