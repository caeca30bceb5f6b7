// zod schemas read statically: the call chain of a schema (`z.object({...}).extend(...)`,
// `z.string().min(1).describe("…")`, constants naming other schemas, across imports) becomes
// an intermediate schema `S`, which zodrefs.cjs turns into the reply's fields and types (the
// model the TypeScript path makes). zod need not be installed: `z` is known by the module it
// is imported from. A construct that cannot be expressed (z.lazy, .transform, z.custom, a
// call of a project function) is one problem, named where it is written; the value becomes
// `unknown` (a .refine keeps its type, unchecked), and the rest of the schema is read.
"use strict";

const { Dynamic, unwrap, evaluateValue, findDynamic, toJson, propertyName, UNDEFINED } =
  require("./values.cjs");
const { snippet } = require("./sources.cjs");
const methods = require("./zodmethods.cjs");

const ZOD_MODULE = /^zod(\/|$)/;
const IN_ZOD_PACKAGE = /[\\/]node_modules[\\/]zod[\\/]/;
// `z.coerce.number()`, `z.iso.datetime()`: namespaces of constructors inside zod.
const SUB_NAMESPACES = new Set(["coerce", "iso", "string_format"]);
// Constructors of a JSON scalar, by the JSON type they hold.
const SCALARS = {
  string: "string", number: "number", boolean: "boolean", bigint: "number", int: "number",
  float32: "number", float64: "number", int32: "number", null: "null", undefined: "undefined",
  void: "undefined", any: "any", unknown: "unknown", never: "never", nan: "number",
  email: "string", url: "string", uuid: "string", guid: "string", cuid: "string",
  cuid2: "string", ulid: "string", nanoid: "string", emoji: "string", base64: "string",
  base64url: "string", ipv4: "string", ipv6: "string", cidrv4: "string", cidrv6: "string",
  e164: "string", jwt: "string", datetime: "string", date: "string", time: "string",
  duration: "string", hostname: "string", hex: "string", httpUrl: "string",
};
// Constructors and methods whose value pygen cannot express, with why.
const INEXPRESSIBLE = {
  lazy: "a lazy (recursive) schema", custom: "a custom check", instanceof: "a class instance",
  function: "a function", promise: "a promise", map: "a Map", preprocess: "a preprocessed value",
  transform: "a transformed value", pipe: "a piped value", file: "a file", symbol: "a symbol",
  templateLiteral: "a template literal type",
};
/** A reader of one value's schema: problems go to `problems` ({ node, why, path }). */
function zodReader(ctx, ev) {
  return { ctx, ev, Node: ctx.tsMorph.Node, memo: new Map(), active: new Set(), problems: [] };
}

function scalar(kind, extra = {}) {
  return { kind, optional: false, nullable: false, hasDefault: false, dflt: undefined,
    description: "", tags: [], ...extra };
}

function unknownS(zr, node, why, path) {
  zr.problems.push({ node, why, path });
  return scalar("unknown", { text: snippet(node, 60), problem: true });
}

/** Whether a name is zod's namespace or one of its exports: imported from "zod" (or a
 * re-export of it), or declared inside the installed zod package. */
function fromZod(zr, ident) {
  let symbol = ident.getSymbol();
  for (let step = 0; symbol && step < 8; step++) {
    for (const decl of symbol.getDeclarations()) {
      if (IN_ZOD_PACKAGE.test(decl.getSourceFile().getFilePath())) return true;
      const owner = decl.getFirstAncestor((a) => zr.Node.isImportDeclaration(a)
        || zr.Node.isExportDeclaration(a));
      const spec = owner && owner.getModuleSpecifierValue && owner.getModuleSpecifierValue();
      if (spec && ZOD_MODULE.test(spec)) return true;
    }
    if (!symbol.isAlias()) return false;
    symbol = symbol.getImmediatelyAliasedSymbol();
  }
  return false;
}

/** Whether an expression builds a zod schema: a call chain rooted in zod, directly or through
 * schema constants. Such a value in an entry key pygen does not read (`outputSchema`) is not
 * data, so it is passed over silently, as a component is. */
