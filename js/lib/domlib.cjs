// The browser's declarations (TypeScript's DOM, web worker and script host libs), left out of a
// first run. A browser editor's tsconfig lists `dom`, or takes its target's default libs,
// which hold it: 2 MB of declarations, a third of the origin app's program, that a catalog's
// data types rarely name. When a run leaves them out, the type texts it read are checked for
// any name those libs declare (`File`, `HTMLElement`, `Blob`…); one such name, or a type
// that did not resolve, and the catalog is read again with every lib (extractor.cjs). A type
// is checked by its text, so a name React's types stand in for (an empty `HTMLElement`)
// reads it again too.
"use strict";

// ts-morph's own copy of TypeScript's lib files (its dependency, bundled with it).
const { getLibFiles } = require("@ts-morph/common");
const path = require("path");

const BROWSER_LIB = /^lib\.(?:dom|webworker|scripthost)\b/;
// The libs a target's default holds beside the language's own (`lib.es2022.full.d.ts`).
const FULL = /^lib\.(es\w+)\.full\.d\.ts$/;

/** The compiler options without the browser's libs, whether any were left out, and the
 * project's own `lib` (to put back: `restoreIfNamed`). */
function withoutBrowserLibs(ts, options) {
  const none = { options, left: false, lib: null };
  if (!options || options.noLib) return none;
  if (options.lib) {
    const kept = options.lib.filter((lib) => !BROWSER_LIB.test(libFile(lib)));
    return kept.length === options.lib.length ? none
      : { options: { ...options, lib: kept }, left: true, lib: options.lib };
  }
  const fallback = ts.getDefaultLibFileName(options);
  const full = FULL.exec(fallback);
  const lib = full ? `lib.${full[1]}.d.ts` : fallback === "lib.d.ts" ? "lib.es5.d.ts" : null;
  // The target's default: TypeScript picks it again when `lib` is unset.
  return lib ? { options: { ...options, lib: [lib] }, left: true, lib: undefined } : none;
}

// `lib` holds file names once parsed from a tsconfig (`lib.dom.d.ts`), short names when given
// as options (`dom`).
function libFile(lib) {
  return lib.startsWith("lib.") ? lib : `lib.${lib.toLowerCase()}.d.ts`;
}

let browserNames = null;

/** The type and constructor names the browser's libs declare (capitalised: `File`, not the
 * `name` and `status` globals, which no type text names). Read once per process. */
function declaredNames() {
  if (browserNames) return browserNames;
  browserNames = new Set();
  // The lib files come minified (one line): a declaration starts after `;`, `}` or a space.
  const kinds = "interface|type|var|function|class|enum|namespace";
  const declaration = new RegExp(
    `(?:^|[\\s;{}])(?:declare\\s+)?(?:${kinds})\\s+([A-Z][\\w$]*)`, "g");
  for (const { fileName, text } of getLibFiles()) {
    if (!BROWSER_LIB.test(fileName)) continue;
    for (const match of text.matchAll(declaration)) browserNames.add(match[1]);
  }
  return browserNames;
}

/** The type texts of what a run read: fields, computed values, the workflow type. */
function typeTexts(value, into = []) {
  if (Array.isArray(value)) {
    for (const item of value) typeTexts(item, into);
  } else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      const typed = key === "type_text" || (key === "name" && "kind" in value);
      if (typeof item === "string" && typed) {
        into.push(item);
      } else typeTexts(item, into);
    }
  }
  return into;
}

function words(text) {
  return [...text.matchAll(/[A-Za-z_$][\w$]*/g)].map((m) => m[0]);
}

/** Whether `name`, one the browser's libs declare, resolves to a global they would add to
 * (React's stand-in `HTMLElement`, an app's `declare global` augmentation). */
function globalBrowserName(ts, checker, name) {
  if (typeof checker.resolveName !== "function") return true;
  return Boolean(checker.resolveName(name, undefined, ts.SymbolFlags.Type | ts.SymbolFlags.Value,
    false));
}

// The identifier a type names: `File`, `React` of `React.FC`, `x` of `typeof x.y`.
function leftmost(ts, name) {
  let n = name;
  while (n && !ts.isIdentifier(n)) n = ts.isQualifiedName(n) ? n.left : n.expression;
  return n;
}

function referenced(ts, node) {
  if (ts.isTypeReferenceNode(node)) return leftmost(ts, node.typeName);
  if (ts.isExpressionWithTypeArguments(node)) return leftmost(ts, node.expression);
  if (ts.isTypeQueryNode(node)) return leftmost(ts, node.exprName);
  return null;
}

/**
 * Whether the types written at the unresolved-type warnings' lines, and the app's own
 * declarations they name, name a browser type that does not resolve or resolves to a global.
 * An unresolved type reads as `any`, so its text no longer says which name failed.
 */
