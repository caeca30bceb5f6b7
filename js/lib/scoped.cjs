// A partial run (request `only`) reads the nodes a change affects, not the catalog. The nodes
// file imports every node's file; `skipFiles` (from the last full run: files only the other
// entries reach) are left unresolved wherever they are imported, so the program holds
// the affected nodes' files and what they import, not every node's. What the run then cannot
// see is checked by pygen: the catalog's count, its warnings and the files read must agree
// with the last full run, or everything is read.
"use strict";

const path = require("path");

const { NODE_MODULES, baseResolver } = require("./resolution.cjs");

/** ts-morph's `resolutionHost` around `inner` (or TypeScript's own resolution): an import
 * that resolves to a file of `skip` (absolute paths) resolves to nothing, and is recorded in
 * `dropped` (`file\0specifier`). The re-read nodes' files never import one (`skip` holds no
 * file they reach); the nodes file and the files between it and the nodes (an index that
 * re-exports them) do. */
function scopingResolution(ts, inner, skip, dropped) {
  return (host, getOptions) => {
    const base = baseResolver(ts, inner, host, getOptions);
    return {
      resolveModuleNames(names, containingFile, reused, redirected, options, containing) {
        const opts = options || getOptions();
        const resolve = (list) => base(list, containingFile, reused, redirected, opts, containing);
        if (NODE_MODULES.test(containingFile)) return resolve(names);
        // Resolving thousands of imports costs more than reading the node; a relative import
        // naming a left-out `.ts` file plainly is that file (TypeScript tries `.ts` first).
        const plain = names.map((n) => plainSkipped(n, containingFile, opts, skip));
        const rest = names.filter((n, i) => !plain[i]);
        const found = rest.length ? resolve(rest) : [];
        let at = 0;
        return names.map((name, i) => {
          const r = plain[i] ? null : found[at++];
          if (r && (r.isExternalLibraryImport || NODE_MODULES.test(r.resolvedFileName)
            || !skip.has(path.resolve(r.resolvedFileName)))) return r;
          if (r || plain[i]) dropped.add(`${path.resolve(containingFile)}\0${name}`);
          return undefined;
        });
      },
    };
  };
}

/** Whether a relative specifier names a left-out file with its `.ts` added (no module
 * suffixes or root dirs, which change where TypeScript looks first). */
function plainSkipped(name, containingFile, opts, skip) {
  if (!/^\.\.?\//.test(name) || /\.[cm]?[jt]sx?$/.test(name)) return false;
  if ((opts.moduleSuffixes && opts.moduleSuffixes.some(Boolean)) || opts.rootDirs) return false;
  return skip.has(path.resolve(path.dirname(containingFile), `${name}.ts`));
}

/** The files to leave out, as absolute paths, or null when the run reads everything. */
function skippedFiles(request) {
  if (!request.only || !Array.isArray(request.skipFiles) || !request.skipFiles.length) {
    return null;
  }
  return new Set(request.skipFiles.map((f) => path.resolve(request.root, f)));
}

module.exports = { scopingResolution, skippedFiles };
