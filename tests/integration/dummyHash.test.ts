/**
 * An unknown account costs a sign-in the same password check as a known one (a dummy hash is checked),
 * so the answer's time tells nothing. Counted in scrypt runs, not measured in milliseconds.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { startServer, demo, type TestServer } from './harness';

// The server calls Node's scrypt through the module object on each run, so this spy sees every run.
const scryptRuns = vi.spyOn(crypto, 'scrypt');

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  scryptRuns.mockRestore();
  await s.close();
});

const scryptRunsOf = async (credential: string) => {
  const before = scryptRuns.mock.calls.length;
  const res = await s.post('/user/terminal', { credential, password: 'wrong-password', source: 'inbuilt', actionType: 'login' });
  expect(res.http).toBe(401);
  return scryptRuns.mock.calls.length - before;
};

it('checks a wrong password of an unknown account against a hash, as for a known account', async () => {
  await scryptRunsOf('warm-up@example.com'); // the dummy hash is made once, on first need
  const known = await scryptRunsOf(demo.admin.email);
  const unknown = await scryptRunsOf('ghost@example.com');
  expect(known).toBe(1);
  expect(unknown).toBe(known);
});
