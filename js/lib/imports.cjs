// Imports that do not resolve, gathered per module specifier: which data types and fields
// each one leaves unknown, reported once per specifier (not once per field) with the nodes it
// costs, as a warning with code "unresolved-import" (an error under --strict).
"use strict";

const { locate } = require("./errors.cjs");

// How many affected names a warning lists before it counts the rest.
const SHOWN = 6;

/** `{ specifier, declaration }` of the dead import a name comes from in a file, or null. */
function deadImportOf(sourceFile, name) {
  const head = name.split(/[.<[\s]/)[0];
  for (const imp of sourceFile.getImportDeclarations()) {
    const names = imp.getNamedImports().map((n) => (n.getAliasNode() || n.getNameNode()).getText());
    const def = imp.getDefaultImport();
    const ns = imp.getNamespaceImport();
    if (def) names.push(def.getText());
    if (ns) names.push(ns.getText());
    if (names.includes(head) && !imp.getModuleSpecifierSourceFile()) {
      return { specifier: imp.getModuleSpecifierValue(), declaration: imp };
    }
  }
  return null;
}

/** Note that `dead` leaves `what` unknown; `owner` is the data type it belongs to, if any. */
function noteDeadImport(ctx, dead, what, owner) {
  if (!ctx.deadImports) ctx.deadImports = new Map();
  const key = dead.specifier;
  if (!ctx.deadImports.has(key)) ctx.deadImports.set(key, { at: dead.declaration, affected: [] });
  ctx.deadImports.get(key).affected.push({ what, owner });
}

/** One warning per dead import specifier, naming what it costs; `users` maps type → nodes. */
function deadImportWarnings(ctx, users) {
  const out = [];
  for (const [specifier, { at, affected }] of ctx.deadImports || []) {
    const items = [...new Set(affected.map((a) => describe(a, users)))];
    const shown = items.slice(0, SHOWN).join("; ");
    const more = items.length > SHOWN ? `; and ${items.length - SHOWN} more` : "";
    const loc = locate(ctx.request, at, "");
    out.push({
      level: "warning", kind: "unresolved-import", file: loc.file, line: loc.line,
      message: `cannot resolve '${specifier}', so these types are unknown: ${shown}${more}`,
    });
  }
  // In file order, whatever order the types were read in.
  return out.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
}

function describe({ what, owner }, users) {
  const nodes = owner ? users.get(owner) || [] : [];
  const list = nodes.map((n) => `'${n}'`).join(", ");
  return nodes.length ? `${what} (node${nodes.length > 1 ? "s" : ""} ${list})` : what;
}

/** Non-relative import specifiers of the project's own files that resolve to nothing;
 * `left(file, specifier)` tells the imports a partial run left out on purpose. */
function deadSpecifiers(project, left = () => false) {
  const out = new Set();
  for (const sf of project.getSourceFiles()) {
    if (sf.isDeclarationFile() || /[\\/]node_modules[\\/]/.test(sf.getFilePath())) continue;
    const file = sf.getFilePath();
    for (const imp of sf.getImportDeclarations()) {
      const spec = imp.getModuleSpecifierValue();
      // (what a partial run left out first: a nodes file imports every node's file)
      if (!left(file, spec) && !imp.getModuleSpecifierSourceFile()) out.add(spec);
    }
  }
  return [...out].sort();
}

module.exports = { deadImportOf, noteDeadImport, deadImportWarnings, deadSpecifiers };
