// What pygen needs to re-read only the nodes a changed file affects: per definitions entry,
// the files its entry and data type were read from (closed over imports), the entry keys it
// added, and for every diagnostic the part of the run that produced it ("pre", "d:<entry>",
// "mid", "t:<entry>", "post"), so a partial run's diagnostics can be spliced into a full one;
// and whether its type lookup weighed only declarations in its files (`alone`: a partial run
// may then leave the other nodes' files out, see scoped.cjs).
"use strict";

const { isLibFile, rel } = require("./util.cjs");

// A node reaching more files than this depends on too much to be re-read alone: any change
// among its files re-reads every node. It also keeps the cost linear in the node count.
const MAX_FILES = 256;

/** Files that are never a single node's: a change in one of them re-reads every node.
 * Declaration files and scripts declare globals, which reach nodes without an import. */
function shared(sf) {
  return isLibFile(sf) || sf.isDeclarationFile() || /[\\/]node_modules[\\/]/.test(sf.getFilePath())
    || !sf.compilerNode.externalModuleIndicator;
}

/** The files `seeds` (ts-morph source files) reach through imports and exports, as paths
 * relative to the root, sorted; null when a shared file is reached or there are too many.
 * `memo` keeps each seed's own closure for the run: nodes declared in one file share it.
 * `leftOut` maps a file to the files left out of the program that it imports: they are
 * the node's too (a change to one may make the run read it). */
function reached(request, seeds, memo = new Map(), leftOut = new Map()) {
  const union = new Set();
  for (const seed of new Set(seeds)) {
    if (!memo.has(seed)) memo.set(seed, closure(seed));
    const files = memo.get(seed);
    if (!files) return null;
    for (const sf of files) union.add(sf);
    if (union.size > MAX_FILES) return null;
  }
  const own = [...union].map((sf) => sf.getFilePath());
  const files = new Set([...own, ...own.flatMap((f) => leftOut.get(f) || [])]);
  return [...files].map((f) => rel(request, f)).sort();
}

/** One seed's files, or null (a shared file, or more than MAX_FILES). */
function closure(seed) {
  const seen = new Set();
  const todo = [seed];
  while (todo.length) {
    const sf = todo.pop();
    if (!sf || seen.has(sf)) continue;
    if (shared(sf) || seen.size >= MAX_FILES) return null;
    seen.add(sf);
    for (const next of sf.getReferencedSourceFiles()) {
      // A type-only package import reaches nothing of the user's; the package's own files
      // change with its lockfile, which is part of the cache key's listing of read files.
      if (!/[\\/]node_modules[\\/]/.test(next.getFilePath())) todo.push(next);
    }
  }
  return seen;
}

/** Runs `action` with the diagnostics it pushes labelled `label` and the entry keys it adds
 * recorded apart; returns [result, keys]. */
function tracked(ctx, label, action) {
  const outer = ctx.entryKeys;
  const keys = new Set();
  ctx.entryKeys = keys;
  try {
    return [action(), [...keys].sort()];
  } finally {
    ctx.entryKeys = outer;
    for (const key of keys) outer.add(key);
    labelAll(ctx, label);
  }
}

/** Labels the diagnostics pushed since the last label. */
function labelAll(ctx, label) {
  while (ctx.groups.length < ctx.diagnostics.length) ctx.groups.push(label);
}

/**
 * Whether a changed file declares a type another node's lookup may find: by its naming
 * convention (`nameKeys`) or its `data_types` name. Those nodes are not read again, so a
 * partial run cannot tell; the caller runs everything.
 */
function declaresOthersType(ctx, only, nameKeys) {
  const { request } = ctx;
  const wanted = new Set();
  request.entryTypes.forEach((type, i) => {
    if (!type || only.has(i)) return;
    for (const key of nameKeys(type)) wanted.add(key);
    const configured = request.dataTypes[type];
    if (configured) wanted.add(configured.toLowerCase());
  });
  const changed = new Set(request.changedFiles || []);
  for (const sf of ctx.project.getSourceFiles()) {
    if (!changed.has(rel(request, sf.getFilePath()))) continue;
    const names = [...sf.getInterfaces(), ...sf.getTypeAliases()].map((d) => d.getName());
    if (names.some((name) => wanted.has(name.toLowerCase()))) return true;
  }
  return false;
}

/** Whether every declaration a node's type lookup weighed lies among its `files`: then a
 * partial run that reads only those files finds the same type (the files of the other
 * nodes are unchanged, and held none). */
function lookupAlone(request, candidates, files) {
  if (!files) return false;
  const own = new Set(files);
  return candidates.every((c) => {
    const sf = c.decl.getSourceFile();
    return !isLibFile(sf) && own.has(rel(request, sf.getFilePath()));
  });
}

module.exports = { tracked, labelAll, reached, declaresOthersType, lookupAlone };
