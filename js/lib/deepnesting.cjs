// When TypeScript's recursive parser or checker runs out of stack (an array literal nested 900
// deep), find the nesting that did it: the deepest bracket in the files the run was reading,
// reported as a user error at its file and line instead of an internal error.
"use strict";

const fs = require("fs");
const path = require("path");
const { UserError } = require("./errors.cjs");
const { rel } = require("./util.cjs");

// Source files a project may import; folders no user code lives in.
const SOURCE = /\.(?:[cm]?ts|tsx)$/;
const SKIP_DIRS = new Set(["node_modules", ".git"]);

function isStackOverflow(e) {
  return e instanceof RangeError && /call stack size/i.test(String(e.message));
}

/** The deepest nesting of ( [ { in TypeScript text, strings and comments skipped. */
function deepest(text) {
  let depth = 0;
  let best = { depth: 0, at: 0 };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "/" && (text[i + 1] === "/" || text[i + 1] === "*")) {
      i = skipComment(text, i);
    } else if (c === "\"" || c === "'" || c === "`") {
      i = skipString(text, i, c);
    } else if (c === "(" || c === "[" || c === "{") {
      depth += 1;
      if (depth > best.depth) best = { depth, at: i };
    } else if (c === ")" || c === "]" || c === "}") {
      depth -= 1;
    }
  }
  return best;
}

function skipComment(text, i) {
  const end = text[i + 1] === "/" ? text.indexOf("\n", i) : text.indexOf("*/", i + 2) + 1;
  return end <= 0 ? text.length : end;
}

function skipString(text, i, quote) {
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === "\\") j += 1;
    else if (text[j] === quote) return j;
  }
  return text.length;
}

/** Source files under root, user code only, for when the run's own list is not known. */
function sourcesUnder(root, found = []) {
  let entries = [];
  try {
    entries = fs.readdirSync(root, { withFileTypes: true });
  } catch {
    return found;
  }
  for (const entry of entries) {
    const full = path.join(root, entry.name);
    if (entry.isDirectory() && !SKIP_DIRS.has(entry.name)) sourcesUnder(full, found);
    else if (entry.isFile() && SOURCE.test(entry.name)) found.push(full);
  }
  return found;
}

// A nesting this deep in a file the run read explains an overflow without looking further.
const SUSPECT = 200;

function deepestOf(files) {
  let worst = null;
  for (const file of new Set(files)) {
    let text;
    try {
      text = fs.readFileSync(file, "utf8");
    } catch {
      continue;
    }
    const found = deepest(text);
    if (!worst || found.depth > worst.depth) worst = { file, text, ...found };
  }
  return worst;
}

/** The user error for a stack overflow: the deepest nesting among the files the run read
 * (the nodes file first), else among every source file of the project. */
function tooDeep(request, files) {
  let worst = deepestOf([request.nodesFile, ...files]);
  if (!worst || worst.depth < SUSPECT) worst = deepestOf(sourcesUnder(request.root)) || worst;
  const message = "nested too deeply for TypeScript's parser (it ran out of stack); "
    + "flatten this value or move it out of the files pygen reads";
  if (!worst) return new UserError(null, message);
  const line = worst.text.slice(0, worst.at).split("\n").length;
  const error = new UserError(null, `${worst.depth} levels of brackets: ${message}`);
  error.where = { file: rel(request, worst.file), line };
  return error;
}

module.exports = { isStackOverflow, tooDeep, deepest };
