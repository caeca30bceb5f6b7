// Methods on a zod schema: `.optional()`, `.default(v)`, `.describe("…")`, `.min(n)`,
// `.extend({...})`, `.merge(other)`, `.partial()`, `.pick({...})`, `.array()`, `.or(b)`, …
// Each returns a new intermediate schema (see zod.cjs); one pygen cannot express is a problem.
"use strict";

// The schema reader (zod.cjs) hands itself in when it loads, so neither module requires the
// other.
let zod = null;

function useReader(reader) {
  zod = reader;
}
const { unwrap } = require("./values.cjs");

/** `s.name(args)`. */
function modify(zr, s, name, args, node, path) {
  if (s.problem && (name in zod.INEXPRESSIBLE || REFINE.has(name))) return s;
  const method = METHODS[name];
  if (method) return method(zr, s, args, node, path);
  if (REFINE.has(name)) {
    zr.problems.push({ node, path, why: `.${name}() is a check only zod runs; the field `
      + "keeps its type, without that check" });
    return s;
  }
  if (zod.INEXPRESSIBLE[name]) {
    return zod.unknownS(zr, node, `.${name}() makes ${zod.INEXPRESSIBLE[name]}, which pygen `
      + "cannot express", path);
  }
  if (NO_OPS.has(name)) return s;
  return zod.unknownS(zr, node, `.${name}() is not a zod method pygen reads`, path);
}

const REFINE = new Set(["refine", "superRefine", "check", "overwrite"]);
// Methods that change nothing pygen models (formats, casing, brands, messages, strictness).
const NO_OPS = new Set([
  "email", "url", "uuid", "guid", "cuid", "cuid2", "ulid", "nanoid", "emoji", "base64",
  "base64url", "ip", "ipv4", "ipv6", "cidr", "datetime", "date", "time", "duration", "trim",
  "toLowerCase", "toUpperCase", "lowercase", "uppercase", "int", "finite", "safe", "brand",
  "readonly", "strict", "strip", "catch", "startsWith", "endsWith", "includes", "multipleOf",
  "step", "jwt", "hostname", "normalize", "openapi", "positive", "negative", "nonpositive",
  "gt", "lt", "nonoptional",
]);

/** A rule tag for a number's range, a string's length or an array's item count. */
function bound(numberTag, stringTag, arrayTag) {
  return (zr, s, [arg]) => {
    const n = zod.staticValue(zr, arg);
    const tag = { number: numberTag, string: stringTag, array: arrayTag }[s.kind] || null;
    if (typeof n !== "number" || !tag) return s;
    return { ...s, tags: [...s.tags.filter(([t]) => t !== tag), [tag, String(n)]] };
  };
}

function withFields(s, fields) {
  return { ...s, fields };
}

/** Object fields made optional (or required) by `.partial()` / `.required()`, all or a mask. */
function optionality(optional) {
  return (zr, s, [mask]) => {
    if (!s.fields) return s;
    const keys = mask ? maskKeys(zr, mask) : null;
    return withFields(s, s.fields.map(([k, f]) => [k, !keys || keys.includes(k)
      ? { ...f, optional: optional || (f.hasDefault && f.optional) } : f]));
  };
}

/** The keys of `{ a: true, b: true }`. */
function maskKeys(zr, mask) {
  const value = zod.staticValue(zr, mask);
  return value && typeof value === "object" ? Object.keys(value) : [];
}

function merged(base, extra) {
  const names = new Set(extra.map(([k]) => k));
  return [...base.filter(([k]) => !names.has(k)), ...extra];
}

/** `a.and(b)`, `z.intersection(a, b)`: one object of both when both are objects. */
function intersect(a, b) {
  if (a.fields && b.fields) {
    return { ...zod.scalar("object"), fields: merged(a.fields, b.fields),
      loose: a.loose || b.loose };
  }
  return zod.scalar("intersection", { types: [a, b] });
}

