import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO, api, apiLogin, newCategory, shopBody, sidebar, signedIn, unique } from './helpers';

/**
 * What makes a list as fast as its API (see docs/benchmarks.md, "Console"): its code fetched ahead,
 * its first page asked for before its code has arrived, the next page fetched while a page is read.
 * Each is proved by holding back what it fetched ahead: the screen still shows.
 */

/** The generic management screen's code (its file, as the build names it). */
const SCREEN_CODE = /\/assets\/ManagementScreen-[^/]*\.js$/;
const pager = (page: Page) => page.getByRole('navigation', { name: 'Pages' });
const firstRow = (page: Page) => page.getByRole('table').locator('tbody tr').first().locator('[data-cell-focus]').first();

/** More than one page of shops, whatever the database held. */
async function twoPagesOfShops(page: Page) {
  const admin = await apiLogin(page.request, DEMO.admin.email, DEMO.admin.password);
  const held = (await api(page.request, '/shops', { page: 1 }, admin.token)).HLL.total as number;
  const category = held < 16 ? await newCategory(page.request) : undefined;
  for (let i = held; i < 16; i++) {
    const shop = await api(page.request, '/shop', shopBody(unique('Speed Shop '), category!), admin.token);
    expect(shop.status).toBe(true);
  }
}

test('the next page is fetched while a page is read: it shows at once, even with the server holding its answers', async ({ page }) => {
  await twoPagesOfShops(page);
  await signedIn(page, DEMO.admin);
  const ahead = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/shops' && r.postDataJSON()?.page === 2);
  await sidebar(page).getByRole('menuitem', { name: 'Shops', exact: true }).click();
  await expect(pager(page)).toContainText('Showing 1 to 15 of ');
  const shown = await firstRow(page).getAttribute('aria-label');
  // Page 2 is asked for without a click.
  await ahead;
  // From here the server's answers to the list never arrive: what shows was fetched ahead.
  await page.route('**/api/shops', () => undefined);
  await pager(page).getByRole('button', { name: 'Go to next page' }).click();
  await expect(pager(page)).toContainText('Showing 16 to ');
  await expect(firstRow(page)).not.toHaveAttribute('aria-label', shown!);
});

/** The code files a page has received so far (paths), added to as they arrive. */
function codeReceived(page: Page): Set<string> {
  const files = new Set<string>();
  page.on('response', (response) => {
    const { pathname } = new URL(response.url());
    if (/^\/assets\/.+\.js$/.test(pathname)) files.add(pathname);
  });
  return files;
}

const listShown = async (page: Page) => {
  // The table with its cells (images, stock: code of the resource's own), or the list's No Data.
  await expect(page.getByRole('table').or(page.getByText('No Data', { exact: true }))).toBeVisible();
  await expect(page.getByRole('table').getByRole('progressbar')).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Administrative' })).toBeVisible();
};

test("once signed in, the list screens' code is fetched while idle: a list opens with no code left to fetch", async ({ page, pageOfItsOwn }) => {
  // The code a list of products needs: every file a browser of its own receives signing in and opening it.
  const reference = await pageOfItsOwn();
  const needed = codeReceived(reference);
  await signedIn(reference, DEMO.admin);
  await sidebar(reference).getByRole('menuitem', { name: 'Products', exact: true }).click();
  await listShown(reference);
  await reference.context().close();

  // Signed in and never clicking, every one of those files arrives (not a quiet moment of the
  // network: the files are fetched one per idle moment of the page, which a busy page spaces out).
  const received = codeReceived(page);
  await signedIn(page, DEMO.admin);
  await expect.poll(() => [...needed].filter((file) => !received.has(file)), { timeout: 30_000 }).toEqual([]);
  // No more code arrives from here on.
  await page.route('**/assets/**', (route) => route.abort());
  await sidebar(page).getByRole('menuitem', { name: 'Products', exact: true }).click();
  await listShown(page);
});

test("a list's first page is asked for as its route opens, before the screen's code has arrived", async ({ page }) => {
  await signedIn(page, DEMO.admin);
  // The generic screen's code is held back (never answered) when the page is opened afresh.
  await page.route(SCREEN_CODE, () => undefined);
  const asked = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/products' && r.postDataJSON()?.page === 1);
  await page.goto('/products');
  await asked;
});
