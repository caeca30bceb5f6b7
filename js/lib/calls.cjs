// Calls the static evaluator can follow: helpers declared in the project whose body is one
// `return <expression>` (or an arrow's expression body), `.map(arrow)` over a static array,
// and `Object.freeze(x)`. Anything else is a call whose value exists only at run time.
"use strict";

const values = require("./values.cjs");
const { isLibFile, singleReturn } = require("./util.cjs");

function evaluateCall(ev, node) {
  const { Node } = ev;
  const callee = values.unwrap(ev.tsMorph, node.getExpression());
  if (Node.isPropertyAccessExpression(callee)) {
    const name = callee.getName();
    if (name === "map") return mapCall(ev, node, callee);
    if (name === "freeze" && callee.getExpression().getText() === "Object") {
      const [arg] = node.getArguments();
      return arg ? values.evaluate(ev, arg) : new values.Dynamic(node, "a function call");
    }
  }
  const fn = helperOf(ev, callee);
  if (!fn) return new values.Dynamic(node, "a function call");
  const value = invoke(ev, node, fn, node.getArguments().map((a) => () => values.evaluate(ev, a)));
  return relocate(value, node, `computed by ${callee.getText()} at run time`);
}

/**
 * The helper's value with each part it could not compute reported at the call, not inside
 * the helper. Copies only what changes: evaluated values are shared.
 */
function relocate(value, call, why, at = []) {
  if (value instanceof values.Dynamic) {
    if (inside(value.node, call)) return value;
    const moved = new values.Dynamic(call, value.limit ? value.why : why, value.limit);
    // Where inside the call's value it sits, so its type is the part's, not the call's.
    moved.within = at;
    return moved;
  }
  if (!value || typeof value !== "object") return value;
  let changed = false;
  const out = Array.isArray(value) ? [] : {};
  for (const key of Object.keys(value)) {
    out[key] = relocate(value[key], call, why, [...at, key]);
    changed = changed || out[key] !== value[key];
  }
  const spreads = value[values.SPREADS];
  if (spreads) {
    out[values.SPREADS] = spreads.map((d) => relocate(d, call, why));
    changed = changed || out[values.SPREADS].some((d, i) => d !== spreads[i]);
  }
  return changed ? out : value;
}

function inside(node, outer) {
  return node.getSourceFile() === outer.getSourceFile() && node.getStart() >= outer.getStart()
    && node.getEnd() <= outer.getEnd();
}

/** The project function a callee names, when its body is one returned expression. */
function helperOf(ev, callee) {
  const { Node } = ev;
  if (Node.isArrowFunction(callee) || Node.isFunctionExpression(callee)) {
    return singleReturn(ev, callee) ? callee : null;
  }
  if (!Node.isIdentifier(callee) && !Node.isPropertyAccessExpression(callee)) return null;
  const symbol = (Node.isIdentifier(callee) ? callee : callee.getNameNode()).getSymbol();
  let decl = symbol && values.declarationOfSymbol(ev, symbol);
  if (decl && Node.isVariableDeclaration(decl)) {
    const init = decl.getInitializer();
    decl = init && values.unwrap(ev.tsMorph, init);
  } else if (decl && Node.isPropertyAssignment(decl)) {
    decl = values.unwrap(ev.tsMorph, decl.getInitializerOrThrow());
  }
  if (!decl || isLibFile(decl.getSourceFile()) || decl.getSourceFile().isDeclarationFile()) {
    return null;
  }
  const callable = Node.isFunctionDeclaration(decl) || Node.isArrowFunction(decl)
    || Node.isFunctionExpression(decl) || Node.isMethodDeclaration(decl);
  return callable && singleReturn(ev, decl) ? decl : null;
}

/** The helper's returned value with its parameters bound to `args` (thunks) or defaults. */
function invoke(ev, call, fn, args) {
  if (ev.frames.length >= values.MAX_CALL_DEPTH) {
    ev.tripped = `too deep to evaluate statically (over ${values.MAX_CALL_DEPTH} nested calls)`;
  }
  // A bound tripped below makes the whole outermost call computed, not a deep partial value.
  if (ev.tripped) return new values.Dynamic(call, ev.tripped, true);
  const frame = new Map();
  const params = fn.getParameters();
  // Arguments are read where the call is; defaults see the parameters bound before them.
  const given = args.map((arg) => arg());
  ev.frames.push(frame);
  try {
    for (const [i, param] of params.entries()) {
      if (param.isRestParameter() || !ev.Node.isIdentifier(param.getNameNode())) {
        return new values.Dynamic(call, "a call of a helper whose parameters pygen cannot bind");
      }
      const init = param.getInitializer();
      const value = i < given.length && given[i] !== values.UNDEFINED ? given[i]
        : init ? values.evaluate(ev, init) : values.UNDEFINED;
      frame.set(param, value);
    }
    const value = values.evaluate(ev, singleReturn(ev, fn));
    return ev.tripped ? new values.Dynamic(call, ev.tripped, true) : value;
  } finally {
    ev.frames.pop();
    if (!ev.frames.length) ev.tripped = null;
  }
}

