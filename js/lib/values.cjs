// The static evaluator: turns the expressions of the definitions literal into plain data, or
// into a Dynamic saying why a value is not static data. Each declaration is evaluated once and
// its value shared (values are never mutated after construction); every object built from a
// literal remembers that literal, so an entry reached through spreads and imports is still
// reported at the line where it is written.
"use strict";

/** A value that is not static data (a call, a JSX component, an unresolvable name). */
class Dynamic {
  constructor(node, why) {
    this.node = node;
    this.why = why;
  }
}

// `undefined` written in the source: kept apart from a missing key until JSON is written.
const UNDEFINED = Symbol("undefined");

/** One run's evaluation state: the declarations being evaluated, done, and object origins. */
function newEvaluation(tsMorph) {
  return {
    tsMorph,
    Node: tsMorph.Node,
    kinds: kindTable(tsMorph.SyntaxKind),
    active: new Set(),
    memo: new Map(),
    origins: new WeakMap(),
  };
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
  const node = unwrap(ev.tsMorph, raw);
  const read = ev.kinds.get(node.getKind());
  return read ? read(ev, node) : new Dynamic(node, "an expression that is not static data");
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
    [K.PrefixUnaryExpression, evaluatePrefix],
    [K.TemplateExpression, evaluateTemplate],
    [K.ArrayLiteralExpression, evaluateArray],
    [K.ObjectLiteralExpression, evaluateObject],
    [K.Identifier, evaluateIdentifier],
    [K.PropertyAccessExpression, evaluateProperty],
    [K.ElementAccessExpression, evaluateElement],
    [K.CallExpression, dynamic("a function call")],
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
  symbol = resolveAlias(symbol);
  if (!symbol) return null;
  const decls = symbol.getDeclarations();
  return decls.find((d) => Node.isVariableDeclaration(d) || Node.isEnumMember(d))
    || decls[0] || null;
}

function evaluateDeclaration(ev, decl, ref) {
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
  if (Node.isShorthandPropertyAssignment(decl)) return evaluate(ev, decl.getNameNode());
  return new Dynamic(ref, notDataReason(Node, decl));
}

/** Why a declaration that holds no value is not static data. */
function notDataReason(Node, decl) {
  if (Node.isFunctionDeclaration(decl) || Node.isMethodDeclaration(decl)) return "a function";
  if (Node.isClassDeclaration(decl)) return "a class";
  if (Node.isImportSpecifier(decl) || Node.isImportClause(decl) || Node.isNamespaceImport(decl))
    return "imported from a module that cannot be resolved";
  if (Node.isSourceFile(decl)) return "a module namespace";
  return "not static data";
}

function evaluateName(ev, identifier) {
  const decl = declarationOfSymbol(ev, identifier.getSymbol());
  if (!decl) return new Dynamic(identifier, "a name that cannot be resolved");
  return evaluateDeclaration(ev, decl, identifier);
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
      const spread = evaluate(ev, prop.getExpression());
      if (spread instanceof Dynamic) return spread;
      if (spread === null || typeof spread !== "object" || Array.isArray(spread))
        return new Dynamic(prop, "a spread of something that is not an object");
      Object.assign(out, spread);
      continue;
    }
    const key = propertyName(ev, prop);
    if (key instanceof Dynamic) return key;
    if (Node.isPropertyAssignment(prop)) out[key] = evaluate(ev, prop.getInitializerOrThrow());
    else if (Node.isShorthandPropertyAssignment(prop)) {
      out[key] = evaluateName(ev, prop.getNameNode());
    }
    else out[key] = new Dynamic(prop, Node.isMethodDeclaration(prop) ? "a method" : "an accessor");
  }
  return out;
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
  const symbol = nameNode && nameNode.getSymbol();
  const decl = symbol && declarationOfSymbol(ev, symbol);
  if (decl && (Node.isVariableDeclaration(decl) || Node.isEnumMember(decl)))
    return evaluateDeclaration(ev, decl, node);
  const target = evaluate(ev, node.getExpression());
  if (target instanceof Dynamic) return new Dynamic(node, target.why);
  if (key instanceof Dynamic) return key;
  const usableKey = typeof key === "string" || typeof key === "number";
  if (target !== null && typeof target === "object" && usableKey
    && Object.prototype.hasOwnProperty.call(target, key))
    return target[key];
  if (Array.isArray(target) && key === "length") return target.length;
  return new Dynamic(node, "a member that cannot be resolved statically");
}

/** First Dynamic found anywhere inside a value, with the key path to it, or null. */
function findDynamic(value, at = []) {
  if (value instanceof Dynamic) return { dynamic: value, path: at };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findDynamic(value[i], [...at, i]);
      if (found) return found;
    }
  } else if (value && typeof value === "object") {
    for (const key of Object.keys(value)) {
      const found = findDynamic(value[key], [...at, key]);
      if (found) return found;
    }
  }
  return null;
}

/** Plain JSON: `undefined` properties dropped, the way JSON.stringify treats them. */
function toJson(value) {
  if (value === UNDEFINED) return undefined;
  if (Array.isArray(value)) return value.map((item) => (item === UNDEFINED ? null : toJson(item)));
  if (value && typeof value === "object") {
    const out = {};
    for (const key of Object.keys(value)) {
      if (value[key] !== UNDEFINED) out[key] = toJson(value[key]);
    }
    return out;
  }
  return value;
}

module.exports = {
  Dynamic, UNDEFINED, newEvaluation, evaluate, propertyName, origin, unwrap, findDynamic, toJson,
};
