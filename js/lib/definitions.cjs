// One node definition entry into a node of the reply: its fields, its handles, its default
// data. A value that is not static data never stops the run: it is listed as computed (its
// path, source text, place and the checker's type) with one warning, and the rest is read;
// an entry whose type is computed is left out, with one warning.
"use strict";

const { UserError, locate } = require("./errors.cjs");
const { readHandles, ruleList } = require("./handles.cjs");
const { snippet } = require("./sources.cjs");
const { Dynamic, UNDEFINED, strip, toJson } = require("./values.cjs");
const { fieldPath, valueAt } = require("./entrypath.cjs");
const { isZodSchema } = require("./zod.cjs");
const { COMPONENT_VALUE } = require("./deferred.cjs");

/** `defaultData.seed`, `inputs[1]`: where inside an entry a value sits. */
function keyPath(parts) {
  return parts.map((p, i) => {
    if (typeof p === "number") return `[${p}]`;
    return /^[A-Za-z_$][\w$]*$/.test(p) ? (i ? "." : "") + p : `[${JSON.stringify(p)}]`;
  }).join("");
}

/** The checker's type of a computed value, widened the way a reader names it (`string`). */
function typeOf(ctx, node, within = []) {
  const { Node, ts } = ctx.tsMorph;
  const at = Node.isSpreadAssignment(node) ? node.getExpression() : node;
  const checker = ctx.project.getTypeChecker().compilerObject;
  let type = checker.getTypeAtLocation(at.compilerNode);
  for (const key of within) type = type && partType(checker, type, key, at.compilerNode);
  type = checker.getBaseTypeOfLiteralType(type || checker.getAnyType());
  const flags = ts.TypeFormatFlags.NoTruncation
    | ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope;
  return checker.typeToString(type, at.compilerNode, flags);
}

/**
 * The id patterns of a computed handle list whose type is made of template literals and
 * string literals (`` `col_${string}`[] `` gives `col_*`); null for any other type.
 */
function idPatterns(ctx, dynamic) {
  const { Node, ts } = ctx.tsMorph;
  const node = Node.isSpreadAssignment(dynamic.node) ? dynamic.node.getExpression() : dynamic.node;
  const checker = ctx.project.getTypeChecker().compilerObject;
  let type = checker.getTypeAtLocation(node.compilerNode);
  for (const key of dynamic.within || []) {
    type = type && partType(checker, type, key, node.compilerNode);
  }
  if (!type) return null;
  const elements = checker.isArrayType(type) || checker.isTupleType(type)
    ? checker.getTypeArguments(type) : [type];
  const patterns = [];
  for (const element of elements) {
    for (const member of element.isUnion() ? element.types : [element]) {
      if (member.flags & ts.TypeFlags.TemplateLiteral) patterns.push(member.texts.join("*"));
      else if (member.isStringLiteral()) patterns.push(member.value);
      else return null;
    }
  }
  return patterns.some((p) => p.includes("*")) ? [...new Set(patterns)] : null;
}

/** The type of `type[key]`: a property, an element, or undefined when it has none. */
function partType(checker, type, key, where) {
  const prop = checker.getPropertyOfType(type, String(key));
  if (prop) return checker.getTypeOfSymbolAtLocation(prop, where);
  return /^\d+$/.test(key) ? checker.getIndexTypeOfType(type, 1) : undefined;
}

/** A computed value of node `owner`, and the warning that says so. */
function computedValue(ctx, owner, found, field) {
  const { dynamic, path: at } = found;
  const loc = locate(ctx.request, dynamic.node, "");
  const record = {
    path: keyPath(at), field, text: snippet(dynamic.node, 120),
    type_text: typeOf(ctx, dynamic.node, dynamic.within), file: loc.file, line: loc.line,
  };
  // Kept out of the reply: what a handle side computed at run time is typed as.
  Object.defineProperty(record, "at", { value: dynamic, enumerable: false });
  const what = dynamic.limit ? dynamic.why : `'${record.text}' is ${dynamic.why}`;
  ctx.diagnostics.push({
    level: "warning", kind: dynamic.limit ? "evaluator-limit" : "computed", node_type: owner,
    file: loc.file, line: loc.line,
    message: `${owner ? `node '${owner}'` : "a node definition"}: '${record.path}' is computed `
      + `at run time (${what}); it is listed as computed, of type ${record.type_text}`,
  });
  return record;
}

/** The entry's value as an object, or null after a warning when it is not one. */
function entryObject(ctx, entry) {
  const value = entry.value;
  if (value && typeof value === "object" && !Array.isArray(value) && !(value instanceof Dynamic)) {
    return value;
  }
  const node = value instanceof Dynamic ? value.node : entry.node;
  const why = value instanceof Dynamic ? `'${snippet(node)}' is ${value.why}` : "not an object";
  ctx.diagnostics.push({ level: "warning", kind: "computed", ...where(ctx, node),
    message: `a node definition is ${why}; it is left out` });
  return null;
}

function where(ctx, node) {
  const loc = locate(ctx.request, node, "");
  return { file: loc.file, line: loc.line };
}

