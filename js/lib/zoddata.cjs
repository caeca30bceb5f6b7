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

/** The schema a type alias `z.infer<typeof schema>` names, or null. */
function inferredSchema(ctx, decl) {
  const { Node } = ctx.tsMorph;
  if (!Node.isTypeAliasDeclaration(decl)) return null;
  const node = decl.getTypeNode();
  if (!node || !Node.isTypeReference(node) || node.getTypeArguments().length !== 1) return null;
  const name = node.getTypeName();
  const head = Node.isQualifiedName(name) ? name.getLeft() : name;
  const last = Node.isQualifiedName(name) ? name.getRight().getText() : name.getText();
  if (!INFER.has(last) || !Node.isIdentifier(head)) return null;
  if (!fromZod({ Node }, head)) return null;
  const query = node.getTypeArguments()[0];
  if (!Node.isTypeQuery(query)) return null;
  const expr = query.getExprName();
  return Node.isIdentifier(expr) ? expr : null;
}

/** The data type of `node` read from the schema at `expr`; problems become warnings. */
function zodDataType(ctx, ev, node, expr, label) {
  const zr = zodReader(ctx, ev);
  const s = readSchema(zr, expr, label);
  for (const p of zr.problems) ctx.diagnostics.push(problemWarning(ctx, node, p));
  const name = ctx.tsMorph.Node.isIdentifier(unwrap(ctx.tsMorph, expr)) ? expr.getText() : null;
  if (s.kind === "union" && s.types.every((t) => t.fields)) {
    return { name, fields: [], variants: variants(s), index_signature: null };
  }
  if (!s.fields) {
    if (!s.problem) {
      ctx.diagnostics.push(problemWarning(ctx, node, { node: expr, path: label,
        why: "the schema is not an object of fields" }));
    }
    // Nothing is known of the data's keys: any key is accepted, none is required.
    return { name, fields: [], variants: [], index_signature: "[key: string]: unknown" };
  }
  return { name, fields: s.fields.map(([k, f]) => toField(k, f)), variants: [],
    index_signature: s.loose ? "[key: string]: unknown" : null };
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

module.exports = { entrySchema, inferredSchema, zodDataType };
