// What an evaluated value is: static data, or a Dynamic saying why it is not; and how a value
// becomes plain JSON with each Dynamic taken out and reported by its key path.
"use strict";

/**
 * A value that is not static data (a call, a JSX component, an unresolvable name). `limit`
 * marks one the evaluator gave up on because it ran into its depth or step bound.
 */
class Dynamic {
  constructor(node, why, limit = false) {
    this.node = node;
    this.why = why;
    this.limit = limit;
  }
}

// Where an object keeps the spreads it could not read (`...GENRE_DEFAULTS`): its static keys
// stay data, each such spread is listed as computed.
const SPREADS = Symbol("spreads");

// `undefined` written in the source: kept apart from a missing key until JSON is written.
const UNDEFINED = Symbol("undefined");

function isPlainData(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    && !(value instanceof Dynamic);
}

/** First Dynamic found anywhere inside a value, with the key path to it, or null. */
function findDynamic(value, at = []) {
  const all = [];
  strip(value, at, all);
  return all[0] || null;
}

/**
 * The value without what is not static data, and each Dynamic removed with its key path in
 * `found`: a Dynamic key or array element is dropped, a spread that could not be read is
 * listed at its object's path.
 */
function strip(value, at, found) {
  if (value instanceof Dynamic) {
    found.push({ dynamic: value, path: at });
    return undefined;
  }
  if (Array.isArray(value)) {
    const out = [];
    value.forEach((item, i) => {
      const kept = strip(item, [...at, i], found);
      if (!(item instanceof Dynamic)) out.push(kept);
    });
    return out;
  }
  if (!value || typeof value !== "object") return value;
  const out = {};
  for (const dynamic of value[SPREADS] || []) found.push({ dynamic, path: at });
  for (const key of Object.keys(value)) {
    const kept = strip(value[key], [...at, key], found);
    if (kept !== undefined) out[key] = kept;
  }
  return out;
}

/** Plain JSON: `undefined` properties dropped, the way JSON.stringify treats them. */
function toJson(value) {
  if (value === UNDEFINED) return undefined;
  if (Array.isArray(value)) return value.map((item) => (item === UNDEFINED ? null : toJson(item)));
  if (value && typeof value === "object") {
    const out = {};
    for (const key of Object.keys(value)) {
      if (value[key] !== UNDEFINED) out[key] = toJson(value[key]);
    }
    return out;
  }
  return value;
}

module.exports = { Dynamic, SPREADS, UNDEFINED, isPlainData, findDynamic, strip, toJson };
