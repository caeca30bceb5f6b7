// The static evaluator: turns the expressions of the definitions literal into plain data, or
// into a Dynamic saying why a value is not static data. Each declaration is evaluated once and
// its value shared (values are never mutated after construction); every object built from a
// literal remembers that literal, so an entry reached through spreads and imports is still
// reported at the line where it is written.
"use strict";

const { Dynamic, SPREADS, UNDEFINED, isPlainData, findDynamic, strip, toJson } = require(
  "./plaindata.cjs");
const { singleReturn } = require("./util.cjs");
const { deferredImport, leftOutValue } = require("./deferred.cjs");

// Bounds of one value's evaluation, so a pathological file cannot hang the run.
const MAX_CALL_DEPTH = 24;
const MAX_STEPS = 20000;

/**
 * One run's evaluation state: the declarations being evaluated, done, and object origins.
 * `evaluateCall` follows the calls it can (calls.cjs); it is passed in, because following a
 * call evaluates its body with this module.
 */
function newEvaluation(tsMorph, project, evaluateCall) {
  return {
    tsMorph,
    evaluateCall,
    Node: tsMorph.Node,
    kinds: kindTable(tsMorph.SyntaxKind),
    notLiteral: notLiteralKinds(tsMorph.SyntaxKind),
    checker: project ? project.getTypeChecker().compilerObject : null,
    active: new Set(),
    memo: new Map(),
    origins: new WeakMap(),
    // Parameter values of the helper calls being evaluated, innermost last.
    frames: [],
    steps: 0,
    // Why a bound tripped inside the helper calls being evaluated, or null.
    tripped: null,
    // Imports left out of the program (specifier → file), those a value needed, and the
    // uses of a left-out project file's names that were evaluated (deferred.cjs).
    deferred: new Map(), touched: new Set(), leftOutUses: new Set(),
  };
}

/** A value of the definitions, evaluated with fresh bounds. */
function evaluateValue(ev, node) {
  ev.steps = 0;
  ev.tripped = null;
  return evaluate(ev, node);
}

/** The literal an evaluated object or array was built from. */
function origin(ev, value) {
  return value && typeof value === "object" ? ev.origins.get(value) : undefined;
}

/** The expression under type assertions, `satisfies`, parentheses and `!`. */
function unwrap(tsMorph, node) {
  const { SyntaxKind } = tsMorph;
  for (;;) {
    const kind = node.getKind();
    if (
      kind === SyntaxKind.AsExpression ||
      kind === SyntaxKind.SatisfiesExpression ||
      kind === SyntaxKind.ParenthesizedExpression ||
      kind === SyntaxKind.TypeAssertionExpression ||
      kind === SyntaxKind.NonNullExpression
    )
      node = node.getExpression();
    else return node;
  }
}

function evaluate(ev, raw) {
  if (++ev.steps > MAX_STEPS) {
    ev.tripped = ev.tripped || `too large to evaluate statically (over ${MAX_STEPS} steps)`;
    return new Dynamic(raw, ev.tripped, true);
  }
  const node = unwrap(ev.tsMorph, raw);
  const read = ev.kinds.get(node.getKind());
  const value = read ? read(ev, node) : new Dynamic(node, "an expression that is not static data");
  return value instanceof Dynamic ? literalFromChecker(ev, raw, value) : value;
}

/**
 * What the checker knows when the evaluator does not: a literal type (`as const` lookups,
 * enum members, declared constants, template literal types) is the value itself.
 */
function literalFromChecker(ev, node, dynamic) {
  // A left-out file's name has no type here; whether the run may do without is checked later.
  if (!ev.checker || dynamic.limit || ev.notLiteral.has(node.getKind())
    || ev.leftOutUses.has(dynamic.node.compilerNode)) return dynamic;
  const type = ev.checker.getTypeAtLocation(node.compilerNode);
  const { TypeFlags } = ev.tsMorph.ts;
  if (type.flags & TypeFlags.StringLiteral || type.flags & TypeFlags.NumberLiteral) {
    return type.value;
  }
  if (type.flags & TypeFlags.BooleanLiteral) return ev.checker.typeToString(type) === "true";
  return dynamic;
}

/** Expressions the checker never types as a literal: no need to ask it. */
function notLiteralKinds(K) {
  return new Set([K.ArrowFunction, K.FunctionExpression, K.ClassExpression, K.JsxElement,
    K.JsxSelfClosingElement, K.JsxFragment, K.ObjectLiteralExpression,
    K.ArrayLiteralExpression, K.NewExpression]);
}

