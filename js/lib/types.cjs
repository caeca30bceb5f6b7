// The type reader: turns a data type into the reply's fields (name, type text, a structured
// type reference, optional, JSDoc) and, for a discriminated union, its variants. Every
// function takes the reader context `tc` from `typeReader`.
"use strict";

const { oneLine, writtenTypeText } = require("./util.cjs");
const { isErrorType, isFromStandardLib, reportUnresolved, checkResolved } =
  require("./typenotes.cjs");
const { writtenMembers, indexText } = require("./members.cjs");
const { cutReason, cutRef, isCut, boundedText } = require("./typebounds.cjs");
const { writtenOrder } = require("./unionorder.cjs");

// Deeper object types are shown as text: data types are shallow, and types may recurse.
const MAX_DEPTH = 6;

/** The reader context for one run: the checker, the run's diagnostics, the type being read. */
function typeReader(tsMorph, ctx) {
  const { ts, Node } = tsMorph;
  return {
    ts,
    Node,
    ctx,
    checker: ctx.project.getTypeChecker(),
    textFlags:
      ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope,
    owner: null, // The data type being read, for messages.
    leafRefs: new Map(), // compiler type → its ref, for leaf types (see toRef).
    noted: new Set(), // types already reported as cut short (typebounds.cjs), per data type
  };
}

// JSDoc tags validation reads (pygen.model.RULE_TAGS), passed on as [tag, text] pairs.
const RULE_TAGS = new Set(
  ["minimum", "maximum", "minLength", "maxLength", "pattern", "runner", "nodeIds"]);

function jsDoc(tc, decl) {
  const out = { description: "", deprecated: null, default_tag: null, result: false, tags: [] };
  if (!decl || !tc.Node.isJSDocable(decl)) return out;
  const docs = decl.getJsDocs();
  if (!docs.length) return out;
  const doc = docs[docs.length - 1];
  out.description = oneLine(doc.getDescription() || "");
  for (const tag of doc.getTags()) {
    const name = tag.getTagName();
    const text = oneLine(tag.getCommentText() || "");
    if (name === "deprecated") out.deprecated = text || "deprecated";
    else if (name === "default" || name === "defaultValue") out.default_tag = text;
    else if (name === "result") out.result = true;
    else if (RULE_TAGS.has(name)) out.tags.push([name, text]);
  }
  return out;
}

/** The name a reader knows the type by: its alias, enum, interface or class; never a lib helper. */
function typeName(tc, type) {
  const alias = type.getAliasSymbol();
  if (alias) return isFromStandardLib(alias) ? null : alias.getName();
  const symbol = type.getSymbol();
  if (!symbol || isFromStandardLib(symbol)) return null;
  const name = symbol.getName();
  if (name.startsWith("__")) return null;
  if (symbol.getFlags() & tc.ts.SymbolFlags.Enum || type.isInterface() || type.isClass()) {
    return name;
  }
  return null;
}

function literalValue(type) {
  const value = type.getLiteralValue();
  if (value !== undefined && typeof value === "object") {
    return Number(value.base10Value) * (value.negative ? -1 : 1);
  }
  return value;
}

/** A type as the reply's structured reference; `at` is { depth, stack, where }. */
function toRef(tc, type, at) {
  // Leaves and unions of leaves read the same wherever they appear: read each once (a model
  // list of 60 names recurs across many node types). Refs are never mutated after this.
  const key = type.compilerType;
  const cached = tc.leafRefs.get(key);
  if (cached) return cached;
  const ref = readRef(tc, type, at);
  // A cut depends on where the type is met (its depth, what encloses it): never reuse one.
  if (isLeaf(ref) && !isCut(ref)) tc.leafRefs.set(key, ref);
  return ref;
}

function isLeaf(ref) {
  if (ref.kind === "union") return ref.types.every((t) => !t.types && !t.items && !t.fields);
  return !["unresolved", "object", "array", "tuple", "intersection", "record", "function"]
    .includes(ref.kind);
}

function readRef(tc, type, at) {
  const name = typeName(tc, type);
  if (isErrorType(type)) {
    return { kind: "unresolved", text: name || oneLine(type.getText(at.where)) };
  }
  const scalar = scalarRef(tc, type, name);
  if (scalar) return scalar;
  const reason = cutReason(type, at);
  return reason ? cutRef(tc, type, name, at, reason) : compoundRef(tc, type, name, at);
}

