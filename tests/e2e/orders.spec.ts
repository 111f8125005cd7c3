import { formatMoney } from '../../contract';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { api, apiLogin, DEMO, nameOf, newCategory, newProduct, newShop, sidebar, signedIn, unique } from './helpers';
import { registered } from './reference-helpers';
import { ORDER_STATUS_NAMES } from '../spec';

const table = (page: Page) => page.getByRole('main').getByRole('table').first();
const row = (page: Page, text: string) => table(page).getByRole('row').filter({ hasText: text });

async function search(page: Page, text: string, rows = 2) {
  const box = page.getByRole('textbox', { name: 'Search' });
  await box.fill(text);
  await box.press('Enter');
  if (rows) await expect(table(page).getByRole('row')).toHaveCount(rows);
}


/**
 * An order of its own: a new seller's shop and product, bought by another new account, shipped to an
 * address no other test uses. Nothing here depends on the demo's orders.
 */
/** A new seller's shop with one product at 20 USD, five in stock: its name, unique to the test (or the one given). */
async function onSale(request: APIRequestContext, productName = unique('Order Lamp ')) {
  const seller = await registered(request, unique('Order Seller '));
  const category = await newCategory(request);
  const shop = await newShop(request, seller.token, category, unique('Order Shop '), { street_name: '1 Road', zip: 'SW1A 1AA', country: 'United Kingdom' });
  const product = await newProduct(request, seller.token, shop.id, category, productName);
  return { seller, shop, product };
}

async function placedOrder(request: APIRequestContext) {
  const { seller, shop, product } = await onSale(request);
  const buyer = await registered(request, unique('Order Buyer '));
  // A country with a per-mile price (the demo's shipping settings), so the order has a delivery fee.
  const address = { street_name: `${Math.floor(Math.random() * 1e6)} High Road`, city: 'London', state: 'England', country: 'United Kingdom', zip: 'SW1A 1AA' };
  const order = await api(request, '/order', {
    shop_id: shop.id, items: [{ product_id: product.id, quantity: 1 }], shipping_address: address, customer_contact: '+440000000',
  }, buyer.token);
  expect(order.status).toBe(true);
  const { street_name, city, state, country, zip } = address;
  return {
    seller, buyer, id: Number(order.detail.id), tracking: order.detail.tracking_number as string, total: Number(order.detail.total),
    address: `${street_name}, ${city}, ${state}, ${country}, ${zip}`,
  };
}

