// One extraction run: the project, its definitions entries, each node's data type and its
// fields, and the reply document with the diagnostics and the files read.
"use strict";

const { UserError } = require("./errors.cjs");
const { rel } = require("./util.cjs");
const { makeProject, assertParses, sourcesRead } = require("./project.cjs");
const { definitionEntries, readEntry } = require("./definitions.cjs");
const { newEvaluation } = require("./values.cjs");
const {
  typeIndex, prepareLookup, resolveDataType, unresolvedMessage,
} = require("./datatypes.cjs");
const { typeReader, readDataType } = require("./types.cjs");
const { deadImportWarnings, deadSpecifiers } = require("./imports.cjs");
const { tsconfigWarnings } = require("./tsconfignotes.cjs");

/** Milliseconds per phase, for `request.profile` (the benchmark's breakdown). */
function stopwatch() {
  const marks = {};
  let last = process.hrtime.bigint();
  return {
    marks,
    lap(name) {
      const now = process.hrtime.bigint();
      marks[name] = Number(now - last) / 1e6;
      last = now;
    },
  };
}

function extract(tsMorph, request) {
  const clock = stopwatch();
  const { project, sourceFile, consulted, standIns, tsconfig } = makeProject(tsMorph, request);
  assertParses(project);
  clock.lap("program");
  const ctx = { tsMorph, project, sourceFile, consulted, standIns, request, diagnostics: [] };
  const ev = newEvaluation(tsMorph);
  ctx.index = typeIndex(ctx);
  const tc = typeReader(tsMorph, ctx);
  const entries = definitionEntries(ctx, ev);
  const nodes = readNodes(ctx, entries);
  clock.lap("definitions");
  prepareLookup(ctx, nodes);
  // Nodes sharing a data type share its reading.
  const shapes = new Map();
  nodes.forEach((node, i) => {
    node.data_type = dataType(ctx, tc, shapes, node, entries[i]);
  });
  ctx.diagnostics.push(...deadImportWarnings(ctx, typeUsers(nodes)));
  ctx.diagnostics.push(...tsconfigWarnings(ctx, tsconfig, deadSpecifiers(project)));
  clock.lap("types");
  const sources = sourcesRead(ctx);
  clock.lap("sources");
  return {
    ok: true, nodes, sources, diagnostics: ctx.diagnostics,
    stand_ins: ctx.standIns.map((s) => ({ ...s, missing: rel(request, s.missing),
      used: rel(request, s.used) })).sort((a, b) => (a.package < b.package ? -1 : 1)),
    data_union: ctx.autoUnion || null,
    ...(request.profile ? { timings: clock.marks } : {}),
  };
}

/** Data type name → the node types whose data it is, for messages. */
function typeUsers(nodes) {
  const users = new Map();
  for (const n of nodes) {
    const name = n.data_type.name;
    if (name) users.set(name, [...users.get(name) || [], n.type]);
  }
  return users;
}

function readNodes(ctx, entries) {
  const seen = new Map();
  return entries.map((entry) => {
    const node = readEntry(ctx, entry);
    if (seen.has(node.type)) {
      throw new UserError(entry.node,
        `duplicate node type '${node.type}' (first defined at ${seen.get(node.type)})`);
    }
    seen.set(node.type, `${node.source.file}:${node.source.line}`);
    return node;
  });
}

function dataType(ctx, tc, shapes, node, entry) {
  const found = resolveDataType(ctx, node, entry);
  const skipped = found.skipped;
  if (found.decl) {
    if (!shapes.has(found.decl)) shapes.set(found.decl, readDataType(tc, found.decl));
    const shape = shapes.get(found.decl);
    return {
      name: found.decl.getName(), via: found.via, score: found.score,
      fields: shape.fields, variants: shape.variants, index_signature: shape.index,
      runner_up: found.runnerUp || null, skipped,
    };
  }
  if (!found.dead) ctx.diagnostics.push({
    level: "warning", node_type: node.type, file: node.source.file, line: node.source.line,
    message: unresolvedMessage(node, found.near),
  });
  return {
    name: null, via: "none", score: null, fields: [], variants: [],
    runner_up: found.near || null, skipped,
  };
}

module.exports = { extract };
