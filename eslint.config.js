// eslint's flat config for the browser code (ui/browser/*.js: ES modules that Chromium loads
// from the app, see ui/serving/browser_modules.py) and its unit tests (tests/js/*.test.mjs,
// run by node --test). `make js` runs it (docs/development.md, "Running and testing").
import js from "@eslint/js";
import globals from "globals";

const modules = { ecmaVersion: 2022, sourceType: "module" };
const rules = {
  eqeqeq: ["error", "smart"], // == null only
  "no-var": "error",
  "prefer-const": "error",
  "no-unused-vars": ["error", { args: "after-used", caughtErrors: "none" }],
};

export default [
  js.configs.recommended,
  { files: ["ui/browser/**/*.js"], languageOptions: { ...modules, globals: globals.browser }, rules },
  {
    files: ["tests/js/**/*.mjs", "eslint.config.js"],
    languageOptions: { ...modules, globals: globals.node },
    rules,
  },
];