/** How each kind of expression evaluates; any other kind is not static data. */
function kindTable(K) {
  const literal = (ev, node) => node.getLiteralValue();
  const dynamic = (why) => (ev, node) => new Dynamic(node, why);
  return new Map([
    [K.StringLiteral, literal],
    [K.NoSubstitutionTemplateLiteral, literal],
    [K.NumericLiteral, literal],
    [K.TrueKeyword, () => true],
    [K.FalseKeyword, () => false],
    [K.NullKeyword, () => null],
    // Inside a class read as an entry (`class:*`): the members assigned so far.
    [K.ThisKeyword, (ev, node) => ev.thisValue || new Dynamic(node, "not static data")],
    [K.PrefixUnaryExpression, evaluatePrefix],
    [K.TemplateExpression, evaluateTemplate],
    [K.ArrayLiteralExpression, evaluateArray],
    [K.ObjectLiteralExpression, evaluateObject],
    [K.Identifier, evaluateIdentifier],
    [K.PropertyAccessExpression, evaluateProperty],
    [K.ElementAccessExpression, evaluateElement],
    [K.CallExpression, (ev, node) => ev.evaluateCall(ev, node)],
    [K.NewExpression, dynamic("a function call")],
    [K.TaggedTemplateExpression, dynamic("a function call")],
    [K.JsxElement, dynamic("JSX")],
    [K.JsxSelfClosingElement, dynamic("JSX")],
    [K.JsxFragment, dynamic("JSX")],
    [K.ArrowFunction, dynamic("a function")],
    [K.FunctionExpression, dynamic("a function")],
    [K.ClassExpression, dynamic("a class")],
  ]);
}

function evaluatePrefix(ev, node) {
  const { SyntaxKind } = ev.tsMorph;
  const operand = evaluate(ev, node.getOperand());
  const op = node.getOperatorToken();
  if (operand instanceof Dynamic) return operand;
  if (typeof operand === "number" && op === SyntaxKind.MinusToken) return -operand;
  if (typeof operand === "number" && op === SyntaxKind.PlusToken) return operand;
  if (op === SyntaxKind.ExclamationToken && (operand === null || typeof operand !== "object")) {
    return !operand;
  }
  return new Dynamic(node, "an expression that is not static data");
}

function evaluateTemplate(ev, node) {
  let text = node.getHead().getLiteralText();
  for (const span of node.getTemplateSpans()) {
    const value = evaluate(ev, span.getExpression());
    if (value instanceof Dynamic) return value;
    if (value !== null && typeof value === "object") {
      return new Dynamic(node, "a template with a part that is not text");
    }
    text += String(value === UNDEFINED ? undefined : value) + span.getLiteral().getLiteralText();
  }
  return text;
}

function evaluateIdentifier(ev, node) {
  return node.getText() === "undefined" ? UNDEFINED : evaluateName(ev, node);
}

function evaluateProperty(ev, node) {
  return evaluateMember(ev, node, node.getNameNode(), node.getName());
}

function evaluateElement(ev, node) {
  const arg = node.getArgumentExpressionOrThrow();
  return evaluateMember(ev, node, arg, evaluate(ev, arg));
}

function resolveAlias(symbol) {
  if (symbol && symbol.isAlias()) return symbol.getAliasedSymbol() || symbol;
  return symbol;
}

function declarationOfSymbol(ev, symbol) {
  const { Node } = ev;
  // A name from a package import left out of the program: the caller sees no declaration.
  if (deferredImport(ev, symbol)) return null;
  symbol = resolveAlias(symbol);
  if (!symbol) return null;
  const decls = symbol.getDeclarations();
  return decls.find((d) => Node.isVariableDeclaration(d) || Node.isEnumMember(d))
    || decls[0] || null;
}

function evaluateDeclaration(ev, decl, ref) {
  if (ev.Node.isParameterDeclaration(decl)) return parameterValue(ev, decl, ref);
  if (ev.memo.has(decl)) return ev.memo.get(decl);
  if (ev.active.has(decl)) return new Dynamic(ref, "a circular reference");
  ev.active.add(decl);
  try {
    const value = evaluateDeclarationOnce(ev, decl, ref);
    // A Dynamic is reported where it was used, so only data is shared between uses.
    if (!(value instanceof Dynamic)) ev.memo.set(decl, value);
    return value;
  } finally {
    ev.active.delete(decl);
  }
}

