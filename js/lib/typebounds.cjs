// Bounds on reading one type, so recursive and very large types cost a fixed amount: a type
// nested past MAX_REF_DEPTH, a union or array that contains itself (`type Json = string |
// Json[]`), or a union of more than MAX_UNION_MEMBERS members is written as its name, with
// one warning per type and data type; a field's type text past MAX_TYPE_TEXT is shortened.
"use strict";

const { diagnosticAt } = require("./errors.cjs");

const MAX_REF_DEPTH = 12;
const MAX_UNION_MEMBERS = 300;
const MAX_TYPE_TEXT = 300;
// The kind of every diagnostic here, for the summary of a run.
const KIND = "large-type";
// The refs cutRef made, which the leaf cache must not keep.
const cuts = new WeakSet();

function isCut(ref) {
  return cuts.has(ref);
}

/** Why this type is not read member by member here, or null when it is. */
function cutReason(type, at) {
  if (at.depth > MAX_REF_DEPTH) return `nested deeper than ${MAX_REF_DEPTH} levels`;
  if (type.isUnion()) {
    const count = type.getUnionTypes().length;
    if (count > MAX_UNION_MEMBERS) return `a union of ${count} members`;
  }
  const key = type.compilerType;
  const compound = type.isUnion() || type.isArray() || type.isTuple() || type.isIntersection();
  if (compound && at.stack.some((t) => t.compilerType === key)) return "recursive";
  return null;
}

/** The stand-in for a type cut short: a string when every member is a string literal (what
 * validation can still check), else unknown; named, so the reader sees which type it is. */
function cutRef(tc, type, name, at, reason) {
  const members = type.isUnion() ? type.getUnionTypes() : [];
  const strings = members.length > 0 && members.every((m) => m.isStringLiteral());
  const shown = name || (strings ? "string" : "unknown");
  note(tc, at.where, name ? `type '${name}' (${reason}) is written as its name`
    : `a type (${reason}) is written as '${shown}'`);
  const ref = strings ? { kind: "string", name: name || null } : { kind: "unknown", name: shown };
  cuts.add(ref);
  return ref;
}

function note(tc, node, what, after = "its members are not listed") {
  const key = `${tc.owner}\u0000${what}`;
  if (tc.noted.has(key)) return;
  tc.noted.add(key);
  const owner = tc.owner ? `${tc.owner}: ` : "";
  tc.ctx.diagnostics.push(diagnosticAt(tc.ctx, node, `${owner}${what}; ${after}`, KIND));
}

/** A field's type text within MAX_TYPE_TEXT: the type's name, else the text shortened (its
 * structure is read whole: the nested fields and the schema document keep every member). */
function boundedText(tc, text, ref, node) {
  if (text.length <= MAX_TYPE_TEXT) return text;
  if (ref.name) return ref.name;
  if (!isCut(ref)) {
    note(tc, node, `a type written in ${text.length} characters is shortened to its first `
      + `${MAX_TYPE_TEXT} in the skill`, "the schema document holds it whole; a named type "
      + "(an alias or interface) would be shown by its name");
  }
  return `${text.slice(0, MAX_TYPE_TEXT)}…`;
}

module.exports = { cutReason, cutRef, isCut, boundedText, MAX_UNION_MEMBERS, MAX_REF_DEPTH };
