// Small text, file and syntax helpers shared by the extractor's modules.
"use strict";

const fs = require("fs");
const path = require("path");

// A string literal (kept) or a comment (dropped), so comment markers inside strings survive.
const STRING_OR_COMMENT =
  /("(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|`(?:\\.|[^`\\])*`)|\/\*[\s\S]*?\*\/|\/\/[^\n]*/g;

function oneLine(text) {
  return text.replace(/\s+/g, " ").trim();
}

/** Type text as a reader wants it: one line, without the comments of inline members. */
function typeText(text) {
  const noComments = text.replace(STRING_OR_COMMENT, (m, str) => str || " ");
  // A union written one member per line starts with `|`.
  return oneLine(noComments).replace(/^[|&]\s*/, "");
}

/** A type node's text as `typeText` gives it, with a `;` after each type-literal member but
 * the last written without one (one member per line): on one line they would run together. */
function writtenTypeText(ts, node) {
  const source = node.getText();
  if (!source.includes("\n")) return typeText(source);
  const start = node.getStart();
  const ends = [];
  const visit = (n) => {
    if (ts.isTypeLiteralNode(n)) {
      for (const member of n.members.slice(0, -1)) {
        if (!/[;,]$/.test(member.getText())) ends.push(member.getEnd() - start);
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(node.compilerNode);
  let text = source;
  for (const end of ends.sort((a, b) => b - a)) text = `${text.slice(0, end)};${text.slice(end)}`;
  return typeText(text);
}

/** A path as the reply spells it: relative to the project root, with forward slashes. */
// The name a `.html` file's code blocks are read under (htmlscripts.cjs): reported as the .html.
const SCRIPT_SUFFIX = ".pygen-script.ts";

function rel(request, file) {
  const real = file.endsWith(SCRIPT_SUFFIX) ? file.slice(0, -SCRIPT_SUFFIX.length) : file;
  return path.relative(request.root, real).split(path.sep).join("/");
}

/** The first non-null `test(dir)` from the folder of `start` up to the filesystem root. */
function findUp(start, test) {
  let dir = path.dirname(start);
  for (;;) {
    const found = test(dir);
    if (found) return found;
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

/** TypeScript's own lib files and external libraries: never the user's types. */
function isLibFile(sf) {
  const p = sf.getFilePath();
  return sf.isFromExternalLibrary() || /[\\/]node_modules[\\/]typescript[\\/]lib[\\/]/.test(p)
    || sf.isDeclarationFile() && /[\\/]lib\.[^\\/]*\.d\.ts$/.test(p);
}

/** The returned expression of a function, getter or arrow whose body is just that, or null. */
function singleReturn(ev, fn) {
  const { Node } = ev;
  const body = fn.getBody && fn.getBody();
  if (!body) return null;
  if (!Node.isBlock(body)) return body;
  const statements = body.getStatements();
  if (statements.length !== 1 || !Node.isReturnStatement(statements[0])) return null;
  return statements[0].getExpression() || null;
}

module.exports = {
  oneLine, typeText, writtenTypeText, rel, SCRIPT_SUFFIX, findUp, readJson, isLibFile, singleReturn,
};
