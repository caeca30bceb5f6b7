// Union members in the order their authors wrote them. The checker orders a union's members
// by when it first met each type, which depends on every type it read before: the same node
// read alone (an incremental run), or after a new node, would list its options differently.
"use strict";

// Written unions longer than this keep the checker's order (it costs a lookup per member).
const MAX_WRITTEN = 2000;

/** The members of a union type, in written order where the union is written out; members
 * not found as written keep the checker's order, after the others. */
function writtenOrder(tc, type, where) {
  const members = type.getUnionTypes();
  const rank = writtenRanks(tc, type, where);
  if (!rank) return members;
  const at = (m) => (rank.has(m.compilerType) ? rank.get(m.compilerType) : Infinity);
  return members.map((m, i) => [m, i]).sort((a, b) => at(a[0]) - at(b[0]) || a[1] - b[1])
    .map(([m]) => m);
}

/** compiler type → its position in the written union, or null when none is found. */
function writtenRanks(tc, type, where) {
  for (const node of candidates(tc, type, where)) {
    const written = [];
    expand(tc, node, written, new Set());
    if (written.length > MAX_WRITTEN) return null;
    const rank = new Map();
    written.forEach((n, i) => {
      const t = n.getType();
      for (const m of t.isUnion() ? t.getUnionTypes() : [t]) {
        if (!rank.has(m.compilerType)) rank.set(m.compilerType, i);
      }
    });
    if (type.getUnionTypes().some((m) => rank.has(m.compilerType))) return rank;
  }
  return null;
}

/** Type nodes that may write this union: its alias's declaration, or the unions written in
 * the declaration being read. */
function candidates(tc, type, where) {
  const { Node, ts } = tc;
  const alias = type.getAliasSymbol();
  const decl = alias && alias.getDeclarations()[0];
  if (decl && Node.isTypeAliasDeclaration(decl)) return [decl.getTypeNode()];
  const typeNode = where && (Node.isPropertySignature(where) || Node.isPropertyDeclaration(where))
    ? where.getTypeNode() : null;
  if (!typeNode) return [];
  const unions = Node.isUnionTypeNode(typeNode) ? [typeNode] : [];
  unions.push(...typeNode.getDescendantsOfKind(ts.SyntaxKind.UnionType));
  return unions.filter((u) => u.getType().compilerType === type.compilerType
    || u === typeNode);
}

/** The member type nodes of a written union, through parentheses and plain aliases. */
function expand(tc, node, out, seen) {
  const { Node } = tc;
  if (!node || out.length > MAX_WRITTEN) return;
  if (Node.isParenthesizedTypeNode(node)) {
    expand(tc, node.getTypeNode(), out, seen);
    return;
  }
  if (Node.isUnionTypeNode(node)) {
    for (const member of node.getTypeNodes()) expand(tc, member, out, seen);
    return;
  }
  const target = Node.isTypeReference(node) && !node.getTypeArguments().length
    ? aliasDeclaration(tc, node) : null;
  if (target && !seen.has(target)) {
    seen.add(target);
    expand(tc, target.getTypeNode(), out, seen);
    return;
  }
  out.push(node);
}

function aliasDeclaration(tc, ref) {
  let symbol = ref.getTypeName().getSymbol();
  if (symbol && symbol.isAlias()) symbol = symbol.getAliasedSymbol();
  const decl = symbol && symbol.getDeclarations()[0];
  return decl && tc.Node.isTypeAliasDeclaration(decl) ? decl : null;
}

module.exports = { writtenOrder };
