import fs from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { hsl, png } from '../../server/png';
import { DEMO, api, apiLogin, choose, holdRecordLookUps, holdRequests, newCategory, newProduct, newShop, pick, signedIn, unique, type OwnCategory } from './helpers';
import { registered } from './reference-helpers';

const table = (page: Page) => page.getByRole('table');
const row = (page: Page, text: string) => table(page).getByRole('row').filter({ hasText: text });
const notice = (page: Page, text: string | RegExp) => page.getByText(text, { exact: typeof text === 'string' });

/** Picks a category of the test's own, typed in full (the picker searches as it is typed), then its subcategory. */
async function chooseCategory(page: Page, category: OwnCategory) {
  await pick(page, 'Category', category.name);
  await choose(page, 'Subcategory', category.subcategory.name);
}

/** A seller's product of the test's own, in a new shop of theirs. */
async function ownProduct(request: APIRequestContext, token: string, fields: Record<string, unknown> = {}) {
  const category = await newCategory(request);
  const shop = await newShop(request, token, category);
  return newProduct(request, token, shop.id, category, unique('Own Product '), fields);
}

async function search(page: Page, text: string) {
  const box = page.getByRole('textbox', { name: 'Search' });
  await box.fill(text);
  await box.press('Enter');
}

/** Four small PNG pictures, as a seller would pick from their disk. */
const pictures = [1, 2, 3, 4].map((n) => ({
  name: `side-${n}.png`,
  mimeType: 'image/png',
  buffer: png(24, 24, (x, y) => hsl(n * 80, 0.6, (x + y) % 8 < 4 ? 0.4 : 0.6)),
}));

