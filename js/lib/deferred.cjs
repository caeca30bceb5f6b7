// Package imports the catalog does not need, left out of the program. A React editor's node
// files import React, an icon library, the canvas library and a UI kit for their components;
// parsing and binding those declaration files (an icon library's alone is megabytes) costs
// more than the catalog. An import of a package (it resolves into node_modules) is left out
// when every name it binds is used only where pygen reads neither a value nor a type that
// matters: in JSX, in function bodies and signatures (components, hooks, handlers), as the
// whole value of an object property (`icon: Sparkles`), as the callee that wraps a component
// (`memo(View)`), or as the type of an interface or type-literal member. The extractor checks
// afterwards that nothing it read went through such an import, and reads the catalog again
// with every import loaded when something did (see extractor.cjs). The app's own files that
// only components need (`component: TextNode` naming the node's component file, which then
// imports the UI kit) are left out the same way, by a stricter rule: no type may name what
// they bind (see componentfiles.cjs for what is checked afterwards).
"use strict";

const fs = require("fs");
const { NODE_MODULES, baseResolver } = require("./resolution.cjs");

const DECLARATION = /\.d\.[cm]?ts$/;
const JSX_FILE = /\.[jt]sx$/;
// `declare global`, `declare module "x"`, `declare namespace`: declarations that reach files
// that never import the file.
const AMBIENT = /\bdeclare\s+(?:global|module|namespace)\b/;

/** Specifiers of a parsed file whose imported names are used only where pygen reads nothing;
 * `typed` (if given) gets those of them a type names or that are imported as types. */
function uiOnlySpecifiers(ts, sf, typed = new Set()) {
  const bound = new Map();
  const blocked = new Set();
  for (const st of sf.statements) {
    const spec = st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier)
      ? st.moduleSpecifier.text : null;
    if (!spec) continue;
    // A re-export or a bare `import "pkg"` (which may augment types) needs the module.
    const clause = ts.isImportDeclaration(st) ? st.importClause : null;
    if (!clause) {
      blocked.add(spec);
      continue;
    }
    for (const name of boundNames(ts, clause)) bound.set(name, spec);
    if (clause.isTypeOnly) typed.add(spec);
  }
  if (!bound.size) return new Set();
  const visit = (node) => {
    if (ts.isImportDeclaration(node)) return;
    if (ts.isExportDeclaration(node)) {
      // `export { Name }`: another file may read what it imported.
      for (const el of exportedLocals(ts, node)) {
        if (bound.has(el)) blocked.add(bound.get(el));
      }
      return;
    }
    if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)
      && ts.isStringLiteral(node.argument.literal)) blocked.add(node.argument.literal.text);
    if (ts.isIdentifier(node) && bound.has(node.text) && !isNameOnly(ts, node)) {
      if (!isUiPosition(ts, node)) blocked.add(bound.get(node.text));
      else if (inType(ts, node)) typed.add(bound.get(node.text));
    }
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(sf, visit);
  return new Set([...bound.values()].filter((spec) => !blocked.has(spec)));
}

/** The local names `export { a, b as c }` (no module specifier) exports. */
function exportedLocals(ts, node) {
  const clause = node.exportClause;
  if (node.moduleSpecifier || !clause || !ts.isNamedExports(clause)) return [];
  return clause.elements.map((el) => (el.propertyName || el.name).text);
}

function boundNames(ts, clause) {
  const names = clause.name ? [clause.name.text] : [];
  const bindings = clause.namedBindings;
  if (bindings && ts.isNamespaceImport(bindings)) names.push(bindings.name.text);
  if (bindings && ts.isNamedImports(bindings)) {
    for (const el of bindings.elements) names.push(el.name.text);
  }
  return names;
}

/** A property name (`a.Name`, `A.Name` in a type), not a reference to a binding. */
function isNameOnly(ts, node) {
  const parent = node.parent;
  return (ts.isPropertyAccessExpression(parent) && parent.name === node)
    || (ts.isQualifiedName(parent) && parent.right === node)
    || ((ts.isPropertySignature(parent) || ts.isPropertyAssignment(parent)
      || ts.isPropertyDeclaration(parent) || ts.isMethodDeclaration(parent)
      || ts.isJsxAttribute(parent)) && parent.name === node);
}

function isUiPosition(ts, node) {
  const parent = node.parent;
  if (ts.isPropertyAssignment(parent) && parent.initializer === node) return true;
  if (ts.isShorthandPropertyAssignment(parent)) return true;
  if (wrapsComponent(ts, node)) return true;
  for (let at = node; at && !ts.isSourceFile(at); at = at.parent) {
    if (ts.isJsxElement(at) || ts.isJsxSelfClosingElement(at) || ts.isJsxFragment(at)
      || isCode(ts, at) || ts.isPropertySignature(at)) return true;
    // A type alias, a heritage clause or a top-level value may be read: stop here.
    if (ts.isTypeAliasDeclaration(at) || ts.isHeritageClause(at)) return false;
  }
  return false;
}

