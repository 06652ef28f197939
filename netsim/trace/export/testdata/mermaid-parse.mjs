// Parses Mermaid diagrams with Mermaid's own parser, as a renderer would.
// Usage: node mermaid-parse.mjs NODE_MODULES FILE...
// Prints "ok FILE" or "error FILE: message" per file; exits 1 if any failed.
import { pathToFileURL } from 'node:url';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const mods = process.argv[2];
const load = (p) => import(pathToFileURL(path.join(mods, p)).href);
const { JSDOM } = await load('jsdom/lib/api.js');
const dom = new JSDOM('<!doctype html><html><body></body></html>');
globalThis.window = dom.window;
globalThis.document = dom.window.document;
const mermaid = (await load('mermaid/dist/mermaid.core.mjs')).default;
mermaid.initialize({ startOnLoad: false });

let bad = 0;
for (const f of process.argv.slice(3)) {
  const text = readFileSync(f, 'utf8');
  try {
    await mermaid.parse(text);
    console.log('ok ' + f);
  } catch (e) {
    bad++;
    console.log('error ' + f + ': ' + String(e.message ?? e).split('\n').join(' '));
  }
}
process.exit(bad ? 1 : 0);
