/**
 * The build takes React as an ES module: code that imports React (as a namespace, by default or by
 * name) refers to React's own functions, with no copy of React's exports read through getters made
 * for it, and a CommonJS package's `require('react')` still gets React itself.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { build, type Plugin, type Rolldown } from 'vite';
import viteConfig from '../../vite.config';

/** React's production build, as the build bundles it. */
const reactFile = path.join(path.dirname(createRequire(import.meta.url).resolve('react/package.json')), 'cjs', 'react.production.js');
const React = createRequire(import.meta.url)(reactFile) as Record<string, unknown>;

/** A page's code in small: ES modules importing React each way, and a CommonJS package requiring it. */
const FILES: Record<string, string> = {
  '\0entry.js': [
    "import * as Namespace from 'react';",
    "import Default, { useState, createElement } from 'react';",
    "import legacy from '\0legacy.cjs';",
    'export const readings = { fromNamespace: Namespace.useState, spread: { ...Namespace }.useId, fromDefault: Default, named: useState, createElement, legacy };',
  ].join('\n'),
  '\0legacy.cjs': "module.exports = { react: require('react') };",
};

async function built(): Promise<string> {
  const config = await (viteConfig as (env: { command: 'build'; mode: string }) => { plugins: Plugin[] })({ command: 'build', mode: 'production' });
  const plugin = config.plugins.flat().find((p) => p.name === 'react-as-module');
  expect(plugin).toBeDefined();
  const fixture: Plugin = {
    name: 'fixture',
    resolveId: (id) => (id in FILES ? id : null),
    load: (id) => FILES[id] ?? null,
  };
  const output = (await build({
    configFile: false,
    logLevel: 'silent',
    root: process.cwd(),
    // As `vite build` runs (the tests run with NODE_ENV=test): React's production build.
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    plugins: [plugin!, fixture],
    build: { write: false, minify: false, rollupOptions: { input: '\0entry.js', preserveEntrySignatures: 'strict' } },
  })) as Rolldown.RolldownOutput;
  const chunks = output.output.filter((o): o is Rolldown.OutputChunk => o.type === 'chunk');
  expect(chunks).toHaveLength(1);
  return chunks[0].code;
}

describe('React as an ES module in the build', () => {
  it('gives every import React\'s own functions, with no getters made to read them', async () => {
    const code = await built();
    // React's exports are taken once, by the module that exports them by name, and read from there:
    // no importer reads one through the build's copy of React (`import_react.useState`, a getter).
    expect(code.match(/__toESM\(require_react\(\)/g)).toHaveLength(1);
    expect(code.match(/\bimport_react\.(?!default\b)\w+/g)).toBeNull();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'react-as-module-'));
    try {
      const file = path.join(dir, 'entry.mjs');
      fs.writeFileSync(file, code);
      const { readings } = (await import(pathToFileURL(file).href)) as { readings: Record<string, unknown> };
      // The bundle holds its own copy of React's code: its functions are compared with each other.
      const own = readings.fromDefault as Record<string, unknown>;
      expect(Object.keys(own).sort()).toEqual(Object.keys(React).sort());
      expect(readings.fromNamespace).toBe(own.useState);
      expect(readings.named).toBe(own.useState);
      expect(readings.createElement).toBe(own.createElement);
      expect(readings.spread).toBe(own.useId);
      // require('react') in CommonJS is React itself, the object every import reads.
      expect((readings.legacy as { react: unknown }).react).toBe(own);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
