// The baseline pygen is timed against in bench.heavy_extract: a skill generator written the
// way editors write their own: a ts-morph Project from the app's tsconfig with all its files,
// then a loop over the registry's entries reading each node's `*Data` type with the checker,
// printing one Markdown section per node. Run as `node heavy_baseline.cjs APP_ROOT`.
"use strict";

const path = require("path");
const { Project, Node } = require("ts-morph");

function dataTypeOf(definition) {
  const file = definition.getSourceFile();
  const typed = definition.getTypeNode();
  const arg = typed && Node.isTypeReference(typed) ? typed.getTypeArguments()[0] : null;
  const name = arg ? arg.getText() : null;
  const decl = name && (file.getInterface(name) || file.getTypeAlias(name));
  return decl ? decl.getType() : null;
}

function fieldLines(type, at) {
  return type.getProperties().map((prop) => {
    const decl = prop.getValueDeclaration() || prop.getDeclarations()[0];
    const text = prop.getTypeAtLocation(at).getText(at);
    const docs = decl && Node.isJSDocable(decl)
      ? decl.getJsDocs().map((d) => d.getDescription().trim()).join(" ") : "";
    return `- \`${prop.getName()}\`: \`${text}\`${docs ? ` — ${docs}` : ""}`;
  });
}

function main(root) {
  const project = new Project({ tsConfigFilePath: path.join(root, "tsconfig.json") });
  const registry = project.getSourceFileOrThrow(path.join(root, "src/lib/nodes/registry.ts"));
  const list = registry.getVariableDeclarationOrThrow("NODE_DEFINITIONS").getInitializer();
  const array = Node.isAsExpression(list) ? list.getExpression() : list;
  const out = [];
  for (const element of array.getElements()) {
    const symbol = element.getSymbolOrThrow();
    const definition = (symbol.getAliasedSymbol() || symbol).getValueDeclarationOrThrow();
    const entry = definition.getInitializerOrThrow();
    const type = entry.getPropertyOrThrow("type").getInitializerOrThrow().getLiteralValue();
    const dataType = dataTypeOf(definition);
    out.push(`## ${type}`, ...(dataType ? fieldLines(dataType, definition) : []), "");
  }
  process.stdout.write(`${out.join("\n")}\n`);
}

main(process.argv[2]);
