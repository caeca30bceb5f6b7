#!/usr/bin/env node
// pygen's Node side: reads a JSON request on stdin, loads ts-morph once, and prints exactly
// one JSON document on stdout: the node definitions with their resolved data types, or
// structured errors. Nothing else is ever written to stdout.
"use strict";

const crypto = require("crypto");
const fs = require("fs");
const path = require("path");

const PROTOCOL = 1;

/** A problem the user can fix. `code: "config"` marks one in the pygen config, not the code. */
class UserError extends Error {
  constructor(node, message, code) {
    super(message);
    this.node = node;
    this.code = code || null;
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

// stdout carries the reply and nothing else, whatever a dependency might log.
console.log = console.info = console.debug = console.warn;

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
    if (e instanceof UserError) return reply({ ok: false, errors: [{ ...locate(request, e.node, e.message), ...(e.code ? { code: e.code } : {}) }] });
    reply({ ok: false, errors: [internalError(e)] });
  }
}

/** One line for the user (what and where in this script), the stack for a bug report. */
function internalError(e) {
  const stack = String((e && e.stack) || e);
  const frame = stack.match(/extract(?:\.bundle)?\.cjs:(\d+)/);
  const what = oneLine(String((e && e.message) || e)).slice(0, 200);
  return { code: "internal", message: `internal error in the extractor: ${what}${frame ? ` (extract.cjs:${frame[1]})` : ""}; please report it`, detail: stack };
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
  // The compiler's cached line map: ts-morph's own lookup rescans the text on every call.
  const { line, character } = sf.compilerNode.getLineAndCharacterOfPosition(node.getStart());
  return { file: rel(request, sf.getFilePath()), line: line + 1, col: character + 1, message };
}

function oneLine(text) {
  return text.replace(/\s+/g, " ").trim();
}

