// A tsconfig that `extends` a workspace package (`"extends": "@acme/tsconfig/base.json"`)
// in a checkout whose node_modules links are not installed yet (pnpm, rush, npm and yarn
// workspaces): the package is found by its name among the workspace's packages, and the
// compiler options are read through a host that sees it linked where TypeScript looks.
"use strict";

const fs = require("fs");
const path = require("path");
const { findWorkspace, listWorkspacePackages } = require("./workspace.cjs");

const packagesOf = new Map();

function packages(workspace) {
  if (!packagesOf.has(workspace.root)) {
    packagesOf.set(workspace.root, listWorkspacePackages(workspace));
  }
  return packagesOf.get(workspace.root);
}

/** Forgets the packages listed by earlier runs of this process (their reads are this run's). */
function forgetPackages() {
  packagesOf.clear();
}

/** The workspace file a bare `extends` names, or null when no workspace package has it. */
function workspaceFile(from, spec) {
  const workspace = findWorkspace(from);
  if (!workspace) return null;
  const pkg = packages(workspace).find((p) => spec === p.name || spec.startsWith(p.name + "/"));
  if (!pkg) return null;
  const rest = spec.slice(pkg.name.length + 1);
  const target = path.join(pkg.dir, rest || "tsconfig.json");
  return !fs.existsSync(target) && fs.existsSync(target + ".json") ? target + ".json" : target;
}

/** `node_modules/<workspace package>/…` anywhere → the package's own folder. */
function linkedPath(workspace, file) {
  const at = file.split(path.sep).join("/").lastIndexOf("/node_modules/");
  if (at < 0) return file;
  const inside = file.split(path.sep).join("/").slice(at + "/node_modules/".length);
  const pkg = packages(workspace).find((p) => inside === p.name
    || inside.startsWith(p.name + "/"));
  return pkg ? path.join(pkg.dir, inside.slice(pkg.name.length + 1)) : file;
}

/** Compiler options and files of `tsconfig` with the workspace's packages linked, or null
 * when the file extends no workspace package that only the workspace can provide. */
function parseWithWorkspace(ts, tsconfig, needsWorkspace) {
  if (!tsconfig || !needsWorkspace) return null;
  const workspace = findWorkspace(tsconfig);
  if (!workspace) return null;
  const link = (f) => linkedPath(workspace, f);
  const host = {
    ...ts.sys,
    fileExists: (f) => ts.sys.fileExists(link(f)),
    readFile: (f) => ts.sys.readFile(link(f)),
    directoryExists: (d) => ts.sys.directoryExists(link(d)) || /[\\/]node_modules$/.test(d),
    realpath: (f) => link(f),
    onUnRecoverableConfigFileDiagnostic: () => {},
  };
  const parsed = ts.getParsedCommandLineOfConfigFile(tsconfig, {}, host);
  return parsed ? { options: parsed.options, fileNames: parsed.fileNames } : null;
}

module.exports = { workspaceFile, parseWithWorkspace, forgetPackages };
