#!/usr/bin/env node
// pygen's Node side, the entry: reads a JSON request on stdin, loads ts-morph once, and prints
// exactly one JSON document on stdout: the node definitions with their resolved data types,
// or structured errors. Nothing else is ever written to stdout. The work is in lib/.
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
  const input = fs.readFileSync(0, "utf8");
  let request;
  try {
    request = JSON.parse(input);
  } catch (e) {
    return reply({ ok: false, errors: [{ message: `bad request JSON: ${e.message}` }] });
  }
  if (!loaded) {
    return reply({
      ok: false, errors: [{ code: "no-ts-morph", message: "ts-morph is not installed" }],
    });
  }
  const { tsMorph, failure, extract } = loaded;
  try {
    if (request.mode === "load-maps") {
      // The maps a load step declares (pygen.extract.load_step): syntax only, no program.
      const { readLoadMaps } = require("./lib/loadmaps.cjs");
      return reply(readLoadMaps(tsMorph.ts, request));
    }
    reply(extract(tsMorph, request));
  } catch (e) {
    reply({ ok: false, errors: [failure(request, e)] });
  }
}

function reply(doc) {
  doc.protocol = PROTOCOL;
  process.stdout.write(JSON.stringify(doc));
}

main();
