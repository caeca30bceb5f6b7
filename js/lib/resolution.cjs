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
  return (names, containingFile, reused, redirected, opts, containing) => {
    cache = cache || ts.createModuleResolutionCache(
      host.getCurrentDirectory ? host.getCurrentDirectory() : "", (f) => f, opts);
    const mode = containing ? containing.impliedNodeFormat : undefined;
    return names.map((name) => ts.resolveModuleName(
      name, containingFile, opts, host, cache, redirected, mode).resolvedModule);
  };
}

module.exports = { NODE_MODULES, baseResolver };
