/**
 * Every money column of the orders names its currency: the order dialog's prices and totals in the
 * order's currency and, converted, in the viewer's; the list's amounts in the viewer's.
 */
import { expect, test } from './fixtures';
import { formatMoney } from '../../contract';
import { DEMO, api, apiLogin, newCategory, newProduct, newShop, signedIn, unique } from './helpers';
import { registered } from './reference-helpers';

test("the order dialog labels the order's currency and the viewer's on every money column", async ({ page, request }) => {
  // A seller's shop sells in GBP; a buyer orders from it.
  const seller = await registered(request);
  const category = await newCategory(request);
  const shop = { detail: await newShop(request, seller.token, category, unique('Pound Shop '), { street_name: '1 Road', zip: 'SW1A 1AA', country: 'United Kingdom' }) };
  const product = { detail: await newProduct(request, seller.token, shop.detail.id, category, unique('Teapot '), { currency: { code: 'GBP' } }) };
  const buyer = await apiLogin(request, DEMO.buyer.email, DEMO.buyer.password);
  const order = await api(request, '/order', {
    shop_id: shop.detail.id, items: [{ product_id: product.detail.id, quantity: 2 }],
    shipping_address: { street_name: '2 Lane', city: 'London', state: 'England', country: 'United Kingdom', zip: 'SW1A 1AA' },
    customer_contact: '+440000000',
  }, buyer.token);
  expect(order.detail.currency).toBe('GBP');

  await signedIn(page, DEMO.admin);
  await page.goto('/orders');
  await expect(page.getByRole('combobox', { name: 'Display currency' })).toHaveText('USD');
  const box = page.getByRole('textbox', { name: 'Search' });
  await box.fill(order.detail.tracking_number);
  await box.press('Enter');
  const row = page.getByRole('table').getByRole('row').filter({ hasText: order.detail.tracking_number });
  // The list's amounts are converted into the viewer's currency, and say so.
  await expect(row.locator('[data-money]').first()).toHaveText(/^\$[\d,]+\.\d\d USD$/);

  await row.getByText(order.detail.tracking_number).click();
  const dialog = page.getByRole('dialog');
  const items = dialog.getByRole('table', { name: 'Items' });
  // An admin also sees each line's commission and the seller's net, in the order's currency.
  await expect(items.getByRole('columnheader')).toHaveText(['Product', 'Quantity', 'Price (GBP)', 'Line total (GBP)', 'Commission (GBP)', "Seller's net (GBP)", 'Line total (USD)']);
  await expect(items.getByRole('row').nth(1).getByRole('cell').nth(3)).toContainText(`${formatMoney(40, '£')} GBP`);
  const totals = dialog.getByRole('table', { name: 'Totals' });
  await expect(totals.getByRole('columnheader')).toHaveText(['Totals', 'Amount (GBP)', 'Amount (USD)']);
  // The total is the items and the delivery the server charged, in the order's currency.
  expect(order.detail.total).toBe(Math.round((40 + order.detail.delivery_fee) * 100) / 100);
  await expect(totals.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Total', exact: true }) })).toContainText(`${formatMoney(order.detail.total, '£')} GBP`);
  await page.screenshot({ path: test.info().outputPath('order-dialog.png') });
});
