// One extraction run: the project, its definitions entries, each node's data type and its
// fields, and the reply document with the diagnostics and the files read.
"use strict";

const { UserError } = require("./errors.cjs");
const { isStackOverflow, tooDeep } = require("./deepnesting.cjs");
const { rel } = require("./util.cjs");
const { makeProject, assertParses, whatWasRead, forgetRuns } = require("./project.cjs");
const readlog = require("./readlog.cjs");
const { definitionEntries } = require("./sources.cjs");
const { loadSources } = require("./sourcefiles.cjs");
const { readEntry } = require("./definitions.cjs");
const { newEvaluation } = require("./values.cjs");
const { evaluateCall } = require("./calls.cjs");
const {
  typeIndex, prepareLookup, resolveDataType, unresolvedMessage, nameKeys, lookupCandidates,
} = require("./datatypes.cjs");
const { typeReader, readDataType, readPartFields } = require("./types.cjs");
const { nodePlaces } = require("./locations.cjs");
const { entrySchema, inferredParts, partsShape, zodDataType } = require("./zoddata.cjs");
const { addWorkflowFile, readWorkflowType } = require("./workflow.cjs");
const { deadImportWarnings, deadSpecifiers } = require("./imports.cjs");
const { tsconfigWarnings } = require("./tsconfignotes.cjs");
const { componentFilesNeeded, leftOutFiles, leftOutBy } = require("./componentfiles.cjs");
const {
  tracked, labelAll, reached, declaresOthersType, lookupAlone,
} = require("./incremental.cjs");

const RELATIVE = /^\.\.?(?:\/|$)/;

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
  readlog.install();
  // A process answering several requests (extract.cjs --serve) answers each as a fresh one.
  readlog.reset();
  forgetRuns();
  const built = { project: null };
  try {
    const reply = run(tsMorph, request, built);
    // Something read went through a package import left out: read again with all of them.
    return reply.retry ? run(tsMorph, { ...request, loadEveryImport: true }, built) : reply;
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
  const { project } = made;
  built.project = project;
  const ctx = { ...made, tsMorph, request, diagnostics: [], groups: [], entryKeys: new Set() };
  loadSources(ctx);
  assertParses(project);
  clock.lap("program");
  const ev = { ...newEvaluation(tsMorph, project, evaluateCall), deferred: made.deferred };
  addWorkflowFile(ctx);
  ctx.index = typeIndex(ctx);
  const tc = typeReader(tsMorph, ctx);
  // `only`: a partial run re-reads these entries (by position) of an unchanged catalog.
  const only = request.only ? new Set(request.only) : null;
  const entries = definitionEntries(ctx, ev);
  labelAll(ctx, "pre");
  if (only && entries.length !== request.entryCount) return stale("the definitions changed");
  const facts = [];
  const pairs = readEntries(ctx, entries, only, facts);
  if (!only) requireEntries(ctx, pairs);
  const kept = markVariants(ctx, pairs);
  if (!only) reportUnusedFields(ctx);
  labelAll(ctx, "mid");
  clock.lap("definitions");
  if (only && declaresOthersType(ctx, only, nameKeys)) return stale("a type was declared");
  prepareLookup(ctx, only ? lookupNodes(request, kept) : kept.map((p) => p.node));
  const locations = {};
  const nodes = readTypes(ctx, tc, ev, kept, locations, facts);
  const workflow = readWorkflowType(ctx, tc);
  if (!catalogNotes(ctx, ev, nodes, only)) return halted(ctx);
  clock.lap("types");
  const read = whatWasRead(ctx);
  clock.lap("sources");
  return {
    ok: true, nodes, workflow, ...read, diagnostics: ctx.diagnostics, stand_ins: standIns(ctx),
    data_union: ctx.autoUnion || null, locations,
    incremental: { entries: entries.length, facts: facts.filter(Boolean), groups: ctx.groups },
    ...(request.profile ? { timings: clock.marks, program: programCounts(ctx) } : {}),
  };
}

/** Whether a package import left out of the program reached what the run read: a value read
 * through it is computed, of a type the checker could not name (`any`); an entry read
 * through it is left out whole, naming no node; a type that did not resolve. For the app's
 * own files left out, what componentfiles.cjs checks too. */
