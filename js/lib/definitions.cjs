// The node definitions: finds the definitions constant, lists its entries (array or object,
// spreads included), and reads each entry's fields and handles into a node of the reply.
"use strict";

const { UserError, locate } = require("./errors.cjs");
const { oneLine } = require("./util.cjs");
const values = require("./values.cjs");
const { Dynamic, UNDEFINED, findDynamic, toJson } = values;

// Fields a node cannot do without: a dynamic value there is an error, elsewhere a warning.
const ESSENTIAL = ["type", "label", "inputs", "outputs", "default_data"];

function snippet(node, max = 80) {
  const text = oneLine(node.getText());
  return text.length > max ? text.slice(0, max - 1) + "…" : text;
}

/** `defaultData.seed`, `inputs[1]`: where inside an entry a value sits. */
function keyPath(parts) {
  return parts.map((p, i) => {
    if (typeof p === "number") return `[${p}]`;
    return /^[A-Za-z_$][\w$]*$/.test(p) ? (i ? "." : "") + p : `[${JSON.stringify(p)}]`;
  }).join("");
}

function findDefinitions(tsMorph, sourceFile, name) {
  const local = sourceFile.getVariableDeclaration(name);
  if (local) return local;
  // Re-exported or imported definitions: follow the symbol to its declaration.
  for (const symbol of sourceFile.getExportSymbols()) {
    if (symbol.getName() !== name) continue;
    const target = symbol.isAlias() ? symbol.getAliasedSymbol() : symbol;
    const decl = target
      && target.getDeclarations().find((d) => tsMorph.Node.isVariableDeclaration(d));
    if (decl) return decl;
  }
  return null;
}

/** Each entry of the definitions literal: its value, its key (object form), where it is. */
function definitionEntries(ctx, ev) {
  const { Node } = ctx.tsMorph;
  const { sourceFile, request } = ctx;
  const decl = findDefinitions(ctx.tsMorph, sourceFile, request.definitions);
  if (!decl) {
    throw new UserError(sourceFile, `no variable named '${request.definitions}' found; `
      + "set 'definitions' in the pygen config to the name of the node definitions constant");
  }
  const init = decl.getInitializer();
  if (!init) throw new UserError(decl, `'${request.definitions}' has no initializer`);
  const literal = values.unwrap(ctx.tsMorph, init);
  const entries = [];
  // An entry is reported where its object literal is written, even when it was spread in.
  const add = (fallback, value, key) =>
    entries.push({ node: values.origin(ev, value) || fallback, value, key });
  if (Node.isArrayLiteralExpression(literal)) arrayEntries(ev, literal, request, add);
  else if (Node.isObjectLiteralExpression(literal)) objectEntries(ev, literal, request, add);
  else {
    throw new UserError(literal, `'${request.definitions}' must be an array or object literal, `
      + `found '${snippet(literal, 60)}'`);
  }
  return entries;
}

function spreadError(node, request, what, spread) {
  const why = spread instanceof Dynamic ? `, but it is ${spread.why}` : "";
  return new UserError(node, `cannot read '${snippet(node)}': a spread in `
    + `${request.definitions} must be a static ${what}${why}`);
}

function arrayEntries(ev, literal, request, add) {
  for (const element of literal.getElements()) {
    if (!ev.Node.isSpreadElement(element)) {
      add(element, values.evaluate(ev, element), null);
      continue;
    }
    const spread = values.evaluate(ev, element.getExpression());
    if (!Array.isArray(spread)) throw spreadError(element, request, "array", spread);
    for (const value of spread) add(element, value, null);
  }
}

function objectEntries(ev, literal, request, add) {
  const { Node } = ev;
  for (const prop of literal.getProperties()) {
    if (Node.isSpreadAssignment(prop)) {
      const spread = values.evaluate(ev, prop.getExpression());
      if (!spread || typeof spread !== "object" || Array.isArray(spread)
        || spread instanceof Dynamic) throw spreadError(prop, request, "object", spread);
      for (const key of Object.keys(spread)) add(prop, spread[key], key);
    } else if (Node.isPropertyAssignment(prop) || Node.isShorthandPropertyAssignment(prop)) {
      const key = values.propertyName(ev, prop);
      if (key instanceof Dynamic) {
        throw new UserError(key.node, `cannot read the key '${snippet(key.node)}' of `
          + `${request.definitions}: it is ${key.why}`);
      }
      const value = Node.isPropertyAssignment(prop)
        ? values.evaluate(ev, prop.getInitializerOrThrow())
        : values.evaluate(ev, prop.getNameNode());
      add(prop, value, key);
    }
  }
}

