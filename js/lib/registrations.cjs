// `registrations:<library>`: the node types an editor hands to its canvas library, read from
// the library's registration calls (`LiteGraph.registerNodeType("math/sum", Sum)`) and type
// maps (`<ReactFlow nodeTypes={{ llm: LLMNode }}>`). How each library is called is data
// (registries.json), not code. A file counts only when it imports the library: a
// `register(...)` of something else is no evidence. A type that is not a string literal or a
// constant (or a loop variable over a static array) is not declared: one warning, no node.
"use strict";

const { UserError, diagnosticAt } = require("./errors.cjs");
const { oneLine } = require("./util.cjs");
const values = require("./values.cjs");
const { Dynamic } = values;
const REGISTRIES = require("./registries.json");
const { declaredFor, within } = require("./packagemap.cjs");
const { loopBindings } = require("./loopbindings.cjs");

// Where an entry keeps the type node its component's props name as the node's data.
const DATA_TYPE = Symbol("registered data type");
const IMPORT = /(?:\bfrom\s*|\brequire\s*\(\s*|\bimport\s*\(\s*|\bimport\s+)["']([^"']+)["']/g;

function library(name) {
  const lib = REGISTRIES.libraries.find((l) => l.library === name);
  if (!lib) {
    const known = REGISTRIES.libraries.map((l) => l.library).join(", ");
    throw new UserError(null, `definitions 'registrations:${name}': no such library; `
      + `known: ${known}`, "config");
  }
  return lib;
}

/** The words a file must hold to hold one of the library's registrations. */
function searchedNames(name) {
  const lib = library(name);
  return [...(lib.calls || []).map((c) => c.callee),
    ...(lib.maps || []).flatMap((m) => [...(m.annotations || []), m.jsx_attribute,
      m.option && m.option.key].filter(Boolean))];
}

/** Whether the text imports (or requires) one of the library's modules or their subpaths. */
function importsLibrary(text, lib) {
  for (const match of text.matchAll(IMPORT)) {
    const spec = match[1];
    if (lib.modules.some((m) => spec === m || spec.startsWith(`${m}/`))) return true;
  }
  return false;
}

/** Every registration of `name` in `files`, as entries `{ <type field>: type, … }`. */
function registrationEntries(ctx, ev, name, files, add) {
  const lib = library(name);
  const declared = declaredFor(ctx, lib);
  const typeKey = String(ctx.request.entryFields.type).split(".")[0];
  // One node per type. Node-RED registers each type twice, the editor's definition object
  // and the runtime's constructor (files in either order): the registration that defines the
  // node wins over one that only names it, whichever is read first.
  const chosen = new Map();
  const emit = (node, type, definition, dataType = null) => {
    const had = chosen.get(type);
    if (had && (had.definition || !definition)) return;
    chosen.set(type, { node, definition, dataType });
  };
  for (const sf of files) {
    const text = sf.getFullText();
    const imported = importsLibrary(text, lib);
    // Node-RED's `RED` is a global (editor) or the module's argument (runtime), never
    // imported: in a package the library's own map lists, a call on it is a registration.
    const global = !imported && declared.some((dir) => within(sf.getFilePath(), dir));
    if (!imported && !global) continue;
    for (const call of callsIn(ctx, sf, lib, global)) registration(ctx, ev, call, emit);
    if (imported) for (const rule of lib.maps || []) mapsIn(ctx, ev, sf, rule, emit);
  }
  for (const [type, { node, definition, dataType }] of chosen) {
    const value = { ...(definition || {}), [typeKey]: type };
    // The data type the registered component's props name: evidence like a cast's.
    if (dataType) Object.defineProperty(value, DATA_TYPE, { value: dataType });
    ev.origins.set(value, node);
    add(node, value, null);
  }
}

/** The calls of the library's callees in one file, each with the rules it may match. */
function callsIn(ctx, sf, lib, global = false) {
  const { SyntaxKind } = ctx.tsMorph;
  const rules = (lib.calls || []).filter((r) => sf.getFullText().includes(r.callee));
  if (!rules.length) return [];
  const found = [];
  for (const call of sf.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    if (global && !onGlobal(ctx, call, lib)) continue;
    const fits = rules.filter((r) => calleeFits(ctx, call, r));
    if (fits.length) found.push({ call, rules: fits });
  }
  return found;
}

function calleeFits(ctx, call, rule) {
  const { Node } = ctx.tsMorph;
  const callee = values.unwrap(ctx.tsMorph, call.getExpression());
  if (Node.isIdentifier(callee)) {
    if (callee.getText() !== rule.callee || rule.receiver) return false;
  } else if (Node.isPropertyAccessExpression(callee)) {
    if (callee.getName() !== rule.callee || rule.bare) return false;
    if (rule.receiver && lastName(callee.getExpression()) !== rule.receiver) return false;
  } else return false;
  if (rule.when) {
    const arg = call.getArguments()[rule.when.arg];
    if (!arg || oneLine(arg.getText()) !== rule.when.text) return false;
  }
  return true;
}

/** Whether the call's receiver starts with one of the library's globals (`RED.nodes.…`). */
function onGlobal(ctx, call, lib) {
  const text = oneLine(values.unwrap(ctx.tsMorph, call.getExpression()).getText());
  return (lib.globals || []).some((g) => text.startsWith(`${g}.`));
}

/** `this.LiteGraph` → `LiteGraph`: the name an object is reached by. */
function lastName(node) {
  const text = oneLine(node.getText());
  return text.slice(text.lastIndexOf(".") + 1);
}

/**
 * One registration call: its node type(s) by the first rule its arguments fit. A type read
 * as written wins; only a type that is not (a loop's variable) is read once per element of
 * the static arrays the loops around the call walk.
 */
function registration(ctx, ev, { call, rules }, emit) {
  let found = readAll(ev, call, rules, [(read) => read()]);
  if (found.why) {
    const { bindings, loops } = loopBindings(ctx, ev, call);
    if (!bindings) found = { why: "inside a loop over what is not a static array" };
    else if (loops) found = readAll(ev, call, rules, bindings);
  }
  if (!found.why) {
    // A loop over an empty array registers nothing.
    for (const { rule, r } of found.read || []) {
      if (skipped(ctx, ev, rule, r.definition)) continue;
      emit(call, r.type, withDefaults(ctx, rule, plain(r.definition)), typeArgument(call, rule));
    }
    return;
  }
  ctx.diagnostics.push({ ...diagnosticAt(ctx, call, `the node type of registration `
    + `'${snippet(call)}' is not declared (${found.why}); that node is left out`),
  kind: "computed" });
}

/** The type argument the rule says names the node's data (`registerType<XProps>(…)`). */
function typeArgument(call, rule) {
  return rule.data_type ? call.getTypeArguments()[rule.data_type.type_arg] || null : null;
}

/**
 * The definition with its default data read from a record of descriptors, when the rule
 * names one (Node-RED's `defaults: {name: {value: "", required: true}}` → `{name: ""}`): the
 * data a new node of the type starts with, under the config's `default_data` key. A
 * descriptor without that value declares no default for its key; a computed value stays
 * computed (reported like any computed default). A definition that already holds the
 * default-data key, or a dotted key, is left as written.
 */
function withDefaults(ctx, rule, definition) {
  const key = ctx.request.entryFields.default_data;
  const said = rule.defaults;
  if (!said || !definition || typeof key !== "string" || key.includes(".")
    || Object.hasOwn(definition, key) || !isObject(definition[said.key])) return definition;
  const data = {};
  for (const [field, descriptor] of Object.entries(definition[said.key])) {
    if (isObject(descriptor) && descriptor[said.value] !== undefined) {
      data[field] = descriptor[said.value];
    }
  }
  return { ...definition, [key]: data };
}

/** The types of the first rule the arguments fit, read under each binding; or why not. */
function readAll(ev, call, rules, bindings) {
  const args = call.getArguments();
  for (const rule of rules) {
    const arg = args[rule.type.arg];
    if (!arg) continue;
    const fitting = bindings.map((bind) => bind(() => readType(ev, rule, arg, args)))
      .filter((r) => r.fits);
    if (!bindings.length) return { read: [] };
    if (!fitting.length) continue;
    const bad = fitting.find((r) => typeof r.type !== "string" || !r.type);
    if (bad) return { why: bad.type instanceof Dynamic ? bad.type.why : "not a string" };
    return { read: fitting.map((r) => ({ rule, r })) };
  }
  return { why: "not a string literal or a constant" };
}

/** The type a rule reads from the call's arguments, and its definition's value. */
function readType(ev, rule, arg, args) {
  const value = values.evaluateValue(ev, arg);
  // A keyed rule reads an object's key; a plain one a value that is no object.
  if (rule.type.key ? !isObject(value) : isObject(value) || Array.isArray(value)) {
    return { fits: false };
  }
  const type = rule.type.key ? value[rule.type.key] : value;
  const def = rule.definition && args[rule.definition.arg];
  const definition = def && rule.definition.holds === "object"
    ? (def === arg ? value : values.evaluateValue(ev, def)) : null;
  return { fits: true, type, definition };
}

function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    && !(value instanceof Dynamic);
}

/** The definition's static keys for the entry; a computed definition adds nothing. */
function plain(definition) {
  return isObject(definition) ? definition : null;
}

/** Whether the definition registers no node (a LogicFlow edge: its model extends an edge). */
function skipped(ctx, ev, rule, definition) {
  if (!rule.skip || !isObject(definition)) return false;
  const { Node } = ctx.tsMorph;
  const literal = values.origin(ev, definition);
  if (!literal || !Node.isObjectLiteralExpression(literal)) return false;
  const prop = literal.getProperty(rule.skip.key);
  const init = prop && Node.isPropertyAssignment(prop) ? prop.getInitializer()
    : prop && Node.isShorthandPropertyAssignment(prop) ? prop.getNameNode() : null;
  const symbol = init && Node.isIdentifier(init) ? init.getSymbol() : null;
  const target = symbol && (symbol.isAlias() ? symbol.getAliasedSymbol() : symbol);
  const cls = target && target.getDeclarations().find((d) => Node.isClassDeclaration(d));
  const base = cls && cls.getExtends();
  return Boolean(base && new RegExp(rule.skip.extends)
    .test(base.getExpression().getText().split(".").pop()));
}


/** The maps of one file whose keys are node types (React Flow's `nodeTypes`). */
function mapsIn(ctx, ev, sf, rule, emit) {
  const { Node, SyntaxKind } = ctx.tsMorph;
  const text = sf.getFullText();
  const found = [];
  for (const decl of sf.getDescendantsOfKind(SyntaxKind.VariableDeclaration)) {
    const typeNode = decl.getTypeNode();
    const name = typeNode && typeNode.getText().replace(/<[\s\S]*$/, "").split(".").pop();
    if (name && (rule.annotations || []).includes(name) && decl.getInitializer()) {
      found.push(decl.getInitializer());
    }
  }
  if (rule.jsx_attribute && text.includes(rule.jsx_attribute)) {
    for (const attr of sf.getDescendantsOfKind(SyntaxKind.JsxAttribute)) {
      const init = attr.getNameNode().getText() === rule.jsx_attribute && attr.getInitializer();
      const expr = init && Node.isJsxExpression(init) && init.getExpression();
      if (expr) found.push(expr);
    }
  }
  if (rule.option && text.includes(rule.option.callee)) {
    for (const call of sf.getDescendantsOfKind(SyntaxKind.CallExpression)) {
      if (lastName(call.getExpression()) !== rule.option.callee) continue;
      const arg = values.unwrap(ctx.tsMorph, call.getArguments()[0] || call);
      const prop = Node.isObjectLiteralExpression(arg) && arg.getProperty(rule.option.key);
      if (prop && Node.isPropertyAssignment(prop)) found.push(prop.getInitializerOrThrow());
      else if (prop && Node.isShorthandPropertyAssignment(prop)) found.push(prop.getNameNode());
    }
  }
  for (const expr of found) mapEntries(ctx, ev, unwrapCall(ctx, expr, rule), rule, emit);
}

/** `useMemo(() => ({…}), [])`: the object the callback returns. */
function unwrapCall(ctx, expr, rule) {
  const { Node } = ctx.tsMorph;
  const node = values.unwrap(ctx.tsMorph, expr);
  const unwrapped = rule.unwrap || [];
  if (!Node.isCallExpression(node) || !unwrapped.includes(lastName(node.getExpression()))) {
    return node;
  }
  const [fn] = node.getArguments();
  const body = fn && (Node.isArrowFunction(fn) ? fn.getBody() : null);
  return body && !Node.isBlock(body) ? values.unwrap(ctx.tsMorph, body) : node;
}

function mapEntries(ctx, ev, expr, rule, emit) {
  const value = values.evaluateValue(ev, expr);
  if (!isObject(value)) {
    const why = value instanceof Dynamic ? value.why : "not an object";
    ctx.diagnostics.push({ ...diagnosticAt(ctx, expr, `the node types of '${snippet(expr)}' `
      + `are not declared (${why}); no node is read from it`), kind: "computed" });
    return;
  }
  const literal = values.origin(ev, value) || expr;
  for (const key of Object.keys(value)) {
    const prop = propertyNode(ctx, literal, key);
    emit(prop || literal, key, null, prop && rule.props ? propsData(ctx, prop, rule.props) : null);
  }
}

/** The type node a map value's component names as its data (`NodeProps<Node<XData>>`). */
function propsData(ctx, prop, props) {
  const { Node } = ctx.tsMorph;
  let expr = Node.isPropertyAssignment(prop) ? prop.getInitializer()
    : Node.isShorthandPropertyAssignment(prop) ? prop.getNameNode() : null;
  // `export default memo(LLMNode)` is followed to LLMNode: a few hops at most.
  for (let hops = 0; expr && hops < 4; hops += 1) {
    expr = wrapped(ctx, expr, props.wrappers);
    const symbol = Node.isIdentifier(expr) ? expr.getSymbol() : null;
    const target = symbol && (symbol.isAlias() ? symbol.getAliasedSymbol() : symbol);
    expr = null;
    for (const decl of target ? target.getDeclarations() : []) {
      if (Node.isExportAssignment(decl)) {
        expr = decl.getExpression();
        continue;
      }
      const init = Node.isVariableDeclaration(decl) && decl.getInitializer();
      const fn = init ? wrapped(ctx, init, props.wrappers) : decl;
      const param = (Node.isFunctionDeclaration(fn) || Node.isArrowFunction(fn)
        || Node.isFunctionExpression(fn)) && fn.getParameters()[0];
      const found = param && dataArgument(ctx, param.getTypeNode(), props);
      if (found) return found;
      if (Node.isIdentifier(fn)) expr = fn;
    }
  }
  return null;
}

/** `memo(Component)`, `markRaw(Component)`: the wrapped expression. */
function wrapped(ctx, expr, wrappers) {
  const { Node } = ctx.tsMorph;
  let node = values.unwrap(ctx.tsMorph, expr);
  while (Node.isCallExpression(node) && (wrappers || []).includes(lastName(node.getExpression()))
    && node.getArguments().length) node = values.unwrap(ctx.tsMorph, node.getArguments()[0]);
  return node;
}

/** X of `NodeProps<X>`, or of `NodeProps<Node<X, …>>`. */
function dataArgument(ctx, typeNode, props) {
  const { Node } = ctx.tsMorph;
  const named = (node, names) => Node.isTypeReference(node)
    && names.includes(node.getTypeName().getText().split(".").pop());
  if (!typeNode || !named(typeNode, props.types)) return null;
  const [arg] = typeNode.getTypeArguments();
  if (arg && named(arg, props.node || [])) return arg.getTypeArguments()[0] || null;
  return arg || null;
}

/** Where a map's key is written, for the node's source line. */
function propertyNode(ctx, literal, key) {
  const { Node } = ctx.tsMorph;
  return Node.isObjectLiteralExpression(literal) ? literal.getProperty(key)
    || literal.getProperty(JSON.stringify(key)) || literal.getProperty(`'${key}'`) : null;
}

function snippet(node, max = 80) {
  const text = oneLine(node.getText());
  return text.length > max ? text.slice(0, max - 1) + "…" : text;
}

module.exports = {
  registrationEntries, searchedNames, importsLibrary, library, DATA_TYPE,
};
