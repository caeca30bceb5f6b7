// One extraction run: the project, its definitions entries, each node's data type and its
// fields, and the reply document with the diagnostics and the files read.
"use strict";

const { UserError } = require("./errors.cjs");
const { isStackOverflow, tooDeep } = require("./depth.cjs");
const { makeProject, assertParses, sourcesRead } = require("./project.cjs");
const { definitionEntries, readEntry } = require("./definitions.cjs");
const { newEvaluation } = require("./values.cjs");
const { typeIndex, resolveDataType, unresolvedMessage } = require("./datatypes.cjs");
const { typeReader, readDataType } = require("./types.cjs");

function extract(tsMorph, request) {
  const built = { project: null };
  try {
    return run(tsMorph, request, built);
  } catch (e) {
    if (!isStackOverflow(e)) throw e;
    const files = built.project ? built.project.getSourceFiles().map((sf) => sf.getFilePath())
      : [];
    throw tooDeep(request, files);
  }
}

function run(tsMorph, request, built) {
  const { project, sourceFile, consulted } = makeProject(tsMorph, request);
  built.project = project;
  assertParses(project);
  const ctx = { tsMorph, project, sourceFile, consulted, request, diagnostics: [] };
  const ev = newEvaluation(tsMorph);
  ctx.index = typeIndex(ctx);
  const tc = typeReader(tsMorph, ctx);
  const entries = definitionEntries(ctx, ev);
  const nodes = [];
  const seen = new Map();
  // Nodes sharing a data type share its reading.
  const shapes = new Map();
  for (const entry of entries) {
    const node = readEntry(ctx, entry);
    if (seen.has(node.type)) {
      throw new UserError(entry.node,
        `duplicate node type '${node.type}' (first defined at ${seen.get(node.type)})`);
    }
    seen.set(node.type, `${node.source.file}:${node.source.line}`);
    node.data_type = dataType(ctx, tc, shapes, node);
    nodes.push(node);
  }
  return { ok: true, nodes, sources: sourcesRead(ctx), diagnostics: ctx.diagnostics };
}

function dataType(ctx, tc, shapes, node) {
  const found = resolveDataType(ctx, node);
  if (found && found.decl) {
    if (!shapes.has(found.decl)) shapes.set(found.decl, readDataType(tc, found.decl));
    const shape = shapes.get(found.decl);
    return {
      name: found.decl.getName(), via: found.via, score: found.score,
      fields: shape.fields, variants: shape.variants,
    };
  }
  const near = found && found.near && found.score > 0 ? found : null;
  ctx.diagnostics.push({
    level: "warning", node_type: node.type, file: node.source.file, line: node.source.line,
    message: unresolvedMessage(node, near),
  });
  return { name: null, via: "none", score: near ? near.score : null, fields: [], variants: [] };
}

module.exports = { extract };
