// The project's own files only components need, left out of the program (deferred.cjs), and
// the check that nothing the run read depended on them. Such a file can reach what is read in
// four ways, each checked after the run; any one of them reads the catalog again with every
// import (extractor.cjs):
// - through a value: pygen evaluated one of its names other than as an entry key it does
//   not read (there a value is skipped as not static data, whatever it is);
// - through the names its import binds: the checker typed or resolved a use of one;
// - through the type lookup, which weighs every type the program declares: a file it or the
//   files it imports declare a type of a name the lookup asked for, or the lookup compared
//   every type (a structural match);
// - through declarations that reach files without an import (`declare global`, a script).
"use strict";

const fs = require("fs");
const path = require("path");
const { NODE_MODULES, plainHost, pathsMapped } = require("./resolution.cjs");

const RELATIVE = /^\.\.?(?:\/|$)/;
const AMBIENT = /\bdeclare\s+(?:global|module|namespace)\b/;
const MODULE = /^\s*(?:import|export)\b/m;
// Declared type names, in code or not (a name in a comment only makes the check stricter);
// `import { type X }` declares nothing.
const DECLARED =
  /\b(?:interface|type|class|enum)\s+([A-Za-z_$][\w$]*)\s*(?:[<={]|extends\b|implements\b)/g;

/** The type index (name → declarations) recording what the lookup asks of it: the names
 * asked (lower-cased) and whether it was walked whole. */
function recordingIndex(byName, asked = new Set()) {
  const index = new Map(byName);
  index.asked = asked;
  index.walked = false;
  index.get = (name) => {
    index.asked.add(String(name).toLowerCase());
    return Map.prototype.get.call(index, name);
  };
  index.values = () => {
    index.walked = true;
    return Map.prototype.values.call(index);
  };
  return index;
}

/** The relative `deferred` entries: `[{ spec, by }]` (importing file → the file left out). */
function leftOutFiles(deferred) {
  return [...deferred].filter(([spec]) => RELATIVE.test(spec))
    .map(([spec, entry]) => ({ spec, by: entry.by }));
}

/** Whether the run read something through a project file left out of the program. */
function componentFilesNeeded(ctx, ev) {
  const left = leftOutFiles(ctx.deferred);
  if (!left.length) return false;
  // A value through it was evaluated where pygen reads it.
  const unread = ctx.unreadValues || new Set();
  if ([...ev.leftOutUses].some((use) => !unread.has(use))) return true;
  if (left.some((l) => usesChecked(ctx, l))) return true;
  const closure = unloadedClosure(ctx, left.flatMap((l) => [...l.by.values()]));
  if (!closure) return true;
  // Read for this check: a change to one of them may change its answer.
  for (const { file } of closure) ctx.consulted.add(file);
  const { asked, walked } = ctx.index;
  return closure.some(({ names }) => names.length
    && (walked || names.some((n) => asked.has(n.toLowerCase()))));
}

/** Whether the checker looked at a use of a name the left-out import binds in one of its
 * files: typed it, or resolved its symbol as an expression does. TypeScript numbers a node
 * the first time it keeps anything about it; a node with a number, or a parser that does
 * not number nodes, counts. (Looking the name up, as pygen's value reader does, keeps
 * nothing about its uses: that reader stops at the import itself.) */
function usesChecked(ctx, { spec, by }) {
  const { ts } = ctx.tsMorph;
  for (const file of by.keys()) {
    const sf = ctx.project.getSourceFile(file);
    if (!sf) return true;
    const names = new Set();
    for (const st of sf.compilerNode.statements) {
      if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier)
        && st.moduleSpecifier.text === spec && st.importClause) {
        for (const name of bound(ts, st.importClause)) names.add(name);
      }
    }
    let checked = false;
    const visit = (node) => {
      if (checked || ts.isImportDeclaration(node)) return;
      if (ts.isIdentifier(node) && names.has(node.text) && node.id !== 0) checked = true;
      else ts.forEachChild(node, visit);
    };
    ts.forEachChild(sf.compilerNode, visit);
    if (checked) return true;
  }
  return false;
}

