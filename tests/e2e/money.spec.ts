import fs from 'node:fs';
import { en } from '../../i18n/en';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { api, apiLogin, DEMO, newCategory, newProduct, newShop, sidebar, signedIn } from './helpers';
import { registered } from './reference-helpers';

/** Postings a page of My earnings shows. */
const PER_PAGE = 25;

const address = { street_name: '5 Broad Street', city: 'Monrovia', state: 'Montserrado', country: 'Liberia', zip: '1000' };

/**
 * An order of a new seller's shop (a category of the test's own, with a commission), placed by the demo
 * buyer and paid by the admin over the API (and delivered when asked: the end-to-end server holds
 * earnings for PAYOUT_HOLD_DAYS=0 days).
 */
async function paidOrder(request: APIRequestContext, deliver: boolean) {
  const admin = await apiLogin(request, DEMO.admin.email, DEMO.admin.password);
  const seller = await registered(request);
  const buyer = await apiLogin(request, DEMO.buyer.email, DEMO.buyer.password);
  const category = await newCategory(request, undefined, { commission_flat_rate: 8 });
  const shop = await newShop(request, seller.token, category);
  const product = await newProduct(request, seller.token, shop.id, category);
  const placed = await api(request, '/order', { shop_id: shop.id, items: [{ product_id: product.id, quantity: 1 }], shipping_address: address }, buyer.token);
  expect(placed.status).toBe(true);
  const order = placed.detail as { id: number; total: number; shop_id: number; tracking_number: string; items: { commission_rate: number }[] };
  expect((await api(request, '/order', { id: order.id, paid_total: order.total }, admin.token)).status).toBe(true);
  if (deliver) expect((await api(request, '/order/status', { id: order.id, status: 5 }, admin.token)).status).toBe(true);
  return { order, shop, seller };
}

const section = (page: Page, name: string) => page.getByRole('main').getByRole('table', { name });

test('a seller downloads a monthly statement that lists their sale', async ({ page, request }) => {
  const { order, shop, seller } = await paidOrder(request, false);
  await signedIn(page, seller);
  await sidebar(page).getByRole('menuitem', { name: 'Earnings' }).click();
  await expect(page).toHaveURL(/\/my-earnings$/);
  await expect(page.getByRole('heading', { name: 'My earnings' })).toBeVisible();
  await expect(page.getByRole('article').filter({ hasText: shop.name }).first()).toContainText('Pending');
  await expect(section(page, 'Postings').getByRole('row').filter({ hasText: 'Sale' }).first()).toBeVisible();

  await page.getByRole('combobox', { name: 'Shop' }).click();
  await page.getByRole('option', { name: shop.name }).click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download statement' }).click()]);
  const month = new Date().toISOString().slice(0, 7);
  expect(download.suggestedFilename()).toBe(`statement-${shop.id}-${month}.csv`);
  const text = fs.readFileSync((await download.path())!, 'utf8');
  const lines = text.trim().split('\r\n');
  expect(lines[0]).toBe('date,type,order_id,entry_id,description,currency,amount,balance');
  expect(lines.some((l) => l.split(',')[1] === 'sale' && l.split(',')[2] === String(order.id))).toBe(true);
  expect(lines.at(-1)!.split(',')[1]).toBe('closing balance');
  await page.screenshot({ path: test.info().outputPath('my-earnings.png'), fullPage: true });
});

