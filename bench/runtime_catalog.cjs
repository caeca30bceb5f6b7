// Reads a compiled node package by running it: requires each node module, instantiates its
// class and prints one JSON line per node (type, label, version, descriptor list). Started by
// bench/real_catalogs.py under Node's permission model (reads anywhere, writes only to the
// temp folder it is given, no child processes) with a memory bound and a timeout; network
// connections are refused and browser-only imports (styles, images) are empty modules.
"use strict";

const fs = require("fs");
const path = require("path");
const Module = require("module");
const net = require("net");

// No network: a module that connects at load time gets an error, not a socket.
net.Socket.prototype.connect = function refuse() {
  throw new Error("network access is disabled while reading the catalog");
};
for (const ext of [".css", ".scss", ".svg", ".png", ".jpg", ".gif", ".woff", ".woff2"]) {
  Module._extensions[ext] = (module) => { module.exports = {}; };
}

// A package the catalog imports that is not installed (drivers, SDKs its nodes call at run
// time) is an inert stand-in: any property, call or `new` gives the stand-in again. The run
// lists each one, since a value read through one is not the package's.
const stubbed = new Set();

function standIn() {
  const target = function standInFunction() {};
  const proxy = new Proxy(target, {
    get(t, prop) {
      if (prop === "__esModule") return true;
      if (prop === "then" || prop === Symbol.iterator) return undefined;
      if (prop === Symbol.toPrimitive) return () => "";
      if (prop in t && prop !== "prototype" && prop !== "name") return t[prop];
      return proxy;
    },
    apply: () => proxy,
    construct: () => proxy,
  });
  return proxy;
}

const resolve = Module._resolveFilename;
Module._resolveFilename = function resolveOrStandIn(request, ...rest) {
  try {
    return resolve.call(this, request, ...rest);
  } catch (e) {
    const missing = e.code === "MODULE_NOT_FOUND" || e.code === "ERR_PACKAGE_PATH_NOT_EXPORTED";
    if (!missing || request.startsWith(".") || path.isAbsolute(request)) {
      throw e;
    }
    const key = `stand-in:${request}`;
    if (!Module._cache[key]) {
      const mod = new Module(key);
      mod.loaded = true;
      mod.exports = standIn();
      Module._cache[key] = mod;
      const parts = request.split("/");
      stubbed.add(parts.slice(0, request.startsWith("@") ? 2 : 1).join("/"));
    }
    return key;
  }
};

// Native addons cannot load under the permission model: a stand-in too.
Module._extensions[".node"] = (module, filename) => {
  stubbed.add(path.basename(filename));
  module.exports = standIn();
};

function emit(record) {
  process.stdout.write(JSON.stringify(record) + "\n");
}

function where(e) {
  return String((e && e.message) || e).split("\n")[0].slice(0, 200);
}

/**
 * The descriptions of an n8n node instance: one per version of a versioned one (each marked
 * `latest` or not), else its own, with the version it lists (the latest of a list).
 */
function n8nDescriptions(instance) {
  if (instance.nodeVersions && typeof instance.nodeVersions === "object") {
    const versions = Object.keys(instance.nodeVersions).map(Number).filter((v) => !isNaN(v));
    const latest = Math.max(...versions);
    const base = instance.description || {};
    return versions.map((version) => {
      const chosen = instance.nodeVersions[version];
      return { ...base, ...(chosen && chosen.description), version, versions,
        latest: version === latest, defaultVersion: base.defaultVersion };
    });
  }
  const d = instance.description || {};
  const versions = Array.isArray(d.version) ? d.version : [d.version];
  return [{ ...d, version: Math.max(...versions), versions, latest: true }];
}

/** The first exported class that constructs into a node (it has a description). */
function nodeInstance(mod) {
  let last = new Error("the module exports no class");
  for (const value of Object.values(mod)) {
    if (typeof value !== "function" || !value.prototype) continue;
    try {
      const instance = new value();
      if (instance && (instance.description || instance.nodeVersions)) return instance;
    } catch (e) {
      last = e;
    }
  }
  throw last;
}

function readN8n(root) {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
  const files = (manifest.n8n && manifest.n8n.nodes) || [];
  for (const rel of files) {
    const file = path.join(root, rel);
    try {
      const mod = require(file);
      for (const d of n8nDescriptions(nodeInstance(mod))) {
        // A class built by a package that is not installed has a stand-in's description.
        if (typeof d.name !== "string") {
          emit({ file: rel, error: "its description has no string name (built by a stand-in?)" });
          continue;
        }
        // The type as the class declares it, and the package it ships in: the bench writes
        // the type a workflow names with the `type_template` key, as `gen` does.
        emit({ file: rel, type: d.name, package: manifest.name, label: d.displayName,
          version: d.version, versions: d.versions || null, latest: d.latest,
          default_version: d.defaultVersion ?? null, fields: d.properties,
          inputs: d.inputs ?? null, outputs: d.outputs ?? null,
          output_names: d.outputNames ?? null });
      }
    } catch (e) {
      emit({ file: rel, error: where(e) });
    }
  }
}

function jsFiles(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...jsFiles(full));
    else if (entry.name.endsWith(".js")) out.push(full);
  }
  return out.sort();
}

function readFlowise(root) {
  for (const file of jsFiles(path.join(root, "dist", "nodes"))) {
    const rel = path.relative(root, file);
    try {
      const mod = require(file);
      if (!mod || typeof mod.nodeClass !== "function") continue;
      const node = new mod.nodeClass();
      emit({ file: rel, type: node.name, label: node.label, version: node.version,
        fields: node.inputs });
    } catch (e) {
      emit({ file: rel, error: where(e) });
    }
  }
}

const [kind, root] = process.argv.slice(2);
if (kind === "n8n") readN8n(root);
else readFlowise(root);
emit({ stubbed: [...stubbed].sort(), max_rss_kb: process.resourceUsage().maxRSS });
