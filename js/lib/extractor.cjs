// One extraction run: the project, its definitions entries, each node's data type and its
// fields, and the reply document with the diagnostics and the files read.
"use strict";

const { UserError } = require("./errors.cjs");
const { isStackOverflow, tooDeep } = require("./depth.cjs");
const { rel } = require("./util.cjs");
const { makeProject, assertParses, sourcesRead } = require("./project.cjs");
const { definitionEntries } = require("./sources.cjs");
const { loadSources } = require("./sourcefiles.cjs");
const { readEntry } = require("./definitions.cjs");
const { newEvaluation } = require("./values.cjs");
const { evaluateCall } = require("./calls.cjs");
const {
  typeIndex, prepareLookup, resolveDataType, unresolvedMessage,
} = require("./datatypes.cjs");
const { typeReader, readDataType } = require("./types.cjs");
const { nodePlaces } = require("./locations.cjs");
const { addWorkflowFile, readWorkflowType } = require("./workflow.cjs");
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
  const built = { project: null };
  try {
    return run(tsMorph, request, built);
  } catch (e) {
    if (!isStackOverflow(e)) throw e;
    const files = built.project ? built.project.getSourceFiles().map((sf) => sf.getFilePath())
      : [];
    throw tooDeep(request, files);
  }
}

function run(tsMorph, request, built) {
  const clock = stopwatch();
  const made = makeProject(tsMorph, request);
  const { project, tsconfig } = made;
  built.project = project;
  const ctx = { ...made, tsMorph, request, diagnostics: [], entryKeys: new Set() };
  loadSources(ctx);
  assertParses(project);
  clock.lap("program");
  const ev = newEvaluation(tsMorph, project, evaluateCall);
  addWorkflowFile(ctx);
  ctx.index = typeIndex(ctx);
  const tc = typeReader(tsMorph, ctx);
  const pairs = definitionEntries(ctx, ev)
    .map((entry) => ({ entry, node: readEntry(ctx, entry) })).filter((p) => p.node);
  requireEntries(ctx, pairs);
  const kept = markVariants(ctx, pairs);
  reportUnusedFields(ctx);
  clock.lap("definitions");
  prepareLookup(ctx, kept.map((p) => p.node));
  const locations = {};
  const nodes = readTypes(ctx, tc, ev, kept, locations);
  const workflow = readWorkflowType(ctx, tc);
  ctx.diagnostics.push(...deadImportWarnings(ctx, typeUsers(nodes)));
  ctx.diagnostics.push(...tsconfigWarnings(ctx, tsconfig, deadSpecifiers(project)));
  clock.lap("types");
  const sources = sourcesRead(ctx);
  clock.lap("sources");
  return {
    ok: true, nodes, workflow, sources, diagnostics: ctx.diagnostics,
    stand_ins: ctx.standIns.map((s) => ({ ...s, missing: rel(request, s.missing),
      used: rel(request, s.used) })).sort((a, b) => (a.package < b.package ? -1 : 1)),
    data_union: ctx.autoUnion || null,
    locations,
    ...(request.profile ? { timings: clock.marks } : {}),
  };
}

