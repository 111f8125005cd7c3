/**
 * The build takes Emotion's `styled` without its tag shorthands (`styled.div`, made for 136 tags as
 * the package loads): Material UI's call, `styled(tag)(styles)`, gets the same function, and the
 * shorthands' table is not in the build.
 */
import { describe, expect, it } from 'vitest';
import { build, type Rolldown } from 'vite';
import viteConfig from '../../vite.config';

/** Built as `vite build` builds: Material UI's styled engine's import, and a use of it. */
async function built(command: 'build' | 'serve'): Promise<string> {
  const config = await (viteConfig as (env: { command: string; mode: string }) => { resolve: { alias: unknown } })({ command, mode: 'production' });
  const entry = '\0entry.js';
  const output = (await build({
    configFile: false,
    logLevel: 'silent',
    root: process.cwd(),
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    resolve: { alias: config.resolve.alias as [] },
    plugins: [{ name: 'fixture', resolveId: (id) => (id === entry ? id : null), load: (id) => (id === entry ? "import styled from '@emotion/styled';\nexport const Box = styled('div')({ color: 'red' });" : null) }],
    build: { write: false, minify: false, rollupOptions: { input: entry, preserveEntrySignatures: 'strict', external: ['react', 'react/jsx-runtime'] } },
  })) as Rolldown.RolldownOutput;
  return output.output.filter((o): o is Rolldown.OutputChunk => o.type === 'chunk').map((c) => c.code).join('\n');
}

/** The last of Emotion's shorthand tags, in its table. */
const SHORTHANDS = /"tspan"\s*\]/;

describe("Emotion's styled in the build", () => {
  it('is its base function, without the tag shorthands', async () => {
    const code = await built('build');
    expect(code).toMatch(/function createStyled\b/);
    expect(code).not.toMatch(SHORTHANDS);
  });

  it('would bring the shorthands without the build step (the check above can fail)', async () => {
    expect(await built('serve')).toMatch(SHORTHANDS);
  });
});
