// A node's data type from a zod schema: the entry's schema (config `zod.entry_field`) or a
// TypeScript type written `z.infer<typeof schema>` (`z.input`, `z.output`), read by zod.cjs
// and turned into the same fields, types and variants the TypeScript path gives, so skills,
// the schema document and validation read them unchanged.
"use strict";

const { Dynamic, unwrap } = require("./values.cjs");
const { fieldPath, valueAt } = require("./entrypath.cjs");
const { locate } = require("./errors.cjs");
const { zodReader, readSchema, fromZod } = require("./zod.cjs");

// `z.infer<typeof schema>` and its spellings.
const INFER = new Set(["infer", "input", "output", "TypeOf", "Infer"]);
// Above this many values an enum is shown by its name (when it has one), as TypeScript does.
const LONG_ENUM = 12;

/** The schema expression of an entry's zod field, or null when the entry has none. */
function entrySchema(ctx, entry) {
  const key = ctx.request.entryFields.zod;
  const raw = entry.value;
  const parts = key ? fieldPath(raw, key) : null;
  if (!parts) return null;
  const value = valueAt(raw, parts);
  // A schema is built by calls, so the evaluator leaves it as a Dynamic at its expression.
  return value instanceof Dynamic ? value.node : { notSchema: entry.node };
}

/**
 * The parts of a type alias read from zod schemas: `[{ schema }]` for `z.infer<typeof a>`;
 * for an intersection (`z.infer<typeof a> & { extra: string }`, `& z.infer<typeof b>`) each
 * member, as its schema or its type node for the TypeScript reader. Null when no part is
 * a zod schema's type.
 */
function inferredParts(ctx, decl) {
  const { Node } = ctx.tsMorph;
  if (!Node.isTypeAliasDeclaration(decl) || !decl.getTypeNode()) return null;
  const node = decl.getTypeNode();
  const members = Node.isIntersectionTypeNode(node) ? node.getTypeNodes() : [node];
  const parts = members.map((typeNode) => ({ schema: inferOf(ctx, typeNode, 0), typeNode }));
  return parts.some((p) => p.schema) ? parts : null;
}

/** The schema expression `z.infer<typeof schema>` names, also through an alias of one
 * (`Base` where `type Base = z.infer<typeof base>`); null otherwise. */
function inferOf(ctx, node, depth) {
  const { Node } = ctx.tsMorph;
  if (!Node.isTypeReference(node) || depth > 4) return null;
  const name = node.getTypeName();
  if (!node.getTypeArguments().length) {
    const symbol = name.getSymbol();
    const target = symbol && symbol.isAlias() ? symbol.getAliasedSymbol() || symbol : symbol;
    const alias = target && target.getDeclarations().find((d) => Node.isTypeAliasDeclaration(d));
    const aliased = alias && alias.getTypeNode();
    return aliased ? inferOf(ctx, aliased, depth + 1) : null;
  }
  if (node.getTypeArguments().length !== 1) return null;
  const head = Node.isQualifiedName(name) ? name.getLeft() : name;
  const last = Node.isQualifiedName(name) ? name.getRight().getText() : name.getText();
  if (!INFER.has(last) || !Node.isIdentifier(head)) return null;
  if (!fromZod({ Node }, head)) return null;
  return queried(Node, node.getTypeArguments()[0]);
}

/** The schema constant of `typeof schema`, `typeof schemas.http` (a namespace import) or
 * `typeof import("./x").schema`, or null. */
function queried(Node, query) {
  if (Node.isTypeQuery(query)) return query.getExprName();
  const ofImport = Node.isImportTypeNode(query) && query.compilerNode.isTypeOf;
  if (ofImport) return query.getQualifier() || null;
  return null;
}

/** The data type of `node` read from the schema at `expr`; problems become warnings. */
function zodDataType(ctx, ev, node, expr, label) {
  const zr = zodReader(ctx, ev);
  const s = readSchema(zr, expr, label);
  for (const p of zr.problems) ctx.diagnostics.push(problemWarning(ctx, node, p));
  const name = schemaName(ctx.tsMorph.Node, unwrap(ctx.tsMorph, expr));
  if (s.kind === "union" && s.types.every((t) => t.fields)) {
    return { name, fields: [], variants: variants(s), index_signature: null, defaults: {} };
  }
  if (!s.fields) {
    if (!s.problem) {
      ctx.diagnostics.push(problemWarning(ctx, node, { node: expr, path: label,
        why: "the schema is not an object of fields" }));
    }
    // Nothing is known of the data's keys: any key is accepted, none is required.
    return { name, fields: [], variants: [], index_signature: "[key: string]: unknown",
      defaults: {} };
  }
  return { name, fields: s.fields.map(([k, f]) => toField(k, f)), variants: [],
    index_signature: s.loose ? "[key: string]: unknown" : null, defaults: defaultsOf(s) };
}

/** The static `.default(v)` of each top-level field: what zod fills in for a missing key. */
function defaultsOf(s) {
  const out = {};
  for (const [key, f] of s.fields) if (f.hasDefault && f.dflt !== undefined) out[key] = f.dflt;
  return out;
}

