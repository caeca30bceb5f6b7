// The TypeScript project: one ts-morph Project and one type checker per run, whatever the
// node count; the tsconfig chain it reads; and the list of files a reply says it read.
"use strict";

const crypto = require("crypto");
const fs = require("fs");
const path = require("path");
const { UserError } = require("./errors.cjs");
const { findUp, isLibFile, oneLine, rel, SCRIPT_SUFFIX } = require("./util.cjs");
const { findWorkspace, workspaceResolution } = require("./workspace.cjs");
const { deferringResolution } = require("./deferred.cjs");
const { parseWithWorkspace, workspaceFile, forgetPackages } = require("./workspaceconfig.cjs");
const { scopingResolution, skippedFiles } = require("./scoped.cjs");
const readlog = require("./readlog.cjs");
const { useSharedParses } = require("./sharedparse.cjs");

// A comment (dropped) or a string (kept), then a trailing comma: tsconfig is JSONC.
const JSONC_COMMENT = /\/\*[\s\S]*?\*\/|("(?:\\.|[^"\\])*")|\/\/[^\n]*/g;
const TRAILING_COMMA = /,(\s*[}\]])/g;

function findTsconfig(start) {
  return findUp(start, (dir) => {
    const candidate = path.join(dir, "tsconfig.json");
    return fs.existsSync(candidate) ? candidate : null;
  });
}

// The most of one tsconfig (or any file TypeScript reads) the extractor reads: far above a
// real one, far below a device that never ends (`extends: "/dev/zero"`).
const MAX_READ = 64 * 1024 * 1024;

/** What a path that is not a regular file is, in words; null for a regular file. */
function kindOf(stat) {
  if (stat.isFile()) return null;
  if (stat.isDirectory()) return "a folder";
  if (stat.isFIFO()) return "a named pipe (FIFO)";
  if (stat.isCharacterDevice()) return "a character device";
  if (stat.isBlockDevice()) return "a block device";
  if (stat.isSocket()) return "a socket";
  return "not a regular file";
}

/** A regular file's text, read without blocking and at most MAX_READ bytes; null when it
 * does not exist. Anything else (a pipe would hang the run, a device never end) is a
 * one-line error saying which file and, for an extended config, which tsconfig named it. */
function readRegular(file, from) {
  const named = from ? `${from} extends ${file}, which` : `${file}`;
  const fix = from ? `fix its "extends"` : "fix 'tsconfig'";
  let fd;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK || 0));
  } catch (e) {
    if (e && e.code === "ENOENT") return null;
    throw new UserError(null, `${named}: cannot be read (${e && e.code}); ${fix}`);
  }
  try {
    const stat = fs.fstatSync(fd);
    const kind = kindOf(stat);
    if (kind) throw new UserError(null, `${named} is ${kind}, not a tsconfig file; ${fix}`);
    if (stat.size > MAX_READ) {
      throw new UserError(null, `${named} is larger than ${MAX_READ >> 20} MB, not a tsconfig `
        + `file; ${fix}`);
    }
    const buffer = Buffer.alloc(Math.min(stat.size, MAX_READ) + 1);
    const read = fs.readSync(fd, buffer, 0, buffer.length, 0);
    if (read > MAX_READ) {
      throw new UserError(null, `${named} is larger than ${MAX_READ >> 20} MB; ${fix}`);
    }
    return buffer.subarray(0, read).toString("utf8");
  } finally {
    fs.closeSync(fd);
  }
}

/** TypeScript's own reads (tsconfig chains, sources) kept to regular files of sane size: a
 * pipe, device or huge file reads as missing, so the compiler reports it, never hangs. */
function guardReads(ts) {
  if (ts.sys.readFile.guarded) return;
  const real = ts.sys.readFile;
  const guarded = (file, encoding) => {
    try {
      const stat = fs.statSync(file);
      if (!stat.isFile() || stat.size > MAX_READ) return undefined;
    } catch {
      return undefined;
    }
    return real(file, encoding);
  };
  guarded.guarded = true;
  ts.sys.readFile = guarded;
}

/** A tsconfig file's JSON (tsconfig is JSONC: comments and trailing commas), or null;
 * `from` is the tsconfig whose `extends` names it. */