function evaluateDeclarationOnce(ev, decl, ref) {
  const { Node } = ev;
  if (Node.isVariableDeclaration(decl)) {
    const init = decl.getInitializer();
    return init ? evaluate(ev, init) : new Dynamic(ref, "declared without a value");
  }
  if (Node.isEnumMember(decl)) {
    const value = decl.getValue();
    if (value === undefined) return new Dynamic(ref, "an enum member without a constant value");
    return value;
  }
  if (Node.isEnumDeclaration(decl)) {
    const out = {};
    for (const member of decl.getMembers()) {
      out[member.getName()] = evaluateDeclaration(ev, member, ref);
    }
    return out;
  }
  if (Node.isPropertyAssignment(decl)) return evaluate(ev, decl.getInitializerOrThrow());
  if (Node.isExportAssignment(decl)) return evaluate(ev, decl.getExpression()); // `export default`
  if (Node.isShorthandPropertyAssignment(decl)) return evaluate(ev, decl.getNameNode());
  if (Node.isPropertyDeclaration(decl) && decl.getInitializer()) {
    return evaluate(ev, decl.getInitializer());
  }
  return new Dynamic(ref, notDataReason(Node, decl));
}

/** A parameter of a helper being evaluated: the value the innermost call bound to it. */
function parameterValue(ev, decl, ref) {
  for (let i = ev.frames.length - 1; i >= 0; i--) {
    if (ev.frames[i].has(decl)) return ev.frames[i].get(decl);
  }
  return new Dynamic(ref, "a parameter known only at run time");
}

// What a bundler imports as a file, not as code (an icon, a style sheet): no data by design.
const ASSET = new RegExp("\\.(svg|png|jpe?g|gif|webp|avif|ico|bmp|css|scss|sass|less|woff2?|ttf"
  + "|mp3|mp4|wav)(\\?.*)?$", "i");

/** Why a declaration that holds no value is not static data. */
function notDataReason(Node, decl) {
  if (Node.isFunctionDeclaration(decl) || Node.isMethodDeclaration(decl)) return "a function";
  if (Node.isClassDeclaration(decl)) return "a class";
  if (Node.isImportSpecifier(decl) || Node.isImportClause(decl) || Node.isNamespaceImport(decl)) {
    const from = decl.getFirstAncestor((a) => Node.isImportDeclaration(a));
    return from && ASSET.test(from.getModuleSpecifierValue()) ? "an asset"
      : "imported from a module that cannot be resolved";
  }
  if (Node.isSourceFile(decl)) return "a module namespace";
  return "not static data";
}

function evaluateName(ev, identifier, symbol = identifier.getSymbol()) {
  const decl = declarationOfSymbol(ev, symbol);
  if (!decl) {
    // An import of a file the bundler serves (an icon) resolves to no declaration.
    const own = symbol ? symbol.getDeclarations()[0] : undefined;
    const pkg = deferredImport(ev, symbol, identifier);
    const why = pkg ? leftOutValue(pkg)
      : own && notDataReason(ev.Node, own) === "an asset" ? "an asset"
        : "a name that cannot be resolved";
    return new Dynamic(identifier, why);
  }
  return atUse(evaluateDeclaration(ev, decl, identifier), identifier);
}

/** A Dynamic from where a name or helper is declared, reported where it is used. */
function atUse(value, node) {
  if (!(value instanceof Dynamic) || value.node === node) return value;
  const inside = value.node.getSourceFile() === node.getSourceFile()
    && value.node.getStart() >= node.getStart() && value.node.getEnd() <= node.getEnd();
  return inside ? value : new Dynamic(node, value.why, value.limit);
}

/** The value a shorthand property (`{ label }`) stands for, not the property itself. */
function shorthandValue(ev, prop) {
  const name = prop.getNameNode();
  return evaluateName(ev, name, prop.getValueSymbol() || name.getSymbol());
}

/** An object literal property's key as a string, or a Dynamic for a computed one. */
function propertyName(ev, prop) {
  const { Node } = ev;
  const nameNode = prop.getNameNode();
  if (Node.isComputedPropertyName(nameNode)) {
    const value = evaluate(ev, nameNode.getExpression());
    if (typeof value === "string" || typeof value === "number") return String(value);
    return new Dynamic(nameNode, "a computed key that is not static");
  }
  if (Node.isStringLiteral(nameNode) || Node.isNumericLiteral(nameNode)
    || Node.isNoSubstitutionTemplateLiteral(nameNode))
    return String(nameNode.getLiteralValue());
  return nameNode.getText();
}

