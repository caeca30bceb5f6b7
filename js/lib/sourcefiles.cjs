// The files a catalog's `definitions` items read, added to the program before anything is
// checked: the files a `path/glob.ts:NAME` item matches, and for `call:` and `class:` items
// only the project's files whose text names the function or class (for `registrations:` the
// library's callees and map names).
"use strict";

const fs = require("fs");
const path = require("path");
const { UserError } = require("./errors.cjs");
const { searchedNames, library } = require("./registrations.cjs");
const { declaredFor, packageFiles } = require("./packagemap.cjs");
const { addHtmlScripts } = require("./htmlscripts.cjs");

/** `{kind, name, glob}` of one `definitions` item. */
function parseSpec(spec) {
  const tagged = /^(call|class|registrations):(.+)$/.exec(spec);
  // `class:*:INode`: only the classes that implement or extend `INode` (credentials that
  // look like nodes implement something else).
  const based = tagged && tagged[1] === "class" && /^([^:]+):(.+)$/.exec(tagged[2]);
  if (based) return { kind: "class", name: based[1], base: based[2] };
  if (tagged) return { kind: tagged[1], name: tagged[2] };
  const colon = spec.lastIndexOf(":");
  if (colon > 0) return { kind: "file", glob: spec.slice(0, colon), name: spec.slice(colon + 1) };
  return { kind: "name", name: spec };
}

/** Adds the files the `definitions` items read to the project, before anything is checked. */
function loadSources(ctx) {
  const specs = ctx.request.definitions.map(parseSpec);
  ctx.specs = specs;
  // The nodes file and what it imports are loaded already.
  if (specs.every((spec) => spec.kind === "name")) return;
  for (const spec of specs) {
    if (spec.kind === "file") {
      const files = ctx.project.addSourceFilesAtPaths(path.resolve(ctx.request.root, spec.glob));
      if (!files.length) {
        throw new UserError(null, `definitions '${spec.glob}:${spec.name}': no file matches `
          + `'${spec.glob}' (relative to ${ctx.request.root})`, "config");
      }
    }
  }
  const searched = specs.filter((spec) => spec.kind !== "file" && spec.kind !== "name");
  // `class:*` reads every class: a file can hold one only if it says `class`; a library's
  // registrations are in the files naming its callees or map annotations.
  if (searched.length) {
    addFilesNaming(ctx, searched.flatMap((spec) => (spec.kind === "registrations"
      ? searchedNames(spec.name) : [spec.name === "*" ? "class" : spec.name])));
  }
  // The packages a library's package.json map lists (Node-RED's `node-red.nodes`) are read
  // whatever tsconfig each has: one package per node, each with its own tsconfig, is usual.
  for (const spec of searched.filter((s) => s.kind === "registrations")) {
    const { ts } = ctx.tsMorph;
    const dirs = declaredFor(ctx, library(spec.name));
    const files = packageFiles(ts, dirs, [".ts", ".tsx"]);
    if (files.length) addFilesNaming(ctx, searchedNames(spec.name), files);
    addHtmlScripts(ctx, dirs, searchedNames(spec.name));
  }
  ctx.project.resolveSourceFileDependencies();
}

/** The files of the project (the tsconfig's, or without one every TypeScript file beside
 * nodes_file) whose text names one of `names`: only they can hold a call or class the
 * definitions read, so the others (tests, stories, generated files) are never parsed, and
 * none of them can stop the run. */
const DECLARATION = /\.d\.[cm]?ts$/;

function addFilesNaming(ctx, names, files = projectFileNames(ctx)) {
  for (const file of files) {
    // Listed among the sources read: a call added to any of them invalidates the cache.
    ctx.consulted.add(file);
    let text;
    try {
      text = fs.readFileSync(file, "utf8");
    } catch {
      continue;
    }
    // A declaration file holds no call or class to read, but its ambient types are the
    // program's, as the editor's own compiler sees them.
    if (DECLARATION.test(file) || names.some((name) => text.includes(name))) {
      ctx.project.addSourceFileAtPath(file);
    }
  }
}

function projectFileNames(ctx) {
  const { ts } = ctx.tsMorph;
  // A solution-style tsconfig: the referenced project that holds nodes_file lists the files.
  if (ctx.fileNames) return ctx.fileNames;
  if (ctx.tsconfig) {
    const read = ts.readConfigFile(ctx.tsconfig, ts.sys.readFile);
    const parsed = ts.parseJsonConfigFileContent(read.config || {}, ts.sys,
      path.dirname(ctx.tsconfig), undefined, ctx.tsconfig);
    return parsed.fileNames.filter((f) => /\.(?:[cm]?ts|tsx)$/.test(f));
  }
  const dir = path.dirname(ctx.request.nodesFile);
  return ts.sys.readDirectory(dir, [".ts", ".tsx"], ["**/node_modules"], ["**/*"]);
}

module.exports = { loadSources };