test('a seller creates a product with 4 images, sees them, and sets it to draft; an admin sets premier @smoke', async ({ page, pageOfItsOwn }) => {
  const name = unique('Lamp ');
  const category = await newCategory(page.request);
  const seller = await apiLogin(page.request, DEMO.seller.email, DEMO.seller.password);
  // A new shop of the seller's: it has no products yet, so any currency is its one.
  const shop = await newShop(page.request, seller.token, category);
  await signedIn(page, DEMO.seller);
  await page.goto('/my-products/create');

  // The upload box needs the product's name first (SPEC §5).
  await page.getByText('Upload a file by clicking here').click();
  await expect(notice(page, 'Product name is not available yet')).toBeVisible();
  await page.getByLabel('name *', { exact: true }).fill(name);
  await page.getByLabel('Upload a file by clicking here').setInputFiles(pictures);
  await expect(page.getByText('4 / 4')).toBeVisible();
  await expect(page.getByRole('img', { name: /^Image \d$/ })).toHaveCount(4);

  await page.getByLabel('description *').fill('A lamp for reading');
  await chooseCategory(page, category);
  await choose(page, 'Currency ( Unique Currency per Shop )', 'NGN');
  await choose(page, 'Shop', shop.name);
  await page.getByLabel('(Cancel) Price *').fill('12000');
  await page.getByLabel('sale price *').fill('11000');
  await page.getByLabel('in stock *').fill('7');
  await page.getByLabel('brand name *').fill('Acme');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(notice(page, 'Product created successfully')).toBeVisible();
  await expect(page).toHaveURL(/\/my-products\/\d+$/);
  const id = page.url().split('/').pop()!;

  // The form previews the saved images from their thumbnails.
  const preview = page.getByRole('img', { name: 'Image 1' });
  await expect(preview).toHaveAttribute('src', /\/files\/images\/.*_1\.png\?size=thumb$/);
  await expect(preview).toHaveJSProperty('complete', true);
  expect(await preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(24);
  await page.screenshot({ path: test.info().outputPath('product-form-thumbnails.png') });

  // The images were uploaded before the save and are shown whole in the dialog, not their addresses.
  await row(page, name).getByRole('button', { name: 'double click' }).dblclick();
  const dialog = page.getByRole('dialog', { name: `Images of ${name}` });
  await expect(dialog.getByRole('img')).toHaveCount(4);
  await expect(dialog.getByRole('img').first()).toHaveJSProperty('complete', true);
  expect(await dialog.getByRole('img').first().evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(24);
  await expect(dialog.getByRole('img').first()).toHaveAttribute('src', /_1\.png$/);
  await page.screenshot({ path: test.info().outputPath('product-images.png') });
  await dialog.getByRole('button', { name: 'OK' }).click();

  await page.getByRole('tab', { name: 'Control' }).click();
  await expect(page).toHaveURL(new RegExp(`/my-products/${id}/control$`));
  await page.getByRole('radio', { name: 'draft' }).check();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(notice(page, 'Product status updated successfully')).toBeVisible();
  await expect(row(page, name).getByRole('img', { name: 'Inactive' })).toBeVisible();

  // The administrator puts it forward (premier is theirs to set).
  const admin = await pageOfItsOwn();
  await signedIn(admin, DEMO.admin);
  await admin.goto(`/products/${id}/control`);
  await expect(admin.getByRole('heading', { name: `Editing ${name} (#${id})` })).toBeVisible();
  await admin.getByRole('radio', { name: 'yes' }).check();
  await admin.getByRole('button', { name: 'Submit' }).click();
  await expect(notice(admin, 'Product status updated successfully')).toBeVisible();
  await expect(admin.getByText('(yes)')).toBeVisible();
});

test('My Products lists only the seller\'s own products', async ({ page, request }) => {
  // The seller's product, then another seller's, newer: first in a list of everyone's.
  const seller = await apiLogin(request, DEMO.seller.email, DEMO.seller.password);
  const own = await ownProduct(request, seller.token);
  const theirs = await ownProduct(request, (await registered(request)).token);
  const mine = await api(request, '/products', { page: 1, per_page: 100, scope: 'own' }, seller.token);
  await signedIn(page, DEMO.seller);
  await page.goto('/my-products');
  await expect(page.getByText(`Count: ${mine.HLL.total}`, { exact: true })).toBeVisible();
  await expect(row(page, own.name)).toBeVisible();
  await expect(table(page)).not.toContainText(theirs.name);
  // Every listed row is one of the seller's.
  const ids = new Set(mine.HLL.data.map((p: { id: number }) => String(p.id)));
  const shown = await table(page).getByRole('row').locator('td:nth-child(2)').allInnerTexts();
  expect(shown).toContain(String(own.id));
  for (const cell of shown) expect(ids.has(cell.trim())).toBe(true);
});

test('a CSV export downloads every searched row, not only the page', async ({ page, request }) => {
  // More rows under one word than a page holds (15).
  const word = unique('Exported ');
  const seller = await registered(request);
  const category = await newCategory(request);
  const shop = await newShop(request, seller.token, category);
  const count = 17;
  for (let i = 0; i < count; i++) await newProduct(request, seller.token, shop.id, category, `${word} ${i}`);
  await signedIn(page, DEMO.admin);
  await page.goto('/products');
  await search(page, word);
  await expect(page.getByText(`Count: ${count}`, { exact: true })).toBeVisible();
  await expect(table(page).getByRole('row')).toHaveCount(16);
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await (await downloading).path();
  const lines = fs.readFileSync(file, 'utf8').trim().split(/\r\n/);
  expect(lines[0].split(',')).toEqual(expect.arrayContaining(['Status', 'ID', 'Name', 'Currency', 'In stock', 'Brand']));
  expect(lines).toHaveLength(count + 1);
  expect(lines.slice(1).filter((line) => line.includes(word))).toHaveLength(count);
});

test('three shops are deactivated at once, after one confirmation', async ({ page, request }) => {
  // Three active shops of the test's own under one word, and a fourth left alone.
  const word = unique('Batch ');
  const seller = await registered(request);
  const category = await newCategory(request);
  const names: string[] = [];
  for (let i = 0; i < 4; i++) names.push((await newShop(request, seller.token, category, `${word} ${i}`)).name);
  await signedIn(page, DEMO.admin);
  await page.goto('/shops');
  await search(page, word);
  await expect(table(page).getByRole('row')).toHaveCount(5);
  for (const name of names.slice(0, 3)) {
    await expect(row(page, name).getByRole('img', { name: 'Active' })).toBeVisible();
    await row(page, name).getByRole('checkbox').check();
  }
  await page.getByRole('button', { name: 'Deactivate' }).click();
  await expect(page.getByRole('dialog')).toContainText('Deactivate: 3 selected records?');
  await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
  await expect(notice(page, '3 records updated')).toBeVisible();
  for (const name of names.slice(0, 3)) await expect(row(page, name).getByRole('img', { name: 'Inactive' })).toBeVisible();
  await expect(row(page, names[3]).getByRole('img', { name: 'Active' })).toBeVisible();
});

test('a shop is deleted only after a confirmation that names it', async ({ page, request }) => {
  const seller = await apiLogin(request, DEMO.seller.email, DEMO.seller.password);
  const name = unique('Closing shop ');
  const made = { detail: await newShop(request, seller.token, await newCategory(request), name) };
  await signedIn(page, DEMO.seller);
  await page.goto(`/my-shops/${made.detail.id}/control`);
  await page.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('dialog')).toContainText(`Delete ${name} (#${made.detail.id})?`);
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  await expect(row(page, name)).toBeVisible();
  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(notice(page, 'Shop deleted successfully')).toBeVisible();
  await expect(row(page, name)).toHaveCount(0);

  // Its address now names nothing: the panel says so at once, with the list below.
  await page.goto(`/my-shops/${made.detail.id}`);
  await expect(page.getByRole('alert').filter({ hasText: `Record ${made.detail.id} does not exist, or it is not yours` })).toBeVisible();
  await expect(table(page)).toBeVisible();
});

test('an ended session signs out at once with a word, and the page asked for reopens after signing in', async ({ page, request }) => {
  const admin = await apiLogin(request, DEMO.admin.email, DEMO.admin.password);
  const shop = await newShop(request, admin.token, await newCategory(request));
  await signedIn(page, DEMO.admin);
  // The session ends on the server (signed out elsewhere).
  const token = await page.evaluate(() => localStorage.getItem('token_x')!.replace(/\.[^.]+$/, ''));
  await page.request.post('/api/user/logout', { headers: { Authorization: `Bearer ${token}` }, data: {} });
  await page.goto(`/shops/${shop.id}`);
  await expect(page.getByText('Your session has ended, please sign in again')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByPlaceholder('Email or Phone Number e.g +44xxx').fill(DEMO.admin.email);
  await page.getByLabel('Password', { exact: false }).first().fill(DEMO.admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(new RegExp(`/shops/${shop.id}$`));
  await expect(page.getByRole('heading', { name: `Editing ${shop.name} (#${shop.id})` })).toBeVisible();
});

test('a search says why nothing was searched, and keeps the table', async ({ page }) => {
  await signedIn(page, DEMO.admin);
  await page.goto('/shops');
  await search(page, 'a');
  await expect(page.getByText('Type at least 2 letters or digits to search')).toBeVisible();
  await search(page, 'x'.repeat(150));
  await expect(page.getByText('A search can be at most 100 characters')).toBeVisible();
  await expect(table(page)).toBeVisible();
  await expect(page.getByText('An Error occurred')).toHaveCount(0);
});

test('a shop form flags every missing required field at once, not one by one', async ({ page }) => {
  await signedIn(page, DEMO.seller);
  await page.goto('/my-shops/create');
  await page.getByLabel('name *', { exact: true }).fill('Half a shop');
  await page.getByRole('button', { name: 'Save' }).click();
  // react-admin's validation, not the browser's: the nine others together, on the first click.
  await expect(page.getByText('Required')).toHaveCount(9);
  await expect(page).toHaveURL(/\/my-shops\/create$/);
});

test("a seller's product form says Required under a missing subcategory, and gives the server's words for a sale price above the price and a second currency", async ({ page }) => {
  await signedIn(page, DEMO.seller);
  // The form shows once every field's code has arrived: with the subcategory's held back there is no
  // form yet, so a Save pressed the moment the form shows cannot miss that field.
  const code = await holdRequests(page, '**/SubcategoryInput-*.js');
  await page.goto('/my-products/create');
  await code.asked();
  await expect(page.getByRole('tab', { name: 'Add / Edit' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0);
  await code.release();
  const subcategory = page.locator('.MuiFormControl-root', { has: page.getByRole('combobox', { name: 'Subcategory' }) });
  await page.getByLabel('name *', { exact: true }).fill(unique('Stool '));
  await page.getByRole('button', { name: 'Save' }).click();
  // No category yet, so the subcategory cannot be chosen: it is still flagged, with a word.
  await expect(subcategory.getByText('Required', { exact: true })).toBeVisible();
  const category = await newCategory(page.request);
  await pick(page, 'Category', category.name);
  await expect(subcategory.getByText('Required', { exact: true })).toBeVisible();
  await choose(page, 'Subcategory', category.subcategory.name);
  await expect(subcategory.getByText('Required', { exact: true })).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('product-form-required.png'), fullPage: true });

  // An existing product of one of the seller's shops: its price and currency are the server's to check.
  const seller = await apiLogin(page.request, DEMO.seller.email, DEMO.seller.password);
  const shop = await newShop(page.request, seller.token, category);
  const product = await newProduct(page.request, seller.token, shop.id, category, unique('Priced '), { price: 20 });
  // A second product in USD: the shop's currency is settled (the only product of a shop may change it).
  await newProduct(page.request, seller.token, shop.id, category);
  await page.goto(`/my-products/${product.id}`);
  await page.getByLabel('sale price *').fill(String(Number(product.price) + 1));
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(notice(page, "Sale price must be less than 'Price' when greater than Zero")).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('product-sale-price.png') });
  await page.getByLabel('sale price *').fill('0');
  const other = 'EUR';
  // The picker is named by its label and the code it holds.
  await page.getByRole('combobox', { name: `Currency ( Unique Currency per Shop ) ${product.currency.code}`, exact: true }).click();
  await page.getByRole('option', { name: other }).first().click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(notice(page, `Unique Currency per Shop: this shop's products are priced in USD, not ${other}`)).toBeVisible();
});

test('premier yes/no is offered on the Control tab to admins only', async ({ page, pageOfItsOwn }) => {
  const seller = await apiLogin(page.request, DEMO.seller.email, DEMO.seller.password);
  const product = await ownProduct(page.request, seller.token);
  await signedIn(page, DEMO.seller);
  await page.goto(`/my-products/${product.id}/control`);
  await expect(page.getByRole('radio', { name: 'draft' })).toBeVisible();
  await expect(page.getByRole('radio', { name: 'pre-owned' })).toBeVisible();
  await expect(page.getByRole('radio', { name: 'yes' })).toHaveCount(0);
  await expect(page.getByRole('radio', { name: 'no' })).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('seller-control.png') });
  // The seller's Control still saves (premier is sent as it was).
  await page.getByRole('radio', { name: 'pre-owned' }).check();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(notice(page, 'Product status updated successfully')).toBeVisible();

  const admin = await pageOfItsOwn();
  await signedIn(admin, DEMO.admin);
  await admin.goto(`/products/${product.id}/control`);
  await expect(admin.getByRole('radio', { name: 'yes' })).toBeVisible();
  await expect(admin.getByRole('radio', { name: 'no' })).toBeVisible();
});

