// Where a node's data fields are declared and its default data values are written, so a
// finding on the code itself (a default its type rejects) can name both places.
"use strict";

const { locate } = require("./errors.cjs");
const values = require("./values.cjs");
const { fieldValue } = require("./entrypath.cjs");

function place(ctx, node) {
  const { file, line } = locate(ctx.request, node, "");
  return { file, line };
}

/** Field name → where the data type declares it (its own or an inherited property). */
function fieldPlaces(ctx, decl) {
  const out = {};
  for (const symbol of decl.getType().getProperties()) {
    const declared = symbol.getValueDeclaration() || symbol.getDeclarations()[0];
    if (declared) out[symbol.getName()] = place(ctx, declared);
  }
  return out;
}

/** Default data key → where the entry's default data object literal writes it. */
function defaultPlaces(ctx, ev, entry) {
  const raw = entry.value;
  const data = fieldValue(raw, ctx.request.entryFields.default_data);
  const literal = values.origin(ev, data);
  const out = {};
  if (!literal || !ctx.tsMorph.Node.isObjectLiteralExpression(literal)) return out;
  for (const prop of literal.getProperties()) {
    const name = prop.getSymbol && prop.getSymbol();
    if (name && !ctx.tsMorph.Node.isSpreadAssignment(prop)) out[name.getName()] = place(ctx, prop);
  }
  return out;
}

/** Both, for one node; `decl` is its data type's declaration when one was found. */
function nodePlaces(ctx, ev, entry, decl) {
  return { fields: decl ? fieldPlaces(ctx, decl) : {}, defaults: defaultPlaces(ctx, ev, entry) };
}

module.exports = { nodePlaces };
