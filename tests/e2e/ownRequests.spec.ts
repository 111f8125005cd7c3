/**
 * Issue 25 in the browser: a seller writes to support and asks for their account's deletion from the
 * account page, and an admin sees both (settling 'Delete Permanently' only after a confirmation); a
 * buyer's cart from two shops shows each shop's delivery fee before paying, from the account's address,
 * and the placed orders keep them.
 */
import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';
import { formatMoney } from '../../contract';
import { DEMO, api, apiLogin, newCategory, newProduct, newShop, signedIn, unique } from './helpers';
import { notice, registered, row, search } from './reference-helpers';

test('a seller writes to support and asks for deletion from the account page; an admin sees both', async ({ page, pageOfItsOwn, request }) => {
  const seller = await registered(request, unique('Leaving Seller '));
  await signedIn(page, seller);
  await page.goto('/account');
  const title = unique('Payout question ');

  const support = page.getByRole('region', { name: 'Write to support' });
  await expect(support.getByRole('button', { name: 'Send to support' })).toBeDisabled();
  await support.getByLabel('Title *').fill(title);
  await support.getByLabel('Message *').fill('When is my payout sent?');
  await support.getByRole('button', { name: 'Send to support' }).click();
  await expect(notice(page, 'Support message created successfully')).toBeVisible();
  await expect(support.getByLabel('Title *')).toHaveValue('');

  const deletion = page.getByRole('region', { name: 'Delete my account' });
  const feedback = unique('Closing my business ');
  await deletion.getByLabel('Feedback *').fill(feedback);
  await deletion.getByRole('button', { name: 'Ask for deletion' }).click();
  // Nothing is sent before the seller confirms: cancelling keeps the form.
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Ask for your account’s deletion?');
  await page.screenshot({ path: test.info().outputPath('account-deletion-confirm.png'), fullPage: true });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('deletion-state')).toHaveCount(0);
  await deletion.getByRole('button', { name: 'Ask for deletion' }).click();
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(notice(page, 'Deletion request created successfully')).toBeVisible();
  await expect(page.getByTestId('deletion-state')).toContainText('waiting for an administrator');
  // One open request at a time: no second one can be asked for.
  await expect(deletion.getByRole('button', { name: 'Ask for deletion' })).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('account-requests.png'), fullPage: true });

  const admin = await pageOfItsOwn();
  await signedIn(admin, DEMO.admin);
  await admin.goto('/support');
  await search(admin, title);
  await expect(row(admin, title)).toContainText(seller.name);
  await expect(row(admin, title)).toContainText('When is my payout sent?');

  await admin.goto('/deletion-requests');
  await search(admin, feedback);
  await row(admin, feedback).getByText(seller.name).click();
  await admin.getByRole('combobox', { name: /Deletion status/ }).click();
  await admin.getByRole('option', { name: 'Delete Permanently' }).click();
  await admin.getByRole('button', { name: 'Save' }).click();
  const confirm = admin.getByRole('dialog');
  await expect(confirm).toContainText('Delete this account permanently?');
  await expect(confirm).toContainText(`The account of ${seller.name}`);
  await admin.screenshot({ path: test.info().outputPath('admin-delete-confirm.png'), fullPage: true });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(row(admin, feedback)).toContainText('No action');
  await admin.getByRole('button', { name: 'Save' }).click();
  await admin.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
  await expect(notice(admin, 'Deletion request updated successfully')).toBeVisible();
  await expect(row(admin, feedback)).toContainText('Deleted user');
});

/** A new seller's shop at a place, selling one product in USD. */
async function shopSelling(request: APIRequestContext, place: { city: string; state: string; country: string }) {
  const seller = await registered(request, unique('Shipper '));
  const category = await newCategory(request);
  const shop = await newShop(request, seller.token, category, unique(`${place.city} Shop `), { street_name: '1 Road', zip: 'z', ...place });
  const product = await newProduct(request, seller.token, shop.id, category, unique('Crate '), { price: 30 });
  return { shop, product };
}

test("a cart from two shops shows each shop's delivery fee from the account's address; the orders keep them", async ({ page, request }) => {
  const admin = await apiLogin(request, DEMO.admin.email, DEMO.admin.password);
  expect((await api(request, '/mile', { country: 'Ghana', currency: 'USD', value_per_mile: 0.4 }, admin.token)).status).toBe(true);
  const lagos = await shopSelling(request, { city: 'Lagos', state: 'Lagos', country: 'Nigeria' });
  const london = await shopSelling(request, { city: 'London', state: 'England', country: 'United Kingdom' });
  const buyer = await registered(request, unique('Buyer '));

  await signedIn(page, buyer);
  await page.goto('/account');
  const address = page.getByRole('region', { name: 'Address' });
  await address.getByLabel('Street name').fill('4 Ring Road');
  await address.getByLabel('City').fill('Accra');
  await address.getByLabel('State').fill('Greater Accra');
  await address.getByLabel('Country').fill('Ghana');
  await address.getByRole('button', { name: 'Save address' }).click();
  await expect(notice(page, 'User updated successfully')).toBeVisible();

  for (const { product } of [lagos, london]) {
    await page.goto('/catalogue');
    const box = page.getByRole('textbox', { name: 'Search' });
    await box.fill(product.name);
    await box.press('Enter');
    await page.getByRole('row').filter({ hasText: product.name }).getByRole('button', { name: 'Add to cart' }).click();
  }
  await page.getByRole('button', { name: 'Cart: 2 item(s)' }).click();
  // The account's address is the delivery address.
  await expect(page.getByLabel('Street name *')).toHaveValue('4 Ring Road');
  await expect(page.getByLabel('Country *')).toHaveValue('Ghana');
  const fees = page.getByRole('table', { name: 'Delivery' }).getByRole('row');
  await expect(fees).toHaveCount(3);
  const lagosFee = page.getByTestId(`delivery-${lagos.shop.id}`).getByTestId('delivery-fee');
  const londonFee = page.getByTestId(`delivery-${london.shop.id}`).getByTestId('delivery-fee');
  await expect(lagosFee).toHaveText(/^\$[\d,]+\.\d\d$/);
  await expect(londonFee).toHaveText(/^\$[\d,]+\.\d\d$/);
  await expect(page.getByTestId('cart-total')).toHaveText(/^Total, delivery included: \$[\d,]+\.\d\d$/);
  await page.screenshot({ path: test.info().outputPath('checkout-delivery.png'), fullPage: true });
  const shown = [await lagosFee.textContent(), await londonFee.textContent()];

  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page.getByRole('heading', { name: 'Order placed', level: 1 })).toBeVisible();
  const ids = new URL(page.url()).searchParams.get('orders')!.split(',').map(Number);
  expect(ids).toHaveLength(2);
  const placed = [];
  for (const id of ids) {
    const found = await api(request, '/search-dive', { keyIndex: 4, value: String(id), targets: ['id'] }, admin.token);
    placed.push((found.HLL as { id: number; delivery_fee: number; shop_id: number }[]).find((o) => o.id === id)!);
  }
  expect(placed.map((o) => o.shop_id)).toEqual([lagos.shop.id, london.shop.id]);
  expect(placed.map((o) => formatMoney(Number(o.delivery_fee), '$'))).toEqual(shown);
});