/** Type text as a reader wants it: one line, without the comments of inline members. */
function typeText(text) {
  const noComments = text.replace(/("(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|`(?:\\.|[^`\\])*`)|\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, (m, str) => str || " ");
  // A union written one member per line starts with `|`.
  return oneLine(noComments).replace(/^[|&]\s*/, "");
}

// ---------------------------------------------------------------------------------------
// Project set-up: one Project and one type checker per run, whatever the node count.

function findUp(start, test) {
  let dir = path.dirname(start);
  for (;;) {
    const found = test(dir);
    if (found) return found;
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

function findTsconfig(start) {
  return findUp(start, (dir) => {
    const candidate = path.join(dir, "tsconfig.json");
    return fs.existsSync(candidate) ? candidate : null;
  });
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (e) {
    return null;
  }
}

/** tsconfig files a config extends (relative paths and packages), for the list of sources. */
function tsconfigChain(file, seen = new Set()) {
  if (!file || seen.has(file) || !fs.existsSync(file)) return [...seen];
  seen.add(file);
  // tsconfig is JSONC: drop comments and trailing commas before parsing.
  const text = fs.readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\/|("(?:\\.|[^"\\])*")|\/\/[^\n]*/g, (m, str) => str || "").replace(/,(\s*[}\]])/g, "$1");
  let json = null;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return [...seen];
  }
  const parents = json && json.extends ? [].concat(json.extends) : [];
  for (const spec of parents) {
    if (typeof spec !== "string") continue;
    let target = null;
    if (spec.startsWith(".") || path.isAbsolute(spec)) target = path.resolve(path.dirname(file), spec);
    else {
      try {
        target = require.resolve(spec, { paths: [path.dirname(file)] });
      } catch (e) {
        target = null;
      }
    }
    if (target && !target.endsWith(".json") && !fs.existsSync(target)) target += ".json";
    tsconfigChain(target, seen);
  }
  return [...seen];
}

// ---------------------------------------------------------------------------------------
// Workspace packages: a fresh clone has no node_modules links between the packages of a
// monorepo, so a bare import of a sibling package would not resolve. The workspace's own
// manifest (package.json `workspaces` or pnpm-workspace.yaml) says where the packages are;
// TypeScript then resolves inside each package exactly as if it were linked into
// node_modules (`exports`, `types`, `main`, subpaths), through a host that maps the link.

function findWorkspace(start) {
  return findUp(start, (dir) => {
    const pnpm = path.join(dir, "pnpm-workspace.yaml");
    if (fs.existsSync(pnpm)) return { root: dir, manifest: pnpm, patterns: pnpmPatterns(fs.readFileSync(pnpm, "utf8")) };
    const pkg = path.join(dir, "package.json");
    const ws = fs.existsSync(pkg) && (readJson(pkg) || {}).workspaces;
    const patterns = Array.isArray(ws) ? ws : ws && Array.isArray(ws.packages) ? ws.packages : null;
    return patterns ? { root: dir, manifest: pkg, patterns } : null;
  });
}

/** The `packages:` list of a pnpm-workspace.yaml (the one key pygen needs, without a YAML parser). */
function pnpmPatterns(text) {
  const out = [];
  let inPackages = false;
  for (const line of text.split(/\r?\n/)) {
    if (/^packages\s*:/.test(line)) inPackages = true;
    else if (/^\S/.test(line)) inPackages = false;
    else if (inPackages) {
      const m = line.match(/^\s*-\s*(['"]?)(.+?)\1\s*(#.*)?$/);
      if (m) out.push(m[2]);
    }
  }
  return out;
}

function listWorkspacePackages(workspace) {
  const include = new Set();
  const exclude = new Set();
  for (const raw of workspace.patterns) {
    if (typeof raw !== "string") continue;
    const negated = raw.startsWith("!");
    const pattern = raw.replace(/^!/, "").replace(/^\.\//, "").replace(/\/+$/, "");
    for (const dir of expandPattern(workspace.root, pattern.split("/"))) (negated ? exclude : include).add(dir);
  }
  const packages = [];
  for (const dir of [...include].sort()) {
    if (exclude.has(dir)) continue;
    const json = readJson(path.join(dir, "package.json"));
    if (json && typeof json.name === "string") packages.push({ name: json.name, dir });
  }
  // Longest name first, so `@acme/ui-kit` is not taken for `@acme/ui`.
  return packages.sort((a, b) => b.name.length - a.name.length);
}

function expandPattern(dir, segments, depth = 0) {
  if (!segments.length) return fs.existsSync(path.join(dir, "package.json")) ? [dir] : [];
  const [head, ...rest] = segments;
  if (!head.includes("*")) {
    const next = path.join(dir, head);
    return fs.existsSync(next) ? expandPattern(next, rest, depth) : [];
  }
  const out = [];
  const re = new RegExp("^" + head.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*+/g, ".*") + "$");
  for (const child of subdirs(dir)) {
    const next = path.join(dir, child);
    if (head === "**") {
      out.push(...expandPattern(next, rest, depth + 1));
      if (depth < 4) out.push(...expandPattern(next, segments, depth + 1));
    } else if (re.test(child)) out.push(...expandPattern(next, rest, depth));
  }
  if (head === "**") out.push(...expandPattern(dir, rest, depth));
  return [...new Set(out)];
}

function subdirs(dir) {
  try {
    return fs.readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory() && d.name !== "node_modules" && !d.name.startsWith(".")).map((d) => d.name).sort();
  } catch (e) {
    return [];
  }
}

function isBareSpecifier(name) {
  return !name.startsWith(".") && !name.startsWith("/") && !/^[a-zA-Z]:/.test(name) && !name.includes(":");
}

function workspaceResolution(ts, workspace, consulted) {
  return (host, getOptions) => {
    let cache = null;
    let packages = null;
    return {
      resolveModuleNames(names, containingFile, _reused, redirected, options, containingSourceFile) {
        const opts = options || getOptions();
        cache = cache || ts.createModuleResolutionCache(workspace.root, (f) => f, opts);
        const mode = containingSourceFile ? containingSourceFile.impliedNodeFormat : undefined;
        return names.map((name) => {
          const found = ts.resolveModuleName(name, containingFile, opts, host, cache, redirected, mode).resolvedModule;
          if (found || !isBareSpecifier(name)) return found;
          packages = packages || listWorkspacePackages(workspace);
          const pkg = packages.find((p) => name === p.name || name.startsWith(p.name + "/"));
          return pkg ? resolveLinked(ts, name, pkg, workspace, opts, host, mode, consulted) : undefined;
        });
      },
    };
  };
}

/** Resolve `name` as if `pkg` were linked at <workspace>/node_modules/<name>. */
function resolveLinked(ts, name, pkg, workspace, options, host, mode, consulted) {
  const root = workspace.root.split(path.sep).join("/");
  const link = `${root}/node_modules/${pkg.name}`;
  const real = pkg.dir.split(path.sep).join("/");
  const toReal = (p) => (p === link || p.startsWith(link + "/") ? real + p.slice(link.length) : p);
  const linked = {
    fileExists: (p) => host.fileExists(toReal(p)),
    readFile: (p) => host.readFile(toReal(p)),
    directoryExists: (p) => link.startsWith(p + "/") || (host.directoryExists ? host.directoryExists(toReal(p)) : true),
    realpath: (p) => toReal(p),
    getCurrentDirectory: () => root,
    useCaseSensitiveFileNames: host.useCaseSensitiveFileNames,
  };
  const resolved = ts.resolveModuleName(name, `${root}/__workspace__.ts`, options, linked, undefined, undefined, mode).resolvedModule;
  if (!resolved) return undefined;
  consulted.add(path.join(pkg.dir, "package.json"));
  consulted.add(workspace.manifest);
  return {
    resolvedFileName: toReal(resolved.resolvedFileName),
    extension: resolved.extension,
    isExternalLibraryImport: false,
    resolvedUsingTsExtension: resolved.resolvedUsingTsExtension,
  };
}

function makeProject(tsMorph, request) {
  const { Project, ts } = tsMorph;
  if (!fs.existsSync(request.nodesFile)) throw new UserError(null, `${request.nodesFile}: file not found`, "config");
  if (request.tsconfig && !fs.existsSync(request.tsconfig)) throw new UserError(null, `tsconfig ${request.tsconfig} not found; fix or remove 'tsconfig'`, "config");
  const tsconfig = request.tsconfig || findTsconfig(request.nodesFile);
  const consulted = new Set(tsconfigChain(tsconfig));
  const options = { skipAddingFilesFromTsConfig: true, skipFileDependencyResolution: false };
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
  const workspace = findWorkspace(request.nodesFile);
  if (workspace) options.resolutionHost = workspaceResolution(ts, workspace, consulted);
  let project;
  try {
    project = new Project(options);
  } catch (e) {
    throw new UserError(null, `cannot load ${tsconfig ? rel(request, tsconfig) : "the TypeScript project"}: ${oneLine(String(e.message || e))}`);
  }
  const sourceFile = project.addSourceFileAtPath(request.nodesFile);
  project.resolveSourceFileDependencies();
  return { project, sourceFile, consulted };
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

/**
 * Static evaluation of expressions into plain data. Each declaration is evaluated once and
 * its value shared (values are never mutated after construction); every object built from a
 * literal remembers that literal, so an entry reached through spreads and imports is still
 * reported at the line where it is written.
 */
function makeEvaluator(tsMorph) {
  const { SyntaxKind, Node } = tsMorph;
  const active = new Set();
  const memo = new Map();
  const origins = new WeakMap();

  function resolveAlias(symbol) {
    if (symbol && symbol.isAlias()) return symbol.getAliasedSymbol() || symbol;
    return symbol;
  }

  function declarationOfSymbol(symbol) {
    symbol = resolveAlias(symbol);
    if (!symbol) return null;
    const decls = symbol.getDeclarations();
    return decls.find((d) => Node.isVariableDeclaration(d) || Node.isEnumMember(d)) || decls[0] || null;
  }

  function evaluateDeclaration(decl, ref) {
    if (memo.has(decl)) return memo.get(decl);
    if (active.has(decl)) return new Dynamic(ref, "a circular reference");
    active.add(decl);
    try {
      const value = evaluateDeclarationOnce(decl, ref);
      // A Dynamic is reported where it was used, so only data is shared between uses.
      if (!(value instanceof Dynamic)) memo.set(decl, value);
      return value;
    } finally {
      active.delete(decl);
    }
  }

  function evaluateDeclarationOnce(decl, ref) {
    if (Node.isVariableDeclaration(decl)) {
      const init = decl.getInitializer();
      return init ? evaluate(init) : new Dynamic(ref, "declared without a value");
    }
    if (Node.isEnumMember(decl)) {
      const value = decl.getValue();
      return value === undefined ? new Dynamic(ref, "an enum member without a constant value") : value;
    }
    if (Node.isEnumDeclaration(decl)) {
      const out = {};
      for (const member of decl.getMembers()) out[member.getName()] = evaluateDeclaration(member, ref);
      return out;
    }
    if (Node.isPropertyAssignment(decl)) return evaluate(decl.getInitializerOrThrow());
    if (Node.isShorthandPropertyAssignment(decl)) return evaluate(decl.getNameNode());
    if (Node.isFunctionDeclaration(decl) || Node.isMethodDeclaration(decl)) return new Dynamic(ref, "a function");
    if (Node.isClassDeclaration(decl)) return new Dynamic(ref, "a class");
    if (Node.isImportSpecifier(decl) || Node.isImportClause(decl) || Node.isNamespaceImport(decl))
      return new Dynamic(ref, "imported from a module that cannot be resolved");
    if (Node.isSourceFile(decl)) return new Dynamic(ref, "a module namespace");
    return new Dynamic(ref, "not static data");
  }

  function evaluateName(identifier) {
    const decl = declarationOfSymbol(identifier.getSymbol());
    if (!decl) return new Dynamic(identifier, "a name that cannot be resolved");
    return evaluateDeclaration(decl, identifier);
  }

  function propertyName(prop) {
    const nameNode = prop.getNameNode();
    if (Node.isComputedPropertyName(nameNode)) {
      const value = evaluate(nameNode.getExpression());
      if (typeof value === "string" || typeof value === "number") return String(value);
      return new Dynamic(nameNode, "a computed key that is not static");
    }
    if (Node.isStringLiteral(nameNode) || Node.isNumericLiteral(nameNode) || Node.isNoSubstitutionTemplateLiteral(nameNode))
      return String(nameNode.getLiteralValue());
    return nameNode.getText();
  }

  function evaluateObject(node) {
    const out = {};
    origins.set(out, node);
    for (const prop of node.getProperties()) {
      if (Node.isSpreadAssignment(prop)) {
        const spread = evaluate(prop.getExpression());
        if (spread instanceof Dynamic) return spread;
        if (spread === null || typeof spread !== "object" || Array.isArray(spread))
          return new Dynamic(prop, "a spread of something that is not an object");
        Object.assign(out, spread);
        continue;
      }
      const key = propertyName(prop);
      if (key instanceof Dynamic) return key;
      if (Node.isPropertyAssignment(prop)) out[key] = evaluate(prop.getInitializerOrThrow());
      else if (Node.isShorthandPropertyAssignment(prop)) out[key] = evaluateName(prop.getNameNode());
      else out[key] = new Dynamic(prop, Node.isMethodDeclaration(prop) ? "a method" : "an accessor");
    }
    return out;
  }

  function evaluateArray(node) {
    const out = [];
    origins.set(out, node);
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

  /** `a.b` / `a["b"]`: through the checker's symbol first (enum members, namespace imports). */
  function evaluateMember(node, nameNode, key) {
    const symbol = nameNode && nameNode.getSymbol();
    const decl = symbol && declarationOfSymbol(symbol);
    if (decl && (Node.isVariableDeclaration(decl) || Node.isEnumMember(decl))) return evaluateDeclaration(decl, node);
    const target = evaluate(node.getExpression());
    if (target instanceof Dynamic) return new Dynamic(node, target.why);
    if (key instanceof Dynamic) return key;
    if (target !== null && typeof target === "object" && (typeof key === "string" || typeof key === "number") && Object.prototype.hasOwnProperty.call(target, key))
      return target[key];
    if (Array.isArray(target) && key === "length") return target.length;
    return new Dynamic(node, "a member that cannot be resolved statically");
  }

  function evaluate(raw) {
    const node = unwrap(tsMorph, raw);
    switch (node.getKind()) {
      case SyntaxKind.StringLiteral:
      case SyntaxKind.NoSubstitutionTemplateLiteral:
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
        if (operand instanceof Dynamic) return operand;
        if (typeof operand === "number" && op === SyntaxKind.MinusToken) return -operand;
        if (typeof operand === "number" && op === SyntaxKind.PlusToken) return operand;
        if (op === SyntaxKind.ExclamationToken && (operand === null || typeof operand !== "object")) return !operand;
        return new Dynamic(node, "an expression that is not static data");
      }
      case SyntaxKind.TemplateExpression: {
        let text = node.getHead().getLiteralText();
        for (const span of node.getTemplateSpans()) {
          const value = evaluate(span.getExpression());
          if (value instanceof Dynamic) return value;
          if (value !== null && typeof value === "object") return new Dynamic(node, "a template with a part that is not text");
          text += String(value === UNDEFINED ? undefined : value) + span.getLiteral().getLiteralText();
        }
        return text;
      }
      case SyntaxKind.ArrayLiteralExpression:
        return evaluateArray(node);
      case SyntaxKind.ObjectLiteralExpression:
        return evaluateObject(node);
      case SyntaxKind.Identifier:
        return node.getText() === "undefined" ? UNDEFINED : evaluateName(node);
      case SyntaxKind.PropertyAccessExpression:
        return evaluateMember(node, node.getNameNode(), node.getName());
      case SyntaxKind.ElementAccessExpression: {
        const arg = node.getArgumentExpressionOrThrow();
        return evaluateMember(node, arg, evaluate(arg));
      }
      case SyntaxKind.CallExpression:
      case SyntaxKind.NewExpression:
      case SyntaxKind.TaggedTemplateExpression:
        return new Dynamic(node, "a function call");
      case SyntaxKind.JsxElement:
      case SyntaxKind.JsxSelfClosingElement:
      case SyntaxKind.JsxFragment:
        return new Dynamic(node, "JSX");
      case SyntaxKind.ArrowFunction:
      case SyntaxKind.FunctionExpression:
        return new Dynamic(node, "a function");
      case SyntaxKind.ClassExpression:
        return new Dynamic(node, "a class");
      default:
        return new Dynamic(node, "an expression that is not static data");
    }
  }

  return { evaluate, propertyName, origin: (value) => (value && typeof value === "object" ? origins.get(value) : undefined) };
}

/** First Dynamic found anywhere inside a value, with the key path to it, or null. */
function findDynamic(value, at = []) {
  if (value instanceof Dynamic) return { dynamic: value, path: at };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findDynamic(value[i], [...at, i]);
      if (found) return found;
    }
  } else if (value && typeof value === "object") {
    for (const key of Object.keys(value)) {
      const found = findDynamic(value[key], [...at, key]);
      if (found) return found;
    }
  }
  return null;
}

/** `defaultData.seed`, `inputs[1]`: where inside an entry a value sits. */
function keyPath(parts) {
  return parts.map((p, i) => (typeof p === "number" ? `[${p}]` : /^[A-Za-z_$][\w$]*$/.test(p) ? (i ? "." : "") + p : `[${JSON.stringify(p)}]`)).join("");
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
  // An entry is reported where its object literal is written, even when it was spread in.
  const add = (fallback, value, key) => entries.push({ node: evaluator.origin(value) || fallback, value, key });
  if (Node.isArrayLiteralExpression(literal)) {
    for (const element of literal.getElements()) {
      if (!Node.isSpreadElement(element)) {
        add(element, evaluator.evaluate(element), null);
        continue;
      }
      const spread = evaluator.evaluate(element.getExpression());
      if (!Array.isArray(spread)) throw new UserError(element, `cannot read '${snippet(element)}': a spread in ${request.definitions} must be a static array${spread instanceof Dynamic ? `, but it is ${spread.why}` : ""}`);
      for (const value of spread) add(element, value, null);
    }
  } else if (Node.isObjectLiteralExpression(literal)) {
    for (const prop of literal.getProperties()) {
      if (Node.isSpreadAssignment(prop)) {
        const spread = evaluator.evaluate(prop.getExpression());
        if (!spread || typeof spread !== "object" || Array.isArray(spread) || spread instanceof Dynamic) throw new UserError(prop, `cannot read '${snippet(prop)}': a spread in ${request.definitions} must be a static object${spread instanceof Dynamic ? `, but it is ${spread.why}` : ""}`);
        for (const key of Object.keys(spread)) add(prop, spread[key], key);
      } else if (Node.isPropertyAssignment(prop) || Node.isShorthandPropertyAssignment(prop)) {
        const key = evaluator.propertyName(prop);
        if (key instanceof Dynamic) throw new UserError(key.node, `cannot read the key '${snippet(key.node)}' of ${request.definitions}: it is ${key.why}`);
        const value = Node.isPropertyAssignment(prop) ? evaluator.evaluate(prop.getInitializerOrThrow()) : evaluator.evaluate(prop.getNameNode());
        add(prop, value, key);
      }
    }
  } else {
    throw new UserError(literal, `'${request.definitions}' must be an array or object literal, found '${snippet(literal, 60)}'`);
  }
  return entries;
}

function snippet(node, max = 80) {
  const text = oneLine(node.getText());
  return text.length > max ? text.slice(0, max - 1) + "…" : text;
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
  const { request } = ctx;
  const f = request.entryFields;
  const where = entry.node;
  if (entry.value instanceof Dynamic) throw new UserError(entry.value.node, `cannot read a node definition: '${snippet(entry.value.node)}' is ${entry.value.why}`);
  if (!entry.value || typeof entry.value !== "object" || Array.isArray(entry.value)) throw new UserError(where, `a node definition must be an object literal`);
  const raw = entry.value;
  const out = {};
  const skipped = new Map();
  const pick = (field, key) => {
    const value = raw[key];
    const found = findDynamic(value, [key]);
    if (!found) return value === UNDEFINED ? undefined : toJson(value);
    const { dynamic, path: at } = found;
    if (ESSENTIAL.includes(field)) {
      const owner = typeof out.type === "string" ? `node '${out.type}'` : "a node definition";
      throw new UserError(dynamic.node, `${owner}: '${keyPath(at)}' must be static data, but '${snippet(dynamic.node)}' is ${dynamic.why}; write the value as a literal`);
    }
    skipped.set(key, dynamic.why);
    return undefined;
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
    const found = !known.has(key) && findDynamic(raw[key]);
    if (found) skipped.set(key, found.dynamic.why);
  }
  const loc = locate(request, where, "");
  out.skipped = [...skipped.keys()].sort();
  if (out.skipped.length) {
    const list = out.skipped.map((k) => `'${k}' (${skipped.get(k)})`).join(", ");
    ctx.diagnostics.push({ level: "warning", node_type: out.type, file: loc.file, line: loc.line, message: `node '${out.type}': skipped what is not static data: ${list}` });
  }
  if (typeof out.category !== "string") out.category = null;
  if (typeof out.credit_cost !== "number") out.credit_cost = null;
  if (typeof out.description !== "string") out.description = null;
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
    if (!found) throw new UserError(null, `data_types maps '${node.type}' to '${configured}', but no interface or type alias named '${configured}' is declared in ${rel(request, request.nodesFile)} or the files it imports`, "config");
    return { decl: preferDecl(ctx, found), via: "config", score: null };
  }
  if (!ctx.lowerIndex) {
    ctx.lowerIndex = new Map();
    for (const [name, candidates] of index) {
      const key = name.toLowerCase();
      ctx.lowerIndex.set(key, [...(ctx.lowerIndex.get(key) || []), ...candidates]);
    }
  }
  const byName = [...nameKeys(node.type)].flatMap((key) => ctx.lowerIndex.get(key) || []);
  if (byName.length) return { decl: preferDecl(ctx, byName), via: "name", score: null };
  return structuralMatch(ctx, node);
}

function structuralCandidates(tsMorph, ctx) {
  const { request, index } = ctx;
  const out = [];
  if (request.dataUnion) {
    const found = index.get(request.dataUnion);
    if (!found) throw new UserError(null, `data_union names '${request.dataUnion}', but no type named '${request.dataUnion}' is declared in ${rel(request, request.nodesFile)} or the files it imports`, "config");
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

function pascal(nodeType) {
  return nodeType.split(/[^A-Za-z0-9]+/).filter(Boolean).map((w) => w[0].toUpperCase() + w.slice(1)).join("");
}

function unresolvedMessage(node, near) {
  const p = pascal(node.type);
  const structural = near ? `the closest structural match, ${near.near}, scores ${near.score} of the ${STRUCTURAL_THRESHOLD} needed` : "no structural match";
  return `node '${node.type}': no data type found (no ${p}Data or ${p}NodeData; ${structural}); map it in data_types in the pygen config`;
}

function round(x) {
  return Math.round(x * 1000) / 1000;
}

function makeTypeReader(tsMorph, ctx) {
  const { ts, Node } = tsMorph;
  const checker = ctx.project.getTypeChecker();
  const MAX_DEPTH = 6;
  const TEXT_FLAGS = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope;
  let owner = null; // The data type being read, for messages.

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

  function fromStandardLib(symbol) {
    return symbol.getDeclarations().some((d) => isLibFile(d.getSourceFile()));
  }

  /** The name a reader knows the type by: its alias, enum, interface or class; never a lib helper. */
  function typeName(type) {
    const alias = type.getAliasSymbol();
    if (alias) return fromStandardLib(alias) ? null : alias.getName();
    const symbol = type.getSymbol();
    if (!symbol || fromStandardLib(symbol)) return null;
    const name = symbol.getName();
    if (name.startsWith("__")) return null;
    if (symbol.getFlags() & ts.SymbolFlags.Enum || type.isInterface() || type.isClass()) return name;
    return null;
  }

  function literalValue(type) {
    const value = type.getLiteralValue();
    if (value !== undefined && typeof value === "object") return Number(value.base10Value) * (value.negative ? -1 : 1);
    return value;
  }

  // The checker's stand-in for a type it could not find (an unresolved name or import).
  function isErrorType(type) {
    return type.isAny() && type.compilerType.intrinsicName === "error";
  }

  function toRef(type, depth, stack, where) {
    const name = typeName(type);
    if (isErrorType(type)) return { kind: "unresolved", text: name || oneLine(type.getText(where)) };
    if (type.isAny()) return { kind: "any", name };
    if (type.isUnknown()) return { kind: "unknown", name };
    if (type.getFlags() & ts.TypeFlags.Never) return { kind: "never" };
    if (type.isBoolean()) return { kind: "boolean", name };
    if (type.isString() || type.isTemplateLiteral()) return { kind: "string", name };
    if (type.isNumber() || type.isBigInt()) return { kind: "number", name };
    if (type.isNull()) return { kind: "null" };
    if (type.isUndefined() || type.getFlags() & ts.TypeFlags.Void) return { kind: "undefined" };
    if (type.isBooleanLiteral()) return { kind: "literal", value: type.getText() === "true", name };
    if (type.isStringLiteral() || type.isNumberLiteral() || type.isEnumLiteral()) return { kind: "literal", value: literalValue(type), name };
    if (type.isUnion()) return { kind: "union", name, types: unionMembers(type, depth, stack, where) };
    if (type.isArray() || type.isReadonlyArray()) {
      const element = type.getArrayElementType() || type.getTypeArguments()[0];
      return { kind: "array", name, items: element ? toRef(element, depth + 1, stack, where) : { kind: "unknown" } };
    }
    if (type.isTuple()) return { kind: "tuple", name, types: type.getTupleElements().map((t) => toRef(t, depth + 1, stack, where)) };
    if (type.getCallSignatures().length && !type.getProperties().length) return { kind: "function", name, text: oneLine(type.getText(where, TEXT_FLAGS)) };
    if (type.isObject() || type.isIntersection()) {
      const props = type.getProperties();
      const index = type.getStringIndexType() || type.getNumberIndexType();
      if (!props.length && index) return { kind: "record", name, items: toRef(index, depth + 1, stack, where) };
      if (type.isIntersection() && !props.length) return { kind: "intersection", name, types: type.getIntersectionTypes().map((t) => toRef(t, depth + 1, stack, where)) };
      if (depth >= MAX_DEPTH || stack.includes(type)) return { kind: "object", name, text: name || oneLine(type.getText(where, TEXT_FLAGS)) };
      return { kind: "object", name, fields: readFields(type, depth + 1, [...stack, type], where) };
    }
    return { kind: "unresolved", name, text: oneLine(type.getText(where, TEXT_FLAGS)) };
  }

  // `true | false` is how the checker spells `boolean` inside a union; say `boolean` once.
  function unionMembers(type, depth, stack, where) {
    const members = type.getUnionTypes();
    const bools = members.filter((m) => m.isBooleanLiteral()).length;
    const refs = [];
    let booleanAdded = false;
    for (const m of members) {
      if (bools === 2 && m.isBooleanLiteral()) {
        if (!booleanAdded) refs.push({ kind: "boolean" });
        booleanAdded = true;
      } else refs.push(toRef(m, depth + 1, stack, where));
    }
    // The checker orders members by internal id, which puts `null` first; readers expect it last.
    const absent = (r) => r.kind === "null" || r.kind === "undefined";
    return [...refs.filter((r) => !absent(r)), ...refs.filter(absent)];
  }

  function readFields(type, depth, stack, where) {
    return type.getProperties().map((symbol) => readField(symbol, depth, stack, where));
  }

  function readField(symbol, depth, stack, where) {
    const decl = symbol.getValueDeclaration() || symbol.getDeclarations()[0];
    const at = decl || where;
    const type = checker.getTypeOfSymbolAtLocation(symbol, at);
    const optional = symbol.isOptional();
    const typeNode = decl && (Node.isPropertySignature(decl) || Node.isPropertyDeclaration(decl)) ? decl.getTypeNode() : null;
    let ref = toRef(type, depth, stack, at);
    if (optional) ref = withoutUndefined(ref);
    const asWritten = typeNode && writtenTypeHolds(typeNode, type, optional);
    let text;
    if (asWritten) {
      text = typeText(typeNode.getText());
      // `provider: SpeechProvider` where the alias is `(typeof X)[number]`: keep the alias name.
      if (!ref.name && ref.kind === "union" && Node.isTypeReference(typeNode) && !typeNode.getTypeArguments().length) ref = { ...ref, name: typeNode.getTypeName().getText() };
    } else {
      text = oneLine(checker.getTypeText(type, at, TEXT_FLAGS));
      if (optional) text = text.replace(/\s*\|\s*undefined$/, "");
    }
    reportUnresolved(symbol.getName(), ref, typeNode || decl || where, text);
    return { name: symbol.getName(), type_text: text, type: ref, optional, ...jsDoc(decl) };
  }

  /**
   * Whether the type as written in the declaration is the field's type here. It is not when a
   * generic is instantiated (`value: T` in `BaseData<number>`): then the checker's text says
   * more than the source.
   */
  function writtenTypeHolds(typeNode, type, optional) {
    const declared = typeNode.getType();
    if (declared.compilerType === type.compilerType) return true;
    const members = (t) => (t.isUnion() ? t.getUnionTypes() : [t]).map((m) => m.compilerType);
    const want = new Set(members(declared));
    const have = members(type).filter((m) => !(optional && m.flags & ts.TypeFlags.Undefined && !want.has(m)));
    return have.length === want.size && have.every((m) => want.has(m));
  }

  function unresolvedParts(ref, out = []) {
    if (ref.kind === "unresolved") out.push(ref.text);
    for (const t of ref.types || []) unresolvedParts(t, out);
    if (ref.items) unresolvedParts(ref.items, out);
    return out;
  }

  function reportUnresolved(field, ref, node, text) {
    // Nested object fields report themselves; only this level's own parts here.
    const all = [...new Set(unresolvedParts({ ...ref, fields: [] }))];
    if (!all.length) return;
    const where = owner ? `${owner}.${field}` : field;
    // A nameless part is fallout from a type reported where it is declared.
    const parts = all.filter((p) => p !== "any");
    if (!parts.length) {
      ctx.diagnostics.push(diagnosticAt(ctx, node, `${where}: its type depends on a type that cannot be resolved; it is shown as '${text}'`));
      return;
    }
    const hints = parts.map((p) => missingImport(node.getSourceFile(), p)).filter(Boolean);
    const hint = hints.length ? ` (${hints.join("; ")})` : "";
    ctx.diagnostics.push(diagnosticAt(ctx, node, `${where}: cannot resolve type ${parts.map((p) => `'${p}'`).join(", ")}${hint}; it is shown as written`));
  }


  /** `imported from './presets', which cannot be found` when the name comes from a dead import. */
  function missingImport(sourceFile, name) {
    const head = name.split(/[.<[\s]/)[0];
    for (const imp of sourceFile.getImportDeclarations()) {
      const names = imp.getNamedImports().map((n) => (n.getAliasNode() || n.getNameNode()).getText());
      const def = imp.getDefaultImport();
      const ns = imp.getNamespaceImport();
      if (def) names.push(def.getText());
      if (ns) names.push(ns.getText());
      if (names.includes(head) && !imp.getModuleSpecifierSourceFile())
        return `imported from '${imp.getModuleSpecifierValue()}', which cannot be found`;
    }
    return null;
  }

  // An optional field's `undefined` is said by `optional`; keep the type itself clean.
  function withoutUndefined(ref) {
    if (ref.kind !== "union") return ref;
    const kept = ref.types.filter((t) => t.kind !== "undefined");
    if (kept.length === 1 && !ref.name) return kept[0];
    return { ...ref, types: kept };
  }

  function discriminant(members, at) {
    const first = members[0].getProperties().map((p) => p.getName());
    for (const prop of first) {
      const literalEverywhere = members.every((m) => {
        const s = m.getProperty(prop);
        if (!s) return false;
        const t = checker.getTypeOfSymbolAtLocation(s, at);
        return t.isLiteral() || t.isBooleanLiteral();
      });
      if (literalEverywhere) return prop;
    }
    return null;
  }

  function variant(member, disc, at) {
    const symbol = member.getAliasSymbol() || member.getSymbol();
    const name = symbol && !symbol.getName().startsWith("__") ? symbol.getName() : null;
    const prop = disc && member.getProperty(disc);
    const t = prop ? checker.getTypeOfSymbolAtLocation(prop, at) : null;
    const value = !t ? null : t.isBooleanLiteral() ? t.getText() === "true" : literalValue(t);
    return { name, discriminant: disc, value: value === undefined ? null : value, fields: readFields(member, 1, [member], at) };
  }

  function readDataType(decl) {
    owner = decl.getName();
    try {
      const type = decl.getType();
      if (type.isUnion() && !type.isBoolean()) {
        const all = type.getUnionTypes();
        const members = all.filter((m) => m.isObject() || m.isIntersection());
        if (members.length === all.length && members.length > 1) {
          const disc = discriminant(members, decl);
          return { fields: [], variants: members.map((m) => variant(m, disc, decl)) };
        }
      }
      checkResolved(decl, type);
      return { fields: readFields(type, 1, [type], decl), variants: [] };
    } finally {
      owner = null;
    }
  }

  /** A data type, or a base it extends, that the checker could not find lists no fields: say so. */
  function checkResolved(decl, type) {
    const report = (node, what, missing) => {
      const hint = missingImport(node.getSourceFile(), typeText(node.getText()));
      ctx.diagnostics.push(diagnosticAt(ctx, node, `${owner}: cannot resolve ${what} '${typeText(node.getText())}'${hint ? ` (${hint})` : ""}; ${missing}`));
    };
    if (type.isAny()) {
      if (Node.isTypeAliasDeclaration(decl)) report(decl.getTypeNodeOrThrow(), "the data type", "no fields are listed");
      else ctx.diagnostics.push(diagnosticAt(ctx, decl, `${owner}: cannot resolve the data type; no fields are listed`));
      return;
    }
    const bases = Node.isInterfaceDeclaration(decl) ? decl.getExtends() : [];
    for (const base of bases) if (isErrorType(base.getType())) report(base, "the base type", "the fields it brings are not listed");
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
  for (const file of ctx.consulted) files.add(path.resolve(file));
  return [...files]
    .filter((f) => fs.existsSync(f))
    .map((f) => ({ path: rel(ctx.request, f), sha256: hashFile(f) }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** A syntax error in a project file the user wrote: the parser would recover and read on,
 * so the definitions could silently lose entries. Cheap: the files are parsed already. */
function assertParses(project) {
  const program = project.getProgram().compilerObject;
  for (const sf of project.getSourceFiles()) {
    if (isLibFile(sf) || /[\\/]node_modules[\\/]/.test(sf.getFilePath())) continue;
    const [first] = program.getSyntacticDiagnostics(sf.compilerNode);
    if (!first) continue;
    const text = typeof first.messageText === "string" ? first.messageText : first.messageText.messageText;
    const node = sf.getDescendantAtPos(first.start) || sf;
    throw new UserError(node, `TypeScript syntax error: ${text} Fix the file and run pygen again.`);
  }
}

function extract(tsMorph, request) {
  const { project, sourceFile, consulted } = makeProject(tsMorph, request);
  assertParses(project);
  const ctx = { tsMorph, project, sourceFile, consulted, request, diagnostics: [] };
  const evaluator = makeEvaluator(tsMorph);
  ctx.index = typeIndex(tsMorph, ctx);
  const reader = makeTypeReader(tsMorph, ctx);
  const entries = definitionEntries(tsMorph, ctx, evaluator);
  const nodes = [];
  const seen = new Map();
  const cache = new Map();
  for (const entry of entries) {
    const node = readEntry(ctx, entry);
    if (seen.has(node.type)) throw new UserError(entry.node, `duplicate node type '${node.type}' (first defined at ${seen.get(node.type)})`);
    seen.set(node.type, `${node.source.file}:${node.source.line}`);
    const found = resolveDataType(tsMorph, ctx, node);
    if (found && found.decl) {
      if (!cache.has(found.decl)) cache.set(found.decl, reader.readDataType(found.decl));
      const shape = cache.get(found.decl);
      node.data_type = { name: found.decl.getName(), via: found.via, score: found.score, fields: shape.fields, variants: shape.variants };
    } else {
      const near = found && found.near && found.score > 0 ? found : null;
      node.data_type = { name: null, via: "none", score: near ? near.score : null, fields: [], variants: [] };
      ctx.diagnostics.push({ level: "warning", node_type: node.type, file: node.source.file, line: node.source.line, message: unresolvedMessage(node, near) });
    }
    nodes.push(node);
  }
  return { ok: true, nodes, sources: sourcesRead(ctx), diagnostics: ctx.diagnostics };
}

main();
