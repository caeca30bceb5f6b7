// Evidence from a definition: the data type its own code names. A cast of the default data
// (`as XData`, `as Partial<XData>`, `<XData>{…}`), `satisfies XData`, a typed constant
// (`const d: XData = …`), or the generic argument of the entry's type
// (`const n: NodeDefinition<XData> = {…}`, `{…} satisfies NodeDefinition<XData>`), or for a
// registered component (registrations.cjs) the data its props name.
"use strict";

const { isLibFile } = require("./util.cjs");
const { fieldProperty } = require("./entrypath.cjs");
const { DATA_TYPE } = require("./registrations.cjs");

// Wrappers that keep the data type they wrap: `Partial<XData>` still names XData.
const WRAPPERS = new Set(["Partial", "Required", "Readonly", "NoInfer"]);
// How far a chain of constants (`const a = b as X`) is followed.
const MAX_HOPS = 5;

/** The declaration of the data type the entry's code names, or null. */
function castEvidence(ctx, entry) {
  const { Node } = ctx.tsMorph;
  const registered = entry.value && entry.value[DATA_TYPE];
  if (registered) return declOfTypeNode(ctx, registered, false);
  const literal = entry.node;
  if (!literal || !Node.isObjectLiteralExpression(literal)) return null;
  const prop = fieldProperty(ctx.tsMorph, literal, ctx.request.entryFields.default_data);
  if (prop && Node.isPropertyAssignment(prop)) {
    const found = namedByExpression(ctx, prop.getInitializer());
    if (found) return found;
  }
  return namedByContainer(ctx, literal);
}

/** Through `as`, `satisfies`, parentheses and constants, the first data type named. */
function namedByExpression(ctx, expr) {
  const { Node } = ctx.tsMorph;
  let node = expr;
  for (let hops = 0; node && hops < MAX_HOPS;) {
    if (Node.isAsExpression(node) || Node.isSatisfiesExpression(node)
      || Node.isTypeAssertion(node)) {
      const found = declOfTypeNode(ctx, node.getTypeNode(), false);
      if (found) return found;
      node = node.getExpression();
    } else if (Node.isParenthesizedExpression(node) || Node.isNonNullExpression(node)) {
      node = node.getExpression();
    } else if (Node.isIdentifier(node)) {
      const decl = variableOf(ctx, node);
      if (!decl) return null;
      const found = declOfTypeNode(ctx, decl.getTypeNode(), false);
      if (found) return found;
      node = decl.getInitializer();
      hops += 1;
    } else return null;
  }
  return null;
}

/** The generic argument of what holds the entry: a typed constant, a cast, a call. */
function namedByContainer(ctx, literal) {
  const { Node } = ctx.tsMorph;
  for (let node = literal.getParent(); node; node = node.getParent()) {
    if (Node.isParenthesizedExpression(node)) continue;
    if (Node.isVariableDeclaration(node) || Node.isAsExpression(node)
      || Node.isSatisfiesExpression(node)) {
      const found = declOfTypeNode(ctx, node.getTypeNode(), true);
      if (found || !Node.isAsExpression(node) && !Node.isSatisfiesExpression(node)) return found;
    } else if (Node.isCallExpression(node)) {
      for (const arg of node.getTypeArguments()) {
        const found = declOfTypeNode(ctx, arg, false);
        if (found) return found;
      }
      return null;
    } else return null;
  }
  return null;
}

function variableOf(ctx, identifier) {
  const { Node } = ctx.tsMorph;
  let symbol = identifier.getSymbol();
  if (symbol && symbol.isAlias()) symbol = symbol.getAliasedSymbol() || symbol;
  const decl = symbol && symbol.getDeclarations().find((d) => Node.isVariableDeclaration(d));
  return decl || null;
}

/**
 * The interface or type alias a type node names (through `Partial<…>` and friends). With
 * `generic`, a generic's type arguments are searched instead: `NodeDefinition<XData>`.
 */
function declOfTypeNode(ctx, typeNode, generic) {
  const { Node } = ctx.tsMorph;
  if (!typeNode) return null;
  if (Node.isParenthesizedTypeNode(typeNode)) {
    return declOfTypeNode(ctx, typeNode.getTypeNode(), generic);
  }
  if (!Node.isTypeReference(typeNode)) return null;
  const args = typeNode.getTypeArguments();
  const name = typeNode.getTypeName().getText();
  if (WRAPPERS.has(name) && args.length === 1) return declOfTypeNode(ctx, args[0], generic);
  if (generic) {
    for (const arg of args) {
      const found = declOfTypeNode(ctx, arg, false);
      if (found) return found;
    }
    return null;
  }
  return args.length ? null : declaredType(ctx, typeNode.getTypeName());
}

function declaredType(ctx, nameNode) {
  const { Node } = ctx.tsMorph;
  let symbol = nameNode.getSymbol();
  if (symbol && symbol.isAlias()) symbol = symbol.getAliasedSymbol() || symbol;
  if (!symbol) return null;
  const decl = symbol.getDeclarations()
    .find((d) => Node.isInterfaceDeclaration(d) || Node.isTypeAliasDeclaration(d));
  return decl && !isLibFile(decl.getSourceFile()) ? decl : null;
}

module.exports = { castEvidence };
