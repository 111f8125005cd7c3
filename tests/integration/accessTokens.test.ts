/**
 * A marketplace that already runs gets a new entity (a resource file added): on the next start its
 * access token reaches the full admins, who can then grant it in Assign Roles; partial admins are left
 * as they were, and every grant is in the audit log.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRegistry, parseAccesses, type Registry } from '../../contract';
import { grantNewAccessTokens } from '../../server/accessTokens';
import { migrate, type Database } from '../../server/db';
import { registry as projectRegistry } from '../../server/registry';
import { seedDemo, seedReference } from '../../server/seed';
import { createUser } from '../../server/routes/users';
import type { ResourceDefinition } from '../../resources/types';
import fixture from './fixture/fixtureVouchers';
import { checkedApp, ADMIN, demo, freshDatabase } from './harness';

const withFixture = createRegistry<ResourceDefinition>([...(projectRegistry.resources as ResourceDefinition[]), fixture]);
const NEW = fixture.menu!.token;

let fresh: Awaited<ReturnType<typeof freshDatabase>>;
let database: Database;
const ids: Record<'partial' | 'fuller', number> = { partial: 0, fuller: 0 };

/** One start of the server's preparation on this database, with these resource files. */
async function start(registry: Registry) {
  await migrate(database, registry);
  await seedReference(database.db);
  await seedDemo(database.db, registry);
  return grantNewAccessTokens(database.db, registry);
}

const accessesOf = async (id: number) =>
  parseAccesses((await database.db.selectFrom('users').select('granted_accesses').where('id', '=', id).executeTakeFirstOrThrow()).granted_accesses);

beforeAll(async () => {
  fresh = await freshDatabase();
  database = fresh.database;
  // The marketplace as it ran before: the project's entities only.
  expect(await start(projectRegistry)).toEqual({ added: [], grantedTo: [] });
  const partial = await createUser(database.db, { name: 'Part Admin', email: 'part@example.com', phone: '+15550009001', password: 'part-admin-1', abilities: ADMIN, granted: ['shops'] });
  // Every token but one: not a full admin.
  const fuller = await createUser(database.db, {
    name: 'Almost Admin', email: 'almost@example.com', phone: '+15550009002', password: 'almost-admin', abilities: ADMIN,
    granted: projectRegistry.assignable.slice(1),
  });
  ids.partial = Number(partial.id);
  ids.fuller = Number(fuller.id);
});
afterAll(async () => {
  await database.close();
  await fresh.drop();
});

describe('a token declared after the database was made', () => {
  let admin: { id: number };
  beforeAll(async () => {
    admin = (await database.db.selectFrom('users').select('id').where('email', '=', demo.admin.email).executeTakeFirstOrThrow()) as { id: number };
  });

  it('is nobody’s before the restart', async () => {
    expect(await accessesOf(admin.id)).not.toContain(NEW);
  });

  it('reaches the full admins on the next start, once, and is audited', async () => {
    const first = await start(withFixture);
    expect(first.added).toEqual([NEW]);
    expect(first.grantedTo).toEqual([admin.id]);
    expect(await accessesOf(admin.id)).toContain(NEW);
    expect(await accessesOf(ids.partial)).toEqual(['shops']);
    expect(await accessesOf(ids.fuller)).not.toContain(NEW);
    const logged = await database.db.selectFrom('auditLogs').selectAll().where('record_id', '=', admin.id).where('action', '=', 'roles').execute();
    expect(logged.map((l) => JSON.parse(String(l.after)).granted_accesses)).toContainEqual(expect.stringContaining(NEW));
    // A second start grants nothing more.
    expect(await start(withFixture)).toEqual({ added: [], grantedTo: [] });
  });

  it('can then be granted by a full admin in Assign Roles', async () => {
    const app = await checkedApp({ db: database.db, registry: withFixture, config: { strict: false, publicUrl: 'http://console.test', demo: true, dataDir: fresh.dir } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api`;
      const post = async (p: string, body: unknown, token?: string) => {
        const res = await fetch(url + p, { method: 'POST', headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
        return { http: res.status, body: await res.json() };
      };
      const signIn = await post('/user/terminal', { credential: demo.admin.email, password: demo.admin.password, source: 'inbuilt', actionType: 'login' });
      const token = signIn.body.detail.token as string;
      const granted = await post('/user/assign-role', { id: ids.partial, granted_accesses: ['shops', NEW] }, token);
      expect(granted.http).toBe(200);
      expect(await accessesOf(ids.partial)).toEqual(['shops', NEW]);
      // The partial admin, who now holds it, reads the new entity's list.
      const partial = (await post('/user/terminal', { credential: 'part@example.com', password: 'part-admin-1', source: 'inbuilt', actionType: 'login' })).body.detail.token as string;
      expect((await post(fixture.api.list, { page: 1 }, partial)).http).toBe(200);
    } finally {
      await app.close();
    }
  });
});