/** A name inside a type (`typeof View` included) or a member's type annotation. */
function inType(ts, node) {
  for (let at = node.parent; at && !ts.isSourceFile(at); at = at.parent) {
    if (ts.isTypeNode(at) || ts.isPropertySignature(at) || ts.isTypeQueryNode(at)) return true;
    if (ts.isExpression(at) && !ts.isExpressionWithTypeArguments(at)) return false;
  }
  return false;
}

/** `const Node = memo(View)`, `forwardRef((props, ref) => ...)`: a call whose arguments are
 * functions or names, assigned whole to a constant; a schema built from a literal is not. */
function wrapsComponent(ts, node) {
  const call = node.parent;
  return ts.isCallExpression(call) && call.expression === node
    && ts.isVariableDeclaration(call.parent) && call.parent.initializer === call
    && call.arguments.length > 0 && call.arguments.every((a) => ts.isIdentifier(a)
      || ts.isArrowFunction(a) || ts.isFunctionExpression(a));
}

/** A function with a body: code that runs, never read as data unless the catalog calls it
 * (which the extractor notices). Function types are types, not code. */
function isCode(ts, node) {
  return ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node)
    || ts.isArrowFunction(node) || ts.isMethodDeclaration(node) || ts.isConstructorDeclaration(node)
    || ts.isGetAccessorDeclaration(node) || ts.isSetAccessorDeclaration(node);
}

/** ts-morph's `resolutionHost` around `inner` (or TypeScript's own resolution): a package
 * import a project file uses only where pygen reads nothing resolves to nothing, and is
 * recorded in `deferred` (specifier → the file it would have loaded, the files that import
 * it so, and by each of them the file it names); so is such an import of a project file
 * when `ownFiles` (no `call:` or `class:` item searches every file of the program). */
function deferringResolution(ts, inner, deferred, ownFiles) {
  return (host, getOptions) => {
    const resolve = baseResolver(ts, inner, host, getOptions);
    const uiOnly = new Map();
    return {
      resolveModuleNames(names, containingFile, reused, redirected, options, containing) {
        const opts = options || getOptions();
        const found = resolve(names, containingFile, reused, redirected, opts, containing);
        if (!containing || NODE_MODULES.test(containingFile)) return found;
        if (!uiOnly.has(containingFile)) {
          const typed = new Set();
          uiOnly.set(containingFile, { skip: uiOnlySpecifiers(ts, containing, typed), typed });
        }
        const { skip, typed } = uiOnly.get(containingFile);
        return found.map((r, i) => {
          if (!r || !skip.has(names[i])) return r;
          if (!r.isExternalLibraryImport
            && !(ownFiles && componentFile(r.resolvedFileName, names[i], typed))) {
            return r;
          }
          // The same specifier may be read in another file: note which files left it out.
          const entry = deferred.get(names[i])
            || { file: r.resolvedFileName, from: new Set(), by: new Map() };
          entry.from.add(containingFile);
          // A relative specifier names another file from another folder.
          entry.by.set(containingFile, r.resolvedFileName);
          deferred.set(names[i], entry);
          return undefined;
        });
      },
    };
  };
}

/** A file of the project only components need (`uiOnlySpecifiers`), which may be left out
 * too: a JSX file (a component's), no type names what it binds, and it declares nothing
 * global or for another module (which would reach files that never import it). What the
 * run read through it is checked afterwards (`componentFilesNeeded`). A plain module used
 * only in function bodies is kept: on the origin app (workspace packages whose helpers
 * import each other) the checker typed such uses, and every run was read twice. */
function componentFile(file, spec, typed) {
  if (!isRelative(spec) || !JSX_FILE.test(file) || typed.has(spec) || NODE_MODULES.test(file)
    || DECLARATION.test(file)) {
    return false;
  }
  try {
    return !AMBIENT.test(fs.readFileSync(file, "utf8"));
  } catch {
    return false;
  }
}

function isRelative(spec) {
  return /^\.\.?(?:\/|$)/.test(spec);
}

/** The specifier of the left-out import that binds a name, noted as one a value needed
 * (`ev.touched`; `use`, the name where it was evaluated, in `ev.leftOutUses` when a project
 * file was left out), or null. */
function deferredImport(ev, symbol, use = null) {
  const decl = symbol && ev.deferred.size ? symbol.getDeclarations()[0] : null;
  const from = decl && decl.getFirstAncestor((a) => ev.Node.isImportDeclaration(a));
  const spec = from ? from.getModuleSpecifierValue() : null;
  const left = spec && ev.deferred.get(spec);
  if (!left || !left.from.has(decl.getSourceFile().getFilePath())) return null;
  ev.touched.add(spec);
  if (use && isRelative(spec)) ev.leftOutUses.add(use.compilerNode);
  return spec;
}

// What a value of a project file left out is: a name only components use (a component, an
// icon), so not data, like a function; where pygen would read it, the run reads it again.
const COMPONENT_VALUE = "a name only components use";

/** What a skipped value is, when it comes through an import left out. */
function leftOutValue(spec) {
  return isRelative(spec) ? COMPONENT_VALUE : `a value of package '${spec}'`;
}

module.exports = {
  deferringResolution, uiOnlySpecifiers, deferredImport, leftOutValue, COMPONENT_VALUE,
};