test("a refresh of the open product keeps the Control tab's choice and shows what changed elsewhere", async ({ page }) => {
  const seller = await apiLogin(page.request, DEMO.seller.email, DEMO.seller.password);
  const product = await ownProduct(page.request, seller.token);
  await signedIn(page, DEMO.seller);
  await page.goto('/my-products');
  await search(page, product.name);
  await expect(row(page, product.name)).toBeVisible();

  // The panel opens on the row the list holds; its refresh is held back while the product's type is
  // changed elsewhere and the seller chooses draft.
  const lookUps = await holdRecordLookUps(page);
  await row(page, product.name).getByText(product.name, { exact: true }).click();
  await page.getByRole('tab', { name: 'Control' }).click();
  await lookUps.asked();
  const changed = await api(page.request, '/product/status', { id: product.id, product_type: 'preown' }, seller.token);
  expect(changed.status, changed.query).toBe(true);
  await page.getByRole('radio', { name: 'draft' }).check();
  await lookUps.release();
  await expect(page.getByRole('radio', { name: 'pre-owned' })).toBeChecked();
  await expect(page.getByRole('radio', { name: 'draft' })).toBeChecked();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(notice(page, 'Product status updated successfully')).toBeVisible();
  // Both were saved: the product read afresh shows them.
  await page.goto(`/my-products/${product.id}/control`);
  await expect(page.getByRole('radio', { name: 'pre-owned' })).toBeChecked();
  await expect(page.getByRole('radio', { name: 'draft' })).toBeChecked();
});
