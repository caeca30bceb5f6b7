// Errors and where they point: the user's errors with file, line and column, warnings placed
// the same way, and the one-line report of an internal error (a bug in this extractor).
"use strict";

const path = require("path");
const { oneLine, rel } = require("./util.cjs");

/** A problem the user can fix. `code: "config"` marks one in the pygen config, not the code. */
class UserError extends Error {
  constructor(node, message, code) {
    super(message);
    this.node = node;
    this.code = code || null;
  }
}

function locate(request, node, message) {
  if (!node) return { message };
  const sf = node.getSourceFile();
  // The compiler's cached line map: ts-morph's own lookup rescans the text on every call.
  const { line, character } = sf.compilerNode.getLineAndCharacterOfPosition(node.getStart());
  return { file: rel(request, sf.getFilePath()), line: line + 1, col: character + 1, message };
}

function diagnosticAt(ctx, node, message, kind = null) {
  const loc = locate(ctx.request, node, message);
  return { level: "warning", file: loc.file, line: loc.line, message, ...(kind ? { kind } : {}) };
}

/** The reply's error entry for anything a run threw. */
function failure(request, e) {
  if (!(e instanceof UserError)) return internalError(e);
  if (e.where) return { ...e.where, message: e.message };
  return { ...locate(request, e.node, e.message), ...(e.code ? { code: e.code } : {}) };
}

/** One line for the user (what and where in this extractor), the stack for a bug report. */
function internalError(e) {
  const stack = String((e && e.stack) || e);
  const frame = failingLine(stack);
  const what = oneLine(String((e && e.message) || e)).slice(0, 200);
  return {
    code: "internal",
    message: `internal error in the extractor: ${what}${frame ? ` (${frame})` : ""}; `
      + "please report it",
    detail: stack,
  };
}

// The folder holding extract.cjs, whether this file runs from a checkout or an unbundled wheel.
const JS_ROOT = path.resolve(__dirname, "..");

/** The innermost frame in this extractor's own files: `js/lib/types.cjs:120`, or the bundle's. */
function failingLine(stack) {
  for (const m of stack.matchAll(/([^\s()]+\.cjs):(\d+):\d+/g)) {
    const file = m[1].replace(/^file:\/\//, "");
    // Bundled, every module is one file: its line is all a frame says.
    if (path.basename(file) === "extract.bundle.cjs") return `extract.bundle.cjs:${m[2]}`;
    const inside = path.relative(JS_ROOT, file).split(path.sep);
    if (inside[0] === ".." || path.isAbsolute(inside[0]) || inside.includes("node_modules")) {
      continue;
    }
    return `js/${inside.join("/")}:${m[2]}`;
  }
  return null;
}

module.exports = { UserError, locate, diagnosticAt, failure, internalError };
