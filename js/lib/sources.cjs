// Where a catalog lives: each item of `definitions` is a constant in the nodes file (`NAME`),
// a constant in other files (`path/glob.ts:NAME`), the object argument of every call of a
// function (`call:registerNode`), a class property (`class:description`), or the
// registrations of a canvas library (`registrations:litegraph`, registrations.cjs). Each yields
// entries: the value, its key (object form), where it is written, and the item it came from.
// The files those items need in the program are added by sourcefiles.cjs.
"use strict";

const path = require("path");
const { UserError, diagnosticAt } = require("./errors.cjs");
const { isLibFile, oneLine } = require("./util.cjs");
const values = require("./values.cjs");
const calls = require("./calls.cjs");
const { Dynamic } = values;
const { fieldProperty } = require("./entrypath.cjs");
const { registrationEntries } = require("./registrations.cjs");

function snippet(node, max = 80) {
  const text = oneLine(node.getText());
  return text.length > max ? text.slice(0, max - 1) + "…" : text;
}

/** The user's own files of the project, in path order. */
function userFiles(ctx) {
  return ctx.project.getSourceFiles()
    .filter((sf) => !isLibFile(sf) && !sf.isDeclarationFile()
      && !/[\\/]node_modules[\\/]/.test(sf.getFilePath()))
    .sort((a, b) => (a.getFilePath() < b.getFilePath() ? -1 : 1));
}

function definitionEntries(ctx, ev) {
  const entries = [];
  for (const [i, spec] of ctx.specs.entries()) {
    const label = ctx.request.definitions[i];
    const add = (fallback, value, key) =>
      entries.push({ node: values.origin(ev, value) || fallback, value, key, spec: label });
    // An entry of its own literal is evaluated when first read: a partial run (request
    // `only`) counts every entry but evaluates only those it reads.
    add.lazy = (fallback, evaluate) => entries.push(lazyEntry(ev, fallback, evaluate, label));
    if (spec.kind === "name") constantEntries(ctx, ev, ctx.sourceFile, spec.name, label, add);
    else if (spec.kind === "file") {
      const files = ctx.project.getSourceFiles(path.resolve(ctx.request.root, spec.glob));
      for (const sf of [...files].sort((a, b) => (a.getFilePath() < b.getFilePath() ? -1 : 1))) {
        if (spec.name === "*") exportedEntries(ctx, ev, sf, add);
        else constantEntries(ctx, ev, sf, spec.name, label, add);
      }
    } else if (spec.kind === "call") callEntries(ctx, ev, spec.name, add);
    else if (spec.kind === "registrations") {
      registrationEntries(ctx, ev, spec.name, userFiles(ctx), add);
    }
    else classEntries(ctx, ev, spec, add);
  }
  return entries;
}

function findDefinitions(tsMorph, sourceFile, name) {
  const local = sourceFile.getVariableDeclaration(name);
  if (local) return local;
  // Re-exported or imported definitions: follow the symbol to its declaration.
  for (const symbol of sourceFile.getExportSymbols()) {
    if (symbol.getName() !== name) continue;
    const target = symbol.isAlias() ? symbol.getAliasedSymbol() : symbol;
    const decl = target
      && target.getDeclarations().find((d) => tsMorph.Node.isVariableDeclaration(d));
    if (decl) return decl;
  }
  return null;
}

/** The entries of one definitions constant: an array, an object keyed by type, or one node. */
function constantEntries(ctx, ev, sourceFile, name, label, add) {
  const { Node } = ctx.tsMorph;
  const decl = findDefinitions(ctx.tsMorph, sourceFile, name);
  if (!decl) {
    throw new UserError(sourceFile, `no variable named '${name}' found; set 'definitions' in `
      + "the pygen config to the name of the node definitions constant");
  }
  const init = decl.getInitializer();
  if (!init) throw new UserError(decl, `'${name}' has no initializer`);
  const literal = values.unwrap(ctx.tsMorph, init);
  if (Node.isArrayLiteralExpression(literal)) arrayEntries(ctx, ev, literal, label, add);
  else if (Node.isObjectLiteralExpression(literal) && isOneEntry(ctx, literal)) {
    add(literal, values.evaluateValue(ev, literal), null);
  } else if (Node.isObjectLiteralExpression(literal)) {
    objectEntries(ctx, ev, literal, label, add);
  } else evaluatedEntries(ev, literal, name, add);
}

