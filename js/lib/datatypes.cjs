// Data-type lookup: which interface or type alias holds a node's data. In order: the pygen
// config's data_types map; the type the definition's own code names (a cast, `satisfies`, a
// typed constant, a generic argument); the naming convention (`TextPromptData`,
// `…NodeData`, `…DataType`, `…NodeDataType`), skipping the editor's union of every node's
// data; else the best plausible structural match of the node's default data.
"use strict";

const { castEvidence } = require("./castevidence.cjs");
const { recordingIndex } = require("./componentfiles.cjs");
const { deadImportOf, noteDeadImport } = require("./imports.cjs");
const { isLibFile } = require("./util.cjs");
const { structuralMatch, preferDecl, notDeclared, STRUCTURAL_THRESHOLD } =
  require("./structural.cjs");

const DIGIT_WORDS = [
  "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
];
// Name suffixes tried in this order: the first that names a usable type wins.
const SUFFIXES = ["data", "nodedata", "datatype", "nodedatatype"];

/** Keys a node type may match a type name by, case- and separator-insensitively, in order. */
function nameKeys(nodeType) {
  const flat = nodeType.toLowerCase().replace(/[^a-z0-9]/g, "");
  const spelled = flat.replace(/^[0-9]+/,
    (digits) => [...digits].map((d) => DIGIT_WORDS[Number(d)]).join(""));
  const keys = [];
  for (const suffix of SUFFIXES) {
    for (const base of new Set([flat, spelled])) keys.push(base + suffix);
  }
  return keys;
}

/** Every interface and type alias the project declares, by name (a name may repeat). */
function typeIndex(ctx) {
  const byName = new Map();
  const add = (name, decl, exported) => {
    const list = byName.get(name) || [];
    list.push({ decl, exported });
    byName.set(name, list);
  };
  for (const sf of ctx.project.getSourceFiles()) {
    if (isLibFile(sf)) continue;
    for (const d of sf.getInterfaces()) add(d.getName(), d, d.isExported());
    for (const d of sf.getTypeAliases()) add(d.getName(), d, d.isExported());
  }
  // What the lookup asks of it tells whether files left out could have changed its answer.
  return recordingIndex(byName);
}

/** The type index by lower-cased name, built on first use. */
function lowerIndex(ctx) {
  if (!ctx.lowerIndex) {
    const lower = new Map();
    for (const [name, candidates] of ctx.index) {
      const key = name.toLowerCase();
      lower.set(key, [...(lower.get(key) || []), ...candidates]);
    }
    ctx.lowerIndex = recordingIndex(lower, ctx.index.asked);
  }
  return ctx.lowerIndex;
}

/**
 * Whether a declaration is the editor's data union: a union of object types each of which
 * is named like some node's data type. Such a union is every node's data, not one node's.
 */
function isDataUnion(ctx, decl) {
  if (!ctx.tsMorph.Node.isTypeAliasDeclaration(decl)) return false;
  const typeNode = decl.getTypeNode();
  if (!typeNode || !ctx.tsMorph.Node.isUnionTypeNode(typeNode)) return false;
  const members = typeNode.getTypeNodes();
  if (members.length < 2) return false;
  return members.every((m) => ctx.tsMorph.Node.isTypeReference(m)
    && ctx.allNameKeys.has(m.getTypeName().getText().toLowerCase()));
}

/**
 * Whether a cast's type names no single node: the editor's data union, a union of which two
 * or more members are named like node data types (other members may be anything), the
 * configured `data_union`, or an alias of one of these. Such a cast is not evidence.
 */
function namesNoSingleNode(ctx, decl) {
  const { Node } = ctx.tsMorph;
  if (!Node.isTypeAliasDeclaration(decl)) return false;
  if (ctx.request.dataUnion && decl.getName() === ctx.request.dataUnion) return true;
  const typeNode = decl.getTypeNode();
  if (typeNode && Node.isTypeReference(typeNode)) {
    const target = aliasTarget(ctx, typeNode);
    return target !== null && target !== decl && isUnionOfNodes(ctx, target);
  }
  return isUnionOfNodes(ctx, decl);
}

function isUnionOfNodes(ctx, decl) {
  const { Node } = ctx.tsMorph;
  if (!Node.isTypeAliasDeclaration(decl)) return false;
  const typeNode = decl.getTypeNode();
  if (!typeNode || !Node.isUnionTypeNode(typeNode)) return false;
  const named = typeNode.getTypeNodes().filter((m) => Node.isTypeReference(m)
    && ctx.allNameKeys.has(m.getTypeName().getText().toLowerCase()));
  return named.length >= 2;
}