function isZodSchema(Node, raw, depth = 0) {
  let expr = raw;
  for (let step = 0; step < 64; step++) {
    if (Node.isCallExpression(expr) || Node.isPropertyAccessExpression(expr)
      || Node.isParenthesizedExpression(expr) || Node.isAsExpression(expr)) {
      expr = expr.getExpression();
      continue;
    }
    break;
  }
  if (!Node.isIdentifier(expr) || depth > 4) return false;
  if (fromZod({ Node }, expr)) return expr !== raw;
  const symbol = expr.getSymbol();
  const target = symbol && symbol.isAlias() ? symbol.getAliasedSymbol() || symbol : symbol;
  const decl = target && target.getDeclarations().find((d) => Node.isVariableDeclaration(d));
  const init = decl && decl.getInitializer();
  return Boolean(init) && isZodSchema(Node, init, depth + 1);
}

/** The schema an expression builds; `path` names the value in messages (`schema.url`). */
function readSchema(zr, raw, path) {
  const { Node } = zr;
  const expr = unwrap(zr.ctx.tsMorph, raw);
  if (Node.isIdentifier(expr)) return readName(zr, expr, expr.getSymbol(), path);
  // `typeof schemas.http` in a type: the constant a namespace import names.
  if (Node.isQualifiedName(expr)) return readName(zr, expr, expr.getRight().getSymbol(), path);
  if (Node.isPropertyAccessExpression(expr) && expr.getName() !== "shape") {
    const owner = unwrap(zr.ctx.tsMorph, expr.getExpression());
    if (Node.isPropertyAccessExpression(owner) && owner.getName() === "shape") {
      return shapeMember(zr, owner.getExpression(), expr.getName(), expr, path);
    }
    // `schemas.http`: a constant of a namespace import, or a property of a constant object.
    if (!isZodNamespace(zr, owner)) {
      return readName(zr, expr, expr.getNameNode().getSymbol(), path);
    }
  }
  if (!Node.isCallExpression(expr)) return unknownS(zr, expr, "not a zod schema", path);
  const callee = unwrap(zr.ctx.tsMorph, expr.getExpression());
  const args = expr.getArguments();
  if (Node.isIdentifier(callee) && fromZod(zr, callee)) {
    return construct(zr, callee.getText(), args, expr, path);
  }
  if (!Node.isPropertyAccessExpression(callee)) {
    return unknownS(zr, expr, "a call of a function pygen does not run", path);
  }
  const base = unwrap(zr.ctx.tsMorph, callee.getExpression());
  if (isZodNamespace(zr, base)) return construct(zr, callee.getName(), args, expr, path);
  return methods.modify(zr, readSchema(zr, base, path), callee.getName(), args, expr, path);
}

/** `z`, or `z.coerce` / `z.iso`. */
function isZodNamespace(zr, node) {
  const { Node } = zr;
  if (Node.isIdentifier(node)) return fromZod(zr, node);
  return Node.isPropertyAccessExpression(node) && SUB_NAMESPACES.has(node.getName())
    && Node.isIdentifier(node.getExpression()) && fromZod(zr, node.getExpression());
}

/** A schema constant (in this file or imported), read once; its name is kept for display. */
function readName(zr, ident, symbol, path) {
  const target = symbol && symbol.isAlias() ? symbol.getAliasedSymbol() || symbol : symbol;
  const decl = target && target.getDeclarations()
    .find((d) => (zr.Node.isVariableDeclaration(d) || zr.Node.isPropertyAssignment(d))
      && d.getInitializer());
  if (!decl) return unknownS(zr, ident, "a name pygen cannot resolve to a schema", path);
  if (zr.memo.has(decl)) return zr.memo.get(decl);
  if (zr.active.has(decl)) {
    return unknownS(zr, ident, "a schema that refers to itself", path);
  }
  zr.active.add(decl);
  try {
    const read = { ...readSchema(zr, decl.getInitializer(), path), name: decl.getName() };
    zr.memo.set(decl, read);
    return read;
  } finally {
    zr.active.delete(decl);
  }
}