test.describe('orders', () => {
  test('an admin opens an order, sees its dialog and timeline, and moves it to Order Shipped', async ({ page, request }) => {
    const order = await placedOrder(request);
    await signedIn(page, DEMO.admin);
    await sidebar(page).getByRole('menuitem', { name: 'Orders', exact: true }).click();
    // Other tests place orders: the count is whatever the database holds.
    await expect(page.getByText(/^Count: \d+$/)).toBeVisible();
    await search(page, order.tracking);
    await expect(row(page, order.tracking)).toContainText('New Order');
    await expect(row(page, order.tracking)).toContainText(order.address);

    await row(page, order.tracking).getByText(order.tracking).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('heading', { name: 'Order details' })).toBeVisible();
    await expect(dialog.getByRole('table', { name: 'Items' })).toContainText('Product');
    await expect(dialog).toContainText(order.buyer.name);
    await expect(dialog).toContainText(order.address);
    await expect(dialog.getByRole('list', { name: 'Status history' })).toContainText('New Order: placed by');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();

    await expect(page).toHaveURL(new RegExp(`/orders/${order.id}$`));
    await expect(page.getByRole('tab', { name: 'Control' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('tab', { name: /Add \/ Edit|Editor/ })).toHaveCount(0);
    await page.getByRole('radio', { name: 'Order Shipped' }).check();
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText('Order status updated successfully', { exact: true })).toBeVisible();
    await expect(row(page, order.tracking)).toContainText('Order Shipped');

    await row(page, order.tracking).getByText(order.tracking).click();
    await expect(dialog.getByRole('list', { name: 'Status history' })).toContainText(`New Order → Order Shipped: by ${await nameOf(request, DEMO.admin)}`);
  });

  test('a seller reviews an order of their shop on My Orders; once paid and cancelled, it stays cancelled, as the server says', async ({ page, request }) => {
    const [mine, theirs] = [await placedOrder(request), await placedOrder(request)];
    await signedIn(page, mine.seller);
    await sidebar(page).getByRole('menuitem', { name: 'Orders', exact: true }).click();
    await expect(page).toHaveURL(/\/my-orders$/);
    await expect(page.getByText('This is section is visible to authorized person(s)')).toBeVisible();
    // Another seller's orders are not listed.
    const other = page.getByRole('textbox', { name: 'Search' });
    await other.fill(theirs.tracking);
    await other.press('Enter');
    await expect(page.getByText('No Data')).toBeVisible();
    await search(page, mine.tracking);
    await row(page, mine.tracking).getByText(mine.tracking).click();
    await expect(page.getByRole('dialog')).toContainText('Order details');
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    await expect(page.getByRole('tab', { name: 'Review' })).toHaveAttribute('aria-selected', 'true');
    await page.getByRole('radio', { name: 'Order in Transit' }).check();
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText('Order status updated successfully', { exact: true })).toBeVisible();
    await expect(row(page, mine.tracking)).toContainText('Order in Transit');

    // An admin records its payment, then cancels it (its payment refunded): it is not reopened.
    const admin = (await apiLogin(request, DEMO.admin.email, DEMO.admin.password)).token;
    expect((await api(request, '/order', { id: mine.id, paid_total: mine.total }, admin)).status).toBe(true);
    expect((await api(request, '/order/status', { id: mine.id, status: 6 }, admin)).status).toBe(true);
    await page.reload();
    await expect(row(page, mine.tracking)).toContainText('Order Cancelled');
    await page.getByRole('radio', { name: 'Order Shipped' }).check();
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText(`Order ${mine.id} was cancelled after it was paid and its payment refunded: it stays cancelled; place a new order`, { exact: true })).toBeVisible();
    await expect(row(page, mine.tracking)).toContainText('Order Cancelled');
  });

  test("My Orders' rows come with their status and totals, never filled in after the rows", async ({ page, request }) => {
    // A new seller whose one order is the test's.
    const { seller } = await placedOrder(request);
    // Watches every change of the page: whether rows were ever shown with a cell still loading.
    await page.addInitScript(() => {
      const seen = { rows: false, late: false };
      (window as unknown as { cells: typeof seen }).cells = seen;
      new MutationObserver(() => {
        const rows = document.querySelectorAll('main table tbody tr');
        if (!rows.length) return;
        seen.rows = true;
        if (document.querySelector('main table tbody [role="progressbar"]')) seen.late = true;
      }).observe(document, { childList: true, subtree: true });
    });
    await signedIn(page, seller);
    await sidebar(page).getByRole('menuitem', { name: 'Orders', exact: true }).click();
    await expect(page).toHaveURL(/\/my-orders$/);
    await expect(table(page).getByRole('row')).toHaveCount(2);
    const first = table(page).getByRole('row').nth(1);
    await expect(first.locator('[data-money]').first()).toHaveText(/\d/);
    await expect(first).toContainText(ORDER_STATUS_NAMES[1]);
    expect(await page.evaluate(() => (window as unknown as { cells: { rows: boolean; late: boolean } }).cells)).toEqual({ rows: true, late: false });
  });

  test('amounts show in the chosen currency, remembered, with the original and the rate on hover', async ({ page, request }) => {
    const { tracking, total: own } = await placedOrder(request);
    await signedIn(page, DEMO.admin);
    await page.goto('/orders');
    await search(page, tracking);
    const chooser = page.getByRole('combobox', { name: 'Display currency' });
    await expect(chooser).toHaveText('USD');
    await expect(row(page, tracking).locator('[data-money]').first()).toHaveText(/^\$[\d,]+\.\d\d USD$/);
    await chooser.click();
    await page.getByRole('option', { name: 'NGN ₦' }).click();
    const total = row(page, tracking).locator('[data-money]').nth(1);
    await expect(total).toHaveText(/^₦[\d,]+\.\d\d NGN$/);
    await total.hover();
    // The original amount (the order's own: one lamp at 20 USD and its delivery) and the rate used.
    expect(own).toBeGreaterThan(20);
    await expect(page.getByRole('tooltip')).toHaveText(new RegExp(`^\\${formatMoney(own, '').replace('.', '\\.')} USD, at 1 USD = [\\d.]+ NGN$`));
    await page.reload();
    await expect(page.getByRole('combobox', { name: 'Display currency' })).toHaveText('NGN');
  });

  test('a buyer fills a cart, checks out, and the seller sees the new order', async ({ page, pageOfItsOwn, request }) => {
    const { seller: owner, shop, product } = await onSale(request);
    await signedIn(page, DEMO.buyer);
    await page.getByRole('button', { name: 'Cart: 0 item(s)' }).click();
    await expect(page).toHaveURL(/\/checkout$/);
    await expect(page.getByText('Your cart is empty.')).toBeVisible();
    await page.getByRole('link', { name: 'Continue shopping' }).click();
    await expect(page.getByRole('heading', { name: 'Catalogue', level: 1 })).toBeVisible();
    const box = page.getByRole('textbox', { name: 'Search' });
    await box.fill(product.name);
    await box.press('Enter');
    const lamp = page.getByRole('row').filter({ hasText: shop.name });
    await expect(page.getByRole('table', { name: 'Catalogue' }).getByRole('row')).toHaveCount(2);
    await lamp.getByRole('button', { name: 'Add to cart' }).click();
    await lamp.getByRole('button', { name: 'Add to cart' }).click();
    await expect(page.getByRole('button', { name: 'Cart: 2 item(s)' })).toBeVisible();

    await page.getByRole('button', { name: 'Cart: 2 item(s)' }).click();
    const line = page.getByRole('table', { name: 'Cart items' }).getByRole('row').filter({ hasText: product.name });
    await expect(line.getByRole('cell').nth(2)).toHaveText(/^\$20\.00\b/);
    await expect(line.getByRole('cell').nth(4)).toHaveText(/^\$40\.00\b/);
    await page.getByRole('button', { name: `One more ${product.name}` }).click();
    await page.getByRole('button', { name: `One less ${product.name}` }).click();
    await expect(page.getByTestId('cart-total')).toHaveText('Total: $40.00');

    await page.getByRole('button', { name: 'Place order' }).click();
    // The missing parts are flagged red, each with a word under it (not colour alone).
    await expect(page.getByLabel('Street name *')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('Street name *')).toHaveAccessibleDescription('Required');
    await expect(page.getByLabel('Country *')).toHaveAccessibleDescription('Required');
    await expect(page.getByLabel('City')).toHaveAttribute('aria-invalid', 'false');
    await page.screenshot({ path: test.info().outputPath('checkout-required.png'), fullPage: true });
    await page.getByLabel('Street name *').fill('5 Broad Street');
    await page.getByLabel('City').fill('Monrovia');
    await page.getByLabel('Country *').fill('Liberia');
    await page.getByRole('button', { name: 'Place order' }).click();
    await expect(page.getByRole('heading', { name: 'Order placed', level: 1 })).toBeVisible();
    const id = new URL(page.url()).searchParams.get('orders');
    expect(id).toMatch(/^\d+$/);
    await expect(page.getByText(`your order #${id} has been placed`)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Cart: 0 item(s)' })).toBeVisible();
    expect(await page.evaluate(() => window.localStorage.getItem('cart'))).toBeNull();

    const seller = await pageOfItsOwn();
    await signedIn(seller, owner);
    await seller.goto('/my-orders');
    // An id search also finds orders whose date or tracking number contains those digits.
    await search(seller, id!, 0);
    const placed = row(seller, '5 Broad Street, Monrovia, Liberia');
    await expect(placed).toHaveCount(1);
    await expect(placed.getByRole('cell').first()).toHaveText(id!);
    await expect(placed).toContainText('New Order');
    await expect(placed).toContainText('Unpaid');
  });

  test("a seller sees no 'Add to cart' on their own products, in the catalogue or the image dialog", async ({ page, request }) => {
    // Two new sellers' products under one word of this test: the first seller's own, and another's.
    const word = unique('Twin ');
    const { seller, product: mine } = await onSale(request, `${word} mine`);
    const { product: theirs } = await onSale(request, `${word} theirs`);
    await signedIn(page, seller);
    await page.goto('/catalogue');
    const box = page.getByRole('textbox', { name: 'Search' });
    await box.fill(word);
    await box.press('Enter');
    const rows = page.getByRole('table', { name: 'Catalogue' }).getByRole('row');
    await expect(rows).toHaveCount(3);
    const own = rows.filter({ hasText: mine.name });
    const others = rows.filter({ hasText: theirs.name });
    await expect(own).toHaveCount(1);
    await expect(others).toHaveCount(1);
    await expect(own.getByRole('button', { name: /Add to cart|Out of stock/ })).toHaveCount(0);
    await expect(others.getByRole('button', { name: 'Add to cart' })).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('catalogue-seller.png'), fullPage: true });

    await page.goto('/my-products');
    await table(page).getByRole('button', { name: 'double click' }).first().dblclick();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('button', { name: 'OK' })).toBeVisible();
    await expect(dialog.getByRole('button', { name: /Add to cart|Out of stock/ })).toHaveCount(0);
  });

  test('a buyer buys from the catalogue in their sidebar and follows the order in My purchases, read only', async ({ page, request }) => {
    const { product } = await onSale(request);
    await signedIn(page, DEMO.buyer);
    await sidebar(page).getByRole('menuitem', { name: 'Catalogue' }).click();
    await expect(page.getByRole('heading', { name: 'Catalogue', level: 1 })).toBeVisible();
    const box = page.getByRole('textbox', { name: 'Search' });
    await box.fill(product.name);
    await box.press('Enter');
    await expect(page.getByRole('table', { name: 'Catalogue' }).getByRole('row')).toHaveCount(2);
    await page.getByRole('row').filter({ hasText: product.name }).getByRole('button', { name: 'Add to cart' }).click();
    await page.getByRole('button', { name: 'Cart: 1 item(s)' }).click();
    await page.getByLabel('Street name *').fill('7 Purchase Lane');
    await page.getByLabel('Country *').fill('Liberia');
    await page.getByRole('button', { name: 'Place order' }).click();
    await expect(page.getByRole('heading', { name: 'Order placed', level: 1 })).toBeVisible();
    const id = new URL(page.url()).searchParams.get('orders')!;
    expect(id).toMatch(/^\d+$/);
    await expect(page.getByRole('link', { name: 'See my purchases' })).toHaveAttribute('href', '/my-purchases');

    // The dashboard's orders card leads to the buyer's purchases.
    await sidebar(page).getByRole('menuitem', { name: 'Dashboard' }).click();
    await page.getByRole('link', { name: /Orders/ }).first().click();
    await expect(page).toHaveURL(/\/my-purchases$/);
    // A buyer's own list is headed by its name: it is no administrators' section.
    await expect(page.getByRole('heading', { name: 'My purchases', level: 1 })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Administrative' })).toHaveCount(0);
    await expect(page.getByText('This is section is visible to authorized person(s)')).toHaveCount(0);
    await search(page, id, 0);
    const placed = row(page, '7 Purchase Lane');
    await expect(placed).toHaveCount(1);
    await expect(placed.getByRole('cell').first()).toHaveText(id);
    await expect(placed).toContainText('New Order');
    await expect(page.getByRole('button', { name: 'Explore' })).toHaveCount(0);

    await placed.getByRole('cell').first().click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('heading', { name: 'Order details' })).toBeVisible();
    await expect(dialog).toContainText(product.name);
    await expect(dialog.getByRole('table', { name: 'Totals' })).toContainText('Delivery fee');
    await expect(dialog.getByRole('list', { name: 'Status history' })).toContainText('New Order: placed by');
    await dialog.getByRole('button', { name: 'Close' }).click();
    // Nothing to change: no form, no Control.
    await expect(page.getByRole('tab', { name: 'Control' })).toHaveCount(0);
    await expect(page.getByRole('tab', { name: /Add \/ Edit|Editor/ })).toHaveCount(0);
    await expect(page.getByRole('radio')).toHaveCount(0);

    // The global search finds it among the buyer's purchases.
    const everything = page.getByRole('search').getByRole('searchbox');
    await everything.fill(id);
    await everything.press('Enter');
    const group = page.getByRole('region', { name: 'My purchases' });
    await expect(group.getByRole('link', { name: new RegExp(`#${id}\\b`) })).toBeVisible();
  });

  test('order statuses are listed read-only; an exchange rate is added with the country picker and deleted', async ({ page, request }) => {
    await signedIn(page, DEMO.admin);
    await sidebar(page).getByRole('menuitem', { name: 'Order Status' }).click();
    await expect(table(page).getByRole('row')).toHaveCount(Object.keys(ORDER_STATUS_NAMES).length + 1);
    await expect(table(page)).toContainText('Order in Transit');
    await expect(page.getByRole('button', { name: 'Explore' })).toHaveCount(0);
    // A row opens its details, with nothing to change.
    await table(page).getByText('Order Shipped').click();
    const panel = page.getByRole('region', { name: 'Editing panel' });
    await expect(panel.getByRole('tab', { name: 'Details' })).toBeVisible();
    await expect(panel.getByRole('tab')).toHaveCount(1);
    await expect(panel.getByRole('button', { name: /^(Save|Submit)$/ })).toHaveCount(0);
    await expect(panel.getByRole('textbox')).toHaveCount(0);

    await sidebar(page).getByRole('menuitem', { name: 'Curencies Exchange' }).click();
    await expect(page).toHaveURL(/\/Currencies-exchange$/);
    const rates = (await api(request, '/exchangess', {})).HLL as unknown[];
    await expect(page.getByText(`Count: ${rates.length}`, { exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Explore' }).click();
    await page.getByLabel('Value per dollar *').fill('15.5');
    await page.getByLabel('Currency symbol *').fill('₵');
    await page.getByLabel('Code *').fill('GHS');
    await page.getByLabel('Currency *', { exact: true }).fill('Ghanaian Cedi');
    const country = page.getByRole('combobox', { name: 'Country' });
    await country.click();
    await country.fill('Ghan');
    await page.getByRole('option', { name: 'Ghana', exact: true }).click();
    await expect(page.getByRole('combobox', { name: 'State' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Exchange rate created successfully', { exact: true })).toBeVisible();
    await expect(row(page, 'GHS')).toContainText('Ghana');
    await expect(row(page, 'GHS')).toContainText(/(^|[^0-9.])15\.5($|[^0-9])/);

    await page.getByRole('tab', { name: 'Control' }).click();
    await expect(page.getByRole('button', { name: 'Submit' })).toHaveCount(0);
    await page.getByRole('main').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('Exchange rate deleted successfully', { exact: true })).toBeVisible();
    await expect(row(page, 'GHS')).toHaveCount(0);
  });
});