function neededDeferred(ctx, ev, nodes) {
  if (!ctx.deferred.size) return false;
  const anyTyped = nodes.some((n) => (n.computed || []).some((c) => /\bany\b/.test(c.type_text)));
  const entryLost = ctx.diagnostics.some((d) => d.kind === "computed" && !d.node_type);
  if (anyTyped || (ev.touched.size && entryLost)) return true;
  // Only a package import can leave a type unresolved: an app file is left out only when no
  // type names what it binds (deferred.cjs). On sim, whose data names Node's Buffer without
  // its types installed, every run was read twice once its components were left out.
  const packages = [...ctx.deferred.keys()].some((spec) => !RELATIVE.test(spec));
  if (packages && ctx.diagnostics.some((d) => d.kind === "unresolved-type")) return true;
  if ([...(ctx.deadImports || new Map()).keys()].some((spec) => ctx.deferred.has(spec))) {
    return true;
  }
  return componentFilesNeeded(ctx, ev);
}

/** For the benchmark: the files in the program, the package imports left out of it and the
 * count of the app's own files left out. */
function programCounts(ctx) {
  const sources = ctx.project.getProgram().compilerObject.getSourceFiles();
  const files = sources.length;
  const own = leftOutFiles(ctx.deferred);
  const ownSpecs = new Set(own.map((o) => o.spec));
  const packages = [...ctx.deferred.keys()].filter((spec) => !ownSpecs.has(spec));
  return {
    files, chars: sources.reduce((n, sf) => n + sf.text.length, 0), deferred: packages.sort(),
    own_files_left_out: new Set(own.flatMap((o) => [...o.by.values()])).size,
    every: Boolean(ctx.request.loadEveryImport),
  };
}

function standIns(ctx) {
  return ctx.standIns.map((s) => ({ ...s, missing: rel(ctx.request, s.missing),
    used: rel(ctx.request, s.used) })).sort((a, b) => (a.package < b.package ? -1 : 1));
}

/** The warnings about the whole catalog; false when a partial run cannot write them (a dead
 * import's warning names every node it affects) or when the run must read again with every
 * package import (`ctx.retry`). */
function catalogNotes(ctx, ev, nodes, only) {
  ctx.retry = neededDeferred(ctx, ev, nodes);
  if (ctx.retry) return false;
  const dead = deadImportWarnings(ctx, typeUsers(nodes));
  const own = (file, spec) => /^\./.test(spec) && ctx.deferred.has(spec)
    && ctx.deferred.get(spec).from.has(file);
  const left = (file, spec) => ctx.dropped.has(`${file}\0${spec}`) || own(file, spec);
  const specifiers = deadSpecifiers(ctx.project, left)
    .filter((s) => /^\./.test(s) || !ctx.deferred.has(s));
  if (only && (dead.length || specifiers.length)) return false;
  ctx.diagnostics.push(...dead);
  ctx.diagnostics.push(...tsconfigWarnings(ctx, ctx.tsconfig, specifiers));
  labelAll(ctx, "post");
  return true;
}

/** A run stopped by its catalog notes: read again with every import, or a stale partial run. */
function halted(ctx) {
  return ctx.retry ? { retry: true } : stale("an import cannot be resolved");
}

function stale(reason) {
  return { ok: true, stale: reason };
}

/** The entries read (all, or those in `only`) with their nodes; `facts` gets each entry's
 * node type and the entry keys it uses. */
function readEntries(ctx, entries, only, facts) {
  const pairs = [];
  entries.forEach((entry, index) => {
    if (only && !only.has(index)) return;
    const [node, keys] = tracked(ctx, `d:${index}`, () => readEntry(ctx, entry));
    facts[index] = { index, type: node ? node.type : null, keys, files: null };
    if (node) pairs.push({ entry, node, index });
  });
  return pairs;
}

/** The nodes the data type lookup weighs in a partial run: the ones read now, and for the
 * others their types as the last full run read them (the lookup reads nothing else). */
function lookupNodes(request, kept) {
  const read = new Map(kept.map((p) => [p.index, p.node]));
  return request.entryTypes.map((type, i) => read.get(i) || (type && { type }))
    .filter(Boolean);
}

/** Each node's data type (nodes sharing one share its reading), and where it is written. */
function readTypes(ctx, tc, ev, pairs, locations, facts) {
  const shapes = new Map();
  return pairs.map(({ entry, node, index }) => {
    tracked(ctx, `t:${index}`,
      () => readType(ctx, tc, ev, shapes, entry, node, locations, facts[index]));
    return node;
  });
}