function scalarRef(tc, type, name) {
  const { TypeFlags } = tc.ts;
  if (type.isAny()) return { kind: "any", name };
  if (type.isUnknown()) return { kind: "unknown", name };
  if (type.getFlags() & TypeFlags.Never) return { kind: "never" };
  if (type.isBoolean()) return { kind: "boolean", name };
  if (type.isString() || type.isTemplateLiteral()) return { kind: "string", name };
  if (type.isNumber() || type.isBigInt()) return { kind: "number", name };
  if (type.isNull()) return { kind: "null" };
  if (type.isUndefined() || type.getFlags() & TypeFlags.Void) return { kind: "undefined" };
  if (type.isBooleanLiteral()) return { kind: "literal", value: type.getText() === "true", name };
  if (type.isStringLiteral() || type.isNumberLiteral() || type.isEnumLiteral()) {
    return { kind: "literal", value: literalValue(type), name };
  }
  return null;
}

function compoundRef(tc, type, name, at) {
  // On the stack: a union or array that contains itself is cut there (typebounds.cjs).
  const inner = (t) => toRef(tc, t, { ...at, depth: at.depth + 1, stack: [...at.stack, type] });
  const text = () => oneLine(type.getText(at.where, tc.textFlags));
  if (type.isUnion()) {
    const types = unionMembers(tc, type, { ...at, stack: [...at.stack, type] });
    return { kind: "union", name, types };
  }
  if (type.isArray() || type.isReadonlyArray()) {
    const element = type.getArrayElementType() || type.getTypeArguments()[0];
    return { kind: "array", name, items: element ? inner(element) : { kind: "unknown" } };
  }
  if (type.isTuple()) return { kind: "tuple", name, types: type.getTupleElements().map(inner) };
  if (type.getCallSignatures().length && !type.getProperties().length) {
    return { kind: "function", name, text: text() };
  }
  if (type.isObject() || type.isIntersection()) return objectRef(tc, type, name, at);
  return { kind: "unresolved", name, text: text() };
}

function objectRef(tc, type, name, at) {
  const inner = (t) => toRef(tc, t, { ...at, depth: at.depth + 1 });
  const props = type.getProperties();
  const index = type.getStringIndexType() || type.getNumberIndexType();
  if (!props.length && index) return { kind: "record", name, items: inner(index) };
  if (type.isIntersection() && !props.length) {
    return { kind: "intersection", name, types: type.getIntersectionTypes().map(inner) };
  }
  if (at.depth >= MAX_DEPTH || at.stack.includes(type)) {
    return { kind: "object", name, text: name || oneLine(type.getText(at.where, tc.textFlags)) };
  }
  const fields = readFields(tc, type, { ...at, depth: at.depth + 1, stack: [...at.stack, type] });
  return { kind: "object", name, fields };
}

// `true | false` is how the checker spells `boolean` inside a union; say `boolean` once.
function unionMembers(tc, type, at) {
  const members = writtenOrder(tc, type, at.where);
  const bools = members.filter((m) => m.isBooleanLiteral()).length;
  const refs = [];
  let booleanAdded = false;
  for (const m of members) {
    if (bools === 2 && m.isBooleanLiteral()) {
      if (!booleanAdded) refs.push({ kind: "boolean" });
      booleanAdded = true;
    } else refs.push(toRef(tc, m, { ...at, depth: at.depth + 1 }));
  }
  // The checker orders members by internal id, which puts `null` first; readers expect it last.
  const absent = (r) => r.kind === "null" || r.kind === "undefined";
  return [...refs.filter((r) => !absent(r)), ...refs.filter(absent)];
}

function readFields(tc, type, at) {
  return type.getProperties().map((symbol) => readField(tc, symbol, at));
}

/** One field; `optional` overrides the declaration's own (`Partial<…>` makes it optional). */
function readField(tc, symbol, { depth, stack, where }, optional = null) {
  const { Node } = tc;
  const decl = symbol.getValueDeclaration() || symbol.getDeclarations()[0];
  const at = decl || where;
  const type = tc.checker.getTypeOfSymbolAtLocation(symbol, at);
  if (optional === null) optional = symbol.isOptional();
  const typeNode = decl && (Node.isPropertySignature(decl) || Node.isPropertyDeclaration(decl))
    ? decl.getTypeNode() : null;
  let ref = toRef(tc, type, { depth, stack, where: at });
  if (optional) ref = withoutUndefined(ref);
  let text;
  if (typeNode && writtenTypeHolds(tc, typeNode, type, optional)) {
    text = writtenTypeText(tc.ts, typeNode);
    ref = withWrittenAlias(tc, ref, typeNode);
  } else {
    text = oneLine(tc.checker.getTypeText(type, at, tc.textFlags));
    if (optional) text = text.replace(/\s*\|\s*undefined$/, "");
  }
  text = boundedText(tc, text, ref, typeNode || decl || where);
  const name = propertyName(tc, symbol);
  reportUnresolved(tc, name, ref, typeNode || decl || where, text);
  return { name, type_text: text, type: ref, optional, ...jsDoc(tc, decl) };
}

