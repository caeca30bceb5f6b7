// Handles of a node definition in every shape catalogs write them: ids, objects, a record
// keyed by id, `{ count: N }` or a bare N (unnamed handles, id null), `{ ids: [...] }`. A handle's
// declared type (`type`, `dataType`, or the configured key) is kept for connection checks, and
// so are the connection rules a handle states: what an input accepts (`accepts`), what an
// output may connect to (`connectsTo`); both keys are configurable in entry_fields.
"use strict";

// React Flow's own `type` of a handle says which end it is, not what flows through it.
const HANDLE_ENDS = new Set(["source", "target"]);

/**
 * The handles of one side of a definition (already JSON); `problems` gets the handles that
 * are unreadable, `ruleProblems` the connection rules that are (the handle itself is kept).
 */
function readHandles(f, value, problems, side = "inputs", ruleProblems = problems) {
  const one = (h, id, i) => oneHandle({ ...f, side, ruleProblems }, h, id, i, problems);
  if (value === undefined || value === null) return [];
  if (Number.isInteger(value) && value >= 0) return unnamed(value);
  if (Array.isArray(value)) return value.flatMap((h, i) => one(h, null, i));
  if (typeof value !== "object") {
    problems.push(`${JSON.stringify(value)} is not a list of handles`);
    return [];
  }
  if (Number.isInteger(value.count) && value.count >= 0) return unnamed(value.count);
  if (Array.isArray(value.ids)) {
    return value.ids.flatMap((h, i) => one(h, null, i));
  }
  return Object.keys(value).flatMap((id, i) => one(value[id], id, i));
}

/** `count` unnamed handles (an edge reaches one by naming no handle). */
function unnamed(count) {
  return Array.from({ length: count }, () => ({ id: null, label: null, type: null }));
}

/** One handle: a string id, an object with an id, or a record value under its id. */
function oneHandle(f, h, id, index, problems) {
  if (typeof h === "string") {
    return [id === null ? { id: h, label: null, type: null } : { id, label: h, type: null }];
  }
  if (id !== null && (h === true || h === null)) return [{ id, label: null, type: null }];
  const own = h && typeof h === "object" && !Array.isArray(h) ? h[f.handle_id] : undefined;
  const handleId = id !== null ? id : own;
  if (typeof handleId !== "string" || !h || typeof h !== "object") {
    problems.push(`[${index}] ${JSON.stringify(h)} is neither a string nor an object with a `
      + `string '${f.handle_id}'`);
    return [];
  }
  const label = typeof h[f.handle_label] === "string" ? h[f.handle_label] : null;
  const out = { id: handleId, label, type: handleType(f, h) };
  const [key, name] = f.side === "outputs" ? ["connects_to", f.connects_to]
    : ["accepts", f.handle_accepts];
  const rule = name === false ? null : ruleList(h[name], (why) => f.ruleProblems.push(
    `'${name}' of ${f.side === "outputs" ? "output" : "input"} '${handleId}' ${why}`));
  if (rule) out[key] = rule;
  const limit = f.side === "inputs" && f.handle_limit ? h[f.handle_limit] : undefined;
  if (Number.isInteger(limit) && limit >= 1) out.limit = limit;
  return [out];
}

/**
 * A connection rule: node types or handle types, as a list (or one string). Empty or
 * unreadable: no rule (`why` says what was wrong), so a catalog's slip never rejects a wire.
 */
function ruleList(value, why) {
  if (value === undefined || value === null) return null;
  const list = typeof value === "string" ? [value] : value;
  if (!Array.isArray(list) || list.some((v) => typeof v !== "string")) {
    why(`is ${JSON.stringify(value)}, not a list of node or handle types`);
    return null;
  }
  return list.length ? [...new Set(list)] : null;
}

function handleType(f, h) {
  if (f.handle_type) return typeof h[f.handle_type] === "string" ? h[f.handle_type] : null;
  if (typeof h.type === "string" && !HANDLE_ENDS.has(h.type)) return h.type;
  return typeof h.dataType === "string" ? h.dataType : null;
}

module.exports = { readHandles, ruleList };