test('a seller reads every posting, a page at a time, and on a phone each posting with its amount in sight', async ({ page, request }) => {
  // One shop's paid orders, each posting its sale and its commission, until they fill more than a page.
  const admin = await apiLogin(request, DEMO.admin.email, DEMO.admin.password);
  const seller = await registered(request);
  const buyer = await registered(request, undefined, '[1]');
  const category = await newCategory(request, undefined, { commission_flat_rate: 8 });
  const shop = await newShop(request, seller.token, category);
  const product = await newProduct(request, seller.token, shop.id, category, undefined, { in_stock: 100 });
  const total = async () => (await api(request, '/ledger', { page: 1, per_page: 1 }, seller.token)).HLL.total as number;
  while ((await total()) <= PER_PAGE) {
    const placed = await api(request, '/order', { shop_id: shop.id, items: [{ product_id: product.id, quantity: 1 }], shipping_address: address }, buyer.token);
    expect(placed.status, placed.query).toBe(true);
    expect((await api(request, '/order', { id: placed.detail.id, paid_total: placed.detail.total }, admin.token)).status).toBe(true);
  }
  const count = await total();
  const oldest = (await api(request, '/ledger', { page: 2, per_page: PER_PAGE }, seller.token)).HLL.data as { kind: string }[];
  expect(oldest.length).toBe(count - PER_PAGE);

  await signedIn(page, seller);
  await page.goto('/my-earnings');
  const postings = section(page, 'Postings');
  await expect(postings.getByRole('row')).toHaveCount(PER_PAGE + 1);
  await expect(page.getByText(`Showing 1 to ${PER_PAGE} of ${count} results`)).toBeVisible();
  await page.getByRole('button', { name: 'Go to page 2' }).click();
  await expect(page.getByText(`Showing ${PER_PAGE + 1} to ${count} of ${count} results`)).toBeVisible();
  await expect(postings.getByRole('row')).toHaveCount(oldest.length + 1);

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(postings).toHaveCount(0);
  const items = page.getByRole('list', { name: 'Postings' }).getByRole('listitem');
  await expect(items).toHaveCount(oldest.length);
  await expect(items.first()).toContainText(shop.name);
  for (const item of await items.all()) {
    const amount = item.locator('p').last();
    await expect(amount).toHaveText(/[\d.,]+ [A-Z]{3}$/);
    const box = (await amount.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  }
  await page.screenshot({ path: test.info().outputPath('my-earnings-phone.png'), fullPage: true });
});

test('on a phone the money tables stand each row as lines, each value after its column\'s name, the Pay out button in sight', async ({ page, request }) => {
  const { shop } = await paidOrder(request, true);
  await signedIn(page, DEMO.admin);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/payouts');
  const balances = section(page, 'Balances');
  const row = balances.getByRole('row').filter({ hasText: shop.name }).first();
  const payOut = row.getByRole('button', { name: new RegExp(`^Pay out ${shop.name} `) });
  await expect(payOut).toBeEnabled();
  await payOut.scrollIntoViewIfNeeded();
  const box = (await payOut.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  // Each cell is named by its column's header (the headers' row itself is not shown).
  const headers = await balances.locator('thead th').allTextContents();
  const names = await row.locator('td').evaluateAll((cells) => cells.map((cell) => getComputedStyle(cell, '::before').content));
  expect(names).toEqual(headers.map((h) => JSON.stringify(h)));
  expect(headers.slice(0, 3)).toEqual(['Shop', 'Currency', 'Pending']);
  await expect(balances.locator('thead')).toBeHidden();
  for (const cell of await row.locator('td').all()) {
    const b = (await cell.boundingBox())!;
    expect(b.x + b.width).toBeLessThanOrEqual(390);
  }
  // From a phone's width up, the table is a table again.
  await page.setViewportSize({ width: 1024, height: 800 });
  await expect(balances.locator('thead')).toBeVisible();
  expect(await row.locator('td').first().evaluate((cell) => getComputedStyle(cell, '::before').content)).toBe('none');
});

test('an admin pays a shop out and marks the payout paid', async ({ page, request }) => {
  const { shop, order } = await paidOrder(request, true);
  await signedIn(page, DEMO.admin);

  // The order dialog shows each line's commission, at the rate frozen on the line, and the seller's net.
  await sidebar(page).getByRole('menuitem', { name: 'Orders', exact: true }).click();
  const search = page.getByRole('textbox', { name: 'Search' });
  await search.fill(order.tracking_number);
  await search.press('Enter');
  await page.getByRole('main').getByRole('table').first().getByText(order.tracking_number).click();
  const items = page.getByRole('dialog').getByRole('table', { name: 'Items' });
  await expect(items.getByRole('columnheader', { name: /^Commission \(/ })).toBeVisible();
  await expect(items.getByRole('columnheader', { name: /^Seller's net \(/ })).toBeVisible();
  expect(order.items[0].commission_rate).toBe(8);
  await expect(items).toContainText('(8%)');
  await page.screenshot({ path: test.info().outputPath('order-dialog.png') });
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();

  await sidebar(page).getByRole('menuitem', { name: 'Payouts' }).click();
  await expect(page).toHaveURL(/\/payouts$/);
  const payOut = section(page, 'Balances').getByRole('button', { name: new RegExp(`^Pay out ${shop.name} `) }).first();
  await expect(payOut).toBeEnabled();
  // Balances come a page at a time, the newest shop first, with the list screens' pager.
  await expect(page.getByRole('main').getByRole('navigation', { name: en.management.pages }).first().getByText(/^Showing 1 to \d+ of \d+ results$/)).toBeVisible();
  await payOut.click();
  await page.getByRole('dialog').getByRole('button', { name: 'Pay out' }).click();
  await expect(page.getByText(/^Payout of [\d.,]+ \w+ created$/)).toBeVisible();
  await expect(payOut).toBeDisabled();

  const pending = section(page, 'Payouts').getByRole('row').filter({ hasText: shop.name }).filter({ hasText: 'Pending' }).first();
  await pending.getByRole('button', { name: 'Mark paid' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: /Reference/ }).fill('E2E-TRANSFER-7');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText(/^Payout \d+ marked paid$/)).toBeVisible();
  const paid = section(page, 'Payouts').getByRole('row').filter({ hasText: 'E2E-TRANSFER-7' });
  await expect(paid).toContainText('Paid');
  await expect(paid.getByRole('button', { name: 'Mark paid' })).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('payouts.png'), fullPage: true });

  await page.getByRole('link', { name: 'Commissions report' }).click();
  await expect(page.getByRole('heading', { name: 'Commissions report' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Commissions report' }).getByRole('row').filter({ hasText: shop.name }).first()).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('commissions.png'), fullPage: true });
});