function unresolvedNeedsBrowser(ctx, checker, names) {
  const { ts } = ctx.tsMorph;
  const seen = new Set();
  const needs = (node) => {
    const id = referenced(ts, node);
    if (id) {
      // A name that does not resolve gets the checker's `unknown` symbol, declared nowhere.
      const found = checker.getSymbolAtLocation(id);
      const symbol = found && found.declarations && found.declarations.length ? found : null;
      if (names.has(id.text) && (!symbol || globalBrowserName(ts, checker, id.text))) return true;
      const target = symbol && symbol.flags & ts.SymbolFlags.Alias
        ? checker.getAliasedSymbol(symbol) : symbol;
      for (const decl of (target && target.declarations) || []) {
        const file = decl.getSourceFile();
        if (file.isDeclarationFile || seen.has(decl)) continue;
        seen.add(decl);
        if (needs(decl)) return true;
      }
    }
    return Boolean(ts.forEachChild(node, (child) => needs(child) || undefined));
  };
  return warningLines(ctx).some(({ file, line }) => {
    const start = file.getPositionOfLineAndCharacter(line - 1, 0);
    const end = line < file.getLineStarts().length
      ? file.getPositionOfLineAndCharacter(line, 0) : file.end;
    // The whole statement around the line: its other parts only make the answer safer.
    return file.statements.some((st) => st.getStart(file) < end && st.end > start && needs(st));
  });
}

function warningLines(ctx) {
  const program = ctx.project.getProgram().compilerObject;
  return ctx.diagnostics.filter((d) => d.kind === "unresolved-type" && d.file).map((d) => ({
    file: program.getSourceFile(path.resolve(ctx.request.root, d.file)), line: d.line,
  })).filter((w) => w.file && w.line);
}

/**
 * Whether a run that left the browser's libs out read what they declare: a computed value
 * typed `any` (`window.innerWidth` without them), a type text naming a global they would add
 * to, or an unresolved type that names one of theirs. A name the text owes to a module's own
 * type (`Node` imported from a canvas library) does not count.
 */
function browserLibsNeeded(ctx, checker, read) {
  const anyTyped = (n) => (n.computed || []).some((c) => /\bany\b/.test(c.type_text));
  if (read.nodes.some(anyTyped)) return true;
  const names = declaredNames();
  const { ts } = ctx.tsMorph;
  const hits = new Set(typeTexts(read).flatMap(words));
  if ([...hits].some((name) => names.has(name) && globalBrowserName(ts, checker, name))) {
    return true;
  }
  return unresolvedNeedsBrowser(ctx, checker, names);
}

/** Whether this run left the browser's libs out and read what they declare. A
 * `/// <reference lib="dom" />` in a file loads them anyway: then nothing was left out. */
function neededBrowserLibs(ctx, read) {
  if (!ctx.browserLibsLeft) return false;
  const program = ctx.project.getProgram().compilerObject;
  if (program.getSourceFiles().some((sf) => /[\\/]lib\.dom\.d\.ts$/.test(sf.fileName))) {
    return false;
  }
  return browserLibsNeeded(ctx, program.getTypeChecker(), read);
}

/** The names a file declares or imports, anywhere in it (a type parameter, a local type):
 * a reference to one of them is not the browser's. */
function boundNames(ts, sf) {
  const bound = new Set();
  const visit = (node) => {
    if (node.name && ts.isIdentifier(node.name) && (ts.isDeclaration(node)
      || ts.isImportSpecifier(node) || ts.isImportClause(node))) bound.add(node.name.text);
    if (ts.isNamespaceImport(node)) bound.add(node.name.text);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return bound;
}

/** Whether a file names a type the browser's libs declare that it does not bind itself. */
function namesFreeBrowserType(ts, sf, names) {
  const tokens = sf.text.match(/\b[A-Z][\w$]*/g) || [];
  if (!tokens.some((t) => names.has(t))) return false;
  const bound = boundNames(ts, sf);
  const visit = (node) => {
    const id = referenced(ts, node);
    if (id && names.has(id.text) && !bound.has(id.text)) return true;
    return ts.forEachChild(node, visit) || undefined;
  };
  return Boolean(ts.forEachChild(sf, visit));
}

/**
 * Puts the browser's libs back, before anything is checked, when the catalog's own files
 * (those holding the entries and the app files they import) name one of their types: such a
 * catalog would need them, and putting them back now costs no parsing of the files already
 * read, where a second run would parse all of them again. What this misses (a type named
 * further away) the check after the run (`neededBrowserLibs`) catches.
 */
function restoreIfNamed(ctx, entryFiles) {
  if (!ctx.browserLibsLeft) return;
  const { ts } = ctx.tsMorph;
  const names = declaredNames();
  const program = ctx.project.getProgram().compilerObject;
  const own = (sf) => !sf.isDeclarationFile && !/[\\/]node_modules[\\/]/.test(sf.fileName);
  const files = new Set(entryFiles.map((f) => program.getSourceFile(f)).filter(Boolean));
  for (const sf of [...files]) {
    for (const spec of sf.imports || []) {
      const resolved = program.getResolvedModuleFromModuleSpecifier
        ? program.getResolvedModuleFromModuleSpecifier(spec, sf) : null;
      const target = resolved && resolved.resolvedModule
        && program.getSourceFile(resolved.resolvedModule.resolvedFileName);
      if (target) files.add(target);
    }
  }
  if (![...files].some((sf) => own(sf) && namesFreeBrowserType(ts, sf, names))) return;
  ctx.project.compilerOptions.set({ lib: ctx.browserLib });
  ctx.browserLibsLeft = false;
  ctx.browserLibsRestored = true;
}

module.exports = { withoutBrowserLibs, neededBrowserLibs, restoreIfNamed };
