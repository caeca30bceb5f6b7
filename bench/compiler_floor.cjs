// What the TypeScript compiler alone costs on the program pygen builds: the same files
// (js/lib/project.cjs, fed the request `pygen extract` sends on stdin), the checker, and the
// type of every property of the data types pygen read (`dataTypeNames`, added to the request
// by the bench), as text. No pygen reading: bench.origin_app prints it beside pygen's cold extract, as the
// floor any extraction that resolves types through the checker pays on these files.
"use strict";

const path = require("path");
const tsMorph = require("ts-morph");
const { makeProject } = require(path.join(__dirname, "..", "js", "lib", "project.cjs"));
const { loadSources } = require(path.join(__dirname, "..", "js", "lib", "sourcefiles.cjs"));

function ms(from) {
  return Math.round(performance.now() - from);
}

function typeTexts(ts, checker, files, names) {
  let fields = 0;
  const statements = files.filter((f) => !f.isDeclarationFile).flatMap((f) => f.statements);
  for (const statement of statements) {
    if (!ts.isInterfaceDeclaration(statement) && !ts.isTypeAliasDeclaration(statement)) continue;
    if (!names.has(statement.name.text)) continue;
    const type = checker.getTypeAtLocation(statement.name);
    for (const prop of type.getProperties()) {
      const propType = checker.getTypeOfSymbolAtLocation(prop, statement);
      checker.typeToString(propType);
      if (propType.isUnion()) propType.types.forEach((t) => checker.typeToString(t));
      fields += 1;
    }
  }
  return fields;
}

function main(request) {
  const start = performance.now();
  const made = makeProject(tsMorph, request);
  loadSources({ ...made, tsMorph, request, diagnostics: [], groups: [], entryKeys: new Set() });
  const program = made.project.getProgram().compilerObject;
  const programMs = ms(start);
  const checkStart = performance.now();
  const checker = program.getTypeChecker();
  const checkerMs = ms(checkStart);
  const typesStart = performance.now();
  const files = program.getSourceFiles();
  const fields = typeTexts(tsMorph.ts, checker, files, new Set(request.dataTypeNames));
  return {
    program: programMs, checker: checkerMs, types: ms(typesStart), fields,
    files: files.length, chars: files.reduce((n, f) => n + f.text.length, 0),
  };
}

let input = "";
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  process.stdout.write(JSON.stringify(main(JSON.parse(input))));
});
