// The origin app's own skill generator, its parsing part, as its script runs it under tsx: its
// definitions parser once, then its data-interface parser per node (`<Type>Data`, else
// `<Type>NodeData`). Run by bench/origin_app.py as `tsx origin_loop.mts PARSER NODES_FILE`;
// prints {nodes, found, ms}. The parser is the checkout's own module, imported from there.
const [, , parserPath, nodesFile] = process.argv;
const parser = await import(parserPath);
const pascal = (type: string): string => type.split(/[-_]/)
  .map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join("");
const start = performance.now();
const defs: { type: string }[] = parser.parseNodeDefinitions(nodesFile);
let found = 0;
for (const def of defs) {
  const shape = parser.parseDataInterface(nodesFile, `${pascal(def.type)}Data`)
    ?? parser.parseDataInterface(nodesFile, `${pascal(def.type)}NodeData`);
  if (shape) found += 1;
}
const ms = Math.round(performance.now() - start);
process.stdout.write(`${JSON.stringify({ nodes: defs.length, found, ms })}\n`);
