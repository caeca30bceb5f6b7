// A Node-RED node's editor side is often not a module but a `<script type="text/javascript">`
// block of its .html file, calling the page's global `RED.nodes.registerType(…)`. Those blocks
// are read as source files of their own, named `<file>.html` + SCRIPT_SUFFIX, whose text is the
// html's with everything outside the blocks blanked (newlines kept): a node read there is
// placed at its line of the .html file, and `rel` (util.cjs) names the .html file itself.
"use strict";

const fs = require("fs");
const { SCRIPT_SUFFIX } = require("./util.cjs");
const { packageFiles } = require("./packagemap.cjs");

const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
// `text/html` (the edit dialog's template) and `text/markdown` (the help) hold no code.
const CODE_TYPE = /^(?:text\/javascript|application\/javascript|module)$/i;
const TYPE_ATTR = /\btype\s*=\s*["']?([^"'\s>]+)/i;

/** The html's text with only its code blocks' contents left, at their own offsets. */
function scriptText(html) {
  const keep = new Array(html.length).fill(false);
  for (const match of html.matchAll(SCRIPT)) {
    const type = TYPE_ATTR.exec(match[1]);
    if (type && !CODE_TYPE.test(type[1])) continue;
    const start = match.index + match[0].indexOf(">") + 1;
    for (let i = start; i < start + match[2].length; i += 1) keep[i] = true;
  }
  let out = "";
  for (let i = 0; i < html.length; i += 1) {
    out += keep[i] || html[i] === "\n" || html[i] === "\r" ? html[i] : " ";
  }
  return out;
}

/** Adds the code blocks of the `.html` files in `dirs` whose code names one of `names`. */
function addHtmlScripts(ctx, dirs, names) {
  const { ts } = ctx.tsMorph;
  for (const file of packageFiles(ts, dirs, [".html"])) {
    // Listed among the sources read: a registration added to it invalidates the cache.
    ctx.consulted.add(file);
    let text;
    try {
      text = scriptText(fs.readFileSync(file, "utf8"));
    } catch {
      continue;
    }
    if (names.some((name) => text.includes(name))) {
      ctx.project.createSourceFile(file + SCRIPT_SUFFIX, text, { overwrite: true });
    }
  }
}

module.exports = { addHtmlScripts, scriptText };