function readType(ctx, tc, ev, shapes, entry, node, locations, fact) {
  const seeds = [entry.node.getSourceFile()];
  const schema = node.field_list ? null : entrySchema(ctx, entry);
  if (node.field_list) {
    // The field list is the node's data shape: no TypeScript type is looked for.
    node.data_type = { name: null, via: "field-list", fields: [], variants: [], skipped: [] };
    locations[node.type] = nodePlaces(ctx, ev, entry, null);
  } else if (schema && !schema.notSchema) {
    // The entry's zod schema is the node's data shape (config `zod`).
    const { defaults, ...read } = zodDataType(ctx, ev, node, schema,
      ctx.request.entryFields.zod);
    node.data_type = { ...read, via: "zod", skipped: [] };
    fillDefaults(node, defaults);
    locations[node.type] = nodePlaces(ctx, ev, entry, null);
  } else {
    if (schema) notZod(ctx, node);
    const found = resolveDataType(ctx, node, entry);
    node.data_type = dataType(ctx, tc, shapes, node, found, ev);
    locations[node.type] = nodePlaces(ctx, ev, entry, found.decl);
    if (found.decl) seeds.push(found.decl.getSourceFile());
  }
  fact.files = reached(ctx.request, seeds, closuresOf(ctx), leftOutBy(ctx));
  fact.alone = lookupAlone(ctx.request, lookupCandidates(ctx, node), fact.files);
}

/** Each file's own import closure, kept for the run (see incremental.cjs `reached`). */
function closuresOf(ctx) {
  if (!ctx.closures) ctx.closures = new Map();
  return ctx.closures;
}

/** zod's `.default(v)` values fill the node's default data where its entry declares none
 * for that key: the entry's own default data is what the editor writes into a new node, so
 * it wins. */
function fillDefaults(node, defaults) {
  const missing = Object.keys(defaults).filter((k) => !Object.hasOwn(node.default_data, k));
  if (!missing.length) return;
  node.default_data = { ...node.default_data,
    ...Object.fromEntries(missing.map((k) => [k, defaults[k]])) };
  node.default_data_declared = true;
  node.schema_defaults = [...node.schema_defaults || [], ...missing];
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
      // A type's only entry is no variant, but the versions it covers stay known, so a
      // workflow node naming another one can be told.
      const covered = node.variant_values || (node.variant != null ? [node.variant] : []);
      node.variant = key;
      // Who reads a variant needs the field too: it is where the node's data names it.
      node.variant_field = key === null ? null : ctx.request.variantField;
      if (key === null) {
        if (covered.length) node.versions = covered;
        delete node.variant_values;
        delete node.default_variant;
      }
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
    ctx.diagnostics.push(unusedField(ctx, `entry_fields.${field}`, name));
  }
  const schema = f.zod;
  if (schema && ctx.entryKeys.size && !ctx.entryKeys.has(schema)) {
    ctx.diagnostics.push(unusedField(ctx, "zod.entry_field", schema));
  }
}

function unusedField(ctx, key, name) {
  return { level: "warning", kind: "unused-entry-field",
    message: `${key} = '${name}', but no node definition has a '${name}' property; the `
      + `definitions use: ${[...ctx.entryKeys].sort().join(", ")}` };
}

/** An entry whose zod field holds static data, not a schema: the TypeScript path answers. */
function notZod(ctx, node) {
  ctx.diagnostics.push({ level: "warning", kind: "zod", node_type: node.type,
    file: node.source.file, line: node.source.line,
    message: `node '${node.type}': '${ctx.request.entryFields.zod}' is not a zod schema; `
      + "its data type is looked up as without it" });
}

function dataType(ctx, tc, shapes, node, found, ev) {
  const skipped = found.skipped;
  if (found.decl) {
    if (!shapes.has(found.decl)) shapes.set(found.decl, readShape(ctx, tc, ev, node, found.decl));
    const shape = shapes.get(found.decl);
    fillDefaults(node, shape.defaults);
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

/** A declared type's fields; one written `z.infer<typeof schema>` (or an intersection with
 * one) is read from the schema. */
function readShape(ctx, tc, ev, node, decl) {
  const parts = inferredParts(ctx, decl);
  if (!parts) return { ...readDataType(tc, decl), defaults: {} };
  const read = partsShape(ctx, ev, node, parts, (typeNode) => readPartFields(tc, decl, typeNode));
  return { fields: read.fields, variants: read.variants, index: read.index_signature,
    defaults: read.defaults };
}

module.exports = { extract };
