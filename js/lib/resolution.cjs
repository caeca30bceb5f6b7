// How a file's imports resolve, for the wrappers that leave some of them out (deferred.cjs:
// package imports only components use; scoped.cjs: the other nodes' files in a partial run).
"use strict";

const NODE_MODULES = /[\\/]node_modules[\\/]/;

/** The resolution `inner` gives (ts-morph's `resolutionHost` factory, e.g. another wrapper),
 * or TypeScript's own with one cache per host: `(names, containingFile, reused, redirected,
 * options, containing)` → the resolved module of each name. */
function baseResolver(ts, inner, host, getOptions) {
  const base = inner ? inner(host, getOptions) : null;
  if (base) return base.resolveModuleNames.bind(base);
  let cache = null;
  const plain = plainHost(ts, host);
  return (names, containingFile, reused, redirected, opts, containing) => {
    cache = cache || ts.createModuleResolutionCache(plain.getCurrentDirectory(), (f) => f, opts);
    const mode = containing ? containing.impliedNodeFormat : undefined;
    return names.map((name) => ts.resolveModuleName(
      name, containingFile, opts, plain, cache, redirected, mode).resolvedModule);
  };
}

/** The file system questions resolution asks, answered by `ts.sys` once each. ts-morph's
 * host answers them through its wrapper of the file system (path standardizing, walks up
 * parent folders) at several times the cost; the run changes no file, so the answers are
 * the same and may be kept. */
function plainHost(ts, host) {
  const once = (ask) => {
    const known = new Map();
    return (p) => {
      if (!known.has(p)) known.set(p, ask(p));
      return known.get(p);
    };
  };
  const cwd = host.getCurrentDirectory ? host.getCurrentDirectory() : ts.sys.getCurrentDirectory();
  return {
    fileExists: once((p) => ts.sys.fileExists(p)),
    directoryExists: once((p) => ts.sys.directoryExists(p)),
    realpath: once((p) => (ts.sys.realpath ? ts.sys.realpath(p) : p)),
    readFile: (p) => ts.sys.readFile(p),
    getDirectories: (p) => ts.sys.getDirectories(p),
    getCurrentDirectory: () => cwd,
    useCaseSensitiveFileNames: ts.sys.useCaseSensitiveFileNames,
  };
}

module.exports = { NODE_MODULES, baseResolver, plainHost };