/** Reads entry field `field` as JSON; its dynamic parts go to `computed`. */
function reader(ctx, raw, computed, owner) {
  return (field) => {
    const key = ctx.request.entryFields[field];
    const parts = key === false ? null : fieldPath(raw, key);
    if (!parts) return undefined;
    const found = [];
    let at = valueAt(raw, parts);
    if (field === "inputs" || field === "outputs") at = handleRecord(at);
    const value = strip(at, parts, found);
    for (const f of found) computed.push(computedValue(ctx, owner(), f, field));
    return value === UNDEFINED ? undefined : toJson(value);
  };
}

/**
 * A record of handles keyed by id whose values are built by code (Baklava's
 * `{ value: () => new NumberInterface(…) }`): the keys are static handle ids, so each such
 * value stands for a handle with no details (silently when it is a function or class).
 */
function handleRecord(value) {
  if (!value || typeof value !== "object" || Array.isArray(value) || value instanceof Dynamic) {
    return value;
  }
  const out = { ...value };
  for (const key of Object.keys(out)) {
    if (out[key] instanceof Dynamic && NOT_DATA.has(out[key].why)) out[key] = true;
  }
  return out;
}

/**
 * An entry whose type is computed (and not given by its key) is left out: one warning that
 * says so, why, and where the entry is. False when the type is static (or absent).
 */
function typeUnknown(ctx, entry, raw) {
  const key = ctx.request.entryFields.type;
  const parts = key === false || entry.key !== null ? null : fieldPath(raw, key);
  if (!parts) return false;
  const found = [];
  const value = strip(valueAt(raw, parts), parts, found);
  if ((typeof value === "string" && value) || !found.length) return false;
  const { dynamic } = found[0];
  const at = where(ctx, entry.node);
  const what = dynamic.limit ? dynamic.why : `'${snippet(dynamic.node, 120)}' is ${dynamic.why}`;
  ctx.diagnostics.push({ level: "warning", kind: dynamic.limit ? "evaluator-limit" : "computed",
    ...where(ctx, dynamic.node),
    message: `the node definition at ${at.file}:${at.line} is left out: its '${keyPath(parts)}' `
      + `is computed at run time (${what}), so its type is not known` });
  return true;
}

/** The node the entry defines, or null when its type is not known before run time. */
function readEntry(ctx, entry) {
  const f = ctx.request.entryFields;
  const raw = entryObject(ctx, entry);
  if (!raw) return null;
  for (const key of Object.keys(raw)) ctx.entryKeys.add(key);
  for (const name of Object.values(f)) {
    if (typeof name === "string" && name.includes(".") && fieldPath(raw, name)) {
      ctx.entryKeys.add(name);
    }
  }
  if (typeUnknown(ctx, entry, raw)) return null;
  const out = {};
  const computed = [];
  const read = reader(ctx, raw, computed, () => out.type);
  out.type = read("type");
  if (out.type === undefined && entry.key !== null) out.type = entry.key;
  if (typeof out.type !== "string" || !out.type) {
    throw new UserError(entry.node, `a node definition has no string '${f.type}'`);
  }
  readFields(ctx, entry, raw, read, out, computed);
  out.computed = computed;
  const skipped = noteUnknownDynamic(ctx, raw, f);
  out.skipped = [...skipped.keys()].sort();
  const loc = locate(ctx.request, entry.node, "");
  warnSkipped(ctx, out, skipped, loc);
  out.source = { file: loc.file, line: loc.line };
  Object.assign(out, variantOf(ctx, raw, out));
  const chosen = read("default_variant");
  // The variant a node of this type that names none is of (n8n's `defaultVersion`).
  if (out.variant !== null && (typeof chosen === "string" || typeof chosen === "number")) {
    out.default_variant = String(chosen);
  }
  return out;
}

function readFields(ctx, entry, raw, read, out, computed) {
  const f = ctx.request.entryFields;
  const label = read("label");
  out.label = typeof label === "string" ? label : out.type;
  if (typeof label !== "string" && fieldPath(raw, f.label)
    && !computed.some((c) => c.field === "label")) {
    throw new UserError(entry.node, `node '${out.type}' has no string '${f.label}'`);
  }
  const text = (value) => (typeof value === "string" ? value : null);
  out.category = text(read("category"));
  const cost = read("credit_cost");
  out.credit_cost = typeof cost === "number" ? cost : null;
  out.description = text(read("description"));
  for (const side of ["inputs", "outputs"]) {
    const problems = [];
    const ruleProblems = [];
    readSide(ctx, read, computed, out, side, problems, ruleProblems);
    const warn = (text, left) => ctx.diagnostics.push({ level: "warning",
      kind: "unreadable-handle", node_type: out.type, ...where(ctx, entry.node),
      message: `node '${out.type}': ${text}; that ${left} is left out` });
    for (const problem of problems) warn(`'${f[side]}' ${problem}`, "handle");
    for (const problem of ruleProblems) warn(problem, "connection rule");
  }
  readConnectsTo(ctx, entry, read, out);
  // A catalog that describes data by a list of field descriptors (config `field_list`):
  // passed on as data; the descriptors are mapped to fields after extraction.
  if (ctx.request.entryFields.field_list) {
    const list = read("field_list");
    // A record of descriptors (`{method: {defaultValue, editorType}}`) too: its keys name
    // the fields (pygen/extract/fieldlist.py).
    if (Array.isArray(list) || (list !== null && typeof list === "object")) out.field_list = list;
  }
  const data = read("default_data");
  if (data !== undefined && (data === null || typeof data !== "object" || Array.isArray(data))) {
    throw new UserError(entry.node, `'${f.default_data}' of node '${out.type}' must be an object`);
  }
  out.default_data = data || {};
  // Not read (absent or not static) is not the same as empty: the skills say "not declared".
  out.default_data_declared = data !== undefined;
}

