// Warnings about types the checker could not resolve: a field whose type names a missing
// type, a data type or base type that is not found, with the dead import when there is one.
"use strict";

const { diagnosticAt } = require("./errors.cjs");
const { deadImportOf, noteDeadImport } = require("./imports.cjs");
const { isLibFile, typeText } = require("./util.cjs");

// The checker's stand-in for a type it could not find (an unresolved name or import).
function isErrorType(type) {
  return type.isAny() && type.compilerType.intrinsicName === "error";
}

function isFromStandardLib(symbol) {
  return symbol.getDeclarations().some((d) => isLibFile(d.getSourceFile()));
}

function unresolvedParts(ref, out = []) {
  if (ref.kind === "unresolved") out.push(ref.text);
  for (const t of ref.types || []) unresolvedParts(t, out);
  if (ref.items) unresolvedParts(ref.items, out);
  return out;
}

/** Warn about a field whose type has unresolved parts; `tc` is the type reader's context. */
// The kind of every diagnostic here, for the summary of a run.
const KIND = "unresolved-type";

function reportUnresolved(tc, field, ref, node, text) {
  // Nested object fields report themselves; only this level's own parts here.
  const all = [...new Set(unresolvedParts({ ...ref, fields: [] }))];
  if (!all.length) return;
  const where = tc.owner ? `${tc.owner}.${field}` : field;
  const { diagnostics } = tc.ctx;
  // A nameless part is fallout from a type reported where it is declared.
  const parts = all.filter((p) => p !== "any");
  if (!parts.length) {
    diagnostics.push(diagnosticAt(tc.ctx, node, `${where}: its type depends on a type that `
      + `cannot be resolved; it is shown as '${text}'`, KIND));
    return;
  }
  // Parts imported from a module that does not resolve are reported once per module.
  const dead = parts.map((p) => deadImportOf(node.getSourceFile(), p));
  if (dead.every(Boolean)) {
    for (const d of dead) noteDeadImport(tc.ctx, d, `field ${where}`, tc.owner);
    return;
  }
  const names = parts.map((p) => `'${p}'`).join(", ");
  diagnostics.push(diagnosticAt(tc.ctx, node,
    `${where}: cannot resolve type ${names}; it is shown as written`, KIND));
}

/** A data type, or a base it extends, that the checker could not find lists no fields: say so. */
function checkResolved(tc, decl, type) {
  const { Node, ctx } = tc;
  const report = (node, what, missing) => {
    const text = typeText(node.getText());
    const dead = deadImportOf(node.getSourceFile(), text);
    if (dead) return noteDeadImport(ctx, dead, `${what} '${text}' of ${tc.owner}`, tc.owner);
    ctx.diagnostics.push(diagnosticAt(ctx, node, `${tc.owner}: cannot resolve ${what} `
      + `'${text}'; ${missing}`, KIND));
  };
  if (type.isAny()) {
    if (Node.isTypeAliasDeclaration(decl)) {
      report(decl.getTypeNodeOrThrow(), "the data type", "no fields are listed");
    } else {
      ctx.diagnostics.push(diagnosticAt(ctx, decl,
        `${tc.owner}: cannot resolve the data type; no fields are listed`, KIND));
    }
    return;
  }
  const bases = Node.isInterfaceDeclaration(decl) ? decl.getExtends() : [];
  for (const base of bases) {
    if (isErrorType(base.getType())) {
      report(base, "the base type", "the fields it brings are not listed");
    }
  }
}

module.exports = { isErrorType, isFromStandardLib, reportUnresolved, checkResolved };
