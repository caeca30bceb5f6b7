// Sources standing in for a workspace package's missing build: a package whose `types` or
// `exports` point at dist/ (written by a build a fresh checkout has not run) resolves to the
// file the package itself names for development, tried in this order: the `source` field, a
// `development` or `source` export condition, src/index.ts(x), or the dist/ → src/ mirror of
// the missing path. Each stand-in is recorded so the reply can say which file replaced which.
"use strict";

const fs = require("fs");
const path = require("path");
const { readJson } = require("./util.cjs");

const SOURCE_CONDITIONS = ["development", "source"];
const BUILD_DIRS = /(^|\/)(dist|build|lib|out)\//;
const BUILT_SUFFIX = /\.(d\.ts|d\.mts|d\.cts|js|mjs|cjs)$/;
const SOURCE_EXTENSIONS = [".ts", ".tsx", ".mts", ".cts"];

/** The conditions object (or target string) `exports` holds for a subpath ("." or "./x"). */
function exportsEntry(exportsField, sub) {
  if (typeof exportsField === "string") return sub === "." ? exportsField : null;
  if (!exportsField || typeof exportsField !== "object") return null;
  const keys = Object.keys(exportsField);
  if (!keys.some((k) => k.startsWith("."))) return sub === "." ? exportsField : null;
  return exportsField[sub] || null;
}

/** Every string target under an entry's conditions, with the condition path leading to it. */
function targets(entry, conditions = []) {
  if (typeof entry === "string") return [{ target: entry, conditions }];
  if (!entry || typeof entry !== "object") return [];
  if (Array.isArray(entry)) return entry.flatMap((e) => targets(e, conditions));
  return Object.entries(entry).flatMap(([k, v]) => targets(v, [...conditions, k]));
}

/** What the manifest points at for the subpath: the declarations first, then the code. */
function declaredTargets(manifest, sub) {
  const all = targets(exportsEntry(manifest.exports, sub));
  const typed = all.filter((t) => t.conditions.includes("types")).map((t) => t.target);
  const top = sub === "." ? [manifest.types, manifest.typings, manifest.main] : [];
  const rest = all.map((t) => t.target);
  return [...typed, ...top, ...rest].filter((t) => typeof t === "string");
}

/** Candidates in order of preference: { file (relative to the package), how }. */
function candidates(manifest, sub) {
  const out = [];
  if (sub === "." && typeof manifest.source === "string") {
    out.push({ file: manifest.source, how: "source field" });
  }
  for (const t of targets(exportsEntry(manifest.exports, sub))) {
    const condition = t.conditions.find((c) => SOURCE_CONDITIONS.includes(c));
    if (condition) out.push({ file: t.target, how: `exports '${condition}' condition` });
  }
  if (sub === ".") {
    for (const ext of [".ts", ".tsx"]) out.push({ file: `src/index${ext}`, how: "src/index" });
  }
  for (const target of declaredTargets(manifest, sub)) {
    if (!BUILD_DIRS.test(target)) continue;
    const stem = target.replace(BUILD_DIRS, "$1src/").replace(BUILT_SUFFIX, "");
    for (const ext of SOURCE_EXTENSIONS) out.push({ file: stem + ext, how: "dist/ mirror" });
  }
  return out;
}

function isSourceFile(file) {
  return SOURCE_EXTENSIONS.some((ext) => file.endsWith(ext)) && !/\.d\.[mc]?ts$/.test(file)
    && fs.existsSync(file) && fs.statSync(file).isFile();
}

/** Resolve `name` in `pkg` to a source file standing in for its missing build, or undefined. */
function resolveStandIn(name, { pkg, workspace, consulted, standIns }) {
  const manifestFile = path.join(pkg.dir, "package.json");
  const manifest = readJson(manifestFile) || {};
  const sub = name === pkg.name ? "." : "." + name.slice(pkg.name.length);
  const found = candidates(manifest, sub).find((c) => isSourceFile(path.resolve(pkg.dir, c.file)));
  if (!found) return undefined;
  const file = path.resolve(pkg.dir, found.file);
  consulted.add(manifestFile);
  consulted.add(workspace.manifest);
  const missing = declaredTargets(manifest, sub).map((t) => path.resolve(pkg.dir, t))
    .find((p) => !fs.existsSync(p));
  // Absolute paths here; the reply makes them relative to the project root.
  const record = {
    package: name, missing: missing || manifestFile,
    used: file, how: found.how,
  };
  if (!standIns.some((s) => s.package === name)) standIns.push(record);
  return { resolvedFileName: file, extension: path.extname(file), isExternalLibraryImport: false };
}

module.exports = { resolveStandIn };