/** Each node's data type (nodes sharing one share its reading), and where it is written. */
function readTypes(ctx, tc, ev, pairs, locations) {
  const shapes = new Map();
  return pairs.map(({ entry, node }) => {
    if (node.field_list) {
      // The field list is the node's data shape: no TypeScript type is looked for.
      node.data_type = { name: null, via: "field-list", fields: [], variants: [], skipped: [] };
      locations[node.type] = nodePlaces(ctx, ev, entry, null);
      return node;
    }
    const found = resolveDataType(ctx, node, entry);
    node.data_type = dataType(ctx, tc, shapes, node, found);
    locations[node.type] = nodePlaces(ctx, ev, entry, found.decl);
    return node;
  });
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

/**
 * A type defined twice keeps its first definition, as a catalog looked up with `find` does:
 * one warning names both places (an error under --strict). With `variant_field`, entries of
 * one type are variants: each keeps its value (its skill file is `<type>.<value>.md`). An
 * entry whose type is not shared has no variant.
 */
function markVariants(ctx, pairs) {
  const byType = new Map();
  for (const pair of pairs) {
    byType.set(pair.node.type, [...(byType.get(pair.node.type) || []), pair]);
  }
  const dropped = new Set();
  for (const group of byType.values()) {
    const seen = new Map();
    for (const pair of group) {
      const { node } = pair;
      const key = group.length > 1 ? node.variant : null;
      if (seen.has(key)) {
        // One class constructed for each version it lists (`1: new V1(), 2: new V1()`) is
        // one entry read twice, not a duplicate.
        const same = seen.get(key) === `${node.source.file}:${node.source.line}`;
        if (!same) ctx.diagnostics.push(duplicate(ctx, node, key, seen.get(key)));
        dropped.add(pair);
        continue;
      }
      seen.set(key, `${node.source.file}:${node.source.line}`);
      node.variant = key;
      // Who reads a variant needs the field too: it is where the node's data names it.
      node.variant_field = key === null ? null : ctx.request.variantField;
      if (key === null) delete node.variant_values;
    }
  }
  return pairs.filter((pair) => !dropped.has(pair));
}

function duplicate(ctx, node, key, first) {
  const hint = ctx.request.variantField
    ? `; entries of one type need distinct '${ctx.request.variantField}' values`
    : "; if entries of one type are variants, set variant_field to the field that tells "
      + "them apart";
  const variant = key ? ` (variant '${key}')` : "";
  return { level: "warning", kind: "duplicate", node_type: node.type, file: node.source.file,
    line: node.source.line, message: `duplicate node type '${node.type}'${variant}: defined at `
      + `${first} and at ${node.source.file}:${node.source.line}; the first is used${hint}` };
}

/**
 * An empty catalog is an error (a gate that passes on zero nodes checks nothing); a source
 * that adds no node beside others that do is one warning.
 */
function requireEntries(ctx, pairs) {
  const found = new Map(ctx.request.definitions.map((label) => [label, 0]));
  for (const { entry } of pairs) found.set(entry.spec, (found.get(entry.spec) || 0) + 1);
  const empty = [...found.keys()].filter((label) => !found.get(label));
  if (!pairs.length) {
    throw new UserError(null, `the node catalog is empty: no node definition found by `
      + `${empty.map((label) => `'${label}'`).join(", ")}; point 'definitions' in the pygen `
      + "config at the constant, call or class property that declares the nodes", "config");
  }
  for (const label of empty) {
    ctx.diagnostics.push({ level: "warning", kind: "empty-source",
      message: `definitions '${label}' matched no node definition; the other sources' nodes `
        + "are read" });
  }
}

/** An entry_fields name that no entry has: one warning, not one per node. */
function reportUnusedFields(ctx) {
  const f = ctx.request.entryFields;
  for (const field of ctx.request.entryFieldsSet || []) {
    const name = f[field];
    // Handle keys, and connectsTo (it may sit on output handles only), live below entries.
    if (typeof name !== "string" || field.startsWith("handle_") || field === "connects_to") {
      continue;
    }
    if (ctx.entryKeys.has(name)) continue;
    if (!ctx.entryKeys.size) continue;
    ctx.diagnostics.push({ level: "warning", kind: "unused-entry-field",
      message: `entry_fields.${field} = '${name}', but no node definition has a '${name}' `
        + `property; the definitions use: ${[...ctx.entryKeys].sort().join(", ")}` });
  }
}

function dataType(ctx, tc, shapes, node, found) {
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
  // A type named by convention but imported from a dead module is reported per module.
  if (!found.dead) {
    ctx.diagnostics.push({
      level: "warning", kind: "no-data-type", node_type: node.type, file: node.source.file,
      line: node.source.line, message: unresolvedMessage(node, found.near),
    });
  }
  return {
    name: null, via: "none", score: null, fields: [], variants: [],
    runner_up: found.near || null, skipped,
  };
}

module.exports = { extract };