/** One side's handles, and whether (and how) the entry declares them. */
function readSide(ctx, read, computed, out, side, problems, ruleProblems) {
  const f = ctx.request.entryFields;
  const value = read(side);
  out[side] = readHandles(f, value, problems, side, ruleProblems);
  const whole = computed.find((c) => c.path === keyPath(String(f[side]).split(".")));
  // Declared only when the entry writes the key: a missing (or null) key says nothing
  // about the handles, which is not the same as having none (`inputs: []`).
  // Nor when nothing in it reads as a handle (Flowise's `inputs` are field descriptors):
  // a side that cannot be read is not known to have none.
  const unreadable = problems.length > 0 && out[side].length === 0;
  out[`${side}_declared`] = f[side] !== false && value !== undefined && value !== null
    && !whole && !unreadable;
  // Computed at run time, typed as template literals (`col_${string}`[]): dynamic handles
  // whose ids follow those patterns.
  const patterns = whole && whole.at ? idPatterns(ctx, whole.at) : null;
  if (patterns) out[`${side}_dynamic`] = { patterns, via: whole.type_text };
}

/** The node types every output of the node may connect to (`connectsTo` on the entry). */
function readConnectsTo(ctx, entry, read, out) {
  const name = ctx.request.entryFields.connects_to;
  const rule = ruleList(read("connects_to"), (why) => ctx.diagnostics.push({
    level: "warning", kind: "unreadable-handle", node_type: out.type, ...where(ctx, entry.node),
    message: `node '${out.type}': '${name}' ${why}; that connection rule is left out` }));
  if (rule) out.connects_to = rule;
}

/**
 * The variant value of an entry (`toolType`), from the entry or its default data. A list
 * (`version: [1, 2]`) is one variant covering each value, named by the latest (the highest
 * when all are numbers, else the last).
 */
function variantOf(ctx, raw, out) {
  const field = ctx.request.variantField;
  if (!field) return { variant: null };
  const scalar = (v) => typeof v === "string" || typeof v === "number";
  if (Array.isArray(raw[field]) && raw[field].length && raw[field].every(scalar)) {
    const list = raw[field];
    const latest = list.every((v) => typeof v === "number") ? Math.max(...list) : list.at(-1);
    return { variant: String(latest), variant_values: list.map(String) };
  }
  const value = scalar(raw[field]) ? raw[field] : out.default_data[field];
  return { variant: scalar(value) ? String(value) : null };
}

// What a catalog entry holds beside its data (a component, an `execute` function, a class,
// JSX, a zod schema of something else, such as its output): not data by design, so skipping
// it is silent unless entry_fields names the property.
const NOT_DATA = new Set(["a function", "a method", "a class", "JSX", "an accessor", "an asset",
  COMPONENT_VALUE]);

/** Keys pygen does not read are noted when dynamic, so the warning lists them. */
function noteUnknownDynamic(ctx, raw, f) {
  const known = new Set(Object.values(f).filter((name) => typeof name === "string")
    .map((name) => name.split(".")[0]));
  const skipped = new Map();
  // Nothing read: a value here may come through a file left out (componentfiles.cjs).
  ctx.unreadValues = ctx.unreadValues || new Set();
  for (const key of Object.keys(raw)) {
    if (known.has(key)) continue;
    const found = [];
    strip(raw[key], [key], found);
    // Per value: an object's static members stay; only what is not data is named, by path.
    for (const x of found) {
      const path = keyPath(x.path);
      if (x.dynamic.node) ctx.unreadValues.add(x.dynamic.node.compilerNode);
      if (NOT_DATA.has(x.dynamic.why) || skipped.has(path)) continue;
      if (isZodSchema(ctx.tsMorph.Node, x.dynamic.node)) continue;
      skipped.set(path, x.dynamic.why);
    }
  }
  return skipped;
}

function warnSkipped(ctx, out, skipped, loc) {
  if (!out.skipped.length) return;
  const list = out.skipped.map((k) => `'${k}' (${skipped.get(k)})`).join(", ");
  ctx.diagnostics.push({
    level: "warning", kind: "skipped", node_type: out.type, file: loc.file, line: loc.line,
    message: `node '${out.type}': skipped what is not static data: ${list}`,
  });
}

module.exports = { readEntry };