/** `other.shape.url`: the schema of one field of another object schema. */
function shapeMember(zr, owner, name, node, path) {
  const read = readSchema(zr, owner, path);
  const found = (read.fields || []).find(([key]) => key === name);
  return found ? found[1] : unknownS(zr, node, `no field '${name}' in that schema`, path);
}

/** A constructor: `z.object({...})`, `z.enum([...])`, `z.string()`, … */
function construct(zr, name, args, node, path) {
  if (SCALARS[name]) return scalar(SCALARS[name]);
  if (INEXPRESSIBLE[name]) {
    return unknownS(zr, node, `z.${name}() is ${INEXPRESSIBLE[name]}, which pygen cannot `
      + "express", path);
  }
  const build = CONSTRUCTORS[name];
  if (!build) return unknownS(zr, node, `z.${name}() is not a zod construct pygen reads`, path);
  return build(zr, args, node, path);
}

const object = (loose) => (zr, [shape], node, path) => {
  const fields = shape ? readShape(zr, shape, path) : [];
  return scalar("object", { fields, loose });
};
const CONSTRUCTORS = {
  object: object(false),
  strictObject: object(false),
  looseObject: object(true),
  literal: (zr, [arg], node, path) => literalS(zr, arg, node, path),
  enum: (zr, [arg], node, path) => enumS(zr, arg, node, path),
  nativeEnum: (zr, [arg], node, path) => enumS(zr, arg, node, path),
  array: (zr, [item], node, path) => scalar("array", { items: readSchema(zr, item, `${path}[]`) }),
  set: (zr, [item], node, path) => scalar("array", { items: readSchema(zr, item, `${path}[]`) }),
  tuple: (zr, [items], node, path) => scalar("tuple", { types: listOf(zr, items, path) }),
  record: (zr, args, node, path) => scalar("record", {
    items: readSchema(zr, args[args.length - 1], `${path}{}`) }),
  union: (zr, [items], node, path) => unionS(listOf(zr, items, path), null),
  xor: (zr, [items], node, path) => unionS(listOf(zr, items, path), null),
  discriminatedUnion: (zr, args, node, path) => {
    const key = staticValue(zr, args[0]);
    const items = typeof key === "string" ? args[1] : args[0];
    return unionS(listOf(zr, items, path), typeof key === "string" ? key : null);
  },
  intersection: (zr, [a, b], node, path) => {
    return methods.intersect(readSchema(zr, a, path), readSchema(zr, b, path));
  },
  optional: (zr, [inner], node, path) => ({ ...readSchema(zr, inner, path), optional: true }),
  nullable: (zr, [inner], node, path) => ({ ...readSchema(zr, inner, path), nullable: true }),
};

function unionS(types, discriminator) {
  return scalar("union", { types, discriminator });
}

/** The schemas of an array literal (`[a, b]`), each read where it is written. */
function listOf(zr, node, path) {
  const items = node && unwrap(zr.ctx.tsMorph, node);
  if (!items || !zr.Node.isArrayLiteralExpression(items)) {
    return [unknownS(zr, node || items, "a list of schemas that is not written out", path)];
  }
  return items.getElements().map((e) => readSchema(zr, e, path));
}

/** The static value of an argument (evaluated like the definitions), or undefined. */
function staticValue(zr, node) {
  if (!node) return undefined;
  const value = evaluateValue(zr.ev, node);
  if (value instanceof Dynamic || findDynamic(value) || value === UNDEFINED) return undefined;
  return toJson(value);
}

function literalS(zr, arg, node, path) {
  const value = staticValue(zr, arg);
  const values = Array.isArray(value) ? value : [value];
  if (value === undefined || !values.every(isScalar)) {
    return unknownS(zr, node, "a literal whose value is computed at run time", path);
  }
  const types = values.map((v) => scalar("literal", { value: v }));
  return types.length === 1 ? types[0] : unionS(types, null);
}

function isScalar(v) {
  return v === null || ["string", "number", "boolean"].includes(typeof v);
}

