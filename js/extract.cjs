#!/usr/bin/env node
// pygen's Node side: reads a JSON request on stdin, loads ts-morph once, and prints exactly
// one JSON document on stdout: the node definitions with their resolved data types, or
// structured errors. Nothing else is ever written to stdout.
"use strict";

const crypto = require("crypto");
const fs = require("fs");
const path = require("path");

const PROTOCOL = 1;

class UserError extends Error {
  constructor(node, message) {
    super(message);
    this.node = node;
  }
}

/** A value that is not static data (a call, a JSX component, an unresolvable name). */
class Dynamic {
  constructor(node, why) {
    this.node = node;
    this.why = why;
  }
}

const UNDEFINED = Symbol("undefined");

function main() {
  const input = fs.readFileSync(0, "utf8");
  let request;
  try {
    request = JSON.parse(input);
  } catch (e) {
    return reply({ ok: false, errors: [{ message: `bad request JSON: ${e.message}` }] });
  }
  let tsMorph;
  try {
    tsMorph = require("ts-morph");
  } catch (e) {
    return reply({ ok: false, errors: [{ code: "no-ts-morph", message: "ts-morph is not installed" }] });
  }
  try {
    reply(extract(tsMorph, request));
  } catch (e) {
    if (e instanceof UserError) return reply({ ok: false, errors: [locate(request, e.node, e.message)] });
    reply({ ok: false, errors: [{ message: `internal error: ${e && e.stack ? e.stack : e}` }] });
  }
}

function reply(doc) {
  doc.protocol = PROTOCOL;
  process.stdout.write(JSON.stringify(doc));
}

function rel(request, file) {
  return path.relative(request.root, file).split(path.sep).join("/");
}

function locate(request, node, message) {
  if (!node) return { message };
  const sf = node.getSourceFile();
  const { line, column } = sf.getLineAndColumnAtPos(node.getStart());
  return { file: rel(request, sf.getFilePath()), line, col: column, message };
}

function oneLine(text) {
  return text.replace(/\s+/g, " ").trim();
}

