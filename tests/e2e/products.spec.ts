import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { hsl, png } from '../../server/png';
import { DEMO, api, apiLogin, signedIn, unique } from './helpers';

const table = (page: Page) => page.getByRole('table');
const row = (page: Page, text: string) => table(page).getByRole('row').filter({ hasText: text });
const notice = (page: Page, text: string | RegExp) => page.getByText(text, { exact: typeof text === 'string' });

async function choose(page: Page, label: string, option: string | RegExp) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option }).first().click();
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

test('a seller creates a product with 4 images, sees them, and sets it to draft; an admin sets premier @smoke', async ({ page, browser }) => {
  const name = unique('Lamp ');
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
  await choose(page, 'Category', 'Electronics');
  await choose(page, 'Subcategory', 'Phones');
  await choose(page, 'Currency ( Unique Currency per Shop )', 'NGN');
  await choose(page, 'Shop', /Sam's Store/);
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
  const admin = await browser.newPage();
  await signedIn(admin, DEMO.admin);
  await admin.goto(`/products/${id}/control`);
  await expect(admin.getByRole('heading', { name: `Editing ${name} (#${id})` })).toBeVisible();
  await admin.getByRole('radio', { name: 'yes' }).check();
  await admin.getByRole('button', { name: 'Submit' }).click();
  await expect(notice(admin, 'Product status updated successfully')).toBeVisible();
  await expect(admin.getByText('(yes)')).toBeVisible();
  await admin.close();
});

test('My Products lists only the seller\'s own products', async ({ page, request }) => {
  const seller = await apiLogin(request, DEMO.seller.email, DEMO.seller.password);
  const mine = await api(request, '/products', { page: 1, per_page: 100, scope: 'own' }, seller.token);
  await signedIn(page, DEMO.seller);
  await page.goto('/my-products');
  await expect(page.getByText(`Count: ${mine.HLL.total}`)).toBeVisible();
  const admin = await apiLogin(request, DEMO.admin.email, DEMO.admin.password);
  const all = await api(request, '/products', { page: 1 }, admin.token);
  expect(all.HLL.total).toBeGreaterThan(mine.HLL.total);
  // Every listed row is one of the seller's.
  const ids = new Set(mine.HLL.data.map((p: { id: number }) => String(p.id)));
  const shown = await table(page).getByRole('row').locator('td:nth-child(2)').allInnerTexts();
  expect(shown.length).toBeGreaterThan(0);
  for (const cell of shown) expect(ids.has(cell.trim())).toBe(true);
});

test('a CSV export downloads every searched row, not only the page', async ({ page, request }) => {
  const { token } = await apiLogin(request, DEMO.admin.email, DEMO.admin.password);
  const count = ((await api(request, '/search-dive', { keyIndex: 7, value: 'Product 1', targets: ['id', 'name'] }, token)).HLL as unknown[]).length;
  expect(count).toBeGreaterThan(1);
  await signedIn(page, DEMO.admin);
  await page.goto('/products');
  await search(page, 'Product 1');
  await expect(page.getByText(`Count: ${count}`, { exact: true })).toBeVisible();
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await (await downloading).path();
  const lines = fs.readFileSync(file, 'utf8').trim().split(/\r\n/);
  expect(lines[0].split(',')).toEqual(expect.arrayContaining(['Status', 'ID', 'Name', 'Currency', 'In stock', 'Brand']));
  expect(lines).toHaveLength(count + 1);
  expect(lines.slice(1).every((line) => /Product 1/.test(line))).toBe(true);
});

test('three shops are deactivated at once, after one confirmation', async ({ page }) => {
  await signedIn(page, DEMO.admin);
  await page.goto('/shops');
  const rows = table(page).getByRole('row').filter({ has: page.getByRole('img', { name: 'Active' }) });
  const names: string[] = [];
  for (let i = 0; i < 3; i++) {
    const r = rows.nth(i);
    names.push((await r.locator('td').nth(3).innerText()).trim());
    await r.getByRole('checkbox').check();
  }
  await page.getByRole('button', { name: 'Deactivate' }).click();
  await expect(page.getByRole('dialog')).toContainText('Deactivate: 3 selected records?');
  await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
  await expect(notice(page, '3 records updated')).toBeVisible();
  for (const name of names) await expect(row(page, name).getByRole('img', { name: 'Inactive' })).toBeVisible();
});

test('a shop is deleted only after a confirmation that names it', async ({ page, request }) => {
  const seller = await apiLogin(request, DEMO.seller.email, DEMO.seller.password);
  const name = unique('Closing shop ');
  const made = await api(request, '/shop', {
    name, description: 'Closing down', category_id: 1, address: { street_name: '1 Road', zip: '1000', country: 'Liberia' },
    bank: { bank_name: 'Bank', bank_country: 'Liberia', account_name: 'Acc', account_number: '1' },
  }, seller.token);
  expect(made.status).toBe(true);
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

test('an ended session signs out at once with a word, and the page asked for reopens after signing in', async ({ page }) => {
  await signedIn(page, DEMO.admin);
  // The session ends on the server (signed out elsewhere).
  const token = await page.evaluate(() => localStorage.getItem('token_x')!.replace(/\.[^.]+$/, ''));
  await page.request.post('/api/user/logout', { headers: { Authorization: `Bearer ${token}` }, data: {} });
  await page.goto('/shops/3');
  await expect(page.getByText('Your session has ended, please sign in again')).toBeVisible({ timeout: 5000 });
  await expect(page).toHaveURL(/\/login$/);
  await page.getByPlaceholder('Email or Phone Number e.g +44xxx').fill(DEMO.admin.email);
  await page.getByLabel('Password', { exact: false }).first().fill(DEMO.admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/shops\/3$/);
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
  await page.goto('/my-products/create');
  const subcategory = page.locator('.MuiFormControl-root', { has: page.getByRole('combobox', { name: 'Subcategory' }) });
  await page.getByLabel('name *', { exact: true }).fill(unique('Stool '));
  await page.getByRole('button', { name: 'Save' }).click();
  // No category yet, so the subcategory cannot be chosen: it is still flagged, with a word.
  await expect(subcategory.getByText('Required', { exact: true })).toBeVisible();
  await choose(page, 'Category', 'Electronics');
  await expect(subcategory.getByText('Required', { exact: true })).toBeVisible();
  await choose(page, 'Subcategory', 'Phones');
  await expect(subcategory.getByText('Required', { exact: true })).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('product-form-required.png'), fullPage: true });

  // An existing product of one of the seller's shops: its price and currency are the server's to check.
  const seller = await apiLogin(page.request, DEMO.seller.email, DEMO.seller.password);
  const mine = (await api(page.request, '/products', { page: 1, scope: 'own' }, seller.token)).HLL.data as { id: number; price: number; currency: { code: string } }[];
  const product = mine.find((p) => Number(p.price) > 0)!;
  await page.goto(`/my-products/${product.id}`);
  await page.getByLabel('sale price *').fill(String(Number(product.price) + 1));
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(notice(page, "Sale price must be less than 'Price' when greater than Zero")).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('product-sale-price.png') });
  await page.getByLabel('sale price *').fill('0');
  const other = product.currency.code === 'EUR' ? 'GBP' : 'EUR';
  // The picker is named by its label and the code it holds.
  await page.getByRole('combobox', { name: `Currency ( Unique Currency per Shop ) ${product.currency.code}`, exact: true }).click();
  await page.getByRole('option', { name: other }).first().click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(notice(page, new RegExp(`^Unique Currency per Shop: this shop's products are priced in \\w+, not ${other}$`))).toBeVisible();
});

test('premier yes/no is offered on the Control tab to admins only', async ({ page, browser }) => {
  await signedIn(page, DEMO.seller);
  const seller = await apiLogin(page.request, DEMO.seller.email, DEMO.seller.password);
  const [product] = (await api(page.request, '/products', { page: 1, scope: 'own' }, seller.token)).HLL.data as { id: number }[];
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

  const admin = await browser.newPage();
  await signedIn(admin, DEMO.admin);
  await admin.goto(`/products/${product.id}/control`);
  await expect(admin.getByRole('radio', { name: 'yes' })).toBeVisible();
  await expect(admin.getByRole('radio', { name: 'no' })).toBeVisible();
  await admin.close();
});