/**
 * The shape of a type read from zod schemas (see inferredParts): one part as its schema
 * reads; an intersection as the fields of every part (a later part's field of the same name
 * replacing an earlier one, as `.and()` does), `readTs(typeNode)` giving a TypeScript part's.
 */
function partsShape(ctx, ev, node, parts, readTs) {
  const reads = parts.map((p) => (p.schema ? zodDataType(ctx, ev, node, p.schema,
    p.schema.getText()) : { fields: readTs(p.typeNode), variants: [], index_signature: null,
    defaults: {} }));
  if (reads.length === 1) return reads[0];
  const merge = (base, extra) => [...base.filter((f) => !extra.some((e) => e.name === f.name)),
    ...extra];
  const fields = reads.reduce((all, r) => merge(all, r.fields), []);
  const split = reads.find((r) => r.variants.length);
  return {
    name: null, fields: split ? [] : fields,
    // A union part makes the whole a union: each variant also has every other part's fields.
    variants: split ? split.variants.map((v) => ({ ...v, fields: merge(fields, v.fields) })) : [],
    index_signature: reads.map((r) => r.index_signature).find(Boolean) || null,
    defaults: Object.assign({}, ...reads.map((r) => r.defaults)),
  };
}

/** The constant a schema expression names (`httpSchema`, `schemas.http` → `http`), or null. */
function schemaName(Node, expr) {
  if (Node.isIdentifier(expr)) return expr.getText();
  if (Node.isQualifiedName(expr)) return expr.getRight().getText();
  return Node.isPropertyAccessExpression(expr) ? expr.getName() : null;
}

function problemWarning(ctx, node, { node: at, why, path }) {
  const loc = locate(ctx.request, at, "");
  const cut = why.includes("keeps its type") ? "" : "; it accepts any value";
  return { level: "warning", kind: "zod", node_type: node.type, file: loc.file, line: loc.line,
    message: `node '${node.type}': zod schema '${path}': ${why}${cut}` };
}

/** Variants of a (discriminated) union of objects, told apart by the literal field. */
function variants(s) {
  const key = s.discriminator || discriminant(s.types);
  return s.types.map((t) => {
    const found = key && t.fields.find(([k]) => k === key);
    const value = found && found[1].kind === "literal" ? found[1].value : null;
    return { name: t.name || null, discriminant: key, value,
      fields: t.fields.map(([k, f]) => toField(k, f)) };
  });
}

function discriminant(types) {
  const [first] = types;
  return (first.fields.map(([k]) => k).find((k) => types.every((t) =>
    t.fields.some(([n, f]) => n === k && f.kind === "literal")))) || null;
}

function toField(name, s) {
  return {
    name, type_text: typeText(s), type: toRef(s), optional: s.optional,
    description: s.description || "", deprecated: null,
    default_tag: s.hasDefault && s.dflt !== undefined ? JSON.stringify(s.dflt) : null,
    result: false, tags: s.tags,
  };
}

/** The reply's type reference of a schema (nullable: a union with null). */
function toRef(s) {
  const ref = baseRef(s);
  if (!s.nullable) return ref;
  const types = ref.kind === "union" ? ref.types : [ref];
  return { kind: "union", types: [...types, { kind: "null" }] };
}

function baseRef(s) {
  switch (s.kind) {
    case "literal": return { kind: "literal", value: s.value };
    case "union": return { kind: "union", name: s.enumName || null,
      types: s.types.flatMap((t) => { const r = toRef(t); return r.kind === "union" && !r.name
        ? r.types : [r]; }) };
    case "intersection": case "tuple": return { kind: s.kind, types: s.types.map(toRef) };
    case "array": case "record": return { kind: s.kind, items: toRef(s.items) };
    case "object": return { kind: "object", fields: s.fields.map(([k, f]) => toField(k, f)) };
    case "unknown": return s.text ? { kind: "unknown", text: s.text } : { kind: "unknown" };
    default: return { kind: s.kind };
  }
}

/** How the type reads in a skill, TypeScript-like. */
function typeText(s) {
  const text = baseText(s);
  return s.nullable ? `${text} | null` : text;
}

function baseText(s) {
  const inner = (t) => { const x = typeText(t); return x.includes(" | ") ? `(${x})` : x; };
  switch (s.kind) {
    case "literal": return JSON.stringify(s.value);
    case "union": return s.enumName && s.types.length > LONG_ENUM ? s.enumName
      : s.types.map(typeText).join(" | ");
    case "intersection": return s.types.map(inner).join(" & ");
    case "tuple": return `[${s.types.map(typeText).join(", ")}]`;
    case "array": return `${inner(s.items)}[]`;
    case "record": return `Record<string, ${typeText(s.items)}>`;
    case "object": return "object";
    case "unknown": return "unknown";
    default: return s.text || s.kind;
  }
}

module.exports = { entrySchema, inferredParts, partsShape, zodDataType };