function readTsconfig(file, from) {
  const raw = readRegular(file, from);
  if (raw === null) return null;
  const text = raw
    .replace(JSONC_COMMENT, (m, str) => str || "")
    .replace(TRAILING_COMMA, "$1");
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** tsconfig files a config extends (relative paths and packages), for the list of sources. */
function tsconfigChain(file, seen = new Set(), from = null) {
  if (!file || seen.has(file) || !fs.existsSync(file)) return [...seen];
  const json = readTsconfig(file, from);
  seen.add(file);
  const parents = json && json.extends ? [].concat(json.extends) : [];
  for (const spec of parents) {
    if (typeof spec === "string") tsconfigChain(extendedFile(file, spec), seen, file);
  }
  return [...seen];
}

// The config files whose `extends` only the workspace's packages provide (not installed).
const linkedExtends = new Set();

/** A run starts as in a fresh process: nothing an earlier run of it found is kept. */
function forgetRuns() {
  linkedExtends.clear();
  forgetPackages();
}

/** The file an `extends` entry names: a path beside the config, or a package's file. */
function extendedFile(file, spec) {
  let target = null;
  if (spec.startsWith(".") || path.isAbsolute(spec)) {
    target = path.resolve(path.dirname(file), spec);
  } else {
    try {
      target = require.resolve(spec, { paths: [path.dirname(file)] });
    } catch {
      // Not installed: a workspace package of the checkout may hold it.
      target = workspaceFile(file, spec);
      if (target) linkedExtends.add(file);
    }
  }
  if (target && !target.endsWith(".json") && !fs.existsSync(target)) target += ".json";
  return target;
}

/** A solution-style tsconfig (`references`, and `"files": []` or an `exclude` of every file)
 * compiles nothing itself: the referenced project whose files include the nodes file is the
 * one to compile with. */
function ownProject(ts, tsconfig, nodesFile, seen = new Set()) {
  if (!tsconfig || seen.has(tsconfig)) return tsconfig;
  seen.add(tsconfig);
  const json = readTsconfig(tsconfig);
  const solution = json && Array.isArray(json.references) && json.references.length
    && ((Array.isArray(json.files) && !json.files.length && !json.include)
      || compilesNothing(ts, tsconfig));
  if (!solution) return tsconfig;
  for (const ref of json.references) {
    if (!ref || typeof ref.path !== "string") continue;
    let target = path.resolve(path.dirname(tsconfig), ref.path);
    if (fs.existsSync(target) && fs.statSync(target).isDirectory()) {
      target = path.join(target, "tsconfig.json");
    }
    if (!fs.existsSync(target)) continue;
    tsconfigChain(target, new Set(), tsconfig);  // refuses a pipe or device before TS reads it
    const inner = ownProject(ts, target, nodesFile, seen);
    if (includesFile(ts, inner, nodesFile)) return inner;
  }
  return tsconfig;
}

/** Whether the tsconfig's own file list is empty (`"exclude": ["**\/*"]`). */
function compilesNothing(ts, tsconfig) {
  const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} };
  const parsed = ts.getParsedCommandLineOfConfigFile(tsconfig, {}, host);
  return Boolean(parsed) && parsed.fileNames.length === 0;
}

function includesFile(ts, tsconfig, file) {
  const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} };
  const parsed = ts.getParsedCommandLineOfConfigFile(tsconfig, {}, host);
  const wanted = path.resolve(file);
  return Boolean(parsed) && parsed.fileNames.some((f) => path.resolve(f) === wanted);
}

/** What a project without a tsconfig compiles with: a current bundler-style setup. */
function defaultCompilerOptions(ts) {
  return {
    strict: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    jsx: ts.JsxEmit.Preserve,
    allowJs: false,
  };
}

/** The project's options from its tsconfig, as ts-morph reads them from `tsConfigFilePath`
 * but without listing the files the tsconfig includes (every folder of the app walked, for
 * a list a run that starts from the nodes file never uses). A tsconfig TypeScript cannot
 * parse is left to ts-morph, whose error the caller reports. */
function configOptions(ts, tsconfig) {
  const file = path.resolve(tsconfig);
  const text = ts.sys.readFile(file);
  const json = text === undefined ? null : ts.parseConfigFileTextToJson(file, text);
  if (!json || json.error) return { tsConfigFilePath: tsconfig };
  const host = { ...ts.sys, readDirectory: () => [] };
  return { compilerOptions: ts.parseJsonConfigFileContent(json.config, host, path.dirname(file),
    undefined, file).options };
}

function checkConfigFiles(request) {
  if (!fs.existsSync(request.nodesFile)) {
    throw new UserError(null, `${request.nodesFile}: file not found`, "config");
  }
  if (request.tsconfig && !fs.existsSync(request.tsconfig)) {
    throw new UserError(
      null, `tsconfig ${request.tsconfig} not found; fix or remove 'tsconfig'`, "config");
  }
}

/** Package imports only components use are left out unless a first run needed them; a
 * partial run also leaves out the files of the nodes it does not read (see scoped.cjs).
 * Sets `options`' resolution host. */
function narrowResolution(ts, request, options) {
  const deferred = new Map();
  const dropped = new Set();
  if (!request.loadEveryImport && !(request.entryFields && request.entryFields.zod)) {
    // `call:` and `class:` items search every file of the program for entries.
    const ownFiles = request.definitions.every((d) => !/^(?:call|class):/.test(d));
    options.resolutionHost = deferringResolution(ts, options.resolutionHost, deferred, ownFiles);
  }
  const skip = skippedFiles(request);
  if (skip) {
    options.resolutionHost = scopingResolution(ts, options.resolutionHost, skip, dropped);
  }
  return { deferred, dropped };
}

