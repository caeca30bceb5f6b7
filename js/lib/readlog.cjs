// What the run read, as it read it: the sha256 of the exact bytes of every file read through
// `fs.readFileSync` (ts-morph, TypeScript and our own modules all read through it), and
// every path a lookup found missing. pygen's cache keys the reply by these: a hash taken
// again at the end of the run would describe a file saved meanwhile, not the one read; and
// a file created where the resolver looked (a nearer tsconfig.json, a `types.ts` beside
// `types/`, a `paths` fallback) changes what the same sources resolve to.
"use strict";

const crypto = require("crypto");
const fs = require("fs");

const hashes = new Map();
const missing = new Set();
// Files whose bytes differed between two reads of one run: the run saw an edit.
const unsettled = new Set();
let installed = false;

function key(file) {
  return typeof file === "string" ? file : Buffer.isBuffer(file) ? file.toString() : null;
}

function noted(file, data) {
  const name = key(file);
  if (name === null) return;
  const sha = crypto.createHash("sha256").update(data).digest("hex");
  const before = hashes.get(name);
  if (before !== undefined && before !== sha) unsettled.add(name);
  hashes.set(name, sha);
}

function absent(file, error) {
  const name = key(file);
  if (name !== null && (!error || error.code === "ENOENT" || error.code === "ENOTDIR")) {
    missing.add(name);
  }
}

/** Wraps the fs calls that read a file or look for one (idempotent). */
function install() {
  if (installed) return;
  installed = true;
  const { readFileSync, statSync, existsSync } = fs;
  fs.readFileSync = function logged(file, options) {
    if (typeof file === "number") return readFileSync.call(fs, file, options);
    const flag = options && typeof options === "object" ? options.flag : undefined;
    const data = readFileSync.call(fs, file, flag ? { flag } : undefined);
    noted(file, data);
    const encoding = typeof options === "string" ? options : options && options.encoding;
    return encoding ? data.toString(encoding) : data;
  };
  fs.statSync = function logged(file, options) {
    let result;
    try {
      result = statSync.call(fs, file, options);
    } catch (e) {
      absent(file, e);
      throw e;
    }
    if (result === undefined) absent(file, null);
    return result;
  };
  fs.existsSync = function logged(file) {
    const found = existsSync.call(fs, file);
    if (!found) absent(file, null);
    return found;
  };
}

/** Forgets what earlier runs of this process read: a run starts as in a fresh process. */
function reset() {
  hashes.clear();
  missing.clear();
  unsettled.clear();
}

/** The sha256 of a file's bytes as this run last read them, or undefined. */
function readHash(file) {
  return hashes.get(file);
}

/** Paths looked for and not found, and files read twice with different bytes. */
function probes() {
  return { missing: [...missing], unsettled: [...unsettled] };
}

module.exports = { install, reset, readHash, probes };
