// ESLint for the Node side (js/): the recommended checks, plus the limits that keep the
// extractor readable: lines of 100, functions of about 40 lines, modules of about 400.
"use strict";

const js = require("@eslint/js");
const stylistic = require("@stylistic/eslint-plugin");
const globals = require("globals");

module.exports = [
  {
    files: ["js/**/*.cjs", "eslint.config.cjs"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "commonjs",
      globals: globals.node,
    },
    plugins: { "@stylistic": stylistic },
    rules: {
      ...js.configs.recommended.rules,
      "@stylistic/max-len": ["error", { code: 100, tabWidth: 2 }],
      "max-lines-per-function": ["error", { max: 40, skipBlankLines: true, skipComments: true }],
      "max-lines": ["error", { max: 400, skipBlankLines: true, skipComments: true }],
    },
  },
];