/** A property's name as written. One keyed by a symbol (`[Symbol.iterator]`) is named
 * `__@iterator@82` inside the checker, by a counter of the whole process, so a run read
 * again after a first one would name it otherwise. */
function propertyName(tc, symbol) {
  const name = symbol.getName();
  return name.startsWith("__@") ? tc.checker.compilerObject.symbolToString(symbol.compilerSymbol)
    : name;
}

// `provider: SpeechProvider` where the alias is `(typeof X)[number]`: keep the alias name.
function withWrittenAlias(tc, ref, typeNode) {
  if (ref.name || ref.kind !== "union") return ref;
  if (!tc.Node.isTypeReference(typeNode) || typeNode.getTypeArguments().length) return ref;
  return { ...ref, name: typeNode.getTypeName().getText() };
}

/**
 * Whether the type as written in the declaration is the field's type here. It is not when a
 * generic is instantiated (`value: T` in `BaseData<number>`): then the checker's text says
 * more than the source.
 */
function writtenTypeHolds(tc, typeNode, type, optional) {
  const declared = typeNode.getType();
  if (declared.compilerType === type.compilerType) return true;
  const members = (t) => (t.isUnion() ? t.getUnionTypes() : [t]).map((m) => m.compilerType);
  const want = new Set(members(declared));
  const undefinedFlag = tc.ts.TypeFlags.Undefined;
  const have = members(type).filter((m) => !(optional && m.flags & undefinedFlag && !want.has(m)));
  return have.length === want.size && have.every((m) => want.has(m));
}

// An optional field's `undefined` is said by `optional`; keep the type itself clean.
function withoutUndefined(ref) {
  if (ref.kind !== "union") return ref;
  const kept = ref.types.filter((t) => t.kind !== "undefined");
  if (kept.length === 1 && !ref.name) return kept[0];
  return { ...ref, types: kept };
}

/** The first property that is a literal in every member: what tells the variants apart. */
function discriminant(tc, members, at) {
  const first = members[0].getProperties().map((p) => p.getName());
  for (const prop of first) {
    const literalEverywhere = members.every((m) => {
      const s = m.getProperty(prop);
      if (!s) return false;
      const t = tc.checker.getTypeOfSymbolAtLocation(s, at);
      return t.isLiteral() || t.isBooleanLiteral();
    });
    if (literalEverywhere) return prop;
  }
  return null;
}

function variant(tc, member, disc, at) {
  const symbol = member.getAliasSymbol() || member.getSymbol();
  const name = symbol && !symbol.getName().startsWith("__") ? symbol.getName() : null;
  const prop = disc && member.getProperty(disc);
  const t = prop ? tc.checker.getTypeOfSymbolAtLocation(prop, at) : null;
  const value = !t ? null : t.isBooleanLiteral() ? t.getText() === "true" : literalValue(t);
  const fields = readFields(tc, member, { depth: 1, stack: [member], where: at });
  return { name, discriminant: disc, value: value === undefined ? null : value, fields };
}

/** A data type's fields, or its variants when it is a union of object types. */
function readDataType(tc, decl) {
  tc.owner = decl.getName();
  try {
    const type = decl.getType();
    if (type.isUnion() && !type.isBoolean()) {
      const all = type.getUnionTypes();
      const members = all.filter((m) => m.isObject() || m.isIntersection());
      if (members.length === all.length && members.length > 1) {
        const disc = discriminant(tc, members, decl);
        const variants = members.map((m) => variant(tc, m, disc, decl));
        return { fields: [], variants, index: null };
      }
    }
    checkResolved(tc, decl, type);
    const at = { depth: 1, stack: [type], where: decl };
    const written = writtenMembers(tc, decl, type);
    if (written) {
      const fields = written.members.map((m) => readField(tc, m.symbol, at, m.optional));
      return { fields, variants: [], index: written.index };
    }
    return { fields: readFields(tc, type, at), variants: [], index: indexText(tc, type, decl) };
  } finally {
    tc.owner = null;
  }
}

/** The fields of one written part of `decl`'s type (a member of an intersection). */
function readPartFields(tc, decl, typeNode) {
  tc.owner = decl.getName();
  try {
    const type = typeNode.getType();
    return readFields(tc, type, { depth: 1, stack: [type], where: decl });
  } finally {
    tc.owner = null;
  }
}

module.exports = { typeReader, readDataType, readPartFields };
