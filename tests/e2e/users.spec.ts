import type { Page } from '@playwright/test';
import { expect, test, type PageOfItsOwn } from './fixtures';
import { DEMO, api, apiLogin, expectMenu, newCategory, newProduct, newShop, sidebar, signedIn, unique, SELLER_MENU } from './helpers';

/** A fresh account registered through the API, so tests never change the demo accounts. */
async function register(page: Page, abilities: '[1]' | '[1,2]') {
  const email = `${unique('person')}@example.com`;
  const name = unique('Person ');
  const res = await api(page.request, '/user', {
    name, email, phone: `+1${Date.now().toString().slice(-9)}${Math.floor(Math.random() * 9)}`, password: 'tulip-pass-1', abilities, source: 'inbuilt',
  });
  expect(res.status, res.query).toBe(true);
  return { name, email, password: 'tulip-pass-1', id: res.detail.id as number, token: res.detail.token as string };
}

/** A second browser, signed in as this account (closed with the test). */
async function otherBrowser(pageOfItsOwn: PageOfItsOwn, account: { email: string; password: string }) {
  const page = await pageOfItsOwn();
  await signedIn(page, account);
  return page;
}

const notice = (page: Page, text: string) => page.getByText(text, { exact: true });

test('users screen: columns, role, Control and Assign Roles; a promoted seller’s sidebar gains Brands on their next navigation', async ({ page, pageOfItsOwn }) => {
  const seller = await register(page, '[1,2]');
  // A brand of the test's own, newest of all: on the first page of Brands.
  const brand = unique('Brand ');
  const admin = await apiLogin(page.request, DEMO.admin.email, DEMO.admin.password);
  expect((await api(page.request, '/brand', { name: brand, type: 'popular', product_id: 0 }, admin.token)).status).toBe(true);
  const theirs = await otherBrowser(pageOfItsOwn, seller);
  await expectMenu(theirs, SELLER_MENU);

  await signedIn(page, DEMO.admin);
  await sidebar(page).getByRole('menuitem', { name: 'Users', exact: true }).click();
  const headers = page.getByRole('table').getByRole('columnheader');
  for (const label of ['Status', 'ID', 'Name', 'Email', 'Phone', 'Shops', 'Role', 'Granted accesses']) {
    await expect(headers.filter({ hasText: new RegExp(`^${label}$`) })).toHaveCount(1);
  }
  const search = page.getByRole('textbox', { name: 'Search', exact: true });
  await search.fill(seller.email.split('@')[0]);
  await search.press('Enter');
  const row = page.getByRole('table').getByRole('row').filter({ hasText: seller.email });
  await expect(row).toContainText('Seller');
  await row.getByText(seller.name).click();
  await expect(page).toHaveURL(new RegExp(`/users/${seller.id}`));
  await expect(page.getByRole('tab', { name: 'Control' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('radio', { name: 'Non-Admin' })).toBeChecked();
  await expect(page.getByRole('button', { name: 'Deactivate / Activate' })).toBeVisible();

  // Accesses only apply to admins: the switches wait until the user is one.
  await page.getByRole('tab', { name: 'Assign Roles' }).click();
  await expect(page.getByText('Granted accesses apply to admins only', { exact: false })).toBeVisible();
  await expect(page.getByRole('switch', { name: 'Brands' })).toBeDisabled();

  await page.getByRole('tab', { name: 'Control' }).click();
  await page.getByRole('radio', { name: 'Admin', exact: true }).check();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(notice(page, 'User updated successfully')).toBeVisible();
  await expect(row).toContainText('Admin');

  await page.getByRole('tab', { name: 'Assign Roles' }).click();
  const brands = page.getByRole('switch', { name: 'Brands' });
  await expect(brands).toBeEnabled();
  await expect(page.getByRole('switch', { name: 'My Shops' })).toHaveCount(0);
  await expect(page.getByRole('switch', { name: 'Dashboard' })).toHaveCount(0);
  await brands.check();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(notice(page, 'Roles assigned successfully')).toBeVisible();
  await expect(row).toContainText('brands');

  // The seller's own browser: the next navigation re-reads the profile, no reload.
  await sidebar(theirs).getByRole('menuitem', { name: 'Products', exact: true }).click();
  await expectMenu(theirs, ['Dashboard', 'My Shops', 'My Products', 'My Orders', 'Brands'], { exact: true });
  await sidebar(theirs).getByRole('menuitem', { name: 'Brands', exact: true }).click();
  await expect(theirs.getByRole('table').getByRole('row').filter({ hasText: brand })).toHaveCount(1);
});

test('a partial admin sees switches for accesses they do not hold disabled, with the reason, and cannot act on themselves', async ({ page }) => {
  const target = await register(page, '[1,2]');
  const admin = await apiLogin(page.request, DEMO.admin.email, DEMO.admin.password);
  expect((await api(page.request, '/user/edit', { id: target.id, abilities: '[1,2,3]' }, admin.token)).status).toBe(true);
  await signedIn(page, { email: 'pat@example.com', password: 'pat12345' });
  await page.goto(`/users/${target.id}/roles`);
  await expect(page.getByRole('switch', { name: 'Brands' })).toBeEnabled();
  const mails = page.getByRole('switch', { name: 'Mail templates' });
  await expect(mails).toBeDisabled();
  await expect(mails).toHaveAccessibleDescription('You do not hold this access yourself');

  // Their own record: the server would refuse, so the console says so.
  const self = await apiLogin(page.request, 'pat@example.com', 'pat12345');
  await page.goto(`/users/${self.id}/control`);
  await expect(page.getByText('This is your own account', { exact: false })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Deactivate / Activate' })).toBeDisabled();
  await page.getByRole('tab', { name: 'Assign Roles' }).click();
  await expect(page.getByRole('switch', { name: 'Brands' })).toHaveAccessibleDescription('You cannot change your own accesses');
});

test('an admin blacklists a user, who is signed out at their next step', async ({ page, pageOfItsOwn }) => {
  const buyer = await register(page, '[1]');
  const theirs = await otherBrowser(pageOfItsOwn, buyer);
  await signedIn(page, DEMO.admin);
  await page.goto(`/users/${buyer.id}/control`);
  await page.getByRole('button', { name: 'Deactivate / Activate' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Deactivate' }).click();
  await expect(notice(page, 'User blacklisted')).toBeVisible();

  await theirs.getByRole('button', { name: 'Account' }).click();
  await theirs.getByRole('menuitem', { name: /My account/ }).click();
  await expect(theirs).toHaveURL(/\/login/);
  const refused = await api(page.request, '/user/terminal', { credential: buyer.email, password: buyer.password, source: 'inbuilt', actionType: 'login' });
  expect(refused.query).toBe('This account has been deactivated; please contact support');

  await page.getByRole('button', { name: 'Deactivate / Activate' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Activate' }).click();
  await expect(notice(page, 'User activated')).toBeVisible();
});

test('a seller changes their Paypal email on /paypal, and signs out their other sessions', async ({ page }) => {
  const seller = await register(page, '[1,2]');
  const shop = await api(page.request, '/shop', {
    name: unique('Paypal Shop '), description: 'Sells things', category_id: (await newCategory(page.request)).id, street_name: '1 Road', zip: '1000', country: 'Liberia',
    bank_name: 'First Bank', bank_country: 'Liberia', account_name: seller.name, account_number: '123456',
  }, seller.token);
  expect(shop.status, shop.query).toBe(true);
  const other = await apiLogin(page.request, seller.email, seller.password);

  await signedIn(page, seller);
  await page.getByRole('button', { name: 'Account' }).click();
  const item = page.getByRole('menuitem', { name: /My account/ });
  await expect(item).toContainText(seller.name);
  await expect(item).toContainText('Seller');
  await page.keyboard.press('Escape');

  await page.goto('/paypal');
  await expect(page.getByRole('heading', { name: 'Paypal details' })).toBeFocused();
  const paypal = page.getByRole('region', { name: 'Paypal details' });
  const email = `${unique('pay')}@example.com`;
  await paypal.getByLabel('Paypal Username').fill(email);
  await paypal.getByRole('button', { name: 'Save Paypal details' }).click();
  await expect(notice(page, 'Shop updated successfully')).toBeVisible();
  const shops = await api(page.request, '/shopz', { owner_id: seller.id }, seller.token);
  expect(shops.HLL[0].paypal).toEqual({ paypal_email: email, name_of_seller: seller.name });
  expect(shops.HLL[0].bank.account_number).toBe('123456');

  const sessions = page.getByRole('region', { name: 'Signed-in sessions' });
  await expect(sessions.getByRole('listitem')).toHaveCount(3);
  await sessions.getByRole('button', { name: 'Sign out everywhere else' }).click();
  await expect(notice(page, 'Signed out of 2 other sessions')).toBeVisible();
  await expect(sessions.getByRole('listitem')).toHaveCount(1);
  expect((await api(page.request, '/user/sessions', {}, other.token)).status).toBe(false);
});

test('a new phone number on the account page asks for the current password (ASVS 7.5.1)', async ({ page }) => {
  const seller = await register(page, '[1,2]');
  await signedIn(page, seller);
  await page.goto('/account');
  const profile = page.getByRole('region', { name: 'Profile' });
  const current = profile.getByLabel('Current password');
  await profile.getByLabel('Full Name').fill(`${seller.name} Jr`);
  await expect(current).toHaveCount(0);
  const phone = `+44 7700 9${String(Date.now()).slice(-5)}`;
  await profile.getByLabel('Phone Number').fill(phone);
  await expect(current).toBeVisible();
  await expect(profile.getByText('Needed to change your email or phone number')).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('account-phone.png') });
  await current.fill('not-the-password');
  await profile.getByRole('button', { name: 'Save profile' }).click();
  await expect(notice(page, 'The current password is not correct')).toBeVisible();
  await current.fill(seller.password);
  await profile.getByRole('button', { name: 'Save profile' }).click();
  await expect(notice(page, 'User updated successfully')).toBeVisible();
  const me = await api(page.request, '/users', { id: seller.id }, seller.token);
  expect(me.detail.phone).toBe(phone);
});

test('global search finds a product by part of its name and opens it; show all applies the search', async ({ page }) => {
  // A product of the test's own, found by a part of its name from inside a word.
  const seller = await register(page, '[1,2]');
  const category = await newCategory(page.request);
  const name = unique('Teapot ');
  const product = await newProduct(page.request, seller.token, (await newShop(page.request, seller.token, category)).id, category, name);
  const part = name.slice(3);
  await signedIn(page, DEMO.admin);
  const box = page.getByRole('searchbox', { name: 'Search the console' });
  await box.fill(part);
  await box.press('Enter');
  await expect(page).toHaveURL(`/search?q=${encodeURIComponent(part)}`);
  const products = page.getByRole('region', { name: 'Products' });
  await products.getByRole('link', { name: `${name} (#${product.id})`, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/products/${product.id}$`));
  await expect(page.getByRole('heading', { name: `Editing ${name} (#${product.id})` })).toBeVisible();

  await page.goBack();
  await page.getByRole('region', { name: 'Products' }).getByRole('link', { name: /Show all/ }).click();
  await expect(page).toHaveURL(/\/products\?q=/);
  await expect(page.getByRole('textbox', { name: 'Search', exact: true })).toHaveValue(part);
  await expect(page.getByRole('table').getByRole('row')).toHaveCount(2);
});