/**
 * `path/glob.ts:*`: every exported constant of the file that is one catalog entry (an object
 * literal with the entry's type, label or default data), in the order written. Other exports
 * (helpers, types, components) are not entries and are passed over.
 */
function exportedEntries(ctx, ev, sourceFile, add) {
  const { Node } = ctx.tsMorph;
  for (const statement of sourceFile.getVariableStatements()) {
    if (!statement.isExported()) continue;
    for (const decl of statement.getDeclarations()) {
      const init = decl.getInitializer();
      const literal = init && values.unwrap(ctx.tsMorph, init);
      if (literal && Node.isObjectLiteralExpression(literal) && isOneEntry(ctx, literal)) {
        add(literal, values.evaluateValue(ev, literal), null);
      }
    }
  }
}

/** A catalog built by an expression (`BASE.map(…)`, a helper): its value, when static. */
function evaluatedEntries(ev, node, name, add) {
  const value = values.evaluateValue(ev, node);
  if (Array.isArray(value)) value.forEach((entry) => add(node, entry, null));
  else if (value && typeof value === "object" && !(value instanceof Dynamic)) {
    for (const key of Object.keys(value)) add(node, value[key], key);
  } else {
    const why = value instanceof Dynamic ? `: it is ${value.why}` : "";
    throw new UserError(node, `'${name}' must be an array or object literal, or built from `
      + `static data, found '${snippet(node, 60)}'${why}`);
  }
}

/** A constant that is one node (`plugin.ts: definition = { type, label, … }`), not a catalog. */
function isOneEntry(ctx, literal) {
  const f = ctx.request.entryFields;
  const { Node } = ctx.tsMorph;
  const scalar = (key) => {
    if (key.includes(".")) return Boolean(fieldProperty(ctx.tsMorph, literal, key));
    const prop = literal.getProperty(key);
    if (!prop) return false;
    if (!Node.isPropertyAssignment(prop)) return true;
    const init = values.unwrap(ctx.tsMorph, prop.getInitializerOrThrow());
    return !Node.isObjectLiteralExpression(init);
  };
  return scalar(f.type) || scalar(f.label)
    || Boolean(fieldProperty(ctx.tsMorph, literal, f.default_data));
}

/** A part of the catalog that cannot be read: its entries are left out, with a warning. */
function unreadable(ctx, node, label, why) {
  ctx.diagnostics.push({ ...diagnosticAt(ctx, node, `cannot read '${snippet(node)}' in `
    + `${label}: it is ${why}; the nodes it adds are left out`), kind: "computed" });
}

function spreadWhy(spread, what) {
  return spread instanceof Dynamic ? spread.why : `not a static ${what}`;
}

/** An entry whose value is evaluated on first use, then kept. */
function lazyEntry(ev, fallback, evaluate, label) {
  let done = null;
  const read = () => (done = done || { value: evaluate() });
  return {
    get node() {
      return values.origin(ev, read().value) || fallback;
    },
    get value() {
      return read().value;
    },
    key: null,
    spec: label,
  };
}

function arrayEntries(ctx, ev, literal, label, add) {
  for (const element of literal.getElements()) {
    if (!ev.Node.isSpreadElement(element)) {
      add.lazy(element, () => values.evaluateValue(ev, element));
      continue;
    }
    const spread = values.evaluateValue(ev, element.getExpression());
    if (!Array.isArray(spread)) unreadable(ctx, element, label, spreadWhy(spread, "array"));
    else for (const value of spread) add(element, value, null);
  }
}

function objectEntries(ctx, ev, literal, label, add) {
  const { Node } = ev;
  for (const prop of literal.getProperties()) {
    if (Node.isSpreadAssignment(prop)) {
      const spread = values.evaluateValue(ev, prop.getExpression());
      if (!spread || typeof spread !== "object" || Array.isArray(spread)
        || spread instanceof Dynamic) unreadable(ctx, prop, label, spreadWhy(spread, "object"));
      else for (const key of Object.keys(spread)) add(prop, spread[key], key);
    } else if (Node.isPropertyAssignment(prop) || Node.isShorthandPropertyAssignment(prop)) {
      const key = values.propertyName(ev, prop);
      if (key instanceof Dynamic) {
        unreadable(ctx, prop, label, `keyed by ${key.why}`);
        continue;
      }
      const value = Node.isPropertyAssignment(prop)
        ? values.evaluateValue(ev, prop.getInitializerOrThrow())
        : values.evaluateValue(ev, prop.getNameNode());
      add(prop, value, key);
    }
  }
}

