// The maps an editor's load step declares (`{ legacy: current }`, or per node type
// `{ type: { legacy: current } }`), read from the source text alone: a constant anywhere in
// the file (a local one inside the load function too) whose value is an object literal of
// string literals. No type checker, no program: a map is plain syntax.
"use strict";

const fs = require("fs");
const path = require("path");

/** `request.maps`: [{ file, name }]; the reply: one { file, name, value | problem } each. */
function readLoadMaps(ts, request) {
  return { ok: true, maps: request.maps.map((m) => readOne(ts, request.root, m)) };
}

function readOne(ts, root, { file, name }) {
  const full = path.resolve(root, file);
  let text;
  try {
    text = fs.readFileSync(full, "utf8");
  } catch (e) {
    return { file, name, problem: `cannot read ${file} (${e.code || e.message})` };
  }
  const source = ts.createSourceFile(full, text, ts.ScriptTarget.Latest, true);
  const found = [];
  const visit = (node) => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name)
      && node.name.text === name && node.initializer) found.push(node);
    ts.forEachChild(node, visit);
  };
  visit(source);
  if (!found.length) return { file, name, problem: `no constant '${name}' in ${file}` };
  if (found.length > 1) {
    return { file, name, problem: `${found.length} constants named '${name}' in ${file}` };
  }
  const line = source.getLineAndCharacterOfPosition(found[0].getStart()).line + 1;
  const problems = [];
  const value = literal(ts, found[0].initializer, problems);
  if (problems.length) return { file, name, line, problem: problems[0] };
  if (!value || typeof value !== "object") {
    return { file, name, line, problem: `'${name}' is not an object literal` };
  }
  return { file, name, line, value };
}

/** An object literal of string literals (nested objects allowed), else a problem. */
function literal(ts, node, problems) {
  while (ts.isAsExpression(node) || ts.isSatisfiesExpression?.(node)
    || ts.isParenthesizedExpression(node) || ts.isTypeAssertionExpression?.(node)) {
    node = node.expression;
  }
  if (ts.isStringLiteralLike(node)) return node.text;
  if (ts.isObjectLiteralExpression(node)) {
    const out = {};
    for (const prop of node.properties) {
      const key = prop.name && (ts.isIdentifier(prop.name) || ts.isStringLiteralLike(prop.name)
        || ts.isNumericLiteral(prop.name)) ? prop.name.text : null;
      if (!ts.isPropertyAssignment(prop) || key === null) {
        problems.push(`'${prop.getText().slice(0, 60)}' is not a plain key: value`);
        return null;
      }
      out[key] = literal(ts, prop.initializer, problems);
      if (problems.length) return null;
    }
    return out;
  }
  problems.push(`'${node.getText().slice(0, 60)}' is not a string or an object literal`);
  return null;
}

module.exports = { readLoadMaps };