function bound(ts, clause) {
  const names = clause.name ? [clause.name.text] : [];
  const b = clause.namedBindings;
  if (b && ts.isNamespaceImport(b)) names.push(b.name.text);
  if (b && ts.isNamedImports(b)) names.push(...b.elements.map((el) => el.name.text));
  return names;
}

/** The left-out files and the project files they import that are not in the program, each
 * with the type names it declares; null when one declares something global. */
function unloadedClosure(ctx, files) {
  const seen = new Set();
  const out = [];
  const todo = [...files];
  while (todo.length) {
    const file = path.resolve(todo.pop());
    if (seen.has(file)) continue;
    seen.add(file);
    const read = unloadedFile(ctx, file);
    if (!read) return null;
    out.push({ file, names: read.names });
    todo.push(...read.imports);
  }
  return out;
}

/** A file not in the program, read as text (once per run): the type names it declares and
 * the project files it imports that are not in the program; null when it declares
 * something global or cannot be read. */
function unloadedFile(ctx, file) {
  if (!ctx.unloaded) ctx.unloaded = new Map();
  if (!ctx.unloaded.has(file)) ctx.unloaded.set(file, readUnloaded(ctx, file));
  return ctx.unloaded.get(file);
}

function readUnloaded(ctx, file) {
  const { ts } = ctx.tsMorph;
  let text;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    return null;
  }
  if (AMBIENT.test(text) || !MODULE.test(text)) return null;
  const imports = [];
  for (const imp of ts.preProcessFile(text, true, true).importedFiles) {
    const found = resolveOwn(ctx, imp.fileName, file);
    if (found && !ctx.project.getSourceFile(found)) imports.push(found);
  }
  return { names: [...text.matchAll(DECLARED)].map((m) => m[1]), imports };
}

/** The project file `spec` names from `file`, or null (a package, or nothing). */
function resolveOwn(ctx, spec, file) {
  const { ts } = ctx.tsMorph;
  const options = ctx.project.getCompilerOptions();
  if (!mayBeOwn(spec, options)) return null;
  if (!ctx.unloadedHost) {
    ctx.unloadedHost = plainHost(ts, ts.sys);
    ctx.unloadedCache = ts.createModuleResolutionCache(ctx.request.root, (f) => f, options);
    ctx.mapped = new Map();
  }
  // A `paths` mapping that found a file of the project finds it from any folder.
  const mapped = pathsMapped(spec, options);
  if (mapped && ctx.mapped.has(spec)) return ctx.mapped.get(spec);
  const r = ts.resolveModuleName(spec, file, options, ctx.unloadedHost, ctx.unloadedCache)
    .resolvedModule;
  const found = r && !r.isExternalLibraryImport && !NODE_MODULES.test(r.resolvedFileName)
    ? r.resolvedFileName : null;
  if (mapped && found) ctx.mapped.set(spec, found);
  return found;
}

/** Whether a specifier may name a file of the project: relative, a subpath import (`#x`),
 * or mapped by `paths` or `baseUrl`; any other names a package (resolving the thousands of
 * package imports of components would cost more than they could tell). */
function mayBeOwn(spec, options) {
  return /^[./#]/.test(spec) || Boolean(options.baseUrl) || pathsMapped(spec, options);
}

/** Importing file → the files left out of the program that it reaches through the imports
 * it left out (all of them a node reading that file depends on). */
function leftOutBy(ctx) {
  if (!ctx.leftOutBy) {
    ctx.leftOutBy = new Map();
    for (const { by } of leftOutFiles(ctx.deferred)) {
      for (const [from, file] of by) {
        const reach = (unloadedClosure(ctx, [file]) || [{ file }]).map((c) => c.file);
        ctx.leftOutBy.set(from, [...ctx.leftOutBy.get(from) || [], ...reach]);
      }
    }
  }
  return ctx.leftOutBy;
}

module.exports = { recordingIndex, componentFilesNeeded, leftOutFiles, leftOutBy };