function aliasTarget(ctx, typeNode) {
  let symbol = typeNode.getTypeName().getSymbol();
  if (symbol && symbol.isAlias()) symbol = symbol.getAliasedSymbol() || symbol;
  const decl = symbol && symbol.getDeclarations()
    .find((d) => ctx.tsMorph.Node.isTypeAliasDeclaration(d));
  return decl || null;
}

/** Set up what the lookup needs about the whole catalog: every node's name keys. */
function prepareLookup(ctx, nodes) {
  ctx.allNameKeys = new Set(nodes.flatMap((n) => nameKeys(n.type)));
  ctx.skippedUnions = new Map();
  for (const node of nodes) byName(ctx, node);
  const [auto] = [...ctx.skippedUnions.keys()].sort();
  if (!ctx.request.dataUnion && auto) ctx.autoUnion = auto;
}

/** The first declaration the naming convention finds, with the unions it passed over. */
function byName(ctx, node) {
  const skipped = [];
  for (const key of nameKeys(node.type)) {
    const found = lowerIndex(ctx).get(key);
    if (!found) continue;
    const decl = preferDecl(ctx, found);
    if (!isDataUnion(ctx, decl)) return { decl, skipped };
    ctx.skippedUnions.set(decl.getName(), decl);
    skipped.push({ name: decl.getName(), reason: "the union of every node's data type" });
  }
  return { decl: null, skipped };
}

function configured(ctx, node) {
  const name = ctx.request.dataTypes[node.type];
  if (!name) return null;
  const found = ctx.index.get(name);
  if (!found) {
    throw notDeclared(ctx, `data_types maps '${node.type}' to '${name}', but no `
      + `interface or type alias named '${name}'`);
  }
  return preferDecl(ctx, found);
}

/** { decl, via, score, runnerUp, skipped, near }: what was found and what was passed over. */
function resolveDataType(ctx, node, entry) {
  const fromConfig = configured(ctx, node);
  if (fromConfig) return { decl: fromConfig, via: "config", score: null, skipped: [] };
  const cast = castEvidence(ctx, entry);
  // A cast to the editor's union of every node's data says nothing about this node.
  const evidence = cast && !isDataUnion(ctx, cast) && !namesNoSingleNode(ctx, cast);
  if (evidence) return { decl: cast, via: "cast", score: null, skipped: [] };
  const named = byName(ctx, node);
  if (named.decl) return { decl: named.decl, via: "name", score: null, skipped: named.skipped };
  // Named by convention but imported from a module that does not resolve: said per module.
  if (importedDead(ctx, node)) {
    return { decl: null, via: "none", skipped: named.skipped, dead: true };
  }
  const match = structuralMatch(ctx, node) || { decl: null };
  return { via: match.decl ? "structural" : "none", ...match, skipped: named.skipped };
}

function importedDead(ctx, node) {
  const keys = new Set(nameKeys(node.type));
  for (const imp of ctx.sourceFile.getImportDeclarations()) {
    for (const named of imp.getNamedImports()) {
      const name = (named.getAliasNode() || named.getNameNode()).getText();
      if (!keys.has(name.toLowerCase())) continue;
      const dead = deadImportOf(ctx.sourceFile, name);
      if (!dead) return false;
      noteDeadImport(ctx, dead, `the data type ${name} of node '${node.type}'`, null);
      return true;
    }
  }
  return false;
}

function pascal(nodeType) {
  return nodeType.split(/[^A-Za-z0-9]+/).filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1)).join("");
}

function unresolvedMessage(node, near) {
  const p = pascal(node.type);
  const structural = near
    ? `the closest structural match, ${near.name}, scores ${near.score} of the `
      + `${STRUCTURAL_THRESHOLD} needed`
    : "no plausible structural match";
  return `node '${node.type}': no data type found (no cast in its definition; no ${p}Data, `
    + `${p}NodeData, ${p}DataType or ${p}NodeDataType; ${structural}); `
    + "map it in data_types in the pygen config";
}

/** Every declaration a node's type lookup by name weighs: its configured name's, and those
 * named as its naming convention tries. */
function lookupCandidates(ctx, node) {
  const name = ctx.request.dataTypes[node.type];
  const configuredOnes = name ? ctx.index.get(name) || [] : [];
  return [...configuredOnes, ...nameKeys(node.type).flatMap((k) => lowerIndex(ctx).get(k) || [])];
}

module.exports = {
  typeIndex, prepareLookup, resolveDataType, unresolvedMessage, nameKeys, lookupCandidates,
};
