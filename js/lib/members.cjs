// The members of a data type as its authors wrote it. TypeScript's `Omit<T, K>` over a type
// with an index signature (`[key: string]: unknown` next to named fields) keeps only the index
// signature, because `keyof T` is `string`; so do Partial/Required/Readonly of such an Omit.
// Read from the type's own declaration instead, `Omit`, `Pick`, `Partial`, `Required`,
// `Readonly` and intersections keep the declared members (minus the omitted keys), and the
// index signature is reported once, as what else the type accepts.
"use strict";

const { isLibFile, oneLine } = require("./util.cjs");

const OPTIONAL_BY_WRAPPER = { Partial: true, Required: false, Readonly: null };

/** The string index signature of a type as text (`[key: string]: unknown`), or null. */
function indexText(tc, type, where) {
  const index = type.getStringIndexType();
  if (!index) return null;
  return `[key: string]: ${oneLine(tc.checker.getTypeText(index, where, tc.textFlags))}`;
}

/** A lib utility type by name (`Omit`), not a user type that happens to share the name. */
function libUtility(tc, ref) {
  const nameNode = tc.Node.isTypeReference(ref) ? ref.getTypeName() : ref.getExpression();
  const name = nameNode.getText();
  if (!["Omit", "Pick", ...Object.keys(OPTIONAL_BY_WRAPPER)].includes(name)) return null;
  const symbol = nameNode.getSymbol();
  const decls = symbol ? symbol.getDeclarations() : [];
  return decls.length && decls.every((d) => isLibFile(d.getSourceFile())) ? name : null;
}

function keysOf(typeNode) {
  const type = typeNode.getType();
  const members = type.isUnion() ? type.getUnionTypes() : [type];
  return new Set(members.filter((m) => m.isStringLiteral()).map((m) => m.getLiteralValue()));
}

/** Members of a type node: [{ name, symbol, optional (null: as declared) }] and its index. */
function declaredMembers(tc, typeNode) {
  const { Node } = tc;
  if (Node.isParenthesizedTypeNode(typeNode)) return declaredMembers(tc, typeNode.getTypeNode());
  if (Node.isIntersectionTypeNode(typeNode)) {
    return merged(typeNode.getTypeNodes().map((t) => declaredMembers(tc, t)));
  }
  if (Node.isTypeReference(typeNode) || Node.isExpressionWithTypeArguments(typeNode)) {
    const found = referenceMembers(tc, typeNode);
    if (found) return found;
  }
  return checkerMembers(tc, typeNode.getType(), typeNode);
}

function referenceMembers(tc, ref) {
  const args = ref.getTypeArguments();
  const utility = libUtility(tc, ref);
  if (utility && args.length) {
    const base = declaredMembers(tc, args[0]);
    if (utility === "Omit" || utility === "Pick") {
      const keys = keysOf(args[1]);
      const keep = (m) => keys.has(m.name) === (utility === "Pick");
      return { members: base.members.filter(keep), index: utility === "Pick" ? null : base.index };
    }
    const optional = OPTIONAL_BY_WRAPPER[utility];
    const members = base.members.map((m) => (optional === null ? m : { ...m, optional }));
    return { members, index: base.index };
  }
  // A user alias without arguments: read its own declaration the same way.
  if (args.length || !tc.Node.isTypeReference(ref)) return null;
  const symbol = ref.getTypeName().getSymbol();
  const target = symbol && (symbol.isAlias() ? symbol.getAliasedSymbol() : symbol);
  const decl = target && target.getDeclarations().find((d) => tc.Node.isTypeAliasDeclaration(d));
  return decl ? declaredMembers(tc, decl.getTypeNodeOrThrow()) : null;
}

function checkerMembers(tc, type, where) {
  const members = type.getProperties()
    .map((symbol) => ({ name: symbol.getName(), symbol, optional: null }));
  return { members, index: indexText(tc, type, where) };
}

/** An intersection's members: each name once, where it first appears. */
function merged(parts) {
  const seen = new Set();
  const members = [];
  for (const part of parts) {
    for (const m of part.members) {
      if (!seen.has(m.name)) members.push(m);
      seen.add(m.name);
    }
  }
  return { members, index: parts.map((p) => p.index).find(Boolean) || null };
}

/** An interface's members: its own, then those of each type it extends, read as written. */
function interfaceMembers(tc, decl) {
  const own = checkerMembers(tc, decl.getType(), decl);
  const mine = own.members.filter((m) => m.symbol.getDeclarations().some(
    (d) => d.getParent() === decl));
  const bases = decl.getExtends().map((e) => declaredMembers(tc, e));
  return merged([{ members: mine, index: own.index }, ...bases]);
}

/**
 * The data type's members as written when the checker's reading lost them (a type with an
 * index signature), else null: the checker's reading stands.
 */
function writtenMembers(tc, decl, type) {
  if (!type.getStringIndexType()) return null;
  if (tc.Node.isInterfaceDeclaration(decl)) return interfaceMembers(tc, decl);
  if (tc.Node.isTypeAliasDeclaration(decl)) return declaredMembers(tc, decl.getTypeNodeOrThrow());
  return null;
}

module.exports = { writtenMembers, indexText };
