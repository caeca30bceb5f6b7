// Structural matching: the declared object type that best fits a node's default data, for a
// node whose code names no data type. Only a plausible fit counts: the score clears the
// threshold and the default data leaves at most half of the type's required fields out (a
// runtime record sharing one key with the defaults is not the node's data). The runner-up
// and its score go into the reply so a person can judge the margin.
"use strict";

const { UserError } = require("./errors.cjs");
const { rel } = require("./util.cjs");

// Below this score a structural match is a guess, not an answer.
const STRUCTURAL_THRESHOLD = 0.6;

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

function candidate(decl, type) {
  const props = type.getProperties();
  return {
    decl,
    name: decl.getName ? decl.getName() : "",
    props: new Set(props.map((p) => p.getName())),
    required: props.filter((p) => !p.isOptional()).map((p) => p.getName()),
  };
}

/** Types a structural match may pick: the data union's members, else every exported object. */
function structuralCandidates(ctx) {
  const union = ctx.request.dataUnion || ctx.autoUnion;
  if (union) return unionCandidates(ctx, union);
  const out = [];
  for (const candidates of ctx.index.values()) {
    for (const { decl, exported } of candidates) {
      if (!exported) continue;
      const type = decl.getType();
      if (!type.isObject() && !type.isIntersection() || type.isArray()) continue;
      if (type.getCallSignatures().length) continue;
      const cand = candidate(decl, type);
      if (cand.props.size) out.push(cand);
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
    if (decl) out.push(candidate(decl, member));
  }
  return out;
}

/** Coverage of the defaults, discounted by how much of the type they leave unexplained. */
function score(keys, cand) {
  const hits = keys.filter((k) => cand.props.has(k)).length;
  return hits / keys.length * (hits / Math.max(cand.props.size, keys.length)) ** 0.25;
}

function plausible(keys, cand) {
  const given = new Set(keys);
  const missing = cand.required.filter((r) => !given.has(r)).length;
  return missing <= cand.required.length / 2;
}

/** The best plausible candidate and the runner-up, each with its score. */
function ranked(ctx, keys) {
  if (!ctx.structural) ctx.structural = structuralCandidates(ctx);
  const scored = ctx.structural
    .filter((cand) => plausible(keys, cand))
    .map((cand) => ({ cand, score: score(keys, cand) }))
    .filter((s) => s.score > 0);
  // Highest score first; the name breaks ties so the answer never depends on file order.
  scored.sort((a, b) => b.score - a.score || (a.cand.name < b.cand.name ? -1 : 1));
  return scored;
}

function structuralMatch(ctx, node) {
  const keys = Object.keys(node.default_data);
  if (!keys.length) return null;
  const [best, second] = ranked(ctx, keys);
  if (!best) return null;
  const runnerUp = (s) => (s ? { name: s.cand.name, score: round(s.score) } : null);
  if (best.score < STRUCTURAL_THRESHOLD) return { decl: null, near: runnerUp(best) };
  return {
    decl: best.cand.decl, via: "structural", score: round(best.score), runnerUp: runnerUp(second),
  };
}

function round(x) {
  return Math.round(x * 1000) / 1000;
}

module.exports = { structuralMatch, preferDecl, notDeclared, STRUCTURAL_THRESHOLD };
