/**
 * A list's default columns fit a 1366 × 768 screen: no table of the registry's screens scrolls
 * sideways, for an admin or a seller; a long value is cut short, whole on hover and on double-click.
 * The signed-in top bar fits every width from a tablet's up.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { en } from '../../i18n/en';
import englishMessages from 'ra-language-english';
import type { ResourceDefinition } from '../../resources/types';
import { loadRegistry } from '../../server/registry';
import { DEMO, api, apiLogin, newCategory, newProduct, newShop, signedIn, unique } from './helpers';
import { registered } from './reference-helpers';

const registry = await loadRegistry();
/** The list screens (not the pages, such as live chat). */
const lists = (registry.resources as readonly ResourceDefinition[]).filter((r) => r.screen?.kind === 'list');
const ADMIN_SCREENS = lists.flatMap((r) => (r.menu ? [r.menu.path] : r.screenPath ? [r.screenPath] : []));
const SELLER_SCREENS = lists.flatMap((r) => (r.seller ? [r.seller.path] : []));

test.use({ viewport: { width: 1366, height: 768 } });

/** The screens whose table scrolls sideways. */
async function overflowing(page: Page, paths: readonly string[]) {
  const wide: string[] = [];
  for (const path of paths) {
    await page.goto(path);
    const pager = page.getByRole('navigation', { name: 'Pages' });
    await expect(pager.or(page.getByText('No Data', { exact: true })).first()).toBeVisible();
    const table = page.getByRole('table');
    // An empty list has no rows to measure.
    if (!(await pager.isVisible())) continue;
    // Cells drawn by a resource's own component arrive with their code.
    await expect(table.getByRole('progressbar')).toHaveCount(0);
    const [scroll, client] = await table.first().evaluate((t) => [t.parentElement!.scrollWidth, t.parentElement!.clientWidth]);
    if (scroll > client) wide.push(`${path}: ${scroll} > ${client}`);
  }
  return wide;
}

/** Whether a cell shows its value cut short: on one line, with the rest out of sight. */
function cutShort(cell: Element) {
  const lineHeight = parseFloat(getComputedStyle(cell).lineHeight);
  return cell.clientHeight < 2 * lineHeight && (cell.scrollWidth > cell.clientWidth || cell.scrollHeight > cell.clientHeight);
}

test('an admin’s lists fit the screen; a long value is cut short and whole on hover and double-click', async ({ page }) => {
  test.setTimeout(90_000);
  const admin = await apiLogin(page.request, DEMO.admin.email, DEMO.admin.password);
  const description = `${unique('Long ')} ${'a very long description of what this shop sells '.repeat(6)}`.trim();
  const shop = await api(page.request, '/shop', {
    name: unique('Wide Shop '), description, category_id: (await newCategory(page.request)).id, address: { street_name: '1 Road', zip: '100001', country: 'Ghana' },
    bank: { bank_name: 'Bank', bank_country: 'Ghana', account_name: 'Me', account_number: '1' },
  }, admin.token);
  expect(shop.status).toBe(true);
  // A product whose every text is long, with no space to break at: each of its columns is as wide as
  // a cell may be, and the table must still fit.
  const long = (prefix: string) => `${unique(prefix)}${'Wide'.repeat(12)}`;
  const category = await newCategory(page.request, long('Category'));
  const productName = long('Product');
  await newProduct(page.request, admin.token, Number(shop.detail.id), category, productName, {
    description: long('Description'), band: { band_name: long('Brand') },
  });
  await signedIn(page, DEMO.admin);
  expect(await overflowing(page, ADMIN_SCREENS)).toEqual([]);

  await page.goto('/shops');
  const cell = page.getByRole('table').getByTitle(description);
  await expect(cell).toBeVisible();
  expect(await cell.evaluate(cutShort)).toBe(true);
  await cell.dblclick();
  await expect(page.getByRole('dialog')).toContainText(description);
  await page.keyboard.press('Escape');

  // A value with no space in it is cut short too, on one line.
  await page.goto('/products');
  const name = page.getByRole('table').getByTitle(productName);
  await expect(name).toBeVisible();
  expect(await name.evaluate(cutShort)).toBe(true);
});

test('a seller’s lists fit the screen', async ({ page, request }) => {
  // A new seller's shop, product and order: the lists measured hold this test's rows, whatever other specs added.
  const seller = await registered(request);
  const category = await newCategory(request);
  const shop = await newShop(request, seller.token, category, unique('Corner Shop '));
  const product = await newProduct(request, seller.token, shop.id, category, unique('Desk Lamp '));
  const buyer = await apiLogin(request, DEMO.buyer.email, DEMO.buyer.password);
  const placed = await api(request, '/order', {
    shop_id: shop.id, items: [{ product_id: product.id, quantity: 1 }],
    shipping_address: { street_name: '5 Broad Street', city: 'Monrovia', country: 'Liberia', zip: '1000' },
  }, buyer.token);
  expect(placed.status).toBe(true);
  await signedIn(page, seller);
  expect(await overflowing(page, SELLER_SCREENS)).toEqual([]);
});

test('the signed-in top bar keeps every control in the window from 360 px up, the account menu last', async ({ page }) => {
  for (const account of [DEMO.admin, DEMO.buyer]) {
    await page.setViewportSize({ width: 1366, height: 768 });
    await signedIn(page, account);
    const bar = page.getByRole('banner');
    const controls = [
      bar.getByRole('button', { name: en.shell.user_menu }),
      bar.locator('[data-language-switch] button'),
      bar.getByRole('combobox', { name: en.currency.chooser }),
      bar.getByRole('searchbox'),
    ];
    // Under 900 px the brand's name and the language's name are left out (read out still); the search box narrows.
    for (const width of [1366, 1024, 900, 768, 600]) {
      await page.setViewportSize({ width, height: 768 });
      for (const control of controls) await expect(control, `${account.email} at ${width} px`).toBeInViewport({ ratio: 1 });
      expect(await page.evaluate(() => document.scrollingElement!.scrollWidth), `${width} px`).toBeLessThanOrEqual(width);
    }
    // On a small phone the chooser and the box are not drawn; the search button takes the box's place.
    for (const width of [390, 360]) {
      await page.setViewportSize({ width, height: 768 });
      if (width === 390) {
        // The sidebar, open beside the page until now, folds into a phone's drawer, closed; the page
        // takes taps and is read out (a half-opened drawer's modal once took both); the drawer opens.
        const sidebar = page.getByRole('navigation', { name: en.menu.label });
        await expect(sidebar).toBeHidden();
        await bar.getByRole('button', { name: englishMessages.ra.action.open_menu }).click();
        await expect(sidebar).toBeVisible();
        await page.keyboard.press('Escape');
        await expect(sidebar).toBeHidden();
      }
      for (const control of [controls[0], controls[1], bar.getByRole('link', { name: en.resources.users.search.label })]) {
        await expect(control, `${account.email} at ${width} px`).toBeInViewport({ ratio: 1 });
      }
      expect(await page.evaluate(() => document.scrollingElement!.scrollWidth), `${width} px`).toBeLessThanOrEqual(width);
    }
    await bar.getByRole('button', { name: en.shell.user_menu }).click();
    await page.getByRole('menuitem', { name: en.shell.logout }).click();
    await expect(page).toHaveURL(/\/login/);
  }
});