function makeProject(tsMorph, request) {
  const { Project, ts } = tsMorph;
  checkConfigFiles(request);
  guardReads(ts);
  const given = request.tsconfig || findTsconfig(request.nodesFile);
  // The chain first: a pipe or device it names is one line before TypeScript reads it.
  const givenChain = tsconfigChain(given);
  const tsconfig = ownProject(ts, given, request.nodesFile);
  const chain = tsconfigChain(tsconfig);
  const consulted = new Set([...givenChain, ...chain]);
  const options = { skipAddingFilesFromTsConfig: true, skipFileDependencyResolution: false };
  const linked = parseWithWorkspace(ts, tsconfig, chain.some((f) => linkedExtends.has(f)));
  if (linked) options.compilerOptions = linked.options;
  else if (tsconfig) Object.assign(options, configOptions(ts, tsconfig));
  else options.compilerOptions = defaultCompilerOptions(ts);
  const workspace = findWorkspace(request.nodesFile);
  const standIns = [];
  if (workspace) {
    options.resolutionHost = workspaceResolution(ts, workspace, consulted, standIns);
  }
  const { deferred, dropped } = narrowResolution(ts, request, options);
  let project;
  try {
    project = new Project(options);
  } catch (e) {
    const what = tsconfig ? rel(request, tsconfig) : "the TypeScript project";
    throw new UserError(null, `cannot load ${what}: ${oneLine(String(e.message || e))}`);
  }
  useSharedParses(project);
  const sourceFile = project.addSourceFileAtPath(request.nodesFile);
  project.resolveSourceFileDependencies();
  const fileNames = linked ? linked.fileNames : null;
  return { project, sourceFile, consulted, standIns, tsconfig, fileNames, deferred, dropped };
}

/** A syntax error in a project file the user wrote: the parser would recover and read on,
 * so the definitions could silently lose entries. Cheap: the files are parsed already. */
function assertParses(project) {
  const program = project.getProgram().compilerObject;
  for (const sf of project.getSourceFiles()) {
    if (isLibFile(sf) || /[\\/]node_modules[\\/]/.test(sf.getFilePath())) continue;
    const [first] = program.getSyntacticDiagnostics(sf.compilerNode);
    if (!first) continue;
    const text = typeof first.messageText === "string"
      ? first.messageText : first.messageText.messageText;
    const node = sf.getDescendantAtPos(first.start) || sf;
    throw new UserError(node, `TypeScript syntax error: ${text} Fix the file and run pygen again.`);
  }
}

function hashFile(file) {
  return crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex");
}

/** Every file the run read, with the sha256 of the bytes it read (readlog.cjs), so pygen
 * knows when a cached reply is stale. A file read and gone since stays listed: its hash
 * then tells pygen the run saw a change. */
function sourcesRead(ctx) {
  const files = new Set();
  for (const sf of ctx.project.getSourceFiles()) {
    const typescriptOwn = /[\\/]node_modules[\\/]typescript[\\/]/.test(sf.getFilePath());
    if (!isLibFile(sf) || !typescriptOwn) files.add(sf.getFilePath());
  }
  for (const file of ctx.consulted) files.add(path.resolve(file));
  return [...files]
    .filter((f) => readlog.readHash(f) !== undefined || fs.existsSync(f))
    .map((f) => ({ path: rel(ctx.request, f), sha256: readlog.readHash(f) || hashFile(f) }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The paths a lookup of this run found missing whose appearance could change what it
 * reads: inside the root (module resolution's candidates, a nearer tsconfig.json), and a
 * tsconfig.json or package.json in a folder above it. Sorted, relative to the root. */
function absentProbed(ctx) {
  const root = path.resolve(ctx.request.root);
  const inside = (f) => f === root || f.startsWith(root + path.sep);
  const names = new Set(["tsconfig.json", "package.json"]);
  const found = new Set();
  for (const probe of readlog.probes().missing) {
    const file = path.resolve(probe);
    // A .html file's code blocks, read under a name of their own (htmlscripts.cjs), are
    // never on disk: the .html itself is among the sources read.
    if (file.endsWith(SCRIPT_SUFFIX)) continue;
    if (inside(file) || names.has(path.basename(file))) found.add(rel(ctx.request, file));
  }
  return [...found].sort();
}

/** Files read twice by this run with different bytes: an edit made while it ran. */
function unsettledRead(ctx) {
  return readlog.probes().unsettled.map((f) => rel(ctx.request, path.resolve(f))).sort();
}

/** The files read with the sha256 of their bytes as read, the paths looked for and missing,
 * and (when any) the files whose bytes changed between two reads of this run. */
function whatWasRead(ctx) {
  const unsettled = unsettledRead(ctx);
  return { sources: sourcesRead(ctx), absent: absentProbed(ctx),
    ...(unsettled.length ? { unsettled } : {}) };
}

module.exports = {
  makeProject, assertParses, whatWasRead, readTsconfig, tsconfigChain, extendedFile, forgetRuns,
};
