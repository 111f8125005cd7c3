import path from 'node:path';
import Database from '../../server/sqlite';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { ADMIN_SIDEBAR, SELLER_SIDEBAR, isOrderedSubsequence } from '../spec';

export const DEMO = {
  admin: { email: 'admin@example.com', password: 'admin1234' },
  seller: { email: 'seller@example.com', password: 'seller1234' },
  buyer: { email: 'buyer@example.com', password: 'buyer1234' },
};

/** The admin sidebar, in order, with the spec's spellings (SPEC §2.6, pinned in tests/spec.ts). */
export const ADMIN_MENU: readonly string[] = ADMIN_SIDEBAR;
/** SPEC §2.6's seller list (the seller's own pages, such as Packages, may follow). */
export const SELLER_MENU: readonly string[] = SELLER_SIDEBAR.map((entry) => entry.label);
/** The buyer's list: the dashboard, the catalogue to buy from, their own orders. */
export const BUYER_MENU = ['Dashboard', 'Catalogue', 'My purchases'];

export async function signIn(page: Page, credential: string, password: string) {
  await page.goto('/login');
  await page.getByPlaceholder('Email or Phone Number e.g +44xxx').fill(credential);
  await page.getByLabel('Password', { exact: false }).first().fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

export const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Sidebar' });

/** Signs in and waits until the console shows its sidebar. */
export async function signedIn(page: Page, account: { email: string; password: string }) {
  await signIn(page, account.email, account.password);
  await expect(sidebar(page)).toBeVisible();
}

/**
 * The sidebar shows these labels in this order: exactly these (`exact`), or with entries beyond the
 * specification's lists standing between or after them (an entity added later).
 */
export async function expectMenu(page: Page, labels: readonly string[], { exact = false } = {}) {
  const links = sidebar(page).getByRole('menuitem');
  if (exact) {
    await expect(links).toHaveText([...labels]);
    return;
  }
  await expect(links.first()).toBeVisible();
  await expect.poll(async () => {
    const shown = (await links.allInnerTexts()).map((text) => text.trim());
    return isOrderedSubsequence(shown, labels) ? labels : shown;
  }).toEqual(labels);
}

/**
 * A call to the API as a client would make it. Like a browser, it sends the request again once when a
 * kept-alive connection it reused was closed under it (the server closes idle ones after 5 s, and a
 * test that paused about that long can reuse one at the very moment it closes): the server never
 * read that request.
 */
export async function api(request: APIRequestContext, p: string, body: unknown, token?: string) {
  const send = () => request.post(`/api${p}`, { data: body as object, headers: token ? { Authorization: `Bearer ${token}` } : {} });
  const res = await send().catch((error: Error) => {
    if (/ECONNRESET|socket hang up/.test(error.message)) return send();
    throw error;
  });
  return res.json();
}

export async function apiLogin(request: APIRequestContext, email: string, password: string): Promise<{ token: string; id: number }> {
  const res = await api(request, '/user/terminal', { credential: email, password, source: 'inbuilt', actionType: 'login' });
  expect(res.status).toBe(true);
  return res.detail;
}

/** The server's mail outbox, read from its database file. */
export function outbox(to: string): { subject: string; body: string }[] {
  const db = new Database(path.join(process.env.E2E_DATA_DIR!, 'marketplace.sqlite'), { readonly: true });
  try {
    return db.prepare('select subject, body from mail_outbox where to_email = ? order by id').all(to) as { subject: string; body: string }[];
  } finally {
    db.close();
  }
}

export const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
