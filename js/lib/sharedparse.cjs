// Parsed files shared by the runs of one process (extract.cjs --serve): `pygen init` confirms
// candidates whose programs mostly hold the same files (one app, one tsconfig area), and each
// run parsed them all again. A file is reused only with the same text and the same compiler
// options (the binder reads them), so each run sees what a fresh process would parse; TypeScript
// itself shares parsed files across its programs so (its language service's document registry).
"use strict";

// Off in a process that answers one request: nothing to share.
let shared = null;

/** From now on, the projects made share their parsed files. */
function shareParses() {
  if (!shared) shared = new Map();
}

// Compiler options object → its key (one object per project, asked once per file).
const keys = new WeakMap();

function optionsKey(settings) {
  if (!keys.has(settings)) keys.set(settings, JSON.stringify(settings));
  return keys.get(settings);
}

/** Makes the project's parses go through the shared ones (when sharing is on). ts-morph parses
 * every file it adds through its compiler factory's document registry. */
function useSharedParses(project) {
  if (!shared) return;
  const registry = project._context.compilerFactory.documentRegistry;
  const parse = registry.createOrUpdateSourceFile.bind(registry);
  registry.createOrUpdateSourceFile = (fileName, settings, snapshot, scriptKind) => {
    const text = snapshot.getText(0, snapshot.getLength());
    const key = `${fileName}\0${scriptKind}\0${optionsKey(settings)}`;
    const known = shared.get(key);
    if (known && known.text === text) return known;
    const parsed = parse(fileName, settings, snapshot, scriptKind);
    shared.set(key, parsed);
    return parsed;
  };
}

module.exports = { shareParses, useSharedParses };
