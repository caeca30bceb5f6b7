// Entry fields named by a path: `inputs`, or `handles.inputs` / `data.config` when a catalog
// keeps a field inside an object of the entry. A key that itself contains a dot wins.
"use strict";

const { Dynamic, unwrap } = require("./values.cjs");

function isPlainObject(value) {
  return Boolean(value) && typeof value === "object" && !Array.isArray(value)
    && !(value instanceof Dynamic);
}

/** The key path of entry field `name` in the evaluated entry `raw`, or null when absent. */
function fieldPath(raw, name) {
  if (typeof name !== "string" || !isPlainObject(raw)) return null;
  if (name in raw) return [name];
  const parts = name.split(".");
  if (parts.length < 2) return null;
  let value = raw;
  for (const part of parts) {
    if (!isPlainObject(value) || !(part in value)) return null;
    value = value[part];
  }
  return parts;
}

/** The value at a path `fieldPath` returned. */
function valueAt(raw, parts) {
  return parts.reduce((value, part) => value[part], raw);
}

/** The value of entry field `name`, or undefined. */
function fieldValue(raw, name) {
  const parts = fieldPath(raw, name);
  return parts ? valueAt(raw, parts) : undefined;
}

/** The property assignment of entry field `name` inside an entry's object literal, or null. */
function fieldProperty(tsMorph, literal, name) {
  const { Node } = tsMorph;
  const direct = literal.getProperty(name);
  if (direct || !name.includes(".")) return direct || null;
  let node = literal;
  let prop = null;
  for (const part of name.split(".")) {
    if (!node || !Node.isObjectLiteralExpression(node)) return null;
    prop = node.getProperty(part);
    if (!prop) return null;
    node = Node.isPropertyAssignment(prop) ? unwrap(tsMorph, prop.getInitializerOrThrow()) : null;
  }
  return prop;
}

module.exports = { fieldPath, valueAt, fieldValue, fieldProperty, isPlainObject };
