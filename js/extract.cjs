#!/usr/bin/env node
// pygen's Node side, the entry: reads a JSON request on stdin, loads ts-morph once, and prints
// exactly one JSON document on stdout: the node definitions with their resolved data types,
// or structured errors. Nothing else is ever written to stdout. The work is in lib/.
// With `--serve` it answers one request per stdin line with one reply line, until stdin ends:
// `pygen init` confirms several candidates with one process, so TypeScript loads once and its
// compiled code stays warm (pygen/extract/warm.py).
"use strict";

const fs = require("fs");

const PROTOCOL = 1;

// stdout carries the reply and nothing else, whatever a dependency might log.
console.log = console.info = console.debug = console.warn;

/** ts-morph and the extractor, or null when ts-morph cannot be loaded. */
function load() {
  try {
    const tsMorph = require("ts-morph");
    const { failure } = require("./lib/errors.cjs");
    const { extract } = require("./lib/extractor.cjs");
    return { tsMorph, failure, extract };
  } catch {
    return null;
  }
}

function main() {
  // Loaded before the request is read: pygen may start this process early and write the
  // request once its config is read, so loading TypeScript overlaps with that.
  const loaded = load();
  if (process.argv.includes("--serve")) return serve(loaded);
  answer(loaded, fs.readFileSync(0, "utf8"), "");
}

/** One reply line per request line; each request is answered as a fresh process would. */
function serve(loaded) {
  require("./lib/sharedparse.cjs").shareParses();
  const lines = require("readline").createInterface({ input: process.stdin, terminal: false });
  lines.on("line", (line) => {
    if (!line.trim()) return;
    answer(loaded, line, "\n");
    // The last request's program is garbage now: collected before the next is built, the
    // process's peak stays that of its largest run, not of two (pygen gives --expose-gc).
    if (global.gc) global.gc();
  });
}

/** Writes the reply to one request, then `end`. */
function answer(loaded, input, end) {
  let request;
  try {
    request = JSON.parse(input);
  } catch (e) {
    return reply({ ok: false, errors: [{ message: `bad request JSON: ${e.message}` }] }, end);
  }
  if (!loaded) {
    return reply({
      ok: false, errors: [{ code: "no-ts-morph", message: "ts-morph is not installed" }],
    }, end);
  }
  const { tsMorph, failure, extract } = loaded;
  try {
    if (request.mode === "load-maps") {
      // The maps a load step declares (pygen.extract.load_step): syntax only, no program.
      const { readLoadMaps } = require("./lib/loadmaps.cjs");
      return reply(readLoadMaps(tsMorph.ts, request), end);
    }
    reply(extract(tsMorph, request), end);
  } catch (e) {
    reply({ ok: false, errors: [failure(request, e)] }, end);
  }
}

function reply(doc, end = "") {
  doc.protocol = PROTOCOL;
  process.stdout.write(JSON.stringify(doc) + end);
}

main();
