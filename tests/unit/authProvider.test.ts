// @vitest-environment jsdom
/**
 * The authProvider against a fake HTTP client (SPEC §4.1, §6, §7.2), and the access rules of
 * DESIGN D1 and D9 as pure functions.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { HttpError } from 'react-admin';
import { envelope, isAlwaysAllowed, type Info } from '../../contract';
import { registry } from '../../resources';
import type { HttpClient } from '../../dataProvider';
import {
  SESSION_KEY, canAccessToken, clearSession, createAuthProvider, getSession, menuFor, setSession,
} from '../../authProvider';
import { SELLER_SIDEBAR } from '../spec';

const API = 'http://api.test/api';

interface Call {
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

const ok = (part: Partial<Info> = {}): Info => envelope({ status: true, query: 'Done', ...part });

function fake(...answers: { status?: number; json: unknown }[]) {
  const calls: Call[] = [];
  const client: HttpClient = async (url, init) => {
    calls.push({
      url,
      headers: init.headers as Record<string, string>,
      body: init.body instanceof FormData ? Object.fromEntries(init.body) : JSON.parse(String(init.body)),
    });
    const answer = answers.shift() ?? { json: ok() };
    return { status: answer.status ?? 200, json: answer.json };
  };
  return { auth: createAuthProvider(API, client), calls };
}

const ADMIN = { id: 12, name: 'Ada', abilities: '[1,2,3]', granted_accesses: '["SHOPS","Currencies-exchange"]' };
const SELLER = { abilities: '[1,2]', granted_accesses: '["shops"]' };
const BUYER = { abilities: '[1]', granted_accesses: '[]' };

beforeEach(() => clearSession());

describe('session', () => {
  it('splits token_x on its last dot', () => {
    localStorage.setItem(SESSION_KEY, 'ey.J.hbG.42');
    expect(getSession()).toEqual({ token: 'ey.J.hbG', id: '42' });
  });

  it.each(['', 'nodot', '.42', 'token.'])('treats %j as no session', (value) => {
    localStorage.setItem(SESSION_KEY, value);
    expect(getSession()).toBeNull();
  });
});

describe('login, register and reset', () => {
  it('login posts the credential, stores token.id and asks for the profile at once, once', async () => {
    const { auth, calls } = fake(
      { json: ok({ detail: { token: 'abc.def', id: 12 } }) },
      { json: ok({ detail: { id: 12, name: 'Ada', abilities: '[1,2]' } }) },
    );
    await auth.login({ credential: 'ada@example.com', password: 'secret123' });
    expect(calls).toEqual([
      {
        url: `${API}/user/terminal`,
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: { credential: 'ada@example.com', password: 'secret123', source: 'inbuilt', actionType: 'login' },
      },
      // The first screen's profile leaves with the sign-in's answer…
      { url: `${API}/users`, headers: { Authorization: 'Bearer abc.def', permission: '3' }, body: { id: '12' } },
    ]);
    expect(localStorage.getItem('token_x')).toBe('abc.def.12');
    expect(getSession()).toEqual({ token: 'abc.def', id: '12' });
    // …and react-admin's reads of it are answered from that one call.
    expect(await auth.getIdentity()).toMatchObject({ id: 12, fullName: 'Ada' });
    expect(await auth.getPermissions()).toMatchObject({ role: 'seller' });
    expect(calls).toHaveLength(2);
  });

  it('login accepts react-admin\'s username field', async () => {
    const { auth, calls } = fake({ json: ok({ detail: { token: 't', id: 1 } }) });
    await auth.login({ username: '+44123', password: 'secret123' });
    expect(calls[0].body).toMatchObject({ credential: '+44123' });
  });

  it('login sends the second step (a code, or a passkey alone) and leads an admin who must enrol to the setup page', async () => {
    const { auth, calls } = fake(
      { json: ok({ detail: { token: 't', id: 1 } }) },
      { json: ok({ detail: ADMIN }) }, // the profile asked for at once
      { json: ok({ detail: { token: 'u', id: 2, enrol_second_factor: true } }) },
      { json: ok({ detail: { token: 'v', id: 3 } }) },
    );
    expect(await auth.login({ credential: 'ada', password: 'secret123', otp: '123456' })).toBeUndefined();
    expect(calls[0].body).toEqual({ credential: 'ada', password: 'secret123', otp: '123456', source: 'inbuilt', actionType: 'login' });
    expect(await auth.login({ credential: 'bo', password: 'secret123' })).toEqual({ redirectTo: '/second-factor' });
    const passkey = { id: 'cred', response: {} };
    await auth.login({ passkey });
    expect(calls.find((c) => c.url.endsWith('/user/terminal') && 'passkey' in (c.body as object))!.body).toEqual({ passkey, source: 'inbuilt', actionType: 'login' });
  });

  it('login failure throws the query and stores nothing', async () => {
    const { auth } = fake({ json: envelope({ status: false, query: 'Invalid credentials' }) });
    await expect(auth.login({ credential: 'ada', password: 'nope' })).rejects.toThrow('Invalid credentials');
    expect(localStorage.getItem('token_x')).toBeNull();
  });

  it('register posts abilities [1,2] and signs in', async () => {
    const { auth, calls } = fake({ json: ok({ detail: { token: 'new', id: 30 } }) });
    await auth.register({ name: 'Bo', email: 'bo@example.com', phone: '+44', password: 'password1' });
    expect(calls).toEqual([
      {
        url: `${API}/user`,
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: {
          name: 'Bo', email: 'bo@example.com', phone: '+44', password: 'password1', abilities: '[1,2]', source: 'inbuilt',
        },
      },
    ]);
    expect(localStorage.getItem('token_x')).toBe('new.30');
  });

  it('requestReset and resetPassword post their payloads and resolve to the query', async () => {
    const { auth, calls } = fake({ json: ok({ query: 'Mail sent' }) }, { json: ok({ query: 'Password updated' }) });
    expect(await auth.requestReset('ada@example.com')).toBe('Mail sent');
    expect(await auth.resetPassword({ reset_token: 'r1', password: 'password2' })).toBe('Password updated');
    expect(calls.map((c) => [c.url, c.body])).toEqual([
      [`${API}/user/reset`, { email: 'ada@example.com' }],
      [`${API}/user/update`, { reset_token: 'r1', password: 'password2' }],
    ]);
  });
});

describe('logout, checkAuth, checkError', () => {
  it('logout tells the server, clears token_x and goes to /login', async () => {
    setSession('tok', 12);
    const { auth, calls } = fake();
    expect(await auth.logout()).toBe('/login');
    expect(calls).toEqual([
      {
        url: `${API}/user/logout`,
        headers: { 'Content-Type': 'application/json', Accept: 'application/json', Authorization: 'Bearer tok' },
        body: {},
      },
    ]);
    expect(localStorage.getItem('token_x')).toBeNull();
  });

  it('logout ignores a legacy server\'s 404 and calls nothing without a session', async () => {
    setSession('tok', 12);
    const { auth, calls } = fake({ status: 404, json: null });
    expect(await auth.logout()).toBe('/login');
    expect(getSession()).toBeNull();
    await auth.logout();
    expect(calls).toHaveLength(1);
  });

  it('checkAuth resolves only with a session', async () => {
    const { auth } = fake();
    await expect(auth.checkAuth({})).rejects.toThrow();
    setSession('tok', 12);
    await expect(auth.checkAuth({})).resolves.toBeUndefined();
  });

  it('checkError signs out on 401 only', async () => {
    setSession('tok', 12);
    const { auth } = fake();
    await expect(auth.checkError(new HttpError('Forbidden', 403))).resolves.toBeUndefined();
    await expect(auth.checkError(new Error('boom'))).resolves.toBeUndefined();
    expect(getSession()).not.toBeNull();
    // It asks react-admin to sign out with the session-ended message; react-admin's logout then
    // ends the session (checkAuth must still pass in between for the message to show).
    await expect(auth.checkError(new HttpError('Unauthenticated', 401))).rejects.toThrow('session.ended');
    await expect(auth.checkAuth({})).resolves.toBeUndefined();
    await auth.logout();
    expect(getSession()).toBeNull();
  });
});

describe('identity and permissions', () => {
  it('getIdentity reads the profile from the users call, once per token', async () => {
    setSession('tok', 12);
    const { auth, calls } = fake({ json: ok({ detail: ADMIN }) }, { json: ok({ detail: { ...ADMIN, name: 'Other' } }) });
    expect(await auth.getIdentity()).toEqual({ fullName: 'Ada', ...ADMIN });
    expect(await auth.getPermissions()).toEqual({ role: 'admin', granted: ['SHOPS', 'Currencies-exchange'] });
    expect(calls).toEqual([
      { url: `${API}/users`, headers: { Authorization: 'Bearer tok', permission: '3' }, body: { id: '12' } },
    ]);
    setSession('tok2', 12);
    expect((await auth.getIdentity()).fullName).toBe('Other');
    expect(calls).toHaveLength(2);
  });

  it('getPermissions tells sellers and buyers', async () => {
    setSession('tok', 5);
    const { auth } = fake({ json: ok({ detail: { id: 5, ...SELLER } }) });
    expect(await auth.getPermissions()).toEqual({ role: 'seller', granted: ['shops'] });
    setSession('tok2', 6);
    const buyer = fake({ json: ok({ detail: { id: 6, ...BUYER } }) }).auth;
    expect(await buyer.getPermissions()).toEqual({ role: 'buyer', granted: [] });
  });

  it('signed out, a 401 from asking who is there keeps the visitor on the public page', async () => {
    clearSession();
    const { auth, calls } = fake({ json: ok({ detail: ADMIN }) });
    const error = await auth.getPermissions().catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 401 });
    await expect(auth.checkError(error)).resolves.toBeUndefined();
    expect(calls).toHaveLength(0);
  });

  it('canAccess lower-cases the resource and asks canAccessToken', async () => {
    setSession('tok', 12);
    const { auth } = fake({ json: ok({ detail: ADMIN }) });
    expect(await auth.canAccess({ resource: 'Currencies-exchange', action: 'list' })).toBe(true);
    expect(await auth.canAccess({ resource: 'shops' })).toBe(true);
    expect(await auth.canAccess({ resource: 'products' })).toBe(false);
    clearSession();
    expect(await auth.canAccess({ resource: 'dashboard' })).toBe(false);
  });
});

describe('canAccessToken', () => {
  it('admin: granted tokens compared case-insensitively, my and dashboard always', () => {
    expect(canAccessToken(ADMIN, 'shops')).toBe(true);
    expect(canAccessToken(ADMIN, 'SHOPS')).toBe(true);
    expect(canAccessToken(ADMIN, 'currencies-exchange')).toBe(true);
    expect(canAccessToken(ADMIN, 'users')).toBe(false);
    for (const token of ['dashboard', 'my-shops', 'my-products', 'my-orders']) {
      expect(canAccessToken({ abilities: [1, 2, 3], granted_accesses: '[]' }, token)).toBe(true);
    }
  });

  it('seller: the seller screens, whatever is granted', () => {
    expect(['dashboard', 'my-shops', 'my-orders', 'my-products'].every((t) => canAccessToken(SELLER, t))).toBe(true);
    expect(canAccessToken(SELLER, 'shops')).toBe(false);
    expect(canAccessToken(SELLER, 'users')).toBe(false);
  });

  it("buyer: the buyer list (the dashboard and the buyer entries), never a seller's or an admin's screen", () => {
    for (const token of registry.buyerTokens) expect(canAccessToken(BUYER, token), token).toBe(true);
    expect(canAccessToken(BUYER, 'my-orders')).toBe(false);
    expect(canAccessToken(BUYER, 'orders')).toBe(false);
    expect(canAccessToken({}, 'dashboard')).toBe(true);
  });
});

describe('menuFor', () => {
  it('admin: the access list in order, filtered', () => {
    const granted = ['shops', 'currencies-exchange'];
    expect(menuFor(ADMIN).map((e) => e.token)).toEqual(
      registry.access.map((e) => e.token).filter((token) => isAlwaysAllowed(token) || granted.includes(token)),
    );
    const all = { abilities: '[1,2,3]', granted_accesses: JSON.stringify(registry.access.map((e) => e.token)) };
    expect(menuFor(all)).toEqual([...registry.access]);
  });

  it("seller: Dashboard, Shops, Orders, Products (SPEC §2.6), then the seller's other entries and pages, in the registry's order", () => {
    const entries = menuFor(SELLER);
    expect(entries.slice(0, SELLER_SIDEBAR.length).map((e) => e.path)).toEqual(SELLER_SIDEBAR.map((e) => e.path));
    expect(entries.map((e) => e.token)).toEqual(registry.sellerTokens);
    expect(registry.sellerPages.length).toBeGreaterThan(0);
    for (const page of registry.sellerPages) expect(entries.map((e) => e.path)).toContain(page.path);
  });

  it('buyer: the dashboard, then the buyer entries', () => {
    expect(menuFor(BUYER)).toEqual([{ token: 'dashboard', path: '/', level: 2, icon: 'Dashboard' }, ...registry.buyerEntries]);
    expect(registry.buyerEntries.length).toBeGreaterThan(0);
  });
});
