/**
 * An unknown account costs a sign-in the same password check as a known one (a dummy hash is checked),
 * so the answer's time tells nothing. Counted in scrypt runs, not measured in milliseconds.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { startServer, demo, type TestServer } from './harness';

const runs = vi.hoisted(() => ({ scrypt: 0 }));
vi.mock('node:crypto', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:crypto')>();
  const scrypt = ((...args: Parameters<typeof real.scrypt>) => {
    runs.scrypt++;
    return (real.scrypt as (...a: unknown[]) => void)(...args);
  }) as typeof real.scrypt;
  return { ...real, default: { ...real, scrypt }, scrypt };
});

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

const scryptRunsOf = async (credential: string) => {
  const before = runs.scrypt;
  const res = await s.post('/user/terminal', { credential, password: 'wrong-password', source: 'inbuilt', actionType: 'login' });
  expect(res.http).toBe(401);
  return runs.scrypt - before;
};

it('checks a wrong password of an unknown account against a hash, as for a known account', async () => {
  await scryptRunsOf('warm-up@example.com'); // the dummy hash is made once, on first need
  const known = await scryptRunsOf(demo.admin.email);
  const unknown = await scryptRunsOf('ghost@example.com');
  expect(known).toBe(1);
  expect(unknown).toBe(known);
});
