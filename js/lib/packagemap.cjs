// The packages a canvas library's package.json map declares: Node-RED's
// `"node-red": {"nodes": {"planner": "packages/planner/build/planner.js"}}` is the editor's own
// list of the files that hold its nodes, so the packages holding those files are the ones
// whose registrations are read (registrations.cjs), whatever tsconfig each package has
// (sourcefiles.cjs).
"use strict";

const fs = require("fs");
const path = require("path");

// Folders never walked for package.json files: installed packages declare their own nodes.
const SKIPPED_DIRS = new Set(["node_modules", ".git"]);
const MAX_MANIFEST = 1 << 20;

/**
 * The package folders holding the files the project's package.json files list under the
 * library's `package_map` (Node-RED's `node-red.nodes`: the node files it loads): for each
 * listed file, the nearest folder above it (not above its manifest's) with a package.json.
 * A listed file need not exist (`build/planner.js` is built from the package's sources).
 * pygen/extract/registries.py `declared_folders` reads the same map the same way.
 * `consulted`: gets each manifest holding the map (an edit to it is a change of the catalog).
 */
function declaredFolders(root, lib, consulted = null) {
  if (!lib.package_map) return [];
  const found = new Set();
  const walk = (dir) => {
    let names;
    try {
      names = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const d of names) {
      if (d.isDirectory() && !SKIPPED_DIRS.has(d.name) && !d.name.startsWith(".")) {
        walk(path.join(dir, d.name));
      }
    }
    const manifest = path.join(dir, "package.json");
    const listed = mapAt(readManifest(manifest), lib.package_map);
    if (!listed || typeof listed !== "object" || Array.isArray(listed)) return;
    if (consulted) consulted.add(manifest);
    for (const file of Object.values(listed)) {
      if (typeof file === "string" && file) found.add(packageOf(path.join(dir, file), dir));
    }
  };
  walk(path.resolve(root));
  return [...found].sort();
}

function readManifest(file) {
  try {
    if (fs.statSync(file).size > MAX_MANIFEST) return null;
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return null;  // not a manifest anyone's tool reads: it declares nothing
  }
}

function mapAt(data, key) {
  for (const part of key.split(".")) {
    if (!data || typeof data !== "object") return null;
    data = data[part];
  }
  return data;
}

function packageOf(listed, top) {
  let folder = path.dirname(path.normalize(listed));
  // A path leaving its manifest's folder declares no package of this project.
  if (!within(folder, top)) return top;
  while (folder !== top && !fs.existsSync(path.join(folder, "package.json"))) {
    folder = path.dirname(folder);
  }
  return folder;
}

function within(file, folder) {
  const rel = path.relative(folder, file);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

// What a node package holds beside its nodes: its tests register made-up types, its
// installed packages their own.
const NOT_NODES = ["**/node_modules", "**/__tests__", "**/test", "**/tests", "**/*.test.*",
  "**/*.spec.*", "**/*_spec.*"];

/** The files with one of `extensions` in the declared packages, tests and installs left out. */
function packageFiles(ts, dirs, extensions) {
  return dirs.flatMap((dir) => ts.sys.readDirectory(dir, extensions, NOT_NODES, ["**/*"]));
}

/** `declaredFolders` once per run and library: the registrations and the sources both ask. */
function declaredFor(ctx, lib) {
  if (!ctx.declaredFolders) ctx.declaredFolders = new Map();
  if (!ctx.declaredFolders.has(lib.library)) {
    ctx.declaredFolders.set(lib.library, declaredFolders(ctx.request.root, lib, ctx.consulted));
  }
  return ctx.declaredFolders.get(lib.library);
}

module.exports = { declaredFolders, declaredFor, packageFiles, within };
