/**
 * Production runs the server compiled to JavaScript with plain node (`npm run build`, then
 * `npm start` / `npm run serve`): the build is made, starts without tsx, reads every resource file
 * and hook file (an entity's hook answers), and signs in.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { registry } from '../../server/registry';
import { startProcess, type ServerProcess } from '../../server/dev/process';
import { demo } from './harness';

const run = promisify(execFile);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'marketplace-compiled-'));
let server: ServerProcess | undefined;
afterAll(async () => {
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the compiled server', () => {
  it('is what npm start and npm run serve run, with plain node', () => {
    const scripts = (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.serve).toBe('node build/server/main.js');
    expect(scripts.start).toMatch(/^npm run build && .*node build\/server\/main\.js$/);
    expect(scripts.build).toContain('npm run build:server');
  });

  it('builds, starts without tsx, serves every entity and its hooks, and signs in', async () => {
    await run(process.execPath, ['--import', 'tsx', 'server/dev/build.ts']);
    const main = fs.readFileSync('build/server/main.js', 'utf8');
    expect(main).not.toMatch(/from ["']tsx/);
    server = await startProcess({ DATA_DIR: dir }, { compiled: true });
    expect(server.child.spawnargs).toEqual([process.execPath, 'build/server/main.js']);
    // The demo accounts are the users' demo rows, built by resources/users/demo.ts: bundled with the server.
    const token = await server.login(demo.admin.email, demo.admin.password);
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    for (const entity of registry.entities.filter((e) => !e.ownRoutes && Object.values(e.rules).some((r) => r !== 'none'))) {
      expect(doc.paths[entity.list], entity.name).toBeDefined();
    }
    // The categories hooks (server/hooks/categories.ts): a save naming an existing category adds its
    // subcategory to that category instead of making a second one.
    const made = await server.post('/category', { name: 'Compiled', subcategory_name: 'First', commission_currency: 'USD', commission_flat_rate: 2 }, token);
    expect(made.body).toMatchObject({ status: true });
    const again = await server.post('/category', { name: 'compiled', subcategory_name: 'Second', commission_currency: 'USD', commission_flat_rate: 2 }, token);
    expect(again.body).toMatchObject({ status: true, detail: { id: made.body.detail.id } });
    expect((await fetch(`${server.url}/ready`)).status).toBe(200);
  }, 120_000);
});