/** The first object argument of every call of `name` (`registerNode({ … })`). */
function callEntries(ctx, ev, name, add) {
  const { SyntaxKind, Node } = ctx.tsMorph;
  for (const sf of userFiles(ctx)) {
    if (!sf.getFullText().includes(name)) continue;
    for (const call of sf.getDescendantsOfKind(SyntaxKind.CallExpression)) {
      const callee = values.unwrap(ctx.tsMorph, call.getExpression());
      const calleeName = Node.isIdentifier(callee) ? callee.getText()
        : Node.isPropertyAccessExpression(callee) ? callee.getName() : null;
      if (calleeName !== name) continue;
      const args = call.getArguments();
      const arg = args.find((a) => Node.isObjectLiteralExpression(values.unwrap(ctx.tsMorph, a)))
        || args[0];
      objectOrWarn(ctx, ev, arg || call, arg ? values.evaluateValue(ev, arg) : null,
        `the argument of this call of ${name}`, add);
    }
  }
}

/**
 * Whether a class implements or extends `base` (by name, type arguments aside), itself or
 * through a class it extends; every class when no base is given.
 */
function hasBase(cls, base) {
  if (!base) return true;
  const seen = new Set();
  for (let at = cls; at && !seen.has(at); at = baseClass(at)) {
    seen.add(at);
    const clauses = [...at.getImplements(), ...(at.getExtends() ? [at.getExtends()] : [])];
    if (clauses.some((c) => c.getExpression().getText().split(".").pop() === base)) return true;
  }
  return false;
}

/** The class a class extends, when the project declares it (a library's is not followed). */
function baseClass(cls) {
  try {
    return cls.getBaseClass();
  } catch {
    return undefined;
  }
}

/** The object assigned to property `name` of every class (`description = { … }`). */
function classEntries(ctx, ev, spec, add) {
  const { SyntaxKind } = ctx.tsMorph;
  const { name, base } = spec;
  if (name === "*") {
    memberEntries(ctx, ev, base, add);
    return;
  }
  for (const sf of userFiles(ctx)) {
    if (!sf.getFullText().includes(name)) continue;
    for (const cls of sf.getDescendantsOfKind(SyntaxKind.ClassDeclaration)) {
      if (!hasBase(cls, base)) continue;
      const init = classValue(ctx, cls, name);
      if (!init) continue;
      const what = `'${name}' of class ${cls.getName() || "(anonymous)"}`;
      const sites = boundConstructions(ctx, cls, init);
      if (!sites.length) objectOrWarn(ctx, ev, init, values.evaluateValue(ev, init), what, add);
      for (const site of sites) {
        objectOrWarn(ctx, ev, init, withArguments(ev, site, init), what, add);
      }
    }
  }
}

/**
 * Where a class whose entry reads its constructor's parameters is constructed
 * (`new DateTimeV2(baseDescription)`): each such call is one entry, its parameters bound to
 * the call's arguments. None when the entry reads no parameter or nobody constructs the class.
 */
function boundConstructions(ctx, cls, init) {
  const { SyntaxKind, Node } = ctx.tsMorph;
  const ctor = cls.getConstructors()[0];
  const name = cls.getName();
  if (!ctor || !name || !ctor.getParameters().length || !ctor.containsRange(init.getPos(),
    init.getEnd())) return [];
  const sites = [];
  for (const sf of userFiles(ctx)) {
    if (!sf.getFullText().includes(`new ${name}(`)) continue;
    for (const call of sf.getDescendantsOfKind(SyntaxKind.NewExpression)) {
      const callee = call.getExpression();
      if (!Node.isIdentifier(callee) || callee.getText() !== name) continue;
      const symbol = callee.getSymbol();
      const target = symbol && (symbol.isAlias() ? symbol.getAliasedSymbol() : symbol);
      if (target && target.getDeclarations().includes(cls)) sites.push({ call, ctor });
    }
  }
  return sites;
}

