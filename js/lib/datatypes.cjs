// Data-type lookup: which interface or type alias holds a node's data. By the pygen config's
// data_types map, else by name (`TextPromptData`), else by the best structural match of the
// node's default data against the declared types.
"use strict";

const { UserError } = require("./errors.cjs");
const { isLibFile, rel } = require("./util.cjs");

const DIGIT_WORDS = [
  "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
];
// Below this score a structural match is a guess, not an answer.
const STRUCTURAL_THRESHOLD = 0.6;

/** Keys a node type may match a type name by, case- and separator-insensitively. */
function nameKeys(nodeType) {
  const flat = nodeType.toLowerCase().replace(/[^a-z0-9]/g, "");
  const spelled = flat.replace(/^[0-9]+/,
    (digits) => [...digits].map((d) => DIGIT_WORDS[Number(d)]).join(""));
  const keys = new Set();
  for (const base of [flat, spelled]) {
    keys.add(base + "data");
    keys.add(base + "nodedata");
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
  return byName;
}

/** Of same-named declarations: the nodes file's own first, then an exported one. */
function preferDecl(ctx, candidates) {
  const score = (c) => (c.decl.getSourceFile() === ctx.sourceFile ? 2 : 0) + (c.exported ? 1 : 0);
  return [...candidates].sort((a, b) => score(b) - score(a))[0].decl;
}

function notDeclared(ctx, what) {
  const { request } = ctx;
  return new UserError(null, `${what} is declared in ${rel(request, request.nodesFile)} `
    + "or the files it imports", "config");
}

function resolveDataType(ctx, node) {
  const { request, index } = ctx;
  const configured = request.dataTypes[node.type];
  if (configured) {
    const found = index.get(configured);
    if (!found) {
      throw notDeclared(ctx, `data_types maps '${node.type}' to '${configured}', but no `
        + `interface or type alias named '${configured}'`);
    }
    return { decl: preferDecl(ctx, found), via: "config", score: null };
  }
  const byName = [...nameKeys(node.type)].flatMap((key) => lowerIndex(ctx).get(key) || []);
  if (byName.length) return { decl: preferDecl(ctx, byName), via: "name", score: null };
  return structuralMatch(ctx, node);
}

/** The type index by lower-cased name, built on first use. */
function lowerIndex(ctx) {
  if (!ctx.lowerIndex) {
    ctx.lowerIndex = new Map();
    for (const [name, candidates] of ctx.index) {
      const key = name.toLowerCase();
      ctx.lowerIndex.set(key, [...(ctx.lowerIndex.get(key) || []), ...candidates]);
    }
  }
  return ctx.lowerIndex;
}

/** Types a structural match may pick: the data_union's members, else every exported object. */
function structuralCandidates(ctx) {
  const { request, index } = ctx;
  if (request.dataUnion) return unionCandidates(ctx, request.dataUnion);
  const out = [];
  for (const candidates of index.values()) {
    for (const { decl, exported } of candidates) {
      if (!exported) continue;
      const type = decl.getType();
      if (!type.isObject() && !type.isIntersection()) continue;
      const props = type.getProperties().map((p) => p.getName());
      if (props.length) out.push({ decl, props });
    }
  }
  return out;
}

function unionCandidates(ctx, union) {
  const found = ctx.index.get(union);
  if (!found) throw notDeclared(ctx, `data_union names '${union}', but no type named '${union}'`);
  const out = [];
  const type = preferDecl(ctx, found).getType();
  for (const member of type.isUnion() ? type.getUnionTypes() : [type]) {
    const symbol = member.getAliasSymbol() || member.getSymbol();
    const decl = symbol && symbol.getDeclarations()[0];
    if (decl) out.push({ decl, props: member.getProperties().map((p) => p.getName()) });
  }
  return out;
}

function structuralMatch(ctx, node) {
  const keys = Object.keys(node.default_data);
  if (!keys.length) return null;
  if (!ctx.structural) ctx.structural = structuralCandidates(ctx);
  let best = null;
  for (const cand of ctx.structural) {
    const props = new Set(cand.props);
    const hits = keys.filter((k) => props.has(k)).length;
    // Coverage of the defaults, discounted by how much of the type they leave unexplained.
    const score = hits / keys.length * (hits / Math.max(props.size, keys.length)) ** 0.25;
    const name = cand.decl.getName ? cand.decl.getName() : "";
    const tie = best && Math.abs(score - best.score) < 1e-9 && name < best.name;
    if (!best || score > best.score + 1e-9 || tie) best = { decl: cand.decl, score, name };
  }
  if (!best || best.score < STRUCTURAL_THRESHOLD) {
    return best ? { decl: null, via: "none", score: round(best.score), near: best.name } : null;
  }
  return { decl: best.decl, via: "structural", score: round(best.score) };
}

function pascal(nodeType) {
  return nodeType.split(/[^A-Za-z0-9]+/).filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1)).join("");
}

function unresolvedMessage(node, near) {
  const p = pascal(node.type);
  const structural = near
    ? `the closest structural match, ${near.near}, scores ${near.score} of the `
      + `${STRUCTURAL_THRESHOLD} needed`
    : "no structural match";
  return `node '${node.type}': no data type found (no ${p}Data or ${p}NodeData; ${structural}); `
    + "map it in data_types in the pygen config";
}

function round(x) {
  return Math.round(x * 1000) / 1000;
}

module.exports = { typeIndex, resolveDataType, unresolvedMessage };