function evaluateObject(ev, node) {
  const { Node } = ev;
  const out = {};
  ev.origins.set(out, node);
  for (const prop of node.getProperties()) {
    if (Node.isSpreadAssignment(prop)) {
      spreadInto(ev, out, prop);
      continue;
    }
    const key = propertyName(ev, prop);
    if (key instanceof Dynamic) return key;
    if (Node.isPropertyAssignment(prop)) out[key] = evaluate(ev, prop.getInitializerOrThrow());
    else if (Node.isShorthandPropertyAssignment(prop)) out[key] = shorthandValue(ev, prop);
    else if (Node.isGetAccessorDeclaration(prop)) out[key] = getterValue(ev, prop);
    else if (Node.isSetAccessorDeclaration(prop)) continue;
    else out[key] = new Dynamic(prop, Node.isMethodDeclaration(prop) ? "a method" : "an accessor");
  }
  return out;
}

/** `...x` inside an object: its keys, or, when it is not static, a note of it on `out`. */
function spreadInto(ev, out, prop) {
  let spread = evaluate(ev, prop.getExpression());
  if (!(spread instanceof Dynamic)
    && (spread === null || typeof spread !== "object" || Array.isArray(spread)))
    spread = new Dynamic(prop, "a spread of something that is not an object");
  if (spread instanceof Dynamic) {
    out[SPREADS] = [...(out[SPREADS] || []), new Dynamic(prop, spread.why, spread.limit)];
    return;
  }
  for (const key of Object.keys(spread)) out[key] = spread[key];
  if (spread[SPREADS]) out[SPREADS] = [...(out[SPREADS] || []), ...spread[SPREADS]];
}

/** `get label() { return <static> }`: the value it returns. */
function getterValue(ev, prop) {
  const returned = singleReturn(ev, prop);
  return returned ? evaluate(ev, returned) : new Dynamic(prop, "a getter with a body");
}

function evaluateArray(ev, node) {
  const out = [];
  ev.origins.set(out, node);
  for (const element of node.getElements()) {
    if (ev.Node.isSpreadElement(element)) {
      const spread = evaluate(ev, element.getExpression());
      if (spread instanceof Dynamic) return spread;
      if (!Array.isArray(spread))
        return new Dynamic(element, "a spread of something that is not an array");
      out.push(...spread);
    } else {
      const value = evaluate(ev, element);
      out.push(value === UNDEFINED ? null : value);
    }
  }
  return out;
}

/** `a.b` / `a["b"]`: through the checker's symbol first (enum members, namespace imports). */
function evaluateMember(ev, node, nameNode, key) {
  const { Node } = ev;
  // Only a property name stands for a declaration: `a[KIND]` looks up the value of KIND.
  const symbol = nameNode && Node.isIdentifier(nameNode) && nameNode.getSymbol();
  const decl = symbol && declarationOfSymbol(ev, symbol);
  if (decl && (Node.isVariableDeclaration(decl) || Node.isEnumMember(decl)
    || (Node.isPropertyDeclaration(decl) && decl.isStatic())))
    return atUse(evaluateDeclaration(ev, decl, node), node);
  const target = evaluate(ev, node.getExpression());
  if (target instanceof Dynamic) return new Dynamic(node, target.why, target.limit);
  if (key instanceof Dynamic) return new Dynamic(node, `looked up by ${key.why}`, key.limit);
  if ((target === UNDEFINED || target === null) && node.hasQuestionDotToken
    && node.hasQuestionDotToken()) return UNDEFINED;
  const usableKey = typeof key === "string" || typeof key === "number";
  if (target !== null && typeof target === "object" && usableKey
    && Object.prototype.hasOwnProperty.call(target, key))
    return target[key];
  if (Array.isArray(target) && key === "length") return target.length;
  if (usableKey && isPlainData(target) && optionalRead(ev, node, nameNode)) return UNDEFINED;
  return new Dynamic(node, "a member that cannot be resolved statically");
}

/**
 * A read the code itself allows to find nothing: `options?.parentGroup`, or a key the
 * declared type marks optional (`parentGroup?: string`). On static data it is `undefined`.
 */
function optionalRead(ev, node, nameNode) {
  if (node.hasQuestionDotToken && node.hasQuestionDotToken()) return true;
  const symbol = nameNode && ev.Node.isIdentifier(nameNode) && nameNode.getSymbol();
  const { SymbolFlags } = ev.tsMorph.ts;
  return Boolean(symbol && symbol.getFlags() & SymbolFlags.Optional);
}

module.exports = {
  Dynamic, UNDEFINED, SPREADS, MAX_CALL_DEPTH, newEvaluation, evaluate, evaluateValue, propertyName,
  origin, unwrap, findDynamic, strip, toJson, atUse, declarationOfSymbol,
};
