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
  // TypeScript's cache is per folder; a name `paths` maps to a file of the project is that
  // file from every folder (the node folders of a catalog all import `@/lib/...`).
  const mapped = new Map();
  return (names, containingFile, reused, redirected, opts, containing) => {
    cache = cache || ts.createModuleResolutionCache(plain.getCurrentDirectory(), (f) => f, opts);
    const mode = containing ? containing.impliedNodeFormat : undefined;
    return names.map((name) => {
      const key = !redirected && pathsMapped(name, opts) ? `${mode}\0${name}` : null;
      if (key && mapped.has(key)) return mapped.get(key);
      const found = ts.resolveModuleName(
        name, containingFile, opts, plain, cache, redirected, mode).resolvedModule;
      const own = found && !found.isExternalLibraryImport
        && !NODE_MODULES.test(found.resolvedFileName);
      if (key && own) mapped.set(key, found);
      return found;
    });
  };
}

/** Whether a `paths` pattern of `opts` matches a non-relative specifier (without `baseUrl`,
 * which TypeScript tries for any name, so the mapping alone decides where it looks first). */
function pathsMapped(name, opts) {
  if (!opts.paths || opts.baseUrl || /^[./#]/.test(name)) return false;
  return Object.keys(opts.paths).some((key) => {
    const star = key.indexOf("*");
    return star < 0 ? name === key
      : name.length >= key.length - 1 && name.startsWith(key.slice(0, star))
        && name.endsWith(key.slice(star + 1));
  });
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

module.exports = { NODE_MODULES, baseResolver, plainHost, pathsMapped };
