// Registrations made in a loop over a static array (`for (const t of TYPES)
// registerNodeType(t, …)`): the loop variable is bound to each element in turn, so the call's
// type is read once per element (registrations.cjs).
"use strict";

const values = require("./values.cjs");

/**
 * How to evaluate a call once per value of the loops around it: `for (const t of [...])` and
 * `[...].forEach((t) => …)` over static arrays bind the loop variable to each element. One
 * plain evaluation outside any loop; no bindings when a loop's array is not static.
 */
function loopBindings(ctx, ev, call) {
  const { Node } = ctx.tsMorph;
  let bindings = [(read) => read()];
  let loops = 0;
  for (let at = call.getParent(); at && !Node.isSourceFile(at); at = at.getParent()) {
    const loop = loopOver(ctx, ev, at);
    if (!loop) continue;
    loops += 1;
    const list = values.evaluateValue(ev, loop.array);
    if (!Array.isArray(list)) return { bindings: null, loops };
    const outer = bindings;
    bindings = list.flatMap((item) => outer.map((inner) => (read) => {
      const undo = loop.bind(item);
      try {
        return inner(read);
      } finally {
        undo();
      }
    }));
  }
  return { bindings, loops };
}

/** A `for…of` or `forEach`/`map` callback whose variable is a plain name: its array and binder. */
function loopOver(ctx, ev, node) {
  const { Node } = ctx.tsMorph;
  if (Node.isForOfStatement(node)) {
    const list = node.getInitializer();
    const decl = Node.isVariableDeclarationList(list) && list.getDeclarations()[0];
    if (!decl || !Node.isIdentifier(decl.getNameNode())) return null;
    return { array: node.getExpression(), bind: (item) => memoBind(ev, decl, item) };
  }
  if ((Node.isArrowFunction(node) || Node.isFunctionExpression(node))
    && Node.isCallExpression(node.getParent())) {
    const outer = node.getParent();
    const callee = outer.getExpression();
    const [param] = node.getParameters();
    if (!Node.isPropertyAccessExpression(callee) || !["forEach", "map"].includes(callee.getName())
      || !param || !Node.isIdentifier(param.getNameNode())) return null;
    return {
      array: callee.getExpression(),
      bind: (item) => {
        ev.frames.push(new Map([[param, item]]));
        return () => ev.frames.pop();
      },
    };
  }
  return null;
}

/** A loop variable holds `item` while a registration is read; what was memoized under it goes. */
function memoBind(ev, decl, item) {
  const before = new Set(ev.memo.keys());
  ev.memo.set(decl, item);
  return () => {
    for (const key of [...ev.memo.keys()]) if (!before.has(key)) ev.memo.delete(key);
  };
}

module.exports = { loopBindings };
