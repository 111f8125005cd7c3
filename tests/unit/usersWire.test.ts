// @vitest-environment jsdom
/**
 * What the users screen and the account page put on the wire (SPEC §7.2), and the profile re-read
 * that keeps a signed-in user's sidebar current.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { envelope, type Info } from '../../contract';
import { createAuthProvider, getSession, setSession, clearSession } from '../../authProvider';
import { createDataProvider, type HttpClient } from '../../dataProvider';
import { registry } from '../../resources';
import { abilitiesFor } from '../../resources/users/rules';

const API = 'http://api.test/api';
const ok = (part: Partial<Info> = {}): Info => envelope({ status: true, query: 'Done', ...part });

function client(...answers: { status?: number; json: unknown }[]) {
  const calls: { url: string; body: unknown }[] = [];
  const http: HttpClient = async (url, init) => {
    calls.push({ url, body: init.body instanceof FormData ? Object.fromEntries(init.body) : JSON.parse(String(init.body)) });
    const answer = answers.shift() ?? { json: ok() };
    return { status: answer.status ?? 200, json: answer.json };
  };
  return { http, calls };
}

const SELLER = {
  id: 7, name: 'Sam', email: 'sam@example.com', phone: '+1555', applications: null, abilities: '[1,2]',
  granted_accesses: '[]', is_active: 1, shops: [{ id: 1, name: 'Store' }], street_name: '1 Road',
};

beforeEach(() => {
  clearSession();
  setSession('tok', 1);
});

describe('the Control submit', () => {
  it("sends exactly the contract fields of /user/edit, abilities '[1,2,3]' for Admin", async () => {
    const { http, calls } = client({ json: ok({ query: 'User updated successfully' }) });
    const dp = createDataProvider({ apiUrl: API, resources: registry, session: getSession, http });
    await dp.update('users', { id: 7, data: { abilities: abilitiesFor('Admin', SELLER.abilities) }, previousData: SELLER });
    expect(calls).toEqual([
      {
        url: `${API}/user/edit`,
        body: { abilities: '[1,2,3]', applications: null, email: 'sam@example.com', id: 7, is_active: 1, name: 'Sam', phone: '+1555' },
      },
    ]);
  });

  it("sends '[1]' when an admin is made Non-Admin", async () => {
    const { http, calls } = client();
    await createDataProvider({ apiUrl: API, resources: registry, session: getSession, http }).update('users', {
      id: 7, data: { abilities: abilitiesFor('Non-Admin', '[1,2,3]') }, previousData: { ...SELLER, abilities: '[1,2,3]' },
    });
    expect((calls[0].body as { abilities: string }).abilities).toBe('[1]');
  });
});

describe('refreshProfile', () => {
  it('tells whether the role, accesses or name changed since the last read', async () => {
    const { http, calls } = client(
      { json: ok({ detail: { id: 1, name: 'Sam', abilities: '[1,2]', granted_accesses: '[]' } }) },
      { json: ok({ detail: { id: 1, name: 'Sam', abilities: '[1,2]', granted_accesses: '[]' } }) },
      { json: ok({ detail: { id: 1, name: 'Sam', abilities: '[1,2,3]', granted_accesses: '["brands"]' } }) },
    );
    const auth = createAuthProvider(API, http);
    expect((await auth.getPermissions()).role).toBe('seller');
    expect(await auth.refreshProfile!()).toBe(false);
    expect(await auth.refreshProfile!()).toBe(true);
    expect(await auth.getPermissions()).toEqual({ role: 'admin', granted: ['brands'] });
    expect(calls.map((c) => c.body)).toEqual([{ id: '1' }, { id: '1' }, { id: '1' }]);
  });

  it('rejects with the 401 of an ended session, so the console signs the user out', async () => {
    const { http } = client(
      { json: ok({ detail: { id: 1, name: 'Sam', abilities: '[1]' } }) },
      { status: 401, json: envelope({ query: 'This account is not active' }) },
    );
    const auth = createAuthProvider(API, http);
    await auth.getIdentity();
    await expect(auth.refreshProfile!()).rejects.toMatchObject({ status: 401 });
  });
});
