// Workspace packages: a fresh clone has no node_modules links between the packages of a
// monorepo, so a bare import of a sibling package would not resolve. The workspace's own
// manifest (package.json `workspaces` or pnpm-workspace.yaml) says where the packages are;
// TypeScript then resolves inside each package exactly as if it were linked into
// node_modules (`exports`, `types`, `main`, subpaths), through a host that maps the link.
// A package whose manifest points at a build output that is missing (no dist/ before a
// build) resolves to its sources instead: see missingbuild.cjs.
"use strict";

const fs = require("fs");
const path = require("path");
const { findUp, readJson } = require("./util.cjs");
const { resolveStandIn } = require("./missingbuild.cjs");

function findWorkspace(start) {
  return findUp(start, (dir) => {
    const pnpm = path.join(dir, "pnpm-workspace.yaml");
    if (fs.existsSync(pnpm)) {
      return { root: dir, manifest: pnpm, patterns: pnpmPatterns(fs.readFileSync(pnpm, "utf8")) };
    }
    const rush = path.join(dir, "rush.json");
    if (fs.existsSync(rush)) {
      return { root: dir, manifest: rush, patterns: rushFolders(fs.readFileSync(rush, "utf8")) };
    }
    const pkg = path.join(dir, "package.json");
    const ws = fs.existsSync(pkg) && (readJson(pkg) || {}).workspaces;
    const patterns = Array.isArray(ws) ? ws : ws && Array.isArray(ws.packages) ? ws.packages : null;
    return patterns ? { root: dir, manifest: pkg, patterns } : null;
  });
}

/** The `projectFolder` of every project in a rush.json (JSONC: comments are allowed). */
function rushFolders(text) {
  const comment = /\/\*[\s\S]*?\*\/|("(?:\\.|[^"\\])*")|\/\/[^\n]*/g;
  const json = text.replace(comment, (m, str) => str || "")
    .replace(/,(\s*[}\]])/g, "$1");
  try {
    const projects = JSON.parse(json).projects;
    return Array.isArray(projects)
      ? projects.map((p) => p && p.projectFolder).filter((f) => typeof f === "string") : [];
  } catch {
    return [];
  }
}

/** The `packages:` list of a pnpm-workspace.yaml: the one key pygen needs, no YAML parser. */
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
    for (const dir of expandPattern(workspace.root, pattern.split("/"))) {
      (negated ? exclude : include).add(dir);
    }
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
  const re = new RegExp(
    "^" + head.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*+/g, ".*") + "$");
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
    return fs.readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory() && d.name !== "node_modules" && !d.name.startsWith("."))
      .map((d) => d.name)
      .sort();
  } catch {
    return [];
  }
}

function isBareSpecifier(name) {
  return !name.startsWith(".") && !name.startsWith("/") && !/^[a-zA-Z]:/.test(name)
    && !name.includes(":");
}

/** ts-morph's `resolutionHost`: TypeScript's resolution first, then the workspace packages. */
function workspaceResolution(ts, workspace, consulted, standIns) {
  return (host, getOptions) => {
    let cache = null;
    let packages = null;
    return {
      resolveModuleNames(names, containingFile, _reused, redirected, options, containing) {
        const opts = options || getOptions();
        cache = cache || ts.createModuleResolutionCache(workspace.root, (f) => f, opts);
        const mode = containing ? containing.impliedNodeFormat : undefined;
        return names.map((name) => {
          const found = ts.resolveModuleName(
            name, containingFile, opts, host, cache, redirected, mode).resolvedModule;
          if (found || !isBareSpecifier(name)) return found;
          packages = packages || listWorkspacePackages(workspace);
          const pkg = packages.find((p) => name === p.name || name.startsWith(p.name + "/"));
          if (!pkg) return undefined;
          const linked = resolveLinked(
            ts, name, { pkg, workspace, options: opts, host, mode, consulted });
          return linked || resolveStandIn(name, { pkg, workspace, consulted, standIns });
        });
      },
    };
  };
}

/** Resolve `name` as if `pkg` were linked at <workspace>/node_modules/<name>. */
function resolveLinked(ts, name, { pkg, workspace, options, host, mode, consulted }) {
  const root = workspace.root.split(path.sep).join("/");
  const link = `${root}/node_modules/${pkg.name}`;
  const real = pkg.dir.split(path.sep).join("/");
  const toReal = (p) => (p === link || p.startsWith(link + "/") ? real + p.slice(link.length) : p);
  const linked = {
    fileExists: (p) => host.fileExists(toReal(p)),
    readFile: (p) => host.readFile(toReal(p)),
    directoryExists: (p) => link.startsWith(p + "/")
      || (host.directoryExists ? host.directoryExists(toReal(p)) : true),
    realpath: (p) => toReal(p),
    getCurrentDirectory: () => root,
    useCaseSensitiveFileNames: host.useCaseSensitiveFileNames,
  };
  const resolved = ts.resolveModuleName(
    name, `${root}/__workspace__.ts`, options, linked, undefined, undefined, mode).resolvedModule;
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

module.exports = { findWorkspace, listWorkspacePackages, workspaceResolution };