/** `xs.map((x, i) => ({ … }))` (or `xs.map(helper)`) over a static array. */
function mapCall(ev, node, callee) {
  const [arg] = node.getArguments();
  const fn = arg && helperOf(ev, values.unwrap(ev.tsMorph, arg));
  const list = values.evaluate(ev, callee.getExpression());
  if (!Array.isArray(list) || !fn) {
    return list instanceof values.Dynamic ? values.atUse(list, node)
      : new values.Dynamic(node, "a function call");
  }
  const out = [];
  for (const [i, item] of list.entries()) {
    const value = invoke(ev, node, fn, [() => item, () => i]);
    if (value instanceof values.Dynamic) return relocate(value, node, "computed at run time");
    out.push(relocate(value, node, "computed at run time"));
  }
  return out;
}

/**
 * The values a helper call pushes onto its argument `index` (`addParams(this.inputs)` whose
 * body runs `inputs.push({ … })` or `inputs.push(...LIST)`), read from the body as written:
 * null unless the callee is a project function and every value pushed onto that parameter
 * is static data (a push inside a condition is pushed on every path: the fields exist,
 * whether they show is the descriptors' business).
 */
function pushedOnto(ev, call, index) {
  const { Node } = ev;
  const callee = values.unwrap(ev.tsMorph, call.getExpression());
  const fn = functionOf(ev, callee);
  const param = fn && fn.getParameters()[index];
  if (!param || !Node.isIdentifier(param.getNameNode())) return null;
  const name = param.getName();
  const out = [];
  for (const inner of fn.getDescendantsOfKind(ev.tsMorph.SyntaxKind.CallExpression)) {
    const target = inner.getExpression();
    if (!Node.isPropertyAccessExpression(target) || target.getName() !== "push") continue;
    const list = target.getExpression();
    if (!Node.isIdentifier(list) || list.getText() !== name) continue;
    for (const arg of inner.getArguments()) {
      const spread = Node.isSpreadElement(arg);
      const value = values.evaluateValue(ev, spread ? arg.getExpression() : arg);
      if (value instanceof values.Dynamic || (spread && !Array.isArray(value))) return null;
      if (spread) out.push(...value); else out.push(value);
    }
  }
  return out.length ? out : null;
}

/** The project function (declaration, arrow or function expression) a callee names. */
function functionOf(ev, callee) {
  const { Node } = ev;
  if (!Node.isIdentifier(callee)) return null;
  const symbol = callee.getSymbol();
  let decl = symbol && values.declarationOfSymbol(ev, symbol);
  if (decl && Node.isVariableDeclaration(decl)) {
    const init = decl.getInitializer();
    decl = init && values.unwrap(ev.tsMorph, init);
  }
  if (!decl || isLibFile(decl.getSourceFile()) || decl.getSourceFile().isDeclarationFile()) {
    return null;
  }
  return Node.isFunctionDeclaration(decl) || Node.isArrowFunction(decl)
    || Node.isFunctionExpression(decl) ? decl : null;
}

/**
 * `addParams(this.inputs)` in the constructor: the fields the helper pushes onto the member
 * are appended to it (a new array; evaluated values are shared, never changed).
 */
function helperPushes(ctx, ev, cls, value) {
  const { Node } = ctx.tsMorph;
  for (const ctor of cls.getConstructors()) {
    for (const statement of ctor.getStatements()) {
      const call = Node.isExpressionStatement(statement) && statement.getExpression();
      if (!call || !Node.isCallExpression(call)) continue;
      for (const [i, arg] of call.getArguments().entries()) {
        if (!Node.isPropertyAccessExpression(arg)
          || arg.getExpression().getKind() !== ctx.tsMorph.SyntaxKind.ThisKeyword) continue;
        const member = value[arg.getName()];
        if (!Array.isArray(member)) continue;
        const pushed = pushedOnto(ev, call, i);
        if (!pushed) continue;
        const grown = [...member, ...pushed];
        const from = ev.origins.get(member);
        if (from) ev.origins.set(grown, from);
        value[arg.getName()] = grown;
      }
    }
  }
}

module.exports = { evaluateCall, helperPushes, pushedOnto };