const METHODS = {
  optional: (zr, s) => ({ ...s, optional: true }),
  nullable: (zr, s) => ({ ...s, nullable: true }),
  nullish: (zr, s) => ({ ...s, optional: true, nullable: true }),
  default: (zr, s, [arg]) => {
    // A default the editor computes (`() => new Date()`) still makes the field optional.
    const value = zod.staticValue(zr, arg);
    return { ...s, optional: true, hasDefault: true, dflt: value };
  },
  prefault: (zr, s, args) => METHODS.default(zr, s, args),
  describe: (zr, s, [arg]) => {
    const text = zod.staticValue(zr, arg);
    return typeof text === "string" ? { ...s, description: text.replace(/\s+/g, " ").trim() } : s;
  },
  meta: (zr, s, [arg]) => {
    const meta = zod.staticValue(zr, arg);
    const text = meta && typeof meta === "object" ? meta.description : null;
    return typeof text === "string" ? { ...s, description: text } : s;
  },
  min: bound("minimum", "minLength", "minItems"),
  gte: bound("minimum", "minLength", null),
  max: bound("maximum", "maxLength", "maxItems"),
  lte: bound("maximum", "maxLength", null),
  length: (zr, s, args) => bound(null, "minLength", "minItems")(zr,
    bound(null, "maxLength", "maxItems")(zr, s, args), args),
  nonnegative: (zr, s) => ({ ...s, tags: [...s.tags, ["minimum", "0"]] }),
  nonempty: (zr, s) => {
    const tag = { string: "minLength", array: "minItems" }[s.kind];
    return tag ? { ...s, tags: [...s.tags.filter(([t]) => t !== tag), [tag, "1"]] } : s;
  },
  regex: (zr, s, [arg]) => {
    const re = arg && unwrap(zr.ctx.tsMorph, arg);
    if (!re || !zr.Node.isRegularExpressionLiteral(re)) return s;
    const source = re.getText().replace(/^\/|\/[a-z]*$/g, "");
    return { ...s, tags: [...s.tags, ["pattern", source]] };
  },
  array: (zr, s) => zod.scalar("array", { items: s }),
  or: (zr, s, [other], node, path) => zod.unionS([s, zod.readSchema(zr, other, path)], null),
  and: (zr, s, [other], node, path) => intersect(s, zod.readSchema(zr, other, path)),
  extend: (zr, s, [shape], node, path) => (s.fields
    ? withFields(s, merged(s.fields, zod.readShape(zr, shape, path))) : notObject(zr, node, path)),
  safeExtend: (zr, s, args, node, path) => METHODS.extend(zr, s, args, node, path),
  merge: (zr, s, [other], node, path) => {
    const read = zod.readSchema(zr, other, path);
    return s.fields && read.fields ? { ...withFields(s, merged(s.fields, read.fields)),
      loose: s.loose || read.loose } : notObject(zr, node, path);
  },
  partial: optionality(true),
  required: optionality(false),
  pick: (zr, s, [mask]) => (s.fields
    ? withFields(s, s.fields.filter(([k]) => maskKeys(zr, mask).includes(k))) : s),
  omit: (zr, s, [mask]) => (s.fields
    ? withFields(s, s.fields.filter(([k]) => !maskKeys(zr, mask).includes(k))) : s),
  passthrough: (zr, s) => ({ ...s, loose: true }),
  loose: (zr, s) => ({ ...s, loose: true }),
  catchall: (zr, s) => ({ ...s, loose: true }),
  keyof: (zr, s) => (s.fields ? zod.unionS(s.fields.map(([k]) => zod.scalar("literal",
    { value: k })), null) : s),
  unwrap: (zr, s) => (s.kind === "array" ? s.items : { ...s, optional: false, nullable: false }),
  element: (zr, s) => s.items || s,
};

function notObject(zr, node, path) {
  return zod.unknownS(zr, node, "extends a schema that is not an object", path);
}

module.exports = { modify, intersect, useReader };
