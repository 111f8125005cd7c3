import path from 'node:path';
import Database from '../../server/sqlite';
import { expect, type APIRequestContext, type Page, type Request, type Route } from '@playwright/test';
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

/**
 * Picks an option of a search-as-you-type picker: types (the option itself unless told), waits until
 * the list answers what was typed (every option holds it), then picks the option. An option clicked
 * before the answer can move under the pointer as the answer redraws the list, and the click is lost.
 */
export async function pick(page: Page, label: string, option: string, typed = option) {
  const input = page.getByRole('combobox', { name: label, exact: true });
  await input.click();
  await input.fill(typed);
  const list = page.getByRole('listbox');
  const options = list.getByRole('option');
  await expect
    .poll(async () => {
      const texts = await options.allTextContents();
      return texts.length > 0 && texts.every((text) => text.toLowerCase().includes(typed.toLowerCase()));
    })
    .toBe(true);
  await list.getByRole('option', { name: option, exact: true }).click();
}

/** Chooses an option of a plain select (no typing): opens it, then clicks the first option so named. */
export async function choose(page: Page, label: string, option: string | RegExp) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option }).first().click();
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

/**
 * Holds back the page's requests to `url` that `which` picks (all by default), as a slow connection
 * would, until `release`. `asked` waits until one is held; `release` lets every held one through,
 * holds no more, and resolves once the first held one is answered.
 */
export async function holdRequests(page: Page, url: string, which: (request: Request) => boolean = () => true) {
  const held: Route[] = [];
  let holding = true;
  const hold = (route: Route) => {
    if (holding && which(route.request())) held.push(route);
    else void route.continue();
  };
  await page.route(url, hold);
  return {
    asked: () => expect.poll(() => held.length).toBeGreaterThan(0),
    release: async () => {
      holding = false;
      const routes = held.splice(0);
      const answered = routes[0]?.request().response();
      await Promise.all(routes.map((route) => route.continue()));
      await answered;
      await page.unroute(url, hold);
    },
  };
}

/**
 * Holds back the console's look-ups of one record (a search on `id` alone: the editing panel's refresh)
 * until `release`, as a slow connection would; `release` resolves once the first held look-up is answered.
 */
export const holdRecordLookUps = (page: Page) =>
  holdRequests(page, '**/search-dive', (request) => (request.postDataJSON() as { targets?: string[] } | null)?.targets?.join() === 'id');

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

/**
 * Rows a test makes for itself through the API, so that nothing depends on the demo's rows or on what
 * the tests before it did with them (they all run against one server).
 */
export interface OwnCategory { id: number; name: string; subcategory: { id: number; name: string } }

/**
 * A name unique within a run and about as short as the demo's category names ('Home & Garden'), so
 * that the lists look as a person's would (widths.spec.ts adds long names of its own).
 */
const shortUnique = (prefix: string) => `${prefix}${Date.now().toString(36).slice(-6)}${Math.floor(Math.random() * 100)}`;

/** A new category with one subcategory, made by the demo admin; names unique to the test. */
export async function newCategory(request: APIRequestContext, name = shortUnique('Cat '), fields: Record<string, unknown> = {}): Promise<OwnCategory> {
  const admin = await apiLogin(request, DEMO.admin.email, DEMO.admin.password);
  const subcategory = shortUnique('Sub ');
  const made = await api(request, '/category', {
    name, subcategory_name: subcategory, commission_currency: 'USD', commission_flat_rate: 5, commission_monthly: 0, ...fields,
  }, admin.token);
  expect(made.status, made.query).toBe(true);
  const sub = (made.detail.subcategories as { id: number; name: string }[]).find((s) => s.name === subcategory)!;
  return { id: Number(made.detail.id), name, subcategory: { id: Number(sub.id), name: sub.name } };
}

/** A valid shop body of the contract (`/shop`) in this category, at this address (Ghana by default). */
export const shopBody = (name: string, category: { id: number }, address: Record<string, unknown> = { street_name: '1 Road', zip: '100001', country: 'Ghana' }) => ({
  name, description: 'd', category_id: category.id, address,
  bank: { bank_name: 'Bank', bank_country: String(address.country), account_name: 'Me', account_number: '1' },
});

/** A new shop of the signed-in seller (their token). */
export async function newShop(request: APIRequestContext, token: string, category: { id: number }, name = unique('Shop '), address?: Record<string, unknown>) {
  const made = await api(request, '/shop', shopBody(name, category, address), token);
  expect(made.status, made.query).toBe(true);
  return { id: Number(made.detail.id), name: made.detail.name as string };
}

/** A new product in this shop (20 USD, five in stock unless told otherwise). */
export async function newProduct(
  request: APIRequestContext, token: string, shopId: number, category: OwnCategory, name = unique('Product '), fields: Record<string, unknown> = {},
) {
  const made = await api(request, '/product', {
    shop_id: shopId, name, description: 'd', currency: { code: 'USD' }, price: 20, sale_price: 0, in_stock: 5,
    category_id: category.id, subcategory_id: category.subcategory.id, band: { band_name: 'Own brand' }, ...fields,
  }, token);
  expect(made.status, made.query).toBe(true);
  return { id: Number(made.detail.id), name: made.detail.name as string, price: Number(made.detail.price), currency: made.detail.currency as { code: string } };
}

/** An account's name as the server holds it (read through the API, as its admin screen shows it). */
export async function nameOf(request: APIRequestContext, account: { email: string; password: string }): Promise<string> {
  const me = await apiLogin(request, account.email, account.password);
  return (await api(request, '/users', { id: me.id }, me.token)).detail.name as string;
}