/** The entry's value as an object, or the error that says why it is not one. */
function entryObject(entry) {
  const value = entry.value;
  if (value instanceof Dynamic) {
    throw new UserError(value.node,
      `cannot read a node definition: '${snippet(value.node)}' is ${value.why}`);
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    throw new UserError(entry.node, "a node definition must be an object literal");
  }
  return value;
}

/**
 * `pick(field, key)`: the entry's value at `key` as JSON. A dynamic part of an essential field
 * is an error; of any other, the field is dropped and noted in `skipped` with why.
 */
function picker(raw, out, skipped) {
  return (field, key) => {
    const value = raw[key];
    const found = findDynamic(value, [key]);
    if (!found) return value === UNDEFINED ? undefined : toJson(value);
    const { dynamic, path: at } = found;
    if (ESSENTIAL.includes(field)) {
      const owner = typeof out.type === "string" ? `node '${out.type}'` : "a node definition";
      throw new UserError(dynamic.node, `${owner}: '${keyPath(at)}' must be static data, `
        + `but '${snippet(dynamic.node)}' is ${dynamic.why}; write the value as a literal`);
    }
    skipped.set(key, dynamic.why);
    return undefined;
  };
}

function readEntry(ctx, entry) {
  const f = ctx.request.entryFields;
  const where = entry.node;
  const raw = entryObject(entry);
  const out = {};
  const skipped = new Map();
  const pick = picker(raw, out, skipped);
  readTypeAndLabel(out, pick, f, entry);
  out.category = pick("category", f.category);
  out.credit_cost = pick("credit_cost", f.credit_cost);
  out.description = pick("description", f.description);
  out.inputs = readHandles(ctx, where, out.type, f.inputs, pick("inputs", f.inputs));
  out.outputs = readHandles(ctx, where, out.type, f.outputs, pick("outputs", f.outputs));
  const data = pick("default_data", f.default_data);
  if (data !== undefined && (data === null || typeof data !== "object" || Array.isArray(data))) {
    throw new UserError(where, `'${f.default_data}' of node '${out.type}' must be an object`);
  }
  out.default_data = data || {};
  noteUnknownDynamic(raw, f, skipped);
  const loc = locate(ctx.request, where, "");
  out.skipped = [...skipped.keys()].sort();
  warnSkipped(ctx, out, skipped, loc);
  if (typeof out.category !== "string") out.category = null;
  if (typeof out.credit_cost !== "number") out.credit_cost = null;
  if (typeof out.description !== "string") out.description = null;
  out.source = { file: loc.file, line: loc.line };
  return out;
}

function readTypeAndLabel(out, pick, f, entry) {
  out.type = pick("type", f.type);
  if (out.type === undefined && entry.key !== null) out.type = entry.key;
  if (typeof out.type !== "string" || !out.type) {
    throw new UserError(entry.node, `a node definition has no string '${f.type}'`);
  }
  out.label = pick("label", f.label);
  if (typeof out.label !== "string") {
    throw new UserError(entry.node, `node '${out.type}' has no string '${f.label}'`);
  }
}

/** Keys pygen does not read are skipped too when dynamic, so the warning lists them. */
function noteUnknownDynamic(raw, f, skipped) {
  const known = new Set(Object.values(f));
  for (const key of Object.keys(raw)) {
    const found = !known.has(key) && findDynamic(raw[key]);
    if (found) skipped.set(key, found.dynamic.why);
  }
}

function warnSkipped(ctx, out, skipped, loc) {
  if (!out.skipped.length) return;
  const list = out.skipped.map((k) => `'${k}' (${skipped.get(k)})`).join(", ");
  ctx.diagnostics.push({
    level: "warning", node_type: out.type, file: loc.file, line: loc.line,
    message: `node '${out.type}': skipped what is not static data: ${list}`,
  });
}

function readHandles(ctx, where, type, key, value) {
  const f = ctx.request.entryFields;
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    throw new UserError(where, `'${key}' of node '${type}' must be an array of handle ids`);
  }
  return value.map((h) => {
    if (typeof h === "string") return { id: h, label: null };
    if (h && typeof h === "object" && typeof h[f.handle_id] === "string") {
      const label = typeof h[f.handle_label] === "string" ? h[f.handle_label] : null;
      return { id: h[f.handle_id], label };
    }
    throw new UserError(where, `'${key}' of node '${type}' holds ${JSON.stringify(h)}, `
      + `which is neither a string nor an object with a string '${f.handle_id}'`);
  });
}

module.exports = { definitionEntries, readEntry };