/** The entry of one construction: the constructor's parameters bound to its arguments. */
function withArguments(ev, site, init) {
  const args = site.call.getArguments().map((arg) => values.evaluateValue(ev, arg));
  const frame = new Map();
  site.ctor.getParameters().forEach((param, i) => {
    frame.set(param, i < args.length ? args[i] : values.UNDEFINED);
  });
  ev.frames.push(frame);
  try {
    return values.evaluateValue(ev, init);
  } finally {
    ev.frames.pop();
  }
}

/**
 * `class:*`: a class whose own members are the entry (`this.label = …; this.inputs = […]` in
 * the constructor, or property initialisers). Only classes that set the entry's type field
 * are entries; a member known only at run time is computed like any other value.
 */
function memberEntries(ctx, ev, base, add) {
  const { SyntaxKind } = ctx.tsMorph;
  const typeKey = String(ctx.request.entryFields.type).split(".")[0];
  for (const sf of userFiles(ctx)) {
    if (!sf.getFullText().includes(typeKey)) continue;
    for (const cls of sf.getDescendantsOfKind(SyntaxKind.ClassDeclaration)) {
      // An abstract class is never constructed: its members are its subclasses' defaults.
      if (cls.isAbstract() || !hasBase(cls, base)) continue;
      const members = classMembers(ctx, cls);
      if (!members.has(typeKey)) continue;
      const value = {};
      // `this.baseClasses = [this.type]`: a member reads those assigned before it.
      ev.thisValue = value;
      for (const [key, node] of members) value[key] = values.evaluateValue(ev, node);
      calls.helperPushes(ctx, ev, cls, value);
      ev.thisValue = null;
      ev.origins.set(value, cls);
      add(cls, value, null);
    }
  }
}

/** Member name → its value's expression: initialisers, then constructor assignments. */
function classMembers(ctx, cls) {
  const { Node } = ctx.tsMorph;
  const members = new Map();
  for (const prop of cls.getInstanceProperties()) {
    if (Node.isPropertyDeclaration(prop) && prop.getInitializer()) {
      members.set(prop.getName(), prop.getInitializer());
    }
  }
  for (const ctor of cls.getConstructors()) {
    for (const statement of ctor.getStatements()) {
      const expr = Node.isExpressionStatement(statement) && statement.getExpression();
      if (!expr || !Node.isBinaryExpression(expr) || expr.getOperatorToken().getText() !== "=") {
        continue;
      }
      const left = expr.getLeft();
      if (Node.isPropertyAccessExpression(left)
        && left.getExpression().getKind() === ctx.tsMorph.SyntaxKind.ThisKeyword) {
        members.set(left.getName(), expr.getRight());
      }
    }
  }
  return members;
}

/** A property initialiser, or `this.<name> = <expression>` in the constructor. */
function classValue(ctx, cls, name) {
  const { Node } = ctx.tsMorph;
  const prop = cls.getInstanceProperty(name) || cls.getStaticProperty(name);
  if (prop && Node.isPropertyDeclaration(prop) && prop.getInitializer()) {
    return prop.getInitializer();
  }
  for (const ctor of cls.getConstructors()) {
    for (const statement of ctor.getStatements()) {
      const expr = Node.isExpressionStatement(statement) && statement.getExpression();
      if (!expr || !Node.isBinaryExpression(expr)) continue;
      const left = expr.getLeft();
      if (expr.getOperatorToken().getText() === "=" && Node.isPropertyAccessExpression(left)
        && left.getExpression().getKind() === ctx.tsMorph.SyntaxKind.ThisKeyword
        && left.getName() === name) return expr.getRight();
    }
  }
  return null;
}

/** Adds a found value as an entry, or warns that it is not a static object. */
function objectOrWarn(ctx, ev, node, value, what, add) {
  if (value && typeof value === "object" && !Array.isArray(value) && !(value instanceof Dynamic)) {
    add(node, value, null);
    return;
  }
  const why = value instanceof Dynamic ? value.why : "not an object";
  ctx.diagnostics.push({ ...diagnosticAt(ctx, node, `${what} is ${why}; no node is read from `
    + `'${snippet(node)}'`), kind: "computed" });
}

module.exports = { definitionEntries, snippet };
