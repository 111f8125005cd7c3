/**
 * Production mode (DESIGN D7): no accounts are seeded, and the create-admin command makes the
 * first admin with every access, who can then sign in.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAccesses } from '../../contract';
import { registry } from '../../server/registry';
import { readConfig } from '../../server/config';
import { migrate, openDatabase } from '../../server/db';
import { verifyPassword } from '../../server/auth';
import { ORDER_STATUS_NAMES } from '../spec';

const run = promisify(execFile);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'marketplace-cli-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const cli = (...args: string[]) =>
  run(process.execPath, ['--import', 'tsx', 'server/cli.ts', ...args], { env: { ...process.env, DATA_DIR: dir, NODE_ENV: 'production' } });

describe('production mode', () => {
  it('seeds no accounts unless asked', () => {
    expect(readConfig({ NODE_ENV: 'production' }).demo).toBe(false);
    expect(readConfig({}).demo).toBe(true);
    expect(readConfig({ NODE_ENV: 'production', DEMO: '1' }).demo).toBe(true);
  });

  it('creates the first admin with every access, once', async () => {
    const { stdout } = await cli('create-admin', '--email', 'Owner@Example.com', '--password', 'keeper-pass-1', '--name', 'Owner');
    expect(stdout).toContain('Created admin owner@example.com');
    const database = openDatabase({ file: path.join(dir, 'marketplace.sqlite') });
    try {
      await migrate(database);
      const users = await database.db.selectFrom('users').selectAll().execute();
      expect(users).toHaveLength(1);
      expect(users[0]).toMatchObject({ email: 'owner@example.com', name: 'Owner', abilities: '[1,2,3]', is_active: 1 });
      expect(parseAccesses(users[0].granted_accesses)).toEqual([...registry.assignable]);
      expect(await verifyPassword('keeper-pass-1', users[0].password_hash)).toBe(true);
      // The reference rows every installation needs: SPEC §4.5's order statuses.
      const statuses = await database.db.selectFrom('orderStatuses').select(['id', 'name']).orderBy('id').execute();
      expect(Object.fromEntries(statuses.map((r) => [Number(r.id), r.name]))).toEqual(ORDER_STATUS_NAMES);
    } finally {
      await database.close();
    }
    await expect(cli('create-admin', '--email', 'owner@example.com', '--password', 'keeper-pass-2')).rejects.toMatchObject({
      stderr: expect.stringContaining('already exists'),
    });
  });

  it('refuses a password holding a context-specific word: the email, the name, the site (ASVS 6.2.11)', async () => {
    for (const [password, word] of [['owner-pass-3', 'owner'], ['Rosalind-pass-3', 'rosalind'], ['my-admin-pass-3', 'admin']]) {
      await expect(cli('create-admin', '--email', 'owner@example.com', '--password', password, '--name', 'Rosalind Fry')).rejects.toMatchObject({
        code: 2, stderr: expect.stringContaining(`This password contains "${word}"`),
      });
    }
  });

  it('refuses a short password', async () => {
    await expect(cli('create-admin', '--email', 'x@example.com', '--password', 'short')).rejects.toMatchObject({ code: 2 });
  });
});
