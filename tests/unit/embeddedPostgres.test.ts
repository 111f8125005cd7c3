/**
 * Loading the embedded PostgreSQL keeps a process's exit code: its exit hook ended every process whose
 * work was done with exit code 0, so a test run with the PostgreSQL pass exited 0 with failed tests.
 */
import { spawnSync } from 'node:child_process';
import { expect, it } from 'vitest';

/** A Node process that loads the package as the tests' PostgreSQL does, then sets its exit code and ends. */
const exitCodeAfterLoading = (code: number) =>
  spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', `
    const { loadEmbeddedPostgres } = await import('./server/dev/embeddedPostgres.ts');
    await loadEmbeddedPostgres();
    process.exitCode = ${code};
  `], { encoding: 'utf8' });

it.each([1, 0])('a process that loaded it ends with the exit code it set (%i)', (code) => {
  const run = exitCodeAfterLoading(code);
  expect(run.stderr).toBe('');
  expect(run.status).toBe(code);
});