/** Type text as a reader wants it: one line, without the comments of inline members. */
function typeText(text) {
  return oneLine(text.replace(/\/\*[\s\S]*?\*\//g, " ").replace(/(^|[^:])\/\/[^\n]*/g, "$1"));
}

// ---------------------------------------------------------------------------------------
// Project set-up: one Project and one type checker per run, whatever the node count.

function findTsconfig(start) {
  let dir = path.dirname(start);
  for (;;) {
    const candidate = path.join(dir, "tsconfig.json");
    if (fs.existsSync(candidate)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

function makeProject(tsMorph, request) {
  const { Project, ts } = tsMorph;
  const tsconfig = request.tsconfig || findTsconfig(request.nodesFile);
  const options = {
    skipAddingFilesFromTsConfig: true,
    skipFileDependencyResolution: false,
  };
  if (tsconfig) options.tsConfigFilePath = tsconfig;
  else
    options.compilerOptions = {
      strict: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      jsx: ts.JsxEmit.Preserve,
      allowJs: false,
    };
  const project = new Project(options);
  if (!fs.existsSync(request.nodesFile)) throw new UserError(null, `${request.nodesFile}: file not found`);
  const sourceFile = project.addSourceFileAtPath(request.nodesFile);
  project.resolveSourceFileDependencies();
  return { project, sourceFile, tsconfig };
}

// ---------------------------------------------------------------------------------------
// Static evaluation of the definitions literal.

function unwrap(tsMorph, node) {
  const { SyntaxKind } = tsMorph;
  for (;;) {
    const kind = node.getKind();
    if (
      kind === SyntaxKind.AsExpression ||
      kind === SyntaxKind.SatisfiesExpression ||
      kind === SyntaxKind.ParenthesizedExpression ||
      kind === SyntaxKind.TypeAssertionExpression ||
      kind === SyntaxKind.NonNullExpression
    )
      node = node.getExpression();
    else return node;
  }
}

function makeEvaluator(tsMorph, checker) {
  const { SyntaxKind, Node } = tsMorph;
  const active = new Set();

  function declarationOf(identifier) {
    let symbol = identifier.getSymbol();
    if (!symbol) return null;
    if (symbol.isAlias()) symbol = symbol.getAliasedSymbol() || symbol;
    const decls = symbol.getDeclarations();
    return decls.length ? decls[0] : null;
  }

  function evaluateDeclaration(decl, ref) {
    if (Node.isVariableDeclaration(decl)) {
      const init = decl.getInitializer();
      if (!init) return new Dynamic(ref, "a variable without an initializer");
      if (active.has(decl)) return new Dynamic(ref, "a circular reference");
      active.add(decl);
      try {
        return evaluate(init);
      } finally {
        active.delete(decl);
      }
    }
    if (Node.isEnumMember(decl)) return decl.getValue();
    if (Node.isShorthandPropertyAssignment(decl) || Node.isPropertyAssignment(decl)) {
      const init = decl.getInitializer && decl.getInitializer();
      return init ? evaluate(init) : new Dynamic(ref, "not static data");
    }
    return new Dynamic(ref, "not static data");
  }

  function propertyName(prop) {
    const nameNode = prop.getNameNode();
    if (Node.isComputedPropertyName(nameNode)) {
      const value = evaluate(nameNode.getExpression());
      if (typeof value === "string" || typeof value === "number") return String(value);
      return new Dynamic(nameNode, "a computed key that is not static");
    }
    if (Node.isStringLiteral(nameNode) || Node.isNumericLiteral(nameNode)) return String(nameNode.getLiteralValue());
    return nameNode.getText();
  }

  function evaluateObject(node) {
    const out = {};
    for (const prop of node.getProperties()) {
      if (Node.isPropertyAssignment(prop)) {
        const key = propertyName(prop);
        if (key instanceof Dynamic) return key;
        out[key] = evaluate(prop.getInitializerOrThrow());
      } else if (Node.isShorthandPropertyAssignment(prop)) {
        const decl = prop.getValueSymbol() && prop.getValueSymbol().getDeclarations()[0];
        out[prop.getName()] = decl ? evaluateDeclaration(aliasTarget(decl), prop) : new Dynamic(prop, "an unresolvable name");
      } else if (Node.isSpreadAssignment(prop)) {
        const spread = evaluate(prop.getExpression());
        if (spread instanceof Dynamic) return spread;
        if (spread === null || typeof spread !== "object" || Array.isArray(spread))
          return new Dynamic(prop, "a spread of something that is not an object");
        Object.assign(out, spread);
      } else {
        // Methods and accessors are code, not data.
        out[prop.getName ? prop.getName() : prop.getText()] = new Dynamic(prop, "a method");
      }
    }
    return out;
  }

  function aliasTarget(decl) {
    if (Node.isImportSpecifier(decl) || Node.isImportClause(decl) || Node.isNamespaceImport(decl)) {
      const symbol = decl.getSymbol();
      const target = symbol && symbol.getAliasedSymbol();
      const decls = target ? target.getDeclarations() : [];
      return decls.length ? decls[0] : decl;
    }
    return decl;
  }

  function evaluateArray(node) {
    const out = [];
    for (const element of node.getElements()) {
      if (Node.isSpreadElement(element)) {
        const spread = evaluate(element.getExpression());
        if (spread instanceof Dynamic) return spread;
        if (!Array.isArray(spread)) return new Dynamic(element, "a spread of something that is not an array");
        out.push(...spread);
      } else {
        const value = evaluate(element);
        out.push(value === UNDEFINED ? null : value);
      }
    }
    return out;
  }

  function evaluate(raw) {
    const node = unwrap(tsMorph, raw);
    switch (node.getKind()) {
      case SyntaxKind.StringLiteral:
      case SyntaxKind.NoSubstitutionTemplateLiteral:
        return node.getLiteralValue();
      case SyntaxKind.NumericLiteral:
        return node.getLiteralValue();
      case SyntaxKind.TrueKeyword:
        return true;
      case SyntaxKind.FalseKeyword:
        return false;
      case SyntaxKind.NullKeyword:
        return null;
      case SyntaxKind.PrefixUnaryExpression: {
        const operand = evaluate(node.getOperand());
        const op = node.getOperatorToken();
        if (typeof operand === "number" && op === SyntaxKind.MinusToken) return -operand;
        if (typeof operand === "number" && op === SyntaxKind.PlusToken) return operand;
        if (op === SyntaxKind.ExclamationToken && !(operand instanceof Dynamic)) return !operand;
        return new Dynamic(node, "an expression that is not static data");
      }
      case SyntaxKind.TemplateExpression: {
        let text = node.getHead().getLiteralText();
        for (const span of node.getTemplateSpans()) {
          const value = evaluate(span.getExpression());
          if (value instanceof Dynamic || (value !== null && typeof value === "object")) return new Dynamic(node, "a template with a dynamic part");
          text += String(value) + span.getLiteral().getLiteralText();
        }
        return text;
      }
      case SyntaxKind.ArrayLiteralExpression:
        return evaluateArray(node);
      case SyntaxKind.ObjectLiteralExpression:
        return evaluateObject(node);
      case SyntaxKind.Identifier: {
        if (node.getText() === "undefined") return UNDEFINED;
        const decl = declarationOf(node);
        if (!decl) return new Dynamic(node, "a name that cannot be resolved");
        return evaluateDeclaration(decl, node);
      }
      case SyntaxKind.PropertyAccessExpression: {
        const constant = checker.compilerObject.getConstantValue(node.compilerNode);
        if (constant !== undefined) return constant;
        const target = evaluate(node.getExpression());
        if (target instanceof Dynamic) return new Dynamic(node, target.why);
        if (target && typeof target === "object" && node.getName() in target) return target[node.getName()];
        return new Dynamic(node, "a property that cannot be resolved statically");
      }
      case SyntaxKind.ElementAccessExpression: {
        const target = evaluate(node.getExpression());
        const key = evaluate(node.getArgumentExpressionOrThrow());
        if (target && typeof target === "object" && !(target instanceof Dynamic) && (typeof key === "string" || typeof key === "number") && key in target)
          return target[key];
        return new Dynamic(node, "an element access that cannot be resolved statically");
      }
      case SyntaxKind.CallExpression:
      case SyntaxKind.NewExpression:
        return new Dynamic(node, "a function call");
      case SyntaxKind.JsxElement:
      case SyntaxKind.JsxSelfClosingElement:
      case SyntaxKind.JsxFragment:
        return new Dynamic(node, "JSX");
      case SyntaxKind.ArrowFunction:
      case SyntaxKind.FunctionExpression:
        return new Dynamic(node, "a function");
      default:
        return new Dynamic(node, "an expression that is not static data");
    }
  }

  return { evaluate };
}

/** First Dynamic found anywhere inside a value, or null. */
function findDynamic(value) {
  if (value instanceof Dynamic) return value;
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = findDynamic(item);
      if (found) return found;
    }
  } else if (value && typeof value === "object") {
    for (const key of Object.keys(value)) {
      const found = findDynamic(value[key]);
      if (found) return found;
    }
  }
  return null;
}

/** Plain JSON: `undefined` properties dropped, the way JSON.stringify treats them. */
function toJson(value) {
  if (value === UNDEFINED) return undefined;
  if (Array.isArray(value)) return value.map((item) => (item === UNDEFINED ? null : toJson(item)));
  if (value && typeof value === "object") {
    const out = {};
    for (const key of Object.keys(value)) {
      if (value[key] !== UNDEFINED) out[key] = toJson(value[key]);
    }
    return out;
  }
  return value;
}

// ---------------------------------------------------------------------------------------
// Entries.

function definitionEntries(tsMorph, ctx, evaluator) {
  const { Node } = tsMorph;
  const { sourceFile, request } = ctx;
  const decl = findDefinitions(tsMorph, sourceFile, request.definitions);
  if (!decl) throw new UserError(sourceFile, `no variable named '${request.definitions}' found; set 'definitions' in the pygen config to the name of the node definitions constant`);
  const init = decl.getInitializer();
  if (!init) throw new UserError(decl, `'${request.definitions}' has no initializer`);
  const literal = unwrap(tsMorph, init);
  const entries = [];
  if (Node.isArrayLiteralExpression(literal)) {
    for (const element of literal.getElements()) {
      if (Node.isSpreadElement(element)) {
        const spread = evaluator.evaluate(element.getExpression());
        if (!Array.isArray(spread)) throw new UserError(element, `cannot read '${oneLine(element.getText())}': a spread in ${request.definitions} must be a static array`);
        for (const value of spread) entries.push({ node: element, value, key: null });
      } else {
        entries.push({ node: element, value: evaluator.evaluate(element), key: null });
      }
    }
  } else if (Node.isObjectLiteralExpression(literal)) {
    for (const prop of literal.getProperties()) {
      if (Node.isSpreadAssignment(prop)) {
        const spread = evaluator.evaluate(prop.getExpression());
        if (!spread || typeof spread !== "object" || spread instanceof Dynamic) throw new UserError(prop, `cannot read '${oneLine(prop.getText())}': a spread in ${request.definitions} must be a static object`);
        for (const key of Object.keys(spread)) entries.push({ node: prop, value: spread[key], key });
      } else if (Node.isPropertyAssignment(prop) || Node.isShorthandPropertyAssignment(prop)) {
        const value = Node.isPropertyAssignment(prop) ? evaluator.evaluate(prop.getInitializerOrThrow()) : evaluator.evaluate(prop.getNameNode());
        entries.push({ node: prop, value, key: prop.getName().replace(/^["']|["']$/g, "") });
      }
    }
  } else {
    throw new UserError(literal, `'${request.definitions}' must be an array or object literal, found '${oneLine(literal.getText()).slice(0, 60)}'`);
  }
  return entries;
}

function findDefinitions(tsMorph, sourceFile, name) {
  const local = sourceFile.getVariableDeclaration(name);
  if (local) return local;
  // Re-exported or imported definitions: follow the symbol to its declaration.
  for (const symbol of sourceFile.getExportSymbols()) {
    if (symbol.getName() !== name) continue;
    const target = symbol.isAlias() ? symbol.getAliasedSymbol() : symbol;
    const decl = target && target.getDeclarations().find((d) => tsMorph.Node.isVariableDeclaration(d));
    if (decl) return decl;
  }
  return null;
}

const ESSENTIAL = ["type", "label", "inputs", "outputs", "default_data"];

function readEntry(ctx, entry) {
  const { request, diagnostics } = ctx;
  const f = request.entryFields;
  const where = entry.node;
  if (entry.value instanceof Dynamic) throw new UserError(entry.value.node, `cannot read node definition '${oneLine(entry.value.node.getText()).slice(0, 80)}': ${entry.value.why}`);
  if (!entry.value || typeof entry.value !== "object" || Array.isArray(entry.value)) throw new UserError(where, `a node definition must be an object literal`);
  const raw = entry.value;
  const out = {};
  const skipped = [];
  const pick = (field, key) => {
    const value = raw[key];
    const dynamic = findDynamic(value);
    if (dynamic) {
      if (ESSENTIAL.includes(field)) throw new UserError(dynamic.node, `'${key}' of a node definition must be static data, but '${oneLine(dynamic.node.getText()).slice(0, 80)}' is ${dynamic.why}`);
      skipped.push(key);
      return undefined;
    }
    return value === UNDEFINED ? undefined : toJson(value);
  };
  out.type = pick("type", f.type);
  if (out.type === undefined && entry.key !== null) out.type = entry.key;
  if (typeof out.type !== "string" || !out.type) throw new UserError(where, `a node definition has no string '${f.type}'`);
  out.label = pick("label", f.label);
  if (typeof out.label !== "string") throw new UserError(where, `node '${out.type}' has no string '${f.label}'`);
  out.category = pick("category", f.category);
  out.credit_cost = pick("credit_cost", f.credit_cost);
  out.description = pick("description", f.description);
  out.inputs = readHandles(ctx, where, out.type, f.inputs, pick("inputs", f.inputs));
  out.outputs = readHandles(ctx, where, out.type, f.outputs, pick("outputs", f.outputs));
  const data = pick("default_data", f.default_data);
  if (data !== undefined && (data === null || typeof data !== "object" || Array.isArray(data))) throw new UserError(where, `'${f.default_data}' of node '${out.type}' must be an object`);
  out.default_data = data || {};
  const known = new Set(Object.values(f));
  for (const key of Object.keys(raw)) {
    if (!known.has(key) && findDynamic(raw[key])) skipped.push(key);
  }
  out.skipped = [...new Set(skipped)].sort();
  if (out.skipped.length) {
    const loc = locate(request, where, "");
    diagnostics.push({ level: "warning", node_type: out.type, file: loc.file, line: loc.line, message: `node '${out.type}': skipped ${out.skipped.map((k) => `'${k}'`).join(", ")} (not static data)` });
  }
  if (typeof out.category !== "string") out.category = null;
  if (typeof out.credit_cost !== "number") out.credit_cost = null;
  if (typeof out.description !== "string") out.description = null;
  const loc = locate(request, where, "");
  out.source = { file: loc.file, line: loc.line };
  return out;
}

function readHandles(ctx, where, type, key, value) {
  const f = ctx.request.entryFields;
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new UserError(where, `'${key}' of node '${type}' must be an array of handle ids`);
  return value.map((h) => {
    if (typeof h === "string") return { id: h, label: null };
    if (h && typeof h === "object" && typeof h[f.handle_id] === "string")
      return { id: h[f.handle_id], label: typeof h[f.handle_label] === "string" ? h[f.handle_label] : null };
    throw new UserError(where, `'${key}' of node '${type}' holds ${JSON.stringify(h)}, which is neither a string nor an object with a string '${f.handle_id}'`);
  });
}

// ---------------------------------------------------------------------------------------
// Data types.

const DIGIT_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"];

/** Keys a node type may match a type name by, case- and separator-insensitively. */
function nameKeys(nodeType) {
  const flat = nodeType.toLowerCase().replace(/[^a-z0-9]/g, "");
  const spelled = flat.replace(/^[0-9]+/, (digits) => [...digits].map((d) => DIGIT_WORDS[Number(d)]).join(""));
  const keys = new Set();
  for (const base of [flat, spelled]) {
    keys.add(base + "data");
    keys.add(base + "nodedata");
  }
  return keys;
}

function isLibFile(sf) {
  const p = sf.getFilePath();
  return sf.isFromExternalLibrary() || /[\\/]node_modules[\\/]typescript[\\/]lib[\\/]/.test(p) || sf.isDeclarationFile() && /[\\/]lib\.[^\\/]*\.d\.ts$/.test(p);
}

function typeIndex(tsMorph, ctx) {
  const byName = new Map();
  const add = (name, decl, exported) => {
    const list = byName.get(name) || [];
    list.push({ decl, exported });
    byName.set(name, list);
  };
  for (const sf of ctx.project.getSourceFiles()) {
    if (isLibFile(sf)) continue;
    for (const d of sf.getInterfaces()) add(d.getName(), d, d.isExported());
    for (const d of sf.getTypeAliases()) add(d.getName(), d, d.isExported());
  }
  return byName;
}

function preferDecl(ctx, candidates) {
  const score = (c) => (c.decl.getSourceFile() === ctx.sourceFile ? 2 : 0) + (c.exported ? 1 : 0);
  return [...candidates].sort((a, b) => score(b) - score(a))[0].decl;
}

function resolveDataType(tsMorph, ctx, node) {
  const { request, index } = ctx;
  const configured = request.dataTypes[node.type];
  if (configured) {
    const found = index.get(configured);
    if (!found) throw new UserError(ctx.sourceFile, `data_types maps '${node.type}' to '${configured}', but no interface or type alias of that name exists in the project`);
    return { decl: preferDecl(ctx, found), via: "config", score: null };
  }
  const keys = nameKeys(node.type);
  const byName = [];
  for (const [name, candidates] of index) {
    if (keys.has(name.toLowerCase())) byName.push(...candidates);
  }
  if (byName.length) return { decl: preferDecl(ctx, byName), via: "name", score: null };
  return structuralMatch(ctx, node);
}

function structuralCandidates(tsMorph, ctx) {
  const { request, index } = ctx;
  const out = [];
  if (request.dataUnion) {
    const found = index.get(request.dataUnion);
    if (!found) throw new UserError(ctx.sourceFile, `data_union names '${request.dataUnion}', but no type of that name exists in the project`);
    const type = preferDecl(ctx, found).getType();
    for (const member of type.isUnion() ? type.getUnionTypes() : [type]) {
      const symbol = member.getAliasSymbol() || member.getSymbol();
      const decl = symbol && symbol.getDeclarations()[0];
      if (decl) out.push({ decl, props: member.getProperties().map((p) => p.getName()) });
    }
    return out;
  }
  for (const candidates of index.values()) {
    for (const { decl, exported } of candidates) {
      if (!exported) continue;
      const type = decl.getType();
      if (!type.isObject() && !type.isIntersection()) continue;
      const props = type.getProperties().map((p) => p.getName());
      if (props.length) out.push({ decl, props });
    }
  }
  return out;
}

const STRUCTURAL_THRESHOLD = 0.6;

function structuralMatch(ctx, node) {
  const keys = Object.keys(node.default_data);
  if (!keys.length) return null;
  if (!ctx.structural) ctx.structural = structuralCandidates(ctx.tsMorph, ctx);
  let best = null;
  for (const cand of ctx.structural) {
    const props = new Set(cand.props);
    const hits = keys.filter((k) => props.has(k)).length;
    // Coverage of the defaults, discounted by how much of the type they leave unexplained.
    const score = hits / keys.length * (hits / Math.max(props.size, keys.length)) ** 0.25;
    const name = cand.decl.getName ? cand.decl.getName() : "";
    if (!best || score > best.score + 1e-9 || (Math.abs(score - best.score) < 1e-9 && name < best.name)) best = { decl: cand.decl, score, name };
  }
  if (!best || best.score < STRUCTURAL_THRESHOLD) return best ? { decl: null, via: "none", score: round(best.score), near: best.name } : null;
  return { decl: best.decl, via: "structural", score: round(best.score) };
}

function round(x) {
  return Math.round(x * 1000) / 1000;
}

function makeTypeReader(tsMorph, ctx) {
  const { ts, Node } = tsMorph;
  const checker = ctx.project.getTypeChecker();
  const MAX_DEPTH = 6;

  function jsDoc(decl) {
    const out = { description: "", deprecated: null, default_tag: null, result: false };
    if (!decl || !Node.isJSDocable(decl)) return out;
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
    }
    return out;
  }

  function typeName(type) {
    const alias = type.getAliasSymbol();
    if (alias) return alias.getName();
    const symbol = type.getSymbol();
    if (!symbol) return null;
    const name = symbol.getName();
    if (name.startsWith("__") || name === "Array" || name === "ReadonlyArray") return null;
    if (type.isEnum() || type.isInterface() || type.isClass()) return name;
    return null;
  }

  function literalValue(type) {
    const value = type.getLiteralValue();
    if (value !== undefined && typeof value === "object") return Number(value.base10Value) * (value.negative ? -1 : 1);
    return value;
  }

  function toRef(type, depth, stack, where) {
    const name = typeName(type);
    if (type.isAny()) return { kind: "any", name };
    if (type.isUnknown()) return { kind: "unknown", name };
    if (type.isNever && type.isNever()) return { kind: "never" };
    if (type.isBoolean()) return { kind: "boolean", name };
    if (type.isString() || type.isTemplateLiteral()) return { kind: "string", name };
    if (type.isNumber() || type.isBigInt()) return { kind: "number", name };
    if (type.isNull()) return { kind: "null" };
    if (type.isUndefined() || (type.getFlags() & ts.TypeFlags.Void)) return { kind: "undefined" };
    if (type.isBooleanLiteral()) return { kind: "literal", value: type.getText() === "true", name };
    if (type.isStringLiteral() || type.isNumberLiteral() || type.isEnumLiteral()) return { kind: "literal", value: literalValue(type), name };
    if (type.isUnion()) {
      const members = type.getUnionTypes();
      const hasTrue = members.some((m) => m.isBooleanLiteral() && m.getText() === "true");
      const hasFalse = members.some((m) => m.isBooleanLiteral() && m.getText() === "false");
      const refs = [];
      let booleanAdded = false;
      for (const m of members) {
        if (hasTrue && hasFalse && m.isBooleanLiteral()) {
          if (!booleanAdded) refs.push({ kind: "boolean" });
          booleanAdded = true;
          continue;
        }
        refs.push(toRef(m, depth + 1, stack, where));
      }
      return { kind: "union", name, types: refs };
    }
    if (type.isArray() || (type.isObject() && type.getSymbol() && type.getSymbol().getName() === "ReadonlyArray")) {
      const element = type.getArrayElementType() || (type.getTypeArguments()[0]);
      return { kind: "array", name, items: element ? toRef(element, depth + 1, stack, where) : { kind: "unknown" } };
    }
    if (type.isTuple()) return { kind: "tuple", name, types: type.getTupleElements().map((t) => toRef(t, depth + 1, stack, where)) };
    if (type.getCallSignatures().length && !type.getProperties().length) return { kind: "function", name, text: oneLine(type.getText(where, ts.TypeFormatFlags.NoTruncation)) };
    if (type.isObject() || type.isIntersection()) {
      const props = type.getProperties();
      const index = type.getStringIndexType() || type.getNumberIndexType();
      if (!props.length && index) return { kind: "record", name, items: toRef(index, depth + 1, stack, where) };
      if (type.isIntersection() && !props.length) return { kind: "intersection", name, types: type.getIntersectionTypes().map((t) => toRef(t, depth + 1, stack, where)) };
      if (depth >= MAX_DEPTH || stack.includes(type)) return { kind: "object", name, text: name || oneLine(type.getText(where)) };
      return { kind: "object", name, fields: readFields(type, depth + 1, [...stack, type], where) };
    }
    return { kind: "unresolved", name, text: oneLine(type.getText(where)) };
  }

  function readFields(type, depth, stack, where) {
    return type.getProperties().map((symbol) => readField(symbol, depth, stack, where));
  }

  function readField(symbol, depth, stack, where) {
    const decl = symbol.getValueDeclaration() || symbol.getDeclarations()[0];
    const at = decl || where;
    const type = checker.getTypeOfSymbolAtLocation(symbol, at);
    const optional = symbol.isOptional ? symbol.isOptional() : (symbol.getFlags() & ts.SymbolFlags.Optional) !== 0;
    const typeNode = decl && Node.isPropertySignature(decl) ? decl.getTypeNode() : null;
    let ref = toRef(type, depth, stack, at);
    if (optional) ref = withoutUndefined(ref);
    let text = typeNode ? typeText(typeNode.getText()) : oneLine(checker.getTypeText(type, at, ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope));
    if (ref.kind === "any" && typeNode && !/^any$/.test(text)) {
      ref = { kind: "unresolved", text };
      ctx.diagnostics.push(diagnosticAt(ctx, typeNode, `cannot resolve type '${text}' of field '${symbol.getName()}'`));
    }
    if (optional) text = text.replace(/\s*\|\s*undefined$/, "");
    return { name: symbol.getName(), type_text: text, type: ref, optional, ...jsDoc(decl) };
  }

  // An optional field's `undefined` is said by `optional`; keep the type itself clean.
  function withoutUndefined(ref) {
    if (ref.kind !== "union") return ref;
    const kept = ref.types.filter((t) => t.kind !== "undefined");
    if (kept.length === 1 && !ref.name) return kept[0];
    return { ...ref, types: kept };
  }

  function discriminant(members) {
    const first = members[0].getProperties().map((p) => p.getName());
    for (const prop of first) {
      const literalEverywhere = members.every((m) => {
        const s = m.getProperty(prop);
        if (!s) return false;
        const t = checker.getTypeOfSymbolAtLocation(s, ctx.sourceFile);
        return t.isLiteral() || t.isBooleanLiteral();
      });
      if (literalEverywhere) return prop;
    }
    return null;
  }

  function readDataType(decl) {
    const type = decl.getType();
    if (type.isUnion() && !type.isBoolean()) {
      const members = type.getUnionTypes().filter((m) => m.isObject() || m.isIntersection());
      if (members.length === type.getUnionTypes().length && members.length > 1) {
        const disc = discriminant(members);
        const variants = members.map((m) => {
          const symbol = m.getAliasSymbol() || m.getSymbol();
          const sym = disc && m.getProperty(disc);
          const value = sym ? literalValue(checker.getTypeOfSymbolAtLocation(sym, decl)) : null;
          const vname = symbol && !symbol.getName().startsWith("__") ? symbol.getName() : null;
          return { name: vname, discriminant: disc, value: value === undefined ? (sym ? checker.getTypeOfSymbolAtLocation(sym, decl).getText() === "true" : null) : value, fields: readFields(m, 1, [m], decl) };
        });
        return { fields: [], variants };
      }
    }
    return { fields: readFields(type, 1, [type], decl), variants: [] };
  }

  return { readDataType };
}

function diagnosticAt(ctx, node, message) {
  const loc = locate(ctx.request, node, message);
  return { level: "warning", file: loc.file, line: loc.line, message };
}

// ---------------------------------------------------------------------------------------

function hashFile(file) {
  return crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex");
}

function sourcesRead(ctx) {
  const files = new Set();
  for (const sf of ctx.project.getSourceFiles()) {
    if (!isLibFile(sf) || !/[\\/]node_modules[\\/]typescript[\\/]/.test(sf.getFilePath())) files.add(sf.getFilePath());
  }
  if (ctx.tsconfig) files.add(path.resolve(ctx.tsconfig));
  return [...files]
    .filter((f) => fs.existsSync(f))
    .map((f) => ({ path: rel(ctx.request, f), sha256: hashFile(f) }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function extract(tsMorph, request) {
  const { project, sourceFile, tsconfig } = makeProject(tsMorph, request);
  const ctx = { tsMorph, project, sourceFile, tsconfig, request, diagnostics: [] };
  const checker = project.getTypeChecker();
  const evaluator = makeEvaluator(tsMorph, checker);
  ctx.index = typeIndex(tsMorph, ctx);
  const reader = makeTypeReader(tsMorph, ctx);
  const entries = definitionEntries(tsMorph, ctx, evaluator);
  const nodes = [];
  const seen = new Map();
  const cache = new Map();
  for (const entry of entries) {
    const node = readEntry(ctx, entry);
    if (seen.has(node.type)) throw new UserError(entry.node, `duplicate node type '${node.type}' (first defined at line ${seen.get(node.type)})`);
    seen.set(node.type, node.source.line);
    const found = resolveDataType(tsMorph, ctx, node);
    if (found && found.decl) {
      if (!cache.has(found.decl)) cache.set(found.decl, reader.readDataType(found.decl));
      const shape = cache.get(found.decl);
      node.data_type = { name: found.decl.getName(), via: found.via, score: found.score, fields: shape.fields, variants: shape.variants };
    } else {
      const near = found && found.near ? ` (closest: ${found.near}, score ${found.score})` : "";
      node.data_type = { name: null, via: "none", score: found ? found.score : null, fields: [], variants: [] };
      ctx.diagnostics.push({ level: "warning", node_type: node.type, file: node.source.file, line: node.source.line, message: `node '${node.type}': no data type found${near}; add it to data_types in the pygen config` });
    }
    nodes.push(node);
  }
  return { ok: true, nodes, sources: sourcesRead(ctx), diagnostics: ctx.diagnostics };
}

main();