/** `z.enum(["a", "b"])`, `z.enum(CONST)`, `z.nativeEnum(Enum)` / `z.enum(Enum)`. */
function enumS(zr, arg, node, path) {
  const value = staticValue(zr, arg);
  let values = Array.isArray(value) ? value
    : value && typeof value === "object" ? Object.values(value) : null;
  if (values) values = values.filter((v, i) => isScalar(v) && values.indexOf(v) === i);
  if (!values || !values.length) {
    return unknownS(zr, node, "an enum whose values are not static data", path);
  }
  const types = values.map((v) => scalar("literal", { value: v }));
  const named = zr.Node.isIdentifier(arg) ? arg.getText() : null;
  return { ...unionS(types, null), enumName: named };
}

/** The fields of an object shape: `{ a: z.string(), ...other.shape }` or a constant of one. */
function readShape(zr, raw, path) {
  const { Node } = zr;
  let node = unwrap(zr.ctx.tsMorph, raw);
  if (Node.isIdentifier(node)) {
    const symbol = node.getSymbol();
    const target = symbol && symbol.isAlias() ? symbol.getAliasedSymbol() || symbol : symbol;
    const decl = target && target.getDeclarations().find((d) => Node.isVariableDeclaration(d));
    const init = decl && decl.getInitializer();
    if (init) node = unwrap(zr.ctx.tsMorph, init);
  }
  if (Node.isPropertyAccessExpression(node) && node.getName() === "shape") {
    return readSchema(zr, node.getExpression(), path).fields || [];  // `a.extend(b.shape)`
  }
  if (!Node.isObjectLiteralExpression(node)) {
    return [["", unknownS(zr, raw, "an object shape that is not written out", path)]];
  }
  const fields = [];
  for (const prop of node.getProperties()) {
    for (const [name, s] of shapeProperty(zr, prop, path)) {
      const at = fields.findIndex(([key]) => key === name);
      if (at >= 0) fields.splice(at, 1);
      fields.push([name, s]);
    }
  }
  return fields.filter(([name]) => name !== "");
}

/** The [name, schema] pairs one property of a shape adds. */
function shapeProperty(zr, prop, path) {
  const { Node } = zr;
  if (Node.isSpreadAssignment(prop)) {
    const spread = unwrap(zr.ctx.tsMorph, prop.getExpression());
    if (Node.isPropertyAccessExpression(spread) && spread.getName() === "shape") {
      return readSchema(zr, spread.getExpression(), path).fields || [];
    }
    return [["", unknownS(zr, prop, "a spread that is not another schema's .shape", path)]];
  }
  if (!Node.isPropertyAssignment(prop) && !Node.isShorthandPropertyAssignment(prop)) {
    return [];
  }
  const key = propertyName(zr.ev, prop);
  if (key instanceof Dynamic) {
    return [["", unknownS(zr, prop, "a field name computed at run time", path)]];
  }
  const at = path ? `${path}.${key}` : key;
  const s = Node.isShorthandPropertyAssignment(prop)
    ? readName(zr, prop.getNameNode(), prop.getValueSymbol(), at)
    : readSchema(zr, prop.getInitializerOrThrow(), at);
  return [[key, withDoc(prop, s)]];
}

/** A `/** … *\/` comment on a shape property describes the field when .describe() does not. */
function withDoc(prop, s) {
  if (s.description) return s;
  const doc = prop.getLeadingCommentRanges().map((r) => r.getText())
    .filter((t) => t.startsWith("/**")).pop();
  if (!doc) return s;
  const text = doc.replace(/^\/\*\*|\*\/$/g, "").split("\n")
    .map((line) => line.replace(/^\s*\*?\s?/, "")).filter((line) => !line.startsWith("@"))
    .join(" ").replace(/\s+/g, " ").trim();
  return text ? { ...s, description: text } : s;
}

module.exports = {
  zodReader, readSchema, readShape, fromZod, isZodSchema, staticValue, unknownS, scalar, unionS,
  INEXPRESSIBLE,
};
methods.useReader(module.exports);
