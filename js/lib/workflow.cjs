// The editor's type of a whole workflow document (config `workflow_type`): read like a node's
// data type, so validation knows the top-level keys beside `nodes` and `edges` (`settings`).
// Degrades per value: a type that cannot be found is one warning and no `workflow` in the reply.
"use strict";

const { readDataType } = require("./types.cjs");

/** Add the file the config names (`path/workflow.ts:Workflow`) before the type index is built. */
function addWorkflowFile(ctx) {
  const wanted = ctx.request.workflowType;
  if (!wanted || !wanted.file) return;
  try {
    ctx.project.addSourceFileAtPath(wanted.file);
    ctx.project.resolveSourceFileDependencies();
  } catch {
    warn(ctx, `workflow_type file ${wanted.file} cannot be read; top-level workflow keys `
      + "are not checked");
  }
}

function readWorkflowType(ctx, tc) {
  const wanted = ctx.request.workflowType;
  if (!wanted) return null;
  const found = ctx.index.get(wanted.name);
  if (!found) {
    warn(ctx, `workflow_type '${wanted.name}' is not an interface or type alias the project `
      + "declares; top-level workflow keys are not checked");
    return null;
  }
  const decl = found[0].decl;
  const shape = readDataType(tc, decl);
  return { name: decl.getName(), via: "config", score: null, fields: shape.fields,
    variants: shape.variants };
}

function warn(ctx, message) {
  ctx.diagnostics.push({ level: "warning", message });
}

module.exports = { addWorkflowFile, readWorkflowType };
